package sse

// AppendValidUTF8 exposes the WHATWG UTF-8 replacement to the external
// tests, which use it in their reference parser.
var AppendValidUTF8 = appendValidUTF8
