package integration_test

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpwasm/mcpwasm/core"
	"github.com/mcpwasm/mcpwasm/harness/testpeers"
	"github.com/mcpwasm/mcpwasm/transport/fetch"
)

// TestServerEverything drives @modelcontextprotocol/server-everything, the
// reference legacy-era server, over Streamable HTTP and the 2024-11-05
// HTTP+SSE transport: server→client sampling, elicitation and roots
// answered by the client's handlers, progress, logging, subscriptions,
// completions, list-changed, structured output and content types.
func TestServerEverything(t *testing.T) {
	for _, transport := range []string{"streamableHttp", "sse"} {
		t.Run(transport, func(t *testing.T) {
			t.Parallel()
			srv := testpeers.StartEverything(t, transport)
			runEverything(t, srv.URL, transport)
		})
	}
}

// everything holds what the handlers saw.
type everything struct {
	mu        sync.Mutex
	samples   []*core.CreateMessageParams
	elicits   []*core.ElicitParams
	rootsAsks atomic.Int32
	logs      []*core.LoggingMessageParams
	updated   []string
	resources atomic.Int32
}

func runEverything(t *testing.T, url, transport string) {
	ev := &everything{}
	var client *core.Client
	client = core.NewClient(&core.Implementation{Name: "mcpwasm-it", Version: "1.0.0"}, &core.ClientOptions{
		Roots: []*core.Root{{URI: "file:///project", Name: "project"}},
		RootsHandler: func(context.Context, *core.ListRootsRequest) (*core.ListRootsResult, error) {
			ev.rootsAsks.Add(1)
			return &core.ListRootsResult{Roots: client.Roots()}, nil
		},
		SamplingHandler: func(_ context.Context, req *core.CreateMessageRequest) (*core.CreateMessageResult, error) {
			ev.mu.Lock()
			ev.samples = append(ev.samples, req.Params)
			ev.mu.Unlock()
			return &core.CreateMessageResult{Role: "assistant", Model: "mcpwasm-model", Content: core.ContentList{core.TextContent("sampled reply")}, StopReason: "endTurn"}, nil
		},
		ElicitationModes: []string{core.ElicitModeForm, core.ElicitModeURL},
		ElicitationHandler: func(_ context.Context, req *core.ElicitRequest) (*core.ElicitResult, error) {
			ev.mu.Lock()
			ev.elicits = append(ev.elicits, req.Params)
			ev.mu.Unlock()
			if req.Params.Mode == core.ElicitModeURL {
				return &core.ElicitResult{Action: core.ActionAccept}, nil
			}
			return &core.ElicitResult{Action: core.ActionAccept, Content: map[string]any{"name": "Ada"}}, nil
		},
		LoggingHandler: func(_ context.Context, _ *core.Session, m *core.LoggingMessageParams) {
			ev.mu.Lock()
			ev.logs = append(ev.logs, m)
			ev.mu.Unlock()
		},
		ResourceUpdatedHandler: func(_ context.Context, _ *core.Session, p *core.ResourceUpdatedParams) {
			ev.mu.Lock()
			ev.updated = append(ev.updated, p.URI)
			ev.mu.Unlock()
		},
		ResourceListChangedHandler: func(context.Context, *core.Session) { ev.resources.Add(1) },
		OnWarning:                  func(_ *core.Session, err error) { t.Logf("warning: %v", err) },
	})
	tr, err := fetch.New(url, nil)
	require.NoError(t, err)
	s, err := client.Connect(testCtx(t), tr, nil)
	require.NoError(t, err)
	defer s.Close()

	t.Run("handshake", func(t *testing.T) {
		assert.Equal(t, core.EraLegacy, s.Era())
		assert.Equal(t, core.Version20251125, s.ProtocolVersion())
		require.NotNil(t, s.ServerInfo())
		assert.Contains(t, s.ServerInfo().Name, "everything")
		assert.NotNil(t, s.ServerCapabilities().Resources)
		if transport == "streamableHttp" {
			assert.NotEmpty(t, s.ID(), "a Streamable HTTP session id")
		}
		require.NoError(t, s.Ping(testCtx(t)))
	})

	tools, err := s.AllTools(testCtx(t))
	require.NoError(t, err)
	has := func(name string) bool {
		return slices.ContainsFunc(tools, func(tl *core.Tool) bool { return tl.Name == name })
	}
	require.Eventually(t, func() bool {
		tools, err = s.AllTools(testCtx(t))
		return err == nil && has("trigger-sampling-request") && has("trigger-elicitation-request")
	}, 10*time.Second, 100*time.Millisecond, "the capability-dependent tools appear after initialization")

	t.Run("echo and content", func(t *testing.T) {
		assert.Contains(t, text(t, call(t, s, "echo", map[string]any{"message": "hello"})), "hello")
		img := call(t, s, "get-tiny-image", nil)
		assert.True(t, slices.ContainsFunc(img.Content, func(c *core.Content) bool { return c.Type == "image" && c.MimeType == "image/png" && c.Data != "" }))
		links := call(t, s, "get-resource-links", map[string]any{"count": 2})
		assert.True(t, slices.ContainsFunc(links.Content, func(c *core.Content) bool { return c.Type == "resource_link" && c.URI != "" }))
		ref := call(t, s, "get-resource-reference", map[string]any{"resourceType": "Text", "resourceId": 1})
		assert.True(t, slices.ContainsFunc(ref.Content, func(c *core.Content) bool { return c.Type == "resource" && c.Resource != nil }))
	})

	t.Run("structured output is validated", func(t *testing.T) {
		r, err := s.CallTool(testCtx(t), &core.CallToolParams{Name: "get-structured-content", Arguments: map[string]any{"location": "New York"}}, nil)
		require.NoError(t, err, "the server's structured content matches its outputSchema")
		assert.NotEmpty(t, r.StructuredContent)
	})

	t.Run("sampling", func(t *testing.T) {
		r := call(t, s, "trigger-sampling-request", map[string]any{"prompt": "Say hi", "maxTokens": 20})
		assert.Contains(t, text(t, r), "sampled reply")
		ev.mu.Lock()
		defer ev.mu.Unlock()
		require.NotEmpty(t, ev.samples)
		last := ev.samples[len(ev.samples)-1]
		assert.Contains(t, last.Messages[0].Content[0].Text, "Say hi")
	})

	t.Run("form elicitation", func(t *testing.T) {
		r := call(t, s, "trigger-elicitation-request", nil)
		ev.mu.Lock()
		require.NotEmpty(t, ev.elicits)
		last := ev.elicits[len(ev.elicits)-1]
		ev.mu.Unlock()
		assert.NotEqual(t, core.ElicitModeURL, last.Mode)
		assert.NotEmpty(t, last.RequestedSchema)
		assert.Contains(t, strings.ToLower(text(t, r)), "accept")
	})

	t.Run("url elicitation", func(t *testing.T) {
		call(t, s, "trigger-url-elicitation", map[string]any{"url": "https://example.com/verify", "message": "Verify"})
		ev.mu.Lock()
		defer ev.mu.Unlock()
		last := ev.elicits[len(ev.elicits)-1]
		assert.Equal(t, core.ElicitModeURL, last.Mode)
		assert.Equal(t, "https://example.com/verify", last.URL)
		assert.NotEmpty(t, last.ElicitationID)
	})

	t.Run("roots", func(t *testing.T) {
		rootsOf := func() []string {
			var out []string
			txt := text(t, call(t, s, "get-roots-list", nil))
			for _, line := range strings.Split(txt, "\n") {
				if i := strings.Index(line, "file://"); i >= 0 {
					out = append(out, strings.Fields(line[i:])[0])
				}
			}
			return out
		}
		require.Eventually(t, func() bool { return slices.Contains(rootsOf(), "file:///project") }, 10*time.Second, 200*time.Millisecond,
			"the server asked for roots after initialization")
		assert.Positive(t, ev.rootsAsks.Load())
		client.SetRoots(testCtx(t), []*core.Root{{URI: "file:///elsewhere", Name: "elsewhere"}})
		require.Eventually(t, func() bool { return slices.Contains(rootsOf(), "file:///elsewhere") }, 10*time.Second, 200*time.Millisecond,
			"roots/list_changed made the server ask again")
	})

	t.Run("progress", func(t *testing.T) {
		var got atomic.Int32
		_, err := s.CallTool(testCtx(t), &core.CallToolParams{Name: "trigger-long-running-operation", Arguments: map[string]any{"duration": 1, "steps": 3}},
			&core.CallOptions{OnProgress: func(*core.ProgressParams) { got.Add(1) }})
		require.NoError(t, err)
		require.Eventually(t, func() bool { return got.Load() == 3 }, 5*time.Second, 10*time.Millisecond)
	})

	t.Run("completion", func(t *testing.T) {
		c, err := s.Complete(testCtx(t), &core.CompleteParams{
			Ref:      core.CompleteReference{Type: "ref/prompt", Name: "completable-prompt"},
			Argument: core.CompleteArgument{Name: "department", Value: "Eng"},
		})
		require.NoError(t, err)
		assert.Contains(t, c.Completion.Values, "Engineering")
	})

	t.Run("logging and subscriptions", func(t *testing.T) {
		require.NoError(t, s.SetLogLevel(testCtx(t), core.LevelDebug))
		uri := "demo://resource/static/document/architecture.md"
		if res, err := s.AllResources(testCtx(t)); err == nil && len(res) > 0 && !slices.ContainsFunc(res, func(r *core.Resource) bool { return r.URI == uri }) {
			uri = res[0].URI
		}
		require.NoError(t, s.Subscribe(testCtx(t), uri))
		call(t, s, "toggle-subscriber-updates", nil)
		require.Eventually(t, func() bool {
			ev.mu.Lock()
			defer ev.mu.Unlock()
			return slices.Contains(ev.updated, uri) && len(ev.logs) > 0
		}, 12*time.Second, 100*time.Millisecond, "resource updates and log messages arrive")
		call(t, s, "toggle-subscriber-updates", nil)
		require.NoError(t, s.Unsubscribe(testCtx(t), uri))
	})

	t.Run("resource list changed", func(t *testing.T) {
		before := ev.resources.Load()
		call(t, s, "gzip-file-as-resource", map[string]any{"name": "hello.txt.gz", "data": "data:text/plain;base64,aGVsbG8=", "outputType": "resourceLink"})
		require.Eventually(t, func() bool { return ev.resources.Load() > before }, 10*time.Second, 50*time.Millisecond)
		res, err := s.AllResources(testCtx(t))
		require.NoError(t, err)
		assert.True(t, slices.ContainsFunc(res, func(r *core.Resource) bool { return strings.Contains(r.URI, "hello.txt.gz") }))
	})

	t.Run("read resources and prompts", func(t *testing.T) {
		res, err := s.AllResources(testCtx(t))
		require.NoError(t, err)
		require.NotEmpty(t, res)
		r, err := s.ReadResource(testCtx(t), &core.ReadResourceParams{URI: res[0].URI}, nil)
		require.NoError(t, err)
		require.NotEmpty(t, r.Contents)
		prompts, err := s.AllPrompts(testCtx(t))
		require.NoError(t, err)
		require.NotEmpty(t, prompts)
		g, err := s.GetPrompt(testCtx(t), &core.GetPromptParams{Name: "simple-prompt"}, nil)
		require.NoError(t, err)
		require.NotEmpty(t, g.Messages)
		raw, err := json.Marshal(g)
		require.NoError(t, err)
		assert.Contains(t, string(raw), "text")
	})
}
