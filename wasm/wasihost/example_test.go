package wasihost_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log"
	"time"

	"github.com/mcpwasm/mcpwasm/auth"
	"github.com/mcpwasm/mcpwasm/core"
	"github.com/mcpwasm/mcpwasm/tests/peerproc"
	"github.com/mcpwasm/mcpwasm/wasm/abi"
	"github.com/mcpwasm/mcpwasm/wasm/wasihost"
)

// Example runs an MCP session through the wasip1 module: the client runs
// inside the WebAssembly instance, HTTP outside, and the server's sampling
// request is answered by a Go function of the host.
func Example() {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()

	// The module (GOOS=wasip1 GOARCH=wasm go build -buildmode=c-shared
	// ./wasm/wasip1) and a compilation cache; an MCP server.
	mod, err := wasihost.GetTestModule()
	if err != nil {
		log.Fatal(err)
	}
	origin, stop := peerproc.StartDemo(peerproc.DemoOptions{Modern: true}) // the Go SDK demo server, a process of the test harness
	defer stop()

	host, err := wasihost.New(ctx, mod.Wasm, &wasihost.Options{CompilationCache: mod.Cache})
	if err != nil {
		log.Fatal(err)
	}
	defer host.Close()

	sess, err := host.Connect(ctx, origin+peerproc.MCPPath, &wasihost.ConnectOptions{
		ClientInfo: &core.Implementation{Name: "example", Version: "1.0.0"},
		Handlers: wasihost.Handlers{
			Sampling: func(ctx context.Context, params json.RawMessage) (json.RawMessage, error) {
				return json.RawMessage(`{"role":"assistant","model":"host-llm","content":{"type":"text","text":"hello from the host"}}`), nil
			},
		},
	})
	if err != nil {
		log.Fatal(err)
	}
	defer sess.Close()
	fmt.Println(sess.Era(), sess.ProtocolVersion())

	raw, err := sess.Request(ctx, "tools/call", map[string]any{"name": "sample", "arguments": map[string]any{"prompt": "hi"}}, nil)
	if err != nil {
		log.Fatal(err)
	}
	var result struct {
		Content []struct{ Text string } `json:"content"`
	}
	if err := json.Unmarshal(raw, &result); err != nil {
		log.Fatal(err)
	}
	fmt.Println(result.Content[0].Text)
	// Output:
	// modern 2026-07-28
	// host-llm: hello from the host
}

// ExampleAuthOptions connects to an OAuth-protected MCP server. The
// authorization runs inside the WebAssembly instance; the host's part is
// the user's browser: here package auth's loopback callback, which
// receives the authorization server's redirect on 127.0.0.1 while the user
// signs in at the URL printed. The token store is handed back to the
// application after each change so that the next run needs no sign-in.
func ExampleAuthOptions() {
	ctx := context.Background()
	mod, err := wasihost.GetTestModule()
	if err != nil {
		log.Fatal(err)
	}
	host, err := wasihost.New(ctx, mod.Wasm, &wasihost.Options{CompilationCache: mod.Cache})
	if err != nil {
		log.Fatal(err)
	}
	defer host.Close()

	callback, err := auth.NewLoopbackCallback(&auth.LoopbackOptions{
		Open: func(_ context.Context, authURL string) error {
			fmt.Println("Sign in at", authURL)
			return nil
		},
	})
	if err != nil {
		log.Fatal(err)
	}
	defer callback.Close()

	var saved json.RawMessage // from the application's secret storage
	sess, err := host.Connect(ctx, "https://mcp.example.com/mcp", &wasihost.ConnectOptions{
		Auth: &wasihost.AuthOptions{
			AuthConfig: abi.AuthConfig{
				RedirectURI:       callback.RedirectURI(),
				ClientMetadataURL: "https://app.example.com/oauth/client.json",
				Store:             saved,
			},
			Authorize: callback.Authorize,
			OnStore:   func(state json.RawMessage) { saved = state /* persist it */ },
		},
	})
	if err != nil {
		log.Fatal(err)
	}
	defer sess.Close()
}
