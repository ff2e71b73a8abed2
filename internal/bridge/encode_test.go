package bridge

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpwasm/mcpwasm/core"
	"github.com/mcpwasm/mcpwasm/internal/rawjson"
)

// TestSessionInfoJSON: SessionInfo is written as encoding/json wrote it,
// from an empty one to one with every member.
func TestSessionInfoJSON(t *testing.T) {
	full := &SessionInfo{
		Session: 7, Era: "legacy", ProtocolVersion: "2025-06-18", SessionID: "s<1>",
		ServerInfo: &core.Implementation{Name: "srv", Title: "S", Version: "1", Description: "d & e", WebsiteURL: "https://x.example",
			Icons: []core.Icon{{Src: "a.png", MimeType: "image/png", Sizes: []string{"48x48", "any"}, Theme: "dark"}, {Src: "b"}}},
		ServerCapabilities: &core.ServerCapabilities{
			Experimental: map[string]any{"z": 1.5, "a": []any{"x", nil, true, map[string]any{}}},
			Extensions:   map[string]any{"io.x/y": map[string]any{"k": "v"}},
			Logging:      &struct{}{}, Completions: &struct{}{},
			Prompts: &core.ListChangedCapability{ListChanged: true}, Resources: &core.ResourcesCapability{Subscribe: true},
			Tools: &core.ListChangedCapability{}, Tasks: rawjson.RawMessage(` { "list" : {} } `),
		},
		Instructions: "use <b>", BackgroundStreamError: "gone",
	}
	for name, info := range map[string]*SessionInfo{
		"empty": {}, "full": full,
		"bare capabilities": {Era: "modern", ServerInfo: &core.Implementation{Name: "n", Version: "v"}, ServerCapabilities: &core.ServerCapabilities{Experimental: map[string]any{}}},
	} {
		t.Run(name, func(t *testing.T) {
			want, err := json.Marshal(info)
			require.NoError(t, err)
			assert.Equal(t, string(want), string(info.AppendJSON(nil)))
		})
	}
}

// TestErrorJSON: Error is written as encoding/json wrote it.
func TestErrorJSON(t *testing.T) {
	for _, e := range []*Error{
		{}, {Kind: KindRPC, Code: -32602, Message: "bad <x>", Data: rawjson.RawMessage(` {"a": [1, "&"]} `), Status: 401},
		{Kind: KindTimeout, Code: CodeRequestTimeout, Message: "t"},
	} {
		want, err := json.Marshal(e)
		require.NoError(t, err)
		assert.Equal(t, string(want), string(e.AppendJSON(nil)))
	}
}

// TestSubscriptionFilterJSON: a filter is written as encoding/json wrote it.
func TestSubscriptionFilterJSON(t *testing.T) {
	for _, f := range []*core.SubscriptionFilter{
		nil, {}, {ToolsListChanged: true, PromptsListChanged: true, ResourcesListChanged: true, ResourceSubscriptions: []string{"file:///<a>"}, TaskIDs: []string{"t1", "t2"}},
		{ResourceSubscriptions: []string{}},
	} {
		want, err := json.Marshal(f)
		require.NoError(t, err)
		assert.Equal(t, string(want), string(AppendSubscriptionFilter(nil, f)))
	}
}

// TestNotificationJSON: the notifications handed to the host are written
// as encoding/json wrote them.
func TestNotificationJSON(t *testing.T) {
	total := 10.0
	for _, p := range []any{
		&core.LoggingMessageParams{Level: "info", Data: rawjson.RawMessage(` {"a" : "<x>"} `)},
		&core.LoggingMessageParams{Meta: core.Meta{"k": 1.0}, Level: "error", Logger: "l", Data: rawjson.RawMessage(`"s"`)},
		&core.ProgressParams{ProgressToken: "tok", Progress: 0.5},
		&core.ProgressParams{Meta: core.Meta{"a": "b"}, ProgressToken: 3.0, Progress: 1e21, Total: &total, Message: "m&m"},
		&core.ResourceUpdatedParams{URI: "file:///a"},
		&core.ResourceUpdatedParams{URI: "file:///a", Meta: core.Meta{}},
		&core.ElicitationCompleteParams{ElicitationID: "e1", Meta: core.Meta{"x": []any{1.0, nil}}},
	} {
		want, err := json.Marshal(p)
		require.NoError(t, err)
		got, err := appendNotification(nil, p)
		require.NoError(t, err)
		assert.Equal(t, string(want), string(got))
	}
}
