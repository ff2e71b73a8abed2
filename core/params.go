package core

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// member is one top-level member of a JSON object to add or replace.
type member struct {
	key string
	val json.RawMessage // nil removes the member
}

// objectMembers splits a JSON object into its members, keeping each value's
// bytes exactly as received (the values alias obj).
func objectMembers(obj json.RawMessage) ([]member, error) {
	obj = bytes.TrimSpace(obj)
	if len(obj) == 0 || string(obj) == "null" {
		return nil, nil
	}
	if obj[0] != '{' {
		return nil, fmt.Errorf("%w: a JSON object is needed, got %.40s", errBadParams, obj)
	}
	if err := syntaxError(obj); err != nil {
		return nil, fmt.Errorf("%w: %v", errBadParams, err)
	}
	return splitMembers(obj)
}

// knownMembers splits a JSON object that is known to be valid — a result
// or params of a decoded message, which DecodeMessage validated as a whole —
// without validating it again (a multi-megabyte result was validated four
// times per call before). Anything but an object has no members.
func knownMembers(obj json.RawMessage) []member {
	obj = bytes.TrimSpace(obj)
	if len(obj) == 0 || obj[0] != '{' {
		return nil
	}
	ms, _ := splitMembers(obj)
	return ms
}

// syntaxError returns nil if data is valid JSON, else the syntax error with
// its text and position. Validating first keeps the common case fast.
func syntaxError(data []byte) error {
	if validJSON(data) {
		return nil
	}
	var v json.RawMessage
	return json.Unmarshal(data, &v)
}

// splitMembers splits obj, which must be a valid JSON object (checked by
// the caller), into its members with a plain scan.
func splitMembers(obj []byte) ([]member, error) {
	var out []member
	i := skipSpace(obj, 1)
	for i < len(obj) && obj[i] != '}' {
		if obj[i] == ',' {
			i = skipSpace(obj, i+1)
		}
		kend := stringEnd(obj, i)
		key := obj[i:kend]
		var k string
		if bytes.IndexByte(key, '\\') >= 0 || !isASCII(key) {
			var err error
			if k, err = unquote(key); err != nil {
				return nil, err
			}
		} else {
			k = memberName(key[1 : len(key)-1])
		}
		i = skipSpace(obj, kend)
		i = skipSpace(obj, i+1) // the colon
		vend := valueEnd(obj, i)
		if out == nil {
			out = make([]member, 0, 4)
		}
		out = append(out, member{k, json.RawMessage(obj[i:vend])})
		i = skipSpace(obj, vend)
	}
	return out, nil
}

// unquote decodes a JSON string with escapes or non-ASCII bytes (kept
// apart so that its result does not escape in splitMembers' loop).
func unquote(key []byte) (string, error) {
	var k string
	err := json.Unmarshal(key, &k)
	return k, err
}

// memberName returns the member name b as a string, without allocating for
// the names of the messages and results every call reads.
func memberName(b []byte) string {
	switch string(b) {
	case "jsonrpc":
		return "jsonrpc"
	case "id":
		return "id"
	case "method":
		return "method"
	case "params":
		return "params"
	case "result":
		return "result"
	case "error":
		return "error"
	case "name":
		return "name"
	case "arguments":
		return "arguments"
	case "_meta":
		return "_meta"
	case "content":
		return "content"
	case "structuredContent":
		return "structuredContent"
	case "isError":
		return "isError"
	case "resultType":
		return "resultType"
	case "ttlMs":
		return "ttlMs"
	case "cursor":
		return "cursor"
	case "nextCursor":
		return "nextCursor"
	case "uri":
		return "uri"
	case "progressToken":
		return "progressToken"
	}
	return string(b)
}

func isASCII(b []byte) bool {
	for _, c := range b {
		if c >= 0x80 {
			return false
		}
	}
	return true
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// stringEnd returns the index after the JSON string starting at b[i]. It
// jumps from quote to quote (bytes.IndexByte is fast) and counts the
// backslashes before each.
func stringEnd(b []byte, i int) int {
	j := i + 1
	for {
		k := bytes.IndexByte(b[j:], '"')
		if k < 0 {
			return len(b)
		}
		j += k
		n := 0
		for p := j - 1; p > i && b[p] == '\\'; p-- {
			n++
		}
		if n%2 == 0 {
			return j + 1
		}
		j++
	}
}

// valueEnd returns the index after the JSON value starting at b[i].
func valueEnd(b []byte, i int) int {
	switch b[i] {
	case '"':
		return stringEnd(b, i)
	case '{', '[':
		depth := 0
		for j := i; j < len(b); j++ {
			switch b[j] {
			case '"':
				j = stringEnd(b, j) - 1
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return j + 1
				}
			}
		}
		return len(b)
	}
	j := i
	for j < len(b) && b[j] != ',' && b[j] != '}' && b[j] != ']' && b[j] != ' ' && b[j] != '\t' && b[j] != '\n' && b[j] != '\r' {
		j++
	}
	return j
}

// appendObject encodes members as a JSON object.
func appendObject(dst []byte, ms []member) []byte {
	if dst == nil {
		dst = make([]byte, 0, objectSize(ms))
	}
	dst = append(dst, '{')
	first := true
	for _, m := range ms {
		if m.val == nil {
			continue
		}
		if !first {
			dst = append(dst, ',')
		}
		first = false
		dst = appendJSONString(dst, m.key)
		dst = append(dst, ':')
		dst = append(dst, m.val...)
	}
	return append(dst, '}')
}

// objectSize is the encoded size of members ms (exact when their names
// need no escaping).
func objectSize(ms []member) int {
	n := 2
	for _, m := range ms {
		n += len(m.key) + len(m.val) + 4
	}
	return n
}

// setMembers replaces or adds top-level members of obj.
func setMembers(ms []member, add ...member) []member {
	for _, a := range add {
		if i := memberIndex(ms, a.key); i >= 0 {
			ms[i].val = a.val
		} else {
			ms = append(ms, a)
		}
	}
	return ms
}

// memberIndex returns the index of the member named key, or -1.
func memberIndex(ms []member, key string) int {
	for i := range ms {
		if ms[i].key == key {
			return i
		}
	}
	return -1
}

// buildParams encodes the members ms with metaAdd merged into their _meta
// object (members already present in the caller's _meta are kept unless
// replaced) and the top-level members in top set. It may modify ms and
// metaAdd.
func buildParams(ms []member, metaAdd []member, top ...member) (json.RawMessage, error) {
	var err error
	if len(metaAdd) > 0 {
		var meta []member
		if i := memberIndex(ms, "_meta"); i >= 0 {
			meta, err = objectMembers(ms[i].val)
			if err != nil {
				return nil, fmt.Errorf("core: _meta: %w", err)
			}
		}
		if meta == nil {
			meta = metaAdd // the caller's own slice: buildParams may modify it
		} else {
			meta = setMembers(meta, metaAdd...)
		}
		ms = setMembers(ms, member{"_meta", appendObject(nil, meta)})
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
	i := skipSpace(raw, 0)
	if i >= len(raw) || raw[i] != '{' {
		return false
	}
	i = skipSpace(raw, i+1)
	for i < len(raw) && raw[i] != '}' {
		if raw[i] == ',' {
			i = skipSpace(raw, i+1)
			continue
		}
		if raw[i] != '"' {
			return true // not well-formed: let the caller's parser decide
		}
		kend := stringEnd(raw, i)
		k := raw[i+1 : max(kend-1, i+1)]
		if string(k) == name || bytes.IndexByte(k, '\\') >= 0 {
			return true
		}
		i = skipSpace(raw, kend)
		if i >= len(raw) || raw[i] != ':' {
			return true
		}
		i = skipSpace(raw, i+1)
		if i >= len(raw) {
			return true
		}
		i = skipSpace(raw, valueEnd(raw, i))
	}
	return false
}

// getMember returns the raw value of a top-level member, or nil.
func getMember(ms []member, key string) json.RawMessage {
	for _, m := range ms {
		if m.key == key {
			return m.val
		}
	}
	return nil
}

// cacheKeyParams is the part of params that identifies a cacheable request:
// everything but _meta.
func cacheKeyParams(ms []member) string {
	var b strings.Builder
	for _, m := range ms {
		if m.key == "_meta" || m.val == nil {
			continue
		}
		b.WriteString(m.key)
		b.WriteByte('=')
		b.Write(m.val)
		b.WriteByte(';')
	}
	return b.String()
}

// stringMember decodes a string member ("" when absent or not a string).
func stringMember(ms []member, key string) string { return rawString(getMember(ms, key)) }
