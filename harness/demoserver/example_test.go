package demoserver_test

import (
	"context"
	"fmt"
	"log"
	"net/http"
	"net/http/httptest"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpwasm/mcpwasm/harness/demoserver"
)

// Example mounts the dual-era demo server on a mux and talks to it with the
// Go SDK client, which negotiates 2026-07-28 via server/discover.
func Example() {
	srv := demoserver.New(&demoserver.Options{Modern: true})
	mux := http.NewServeMux()
	mux.Handle("/", srv.Handler()) // serves /mcp and /sse
	mux.HandleFunc("/healthz", func(w http.ResponseWriter, _ *http.Request) { fmt.Fprint(w, "ok") })
	ts := httptest.NewServer(mux)
	defer ts.Close()
	defer srv.Close() // before ts.Close: ends the SDK sessions and their streams

	tr := &http.Transport{}
	defer tr.CloseIdleConnections()
	ctx := context.Background()
	client := mcp.NewClient(&mcp.Implementation{Name: "example", Version: "1.0.0"}, nil)
	cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{
		Endpoint:   ts.URL + demoserver.MCPPath,
		HTTPClient: &http.Client{Transport: tr},
	}, nil)
	if err != nil {
		log.Fatal(err)
	}
	defer cs.Close()

	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "add", Arguments: map[string]any{"a": 2, "b": 3}})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(cs.InitializeResult().ProtocolVersion)
	fmt.Println(res.Content[0].(*mcp.TextContent).Text, res.StructuredContent)
	// Output:
	// 2026-07-28
	// 5 map[sum:5]
}
