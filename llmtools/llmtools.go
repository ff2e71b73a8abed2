// Package llmtools hands MCP tools to a model: the manager's aggregate as
// the tool definitions of the common LLM APIs (OpenAI chat completions,
// OpenAI responses, Anthropic messages), a model's tool calls executed
// through the manager, and MCP tool results turned into each API's
// tool-result content. It makes the same conversions as the npm package's
// llm.js (its tests compare the two on real results); docs/manager.md
// says how each content type maps and why.
//
// Content parts are map[string]any values shaped as each API's JSON.
package llmtools

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync"

	"github.com/mcpwasm/mcpwasm/core"
	"github.com/mcpwasm/mcpwasm/manager"
)

// Part is one content part of an API's message, as its JSON.
type Part = map[string]any

// ---------------------------------------------------------------- tool definitions

// OpenAIChatTool is a tool of an OpenAI chat completions request.
type OpenAIChatTool struct {
	Type     string         `json:"type"`
	Function OpenAIFunction `json:"function"`
}

// OpenAIFunction is the function of an OpenAIChatTool.
type OpenAIFunction struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Parameters  json.RawMessage `json:"parameters"`
}

// OpenAIResponsesTool is a tool of an OpenAI responses request.
type OpenAIResponsesTool struct {
	Type        string          `json:"type"`
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Parameters  json.RawMessage `json:"parameters"`
}

// AnthropicTool is a tool of an Anthropic messages request.
type AnthropicTool struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	InputSchema json.RawMessage `json:"input_schema"`
}

// parameters returns a tool's input schema as the APIs take it: an object
// schema (properties present), without the $schema keyword some servers
// add.
func parameters(t *manager.Tool) json.RawMessage {
	var s map[string]any
	if err := json.Unmarshal(t.InputSchema, &s); err != nil || s == nil {
		s = map[string]any{}
	}
	delete(s, "$schema")
	if _, ok := s["type"]; !ok {
		s["type"] = "object"
	}
	if s["type"] == "object" {
		if _, ok := s["properties"]; !ok {
			s["properties"] = map[string]any{}
		}
	}
	b, _ := json.Marshal(s)
	return b
}

func description(t *manager.Tool) string {
	switch {
	case t.Description != "":
		return t.Description
	case t.Title != "":
		return t.Title
	case t.Annotations != nil:
		return t.Annotations.Title
	}
	return ""
}

// OpenAIChatTools returns the tools of an OpenAI chat completions request.
func OpenAIChatTools(tools []manager.Tool) []OpenAIChatTool {
	out := make([]OpenAIChatTool, len(tools))
	for i := range tools {
		t := &tools[i]
		out[i] = OpenAIChatTool{Type: "function", Function: OpenAIFunction{Name: t.Name, Description: description(t), Parameters: parameters(t)}}
	}
	return out
}

// OpenAIResponsesTools returns the tools of an OpenAI responses request.
func OpenAIResponsesTools(tools []manager.Tool) []OpenAIResponsesTool {
	out := make([]OpenAIResponsesTool, len(tools))
	for i := range tools {
		t := &tools[i]
		out[i] = OpenAIResponsesTool{Type: "function", Name: t.Name, Description: description(t), Parameters: parameters(t)}
	}
	return out
}

// AnthropicTools returns the tools of an Anthropic messages request.
func AnthropicTools(tools []manager.Tool) []AnthropicTool {
	out := make([]AnthropicTool, len(tools))
	for i := range tools {
		t := &tools[i]
		out[i] = AnthropicTool{Name: t.Name, Description: description(t), InputSchema: parameters(t)}
	}
	return out
}

// ---------------------------------------------------------------- content

// jsString is JSON.stringify of a string (no HTML escaping).
func jsString(s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	return strings.TrimSuffix(b.String(), "\n")
}

func base64Size(b64 string) int {
	s := strings.Join(strings.Fields(b64), "")
	pad := 0
	switch {
	case strings.HasSuffix(s, "=="):
		pad = 2
	case strings.HasSuffix(s, "="):
		pad = 1
	}
	return max(0, len(s)*3/4-pad)
}

// piece is a neutral piece of a result: text, or bytes (media "image",
// "audio", "file") with what to say where an API cannot carry them.
type piece struct {
	text     string
	media    string
	mimeType string
	data     string
	uri      string
}

func describeBinary(what, mimeType, data, uri string) string {
	if mimeType == "" {
		mimeType = "application/octet-stream"
	}
	if uri != "" {
		uri = " " + uri
	}
	return fmt.Sprintf("[%s%s: %s, %d bytes]", what, uri, mimeType, base64Size(data))
}

func describeLink(c *core.Content) string {
	var b strings.Builder
	b.WriteString("[resource link: " + c.URI)
	if c.Name != "" {
		b.WriteString(" name=" + jsString(c.Name))
	}
	if c.MimeType != "" {
		b.WriteString(" type=" + c.MimeType)
	}
	b.WriteString("]")
	if c.Description != "" {
		b.WriteString(" " + c.Description)
	}
	return b.String()
}

// structuredText is the JSON text of r.StructuredContent, or "" when there
// is none or a text block already carries it.
func structuredText(r *core.CallToolResult) string {
	raw := bytes.TrimSpace(r.StructuredContent)
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		return ""
	}
	var want any
	if json.Unmarshal(raw, &want) != nil {
		return ""
	}
	for _, c := range r.Content {
		if c == nil || c.Type != "text" {
			continue
		}
		var got any
		if json.Unmarshal([]byte(c.Text), &got) == nil && reflect.DeepEqual(got, want) {
			return ""
		}
	}
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		return ""
	}
	return b.String()
}

func pieces(r *core.CallToolResult) []piece {
	if r == nil {
		r = &core.CallToolResult{}
	}
	var out []piece
	for _, c := range r.Content {
		if c == nil {
			out = append(out, piece{text: "[unsupported content null]"})
			continue
		}
		switch c.Type {
		case "text":
			out = append(out, piece{text: c.Text})
		case "image", "audio":
			out = append(out, piece{media: c.Type, mimeType: c.MimeType, data: c.Data, text: describeBinary(c.Type, c.MimeType, c.Data, "")})
		case "resource":
			res := c.Resource
			if res == nil {
				res = &core.ResourceContents{}
			}
			if res.Blob == "" {
				mt := ""
				if res.MimeType != "" {
					mt = " (" + res.MimeType + ")"
				}
				out = append(out, piece{text: "[resource " + res.URI + mt + "]\n" + res.Text})
				continue
			}
			media := "file"
			switch {
			case strings.HasPrefix(res.MimeType, "image/"):
				media = "image"
			case strings.HasPrefix(res.MimeType, "audio/"):
				media = "audio"
			}
			out = append(out, piece{media: media, mimeType: res.MimeType, data: res.Blob, uri: res.URI, text: describeBinary("resource", res.MimeType, res.Blob, res.URI)})
		case "resource_link":
			out = append(out, piece{text: describeLink(c)})
		default:
			out = append(out, piece{text: "[unsupported content " + jsString(c.Type) + "]"})
		}
	}
	if s := structuredText(r); s != "" {
		out = append(out, piece{text: s})
	}
	if len(out) == 0 {
		t := ""
		if r.IsError {
			t = "the tool failed"
		}
		out = append(out, piece{text: t})
	}
	return out
}

var (
	imageTypes   = map[string]bool{"image/jpeg": true, "image/png": true, "image/gif": true, "image/webp": true}
	audioFormats = map[string]string{"audio/wav": "wav", "audio/x-wav": "wav", "audio/wave": "wav", "audio/mpeg": "mp3", "audio/mp3": "mp3"}
)

func errorPrefix(r *core.CallToolResult, text string) string {
	if r != nil && r.IsError {
		return "Error: " + text
	}
	return text
}

// OpenAIChatContent returns the content of a chat completions tool
// message: a string (one text piece) or text parts. Tool messages carry
// only text there: images and audio are described in the text, and
// OpenAIChatMedia returns them for a user message. An isError result's
// text starts with "Error: ".
func OpenAIChatContent(r *core.CallToolResult) any {
	ps := pieces(r)
	if len(ps) == 1 {
		return errorPrefix(r, ps[0].text)
	}
	out := make([]Part, len(ps))
	for i, p := range ps {
		t := p.text
		if i == 0 {
			t = errorPrefix(r, t)
		}
		out[i] = Part{"type": "text", "text": t}
	}
	return out
}

// OpenAIChatMedia returns the image_url and input_audio (wav, mp3) parts
// a chat completions user message can carry for a result, or nil.
func OpenAIChatMedia(r *core.CallToolResult) []Part {
	var out []Part
	for _, p := range pieces(r) {
		switch {
		case p.media == "image" && imageTypes[p.mimeType]:
			out = append(out, Part{"type": "image_url", "image_url": Part{"url": "data:" + p.mimeType + ";base64," + p.data}})
		case p.media == "audio" && audioFormats[p.mimeType] != "":
			out = append(out, Part{"type": "input_audio", "input_audio": Part{"data": p.data, "format": audioFormats[p.mimeType]}})
		}
	}
	return out
}

// OpenAIResponsesOutput returns the output of a responses
// function_call_output: a string (one text piece) or input_text,
// input_image and input_file parts (data URLs). Audio is described in
// text.
func OpenAIResponsesOutput(r *core.CallToolResult) any {
	ps := pieces(r)
	ps[0].text = errorPrefix(r, ps[0].text)
	if len(ps) == 1 && ps[0].media == "" {
		return ps[0].text
	}
	out := make([]Part, len(ps))
	for i, p := range ps {
		switch {
		case p.media == "image" && imageTypes[p.mimeType]:
			out[i] = Part{"type": "input_image", "image_url": "data:" + p.mimeType + ";base64," + p.data}
		case p.media == "file":
			name := p.uri
			if j := strings.LastIndexAny(name, `/\`); j >= 0 {
				name = name[j+1:]
			}
			if name == "" {
				name = "resource"
			}
			mt := p.mimeType
			if mt == "" {
				mt = "application/octet-stream"
			}
			out[i] = Part{"type": "input_file", "filename": name, "file_data": "data:" + mt + ";base64," + p.data}
		default:
			out[i] = Part{"type": "input_text", "text": p.text}
		}
	}
	return out
}

// AnthropicContent returns the content of an Anthropic tool_result block:
// text, image (JPEG, PNG, GIF, WebP) and document (PDF) blocks; other
// bytes are described in text. (IsError goes on the block itself.)
func AnthropicContent(r *core.CallToolResult) []Part {
	ps := pieces(r)
	out := make([]Part, len(ps))
	for i, p := range ps {
		switch {
		case p.media == "image" && imageTypes[p.mimeType]:
			out[i] = Part{"type": "image", "source": Part{"type": "base64", "media_type": p.mimeType, "data": p.data}}
		case p.media == "file" && p.mimeType == "application/pdf":
			out[i] = Part{"type": "document", "source": Part{"type": "base64", "media_type": "application/pdf", "data": p.data}}
		default:
			out[i] = Part{"type": "text", "text": p.text}
		}
	}
	return out
}

// ---------------------------------------------------------------- running tool calls

// Caller calls a tool by name: a *manager.Manager.
type Caller interface {
	CallTool(ctx context.Context, params *core.CallToolParams, opts *core.CallOptions) (*core.CallToolResult, error)
}

// RunOptions configure the Run functions; nil means all defaults.
type RunOptions struct {
	// OnProgress receives each call's progress with its call id.
	OnProgress func(callID string, p *core.ProgressParams)
	// NoMedia leaves out RunOpenAIChatToolCalls' user message with the
	// results' images and audio.
	NoMedia bool
}

// errorResult turns a failure into a result the model can read (it may
// correct its call).
func errorResult(err error) *core.CallToolResult {
	msg := err.Error()
	var rpc *core.RPCError
	if errors.As(err, &rpc) {
		msg = fmt.Sprintf("%s (code %d)", rpc.Message, rpc.Code)
	}
	return &core.CallToolResult{Content: []*core.Content{{Type: "text", Text: msg}}, IsError: true}
}

func parseArguments(args json.RawMessage) (map[string]any, error) {
	a := bytes.TrimSpace(args)
	if len(a) == 0 || bytes.Equal(a, []byte("null")) || bytes.Equal(a, []byte(`""`)) {
		return map[string]any{}, nil
	}
	if a[0] == '"' { // OpenAI: a JSON string holding the JSON object
		var s string
		if err := json.Unmarshal(a, &s); err != nil {
			return nil, err
		}
		if strings.TrimSpace(s) == "" {
			return map[string]any{}, nil
		}
		a = []byte(s)
	}
	var v map[string]any
	if err := json.Unmarshal(a, &v); err != nil {
		return nil, err
	}
	if v == nil {
		return nil, errors.New("the arguments are not a JSON object")
	}
	return v, nil
}

// runAll runs the calls in parallel; it fails only when ctx ends.
func runAll(ctx context.Context, c Caller, ids, names []string, args []json.RawMessage, opts *RunOptions) ([]*core.CallToolResult, error) {
	results := make([]*core.CallToolResult, len(ids))
	var wg sync.WaitGroup
	for i := range ids {
		wg.Add(1)
		go func() {
			defer wg.Done()
			a, err := parseArguments(args[i])
			if err != nil {
				results[i] = &core.CallToolResult{Content: []*core.Content{{Type: "text", Text: fmt.Sprintf("invalid arguments for %s: %v", names[i], err)}}, IsError: true}
				return
			}
			var co *core.CallOptions
			if opts != nil && opts.OnProgress != nil {
				id := ids[i]
				co = &core.CallOptions{OnProgress: func(p *core.ProgressParams) { opts.OnProgress(id, p) }}
			}
			r, err := c.CallTool(ctx, &core.CallToolParams{Name: names[i], Arguments: a}, co)
			if err != nil {
				r = errorResult(err)
			}
			results[i] = r
		}()
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return results, nil
}

// OpenAIChatToolCall is one of an assistant message's tool_calls.
type OpenAIChatToolCall struct {
	ID       string `json:"id"`
	Type     string `json:"type,omitempty"`
	Function struct {
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	} `json:"function"`
}

// OpenAIChatMessage is a chat completions message RunOpenAIChatToolCalls
// returns: a tool message (Content a string or text parts) or the user
// message with media (Content parts).
type OpenAIChatMessage struct {
	Role       string `json:"role"`
	ToolCallID string `json:"tool_call_id,omitempty"`
	Content    any    `json:"content"`
}

// RunOpenAIChatToolCalls runs an assistant message's tool_calls in
// parallel and returns the messages to append: one tool message per call,
// in order, then — when results carried images or audio — one user
// message with them. Failures become error results the model reads; only
// the end of ctx is an error.
func RunOpenAIChatToolCalls(ctx context.Context, c Caller, calls []OpenAIChatToolCall, opts *RunOptions) ([]OpenAIChatMessage, error) {
	var ids, names []string
	var args []json.RawMessage
	var kept []OpenAIChatToolCall
	for _, tc := range calls {
		if tc.Type != "" && tc.Type != "function" {
			continue
		}
		kept = append(kept, tc)
		ids = append(ids, tc.ID)
		names = append(names, tc.Function.Name)
		a, _ := json.Marshal(tc.Function.Arguments)
		args = append(args, a)
	}
	results, err := runAll(ctx, c, ids, names, args, opts)
	if err != nil {
		return nil, err
	}
	out := make([]OpenAIChatMessage, 0, len(kept)+1)
	var media []Part
	for i, tc := range kept {
		out = append(out, OpenAIChatMessage{Role: "tool", ToolCallID: tc.ID, Content: OpenAIChatContent(results[i])})
		if opts == nil || !opts.NoMedia {
			if m := OpenAIChatMedia(results[i]); len(m) > 0 {
				media = append(media, Part{"type": "text", "text": fmt.Sprintf("Media returned by tool call %s (%s):", tc.ID, tc.Function.Name)})
				media = append(media, m...)
			}
		}
	}
	if len(media) > 0 {
		out = append(out, OpenAIChatMessage{Role: "user", Content: media})
	}
	return out, nil
}

// OpenAIResponsesItem is an item of a response's output; only those of
// type "function_call" are run.
type OpenAIResponsesItem struct {
	Type      string `json:"type"`
	CallID    string `json:"call_id,omitempty"`
	Name      string `json:"name,omitempty"`
	Arguments string `json:"arguments,omitempty"`
}

// OpenAIResponsesCallOutput is a function_call_output item (Output a
// string or input parts).
type OpenAIResponsesCallOutput struct {
	Type   string `json:"type"`
	CallID string `json:"call_id"`
	Output any    `json:"output"`
}

// RunOpenAIResponsesCalls runs the function_call items of a response's
// output in parallel and returns one function_call_output per call, in
// order.
func RunOpenAIResponsesCalls(ctx context.Context, c Caller, items []OpenAIResponsesItem, opts *RunOptions) ([]OpenAIResponsesCallOutput, error) {
	var ids, names []string
	var args []json.RawMessage
	for _, it := range items {
		if it.Type != "function_call" {
			continue
		}
		ids = append(ids, it.CallID)
		names = append(names, it.Name)
		a, _ := json.Marshal(it.Arguments)
		args = append(args, a)
	}
	results, err := runAll(ctx, c, ids, names, args, opts)
	if err != nil {
		return nil, err
	}
	out := make([]OpenAIResponsesCallOutput, len(ids))
	for i := range ids {
		out[i] = OpenAIResponsesCallOutput{Type: "function_call_output", CallID: ids[i], Output: OpenAIResponsesOutput(results[i])}
	}
	return out, nil
}

// AnthropicBlock is a content block of an assistant message; only those
// of type "tool_use" are run.
type AnthropicBlock struct {
	Type  string          `json:"type"`
	ID    string          `json:"id,omitempty"`
	Name  string          `json:"name,omitempty"`
	Input json.RawMessage `json:"input,omitempty"`
}

// AnthropicToolResult is a tool_result block.
type AnthropicToolResult struct {
	Type      string `json:"type"`
	ToolUseID string `json:"tool_use_id"`
	Content   []Part `json:"content"`
	IsError   bool   `json:"is_error"`
}

// AnthropicMessage is the user message RunAnthropicToolUses returns.
type AnthropicMessage struct {
	Role    string                `json:"role"`
	Content []AnthropicToolResult `json:"content"`
}

// RunAnthropicToolUses runs the tool_use blocks of an assistant message
// in parallel and returns the user message with one tool_result per call,
// in order.
func RunAnthropicToolUses(ctx context.Context, c Caller, blocks []AnthropicBlock, opts *RunOptions) (*AnthropicMessage, error) {
	var ids, names []string
	var args []json.RawMessage
	for _, b := range blocks {
		if b.Type != "tool_use" {
			continue
		}
		ids = append(ids, b.ID)
		names = append(names, b.Name)
		args = append(args, b.Input)
	}
	results, err := runAll(ctx, c, ids, names, args, opts)
	if err != nil {
		return nil, err
	}
	msg := &AnthropicMessage{Role: "user", Content: make([]AnthropicToolResult, len(ids))}
	for i := range ids {
		msg.Content[i] = AnthropicToolResult{Type: "tool_result", ToolUseID: ids[i], Content: AnthropicContent(results[i]), IsError: results[i].IsError}
	}
	return msg, nil
}
