package jsonscan

import (
	"bytes"
	"unicode/utf8"

	"github.com/mcpwasm/mcpwasm/internal/rawjson"
)

// Member is one top-level member of a JSON object: as read, or to add or
// replace.
type Member struct {
	Key string
	Val rawjson.RawMessage // nil removes the member (when building)
}

// SyntaxError returns nil if data is valid JSON, else the syntax error with
// its text and position. Validating first keeps the common case fast.
func SyntaxError(data []byte) error {
	if Valid(data) {
		return nil
	}
	if _, err := Decode(data); err != nil {
		return err
	}
	return &Error{Offset: 0, Msg: "invalid JSON"} // Valid and Decode disagree: cannot happen
}

// SplitMembers splits obj, which must be a valid JSON object (checked by
// the caller), into its members with a plain scan.
func SplitMembers(obj []byte) ([]Member, error) {
	var out []Member
	i := SkipSpace(obj, 1)
	for i < len(obj) && obj[i] != '}' {
		if obj[i] == ',' {
			i = SkipSpace(obj, i+1)
		}
		kend := StringEnd(obj, i)
		k, err := memberKey(obj[i:kend])
		if err != nil {
			return nil, err
		}
		i = SkipSpace(obj, kend)
		i = SkipSpace(obj, i+1) // the colon
		vend := ValueEnd(obj, i)
		if out == nil {
			out = make([]Member, 0, 4)
		}
		out = append(out, Member{k, rawjson.RawMessage(obj[i:vend])})
		i = SkipSpace(obj, vend)
	}
	return out, nil
}

// memberKey returns the name of the JSON string key (quotes included):
// without allocating for the common names, unescaped when it has escapes
// or non-ASCII bytes.
func memberKey(key []byte) (string, error) {
	if bytes.IndexByte(key, '\\') >= 0 || !IsASCII(key) {
		return Unquote(key)
	}
	return memberName(key[1 : len(key)-1]), nil
}

// memberName returns the Member name b as a string, without allocating for
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

func IsASCII(b []byte) bool {
	for _, c := range b {
		if c >= 0x80 {
			return false
		}
	}
	return true
}

func SkipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// StringEnd returns the index after the JSON string starting at b[i]. It
// jumps from quote to quote (bytes.IndexByte is fast) and counts the
// backslashes before each.
func StringEnd(b []byte, i int) int {
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

// ValueEnd returns the index after the JSON value starting at b[i].
func ValueEnd(b []byte, i int) int {
	switch b[i] {
	case '"':
		return StringEnd(b, i)
	case '{', '[':
		depth := 0
		for j := i; j < len(b); j++ {
			switch b[j] {
			case '"':
				j = StringEnd(b, j) - 1
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

// AppendString appends s as a JSON string, escaped as encoding/json
// escapes it: quotes, backslashes and control characters; '<', '>' and '&'
// as \u003c, \u003e and \u0026; U+2028 and U+2029; invalid UTF-8 as
// U+FFFD.
func AppendString(dst []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 0x7f || asciiEscape[c] != '0' {
			return appendEscaped(dst, s)
		}
	}
	dst = append(dst, '"')
	dst = append(dst, s...)
	return append(dst, '"')
}

// asciiEscape has, for each ASCII byte, '0' when a JSON string holds it
// as it is, else the letter of its escape (\n, \", ...), 'u' for \u00XX.
const asciiEscape = "uuuuuuuubtnufruuuuuuuuuuuuuuuuuu00\"000u000000000000000000000u0u0" +
	"0000000000000000000000000000\\00000000000000000000000000000000000"

func appendEscaped(dst []byte, s string) []byte {
	dst = add(dst, `"`)
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		n := 1
		if c < utf8.RuneSelf {
			e := asciiEscape[c]
			if e == '0' {
				i++
				continue
			}
			dst = add(dst, s[start:i])
			if e == 'u' {
				dst = appendUnicodeEscape(dst, rune(c))
			} else {
				dst = append(dst, '\\', e)
			}
		} else {
			var r rune
			r, n = utf8.DecodeRuneInString(s[i:])
			if (r != utf8.RuneError || n != 1) && r != '\u2028' && r != '\u2029' {
				i += n
				continue
			}
			dst = appendUnicodeEscape(add(dst, s[start:i]), r)
		}
		i += n
		start = i
	}
	return add(add(dst, s[start:]), `"`)
}

// appendUnicodeEscape appends the escape \uXXXX of r (below U+10000).
//
//go:noinline
func appendUnicodeEscape(dst []byte, r rune) []byte {
	const hex = "0123456789abcdef"
	return append(dst, '\\', 'u', hex[r>>12&15], hex[r>>8&15], hex[r>>4&15], hex[r&15])
}

// RawString returns the value of a raw JSON string ("" for other values).
func RawString(raw rawjson.RawMessage) string {
	if b, ok := plainString(raw); ok {
		return string(b)
	}
	if len(raw) < 2 || raw[0] != '"' {
		return ""
	}
	s, _ := Unquote(raw)
	return s
}

// RawStringIs reports whether raw, a JSON value, is the string s: what
// RawString(raw) == s says, without making the string when raw has no
// escapes (the common case: a resultType compared on every result).
func RawStringIs(raw rawjson.RawMessage, s string) bool {
	if b, ok := plainString(raw); ok {
		return string(b) == s
	}
	return RawString(raw) == s
}

// plainString returns the bytes between the quotes of raw, a JSON string
// with no escapes and only ASCII (its value as it is); ok is false for
// any other value.
func plainString(raw rawjson.RawMessage) (b []byte, ok bool) {
	if len(raw) < 2 || raw[0] != '"' || bytes.IndexByte(raw, '\\') >= 0 || !IsASCII(raw) {
		return nil, false
	}
	return raw[1 : len(raw)-1], true
}

// add appends x, for the encoders' punctuation: one call instead of an
// append inlined at each site (much code in WebAssembly).
//
//go:noinline
func add(dst []byte, x string) []byte { return append(dst, x...) }
