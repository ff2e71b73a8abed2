package jsonrpc

import (
	"testing"

	"github.com/mcpwasm/mcpwasm/internal/rawjson"
)

// BenchmarkDecodeMessage measures decoding a tools/call result and an
// error response.
func BenchmarkDecodeMessage(b *testing.B) {
	for _, c := range []struct{ name, in string }{
		{"result", `{"jsonrpc":"2.0","id":42,"result":{"content":[{"type":"text","text":"hello world"}],"structuredContent":{"text":"hello world","n":[1,2,3]},"isError":false}}`},
		{"error", `{"jsonrpc":"2.0","id":42,"error":{"code":-32602,"message":"Unsupported protocol version","data":{"supported":["2025-06-18","2025-11-25"],"requested":"1999-01-01"}}}`},
	} {
		b.Run(c.name, func(b *testing.B) {
			data := []byte(c.in)
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if _, err := DecodeMessage(data); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkAppendMessage measures encoding a request and an error response.
func BenchmarkAppendMessage(b *testing.B) {
	for _, c := range []struct {
		name string
		m    Message
	}{
		{"request", &Request{ID: Int64ID(42), Method: "tools/call", Params: rawjson.RawMessage(`{"name":"echo","arguments":{"text":"hello"}}`)}},
		{"error", &Response{ID: Int64ID(42), Error: &Error{Code: -32601, Message: "Method not found: sampling/createMessage", Data: rawjson.RawMessage(`{"method":"sampling/createMessage"}`)}}},
	} {
		b.Run(c.name, func(b *testing.B) {
			buf := make([]byte, 0, 256)
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				var err error
				if buf, err = AppendMessage(buf[:0], c.m); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
