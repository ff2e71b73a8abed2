package integration_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"

	"github.com/mcpwasm/mcpwasm/core"
	"github.com/mcpwasm/mcpwasm/harness/demoserver"
	"github.com/mcpwasm/mcpwasm/tests/testkit"
	"github.com/mcpwasm/mcpwasm/transport/fetch"
)

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m,
		// net/http keeps idle keep-alive connections in the default transport.
		goleak.IgnoreTopFunction("net/http.(*persistConn).readLoop"),
		goleak.IgnoreTopFunction("net/http.(*persistConn).writeLoop"),
		goleak.IgnoreTopFunction("internal/poll.runtime_pollWait"),
	)
}

// peer is a real MCP server the shared feature table runs against.
type peer struct {
	name string
	// start returns the endpoint URL; cleanup is registered on t.
	start func(t *testing.T) string
	// versions the client offers (nil = every supported version).
	versions []string
	mode     string // fetch transport mode
	era      core.Era
	version  string
	// features the peer lacks
	noHeaderEcho bool
	noPaging     bool
}

func goSDKPeer(opts demoserver.Options, path string) func(t *testing.T) string {
	return func(t *testing.T) string {
		t.Helper()
		if opts.PageSize == 0 {
			opts.PageSize = 10
		}
		srv := demoserver.New(&opts)
		hs := httptest.NewServer(srv.Handler())
		t.Cleanup(func() {
			hs.CloseClientConnections()
			hs.Close()
			srv.Close()
		})
		return hs.URL + path
	}
}

// goSDKPeers are the official Go SDK server (v1.8.0) in its eras.
func goSDKPeers() []peer {
	return []peer{
		{name: "gosdk-legacy", start: goSDKPeer(demoserver.Options{}, demoserver.MCPPath), era: core.EraLegacy, version: core.Version20251125, noHeaderEcho: true},
		{name: "gosdk-modern", start: goSDKPeer(demoserver.Options{Modern: true}, demoserver.MCPPath), era: core.EraModern, version: core.Version20260728},
		{name: "gosdk-dual-legacy-client", start: goSDKPeer(demoserver.Options{Modern: true}, demoserver.MCPPath), versions: []string{core.Version20251125, core.Version20250618}, era: core.EraLegacy, version: core.Version20251125, noHeaderEcho: true},
		{name: "gosdk-http+sse", start: goSDKPeer(demoserver.Options{}, demoserver.SSEPath), era: core.EraLegacy, version: core.Version20251125, noHeaderEcho: true},
	}
}

func TestGoSDKServer(t *testing.T) {
	for _, p := range goSDKPeers() {
		t.Run(p.name, func(t *testing.T) { runFeatureTable(t, p) })
	}
}

// connect opens a session to the peer with the given options.
func connect(t *testing.T, p peer, url string, opts *core.ClientOptions) *core.Session {
	t.Helper()
	if opts == nil {
		opts = &core.ClientOptions{}
	}
	if opts.OnWarning == nil {
		opts.OnWarning = func(_ *core.Session, err error) { t.Logf("warning: %v", err) }
	}
	client := core.NewClient(&core.Implementation{Name: "mcpwasm-it", Version: "1.2.3"}, opts)
	tr, err := fetch.New(url, &fetch.Options{Mode: p.mode})
	require.NoError(t, err)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	s, err := client.Connect(ctx, tr, &core.ConnectOptions{ProtocolVersions: p.versions})
	require.NoError(t, err)
	t.Cleanup(func() { s.Close() })
	return s
}

func testCtx(t *testing.T) context.Context { return testkit.Ctx(t) }

func text(t *testing.T, r *core.CallToolResult) string { return testkit.Text(t, r) }

func call(t *testing.T, s *core.Session, name string, args any) *core.CallToolResult {
	return testkit.Call(t, s, name, args)
}

// runFeatureTable exercises the shared test-peer feature set.
func runFeatureTable(t *testing.T, p peer) {
	url := p.start(t)

	t.Run("handshake", func(t *testing.T) {
		s := connect(t, p, url, nil)
		assert.Equal(t, p.era, s.Era())
		assert.Equal(t, p.version, s.ProtocolVersion())
		require.NotNil(t, s.ServerInfo())
		assert.NotEmpty(t, s.ServerInfo().Name)
		assert.Equal(t, "mcpwasm test peer", s.Instructions())
		caps := s.ServerCapabilities()
		assert.NotNil(t, caps.Tools)
		assert.NotNil(t, caps.Resources)
		assert.NotNil(t, caps.Prompts)
		require.NoError(t, s.Ping(testCtx(t)))
	})

	t.Run("tools pagination", func(t *testing.T) {
		s := connect(t, p, url, nil)
		page, err := s.ListTools(testCtx(t), nil)
		require.NoError(t, err)
		if !p.noPaging {
			assert.NotEmpty(t, page.NextCursor, "page size 10 should paginate")
		}
		all, err := s.AllTools(testCtx(t))
		require.NoError(t, err)
		names := map[string]bool{}
		for _, tool := range all {
			assert.False(t, names[tool.Name], "duplicate tool %s", tool.Name)
			names[tool.Name] = true
		}
		for _, want := range []string{"echo", "add", "elicit", "sample", "roots", "page_tool_00", "page_tool_24"} {
			assert.True(t, names[want], "missing tool %s", want)
		}
		n := 0
		for tool, err := range s.Tools(testCtx(t)) {
			require.NoError(t, err)
			require.NotNil(t, tool)
			n++
			if n == 3 {
				break // stopping early must be fine
			}
		}
		assert.Equal(t, 3, n)
	})

	t.Run("echo add and structured output", func(t *testing.T) {
		s := connect(t, p, url, nil)
		_, err := s.AllTools(testCtx(t)) // learn output schemas
		require.NoError(t, err)
		assert.Equal(t, "héllo ☃", text(t, call(t, s, "echo", map[string]any{"text": "héllo ☃"})))
		r := call(t, s, "add", map[string]any{"a": 40, "b": 2})
		var sum struct{ Sum int }
		require.NoError(t, r.DecodeStructured(&sum))
		assert.Equal(t, 42, sum.Sum)
		assert.NoError(t, r.Err("add"))

		r, err = s.CallTool(testCtx(t), &core.CallToolParams{Name: "bad_output"}, nil)
		var ose *core.OutputSchemaError
		require.ErrorAs(t, err, &ose)
		assert.ErrorIs(t, err, core.ErrOutputSchema)
		require.NotNil(t, r, "the result is returned with the validation error")
		assert.Equal(t, "bad_output", ose.Tool)
	})

	t.Run("tool errors", func(t *testing.T) {
		s := connect(t, p, url, nil)
		r := call(t, s, "fail", nil)
		assert.True(t, r.IsError)
		var te *core.ToolError
		require.ErrorAs(t, r.Err("fail"), &te)
		assert.Contains(t, te.Error(), "it failed")

		_, err := s.CallTool(testCtx(t), &core.CallToolParams{Name: "boom"}, nil)
		var rpc *core.RPCError
		require.ErrorAs(t, err, &rpc)
		assert.Contains(t, rpc.Message, "boom")

		// The session survives errors.
		assert.Equal(t, "still here", text(t, call(t, s, "echo", map[string]any{"text": "still here"})))
	})

	t.Run("content types", func(t *testing.T) {
		s := connect(t, p, url, nil)
		r := call(t, s, "content_mix", nil)
		types := map[string]*core.Content{}
		for _, c := range r.Content {
			types[c.Type] = c
		}
		require.Contains(t, types, "text")
		require.Contains(t, types, "image")
		assert.Equal(t, "image/png", types["image"].MimeType)
		assert.NotEmpty(t, types["image"].Data)
		require.Contains(t, types, "audio")
		require.Contains(t, types, "resource")
		require.NotNil(t, types["resource"].Resource)
		assert.Equal(t, "test://embedded", types["resource"].Resource.URI)
		require.Contains(t, types, "resource_link")
		assert.Equal(t, "test://static/text", types["resource_link"].URI)
	})

	t.Run("progress", func(t *testing.T) {
		var global atomic.Int32
		s := connect(t, p, url, &core.ClientOptions{
			ProgressHandler: func(context.Context, *core.Session, *core.ProgressParams) { global.Add(1) },
		})
		var mu sync.Mutex
		var seen []float64
		r, err := s.CallTool(testCtx(t), &core.CallToolParams{Name: "progress", Arguments: map[string]any{"steps": 3, "delayMs": 20}}, &core.CallOptions{
			OnProgress: func(pp *core.ProgressParams) {
				mu.Lock()
				seen = append(seen, pp.Progress)
				mu.Unlock()
			},
			ResetTimeoutOnProgress: true,
			Timeout:                5 * time.Second,
		})
		require.NoError(t, err)
		assert.Equal(t, "done", text(t, r))
		require.Eventually(t, func() bool { mu.Lock(); defer mu.Unlock(); return len(seen) == 3 }, 5*time.Second, 10*time.Millisecond)
		mu.Lock()
		assert.Equal(t, []float64{1, 2, 3}, seen)
		mu.Unlock()
		assert.Equal(t, int32(3), global.Load())
	})

	t.Run("logging", func(t *testing.T) {
		var mu sync.Mutex
		levels := map[string]int{}
		s := connect(t, p, url, &core.ClientOptions{
			LogLevel: core.LevelInfo,
			LoggingHandler: func(_ context.Context, _ *core.Session, m *core.LoggingMessageParams) {
				mu.Lock()
				levels[m.Level]++
				mu.Unlock()
			},
		})
		call(t, s, "log", map[string]any{"level": "warning", "message": "w"})
		require.Eventually(t, func() bool { mu.Lock(); defer mu.Unlock(); return levels["warning"] == 1 }, 5*time.Second, 10*time.Millisecond)
		mu.Lock()
		assert.Zero(t, levels["debug"], "debug is below the info level")
		mu.Unlock()
		require.NoError(t, s.SetLogLevel(testCtx(t), core.LevelDebug))
		call(t, s, "log", map[string]any{"level": "warning"})
		require.Eventually(t, func() bool { mu.Lock(); defer mu.Unlock(); return levels["debug"] == 1 && levels["warning"] == 2 }, 5*time.Second, 10*time.Millisecond)
	})

	t.Run("cancellation and timeout", func(t *testing.T) {
		s := connect(t, p, url, nil)
		count := func() int {
			var n int
			require.NoError(t, json.Unmarshal([]byte(strings.TrimSpace(text(t, call(t, s, "cancelled_count", nil)))), &n))
			return n
		}
		before := count()
		ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
		defer cancel()
		_, err := s.CallTool(ctx, &core.CallToolParams{Name: "slow", Arguments: map[string]any{"ms": 10000}}, nil)
		require.ErrorIs(t, err, context.DeadlineExceeded)
		require.Eventually(t, func() bool { return count() == before+1 }, 5*time.Second, 50*time.Millisecond, "the server saw the cancellation")

		_, err = s.CallTool(testCtx(t), &core.CallToolParams{Name: "slow", Arguments: map[string]any{"ms": 10000}}, &core.CallOptions{Timeout: 300 * time.Millisecond})
		var te *core.TimeoutError
		require.ErrorAs(t, err, &te)
		assert.ErrorIs(t, err, core.ErrTimeout)
		require.Eventually(t, func() bool { return count() == before+2 }, 5*time.Second, 50*time.Millisecond)
		assert.Equal(t, "ok", text(t, call(t, s, "echo", map[string]any{"text": "ok"})))
	})

	t.Run("elicitation with defaults", func(t *testing.T) {
		var got *core.ElicitParams
		s := connect(t, p, url, &core.ClientOptions{
			ElicitationHandler: func(_ context.Context, req *core.ElicitRequest) (*core.ElicitResult, error) {
				got = req.Params
				return &core.ElicitResult{Action: core.ActionAccept, Content: map[string]any{"age": 7}}, nil
			},
		})
		r := call(t, s, "elicit", nil)
		require.NotNil(t, got)
		assert.Equal(t, "Who are you?", got.Message)
		var res core.ElicitResult
		require.NoError(t, json.Unmarshal([]byte(text(t, r)), &res))
		assert.Equal(t, core.ActionAccept, res.Action)
		assert.Equal(t, map[string]any{"age": float64(7), "name": "Ada", "color": "green"}, res.Content)
	})

	t.Run("elicitation declined", func(t *testing.T) {
		s := connect(t, p, url, &core.ClientOptions{
			ElicitationHandler: func(context.Context, *core.ElicitRequest) (*core.ElicitResult, error) {
				return &core.ElicitResult{Action: core.ActionDecline}, nil
			},
		})
		assert.Contains(t, text(t, call(t, s, "elicit", nil)), `"decline"`)
	})

	t.Run("url elicitation", func(t *testing.T) {
		var got *core.ElicitParams
		s := connect(t, p, url, &core.ClientOptions{
			ElicitationModes: []string{core.ElicitModeForm, core.ElicitModeURL},
			ElicitationHandler: func(_ context.Context, req *core.ElicitRequest) (*core.ElicitResult, error) {
				got = req.Params
				return &core.ElicitResult{Action: core.ActionAccept}, nil
			},
		})
		assert.Equal(t, "accept", strings.TrimSpace(text(t, call(t, s, "elicit_url", nil))))
		require.NotNil(t, got)
		assert.Equal(t, core.ElicitModeURL, got.Mode)
		assert.Equal(t, "https://example.com/consent", got.URL)
	})

	t.Run("sampling", func(t *testing.T) {
		var got *core.CreateMessageParams
		s := connect(t, p, url, &core.ClientOptions{
			SamplingTools: true,
			SamplingHandler: func(_ context.Context, req *core.CreateMessageRequest) (*core.CreateMessageResult, error) {
				got = req.Params
				return &core.CreateMessageResult{Role: "assistant", Model: "test-model", Content: core.ContentList{core.TextContent("pong")}}, nil
			},
		})
		assert.Equal(t, "test-model: pong", text(t, call(t, s, "sample", map[string]any{"prompt": "ping"})))
		require.NotNil(t, got)
		assert.Equal(t, "be brief", got.SystemPrompt)
		require.Len(t, got.Messages, 1)
		assert.Equal(t, "ping", got.Messages[0].Content[0].Text)

		call(t, s, "sample_tools", nil)
		require.Len(t, got.Tools, 1)
		assert.Equal(t, "get_time", got.Tools[0].Name)
		require.NotNil(t, got.ToolChoice)
		assert.Equal(t, "auto", got.ToolChoice.Mode)
	})

	t.Run("sampling handler error", func(t *testing.T) {
		s := connect(t, p, url, &core.ClientOptions{
			SamplingHandler: func(context.Context, *core.CreateMessageRequest) (*core.CreateMessageResult, error) {
				return nil, errors.New("the user said no")
			},
		})
		r, err := s.CallTool(testCtx(t), &core.CallToolParams{Name: "sample", Arguments: map[string]any{"prompt": "x"}}, nil)
		if p.era == core.EraModern {
			var ie *core.InputError
			require.ErrorAs(t, err, &ie, "a failed input request fails the call")
			assert.Contains(t, ie.Error(), "the user said no")
		} else if err == nil {
			// Legacy: the server got a JSON-RPC error and reported it.
			assert.True(t, r.IsError || strings.Contains(text(t, r), "no"), "got %v", text(t, r))
		}
		assert.Equal(t, "alive", text(t, call(t, s, "echo", map[string]any{"text": "alive"})))
	})

	t.Run("roots", func(t *testing.T) {
		roots := []*core.Root{{URI: "file:///work", Name: "work"}, {URI: "file:///tmp"}}
		client := core.NewClient(&core.Implementation{Name: "roots", Version: "1"}, &core.ClientOptions{Roots: roots})
		tr, err := fetch.New(url, &fetch.Options{Mode: p.mode})
		require.NoError(t, err)
		s, err := client.Connect(testCtx(t), tr, &core.ConnectOptions{ProtocolVersions: p.versions})
		require.NoError(t, err)
		defer s.Close()
		var uris []string
		r, err := s.CallTool(testCtx(t), &core.CallToolParams{Name: "roots"}, nil)
		require.NoError(t, err)
		require.NoError(t, json.Unmarshal([]byte(text(t, r)), &uris))
		assert.Equal(t, []string{"file:///work", "file:///tmp"}, uris)

		client.SetRoots(testCtx(t), []*core.Root{{URI: "file:///new"}})
		r, err = s.CallTool(testCtx(t), &core.CallToolParams{Name: "roots"}, nil)
		require.NoError(t, err)
		require.NoError(t, json.Unmarshal([]byte(text(t, r)), &uris))
		assert.Equal(t, []string{"file:///new"}, uris)
	})

	t.Run("multi round input", func(t *testing.T) {
		var elicits, samples atomic.Int32
		s := connect(t, p, url, &core.ClientOptions{
			Roots: []*core.Root{{URI: "file:///a"}},
			ElicitationHandler: func(context.Context, *core.ElicitRequest) (*core.ElicitResult, error) {
				elicits.Add(1)
				return &core.ElicitResult{Action: core.ActionAccept, Content: map[string]any{"name": "Grace", "age": 40}}, nil
			},
			SamplingHandler: func(context.Context, *core.CreateMessageRequest) (*core.CreateMessageResult, error) {
				samples.Add(1)
				return &core.CreateMessageResult{Role: "assistant", Model: "m", Content: core.ContentList{core.TextContent("sampled")}}, nil
			},
		})
		var out map[string]any
		require.NoError(t, json.Unmarshal([]byte(text(t, call(t, s, "multi_input", nil))), &out))
		assert.Equal(t, "Grace", out["name"])
		assert.Equal(t, []any{"file:///a"}, out["roots"])
		assert.Contains(t, out["sample"], "sampled")
		assert.Equal(t, int32(1), elicits.Load())
		assert.Equal(t, int32(1), samples.Load())
	})

	t.Run("header mirroring", func(t *testing.T) {
		s := connect(t, p, url, nil)
		_, err := s.AllTools(testCtx(t))
		require.NoError(t, err)
		if p.noHeaderEcho {
			// Legacy sessions mirror nothing (and stay CORS-simple).
			r := call(t, s, "header_echo", map[string]any{"region": "eu-west1", "priority": 7})
			assert.Equal(t, "|", text(t, r))
			return
		}
		r := call(t, s, "header_echo", map[string]any{"region": "Zürich", "priority": 3})
		assert.Equal(t, "=?base64?WsO8cmljaA==?=|3", text(t, r))
		r = call(t, s, "header_echo", map[string]any{"region": "eu-west1", "priority": 7})
		assert.Equal(t, "eu-west1|7", text(t, r))
	})

	t.Run("whoami", func(t *testing.T) {
		s := connect(t, p, url, &core.ClientOptions{
			ElicitationHandler: func(context.Context, *core.ElicitRequest) (*core.ElicitResult, error) {
				return &core.ElicitResult{Action: core.ActionCancel}, nil
			},
		})
		var who struct {
			ProtocolVersion    string                  `json:"protocolVersion"`
			ClientInfo         core.Implementation     `json:"clientInfo"`
			ClientCapabilities core.ClientCapabilities `json:"clientCapabilities"`
		}
		require.NoError(t, json.Unmarshal([]byte(text(t, call(t, s, "whoami", nil))), &who))
		assert.Equal(t, p.version, who.ProtocolVersion)
		assert.Equal(t, "mcpwasm-it", who.ClientInfo.Name)
		assert.Equal(t, "1.2.3", who.ClientInfo.Version)
		require.NotNil(t, who.ClientCapabilities.Elicitation)
		assert.Nil(t, who.ClientCapabilities.Sampling)
	})

	t.Run("list changed", func(t *testing.T) {
		changed := make(chan struct{}, 4)
		s := connect(t, p, url, &core.ClientOptions{
			ToolListChangedHandler: func(context.Context, *core.Session) {
				select {
				case changed <- struct{}{}:
				default:
				}
			},
		})
		before, err := s.AllTools(testCtx(t))
		require.NoError(t, err)
		call(t, s, "change_tools", nil)
		select {
		case <-changed:
		case <-time.After(10 * time.Second):
			t.Fatal("no tools/list_changed notification")
		}
		after, err := s.AllTools(testCtx(t))
		require.NoError(t, err)
		assert.Greater(t, len(after), len(before))
	})

	t.Run("resource subscription", func(t *testing.T) {
		updated := make(chan string, 4)
		s := connect(t, p, url, &core.ClientOptions{
			ResourceUpdatedHandler: func(_ context.Context, _ *core.Session, u *core.ResourceUpdatedParams) {
				updated <- u.URI
			},
		})
		require.NoError(t, s.Subscribe(testCtx(t), "test://static/text"))
		call(t, s, "touch", map[string]any{"uri": "test://static/text"})
		select {
		case uri := <-updated:
			assert.Equal(t, "test://static/text", uri)
		case <-time.After(10 * time.Second):
			t.Fatal("no resources/updated notification")
		}
		require.NoError(t, s.Unsubscribe(testCtx(t), "test://static/text"))
	})

	t.Run("resources", func(t *testing.T) {
		s := connect(t, p, url, nil)
		all, err := s.AllResources(testCtx(t))
		require.NoError(t, err)
		uris := make([]string, 0, len(all))
		for _, r := range all {
			uris = append(uris, r.URI)
		}
		assert.Contains(t, uris, "test://static/text")
		assert.Contains(t, uris, "test://static/blob")
		r, err := s.ReadResource(testCtx(t), &core.ReadResourceParams{URI: "test://static/text"}, nil)
		require.NoError(t, err)
		require.Len(t, r.Contents, 1)
		assert.Equal(t, "hello resource", r.Contents[0].Text)
		r, err = s.ReadResource(testCtx(t), &core.ReadResourceParams{URI: "test://static/blob"}, nil)
		require.NoError(t, err)
		require.Len(t, r.Contents, 1)
		assert.Equal(t, "AAECAwQFBgcICQoLDA0ODw==", r.Contents[0].Blob)
		templates, err := s.AllResourceTemplates(testCtx(t))
		require.NoError(t, err)
		require.True(t, slices.ContainsFunc(templates, func(rt *core.ResourceTemplate) bool { return rt.URITemplate == "test://items/{id}" }))
		r, err = s.ReadResource(testCtx(t), &core.ReadResourceParams{URI: "test://items/42"}, nil)
		require.NoError(t, err)
		assert.Equal(t, "item 42", r.Contents[0].Text)
		c, err := s.Complete(testCtx(t), &core.CompleteParams{
			Ref:      core.CompleteReference{Type: "ref/resource", URI: "test://items/{id}"},
			Argument: core.CompleteArgument{Name: "id", Value: "1"},
		})
		require.NoError(t, err)
		assert.ElementsMatch(t, []string{"1", "10"}, c.Completion.Values)
	})

	t.Run("prompts", func(t *testing.T) {
		s := connect(t, p, url, nil)
		all, err := s.AllPrompts(testCtx(t))
		require.NoError(t, err)
		require.True(t, slices.ContainsFunc(all, func(p *core.Prompt) bool { return p.Name == "greet" }))
		g, err := s.GetPrompt(testCtx(t), &core.GetPromptParams{Name: "greet", Arguments: map[string]string{"name": "Ada"}}, nil)
		require.NoError(t, err)
		require.NotEmpty(t, g.Messages)
		assert.Contains(t, g.Messages[0].Content.Text, "Hello, Ada!")
		img, err := s.GetPrompt(testCtx(t), &core.GetPromptParams{Name: "with_image"}, nil)
		require.NoError(t, err)
		assert.Equal(t, "image", img.Messages[0].Content.Type)
		c, err := s.Complete(testCtx(t), &core.CompleteParams{
			Ref:      core.CompleteReference{Type: "ref/prompt", Name: "greet"},
			Argument: core.CompleteArgument{Name: "style", Value: "f"},
		})
		require.NoError(t, err)
		assert.Equal(t, []string{"formal"}, c.Completion.Values)
	})

	t.Run("concurrent calls", func(t *testing.T) {
		s := connect(t, p, url, nil)
		var wg sync.WaitGroup
		errs := make(chan error, 32)
		for i := range 32 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				want := strings.Repeat("x", i)
				r, err := s.CallTool(testCtx(t), &core.CallToolParams{Name: "echo", Arguments: map[string]any{"text": want}}, nil)
				if err == nil && (len(r.Content) != 1 || r.Content[0].Text != want) {
					err = errors.New("wrong answer")
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

// TestEraCachePerOrigin checks that the era verdict is remembered: the
// second session to a legacy origin skips the modern probe.
func TestEraCachePerOrigin(t *testing.T) {
	srv := demoserver.New(nil)
	defer srv.Close()
	var mu sync.Mutex
	var methods []string
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost {
			mu.Lock()
			methods = append(methods, r.Header.Get("Mcp-Method")+"|"+r.Header.Get("Mcp-Session-Id"))
			mu.Unlock()
		}
		srv.Handler().ServeHTTP(w, r)
	}))
	defer hs.Close()
	defer hs.CloseClientConnections()
	client := core.NewClient(&core.Implementation{Name: "cache", Version: "1"}, nil)
	for i := range 2 {
		tr, err := fetch.New(hs.URL+demoserver.MCPPath, nil)
		require.NoError(t, err)
		s, err := client.Connect(testCtx(t), tr, nil)
		require.NoError(t, err)
		assert.Equal(t, core.EraLegacy, s.Era())
		require.NoError(t, s.Close())
		mu.Lock()
		probes := 0
		for _, m := range methods {
			if strings.HasPrefix(m, core.MethodDiscover) {
				probes++
			}
		}
		mu.Unlock()
		assert.Equal(t, 1, probes, "session %d: the modern probe is sent once per origin", i)
	}
}
