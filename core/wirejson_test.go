package core

import (
	"context"
	"encoding/json"
	"reflect"
	"runtime"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpwasm/mcpwasm/internal/rawjson"
	"github.com/mcpwasm/mcpwasm/jsonrpc"
)

// The hand-written decoders and encoders must give what encoding/json
// gives. Each realistic input is also mutated: every member, at every
// depth, replaced by values of each kind (the wrong ones included), and
// the decoders must agree with json.Unmarshal on the result and the error
// text of each variant.

var oddValues = []string{`null`, `0`, `-7`, `1.5`, `1e400`, `""`, `"x<&>\u2028"`, `true`, `[]`, `{}`, `[1,"a",null,{}]`, `{"A":1,"name":"n","type":"t"}`}

// mutations returns input with each member (at any depth) replaced by
// each of oddValues, and removed.
func mutations(t *testing.T, input string) []string {
	t.Helper()
	var root any
	require.NoError(t, json.Unmarshal([]byte(input), &root))
	out := []string{input}
	var walk func(node any, set func(any))
	walk = func(node any, set func(any)) {
		switch x := node.(type) {
		case map[string]any:
			keys := make([]string, 0, len(x))
			for k := range x {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				orig := x[k]
				for _, odd := range oddValues {
					var v any
					if odd == `1e400` {
						v = RawMessage(odd)
					} else {
						require.NoError(t, json.Unmarshal([]byte(odd), &v))
					}
					x[k] = v
					out = append(out, string(mustMarshal(root)))
				}
				delete(x, k)
				out = append(out, string(mustMarshal(root)))
				x[k] = orig
				walk(orig, func(v any) { x[k] = v })
			}
		case []any:
			for i := range x {
				walk(x[i], func(v any) { x[i] = v })
			}
		}
	}
	walk(root, func(any) {})
	return out
}

// compareDecode checks that dec and json.Unmarshal agree on input.
func compareDecode[T any](t *testing.T, input string, dec func([]byte, *T) error) {
	t.Helper()
	var want, got T
	werr := json.Unmarshal([]byte(input), &want)
	gerr := dec([]byte(input), &got)
	if werr != nil {
		require.Error(t, gerr, "input %s: encoding/json: %v", input, werr)
		assert.Equal(t, werr.Error(), gerr.Error(), "input %s", input)
		return
	}
	require.NoError(t, gerr, "input %s", input)
	assert.Equal(t, want, got, "input %s", input)
}

func TestDecodersMatchEncodingJSON(t *testing.T) {
	initialize := `{"protocolVersion":"2025-06-18","capabilities":{"logging":{},"completions":{},"prompts":{"listChanged":true},"resources":{"subscribe":true,"listChanged":false},"tools":{"listChanged":true},"experimental":{"x":{"y":[1,2]}},"tasks":{"list":{},"requests":{"tools":{"call":{}}}}},"serverInfo":{"name":"everything","title":"Everything","version":"2.0.0","icons":[{"src":"data:x","mimeType":"image/png","sizes":["48x48"],"theme":"dark"}]},"instructions":"Be nice.","_meta":{"k":"v"},"resultType":"complete"}`
	discover := `{"supportedVersions":["2026-07-28"],"capabilities":{"tools":{}},"serverInfo":{"name":"s","version":"1"},"ttlMs":60000,"cacheScope":"public","instructions":"i","_meta":{"io.modelcontextprotocol/serverInfo":{"name":"m","version":"2"}}}`
	tools := `{"tools":[{"name":"echo","title":"Echo","description":"Echoes","inputSchema":{"type":"object","properties":{"message":{"type":"string"}},"required":["message"]},"outputSchema":{"type":"object"},"annotations":{"title":"E","readOnlyHint":true,"destructiveHint":false,"idempotentHint":true,"openWorldHint":false},"execution":{"taskSupport":"optional"},"icons":[{"src":"a"}],"_meta":{"ui":{"resourceUri":"ui://x"}}},{"name":"add","inputSchema":{"type":"object"}}],"nextCursor":"c2","ttlMs":10,"_meta":{}}`
	callResult := `{"content":[{"type":"text","text":"hi <b>","annotations":{"audience":["user"],"priority":0.5,"lastModified":"2025-01-01"}},{"type":"image","data":"AAAA","mimeType":"image/png"},{"type":"resource","resource":{"uri":"file:///a","mimeType":"text/plain","text":"t","_meta":{"a":1}}},{"type":"resource_link","uri":"file:///b","name":"b","size":12,"icons":[{"src":"s"}]},{"type":"tool_use","id":"u1","name":"n","input":{"a":[1]}},{"type":"tool_result","toolUseId":"u1","content":[{"type":"text","text":"r"}],"structuredContent":{"v":1},"isError":true}],"structuredContent":{"result":42},"isError":false,"_meta":{"progressToken":1}}`
	task := `{"taskId":"t1","status":"input_required","statusMessage":"waiting","createdAt":"2025-01-01T00:00:00Z","lastUpdatedAt":"2025-01-01T00:00:01Z","ttl":60000,"ttlMs":30000,"pollInterval":500,"pollIntervalMs":250,"inputRequests":{"k1":{"method":"elicitation/create","params":{"message":"m"}},"k2":null},"result":{"content":[]},"error":{"code":-32000,"message":"boom","data":{"x":1}}}`
	inputRequired := `{"resultType":"input_required","inputRequests":{"a":{"method":"roots/list"},"b":{"method":"sampling/createMessage","params":{"maxTokens":5}}},"requestState":"opaque"}`

	t.Run("InitializeResult", func(t *testing.T) {
		for _, in := range mutations(t, initialize) {
			compareDecode(t, in, decodeInitializeResult)
		}
	})
	t.Run("DiscoverResult", func(t *testing.T) {
		for _, in := range mutations(t, discover) {
			compareDecode(t, in, decodeDiscoverResult)
		}
	})
	t.Run("ListToolsResult", func(t *testing.T) {
		for _, in := range mutations(t, tools) {
			compareDecode(t, in, decodeListToolsResult)
		}
	})
	t.Run("CallToolResult", func(t *testing.T) {
		for _, in := range mutations(t, callResult) {
			compareDecode(t, in, decodeToolResultPlain)
			compareDecode(t, in, decodeToolResultMemo)
		}
	})
	t.Run("wireTask", func(t *testing.T) {
		for _, in := range mutations(t, task) {
			compareDecode(t, in, decodeWireTaskJSON)
		}
	})
	t.Run("inputRequiredResult", func(t *testing.T) {
		for _, in := range mutations(t, inputRequired) {
			compareDecode(t, in, decodeInputRequired)
		}
	})
	t.Run("odd documents", func(t *testing.T) {
		odd := []string{
			`null`, `[]`, `"s"`, `1`, `{}`, ` { } `,
			// repeated members: the last scalar wins, objects merge
			`{"protocolVersion":"a","protocolVersion":"b","capabilities":{"tools":{}},"capabilities":{"logging":{}}}`,
			`{"protocolVersion":"a","protocolVersion":null}`,
			`{"serverInfo":{"name":"a","version":"1"},"serverInfo":{"title":"t"}}`,
			`{"serverInfo":{"name":"a"},"serverInfo":null}`,
			// names match case-insensitively, the exact one preferred when last
			`{"PROTOCOLVERSION":"x","protocolVersion":"y"}`, `{"protocolVersion":"y","ProtocolVersion":"x"}`,
			`{"Capabilities":{"Tools":{"ListChanged":true}}}`, `{"proto\u0063olVersion":"esc"}`,
			// wrong kinds deep down
			`{"capabilities":{"tools":{"listChanged":"yes"}},"serverInfo":{"icons":[{"sizes":[1]}]}}`,
			`{"serverInfo":{"icons":{}}}`, `{"capabilities":{"experimental":[]}}`,
			`{"_meta":[],"resultType":5}`,
		}
		for _, in := range odd {
			compareDecode(t, in, decodeInitializeResult)
		}
		for _, in := range []string{`{"content":null}`, `{"content":[null]}`, `{"content":{}}`, `{"content":[{"size":1.5}]}`, `{"content":[{"size":"1"}]}`, `{"content":[{"annotations":{"priority":"high"}}]}`, `{"content":[{"resource":{"text":1}}]}`, `{"isError":"true","content":[]}`, `{"structuredContent":null}`, `{"_meta":{"a":[{"b":null}],"c":1.5},"_meta":{"d":"e"}}`, `{"_meta":null,"_meta":{"a":1}}`, `{"_meta":{"a":"\u00e9"},"_meta":[]}`} {
			compareDecode(t, in, decodeToolResultPlain)
			compareDecode(t, in, decodeToolResultMemo)
		}
		for _, in := range []string{`{"ttl":1.5}`, `{"ttl":"1"}`, `{"ttl":99999999999999999999}`, `{"error":{"code":1.0}}`, `{"error":"x"}`, `{"inputRequests":[]}`, `{"inputRequests":{"a":"b"}}`, `{"error":{"Code":7,"MESSAGE":"m"}}`} {
			compareDecode(t, in, decodeWireTaskJSON)
		}
	})
}

func TestParamsDecodersMatchEncodingJSON(t *testing.T) {
	elicit := `{"_meta":{"io.modelcontextprotocol/related-task":{"taskId":"t"}},"mode":"form","message":"Your name?","requestedSchema":{"type":"object","properties":{"name":{"type":"string","default":"Ann"}}},"url":"https://x","elicitationId":"e1"}`
	sampling := `{"messages":[{"role":"user","content":{"type":"text","text":"hi"}},{"role":"assistant","content":[{"type":"text","text":"a"},{"type":"tool_use","id":"1","name":"n","input":{}}],"_meta":{"m":1}}],"modelPreferences":{"hints":[{"name":"claude"},null],"costPriority":0.3,"speedPriority":0.5,"intelligencePriority":0.9},"systemPrompt":"s","includeContext":"none","temperature":0.7,"maxTokens":100,"stopSequences":["\n"],"metadata":{"k":"v"},"tools":[{"name":"t","inputSchema":{"type":"object"}}],"toolChoice":{"mode":"auto"}}`
	progress := `{"progressToken":"tok","progress":0.5,"total":10,"message":"half","_meta":{"x":1}}`
	cancelled := `{"requestId":7,"reason":"user","_meta":{}}`
	ack := `{"notifications":{"toolsListChanged":true,"promptsListChanged":false,"resourcesListChanged":true,"resourceSubscriptions":["a"],"taskIds":["t"]},"_meta":{"io.modelcontextprotocol/subscriptionId":3}}`
	logging := `{"level":"info","logger":"l","data":{"a":[1,2]},"_meta":{}}`
	env := `{"_meta":{"io.modelcontextprotocol/subscriptionId":"s1"}}`

	t.Run("ElicitParams", func(t *testing.T) {
		for _, in := range mutations(t, elicit) {
			compareDecode(t, in, func(b []byte, p *ElicitParams) error { return decodeParamsOf(b, p) })
		}
	})
	t.Run("CreateMessageParams", func(t *testing.T) {
		for _, in := range mutations(t, sampling) {
			compareDecode(t, in, func(b []byte, p *CreateMessageParams) error { return decodeParamsOf(b, p) })
		}
	})
	t.Run("ProgressParams", func(t *testing.T) {
		for _, in := range mutations(t, progress) {
			compareDecode(t, in, func(b []byte, p *ProgressParams) error { return decodeParamsOf(b, p) })
		}
	})
	t.Run("CancelledParams", func(t *testing.T) {
		for _, in := range append(mutations(t, cancelled), `{"requestId":"s"}`, `{"requestId":1.0}`, `{"requestId":1.5}`) {
			compareDecode(t, in, func(b []byte, p *CancelledParams) error { return decodeParamsOf(b, p) })
		}
	})
	t.Run("AcknowledgedParams", func(t *testing.T) {
		for _, in := range mutations(t, ack) {
			compareDecode(t, in, func(b []byte, p *AcknowledgedParams) error { return decodeParamsOf(b, p) })
		}
	})
	t.Run("LoggingMessageParams", func(t *testing.T) {
		for _, in := range mutations(t, logging) {
			compareDecode(t, in, func(b []byte, p *LoggingMessageParams) error { return decodeParamsOf(b, p) })
		}
	})
	t.Run("notificationEnvelope", func(t *testing.T) {
		for _, in := range append(mutations(t, env), `{"_meta":{"io.modelcontextprotocol/subscriptionId":null}}`, `{"_meta":null}`) {
			compareDecode(t, in, func(b []byte, p *notificationEnvelope) error { return decodeParamsOf(b, p) })
		}
	})
	t.Run("small params", func(t *testing.T) {
		for _, in := range mutations(t, `{"uri":"file:///a","_meta":{"a":1}}`) {
			compareDecode(t, in, func(b []byte, p *ResourceUpdatedParams) error { return decodeParamsOf(b, p) })
		}
		for _, in := range mutations(t, `{"elicitationId":"e","_meta":{"a":1}}`) {
			compareDecode(t, in, func(b []byte, p *ElicitationCompleteParams) error { return decodeParamsOf(b, p) })
		}
		for _, in := range mutations(t, `{"_meta":{"a":1}}`) {
			compareDecode(t, in, func(b []byte, p *ListRootsParams) error { return decodeParamsOf(b, p) })
		}
	})
	t.Run("ContentList", func(t *testing.T) {
		for _, in := range []string{`null`, `{"type":"text","text":"x"}`, `[{"type":"text"},null]`, `[]`, `"s"`, `{"text":1}`, `[{"text":1}]`, `{"content":[{"text":2}]}`} {
			compareDecode(t, in, func(b []byte, p *ContentList) error { return p.UnmarshalJSON(b) })
		}
	})
}

func TestOtherReadersMatchEncodingJSON(t *testing.T) {
	t.Run("RPCError.Supported", func(t *testing.T) {
		for _, data := range []string{`{"supported":["a","b"]}`, `{"supported":["a",1,"b"]}`, `{"supported":"a"}`, `{"Supported":["x"]}`, `[]`, `{"supported":null}`, `{}`} {
			var want struct {
				Supported []string `json:"supported"`
			}
			_ = json.Unmarshal([]byte(data), &want)
			e := &RPCError{Code: CodeUnsupportedProtocolVersion, Data: RawMessage(data)}
			assert.Equal(t, want.Supported, e.Supported(), data)
		}
	})
	t.Run("schemaDefaults", func(t *testing.T) {
		for _, in := range mutations(t, `{"type":"object","properties":{"a":{"type":"string","default":"x"},"b":{"default":{"n":1.50}},"c":{}}}`) {
			var want struct {
				Properties map[string]struct {
					Default RawMessage `json:"default"`
				} `json:"properties"`
			}
			werr := json.Unmarshal([]byte(in), &want)
			got, gerr := schemaDefaults([]byte(in))
			require.Equal(t, werr == nil, gerr == nil, in)
			if werr != nil {
				continue
			}
			require.Equal(t, len(want.Properties), len(got), in)
			for k, p := range want.Properties {
				assert.Equal(t, string(p.Default), string(got[k]), in)
			}
		}
	})
	t.Run("tool entries", func(t *testing.T) {
		for _, in := range mutations(t, `{"name":"t","inputSchema":{"type":"object"},"outputSchema":{"type":"object"},"annotations":{"readOnlyHint":true,"idempotentHint":false},"execution":{"taskSupport":"required"}}`) {
			var want struct {
				Name         string     `json:"name"`
				InputSchema  RawMessage `json:"inputSchema"`
				OutputSchema RawMessage `json:"outputSchema"`
				Annotations  *struct {
					ReadOnlyHint   bool `json:"readOnlyHint"`
					IdempotentHint bool `json:"idempotentHint"`
				} `json:"annotations"`
				Execution RawMessage `json:"execution"`
			}
			werr := json.Unmarshal([]byte(in), &want)
			got, gerr := decodeToolEntry([]byte(in))
			require.Equal(t, werr == nil, gerr == nil, "%s: %v", in, werr)
			if werr != nil {
				assert.Equal(t, werr.Error(), gerr.Error())
				continue
			}
			assert.Equal(t, want.Name, got.Name)
			assert.Equal(t, string(want.InputSchema), string(got.InputSchema))
			assert.Equal(t, string(want.OutputSchema), string(got.OutputSchema))
			assert.Equal(t, string(want.Execution), string(got.Execution))
			assert.Equal(t, want.Annotations == nil, got.Annotations == nil)
			if want.Annotations != nil {
				assert.Equal(t, want.Annotations.ReadOnlyHint, got.Annotations.ReadOnlyHint)
				assert.Equal(t, want.Annotations.IdempotentHint, got.Annotations.IdempotentHint)
			}
			var e struct {
				TaskSupport string `json:"taskSupport"`
			}
			wantReq := len(want.Execution) > 0 && json.Unmarshal(want.Execution, &e) == nil && e.TaskSupport == "required"
			assert.Equal(t, wantReq, taskSupportRequired(got.Execution), in)
		}
	})
	t.Run("tasks capabilities", func(t *testing.T) {
		for _, in := range mutations(t, `{"list":{},"requests":{"tools":{"call":{}}}}`) {
			var w struct {
				Requests struct {
					Tools struct {
						Call RawMessage `json:"call"`
					} `json:"tools"`
				} `json:"requests"`
			}
			werr := json.Unmarshal([]byte(in), &w)
			var c tasksToolCall
			ok := decodeShape([]byte(in), &c) == nil
			assert.Equal(t, werr == nil, ok, in)
			assert.Equal(t, string(w.Requests.Tools.Call), string(c.Requests.Tools.Call), in)
			var l struct {
				List RawMessage `json:"list"`
			}
			werr = json.Unmarshal([]byte(in), &l)
			var tl tasksList
			ok = decodeShape([]byte(in), &tl) == nil
			assert.Equal(t, werr == nil, ok, in)
			assert.Equal(t, string(l.List), string(tl.List), in)
		}
	})
}

func TestEncodersMatchEncodingJSON(t *testing.T) {
	size, prio, temp := int64(12), 0.25, 1e-7
	yes := &struct{}{}
	content := []*Content{
		{Type: "text", Text: "a <b> & \u2028", Annotations: &Annotations{Audience: []string{"user"}, Priority: &prio, LastModified: "x"}, Meta: Meta{"z": 1, "a": []any{"x", 2.5, nil, true}}},
		{Type: "image", Data: "AAA=", MimeType: "image/png"},
		{Type: "resource", Resource: &ResourceContents{URI: "file:///a", Text: ""}},
		{Type: "resource", Resource: &ResourceContents{URI: "file:///b", MimeType: "application/octet-stream", Blob: "AQID", Text: "ignored", Meta: Meta{"m": "v"}}},
		{Type: "resource_link", URI: "file:///c", Name: "c", Title: "C", Description: "d", Size: &size, Icons: []Icon{{Src: "s", Sizes: []string{"1x1"}}}},
		{Type: "tool_use", ID: "u", Name: "n", Input: RawMessage(" { \"a\" : [1, 2] } ")},
		{Type: "tool_result", ToolUseID: "u", Content: []*Content{{Type: "text", Text: "r"}}, StructuredContent: RawMessage(`{"x":"<y>"}`), IsError: true},
		nil,
	}
	cases := []struct {
		name string
		v    any
		got  func() ([]byte, error)
	}{
		{"Implementation", &Implementation{Name: "mcpwasm", Title: "T", Version: "1.0", Description: "d", WebsiteURL: "https://x/?a=1&b=<2>", Icons: []Icon{{Src: "s", MimeType: "m", Sizes: []string{"a", "b"}, Theme: "light"}}}, func() ([]byte, error) {
			return marshalImplementation(&Implementation{Name: "mcpwasm", Title: "T", Version: "1.0", Description: "d", WebsiteURL: "https://x/?a=1&b=<2>", Icons: []Icon{{Src: "s", MimeType: "m", Sizes: []string{"a", "b"}, Theme: "light"}}})
		}},
		{"minimal Implementation", &Implementation{}, func() ([]byte, error) { return marshalImplementation(&Implementation{}) }},
		{"ClientCapabilities", &ClientCapabilities{Experimental: map[string]any{"b": 1, "a": map[string]any{"x": []any{}}}, Extensions: map[string]any{ExtensionTasks: struct{}{}, "e": RawMessage(` {"k" : 1} `)}, Roots: &RootsCapability{ListChanged: true}, Sampling: &SamplingCapability{Context: yes, Tools: yes}, Elicitation: &ElicitationCapability{Form: &FormElicitationCapability{ApplyDefaults: true}, URL: yes}, Tasks: RawMessage(`{"list":{}}`)}, func() ([]byte, error) {
			return marshalClientCaps(&ClientCapabilities{Experimental: map[string]any{"b": 1, "a": map[string]any{"x": []any{}}}, Extensions: map[string]any{ExtensionTasks: struct{}{}, "e": RawMessage(` {"k" : 1} `)}, Roots: &RootsCapability{ListChanged: true}, Sampling: &SamplingCapability{Context: yes, Tools: yes}, Elicitation: &ElicitationCapability{Form: &FormElicitationCapability{ApplyDefaults: true}, URL: yes}, Tasks: RawMessage(`{"list":{}}`)})
		}},
		{"empty ClientCapabilities", &ClientCapabilities{Roots: &RootsCapability{}, Sampling: &SamplingCapability{}, Elicitation: &ElicitationCapability{Form: &FormElicitationCapability{}}}, func() ([]byte, error) {
			return marshalClientCaps(&ClientCapabilities{Roots: &RootsCapability{}, Sampling: &SamplingCapability{}, Elicitation: &ElicitationCapability{Form: &FormElicitationCapability{}}})
		}},
		{"ElicitResult", &ElicitResult{Action: ActionAccept, Content: map[string]any{"name": "Ann", "age": json.Number("42"), "n": 3, "tags": []any{"a"}}, Meta: Meta{"m": 1.5}, Completed: true}, func() ([]byte, error) {
			return marshalElicitResult(&ElicitResult{Action: ActionAccept, Content: map[string]any{"name": "Ann", "age": Number("42"), "n": 3, "tags": []any{"a"}}, Meta: Meta{"m": 1.5}, Completed: true})
		}},
		{"declined ElicitResult", &ElicitResult{Action: ActionDecline}, func() ([]byte, error) { return marshalElicitResult(&ElicitResult{Action: ActionDecline}) }},
		{"CreateMessageResult one block", &CreateMessageResult{Role: "assistant", Content: ContentList{content[0]}, Model: "m", StopReason: "endTurn", Meta: Meta{"a": nil}}, func() ([]byte, error) {
			return marshalCreateMessageResult(&CreateMessageResult{Role: "assistant", Content: ContentList{content[0]}, Model: "m", StopReason: "endTurn", Meta: Meta{"a": nil}})
		}},
		{"CreateMessageResult blocks", &CreateMessageResult{Role: "assistant", Content: ContentList(content), Model: "m"}, func() ([]byte, error) {
			return marshalCreateMessageResult(&CreateMessageResult{Role: "assistant", Content: ContentList(content), Model: "m"})
		}},
		{"CreateMessageResult no content", &CreateMessageResult{Role: "assistant"}, func() ([]byte, error) { return marshalCreateMessageResult(&CreateMessageResult{Role: "assistant"}) }},
		{"ListRootsResult", &ListRootsResult{Roots: []*Root{{URI: "file:///a", Name: "a", Meta: Meta{"k": "v"}}, {URI: "file:///b"}, nil}}, func() ([]byte, error) {
			return marshalListRootsResult(&ListRootsResult{Roots: []*Root{{URI: "file:///a", Name: "a", Meta: Meta{"k": "v"}}, {URI: "file:///b"}, nil}})
		}},
		{"empty ListRootsResult", &ListRootsResult{Roots: []*Root{}}, func() ([]byte, error) { return marshalListRootsResult(&ListRootsResult{Roots: []*Root{}}) }},
		{"ListenParams", &ListenParams{Notifications: &SubscriptionFilter{ToolsListChanged: true, ResourcesListChanged: true, ResourceSubscriptions: []string{"file:///a"}, TaskIDs: []string{"t"}}}, func() ([]byte, error) {
			return marshalListenParams(&SubscriptionFilter{ToolsListChanged: true, ResourcesListChanged: true, ResourceSubscriptions: []string{"file:///a"}, TaskIDs: []string{"t"}}), nil
		}},
		{"PaginatedParams", &PaginatedParams{Cursor: "c<1>", Meta: Meta{"progressToken": 3}}, func() ([]byte, error) {
			return marshalPaginated(&PaginatedParams{Cursor: "c<1>", Meta: Meta{"progressToken": 3}})
		}},
		{"SetLevelParams", &SetLevelParams{Level: "warning"}, func() ([]byte, error) { return stringParams("level", "warning"), nil }},
		{"SubscribeParams", &SubscribeParams{URI: "file:///a&b"}, func() ([]byte, error) { return stringParams("uri", "file:///a&b"), nil }},
		{"CancelledParams", &CancelledParams{RequestID: jsonrpc.Int64ID(42), Reason: "user <cancel> \u2028"}, func() ([]byte, error) { return cancelledParams(42, "user <cancel> \u2028"), nil }},
		{"CancelledParams without reason", &CancelledParams{RequestID: jsonrpc.Int64ID(-1)}, func() ([]byte, error) { return cancelledParams(-1, ""), nil }},
		{"ResourceContents", &ResourceContents{URI: "u", Blob: "b"}, func() ([]byte, error) { return (&ResourceContents{URI: "u", Blob: "b"}).MarshalJSON() }},
		{"ContentList", ContentList(content), func() ([]byte, error) { return ContentList(content).MarshalJSON() }},
		// The reference holds encoding/json's Number: natively the same type
		// as core's; in the GOOS=js build core's is the library's own, which
		// the test binary's encoding/json would quote.
		{"appendAny", map[string]any{"f": temp, "big": 1e21, "i": int64(-3), "u": uint8(7), "s": []string{"a"}, "m": map[string]string{"b": "c"}, "raw": json.RawMessage("[1, 2]"), "num": json.Number("1.50"), "meta": Meta{"x": true}, "e": struct{}{}}, func() ([]byte, error) {
			return appendAny(nil, map[string]any{"f": temp, "big": 1e21, "i": int64(-3), "u": uint8(7), "s": []string{"a"}, "m": map[string]string{"b": "c"}, "raw": RawMessage("[1, 2]"), "num": Number("1.50"), "meta": Meta{"x": true}, "e": struct{}{}})
		}},
		{"appendAny with a json.Marshaler", map[string]any{"t": marshalerValue{"<a> b"}, "l": []any{marshalerValue{"c"}}}, func() ([]byte, error) {
			return appendAny(nil, map[string]any{"t": marshalerValue{"<a> b"}, "l": []any{marshalerValue{"c"}}})
		}},
		{"inputResponses", map[string]RawMessage{"b": RawMessage(`{"action":"accept"}`), "a": RawMessage(`{"roots":[]}`)}, func() ([]byte, error) {
			return marshalResponses(map[string]RawMessage{"b": RawMessage(`{"action":"accept"}`), "a": RawMessage(`{"roots":[]}`)})
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			want, err := json.Marshal(c.v)
			require.NoError(t, err)
			if c.got == nil {
				return
			}
			got, err := c.got()
			require.NoError(t, err)
			assert.Equal(t, string(want), string(got))
		})
	}
	t.Run("errors", func(t *testing.T) {
		_, err := appendAny(nil, map[string]any{"f": struct{ A int }{1}})
		require.ErrorIs(t, err, errUnsupportedValue)
		_, err = appendAny(nil, []any{RawMessage(`{"a":`)})
		require.Error(t, err)
		assert.True(t, strings.HasPrefix(err.Error(), "json: error calling MarshalJSON for type json.RawMessage: "), err.Error())
		nan := 0.0
		_, jerr := json.Marshal(map[string]any{"x": nan / nan})
		_, err = appendAny(nil, map[string]any{"x": nan / nan})
		require.Error(t, err)
		assert.Equal(t, jerr.Error(), err.Error())
	})
}

func TestTypedResultDecodersMatchEncodingJSON(t *testing.T) {
	icons := `[{"src":"i","sizes":["1x1"]}]`
	ann := `{"audience":["assistant"],"priority":1,"lastModified":"2025"}`
	cases := map[string]string{
		"resources":  `{"resources":[{"uri":"file:///a","name":"a","title":"A","description":"d","mimeType":"text/plain","size":3,"annotations":` + ann + `,"icons":` + icons + `,"_meta":{"k":1}},null],"nextCursor":"n","ttlMs":5,"cacheScope":"private","_meta":{}}`,
		"templates":  `{"resourceTemplates":[{"uriTemplate":"file:///{x}","name":"t","title":"T","description":"d","mimeType":"m","annotations":` + ann + `,"icons":` + icons + `,"_meta":{}}],"nextCursor":""}`,
		"read":       `{"contents":[{"uri":"file:///a","mimeType":"text/plain","text":"hello"},{"uri":"file:///b","blob":"AQID","_meta":{"x":[1]}}],"ttlMs":1000}`,
		"prompts":    `{"prompts":[{"name":"p","title":"P","description":"d","arguments":[{"name":"a","title":"A","description":"x","required":true},null],"icons":` + icons + `,"_meta":{"m":true}}],"nextCursor":"c"}`,
		"get prompt": `{"description":"d","messages":[{"role":"user","content":{"type":"text","text":"t"}},{"role":"assistant","content":{"type":"resource","resource":{"uri":"u","text":"x"}}}],"_meta":{}}`,
		"complete":   `{"completion":{"values":["a","b"],"total":10,"hasMore":true},"resultType":"complete"}`,
		"discover":   `{"supportedVersions":["2026-07-28"],"capabilities":{"resources":{"subscribe":true}},"ttlMs":1,"cacheScope":"public"}`,
	}
	for name, in := range cases {
		t.Run(name, func(t *testing.T) {
			for _, m := range mutations(t, in) {
				switch name {
				case "resources":
					compareDecode(t, m, func(b []byte, r *ListResourcesResult) error { return decodeTypedResult(b, r) })
				case "templates":
					compareDecode(t, m, func(b []byte, r *ListResourceTemplatesResult) error { return decodeTypedResult(b, r) })
				case "read":
					compareDecode(t, m, func(b []byte, r *ReadResourceResult) error { return decodeTypedResult(b, r) })
				case "prompts":
					compareDecode(t, m, func(b []byte, r *ListPromptsResult) error { return decodeTypedResult(b, r) })
				case "get prompt":
					compareDecode(t, m, func(b []byte, r *GetPromptResult) error { return decodeTypedResult(b, r) })
				case "complete":
					compareDecode(t, m, func(b []byte, r *CompleteResult) error { return decodeTypedResult(b, r) })
				case "discover":
					compareDecode(t, m, func(b []byte, r *DiscoverResult) error { return decodeTypedResult(b, r) })
				}
			}
		})
	}
}

func TestMarshalParamsMatchesEncodingJSON(t *testing.T) {
	type args struct {
		Text string `json:"text"`
		N    int    `json:"n,omitempty"`
	}
	var nilArgs *args
	nan := 0.0
	// reflective marks the values only reflection encodes (a caller's own
	// struct types): the GOOS=js module leaves reflection out and refuses
	// them (rawjson.ErrUnsupported; the JS API passes JSON, never Go values).
	reflective := map[int]bool{2: true, 3: true, 4: true, 5: true, 7: true}
	cases := []any{
		&CallToolParams{Name: "echo", Arguments: map[string]any{"text": "hi <b>", "n": 1.5, "list": []any{1, "x", nil}}},
		&CallToolParams{Name: "echo"},
		&CallToolParams{Name: "echo", Arguments: args{Text: "struct"}},
		&CallToolParams{Name: "echo", Arguments: &args{Text: "ptr", N: 2}},
		&CallToolParams{Name: "echo", Arguments: nilArgs},
		&CallToolParams{Name: "echo", Arguments: []byte("base64 me")},
		&CallToolParams{Name: "echo", Arguments: RawMessage(` { "a" : 1 } `)},
		&CallToolParams{Name: "echo", Arguments: map[string]any{"n": Number("12")}, Meta: Meta{"progressToken": 7, "s": args{Text: "x"}}},
		&CallToolParams{Name: "e", Arguments: map[string]string{"k": "v"}},
		&PaginatedParams{},
		&PaginatedParams{Cursor: "c", Meta: Meta{"a": []string{"x"}}},
		(*PaginatedParams)(nil),
		(*CallToolParams)(nil),
		&ReadResourceParams{URI: "file:///a"},
		map[string]any{"taskId": "t"},
		// The typed params of the library's own methods: by hand, in the
		// GOOS=js build too.
		&ReadResourceParams{URI: "file:///a <b> & \u2028", Meta: Meta{"progressToken": 1, "k": []any{"x", 2.5}}},
		(*ReadResourceParams)(nil),
		&SubscribeParams{URI: "res://x"},
		&SetLevelParams{Level: "debug", Meta: Meta{"a": nil}},
		&GetPromptParams{Name: "p"},
		&GetPromptParams{Name: "p\"q", Arguments: map[string]string{"z": "1", "a": "<2>", "é": "\x01"}, Meta: Meta{"m": true}},
		&CompleteParams{Ref: CompleteReference{Type: "ref/prompt", Name: "p"}, Argument: CompleteArgument{Name: "a", Value: "v"}},
		&CompleteParams{Ref: CompleteReference{Type: "ref/resource", URI: "file:///{x}"}, Argument: CompleteArgument{Name: "x", Value: ""},
			Context: &CompleteContext{Arguments: map[string]string{"b": "2", "a": "1"}}, Meta: Meta{"t": 1}},
		&CompleteParams{Ref: CompleteReference{Type: "ref/prompt"}, Context: &CompleteContext{}},
	}
	for i, c := range cases {
		want, werr := json.Marshal(c)
		require.NoError(t, werr)
		got, err := marshalParams(c)
		if runtime.GOOS == "js" && reflective[i] {
			require.ErrorIs(t, err, rawjson.ErrUnsupported, "case %d", i)
			continue
		}
		require.NoError(t, err, "case %d", i)
		if string(want) == "null" {
			assert.Nil(t, got)
			continue
		}
		assert.Equal(t, string(want), string(got))
	}
	_, werr := json.Marshal(&CallToolParams{Name: "x", Arguments: map[string]any{"f": nan / nan}})
	_, err := marshalParams(&CallToolParams{Name: "x", Arguments: map[string]any{"f": nan / nan}})
	require.Error(t, err)
	assert.Equal(t, "core: encoding params: "+werr.Error(), err.Error())
}

func TestMetaValuesOfTheGenericAndRawPaths(t *testing.T) {
	type custom struct {
		A int `json:"a"`
	}
	f, tr := newFake(t, EraModern)
	got := make(chan RawMessage, 4)
	f.handle("x/echo", func(r *jsonrpc.Request) (any, *jsonrpc.Error) {
		got <- r.Params
		return map[string]any{}, nil
	})
	s, err := NewClient(&Implementation{Name: "c", Version: "1"}, nil).Connect(context.Background(), tr, nil)
	require.NoError(t, err)
	defer s.Close()
	ctx := context.Background()

	t.Run("Request encodes any _meta value, with encoding/json when needed", func(t *testing.T) {
		_, err := s.Request(ctx, "x/echo", map[string]any{"k": 1}, &CallOptions{Meta: Meta{"s": custom{A: 2}, "n": 3}})
		if runtime.GOOS == "js" {
			// The GOOS=js module leaves reflection out: a struct of the
			// caller's is refused, clearly.
			require.ErrorIs(t, err, rawjson.ErrUnsupported)
			return
		}
		require.NoError(t, err)
		p := <-got
		var v struct {
			K    int `json:"k"`
			Meta struct {
				S custom `json:"s"`
				N int    `json:"n"`
			} `json:"_meta"`
		}
		require.NoError(t, json.Unmarshal(p, &v))
		assert.Equal(t, 1, v.K)
		assert.Equal(t, 2, v.Meta.S.A)
		assert.Equal(t, 3, v.Meta.N)
	})
	t.Run("RequestRaw takes JSON-shaped _meta values", func(t *testing.T) {
		_, err := s.RequestRaw(ctx, "x/echo", RawMessage(`{"k":1}`), &CallOptions{Meta: Meta{"n": 3, "m": map[string]any{"x": []any{"y"}}}})
		require.NoError(t, err)
		var v struct {
			Meta map[string]any `json:"_meta"`
		}
		require.NoError(t, json.Unmarshal(<-got, &v))
		assert.Equal(t, map[string]any{"x": []any{"y"}}, v.Meta["m"])
		assert.Equal(t, 3.0, v.Meta["n"])
	})
	t.Run("RequestRaw refuses other Go values clearly", func(t *testing.T) {
		_, err := s.RequestRaw(ctx, "x/echo", nil, &CallOptions{Meta: Meta{"s": custom{A: 2}}})
		require.ErrorIs(t, err, errUnsupportedValue)
		assert.Contains(t, err.Error(), `core: encoding _meta["s"]`)
	})
}

// TestTablesAreConsistent guards the hand-made tables: every field lies
// inside its struct, nested types that are allocated can be, slices of
// pointers name their type for errors, and names are unique.
func TestTablesAreConsistent(t *testing.T) {
	all := []*structType{&iconT, &implT, &listChangedT, &resourcesCapT, &serverCapsT, &initResultT, &discoverT, &toolAnnT, &toolT, &listToolsT, &annotationsT, &resContentsT, &contentT, &callResultT, &rpcErrorT, &inputReqT, &wireTaskT, &inputRequiredT, &elicitParamsT, &samplingMsgT, &modelHintT, &modelPrefsT, &toolChoiceT, &createMsgT, &listRootsT, &progressT, &cancelledT, &filterT, &ackT, &resUpdatedT, &loggingT, &elicitCompleteT, &envT, &resourceT, &templateT, &listResT, &listTmplT, &readResT, &promptArgT, &promptT, &listPromptsT, &promptMsgT, &getPromptT, &completionT, &completeT, &toolHintsT, &toolEntryT, &taskCreatedT, &listTasksT, &urlElicitT, &envMetaT, &serverInfoMetaInnerT, &serverInfoMetaT, &outputCheckT, &taskSupportT, &tasksListT, &tasksCallT, &tasksToolsT, &tasksToolCallT, &supportedT, &schemaDefaultsT, &propertyT, &iconEncT, &implEncT, &rootsCapEncT, &samplingCapEncT, &formCapEncT, &elicitCapEncT, &clientCapsEncT, &initParamsEncT, &annotationsEncT, &resTextEncT, &resBlobEncT, &contentEncT, &elicitResultEncT, &createResultEncT, &rootEncT, &listRootsResultEncT, &filterEncT, &listenEncT, &paginatedEncT, &callToolEncT, &serverCapsEncT, &listChangedEncT, &resourcesCapEncT, &loggingEncT, &progressEncT, &resUpdatedEncT, &elicitCompleteEncT, &toolAnnEncT, &toolEncT, &samplingMsgEncT, &modelHintEncT, &modelPrefsEncT, &toolChoiceEncT, &createParamsEncT, &elicitParamsEncT, &listRootsParamsEncT, &callResultEncT, &paginatedT, &callToolT, &createResultT, &elicitResultT, &rootT, &listRootsResultT}
	for _, st := range all {
		seen := map[string]bool{}
		for _, f := range st.fields {
			assert.False(t, seen[f.name], "%s: %s twice", st.typ, f.name)
			seen[f.name] = true
			switch f.kind {
			case kPtr, kPtrs, kStruct:
				require.NotNil(t, f.sub, "%s.%s", st.typ, f.name)
			}
			if f.kind == kPtrs && st.typ != "" {
				assert.Equal(t, "[]*"+f.sub.typ, f.styp, "%s.%s", st.typ, f.name)
			}
		}
	}
	// Decoding: every kPtr and kPtrs target of a decoding table allocates.
	for _, st := range all {
		if st.typ == "" {
			continue // an encoding table
		}
		for _, f := range st.fields {
			if (f.kind == kPtr || f.kind == kPtrs) && f.sub != nil {
				assert.NotNil(t, f.sub.alloc, "%s.%s: %s cannot be allocated", st.typ, f.name, f.sub.typ)
			}
		}
	}
}

// jsonFields lists the JSON members of a struct type as encoding/json sees
// them (embedded structs flattened), with their omitempty flags.
func jsonFields(t reflect.Type) (names []string, omit []bool) {
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		if f.Anonymous && tag == "" {
			n, o := jsonFields(f.Type)
			names, omit = append(names, n...), append(omit, o...)
			continue
		}
		if tag == "-" || !f.IsExported() {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		if name == "" {
			name = f.Name
		}
		names = append(names, name)
		omit = append(omit, strings.Contains(opts, "omitempty"))
	}
	return names, omit
}

// TestTablesCoverTheTypes: each table of a public wire type lists exactly
// the type's JSON members (a field added to a type must be added to its
// tables); encoding tables in order and with the same omitempty.
func TestTablesCoverTheTypes(t *testing.T) {
	decoding := decodingTables
	for st, v := range decoding {
		want, _ := jsonFields(reflect.TypeOf(v))
		var got []string
		for _, f := range st.fields {
			got = append(got, f.name)
		}
		assert.ElementsMatch(t, want, got, st.typ)
		assert.Equal(t, "core."+reflect.TypeOf(v).Name(), strings.Replace(st.typ, "jsonrpc.", "core.", 1), "type name in errors")
	}
	encoding := encodingTables
	for st, v := range encoding {
		names, omit := jsonFields(reflect.TypeOf(v))
		var got []string
		var gotOmit []bool
		for _, f := range st.fields {
			got, gotOmit = append(got, f.name), append(gotOmit, f.omit)
		}
		assert.Equal(t, names, got, reflect.TypeOf(v).Name())
		assert.Equal(t, omit, gotOmit, reflect.TypeOf(v).Name())
	}
}

func TestWireJSONForHostsMatchesEncodingJSON(t *testing.T) {
	prio, temp, total := 0.5, 0.7, 10.0
	yes, no := true, false
	values := []any{
		&Implementation{Name: "s", Version: "1", Icons: []Icon{{Src: "i"}}},
		&ServerCapabilities{Experimental: map[string]any{"x": 1.0}, Logging: &struct{}{}, Prompts: &ListChangedCapability{ListChanged: true}, Resources: &ResourcesCapability{Subscribe: true}, Tools: &ListChangedCapability{}, Tasks: RawMessage(`{"list":{}}`)},
		&ServerCapabilities{}, (*ServerCapabilities)(nil),
		&SubscriptionFilter{ToolsListChanged: true, TaskIDs: []string{"t"}},
		&LoggingMessageParams{Level: "info", Logger: "l", Data: RawMessage(`{"a": [1, "<b>"]}`), Meta: Meta{"k": "v"}},
		&LoggingMessageParams{Level: "info"},
		&ProgressParams{ProgressToken: 7.0, Progress: 0.5, Total: &total, Message: "half"},
		&ProgressParams{ProgressToken: "tok"},
		&ResourceUpdatedParams{URI: "file:///a"},
		&ElicitationCompleteParams{ElicitationID: "e"},
		&CreateMessageParams{Messages: []*SamplingMessage{{Role: "user", Content: ContentList{TextContent("hi")}}, {Role: "assistant", Content: ContentList{TextContent("a"), {Type: "tool_use", ID: "1", Name: "n", Input: RawMessage(`{}`)}}, Meta: Meta{"m": 1.0}}},
			ModelPreferences: &ModelPreferences{Hints: []*ModelHint{{Name: "claude"}, {}}, CostPriority: &prio}, SystemPrompt: "s", IncludeContext: "none", Temperature: &temp, MaxTokens: 100,
			StopSequences: []string{"\n"}, Metadata: RawMessage(`{"k":"v"}`), Tools: []*Tool{{Name: "t", InputSchema: RawMessage(`{"type":"object"}`), Annotations: &ToolAnnotations{ReadOnlyHint: &yes, OpenWorldHint: &no}}, {Name: "u"}}, ToolChoice: &ToolChoice{Mode: "auto"}},
		&CreateMessageParams{},
		&ElicitParams{Message: "m", RequestedSchema: RawMessage(`{"type":"object"}`)},
		&ElicitParams{Mode: ElicitModeURL, Message: "m", URL: "https://x/?a&b", ElicitationID: "e"},
		&ListRootsParams{}, &ListRootsParams{Meta: Meta{"a": []any{}}},
		&CreateMessageResult{Role: "assistant", Content: ContentList{TextContent("x")}, Model: "m"},
		&ElicitResult{Action: ActionAccept, Content: map[string]any{"a": "b"}},
		&ListRootsResult{Roots: []*Root{{URI: "file:///"}}},
		&CallToolResult{Content: []*Content{TextContent("t")}, StructuredContent: RawMessage(`{"x":1}`), IsError: true, ResultInfo: ResultInfo{ResultType: "complete", Meta: Meta{"a": 1.0}}},
		&CallToolResult{},
	}
	for _, v := range values {
		want, err := json.Marshal(v)
		require.NoError(t, err)
		got, err := AppendWireJSON([]byte("x"), v)
		require.NoError(t, err)
		assert.Equal(t, "x"+string(want), string(got), "%T", v)
	}
	_, err := AppendWireJSON(nil, &Tool{})
	assert.ErrorIs(t, err, ErrNotWireType)

	decodes := map[string]func(string){
		"Implementation": func(in string) {
			compareDecode(t, in, func(b []byte, p *Implementation) error { return DecodeWireJSON(b, p) })
		},
		"SubscriptionFilter": func(in string) {
			compareDecode(t, in, func(b []byte, p *SubscriptionFilter) error { return DecodeWireJSON(b, p) })
		},
		"PaginatedParams": func(in string) {
			compareDecode(t, in, func(b []byte, p *PaginatedParams) error { return DecodeWireJSON(b, p) })
		},
		"CallToolParams": func(in string) {
			compareDecode(t, in, func(b []byte, p *CallToolParams) error { return DecodeWireJSON(b, p) })
		},
		"CreateMessageResult": func(in string) {
			compareDecode(t, in, func(b []byte, p *CreateMessageResult) error { return DecodeWireJSON(b, p) })
		},
		"ElicitResult": func(in string) {
			compareDecode(t, in, func(b []byte, p *ElicitResult) error { return DecodeWireJSON(b, p) })
		},
		"ListRootsResult": func(in string) {
			compareDecode(t, in, func(b []byte, p *ListRootsResult) error { return DecodeWireJSON(b, p) })
		},
		"Root": func(in string) { compareDecode(t, in, func(b []byte, p *Root) error { return DecodeWireJSON(b, p) }) },
	}
	inputs := map[string]string{
		"Implementation":      `{"name":"n","title":"t","version":"1","description":"d","websiteUrl":"w","icons":[{"src":"s"}]}`,
		"SubscriptionFilter":  `{"toolsListChanged":true,"resourceSubscriptions":["a"],"taskIds":["t"]}`,
		"PaginatedParams":     `{"cursor":"c","_meta":{"progressToken":1}}`,
		"CallToolParams":      `{"name":"echo","arguments":{"text":"hi","n":[1,2]},"_meta":{"a":1}}`,
		"CreateMessageResult": `{"role":"assistant","content":{"type":"text","text":"hi"},"model":"m","stopReason":"endTurn","_meta":{}}`,
		"ElicitResult":        `{"action":"accept","content":{"name":"Ann","n":1},"_meta":{"a":1},"completed":true}`,
		"ListRootsResult":     `{"roots":[{"uri":"file:///a","name":"a","_meta":{}},null]}`,
		"Root":                `{"uri":"file:///a","name":"a"}`,
	}
	for name, in := range inputs {
		t.Run(name, func(t *testing.T) {
			for _, m := range mutations(t, in) {
				decodes[name](m)
			}
		})
	}
	t.Run("[]*Root", func(t *testing.T) {
		for _, in := range []string{`[{"uri":"a"},null]`, `[]`, `null`, `{}`, `[1]`, `[{"uri":1}]`} {
			compareDecode(t, in, func(b []byte, p *[]*Root) error { return DecodeWireJSON(b, p) })
		}
	})
	assert.ErrorIs(t, DecodeWireJSON([]byte(`{}`), &Tool{}), ErrNotWireType)
}

// TestTablesMatchTheFields guards the unsafe part of the tables: each
// member's offset is the offset of the Go field encoding/json maps that
// name to (embedded structs included), and its kind is one that reads and
// writes that field's Go type. A wrong offset or kind would make the codec
// read or write memory of another type.
func TestTablesMatchTheFields(t *testing.T) {
	goTypes := map[kind]string{
		kString: "string", kBool: "bool", kInt64: "int64", kInt64Ptr: "*int64", kFloat: "float64", kFloatPtr: "*float64",
		kBoolPtr: "*bool", kRaw: rawTypeName, kMeta: "core.Meta", kMap: "map[string]interface {}", kAny: "interface {}",
		kStrings: "[]string", kEmpty: "*struct {}", kIcons: "[]core.Icon", kID: "jsonrpc.ID", kContentList: "core.ContentList",
		kInputRequests: "map[string]*core.InputRequest", kContents: "[]*core.Content", kIDPtr: "*jsonrpc.ID",
		kDefaults: "map[string]" + rawTypeName, kResource: "*core.ResourceContents", kStringMap: "map[string]string",
	}
	var fieldsOf func(rt reflect.Type, base uintptr, into map[string]reflect.StructField)
	fieldsOf = func(rt reflect.Type, base uintptr, into map[string]reflect.StructField) {
		for i := 0; i < rt.NumField(); i++ {
			f := rt.Field(i)
			tag := f.Tag.Get("json")
			if f.Anonymous && tag == "" {
				fieldsOf(f.Type, base+f.Offset, into)
				continue
			}
			name, _, _ := strings.Cut(tag, ",")
			if name == "" {
				name = f.Name
			}
			if tag == "-" || !f.IsExported() {
				continue
			}
			f.Offset += base
			into[name] = f
		}
	}
	check := func(st *structType, v any) {
		rt := reflect.TypeOf(v)
		byName := map[string]reflect.StructField{}
		fieldsOf(rt, 0, byName)
		for _, f := range st.fields {
			gf, ok := byName[f.name]
			if !assert.True(t, ok, "%s: no field for %q", rt, f.name) {
				continue
			}
			assert.Equal(t, gf.Offset, f.off, "%s.%s: offset", rt, f.name)
			got := gf.Type.String()
			switch f.kind {
			case kStruct:
				assert.Equal(t, reflect.Struct, gf.Type.Kind(), "%s.%s", rt, f.name)
			case kPtr:
				assert.Equal(t, reflect.Pointer, gf.Type.Kind(), "%s.%s", rt, f.name)
			case kPtrs:
				assert.True(t, gf.Type.Kind() == reflect.Slice && gf.Type.Elem().Kind() == reflect.Pointer, "%s.%s: %s", rt, f.name, got)
			case kRawAlias:
				assert.Equal(t, reflect.Slice, gf.Type.Kind(), "%s.%s", rt, f.name)
				assert.Equal(t, reflect.Uint8, gf.Type.Elem().Kind(), "%s.%s", rt, f.name)
			default:
				want, known := goTypes[f.kind]
				if assert.True(t, known, "%s.%s: kind %d has no Go type in this test", rt, f.name, f.kind) {
					assert.Equal(t, want, got, "%s.%s: kind and Go type", rt, f.name)
				}
			}
		}
	}
	for _, tables := range []map[*structType]any{decodingTables, encodingTables} {
		for st, v := range tables {
			check(st, v)
		}
	}
}

// decodingTables and encodingTables pair each table of a public wire type
// with a value of that type, for the table tests.
var decodingTables = map[*structType]any{
	&iconT: Icon{}, &implT: Implementation{}, &listChangedT: ListChangedCapability{}, &resourcesCapT: ResourcesCapability{},
	&serverCapsT: ServerCapabilities{}, &initResultT: InitializeResult{}, &discoverT: DiscoverResult{}, &toolAnnT: ToolAnnotations{},
	&toolT: Tool{}, &listToolsT: ListToolsResult{}, &annotationsT: Annotations{}, &resContentsT: ResourceContents{}, &contentT: Content{},
	&callResultT: CallToolResult{}, &rpcErrorT: jsonrpc.Error{}, &inputReqT: InputRequest{}, &wireTaskT: wireTask{},
	&inputRequiredT: inputRequiredResult{}, &elicitParamsT: ElicitParams{}, &samplingMsgT: SamplingMessage{}, &modelHintT: ModelHint{},
	&modelPrefsT: ModelPreferences{}, &toolChoiceT: ToolChoice{}, &createMsgT: CreateMessageParams{}, &listRootsT: ListRootsParams{},
	&progressT: ProgressParams{}, &cancelledT: CancelledParams{}, &filterT: SubscriptionFilter{}, &ackT: AcknowledgedParams{},
	&resUpdatedT: ResourceUpdatedParams{}, &loggingT: LoggingMessageParams{}, &elicitCompleteT: ElicitationCompleteParams{},
	&envT: notificationEnvelope{}, &resourceT: Resource{}, &templateT: ResourceTemplate{}, &listResT: ListResourcesResult{},
	&listTmplT: ListResourceTemplatesResult{}, &readResT: ReadResourceResult{}, &promptArgT: PromptArgument{}, &promptT: Prompt{},
	&listPromptsT: ListPromptsResult{}, &promptMsgT: PromptMessage{}, &getPromptT: GetPromptResult{}, &completionT: Completion{},
	&completeT: CompleteResult{}, &paginatedT: PaginatedParams{}, &callToolT: CallToolParams{}, &createResultT: CreateMessageResult{},
	&elicitResultT: ElicitResult{}, &rootT: Root{}, &listRootsResultT: ListRootsResult{},
}

var encodingTables = map[*structType]any{
	&iconEncT: Icon{}, &implEncT: Implementation{}, &rootsCapEncT: RootsCapability{}, &samplingCapEncT: SamplingCapability{},
	&formCapEncT: FormElicitationCapability{}, &elicitCapEncT: ElicitationCapability{}, &clientCapsEncT: ClientCapabilities{},
	&initParamsEncT: InitializeParams{}, &annotationsEncT: Annotations{}, &contentEncT: Content{}, &elicitResultEncT: ElicitResult{},
	&createResultEncT: CreateMessageResult{}, &rootEncT: Root{}, &listRootsResultEncT: ListRootsResult{}, &filterEncT: SubscriptionFilter{},
	&listenEncT: ListenParams{}, &paginatedEncT: PaginatedParams{}, &callToolEncT: CallToolParams{},
	&readResourceEncT: ReadResourceParams{}, &subscribeEncT: SubscribeParams{}, &setLevelEncT: SetLevelParams{},
	&getPromptEncT: GetPromptParams{}, &completeRefEncT: CompleteReference{}, &completeArgEncT: CompleteArgument{},
	&completeCtxEncT: CompleteContext{}, &completeEncT: CompleteParams{},
	&serverCapsEncT: ServerCapabilities{}, &listChangedEncT: ListChangedCapability{}, &resourcesCapEncT: ResourcesCapability{},
	&loggingEncT: LoggingMessageParams{}, &progressEncT: ProgressParams{}, &resUpdatedEncT: ResourceUpdatedParams{},
	&elicitCompleteEncT: ElicitationCompleteParams{}, &toolAnnEncT: ToolAnnotations{}, &toolEncT: Tool{}, &samplingMsgEncT: SamplingMessage{},
	&modelHintEncT: ModelHint{}, &modelPrefsEncT: ModelPreferences{}, &toolChoiceEncT: ToolChoice{}, &createParamsEncT: CreateMessageParams{},
	&elicitParamsEncT: ElicitParams{}, &listRootsParamsEncT: ListRootsParams{}, &callResultEncT: CallToolResult{},
}

// marshalerValue is a caller's type with its own MarshalJSON (spaced and
// with HTML characters, which json.Marshal compacts and escapes).
type marshalerValue struct{ s string }

func (m marshalerValue) MarshalJSON() ([]byte, error) {
	return []byte(`{ "v" : "` + m.s + `" }`), nil
}

// rawTypeName is how reflect names RawMessage: json.RawMessage natively,
// rawjson.RawMessage in the GOOS=js build (internal/rawjson).
var rawTypeName = reflect.TypeFor[RawMessage]().String()

// decodeToolResultPlain is decodeCallToolResult without a session's memo.
func decodeToolResultPlain(data []byte, r *CallToolResult) error {
	return decodeCallToolResult(data, r, nil)
}

// decodeToolResultMemo is decodeCallToolResult through a memo that
// decoded data before, so that a _meta comes from the memo: it must
// decode exactly as the plain decoder (and encoding/json) does.
func decodeToolResultMemo(data []byte, r *CallToolResult) error {
	var memo metaMemo
	var first CallToolResult
	_ = decodeCallToolResult(data, &first, &memo)
	return decodeCallToolResult(data, r, &memo)
}

func TestMetaMemo(t *testing.T) {
	var memo metaMemo
	in := []byte(`{"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"s","version":"1"},"list":[{"a":1}]},"content":[{"type":"text","text":"x"}]}`)
	var a, b CallToolResult
	require.NoError(t, decodeCallToolResult(in, &a, &memo))
	require.NotNil(t, memo.last.Load(), "a _meta is kept")
	require.NoError(t, decodeCallToolResult(in, &b, &memo))
	assert.Equal(t, a.Meta, b.Meta)

	// Each result has maps and slices of its own: changing one changes
	// neither another result nor the memo.
	b.Meta["io.modelcontextprotocol/serverInfo"].(map[string]any)["name"] = "changed"
	b.Meta["list"].([]any)[0].(map[string]any)["a"] = "changed"
	b.Meta["new"] = true
	var c CallToolResult
	require.NoError(t, decodeCallToolResult(in, &c, &memo))
	assert.Equal(t, a.Meta, c.Meta)
	assert.Equal(t, "s", a.Meta["io.modelcontextprotocol/serverInfo"].(map[string]any)["name"])

	// Another _meta replaces the kept one; a bad one is not kept.
	other := []byte(`{"_meta":{"k":"v"},"content":[]}`)
	var d CallToolResult
	require.NoError(t, decodeCallToolResult(other, &d, &memo))
	assert.Equal(t, Meta{"k": "v"}, d.Meta)
	assert.Equal(t, `{"k":"v"}`, string(memo.last.Load().raw))
	bad := []byte(`{"_meta":{"k":1e999},"content":[]}`)
	var e CallToolResult
	require.Error(t, decodeCallToolResult(bad, &e, &memo))
	assert.Equal(t, `{"k":"v"}`, string(memo.last.Load().raw))

	// Only the result's own _meta is kept: a content block's is decoded
	// as it is, and leaves the memo alone.
	withContentMeta := []byte(`{"_meta":{"k":"v"},"content":[{"type":"text","text":"x","_meta":{"block":1}},{"type":"text","text":"y","_meta":{"block":2}}]}`)
	var g CallToolResult
	require.NoError(t, decodeCallToolResult(withContentMeta, &g, &memo))
	assert.Equal(t, Meta{"k": "v"}, g.Meta)
	assert.Equal(t, Meta{"block": float64(2)}, g.Content[1].Meta)
	assert.Equal(t, `{"k":"v"}`, string(memo.last.Load().raw))

	// A repeated _meta allocates only its maps: the strings are shared.
	var f CallToolResult
	allocsPlain := testing.AllocsPerRun(50, func() { f = CallToolResult{}; _ = decodeCallToolResult(in, &f, nil) })
	allocsMemo := testing.AllocsPerRun(50, func() { f = CallToolResult{}; _ = decodeCallToolResult(in, &f, &memo) })
	assert.Less(t, allocsMemo, allocsPlain-5, "memo %v, plain %v", allocsMemo, allocsPlain)
}
