package sse

// AppendValidUTF8 exposes the WHATWG UTF-8 replacement to the external
// tests, which use it in their reference parser.
var AppendValidUTF8 = appendValidUTF8

// BufLen is the length of r's read buffer.
func BufLen(r *Reader) int { return len(r.buf) }

// Buffer sizes, for the tests of the buffer's growth.
const (
	ReadBufMin  = readBufMin
	ReadBufSize = readBufSize
)
