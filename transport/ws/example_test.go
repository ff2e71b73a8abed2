//go:build !js

package ws_test

import (
	"context"
	"fmt"
	"log"
	"strings"
	"time"

	"github.com/mcpwasm/mcpwasm/core"
	"github.com/mcpwasm/mcpwasm/tests/peerproc"
	"github.com/mcpwasm/mcpwasm/transport/ws"
)

func ExampleNew() {
	// A WebSocket MCP server: the Go SDK server (which serves both protocol
	// eras on a stream transport) behind a test front, a process of the
	// test harness.
	origin, stop := peerproc.StartDemo(peerproc.DemoOptions{WebSocket: true})
	defer stop()
	url := "ws" + strings.TrimPrefix(origin, "http") + "/mcp"

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
