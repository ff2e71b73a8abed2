package llmtools_test

import (
	"context"
	"encoding/json"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"

	"github.com/mcpwasm/mcpwasm/core"
	"github.com/mcpwasm/mcpwasm/llmtools"
	"github.com/mcpwasm/mcpwasm/manager"
	"github.com/mcpwasm/mcpwasm/tests/peerproc"
)

func TestMain(m *testing.M) {
	defer peerproc.Cleanup()
	goleak.VerifyTestMain(m,
		goleak.IgnoreTopFunction("net/http.(*persistConn).readLoop"),
		goleak.IgnoreTopFunction("net/http.(*persistConn).writeLoop"),
		goleak.IgnoreTopFunction("internal/poll.runtime_pollWait"),
	)
}

const png = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGP4z8DwHwAFAAH/iZk9HQAAAABJRU5ErkJggg=="

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return string(b)
}

// setup connects a manager to the TypeScript SDK v2 server and
// server-everything.
func setup(t *testing.T, ctx context.Context) *manager.Manager {
	t.Helper()
	m, err := manager.New(&manager.Config{MCPServers: map[string]*manager.ServerConfig{
		"ts":         {URL: peerproc.TSServer(t, 0), AllowTools: []string{"echo", "add", "fail", "boom", "content_mix", "progress", "slow"}},
		"everything": {URL: peerproc.Everything(t, "streamableHttp"), AllowTools: []string{"get-resource-links", "get-resource-reference", "get-structured-content", "get-tiny-image"}},
	}}, nil)
	require.NoError(t, err)
	t.Cleanup(func() { m.Close() })
	states, err := m.Connect(ctx)
	require.NoError(t, err)
	for _, s := range states {
		require.Equal(t, manager.StatusConnected, s.Status, "%s: %v", s.Name, s.Err)
	}
	return m
}

func call(t *testing.T, ctx context.Context, m *manager.Manager, name string, args map[string]any) *core.CallToolResult {
	t.Helper()
	if args == nil {
		args = map[string]any{}
	}
	r, err := m.CallTool(ctx, &core.CallToolParams{Name: name, Arguments: args}, nil)
	require.NoError(t, err, name)
	return r
}

func TestWithRealServers(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	m := setup(t, ctx)
	mix := call(t, ctx, m, "ts__content_mix", nil)
	var wav string
	for _, c := range mix.Content {
		if c.Type == "audio" {
			wav = c.Data
		}
	}

	t.Run("tool definitions", func(t *testing.T) {
		tools := m.Tools()
		add, ok := m.Tool("ts__add")
		require.True(t, ok)
		chat := llmtools.OpenAIChatTools([]manager.Tool{add})
		require.Len(t, chat, 1)
		assert.Equal(t, "function", chat[0].Type)
		assert.Equal(t, "ts__add", chat[0].Function.Name)
		assert.JSONEq(t, string(add.InputSchema), string(chat[0].Function.Parameters))
		assert.JSONEq(t, mustJSON(t, map[string]any{"type": "function", "name": "ts__add", "description": add.Description, "parameters": json.RawMessage(add.InputSchema)}),
			mustJSON(t, llmtools.OpenAIResponsesTools([]manager.Tool{add})[0]))
		ref, ok := m.Tool("everything__get-resource-reference")
		require.True(t, ok)
		assert.Contains(t, string(ref.InputSchema), `"$schema"`, "the server sends $schema")
		a := llmtools.AnthropicTools([]manager.Tool{ref})[0]
		assert.NotContains(t, string(a.InputSchema), `$schema`)
		for _, d := range llmtools.OpenAIChatTools(tools) {
			var p map[string]any
			require.NoError(t, json.Unmarshal(d.Function.Parameters, &p))
			assert.Equal(t, "object", p["type"], d.Function.Name)
			assert.Contains(t, p, "properties", d.Function.Name)
		}
	})

	t.Run("every content type", func(t *testing.T) {
		embedded := "[resource test://embedded (text/plain)]\nembedded resource"
		link := `[resource link: test://static/text name="static-text" type=text/plain] a link to a static text resource`
		assert.JSONEq(t, mustJSON(t, []any{
			map[string]any{"type": "text", "text": "mixed content"},
			map[string]any{"type": "text", "text": "[image: image/png, 70 bytes]"},
			map[string]any{"type": "text", "text": "[audio: audio/wav, 52 bytes]"},
			map[string]any{"type": "text", "text": embedded},
			map[string]any{"type": "text", "text": link},
		}), mustJSON(t, llmtools.OpenAIChatContent(mix)))
		assert.JSONEq(t, mustJSON(t, []any{
			map[string]any{"type": "image_url", "image_url": map[string]any{"url": "data:image/png;base64," + png}},
			map[string]any{"type": "input_audio", "input_audio": map[string]any{"data": wav, "format": "wav"}},
		}), mustJSON(t, llmtools.OpenAIChatMedia(mix)))
		assert.JSONEq(t, mustJSON(t, []any{
			map[string]any{"type": "input_text", "text": "mixed content"},
			map[string]any{"type": "input_image", "image_url": "data:image/png;base64," + png},
			map[string]any{"type": "input_text", "text": "[audio: audio/wav, 52 bytes]"},
			map[string]any{"type": "input_text", "text": embedded},
			map[string]any{"type": "input_text", "text": link},
		}), mustJSON(t, llmtools.OpenAIResponsesOutput(mix)))
		assert.JSONEq(t, mustJSON(t, []any{
			map[string]any{"type": "text", "text": "mixed content"},
			map[string]any{"type": "image", "source": map[string]any{"type": "base64", "media_type": "image/png", "data": png}},
			map[string]any{"type": "text", "text": "[audio: audio/wav, 52 bytes]"},
			map[string]any{"type": "text", "text": embedded},
			map[string]any{"type": "text", "text": link},
		}), mustJSON(t, llmtools.AnthropicContent(mix)))

		add := call(t, ctx, m, "ts__add", map[string]any{"a": 2, "b": 3})
		assert.JSONEq(t, `[{"type":"text","text":"5"},{"type":"text","text":"{\"sum\":5}"}]`, mustJSON(t, llmtools.OpenAIChatContent(add)), "structuredContent added")
		fail := call(t, ctx, m, "ts__fail", nil)
		assert.Equal(t, "Error: it failed", llmtools.OpenAIChatContent(fail))
		assert.Equal(t, "Error: it failed", llmtools.OpenAIResponsesOutput(fail))
		assert.JSONEq(t, `[{"type":"text","text":"it failed"}]`, mustJSON(t, llmtools.AnthropicContent(fail)))
	})

	t.Run("the same conversions as llm.js", func(t *testing.T) {
		results := []*core.CallToolResult{
			mix,
			call(t, ctx, m, "ts__add", map[string]any{"a": 2, "b": 3}),
			call(t, ctx, m, "ts__fail", nil),
			call(t, ctx, m, "ts__echo", map[string]any{"text": "plain <&> text"}),
			call(t, ctx, m, "everything__get-resource-links", map[string]any{"count": 3}),
			call(t, ctx, m, "everything__get-resource-reference", map[string]any{"resourceType": "Text", "resourceId": 1}),
			call(t, ctx, m, "everything__get-resource-reference", map[string]any{"resourceType": "Blob", "resourceId": 2}),
			call(t, ctx, m, "everything__get-structured-content", map[string]any{"location": "New York"}),
			call(t, ctx, m, "everything__get-tiny-image", nil),
			{Content: []*core.Content{{Type: "image", Data: "AAAA", MimeType: "image/tiff"}, {Type: "resource", Resource: &core.ResourceContents{URI: "file:///r/doc.pdf", MimeType: "application/pdf", Blob: "JVBERi0="}}, {Type: "mystery"}}},
			{IsError: true},
		}
		type conv struct {
			Chat      any `json:"chat"`
			Media     any `json:"media"`
			Responses any `json:"responses"`
			Anthropic any `json:"anthropic"`
		}
		var goConv []conv
		for _, r := range results {
			media := llmtools.OpenAIChatMedia(r)
			if media == nil {
				media = []llmtools.Part{}
			}
			goConv = append(goConv, conv{llmtools.OpenAIChatContent(r), media, llmtools.OpenAIResponsesOutput(r), llmtools.AnthropicContent(r)})
		}
		script := `
import * as llm from ` + jsString(t, filepath.Join(peerproc.RepoRoot(t), "js", "src", "llm.js")) + `;
let input = "";
for await (const chunk of process.stdin) input += chunk;
const out = JSON.parse(input).map((r) => ({
  chat: llm.toOpenAIChatContent(r), media: llm.toOpenAIChatMedia(r),
  responses: llm.toOpenAIResponsesOutput(r), anthropic: llm.toAnthropicContent(r),
}));
process.stdout.write(JSON.stringify(out));
`
		node, err := exec.LookPath("node")
		require.NoError(t, err)
		cmd := exec.CommandContext(ctx, node, "--input-type=module", "-e", script)
		cmd.Stdin = strings.NewReader(mustJSON(t, results))
		out, err := cmd.Output()
		require.NoError(t, err)
		var jsConv []json.RawMessage
		require.NoError(t, json.Unmarshal(out, &jsConv))
		require.Len(t, jsConv, len(goConv))
		for i := range goConv {
			assert.JSONEq(t, string(jsConv[i]), mustJSON(t, goConv[i]), "result %d: %s", i, mustJSON(t, results[i]))
		}
	})

	t.Run("RunOpenAIChatToolCalls", func(t *testing.T) {
		var mu sync.Mutex
		var progress []string
		calls := []llmtools.OpenAIChatToolCall{
			chatCall("c1", "ts__echo", `{"text":"one"}`),
			chatCall("c2", "ts__content_mix", ""),
			chatCall("c3", "ts__echo", "{not json"),
			chatCall("c4", "ts__nosuch", "{}"),
			chatCall("c5", "ts__boom", "{}"),
			chatCall("c6", "ts__progress", `{"steps":2,"delayMs":1}`),
		}
		out, err := llmtools.RunOpenAIChatToolCalls(ctx, m, calls, &llmtools.RunOptions{OnProgress: func(id string, p *core.ProgressParams) {
			mu.Lock()
			defer mu.Unlock()
			progress = append(progress, id)
		}})
		require.NoError(t, err)
		require.Len(t, out, 7)
		for i, c := range calls {
			assert.Equal(t, "tool", out[i].Role)
			assert.Equal(t, c.ID, out[i].ToolCallID)
		}
		assert.Equal(t, "one", out[0].Content)
		assert.Len(t, out[1].Content, 5)
		assert.Contains(t, out[2].Content, "Error: invalid arguments for ts__echo")
		assert.Contains(t, out[3].Content, "Error: manager: unknown tool")
		assert.Equal(t, "Error: boom: deliberate protocol error (code -32603)", out[4].Content)
		assert.Equal(t, "done", out[5].Content)
		assert.Equal(t, []string{"c6", "c6"}, progress)
		assert.Equal(t, "user", out[6].Role)
		assert.JSONEq(t, mustJSON(t, []any{
			map[string]any{"type": "text", "text": "Media returned by tool call c2 (ts__content_mix):"},
			map[string]any{"type": "image_url", "image_url": map[string]any{"url": "data:image/png;base64," + png}},
			map[string]any{"type": "input_audio", "input_audio": map[string]any{"data": wav, "format": "wav"}},
		}), mustJSON(t, out[6].Content))
		out, err = llmtools.RunOpenAIChatToolCalls(ctx, m, calls[1:2], &llmtools.RunOptions{NoMedia: true})
		require.NoError(t, err)
		assert.Len(t, out, 1)
	})

	t.Run("RunOpenAIResponsesCalls and RunAnthropicToolUses", func(t *testing.T) {
		outs, err := llmtools.RunOpenAIResponsesCalls(ctx, m, []llmtools.OpenAIResponsesItem{
			{Type: "message"},
			{Type: "function_call", CallID: "r1", Name: "ts__add", Arguments: `{"a":1,"b":2}`},
			{Type: "function_call", CallID: "r2", Name: "ts__fail", Arguments: "{}"},
		}, nil)
		require.NoError(t, err)
		assert.JSONEq(t, `[
			{"type":"function_call_output","call_id":"r1","output":[{"type":"input_text","text":"3"},{"type":"input_text","text":"{\"sum\":3}"}]},
			{"type":"function_call_output","call_id":"r2","output":"Error: it failed"}]`, mustJSON(t, outs))
		msg, err := llmtools.RunAnthropicToolUses(ctx, m, []llmtools.AnthropicBlock{
			{Type: "text"},
			{Type: "tool_use", ID: "u1", Name: "ts__echo", Input: json.RawMessage(`{"text":"hi"}`)},
			{Type: "tool_use", ID: "u2", Name: "ts__fail", Input: json.RawMessage(`{}`)},
		}, nil)
		require.NoError(t, err)
		assert.JSONEq(t, `{"role":"user","content":[
			{"type":"tool_result","tool_use_id":"u1","content":[{"type":"text","text":"hi"}],"is_error":false},
			{"type":"tool_result","tool_use_id":"u2","content":[{"type":"text","text":"it failed"}],"is_error":true}]}`, mustJSON(t, msg))
	})

	t.Run("the end of ctx fails the run", func(t *testing.T) {
		cctx, ccancel := context.WithTimeout(ctx, 100*time.Millisecond)
		defer ccancel()
		_, err := llmtools.RunAnthropicToolUses(cctx, m, []llmtools.AnthropicBlock{{Type: "tool_use", ID: "u1", Name: "ts__slow", Input: json.RawMessage(`{"ms":10000}`)}}, nil)
		assert.ErrorIs(t, err, context.DeadlineExceeded)
	})
}

func chatCall(id, name, args string) llmtools.OpenAIChatToolCall {
	var c llmtools.OpenAIChatToolCall
	c.ID, c.Type, c.Function.Name, c.Function.Arguments = id, "function", name, args
	return c
}

func jsString(t *testing.T, s string) string {
	t.Helper()
	return mustJSON(t, s)
}
