//go:build !wasm

package sse

// scanLine returns the index of the first CR or LF in b (or -1), and
// whether the bytes before it are all ASCII (if it reports false, they
// may be). Natively bytes.IndexByte is vector code, so two of its passes
// beat one word-at-a-time pass, and utf8.Valid checks words itself: the
// event's data is validated at its end.
func scanLine(b []byte) (int, bool) { return indexEOL(b), false }
