// Package b64 encodes and decodes base64 — the standard alphabet with
// padding and the URL alphabet without — as encoding/base64's StdEncoding
// and RawURLEncoding do, in less code.
//
// encoding/base64 is about 15 KB of WebAssembly code with its tables and
// initialisation, for the four things the library does with base64: PKCE
// challenges and JWTs (RawURL), HTTP Basic credentials and header values
// (Std), a PEM body and a JWK member (decoding). Decode gives the bytes
// and the errors (as a yes or no) encoding/base64's non-strict decoder
// gives: carriage returns and newlines are skipped, padding is checked,
// stray bits after the last byte are ignored; a fuzz test holds both
// directions to encoding/base64.
//
// All functions are safe for concurrent use.
package b64

import "errors"

const (
	std = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
	url = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
)

// errCorrupt is Decode's error: the input is not base64 of its kind.
var errCorrupt = errors.New("illegal base64 data")

// StdString is base64.StdEncoding.EncodeToString(b).
func StdString(b []byte) string { return string(appendEncoded(nil, b, std, true)) }

// RawURLString is base64.RawURLEncoding.EncodeToString(b).
func RawURLString(b []byte) string { return string(appendEncoded(nil, b, url, false)) }

// appendEncoded appends src in the alphabet abc, padded with '=' when pad.
func appendEncoded(dst, src []byte, abc string, pad bool) []byte {
	for len(src) >= 3 {
		v := uint(src[0])<<16 | uint(src[1])<<8 | uint(src[2])
		dst = append(dst, abc[v>>18&63], abc[v>>12&63], abc[v>>6&63], abc[v&63])
		src = src[3:]
	}
	switch len(src) {
	case 1:
		v := uint(src[0]) << 16
		dst = append(dst, abc[v>>18&63], abc[v>>12&63])
		if pad {
			dst = append(dst, '=', '=')
		}
	case 2:
		v := uint(src[0])<<16 | uint(src[1])<<8
		dst = append(dst, abc[v>>18&63], abc[v>>12&63], abc[v>>6&63])
		if pad {
			dst = append(dst, '=')
		}
	}
	return dst
}

// DecodeStd is base64.StdEncoding.DecodeString(string(src)), with any
// error as errCorrupt.
func DecodeStd(src []byte) ([]byte, error) { return decode(src, false, true) }

// DecodeRawURL is base64.RawURLEncoding.DecodeString(s), with any error as
// errCorrupt.
func DecodeRawURL(s string) ([]byte, error) { return decode([]byte(s), true, false) }

// value returns the 6-bit value of c in the URL or standard alphabet, or
// -1.
func value(c byte, urlAlphabet bool) int {
	switch {
	case c >= 'A' && c <= 'Z':
		return int(c - 'A')
	case c >= 'a' && c <= 'z':
		return int(c-'a') + 26
	case c >= '0' && c <= '9':
		return int(c-'0') + 52
	case c == '+' && !urlAlphabet, c == '-' && urlAlphabet:
		return 62
	case c == '/' && !urlAlphabet, c == '_' && urlAlphabet:
		return 63
	}
	return -1
}

// decode decodes src as encoding/base64's non-strict decoder does for the
// alphabet and padding given.
func decode(src []byte, urlAlphabet, pad bool) ([]byte, error) {
	out := make([]byte, 0, len(src)/4*3+3)
	var v uint
	n := 0 // characters in the current quantum
	for i := 0; i < len(src); i++ {
		c := src[i]
		if c == '\r' || c == '\n' {
			continue
		}
		if c == '=' && pad {
			// Padding ends the data: "xx==" or "xxx=", then only line
			// breaks.
			switch n {
			case 2:
				i++
				for i < len(src) && (src[i] == '\r' || src[i] == '\n') {
					i++
				}
				if i == len(src) || src[i] != '=' {
					return nil, errCorrupt
				}
			case 3:
			default:
				return nil, errCorrupt
			}
			for i++; i < len(src); i++ {
				if src[i] != '\r' && src[i] != '\n' {
					return nil, errCorrupt
				}
			}
			return flush(out, v, n), nil
		}
		d := value(c, urlAlphabet)
		if d < 0 {
			return nil, errCorrupt
		}
		v = v<<6 | uint(d)
		n++
		if n == 4 {
			out = append(out, byte(v>>16), byte(v>>8), byte(v))
			v, n = 0, 0
		}
	}
	if n == 1 || (pad && n != 0) {
		return nil, errCorrupt
	}
	return flush(out, v, n), nil
}

// flush appends the bytes of a last quantum of n characters (2 or 3; 0
// appends nothing) holding v.
func flush(out []byte, v uint, n int) []byte {
	switch n {
	case 2:
		out = append(out, byte(v>>4))
	case 3:
		out = append(out, byte(v>>10), byte(v>>2))
	}
	return out
}
