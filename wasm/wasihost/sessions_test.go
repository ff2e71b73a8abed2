package wasihost

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpwasm/mcpwasm/core"
	"github.com/mcpwasm/mcpwasm/internal/wire"
	"github.com/mcpwasm/mcpwasm/tests/peerproc"
)

// peer is a real MCP server the session table runs against, through the
// wasip1 module.
type peer struct {
	name     string
	start    func(t *testing.T) string // returns the endpoint URL
	versions []string                  // offered protocol versions (nil: all)
	mode     string
	era      string
	version  string
	legacy   bool // no header mirroring (legacy era)
}

func peers() []peer {
	goSDK := func(opts peerproc.DemoOptions, path string) func(t *testing.T) string {
		return func(t *testing.T) string { return peerproc.GoSDKServer(t, opts) + path }
	}
	ts := func(t *testing.T) string {
		return peerproc.TSServer(t, 10)
	}
	legacyVersions := []string{core.Version20251125, core.Version20250618, core.Version20250326}
	return []peer{
		{name: "gosdk-modern", start: goSDK(peerproc.DemoOptions{Modern: true}, peerproc.MCPPath), era: "modern", version: core.Version20260728},
		{name: "gosdk-legacy", start: goSDK(peerproc.DemoOptions{}, peerproc.MCPPath), era: "legacy", version: core.Version20251125, legacy: true},
		{name: "gosdk-http+sse", start: goSDK(peerproc.DemoOptions{}, peerproc.SSEPath), era: "legacy", version: core.Version20251125, legacy: true},
		{name: "ts-modern", start: ts, era: "modern", version: core.Version20260728},
		{name: "ts-legacy", start: ts, versions: legacyVersions, era: "legacy", version: core.Version20251125, legacy: true},
	}
}

// TestSessions runs full sessions through the wasip1 module against the Go
// SDK server (in-process) and the TypeScript SDK v2 server, in both eras:
// every request, notification and server→client answer crosses the ABI.
// Each peer gets one Host (one instance) that serves all its sessions.
func TestSessions(t *testing.T) {
	for _, p := range peers() {
		t.Run(p.name, func(t *testing.T) {
			t.Parallel()
			h := newHost(t, nil)
			runSessionTable(t, h, p, p.start(t))
			require.NoError(t, h.Err(), "the instance must survive the whole table")
		})
	}
}

type content struct {
	Type     string `json:"type"`
	Text     string `json:"text"`
	MimeType string `json:"mimeType"`
	Data     string `json:"data"`
	URI      string `json:"uri"`
	Resource *struct {
		URI string `json:"uri"`
	} `json:"resource"`
}

type toolResult struct {
	Content           []content       `json:"content"`
	StructuredContent json.RawMessage `json:"structuredContent"`
	IsError           bool            `json:"isError"`
}

func decodeTool(t *testing.T, raw json.RawMessage) *toolResult {
	t.Helper()
	var r toolResult
	require.NoError(t, json.Unmarshal(raw, &r), "result: %s", raw)
	return &r
}

func (r *toolResult) text() string {
	var parts []string
	for _, c := range r.Content {
		if c.Type == "text" {
			parts = append(parts, c.Text)
		}
	}
	return strings.Join(parts, "\n")
}

func callTool(t *testing.T, s *Session, name string, args any) *toolResult {
	t.Helper()
	params := map[string]any{"name": name}
	if args != nil {
		params["arguments"] = args
	}
	raw, err := s.Request(testCtx(t), "tools/call", params, nil)
	require.NoError(t, err, "calling %s", name)
	return decodeTool(t, raw)
}

func connectPeer(t *testing.T, h *Host, p peer, url string, opts *ConnectOptions) *Session {
	t.Helper()
	if opts == nil {
		opts = &ConnectOptions{}
	}
	if opts.ProtocolVersions == nil {
		opts.ProtocolVersions = p.versions
	}
	if opts.Mode == "" {
		opts.Mode = p.mode
	}
	if opts.OnWarning == nil {
		opts.OnWarning = func(msg string) { t.Logf("guest warning: %s", msg) }
	}
	s, err := h.Connect(testCtx(t), url, opts)
	require.NoError(t, err)
	t.Cleanup(func() { _ = s.Close() })
	return s
}

// listAll fetches every page of a list method.
func listAll(t *testing.T, s *Session, method, key string) (items []json.RawMessage, pages int) {
	t.Helper()
	cursor := ""
	for pages < 100 {
		params := map[string]any{}
		if cursor != "" {
			params["cursor"] = cursor
		}
		raw, err := s.Request(testCtx(t), method, params, nil)
		require.NoError(t, err)
		pages++
		var page map[string]json.RawMessage
		require.NoError(t, json.Unmarshal(raw, &page))
		var part []json.RawMessage
		require.NoError(t, json.Unmarshal(page[key], &part))
		items = append(items, part...)
		cursor = ""
		_ = json.Unmarshal(page["nextCursor"], &cursor)
		if cursor == "" {
			return items, pages
		}
	}
	t.Fatalf("%s: more than 100 pages", method)
	return nil, 0
}

// notes collects notifications.
type notes struct {
	mu   sync.Mutex
	seen []string // method names
	raw  map[string][]json.RawMessage
}

func (n *notes) add(method string, params json.RawMessage) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.seen = append(n.seen, method)
	if n.raw == nil {
		n.raw = map[string][]json.RawMessage{}
	}
	n.raw[method] = append(n.raw[method], params)
}

func (n *notes) get(method string) []json.RawMessage {
	n.mu.Lock()
	defer n.mu.Unlock()
	return append([]json.RawMessage(nil), n.raw[method]...)
}

func runSessionTable(t *testing.T, h *Host, p peer, url string) {
	t.Run("handshake", func(t *testing.T) {
		s := connectPeer(t, h, p, url, nil)
		assert.Equal(t, p.era, s.Era())
		assert.Equal(t, p.version, s.ProtocolVersion())
		assert.Equal(t, "mcpwasm test peer", s.Instructions())
		require.NotNil(t, s.ServerInfo())
		assert.NotEmpty(t, s.ServerInfo().Name)
		require.NotNil(t, s.ServerCapabilities())
		assert.NotNil(t, s.ServerCapabilities().Tools)
		assert.NotNil(t, s.ServerCapabilities().Prompts)
		if p.legacy && !strings.HasSuffix(url, peerproc.SSEPath) {
			assert.NotEmpty(t, s.SessionID(), "a legacy Streamable HTTP session has an Mcp-Session-Id")
		}
		_, err := s.Request(testCtx(t), "ping", nil, nil)
		require.NoError(t, err, "ping works in both eras")
	})

	t.Run("pagination", func(t *testing.T) {
		s := connectPeer(t, h, p, url, nil)
		tools, pages := listAll(t, s, "tools/list", "tools")
		assert.Greater(t, pages, 1, "page size 10 paginates")
		names := map[string]bool{}
		for _, raw := range tools {
			var tool struct{ Name string }
			require.NoError(t, json.Unmarshal(raw, &tool))
			assert.False(t, names[tool.Name], "duplicate %s", tool.Name)
			names[tool.Name] = true
		}
		for _, want := range []string{"echo", "add", "elicit", "page_tool_00", "page_tool_24"} {
			assert.True(t, names[want], "missing tool %s", want)
		}
	})

	t.Run("tools and errors", func(t *testing.T) {
		s := connectPeer(t, h, p, url, nil)
		listAll(t, s, "tools/list", "tools") // learn the output schemas
		assert.Equal(t, "héllo ☃", callTool(t, s, "echo", map[string]any{"text": "héllo ☃"}).text())
		add := callTool(t, s, "add", map[string]any{"a": 40, "b": 2})
		assert.JSONEq(t, `{"sum":42}`, string(add.StructuredContent))

		raw, err := s.Request(testCtx(t), "tools/call", map[string]any{"name": "bad_output"}, nil)
		require.ErrorIs(t, err, core.ErrOutputSchema)
		var ge *GuestError
		require.ErrorAs(t, err, &ge)
		assert.Equal(t, "output-schema", ge.Kind)
		require.NotNil(t, raw, "the result comes with the validation error")
		assert.Contains(t, string(decodeTool(t, raw).StructuredContent), "not a number")

		assert.True(t, callTool(t, s, "fail", nil).IsError)
		_, err = s.Request(testCtx(t), "tools/call", map[string]any{"name": "boom"}, nil)
		var rpc *core.RPCError
		require.ErrorAs(t, err, &rpc)
		assert.Contains(t, rpc.Message, "boom")

		r := callTool(t, s, "content_mix", nil)
		types := map[string]content{}
		for _, c := range r.Content {
			types[c.Type] = c
		}
		assert.Equal(t, "image/png", types["image"].MimeType)
		assert.NotEmpty(t, types["audio"].Data)
		require.NotNil(t, types["resource"].Resource)
		assert.Equal(t, "test://embedded", types["resource"].Resource.URI)
		assert.Equal(t, "test://static/text", types["resource_link"].URI)
		assert.Equal(t, "still here", callTool(t, s, "echo", map[string]any{"text": "still here"}).text())
	})

	t.Run("progress", func(t *testing.T) {
		var n notes
		var self atomic.Pointer[Session]
		nested := make(chan error, 1)
		s := connectPeer(t, h, p, url, &ConnectOptions{OnNotification: func(method string, params json.RawMessage) {
			n.add(method, params)
			if method == "notifications/progress" && len(n.get(method)) == 1 {
				// A callback may call back into the session, with progress
				// of its own.
				_, err := self.Load().Request(testCtx(t), "tools/call", map[string]any{"name": "echo", "arguments": map[string]any{"text": "nested"}},
					&RequestOptions{OnProgress: func(json.RawMessage) {}})
				nested <- err
			}
		}})
		self.Store(s)
		var mu sync.Mutex
		var seen []float64
		raw, err := s.Request(testCtx(t), "tools/call", map[string]any{"name": "progress", "arguments": map[string]any{"steps": 3, "delayMs": 20}}, &RequestOptions{
			OnProgress: func(params json.RawMessage) {
				var pp struct{ Progress float64 }
				_ = json.Unmarshal(params, &pp)
				mu.Lock()
				seen = append(seen, pp.Progress)
				mu.Unlock()
			},
			ResetTimeoutOnProgress: true,
			Timeout:                5 * time.Second,
		})
		require.NoError(t, err)
		assert.Equal(t, "done", decodeTool(t, raw).text())
		mu.Lock()
		assert.Equal(t, []float64{1, 2, 3}, seen, "every OnProgress call happens before Request returns")
		mu.Unlock()
		require.Eventually(t, func() bool { return len(n.get("notifications/progress")) == 3 }, 5*time.Second, 10*time.Millisecond, "progress also arrives as notifications")
		select {
		case err := <-nested:
			require.NoError(t, err)
		case <-time.After(10 * time.Second):
			t.Fatal("a request made from a notification callback did not complete")
		}
	})

	t.Run("logging", func(t *testing.T) {
		var n notes
		s := connectPeer(t, h, p, url, &ConnectOptions{LogLevel: "info", OnNotification: n.add})
		levels := func() map[string]int {
			out := map[string]int{}
			for _, raw := range n.get("notifications/message") {
				var m struct{ Level string }
				_ = json.Unmarshal(raw, &m)
				out[m.Level]++
			}
			return out
		}
		callTool(t, s, "log", map[string]any{"level": "warning", "message": "w"})
		require.Eventually(t, func() bool { return levels()["warning"] == 1 }, 5*time.Second, 10*time.Millisecond)
		assert.Zero(t, levels()["debug"], "debug is below the info level")
		_, err := s.Request(testCtx(t), "logging/setLevel", map[string]any{"level": "debug"}, nil)
		require.NoError(t, err, "logging/setLevel works in both eras")
		callTool(t, s, "log", map[string]any{"level": "warning"})
		require.Eventually(t, func() bool { l := levels(); return l["debug"] == 1 && l["warning"] == 2 }, 5*time.Second, 10*time.Millisecond)
	})

	t.Run("cancellation and timeout", func(t *testing.T) {
		s := connectPeer(t, h, p, url, nil)
		count := func() int {
			var n int
			require.NoError(t, json.Unmarshal([]byte(strings.TrimSpace(callTool(t, s, "cancelled_count", nil).text())), &n))
			return n
		}
		before := count()
		ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
		defer cancel()
		_, err := s.Request(ctx, "tools/call", map[string]any{"name": "slow", "arguments": map[string]any{"ms": 10000}}, nil)
		require.ErrorIs(t, err, context.DeadlineExceeded)
		require.Eventually(t, func() bool { return count() == before+1 }, 5*time.Second, 50*time.Millisecond, "the server saw the cancellation")

		// The guest's own timer: it only advances while the host pumps.
		start := time.Now()
		_, err = s.Request(testCtx(t), "tools/call", map[string]any{"name": "slow", "arguments": map[string]any{"ms": 10000}}, &RequestOptions{Timeout: 300 * time.Millisecond})
		require.ErrorIs(t, err, core.ErrTimeout)
		assert.Less(t, time.Since(start), 5*time.Second)
		require.Eventually(t, func() bool { return count() == before+2 }, 5*time.Second, 50*time.Millisecond)
		assert.Equal(t, "ok", callTool(t, s, "echo", map[string]any{"text": "ok"}).text())
	})

	t.Run("elicitation with defaults", func(t *testing.T) {
		var got atomic.Value
		s := connectPeer(t, h, p, url, &ConnectOptions{Handlers: Handlers{
			Elicitation: func(_ context.Context, params json.RawMessage) (json.RawMessage, error) {
				got.Store(string(params))
				return json.RawMessage(`{"action":"accept","content":{"age":7}}`), nil
			},
		}})
		r := callTool(t, s, "elicit", nil)
		require.NotNil(t, got.Load())
		assert.Contains(t, got.Load(), "Who are you?")
		var res struct {
			Action  string
			Content map[string]any
		}
		require.NoError(t, json.Unmarshal([]byte(r.text()), &res))
		assert.Equal(t, "accept", res.Action)
		assert.Equal(t, map[string]any{"age": float64(7), "name": "Ada", "color": "green"}, res.Content, "the guest fills in the schema defaults")
	})

	t.Run("url elicitation", func(t *testing.T) {
		var got atomic.Value
		s := connectPeer(t, h, p, url, &ConnectOptions{ElicitationModes: []string{"form", "url"}, Handlers: Handlers{
			Elicitation: func(_ context.Context, params json.RawMessage) (json.RawMessage, error) {
				got.Store(string(params))
				return json.RawMessage(`{"action":"accept"}`), nil
			},
		}})
		assert.Equal(t, "accept", strings.TrimSpace(callTool(t, s, "elicit_url", nil).text()))
		require.NotNil(t, got.Load())
		assert.Contains(t, got.Load(), `"https://example.com/consent"`)
	})

	t.Run("sampling", func(t *testing.T) {
		var got atomic.Value
		s := connectPeer(t, h, p, url, &ConnectOptions{SamplingTools: true, Handlers: Handlers{
			Sampling: func(_ context.Context, params json.RawMessage) (json.RawMessage, error) {
				got.Store(string(params))
				return json.RawMessage(`{"role":"assistant","model":"test-model","content":{"type":"text","text":"pong"}}`), nil
			},
		}})
		assert.Equal(t, "test-model: pong", callTool(t, s, "sample", map[string]any{"prompt": "ping"}).text())
		var params struct {
			SystemPrompt string `json:"systemPrompt"`
		}
		require.NoError(t, json.Unmarshal([]byte(got.Load().(string)), &params))
		assert.Equal(t, "be brief", params.SystemPrompt)
		callTool(t, s, "sample_tools", nil)
		assert.Contains(t, got.Load(), `"get_time"`)
	})

	t.Run("handler error", func(t *testing.T) {
		s := connectPeer(t, h, p, url, &ConnectOptions{Handlers: Handlers{
			Sampling: func(context.Context, json.RawMessage) (json.RawMessage, error) {
				return nil, errors.New("the user said no")
			},
		}})
		raw, err := s.Request(testCtx(t), "tools/call", map[string]any{"name": "sample", "arguments": map[string]any{"prompt": "x"}}, nil)
		if p.era == "modern" {
			require.ErrorIs(t, err, ErrInput, "a failed input request fails the call")
			assert.Contains(t, err.Error(), "the user said no")
		} else if err == nil {
			r := decodeTool(t, raw)
			assert.True(t, r.IsError || strings.Contains(r.text(), "no"), "got %s", raw)
		}
		assert.Equal(t, "alive", callTool(t, s, "echo", map[string]any{"text": "alive"}).text())
	})

	t.Run("roots", func(t *testing.T) {
		s := connectPeer(t, h, p, url, &ConnectOptions{Roots: []*core.Root{{URI: "file:///work", Name: "work"}, {URI: "file:///tmp"}}})
		var uris []string
		require.NoError(t, json.Unmarshal([]byte(callTool(t, s, "roots", nil).text()), &uris))
		assert.Equal(t, []string{"file:///work", "file:///tmp"}, uris)
		require.NoError(t, s.SetRoots(testCtx(t), []*core.Root{{URI: "file:///new"}}))
		require.NoError(t, json.Unmarshal([]byte(callTool(t, s, "roots", nil).text()), &uris))
		assert.Equal(t, []string{"file:///new"}, uris)
	})

	t.Run("multi round input", func(t *testing.T) {
		var elicits, samples, roots atomic.Int32
		s := connectPeer(t, h, p, url, &ConnectOptions{Handlers: Handlers{
			Elicitation: func(context.Context, json.RawMessage) (json.RawMessage, error) {
				elicits.Add(1)
				return json.RawMessage(`{"action":"accept","content":{"name":"Grace","age":40}}`), nil
			},
			Sampling: func(context.Context, json.RawMessage) (json.RawMessage, error) {
				samples.Add(1)
				return json.RawMessage(`{"role":"assistant","model":"m","content":{"type":"text","text":"sampled"}}`), nil
			},
			Roots: func(context.Context, json.RawMessage) (json.RawMessage, error) {
				roots.Add(1)
				return json.RawMessage(`{"roots":[{"uri":"file:///a"}]}`), nil
			},
		}})
		var out map[string]any
		require.NoError(t, json.Unmarshal([]byte(callTool(t, s, "multi_input", nil).text()), &out))
		assert.Equal(t, "Grace", out["name"])
		assert.Equal(t, []any{"file:///a"}, out["roots"])
		assert.Contains(t, out["sample"], "sampled")
		assert.Equal(t, int32(1), elicits.Load())
		assert.Equal(t, int32(1), samples.Load())
		assert.Equal(t, int32(1), roots.Load())
	})

	t.Run("header mirroring", func(t *testing.T) {
		s := connectPeer(t, h, p, url, nil)
		listAll(t, s, "tools/list", "tools")
		r := callTool(t, s, "header_echo", map[string]any{"region": "Zürich", "priority": 3})
		if p.legacy {
			assert.NotContains(t, r.text(), "Z", "legacy requests carry no Mcp-Param headers")
			return
		}
		assert.Equal(t, wire.EncodeHeaderValue("Zürich")+"|3", r.text())
	})

	t.Run("whoami", func(t *testing.T) {
		s := connectPeer(t, h, p, url, &ConnectOptions{
			ClientInfo: &core.Implementation{Name: "wasihost-it", Version: "1.2.3"},
			Handlers: Handlers{Elicitation: func(context.Context, json.RawMessage) (json.RawMessage, error) {
				return json.RawMessage(`{"action":"cancel"}`), nil
			}},
		})
		var who struct {
			ProtocolVersion    string                     `json:"protocolVersion"`
			ClientInfo         core.Implementation        `json:"clientInfo"`
			ClientCapabilities map[string]json.RawMessage `json:"clientCapabilities"`
		}
		require.NoError(t, json.Unmarshal([]byte(callTool(t, s, "whoami", nil).text()), &who))
		assert.Equal(t, p.version, who.ProtocolVersion)
		assert.Equal(t, core.Implementation{Name: "wasihost-it", Version: "1.2.3"}, who.ClientInfo)
		assert.Contains(t, who.ClientCapabilities, "elicitation")
		assert.NotContains(t, who.ClientCapabilities, "sampling")
	})

	t.Run("list changed", func(t *testing.T) {
		var n notes
		s := connectPeer(t, h, p, url, &ConnectOptions{ListChanged: []string{"tools"}, OnNotification: n.add})
		before, _ := listAll(t, s, "tools/list", "tools")
		callTool(t, s, "change_tools", nil)
		require.Eventually(t, func() bool { return len(n.get("notifications/tools/list_changed")) > 0 }, 10*time.Second, 20*time.Millisecond)
		after, _ := listAll(t, s, "tools/list", "tools")
		assert.Greater(t, len(after), len(before), "the guest's cache was invalidated")
	})

	t.Run("resource subscription", func(t *testing.T) {
		var n notes
		s := connectPeer(t, h, p, url, &ConnectOptions{OnNotification: n.add})
		_, err := s.Request(testCtx(t), "resources/subscribe", map[string]any{"uri": "test://static/text"}, nil)
		require.NoError(t, err, "resources/subscribe works in both eras")
		callTool(t, s, "touch", map[string]any{"uri": "test://static/text"})
		require.Eventually(t, func() bool { return len(n.get("notifications/resources/updated")) > 0 }, 10*time.Second, 20*time.Millisecond)
		assert.Contains(t, string(n.get("notifications/resources/updated")[0]), "test://static/text")
		_, err = s.Request(testCtx(t), "resources/unsubscribe", map[string]any{"uri": "test://static/text"}, nil)
		require.NoError(t, err)
	})

	t.Run("resources and prompts", func(t *testing.T) {
		s := connectPeer(t, h, p, url, nil)
		raw, err := s.Request(testCtx(t), "resources/read", map[string]any{"uri": "test://static/blob"}, nil)
		require.NoError(t, err)
		assert.Contains(t, string(raw), "AAECAwQFBgcICQoLDA0ODw==")
		raw, err = s.Request(testCtx(t), "prompts/get", map[string]any{"name": "greet", "arguments": map[string]any{"name": "Ada"}}, nil)
		require.NoError(t, err)
		assert.Contains(t, string(raw), "Hello, Ada!")
		raw, err = s.Request(testCtx(t), "completion/complete", map[string]any{
			"ref":      map[string]any{"type": "ref/prompt", "name": "greet"},
			"argument": map[string]any{"name": "style", "value": "f"},
		}, nil)
		require.NoError(t, err)
		assert.Contains(t, string(raw), `"formal"`)
		_, err = s.Request(testCtx(t), "resources/read", map[string]any{"uri": "test://nowhere"}, nil)
		var rpc *core.RPCError
		require.ErrorAs(t, err, &rpc, "an unknown resource is a JSON-RPC error")
	})

	t.Run("concurrent calls", func(t *testing.T) {
		s := connectPeer(t, h, p, url, nil)
		var wg sync.WaitGroup
		errs := make(chan error, 32)
		for i := range 32 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				want := strings.Repeat("x", i)
				raw, err := s.Request(testCtx(t), "tools/call", map[string]any{"name": "echo", "arguments": map[string]any{"text": want}}, nil)
				if err == nil {
					var r toolResult
					if err = json.Unmarshal(raw, &r); err == nil && r.text() != want {
						err = fmt.Errorf("call %d: got %q", i, r.text())
					}
				}
				errs <- err
			}()
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			require.NoError(t, err)
		}
	})
}
