package fetch_test

import (
	"context"
	"fmt"
	"log"

	"github.com/mcpwasm/mcpwasm/core"
	"github.com/mcpwasm/mcpwasm/tests/peerproc"
	"github.com/mcpwasm/mcpwasm/transport/fetch"
)

// Connect to an MCP server over HTTP, list its tools and call one. The
// server here is the official Go SDK server used by the tests, started as a
// process of the test harness; any MCP endpoint URL works the same way, in
// either protocol era.
func Example() {
	origin, stop := peerproc.StartDemo(peerproc.DemoOptions{Modern: true})
	defer stop()

	ctx := context.Background()
	client := core.NewClient(&core.Implementation{Name: "example", Version: "1.0.0"}, &core.ClientOptions{
		// Answer the server's elicitation requests (both eras).
		ElicitationHandler: func(ctx context.Context, req *core.ElicitRequest) (*core.ElicitResult, error) {
			return &core.ElicitResult{Action: core.ActionAccept, Content: map[string]any{"age": 36}}, nil
		},
	})
	transport, err := fetch.New(origin+"/mcp", nil)
	if err != nil {
		log.Fatal(err)
	}
	session, err := client.Connect(ctx, transport, nil)
	if err != nil {
		log.Fatal(err)
	}
	defer session.Close()
	fmt.Println("era:", session.Era(), "version:", session.ProtocolVersion())

	for tool, err := range session.Tools(ctx) {
		if err != nil {
			log.Fatal(err)
		}
		if tool.Name == "add" {
			fmt.Println("found:", tool.Name)
		}
	}
	res, err := session.CallTool(ctx, &core.CallToolParams{Name: "add", Arguments: map[string]any{"a": 2, "b": 3}}, nil)
	if err != nil {
		log.Fatal(err)
	}
	var out struct{ Sum int }
	if err := res.DecodeStructured(&out); err != nil {
		log.Fatal(err)
	}
	fmt.Println("sum:", out.Sum)

	res, err = session.CallTool(ctx, &core.CallToolParams{Name: "elicit"}, nil)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("elicited:", res.Content[0].Text)
	// Output:
	// era: modern version: 2026-07-28
	// found: add
	// sum: 5
	// elicited: {"action":"accept","content":{"age":36,"color":"green","name":"Ada"}}
}
