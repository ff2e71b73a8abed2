package sse

import "unicode/utf8"

const replacementChar = "\uFFFD"

// appendValidUTF8 appends src to dst, replacing invalid UTF-8 exactly as
// the WHATWG Encoding standard's UTF-8 decoder does: every maximal subpart
// of an ill-formed sequence becomes one U+FFFD, and the byte that ended it
// is reprocessed. (This differs from strings.ToValidUTF8, which collapses
// runs, and from utf8.DecodeRune, which replaces one byte at a time.)
//
// Line terminators and ':' are ASCII and always end an ill-formed sequence,
// so applying this to each field value separately gives the same result as
// decoding the whole stream first, which is what the specification says.
func appendValidUTF8(dst, src []byte) []byte {
	for i := 0; i < len(src); {
		c := src[i]
		if c < utf8.RuneSelf {
			dst = append(dst, c)
			i++
			continue
		}
		need := 0
		lower, upper := byte(0x80), byte(0xBF)
		switch {
		case c >= 0xC2 && c <= 0xDF:
			need = 1
		case c >= 0xE0 && c <= 0xEF:
			need = 2
			if c == 0xE0 {
				lower = 0xA0
			} else if c == 0xED {
				upper = 0x9F
			}
		case c >= 0xF0 && c <= 0xF4:
			need = 3
			if c == 0xF0 {
				lower = 0x90
			} else if c == 0xF4 {
				upper = 0x8F
			}
		default:
			dst = append(dst, replacementChar...)
			i++
			continue
		}
		j := i + 1
		for seen := 0; seen < need; seen++ {
			if j >= len(src) || src[j] < lower || src[j] > upper {
				break
			}
			lower, upper = 0x80, 0xBF
			j++
		}
		if j-i == need+1 {
			dst = append(dst, src[i:j]...)
		} else {
			dst = append(dst, replacementChar...)
		}
		i = j
	}
	return dst
}
