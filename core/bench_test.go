package core

import (
	"context"
	"testing"

	"github.com/mcpwasm/mcpwasm/internal/jsonscan"
	"github.com/mcpwasm/mcpwasm/jsonrpc"
)

// BenchmarkCallTool measures one tools/call round trip through the session
// pipeline (params assembly, _meta, pending table, dispatch) over an
// in-memory pipe to a minimal modern server.
func BenchmarkCallTool(b *testing.B) {
	for _, era := range []Era{EraModern, EraLegacy} {
		b.Run(era.String(), func(b *testing.B) {
			t := &testing.T{}
			f, tr := newFake(t, era)
			f.handle(MethodCallTool, func(*jsonrpc.Request) (any, *jsonrpc.Error) {
				return RawMessage(`{"content":[{"type":"text","text":"ok"}]}`), nil
			})
			c := NewClient(&Implementation{Name: "bench", Version: "1"}, nil)
			s, err := c.Connect(context.Background(), tr, nil)
			if err != nil {
				b.Fatal(err)
			}
			defer s.Close()
			ctx := context.Background()
			params := &CallToolParams{Name: "echo", Arguments: map[string]any{"text": "hello"}}
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if _, err := s.CallTool(ctx, params, nil); err != nil {
					b.Fatal(err)
				}
			}
			b.StopTimer()
			f.conn.Close()
		})
	}
}

// BenchmarkBuildParams measures splicing the per-request _meta into params.
func BenchmarkBuildParams(b *testing.B) {
	raw := RawMessage(`{"name":"echo","arguments":{"text":"hello","n":42,"nested":{"a":[1,2,3]}},"_meta":{"custom":1}}`)
	meta := []jsonscan.Member{{Key: MetaProtocolVersion, Val: RawMessage(`"2026-07-28"`)}, {Key: MetaClientCapabilities, Val: RawMessage(`{}`)}, {Key: MetaClientInfo, Val: RawMessage(`{"name":"x","version":"1"}`)}}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		ms, err := objectMembers(raw)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := buildParams(ms, meta); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCallToolRaw is BenchmarkCallTool through the hosts' path: raw
// params in, raw result out (with the output-schema check of a tool that
// declares one).
func BenchmarkCallToolRaw(b *testing.B) {
	t := &testing.T{}
	f, tr := newFake(t, EraModern)
	f.handle(MethodListTools, func(*jsonrpc.Request) (any, *jsonrpc.Error) {
		return RawMessage(`{"tools":[{"name":"echo","inputSchema":{"type":"object"},"outputSchema":{"type":"object","properties":{"text":{"type":"string"}}}}]}`), nil
	})
	f.handle(MethodCallTool, func(*jsonrpc.Request) (any, *jsonrpc.Error) {
		return RawMessage(`{"content":[{"type":"text","text":"ok"}],"structuredContent":{"text":"ok"}}`), nil
	})
	c := NewClient(&Implementation{Name: "bench", Version: "1"}, nil)
	s, err := c.Connect(context.Background(), tr, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	if _, err := s.ListTools(ctx, nil); err != nil {
		b.Fatal(err)
	}
	params := RawMessage(`{"name":"echo","arguments":{"text":"hello"}}`)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := s.CallToolRaw(ctx, params, nil); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	f.conn.Close()
}
