//go:build !js

package ws_test

import (
	"context"
	"fmt"
	"io"
	"log"
	"net/http/httptest"
	"strings"
	"time"

	"github.com/mcpwasm/mcpwasm/core"
	"github.com/mcpwasm/mcpwasm/harness/demoserver"
	"github.com/mcpwasm/mcpwasm/harness/wsserver"
	"github.com/mcpwasm/mcpwasm/transport/ws"
)

var errEOF = io.EOF

func ExampleNew() {
	// A WebSocket MCP server: the Go SDK server (which serves both protocol
	// eras on a stream transport) behind a test front.
	demo := demoserver.New(nil)
	h := wsserver.New(demo.MCPServer(), nil)
	hs := httptest.NewServer(h)
	defer func() { h.Close(); hs.Close(); demo.Close() }()
	url := "ws" + strings.TrimPrefix(hs.URL, "http") + "/mcp"

	tr, err := ws.New(url, &ws.Options{PingInterval: 30 * time.Second})
	if err != nil {
		log.Fatal(err)
	}
	client := core.NewClient(&core.Implementation{Name: "example", Version: "1.0.0"}, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	s, err := client.Connect(ctx, tr, nil)
	if err != nil {
		log.Fatal(err)
	}
	defer s.Close()
	r, err := s.CallTool(ctx, &core.CallToolParams{Name: "echo", Arguments: map[string]any{"text": "hello over WebSocket"}}, nil)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(s.Era(), r.Content[0].Text)
	// Output: modern hello over WebSocket
}
