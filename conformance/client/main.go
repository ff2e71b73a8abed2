// Command client is mcpwasm's native conformance client: the program the
// MCP conformance suite runs for each client scenario. It reads the scenario
// from MCP_CONFORMANCE_SCENARIO, its context from MCP_CONFORMANCE_CONTEXT,
// the protocol version to speak from MCP_CONFORMANCE_PROTOCOL_VERSION and
// the server URL from its last argument, and drives the public client API
// (never raw HTTP).
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log"
	"os"
	"slices"
	"time"

	"github.com/mcpwasm/mcpwasm/core"
	"github.com/mcpwasm/mcpwasm/transport/fetch"
)

func main() {
	log.SetFlags(log.Lmicroseconds)
	log.SetPrefix("conformance-client: ")
	if len(os.Args) < 2 {
		log.Fatal("usage: MCP_CONFORMANCE_SCENARIO=<name> client <server-url>")
	}
	url := os.Args[len(os.Args)-1]
	scenario := os.Getenv("MCP_CONFORMANCE_SCENARIO")
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	if err := run(ctx, scenario, url); err != nil {
		log.Fatalf("scenario %s: %v", scenario, err)
	}
}

// scenarioContext is MCP_CONFORMANCE_CONTEXT.
type scenarioContext struct {
	ToolCalls []struct {
		Name      string         `json:"name"`
		Arguments map[string]any `json:"arguments"`
	} `json:"toolCalls"`
}

// versionsFor derives the accepted protocol versions from the version the
// suite asks for: a modern version alone, or a legacy version and the older
// legacy versions a server may answer with.
func versionsFor(v string) []string {
	if v == "" {
		return nil
	}
	if core.IsModernVersion(v) {
		return []string{v}
	}
	out := []string{v}
	for _, s := range core.SupportedVersions {
		if !core.IsModernVersion(s) && s < v {
			out = append(out, s)
		}
	}
	return out
}

type runner struct {
	client  *core.Client
	session *core.Session
	// onElicit lets a scenario act while an elicitation is pending.
	onElicit func(ctx context.Context, req *core.ElicitRequest)
}

func run(ctx context.Context, scenario, url string) error {
	r := &runner{}
	r.client = core.NewClient(&core.Implementation{Name: "mcpwasm-conformance", Version: "0.1.0"}, &core.ClientOptions{
		ProtocolVersions: versionsFor(os.Getenv("MCP_CONFORMANCE_PROTOCOL_VERSION")),
		SamplingHandler: func(ctx context.Context, req *core.CreateMessageRequest) (*core.CreateMessageResult, error) {
			return &core.CreateMessageResult{Role: "assistant", Model: "conformance-model", Content: core.ContentList{core.TextContent("ok")}, StopReason: "endTurn"}, nil
		},
		ElicitationHandler: func(ctx context.Context, req *core.ElicitRequest) (*core.ElicitResult, error) {
			if r.onElicit != nil {
				r.onElicit(ctx, req)
			}
			if scenario == "elicitation-sep1034-client-defaults" || scenario == "elicitation-defaults" {
				// Accept with nothing filled in: the client applies defaults.
				return &core.ElicitResult{Action: core.ActionAccept, Content: map[string]any{}}, nil
			}
			return &core.ElicitResult{Action: core.ActionAccept, Content: map[string]any{"confirmed": true}}, nil
		},
		ElicitationModes: []string{core.ElicitModeForm, core.ElicitModeURL},
		Roots:            []*core.Root{{URI: "file:///conformance", Name: "conformance"}},
		OnWarning: func(s *core.Session, err error) {
			log.Printf("warning: %v", err)
		},
	})
	t, err := fetch.New(url, nil)
	if err != nil {
		return err
	}
	r.session, err = r.client.Connect(ctx, t, nil)
	if err != nil {
		return fmt.Errorf("connect: %w", err)
	}
	defer r.session.Close()
	log.Printf("connected: era %s, version %s", r.session.Era(), r.session.ProtocolVersion())

	switch scenario {
	case "json-schema-ref-no-deref":
		_, err = r.session.AllTools(ctx)
		return err
	case "json-schema-2020-12-preservation":
		return r.schemaEcho(ctx)
	case "sep-2322-client-request-state":
		return r.mrtr(ctx)
	case "http-standard-headers":
		return r.everyMethod(ctx)
	case "http-custom-headers":
		return r.contextToolCalls(ctx)
	case "http-invalid-tool-headers":
		return r.callEveryTool(ctx)
	case "request-metadata":
		_, err = r.session.AllTools(ctx)
		return err
	default:
		// initialize, tools_call, sse-retry, elicitation defaults, and the
		// rest: list tools and call each with plausible arguments.
		return r.callEveryTool(ctx)
	}
}

// argsFor builds arguments from a tool's input schema: numbers 2 and 3 for
// the first two numeric properties, a word for strings, true for booleans.
func argsFor(schema json.RawMessage) map[string]any {
	var s struct {
		Properties map[string]struct {
			Type any `json:"type"`
		} `json:"properties"`
	}
	_ = json.Unmarshal(schema, &s)
	names := make([]string, 0, len(s.Properties))
	for n := range s.Properties {
		names = append(names, n)
	}
	slices.Sort(names)
	args := map[string]any{}
	nums := []int{2, 3}
	for _, n := range names {
		switch s.Properties[n].Type {
		case "number", "integer":
			v := 1
			if len(nums) > 0 {
				v, nums = nums[0], nums[1:]
			}
			args[n] = v
		case "string":
			args[n] = "us-west1"
		case "boolean":
			args[n] = true
		}
	}
	return args
}

func (r *runner) callEveryTool(ctx context.Context) error {
	tools, err := r.session.AllTools(ctx)
	if err != nil {
		return fmt.Errorf("listing tools: %w", err)
	}
	for _, tool := range tools {
		res, err := r.session.CallTool(ctx, &core.CallToolParams{Name: tool.Name, Arguments: argsFor(tool.InputSchema)}, nil)
		if err != nil {
			return fmt.Errorf("calling %s: %w", tool.Name, err)
		}
		log.Printf("%s: isError=%v content=%d", tool.Name, res.IsError, len(res.Content))
	}
	return nil
}

func (r *runner) contextToolCalls(ctx context.Context) error {
	var sc scenarioContext
	if raw := os.Getenv("MCP_CONFORMANCE_CONTEXT"); raw != "" {
		if err := json.Unmarshal([]byte(raw), &sc); err != nil {
			return fmt.Errorf("MCP_CONFORMANCE_CONTEXT: %w", err)
		}
	}
	if _, err := r.session.AllTools(ctx); err != nil {
		return err
	}
	for _, call := range sc.ToolCalls {
		if _, err := r.session.CallTool(ctx, &core.CallToolParams{Name: call.Name, Arguments: call.Arguments}, nil); err != nil {
			return fmt.Errorf("calling %s: %w", call.Name, err)
		}
	}
	return nil
}

func (r *runner) everyMethod(ctx context.Context) error {
	if err := r.callEveryTool(ctx); err != nil {
		return err
	}
	resources, err := r.session.AllResources(ctx)
	if err != nil {
		return err
	}
	for _, res := range resources {
		if _, err := r.session.ReadResource(ctx, &core.ReadResourceParams{URI: res.URI}, nil); err != nil {
			return fmt.Errorf("reading %s: %w", res.URI, err)
		}
	}
	prompts, err := r.session.AllPrompts(ctx)
	if err != nil {
		return err
	}
	for _, p := range prompts {
		if _, err := r.session.GetPrompt(ctx, &core.GetPromptParams{Name: p.Name}, nil); err != nil {
			return fmt.Errorf("getting prompt %s: %w", p.Name, err)
		}
	}
	return nil
}

func (r *runner) schemaEcho(ctx context.Context) error {
	tools, err := r.session.AllTools(ctx)
	if err != nil {
		return err
	}
	i := slices.IndexFunc(tools, func(t *core.Tool) bool { return t.Name == "json_schema_2020_12_tool" })
	if i < 0 {
		return errors.New("json_schema_2020_12_tool not listed")
	}
	_, err = r.session.CallTool(ctx, &core.CallToolParams{
		Name:      "json_schema_echo",
		Arguments: map[string]any{"schema": tools[i].InputSchema},
	}, nil)
	return err
}

// mrtr drives the multi round-trip tools; while the first tool's
// elicitation is pending it calls an unrelated tool, which must not carry
// the pending round's inputResponses or requestState.
func (r *runner) mrtr(ctx context.Context) error {
	if _, err := r.session.AllTools(ctx); err != nil {
		return err
	}
	unrelatedDone := false
	r.onElicit = func(ctx context.Context, req *core.ElicitRequest) {
		if unrelatedDone {
			return
		}
		unrelatedDone = true
		if _, err := r.session.CallTool(ctx, &core.CallToolParams{Name: "test_mrtr_unrelated"}, nil); err != nil {
			log.Printf("test_mrtr_unrelated: %v", err)
		}
	}
	for _, name := range []string{"test_mrtr_echo_state", "test_mrtr_no_state", "test_mrtr_no_result_type"} {
		res, err := r.session.CallTool(ctx, &core.CallToolParams{Name: name}, nil)
		if err != nil {
			return fmt.Errorf("calling %s: %w", name, err)
		}
		log.Printf("%s: %d content blocks", name, len(res.Content))
	}
	return nil
}
