package core

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/mcpwasm/mcpwasm/internal/jsonscan"
)

// objectMembers splits a JSON object into its members, keeping each value's
// bytes exactly as received (the values alias obj).
func objectMembers(obj json.RawMessage) ([]jsonscan.Member, error) {
	obj = bytes.TrimSpace(obj)
	if len(obj) == 0 || string(obj) == "null" {
		return nil, nil
	}
	if obj[0] != '{' {
		return nil, fmt.Errorf("%w: a JSON object is needed, got %.40s", errBadParams, obj)
	}
	if err := jsonscan.SyntaxError(obj); err != nil {
		return nil, fmt.Errorf("%w: %v", errBadParams, err)
	}
	return jsonscan.SplitMembers(obj)
}

// knownMembers splits a JSON object that is known to be valid — a result
// or params of a decoded message, which DecodeMessage validated as a whole —
// without validating it again (a multi-megabyte result was validated four
// times per call before). Anything but an object has no members.
func knownMembers(obj json.RawMessage) []jsonscan.Member {
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
func buildParams(ms []jsonscan.Member, metaAdd []jsonscan.Member, top ...jsonscan.Member) (json.RawMessage, error) {
	var err error
	if len(metaAdd) > 0 {
		var meta []jsonscan.Member
		if i := memberIndex(ms, "_meta"); i >= 0 {
			meta, err = objectMembers(ms[i].Val)
			if err != nil {
				return nil, fmt.Errorf("core: _meta: %w", err)
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

// mayHaveKey reports whether the JSON object raw may have a top-level
// member named key (given with its quotes): false only when none of its
// member names is key, not even escaped. It walks the top-level names and
// skips the values (strings quote to quote), so a large result costs
// little more than a search for quotes.
func mayHaveKey(raw json.RawMessage, key string) bool {
	name := key[1 : len(key)-1]
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
			return true // not well-formed: let the caller's parser decide
		}
		kend := jsonscan.StringEnd(raw, i)
		k := raw[i+1 : max(kend-1, i+1)]
		if string(k) == name || bytes.IndexByte(k, '\\') >= 0 {
			return true
		}
		i = jsonscan.SkipSpace(raw, kend)
		if i >= len(raw) || raw[i] != ':' {
			return true
		}
		i = jsonscan.SkipSpace(raw, i+1)
		if i >= len(raw) {
			return true
		}
		i = jsonscan.SkipSpace(raw, jsonscan.ValueEnd(raw, i))
	}
	return false
}

// topMember returns the raw value of the top-level member key of a
// decoded (valid) JSON object, walking the names once and stopping at the
// first match, the way [mayHaveKey] walks them: one pass over a large
// result, not a split of all its members. A name written with escapes is
// compared after unescaping.
func topMember(raw json.RawMessage, key string) json.RawMessage {
	i := jsonscan.SkipSpace(raw, 0)
	if i >= len(raw) || raw[i] != '{' {
		return nil
	}
	i = jsonscan.SkipSpace(raw, i+1)
	for i < len(raw) && raw[i] != '}' {
		if raw[i] == ',' {
			i = jsonscan.SkipSpace(raw, i+1)
			continue
		}
		if raw[i] != '"' {
			return nil
		}
		kend := jsonscan.StringEnd(raw, i)
		k := raw[i:kend]
		i = jsonscan.SkipSpace(raw, kend)
		if i >= len(raw) || raw[i] != ':' {
			return nil
		}
		i = jsonscan.SkipSpace(raw, i+1)
		if i >= len(raw) {
			return nil
		}
		vend := jsonscan.ValueEnd(raw, i)
		if name := k[1:max(len(k)-1, 1)]; string(name) == key || bytes.IndexByte(name, '\\') >= 0 && jsonscan.RawString(k) == key {
			return raw[i:vend]
		}
		i = jsonscan.SkipSpace(raw, vend)
	}
	return nil
}

// getMember returns the raw value of a top-level member, or nil.
func getMember(ms []jsonscan.Member, key string) json.RawMessage {
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
