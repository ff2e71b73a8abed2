package sse

import (
	"bytes"
	"unsafe"
)

// indexEOL returns the index of the first CR or LF in b, or -1.
func indexEOL(b []byte) int {
	i := bytes.IndexByte(b, '\n')
	s := b
	if i >= 0 {
		s = b[:i]
	}
	if j := bytes.IndexByte(s, '\r'); j >= 0 {
		return j
	}
	return i
}

const (
	ones  = 0x0101010101010101
	highs = 0x8080808080808080
)

// scanWords returns what [scanLine] returns, eight bytes at a time: the
// index of the first CR or LF in b (or -1), and whether the bytes before
// it are all ASCII. It is one pass where indexEOL and utf8.Valid make
// three, for Go's WebAssembly backend, whose bytes.IndexByte tests a byte
// per step and which does not merge eight byte loads into a word load
// (unsafe does it; j+8 <= len(b) keeps every load in bounds).
func scanWords(b []byte) (int, bool) {
	ascii := true
	j := 0
	if len(b) >= 8 {
		p := unsafe.Pointer(unsafe.SliceData(b))
		word := func(at int) uint64 { return *(*uint64)(unsafe.Add(p, at)) }
		for j+8 <= len(b) {
			// Four words per branch while they hold no line end and no
			// byte outside ASCII (most of a big event), then one.
			for ascii && j+32 <= len(b) && (plainWord(word(j))|plainWord(word(j+8))|plainWord(word(j+16))|plainWord(word(j+24))) == 0 {
				j += 32
			}
			if j+8 > len(b) {
				break
			}
			w := word(j)
			if eolWord(w) != 0 {
				break
			}
			if w&highs != 0 {
				ascii = false
			}
			j += 8
		}
	}
	for ; j < len(b); j++ {
		switch c := b[j]; {
		case c == '\n' || c == '\r':
			return j, ascii
		case c >= 0x80:
			ascii = false
		}
	}
	return -1, ascii
}

// eolWord is nonzero exactly when a byte of w is CR or LF: it tests w xor
// the byte repeated for a zero byte, and a borrow starts only at a zero
// byte.
func eolWord(w uint64) uint64 {
	x, y := w^(ones*'\n'), w^(ones*'\r')
	return ((x-ones)&^x | (y-ones)&^y) & highs
}

// plainWord is zero exactly when no byte of w is CR, LF or outside ASCII.
func plainWord(w uint64) uint64 { return eolWord(w) | w&highs }
