// Package nozero allocates byte buffers without zeroing them, for buffers
// that are written whole before anything reads them.
//
// Go zeroes every allocation. For a buffer that is about to be
// overwritten — a response body copied into the WebAssembly module, an
// event's data joined from the chunks it arrived in — that is a second
// pass over every byte: in WebAssembly, zeroing a 1 MB buffer costs about
// a tenth of a millisecond, a few percent of a whole 1 MB tool call.
// The standard library skips it where it can (strings.Builder grows with
// an allocation that is not zeroed); Bytes makes that allocation reachable
// for a []byte.
package nozero

import (
	"strings"
	"unsafe"
)

// Bytes returns a slice of length n whose contents are undefined: they are
// whatever the memory last held, which may be the bytes of unrelated data.
// The caller must write every byte it will read (and never hand the slice
// to code that reads first). The memory is its own allocation, holds no
// pointers, and is collected as usual. Bytes is safe for concurrent use.
func Bytes(n int) []byte {
	if n <= 0 {
		return []byte{}
	}
	var b strings.Builder
	b.Grow(n) // one allocation of at least n bytes, not zeroed
	b.WriteByte(0)
	return unsafe.Slice(unsafe.StringData(b.String()), n)
}

// Grow returns b, or a copy of b in a buffer from [Bytes], with a
// capacity of at least c: what lies past len(b) is undefined, as in Bytes.
func Grow(b []byte, c int) []byte {
	if c <= cap(b) {
		return b
	}
	g := Bytes(c)[:len(b)]
	copy(g, b)
	return g
}
