// Command client is mcpwasm's native conformance client: the program the
// MCP conformance suite runs for each client scenario. It reads the scenario
// from MCP_CONFORMANCE_SCENARIO, its context from MCP_CONFORMANCE_CONTEXT,
// the protocol version to speak from MCP_CONFORMANCE_PROTOCOL_VERSION and
// the server URL from its last argument, and drives the public Go client API
// (core + transport/fetch), never raw HTTP. The scenario logic is shared
// with the other runners (package scenario).
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"log"
	"os"
	"time"

	"github.com/mcpwasm/mcpwasm/core"
	"github.com/mcpwasm/mcpwasm/harness/conformance/scenario"
	"github.com/mcpwasm/mcpwasm/transport/fetch"
)

func main() {
	log.SetFlags(log.Lmicroseconds)
	log.SetPrefix("conformance-native: ")
	if len(os.Args) < 2 {
		log.Fatal("usage: MCP_CONFORMANCE_SCENARIO=<name> client <server-url>")
	}
	url := os.Args[len(os.Args)-1]
	d := &scenario.Driver{Name: os.Getenv("MCP_CONFORMANCE_SCENARIO"), Context: os.Getenv("MCP_CONFORMANCE_CONTEXT")}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	if err := run(ctx, d, url); err != nil {
		log.Fatalf("scenario %s: %v", d.Name, err)
	}
}

func run(ctx context.Context, d *scenario.Driver, url string) error {
	client := core.NewClient(&core.Implementation{Name: "mcpwasm-conformance", Version: "0.1.0"}, &core.ClientOptions{
		ProtocolVersions: scenario.VersionsFor(os.Getenv("MCP_CONFORMANCE_PROTOCOL_VERSION")),
		SamplingHandler: func(ctx context.Context, req *core.CreateMessageRequest) (*core.CreateMessageResult, error) {
			var r core.CreateMessageResult
			return &r, json.Unmarshal(d.Sample(ctx, mustJSON(req.Params)), &r)
		},
		ElicitationHandler: func(ctx context.Context, req *core.ElicitRequest) (*core.ElicitResult, error) {
			var r core.ElicitResult
			return &r, json.Unmarshal(d.Elicit(ctx, mustJSON(req.Params)), &r)
		},
		ElicitationModes: []string{core.ElicitModeForm, core.ElicitModeURL},
		Roots:            []*core.Root{{URI: "file:///conformance", Name: "conformance"}},
		OnWarning:        func(_ *core.Session, err error) { log.Printf("warning: %v", err) },
	})
	topts, err := transportOptions(d.Name, d.Context)
	if err != nil {
		return err
	}
	t, err := fetch.New(url, topts)
	if err != nil {
		return err
	}
	s, err := client.Connect(ctx, t, nil)
	if err != nil {
		return fmt.Errorf("connect: %w", err)
	}
	defer s.Close()
	log.Printf("connected: era %s, version %s", s.Era(), s.ProtocolVersion())
	d.Session = session{s}
	return d.Run(ctx)
}

// session adapts *core.Session to scenario.Session.
type session struct{ s *core.Session }

func (s session) Request(ctx context.Context, method string, params any) (json.RawMessage, error) {
	return s.s.Request(ctx, method, params, nil)
}

func mustJSON(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}
