package sse

// scanLine returns the index of the first CR or LF in b (or -1), and
// whether the bytes before it are all ASCII (if it reports false, they
// may be). In WebAssembly one word-at-a-time pass (scanWords) finds both.
func scanLine(b []byte) (int, bool) { return scanWords(b) }
