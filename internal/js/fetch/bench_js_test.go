//go:build js

package jsfetch_test

import (
	"context"
	"io"
	"os"
	"testing"

	"github.com/mcpwasm/mcpwasm/internal/js/fetch"
	"github.com/mcpwasm/mcpwasm/tests/gojs"
)

// BenchmarkRoundTrip measures one small JSON POST through Do, reading and
// closing the body: the fetch transport's cost per call, minus JSON-RPC.
// Run it with the harness's servers (see harness/jstest), e.g.
// MCPWASM_JS_ECHO=http://127.0.0.1:<port> GOOS=js GOARCH=wasm go test
// -run '^$' -bench . -exec "$(go env GOROOT)/lib/wasm/go_js_wasm_exec" ./internal/js/fetch/
func BenchmarkRoundTrip(b *testing.B) {
	origin := os.Getenv(gojs.EnvEcho)
	if origin == "" {
		b.Fatalf("%s is not set: %s", gojs.EnvEcho, gojs.Hint)
	}
	f, err := jsfetch.New(nil)
	if err != nil {
		b.Fatal(err)
	}
	req := &jsfetch.Request{
		Method: "POST",
		URL:    origin + "/echo",
		Header: map[string][]string{"content-type": {"application/json"}, "accept": {"application/json, text/event-stream"}},
		Body:   []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"}}}`),
	}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		resp, err := f.Do(ctx, req)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := io.Copy(io.Discard, resp.Body); err != nil {
			b.Fatal(err)
		}
		resp.Body.Close()
	}
}
