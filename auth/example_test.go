//go:build !js && !wasip1

package auth_test

import (
	"context"
	"fmt"
	"log"

	"github.com/mcpwasm/mcpwasm/auth"
	"github.com/mcpwasm/mcpwasm/core"
	"github.com/mcpwasm/mcpwasm/transport/fetch"
)

// Connect to an MCP server that requires OAuth. The Doer wraps the
// transport's HTTP: the server's first 401 makes it discover the server's
// authorization server, register the client, run the authorization code
// flow and retry with the token. The servers here are local: the Go SDK's
// MCP server behind the SDK's bearer-token middleware (a process of the
// test harness), and a test authorization server that redirects without a
// user, so the headless user agent suffices; an application with a user
// passes a LoopbackCallback (or, in a browser, a popup agent) instead.
func Example() {
	as := startTestAS()
	defer as.Close()
	server := startProtected(as, []string{"mcp:tools"})
	defer server.Close()

	doer := auth.NewDoer(nil, &auth.Options{
		UserAgent:  auth.Headless(nil),
		ClientName: "example",
	})
	transport, err := fetch.New(server.URL+"/mcp", &fetch.Options{HTTP: doer})
	if err != nil {
		log.Fatal(err)
	}
	ctx := context.Background()
	client := core.NewClient(&core.Implementation{Name: "example", Version: "1.0.0"}, nil)
	session, err := client.Connect(ctx, transport, nil)
	if err != nil {
		log.Fatal(err)
	}
	defer session.Close()
	res, err := session.CallTool(ctx, &core.CallToolParams{Name: "add", Arguments: map[string]any{"a": 2, "b": 3}}, nil)
	if err != nil {
		log.Fatal(err)
	}
	var out struct{ Sum int }
	if err := res.DecodeStructured(&out); err != nil {
		log.Fatal(err)
	}
	fmt.Println("sum:", out.Sum)
	fmt.Println("scope requested:", as.scopesRequested())
	// Output:
	// sum: 5
	// scope requested: [mcp:tools]
}

// Read the parameters of a WWW-Authenticate challenge.
func ExampleParseChallenges() {
	h := `Bearer error="insufficient_scope", scope="files:read files:write", resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource"`
	for _, c := range auth.ParseChallenges(h) {
		fmt.Println(c.Scheme, c.Param("error"))
		fmt.Println(c.Param("scope"))
		fmt.Println(c.Param("resource_metadata"))
	}
	// Output:
	// Bearer insufficient_scope
	// files:read files:write
	// https://mcp.example.com/.well-known/oauth-protected-resource
}
