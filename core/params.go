package core

import (
	"bytes"
	"strings"

	"github.com/mcpwasm/mcpwasm/internal/errf"
	"github.com/mcpwasm/mcpwasm/internal/jsonscan"
	"github.com/mcpwasm/mcpwasm/jsonrpc"
)

// objectMembers splits a JSON object into its members, keeping each value's
// bytes exactly as received (the values alias obj).
func objectMembers(obj RawMessage) ([]jsonscan.Member, error) {
	obj = bytes.TrimSpace(obj)
	if len(obj) == 0 || string(obj) == "null" {
		return nil, nil
	}
	if obj[0] != '{' {
		return nil, errf.Errorf("%w: a JSON object is needed, got %.40s", errBadParams, string(obj))
	}
	if err := jsonscan.SyntaxError(obj); err != nil {
		return nil, wrap(errBadParams, err)
	}
	return jsonscan.SplitMembers(obj)
}

// knownMembers splits a JSON object that is known to be valid — a result
// or params of a decoded message, which DecodeMessage validated as a whole —
// without validating it again (a multi-megabyte result was validated four
// times per call before). Anything but an object has no members.
func knownMembers(obj RawMessage) []jsonscan.Member {
	obj = bytes.TrimSpace(obj)
	if len(obj) == 0 || obj[0] != '{' {
		return nil
	}
	ms, _ := jsonscan.SplitMembers(obj)
	return ms
}

// appendObject encodes members as a JSON object.
func appendObject(dst []byte, ms []jsonscan.Member) []byte {
	if dst == nil {
		dst = make([]byte, 0, objectSize(ms))
	}
	dst = append(dst, '{')
	first := true
	for _, m := range ms {
		if m.Val == nil {
			continue
		}
		if !first {
			dst = append(dst, ',')
		}
		first = false
		dst = jsonscan.AppendString(dst, m.Key)
		dst = append(dst, ':')
		dst = append(dst, m.Val...)
	}
	return append(dst, '}')
}

// objectSize is the encoded size of members ms (exact when their names
// need no escaping).
func objectSize(ms []jsonscan.Member) int {
	n := 2
	for _, m := range ms {
		n += len(m.Key) + len(m.Val) + 4
	}
	return n
}

// setMembers replaces or adds top-level members of obj.
func setMembers(ms []jsonscan.Member, add ...jsonscan.Member) []jsonscan.Member {
	for _, a := range add {
		if i := memberIndex(ms, a.Key); i >= 0 {
			ms[i].Val = a.Val
		} else {
			ms = append(ms, a)
		}
	}
	return ms
}

// memberIndex returns the index of the member named key, or -1.
//
//go:noinline
func memberIndex(ms []jsonscan.Member, key string) int {
	for i := range ms {
		if ms[i].Key == key {
			return i
		}
	}
	return -1
}

// buildParams encodes the members ms with metaAdd merged into their _meta
// object (members already present in the caller's _meta are kept unless
// replaced) and the top-level members in top set. It may modify ms and
// metaAdd.
func buildParams(ms []jsonscan.Member, metaAdd []jsonscan.Member, top ...jsonscan.Member) (RawMessage, error) {
	var err error
	if len(metaAdd) > 0 {
		var meta []jsonscan.Member
		if i := memberIndex(ms, "_meta"); i >= 0 {
			meta, err = objectMembers(ms[i].Val)
			if err != nil {
				return nil, errf.Errorf("core: _meta: %w", err)
			}
		}
		if meta == nil {
			meta = metaAdd // the caller's own slice: buildParams may modify it
		} else {
			meta = setMembers(meta, metaAdd...)
		}
		ms = setMembers(ms, jsonscan.Member{Key: "_meta", Val: appendObject(nil, meta)})
	}
	ms = setMembers(ms, top...)
	return appendObject(nil, ms), nil
}

// walkTop calls f with the quoted name and the index of the value of each
// top-level member of the JSON object raw, in order, until f returns true.
// It walks the names and skips the values (strings quote to quote), so a
// large result costs little more than a search for quotes; a value is
// skipped only when f lets the walk go on, so a walk that stops at a
// member does not pay for its value. It reports malformed input it met on
// the way; raw that is not an object has no members.
func walkTop(raw RawMessage, f func(name []byte, val int) (stop bool)) (malformed bool) {
	i := jsonscan.SkipSpace(raw, 0)
	if i >= len(raw) || raw[i] != '{' {
		return false
	}
	i = jsonscan.SkipSpace(raw, i+1)
	for i < len(raw) && raw[i] != '}' {
		if raw[i] == ',' {
			i = jsonscan.SkipSpace(raw, i+1)
			continue
		}
		if raw[i] != '"' {
			return true
		}
		kend := jsonscan.StringEnd(raw, i)
		name := raw[i:kend]
		i = jsonscan.SkipSpace(raw, kend)
		if i >= len(raw) || raw[i] != ':' {
			return true
		}
		i = jsonscan.SkipSpace(raw, i+1)
		if i >= len(raw) {
			return true
		}
		if f(name, i) {
			return false
		}
		i = jsonscan.SkipSpace(raw, jsonscan.ValueEnd(raw, i))
	}
	return false
}

// mayHaveKey reports whether the JSON object raw may have a top-level
// member named key (given with its quotes): false only when none of its
// member names is key, not even escaped, and raw is not malformed on the
// way (then the caller's parser decides).
func mayHaveKey(raw RawMessage, key string) bool {
	found := false
	malformed := walkTop(raw, func(name []byte, _ int) bool {
		n := name[1:max(len(name)-1, 1)]
		found = string(n) == key[1:len(key)-1] || bytes.IndexByte(n, '\\') >= 0
		return found
	})
	return found || malformed
}

// topMember returns the raw value of the top-level member key of a
// decoded (valid) JSON object, or nil: one walk of the names (see
// [walkTop]) that stops at the first match, not a split of all the
// members. A name written with escapes is compared after unescaping.
func topMember(raw RawMessage, key string) RawMessage {
	var v RawMessage
	walkTop(raw, func(name []byte, val int) bool {
		if n := name[1:max(len(name)-1, 1)]; string(n) == key || bytes.IndexByte(n, '\\') >= 0 && jsonscan.RawString(name) == key {
			v = raw[val:jsonscan.ValueEnd(raw, val)]
			return true
		}
		return false
	})
	return v
}

// resultMember is [topMember] of result, the result resp carried (or what
// processing made of it): from the members the decoder recorded while it
// validated a large result ([jsonrpc.Response.ResultMember]) when result
// is still that result, else from a walk.
func resultMember(resp *jsonrpc.Response, result RawMessage, key string) RawMessage {
	if len(result) > 0 && len(result) == len(resp.Result) && &result[0] == &resp.Result[0] {
		if v, ok := resp.ResultMember(key); ok {
			return v
		}
	}
	return topMember(result, key)
}

// getMember returns the raw value of a top-level member, or nil.
//
//go:noinline
func getMember(ms []jsonscan.Member, key string) RawMessage {
	for _, m := range ms {
		if m.Key == key {
			return m.Val
		}
	}
	return nil
}

// cacheKeyParams is the part of params that identifies a cacheable request:
// everything but _meta.
func cacheKeyParams(ms []jsonscan.Member) string {
	var b strings.Builder
	for _, m := range ms {
		if m.Key == "_meta" || m.Val == nil {
			continue
		}
		b.WriteString(m.Key)
		b.WriteByte('=')
		b.Write(m.Val)
		b.WriteByte(';')
	}
	return b.String()
}

// stringMember decodes a string member ("" when absent or not a string).
func stringMember(ms []jsonscan.Member, key string) string {
	return jsonscan.RawString(getMember(ms, key))
}
