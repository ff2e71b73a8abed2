// Package scenario holds the client side of the MCP conformance scenarios,
// written once against a minimal session interface so that every runner
// (native Go, the wasip1 module through its host, …) drives the same logic
// through its own client API.
package scenario

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log"
	"slices"
	"sync"
)

// Session is what a runner provides: a connected client session's raw
// request path. Implementations must be safe for concurrent use (the MRTR
// scenario issues a request from inside an elicitation handler).
type Session interface {
	Request(ctx context.Context, method string, params any) (json.RawMessage, error)
}

// Driver runs one scenario. Runners wire their sampling, elicitation and
// roots handlers to Sample, Elicit and Roots, then call Run.
type Driver struct {
	// Name is MCP_CONFORMANCE_SCENARIO.
	Name string
	// Context is MCP_CONFORMANCE_CONTEXT (raw JSON, may be empty).
	Context string
	// Session is set by the runner once connected.
	Session Session
	// Logf logs progress (default log.Printf).
	Logf func(format string, args ...any)

	mu            sync.Mutex
	unrelatedDone bool
}

func (d *Driver) logf(format string, args ...any) {
	if d.Logf != nil {
		d.Logf(format, args...)
		return
	}
	log.Printf(format, args...)
}

// Roots is the client's root list.
func (d *Driver) Roots() json.RawMessage {
	return json.RawMessage(`{"roots":[{"uri":"file:///conformance","name":"conformance"}]}`)
}

// Sample answers a sampling request.
func (d *Driver) Sample(ctx context.Context, params json.RawMessage) json.RawMessage {
	return json.RawMessage(`{"role":"assistant","model":"conformance-model","content":{"type":"text","text":"ok"},"stopReason":"endTurn"}`)
}

// Elicit answers an elicitation request. In the MRTR scenario the first
// elicitation is where the client, while a round is pending, calls an
// unrelated tool that must not carry that round's state.
func (d *Driver) Elicit(ctx context.Context, params json.RawMessage) json.RawMessage {
	if d.Name == "sep-2322-client-request-state" {
		d.mu.Lock()
		first := !d.unrelatedDone
		d.unrelatedDone = true
		d.mu.Unlock()
		if first {
			if _, err := d.Session.Request(ctx, "tools/call", map[string]any{"name": "test_mrtr_unrelated"}); err != nil {
				d.logf("test_mrtr_unrelated: %v", err)
			}
		}
	}
	switch d.Name {
	case "elicitation-sep1034-client-defaults", "elicitation-defaults":
		// Accept with nothing filled in: the client applies the defaults.
		return json.RawMessage(`{"action":"accept","content":{}}`)
	}
	return json.RawMessage(`{"action":"accept","content":{"confirmed":true}}`)
}

type tool struct {
	Name        string          `json:"name"`
	InputSchema json.RawMessage `json:"inputSchema"`
}

// list fetches every page of a list method and returns the raw items.
func (d *Driver) list(ctx context.Context, method, key string) ([]json.RawMessage, error) {
	var all []json.RawMessage
	cursor := ""
	seen := map[string]bool{}
	for {
		params := map[string]any{}
		if cursor != "" {
			params["cursor"] = cursor
		}
		raw, err := d.Session.Request(ctx, method, params)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", method, err)
		}
		var page map[string]json.RawMessage
		if err := json.Unmarshal(raw, &page); err != nil {
			return nil, fmt.Errorf("%s: %w", method, err)
		}
		var items []json.RawMessage
		if err := json.Unmarshal(page[key], &items); err != nil {
			return nil, fmt.Errorf("%s: %s: %w", method, key, err)
		}
		all = append(all, items...)
		var next string
		_ = json.Unmarshal(page["nextCursor"], &next)
		if next == "" || seen[next] {
			return all, nil
		}
		seen[next] = true
		cursor = next
	}
}

func (d *Driver) tools(ctx context.Context) ([]tool, error) {
	raws, err := d.list(ctx, "tools/list", "tools")
	if err != nil {
		return nil, err
	}
	out := make([]tool, 0, len(raws))
	for _, r := range raws {
		var t tool
		if err := json.Unmarshal(r, &t); err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	return out, nil
}

func (d *Driver) call(ctx context.Context, name string, args any) error {
	params := map[string]any{"name": name}
	if args != nil {
		params["arguments"] = args
	}
	raw, err := d.Session.Request(ctx, "tools/call", params)
	if err != nil {
		return fmt.Errorf("calling %s: %w", name, err)
	}
	d.logf("%s: %.200s", name, raw)
	return nil
}

// Run drives the scenario over the connected session.
func (d *Driver) Run(ctx context.Context) error {
	switch d.Name {
	case "json-schema-ref-no-deref", "request-metadata":
		_, err := d.tools(ctx)
		return err
	case "json-schema-2020-12-preservation":
		return d.schemaEcho(ctx)
	case "sep-2322-client-request-state":
		return d.mrtr(ctx)
	case "http-standard-headers":
		return d.everyMethod(ctx)
	case "http-custom-headers":
		return d.contextToolCalls(ctx)
	default:
		// initialize, tools_call, sse-retry, elicitation defaults,
		// http-invalid-tool-headers, auth scenarios: list the tools and
		// call each with plausible arguments.
		return d.callEveryTool(ctx)
	}
}

// argsFor builds arguments from a tool's input schema: 2 and 3 for the
// first two numeric properties, a word for strings, true for booleans.
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

func (d *Driver) callEveryTool(ctx context.Context) error {
	tools, err := d.tools(ctx)
	if err != nil {
		return err
	}
	for _, t := range tools {
		if err := d.call(ctx, t.Name, argsFor(t.InputSchema)); err != nil {
			return err
		}
	}
	return nil
}

func (d *Driver) contextToolCalls(ctx context.Context) error {
	var sc struct {
		ToolCalls []struct {
			Name      string         `json:"name"`
			Arguments map[string]any `json:"arguments"`
		} `json:"toolCalls"`
	}
	if d.Context != "" {
		if err := json.Unmarshal([]byte(d.Context), &sc); err != nil {
			return fmt.Errorf("MCP_CONFORMANCE_CONTEXT: %w", err)
		}
	}
	if _, err := d.tools(ctx); err != nil { // header mirroring needs the definitions
		return err
	}
	for _, c := range sc.ToolCalls {
		if err := d.call(ctx, c.Name, c.Arguments); err != nil {
			return err
		}
	}
	return nil
}

func (d *Driver) everyMethod(ctx context.Context) error {
	if err := d.callEveryTool(ctx); err != nil {
		return err
	}
	resources, err := d.list(ctx, "resources/list", "resources")
	if err != nil {
		return err
	}
	for _, r := range resources {
		var res struct {
			URI string `json:"uri"`
		}
		_ = json.Unmarshal(r, &res)
		if _, err := d.Session.Request(ctx, "resources/read", map[string]any{"uri": res.URI}); err != nil {
			return fmt.Errorf("reading %s: %w", res.URI, err)
		}
	}
	prompts, err := d.list(ctx, "prompts/list", "prompts")
	if err != nil {
		return err
	}
	for _, p := range prompts {
		var pr struct {
			Name string `json:"name"`
		}
		_ = json.Unmarshal(p, &pr)
		if _, err := d.Session.Request(ctx, "prompts/get", map[string]any{"name": pr.Name}); err != nil {
			return fmt.Errorf("getting prompt %s: %w", pr.Name, err)
		}
	}
	return nil
}

func (d *Driver) schemaEcho(ctx context.Context) error {
	tools, err := d.tools(ctx)
	if err != nil {
		return err
	}
	i := slices.IndexFunc(tools, func(t tool) bool { return t.Name == "json_schema_2020_12_tool" })
	if i < 0 {
		return errors.New("json_schema_2020_12_tool is not listed")
	}
	// The observed schema goes back verbatim (raw JSON, no re-encoding).
	return d.call(ctx, "json_schema_echo", map[string]any{"schema": tools[i].InputSchema})
}

func (d *Driver) mrtr(ctx context.Context) error {
	if _, err := d.tools(ctx); err != nil {
		return err
	}
	for _, name := range []string{"test_mrtr_echo_state", "test_mrtr_no_state", "test_mrtr_no_result_type"} {
		if err := d.call(ctx, name, nil); err != nil {
			return err
		}
	}
	return nil
}
