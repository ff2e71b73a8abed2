package urlx

import (
	"errors"
	"strconv"
)

// mode names the URL component a string is escaped for or unescaped from.
type mode uint8

const (
	modePath mode = iota
	modePathSegment
	modeHost
	modeZone
	modeUserinfo
	modeQueryComponent
	modeFragment
)

const upperHex = "0123456789ABCDEF"

// EscapeError reports an invalid percent-escape (the text is the escape,
// at most 3 bytes).
type EscapeError string

// Error implements error.
func (e EscapeError) Error() string { return "invalid URL escape " + strconv.Quote(string(e)) }

// InvalidHostError reports a byte a host may not contain.
type InvalidHostError string

// Error implements error.
func (e InvalidHostError) Error() string {
	return "invalid character " + strconv.Quote(string(e)) + " in host name"
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

func unhex(c byte) byte {
	switch {
	case c >= 'a':
		return c - 'a' + 10
	case c >= 'A':
		return c - 'A' + 10
	}
	return c - '0'
}

func isAlnum(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}

// shouldEscape reports whether c is written percent-encoded in component
// m (RFC 3986 §2, with net/url's choices for each component): controls
// and non-ASCII bytes always, the printable ASCII bytes as escapeTable says.
func shouldEscape(c byte, m mode) bool {
	return c < 0x20 || c >= 0x80 || escapeTable[m][c>>5-1]>>(c&31)&1 != 0
}

// escapeTable has, per mode, a bit set for each byte 0x20 to 0x7f that is
// escaped in that component: alphanumerics and -_.~ never; sub-delims, the
// port's colon, the brackets of an IP literal and < > " not in a host or
// zone; $&+,/:;=?@ as each component requires (a path escapes only ?, a
// path segment also / ; , and userinfo @ / ? :, a query component all, a
// fragment none, nor ! ( ) *). escape_test.go checks it against the rules
// written out.
var escapeTable = [...][3]uint32{
	modePath:           {0xd00007af, 0x78000000, 0xb8000001},
	modePathSegment:    {0xd80097af, 0x78000000, 0xb8000001},
	modeHost:           {0x80008029, 0x50000001, 0xb8000001},
	modeZone:           {0x80008029, 0x50000001, 0xb8000001},
	modeUserinfo:       {0xd40087af, 0x78000001, 0xb8000001},
	modeQueryComponent: {0xfc009fff, 0x78000001, 0xb8000001},
	modeFragment:       {0x500000ad, 0x78000000, 0xb8000001},
}

// unescape decodes the percent-escapes of s (and '+' as a space in a query
// component), checking them as component m requires.
func unescape(s string, m mode) (string, error) {
	n := 0
	plus := false
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '%':
			n++
			if i+2 >= len(s) || !isHex(s[i+1]) || !isHex(s[i+2]) {
				bad := s[i:]
				if len(bad) > 3 {
					bad = bad[:3]
				}
				return "", EscapeError(bad)
			}
			// A host percent-encodes only non-ASCII bytes (RFC 3986
			// §3.2.2), and %25, which introduces an IPv6 zone (RFC 6874).
			if m == modeHost && unhex(s[i+1]) < 8 && s[i:i+3] != "%25" {
				return "", EscapeError(s[i : i+3])
			}
			// A zone may escape only what it could hold unescaped (and a
			// space).
			if m == modeZone {
				v := unhex(s[i+1])<<4 | unhex(s[i+2])
				if s[i:i+3] != "%25" && v != ' ' && shouldEscape(v, modeHost) {
					return "", EscapeError(s[i : i+3])
				}
			}
			i += 3
		case c == '+':
			plus = m == modeQueryComponent
			i++
		default:
			if (m == modeHost || m == modeZone) && c < 0x80 && shouldEscape(c, m) {
				return "", InvalidHostError(s[i : i+1])
			}
			i++
		}
	}
	if n == 0 && !plus {
		return s, nil
	}
	b := make([]byte, 0, len(s)-2*n)
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '%':
			b = append(b, unhex(s[i+1])<<4|unhex(s[i+2]))
			i += 2
		case '+':
			if m == modeQueryComponent {
				c = ' '
			}
			b = append(b, c)
		default:
			b = append(b, c)
		}
	}
	return string(b), nil
}

// escape percent-encodes what component m cannot hold (a space in a query
// component becomes '+').
func escape(s string, m mode) string {
	n, spaces := 0, 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == ' ' && m == modeQueryComponent:
			spaces++
		case shouldEscape(c, m):
			n++
		}
	}
	if n == 0 && spaces == 0 {
		return s
	}
	b := make([]byte, 0, len(s)+2*n)
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ' ' && m == modeQueryComponent:
			b = append(b, '+')
		case shouldEscape(c, m):
			b = append(b, '%', upperHex[c>>4], upperHex[c&15])
		default:
			b = append(b, c)
		}
	}
	return string(b)
}

// QueryEscape escapes s for a query component (a form field name or
// value): what is not unreserved is percent-encoded, a space is '+'.
func QueryEscape(s string) string { return escape(s, modeQueryComponent) }

// QueryUnescape reverses QueryEscape: %XX escapes and '+' (a space).
func QueryUnescape(s string) (string, error) { return unescape(s, modeQueryComponent) }

// PathEscape escapes s for one path segment ('/' included).
func PathEscape(s string) string { return escape(s, modePathSegment) }

// PathUnescape reverses PathEscape ('+' stays a plus).
func PathUnescape(s string) (string, error) { return unescape(s, modePathSegment) }

// validEncoded reports whether s, an escaped path or fragment, holds only
// what component m may hold unescaped (or a percent-escape).
func validEncoded(s string, m mode) bool {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '!', '$', '&', '\'', '(', ')', '*', '+', ',', ';', '=', ':', '@', '[', ']', '%':
		default:
			if shouldEscape(c, m) {
				return false
			}
		}
	}
	return true
}

// errTooManyParams is ParseQuery's error for more than maxParams fields.
var errTooManyParams = errors.New("number of URL query parameters exceeded limit")

// maxParams bounds the fields ParseQuery accepts.
const maxParams = 10000
