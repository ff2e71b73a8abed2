package manager_test

import (
	"context"
	"fmt"
	"log"
	"time"

	"github.com/mcpwasm/mcpwasm/core"
	"github.com/mcpwasm/mcpwasm/llmtools"
	"github.com/mcpwasm/mcpwasm/manager"
	"github.com/mcpwasm/mcpwasm/tests/peerproc"
)

func Example() {
	// Two servers of the test harness: the Go SDK demo server, twice.
	origin, stop := peerproc.StartDemo(peerproc.DemoOptions{Modern: true})
	defer stop()
	cfg, err := manager.ParseConfig([]byte(`{"mcpServers": {
		"demo":   {"url": "` + origin + `/mcp", "allowTools": ["echo", "add"]},
		"legacy": {"url": "` + origin + `/mcp", "era": "legacy", "allowTools": ["echo"]},
		"down":   {"url": "http://127.0.0.1:1/mcp"}
	}}`))
	if err != nil {
		log.Fatal(err)
	}
	m, err := manager.New(cfg, &manager.Options{
		Reconnect: &manager.ReconnectPolicy{Attempts: 1},
		SamplingHandler: func(ctx context.Context, server string, req *core.CreateMessageRequest) (*core.CreateMessageResult, error) {
			return nil, fmt.Errorf("no model here (asked by %s)", server)
		},
	})
	if err != nil {
		log.Fatal(err)
	}
	defer m.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	states, err := m.Connect(ctx) // every server at once; a broken one does not block the others
	if err != nil {
		log.Fatal(err)
	}
	for _, s := range states {
		fmt.Println(s.Name, s.Status)
	}
	for _, t := range m.Tools() {
		fmt.Println(t.Name)
	}
	r, err := m.CallTool(ctx, &core.CallToolParams{Name: "legacy__echo", Arguments: map[string]any{"text": "routed"}}, nil)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(r.Content[0].Text)
	// The same tools for a model:
	fmt.Println(llmtools.OpenAIChatTools(m.Tools())[0].Function.Name)
	// Output:
	// demo connected
	// down failed
	// legacy connected
	// demo__add
	// demo__echo
	// legacy__echo
	// routed
	// demo__add
}
