package sse

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestScanWords compares the word-at-a-time scan (the one WebAssembly
// builds use) with a byte loop, for a CR, an LF, a byte outside ASCII and
// none of them at every position of inputs of every length around the
// word size, and with the bytes next to the line ends that a borrow in
// the word test could confuse (0x0B, 0x0C, 0x0E, 0x09, 0x8A, 0x8D).
func TestScanWords(t *testing.T) {
	naive := func(b []byte) (int, bool) {
		ascii := true
		for i, c := range b {
			if c == '\n' || c == '\r' {
				return i, ascii
			}
			if c >= 0x80 {
				ascii = false
			}
		}
		return -1, ascii
	}
	for _, plain := range []byte{'a', 0x0B, 0x0C, 0x0E, 0x09, 0x00} {
		for n := 0; n <= 41; n++ {
			for at := -1; at < n; at++ {
				for _, special := range []byte{'\n', '\r', 0x80, 0xFF, 0x8A, 0x8D} {
					for high := -1; high < n; high += 5 {
						b := make([]byte, n)
						for i := range b {
							b[i] = plain
						}
						if high >= 0 {
							b[high] = 0xC3
						}
						if at >= 0 {
							b[at] = special
						}
						wi, wa := naive(b)
						gi, ga := scanWords(b)
						require.Equal(t, wi, gi, "index: %x", b)
						require.Equal(t, wa, ga, "ascii: %x", b)
						require.Equal(t, wi, indexEOL(b), "indexEOL: %x", b)
					}
				}
			}
		}
	}
}
