//go:build js

package gojs_test

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
	"syscall/js"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpwasm/mcpwasm/core"
	"github.com/mcpwasm/mcpwasm/internal/js/fetch"
	"github.com/mcpwasm/mcpwasm/tests/gojs"
	"github.com/mcpwasm/mcpwasm/transport/fetch"
)

var legacyOnly = []string{core.Version20251125}

// TestFetchSessions drives full sessions through core and the fetch
// transport (JavaScript fetch under Node) against real servers of both
// eras and all three HTTP transports.
func TestFetchSessions(t *testing.T) {
	goLegacy, goModern, ts := env(t, gojs.EnvGoLegacy), env(t, gojs.EnvGoModern), env(t, gojs.EnvTS)
	for _, p := range []struct {
		name     string
		url      string
		versions []string
		era      core.Era
		version  string
	}{
		{"gosdk-modern", goModern + "/mcp", nil, core.EraModern, core.Version20260728},
		{"gosdk-legacy", goLegacy + "/mcp", nil, core.EraLegacy, core.Version20251125},
		{"gosdk-http+sse", goLegacy + "/sse", nil, core.EraLegacy, core.Version20251125},
		{"ts-modern", ts, nil, core.EraModern, core.Version20260728},
		{"ts-legacy", ts, legacyOnly, core.EraLegacy, core.Version20251125},
	} {
		t.Run(p.name, func(t *testing.T) {
			open := func(t *testing.T, opts *core.ClientOptions) *core.Session {
				t.Helper()
				tr, err := fetch.New(p.url, &fetch.Options{HTTP: jsDoer(t)}) // as wasm/js wires it
				require.NoError(t, err)
				return connect(t, tr, p.versions, opts)
			}

			t.Run("handshake and tools", func(t *testing.T) {
				s := open(t, nil)
				assert.Equal(t, p.era, s.Era())
				assert.Equal(t, p.version, s.ProtocolVersion())
				require.NotNil(t, s.ServerInfo())
				assert.Equal(t, "mcpwasm test peer", s.Instructions())
				assert.Equal(t, "héllo ✓", text(t, call(t, s, "echo", map[string]any{"text": "héllo ✓"})))
				r := call(t, s, "add", map[string]any{"a": 20, "b": 22})
				b, _ := json.Marshal(r.StructuredContent)
				assert.JSONEq(t, `{"sum":42}`, string(b))
			})

			t.Run("progress over a streamed response", func(t *testing.T) {
				s := open(t, nil)
				var mu sync.Mutex
				var seen []float64
				var at []time.Time
				start := time.Now()
				r, err := s.CallTool(testCtx(t), &core.CallToolParams{Name: "progress", Arguments: map[string]any{"steps": 3, "delayMs": 150}}, &core.CallOptions{
					OnProgress: func(pp *core.ProgressParams) {
						mu.Lock()
						seen = append(seen, pp.Progress)
						at = append(at, time.Now())
						mu.Unlock()
					},
				})
				require.NoError(t, err)
				done := time.Now()
				assert.Equal(t, "done", text(t, r))
				// Progress callbacks run on the session's notification
				// goroutine: the last may land just after the result.
				require.Eventually(t, func() bool { mu.Lock(); defer mu.Unlock(); return len(seen) == 3 }, 5*time.Second, 10*time.Millisecond)
				mu.Lock()
				defer mu.Unlock()
				require.Equal(t, []float64{1, 2, 3}, seen)
				// The first notification was delivered while the call was
				// still running: the body streamed instead of arriving whole.
				assert.Less(t, at[0].Sub(start), done.Sub(start)-150*time.Millisecond, "progress 1 arrived before the response")
			})

			t.Run("cancellation", func(t *testing.T) {
				s := open(t, nil)
				before := cancelledCount(t, s)
				ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
				defer cancel()
				_, err := s.CallTool(ctx, &core.CallToolParams{Name: "slow", Arguments: map[string]any{"ms": 10000}}, nil)
				require.ErrorIs(t, err, context.DeadlineExceeded)
				require.Eventually(t, func() bool { return cancelledCount(t, s) == before+1 }, 10*time.Second, 50*time.Millisecond,
					"the server saw the cancellation (modern: the closed response stream; legacy: notifications/cancelled)")
				assert.Equal(t, "alive", text(t, call(t, s, "echo", map[string]any{"text": "alive"})))
			})

			t.Run("elicitation and sampling", func(t *testing.T) {
				s := open(t, &core.ClientOptions{
					ElicitationHandler: func(context.Context, *core.ElicitRequest) (*core.ElicitResult, error) {
						return &core.ElicitResult{Action: core.ActionAccept, Content: map[string]any{"name": "Ada", "age": 36}}, nil
					},
					SamplingHandler: func(_ context.Context, req *core.CreateMessageRequest) (*core.CreateMessageResult, error) {
						return &core.CreateMessageResult{Role: "assistant", Model: "wasm", Content: core.ContentList{core.TextContent("re: " + req.Params.Messages[0].Content[0].Text)}}, nil
					},
				})
				var res core.ElicitResult
				require.NoError(t, json.Unmarshal([]byte(text(t, call(t, s, "elicit", nil))), &res))
				assert.Equal(t, core.ActionAccept, res.Action)
				assert.Equal(t, "Ada", res.Content["name"])
				assert.Equal(t, "wasm: re: hi", text(t, call(t, s, "sample", map[string]any{"prompt": "hi"})))
			})
		})
	}
}

// TestFetchHTTPErrorStatus: an HTTP error from a real server reaches the
// caller as a *fetch.StatusError.
func TestFetchHTTPErrorStatus(t *testing.T) {
	tr, err := fetch.New(env(t, gojs.EnvGoLegacy)+"/no-such-endpoint", &fetch.Options{Mode: fetch.ModeStreamableHTTP, HTTP: jsDoer(t)})
	require.NoError(t, err)
	client := core.NewClient(&core.Implementation{Name: "t", Version: "1"}, nil)
	_, err = client.Connect(testCtx(t), tr, nil)
	var se *fetch.StatusError
	require.ErrorAs(t, err, &se)
	assert.Equal(t, 404, se.StatusCode)
	assert.Contains(t, err.Error(), "HTTP 404")
}

// corsFetch returns a JavaScript fetch that behaves like a browser page on
// another origin in front of Node's fetch: it sends an Origin header,
// refuses a response without Access-Control-Allow-Origin (TypeError, as
// browsers do), and returns a "cors" response showing only the
// CORS-safelisted headers and those the server listed in
// Access-Control-Expose-Headers. Node itself enforces none of this.
func corsFetch(t *testing.T, pageOrigin string) js.Value {
	t.Helper()
	factory := js.Global().Get("Function").New("realFetch", "safelist", "pageOrigin", `
		return async (input, init) => {
			const headers = new Headers(init && init.headers);
			headers.set("origin", pageOrigin);
			const r = await realFetch(input, { ...init, headers });
			if (!r.headers.get("access-control-allow-origin")) {
				if (r.body) await r.body.cancel();
				throw new TypeError("Failed to fetch");
			}
			const exposed = (r.headers.get("access-control-expose-headers") || "")
				.split(",").map(s => s.trim().toLowerCase()).filter(Boolean);
			const visible = new Headers();
			for (const [k, v] of r.headers) {
				if (safelist.includes(k) || exposed.includes(k)) visible.append(k, v);
			}
			return { type: "cors", status: r.status, ok: r.ok, statusText: r.statusText,
				url: r.url, redirected: r.redirected, headers: visible, body: r.body };
		};`)
	safelist := []any{"cache-control", "content-language", "content-length", "content-type", "expires", "last-modified", "pragma"}
	return factory.Invoke(js.Global().Get("fetch"), safelist, pageOrigin)
}

// TestFetchCORS covers a user-supplied fetch (the wasm entry point's hook)
// and the hidden-header diagnostic with browser-like CORS filtering.
func TestFetchCORS(t *testing.T) {
	// A page of a local development server: another origin (the port
	// differs), and one the servers' DNS-rebinding protection accepts.
	const pageOrigin = "http://localhost:5173"
	newTransport := func(t *testing.T, url string) *fetch.Transport {
		t.Helper()
		doer, err := jsfetch.NewDoer(&jsfetch.Options{Credentials: "include", Mode: "cors", Hook: jsfetch.Hook{Fetch: corsFetch(t, pageOrigin)}})
		require.NoError(t, err)
		tr, err := fetch.New(url, &fetch.Options{HTTP: doer, Mode: fetch.ModeStreamableHTTP})
		require.NoError(t, err)
		return tr
	}

	t.Run("server exposes Mcp-Session-Id", func(t *testing.T) {
		s := connect(t, newTransport(t, env(t, gojs.EnvGoCORS)+"/mcp"), legacyOnly, nil)
		assert.NotEmpty(t, s.ID(), "the session id was readable")
		assert.Equal(t, "ok", text(t, call(t, s, "echo", map[string]any{"text": "ok"})))
	})

	t.Run("server hides Mcp-Session-Id", func(t *testing.T) {
		// The TypeScript SDK server behind a CORS front that exposes no
		// header: the session id is invisible, and the server refuses the
		// next request with 400.
		tr := newTransport(t, env(t, gojs.EnvTSCORSNoExpose))
		client := core.NewClient(&core.Implementation{Name: "t", Version: "1"}, nil)
		_, err := client.Connect(testCtx(t), tr, &core.ConnectOptions{ProtocolVersions: legacyOnly})
		require.ErrorIs(t, err, fetch.ErrHiddenHeader)
		assert.Contains(t, err.Error(), "Mcp-Session-Id")
		assert.Contains(t, err.Error(), "Access-Control-Expose-Headers")
	})

	t.Run("server refuses the origin", func(t *testing.T) {
		// The hint is for pages and workers, where CORS applies: pretend to
		// be one.
		js.Global().Set("document", js.Global().Get("Object").New())
		defer js.Global().Delete("document")
		tr := newTransport(t, env(t, gojs.EnvGoLegacy)+"/mcp") // no CORS at all
		client := core.NewClient(&core.Implementation{Name: "t", Version: "1"}, nil)
		_, err := client.Connect(testCtx(t), tr, &core.ConnectOptions{ProtocolVersions: legacyOnly})
		require.ErrorIs(t, err, jsfetch.ErrNetwork)
		assert.Contains(t, err.Error(), "CORS")
	})
}

func TestFetchNoNetwork(t *testing.T) {
	tr, err := fetch.New(env(t, gojs.EnvClosed)+"/mcp", &fetch.Options{HTTP: jsDoer(t)})
	require.NoError(t, err)
	client := core.NewClient(&core.Implementation{Name: "t", Version: "1"}, nil)
	_, err = client.Connect(testCtx(t), tr, nil)
	require.Error(t, err)
	assert.True(t, errors.Is(err, jsfetch.ErrNetwork), "got %v", err)
	assert.Contains(t, err.Error(), "ECONNREFUSED")
	assert.NotContains(t, err.Error(), "CORS", "Node enforces no CORS: no hint")
}

// jsDoer is the JavaScript fetch Doer wasm/js passes to transport/fetch.
func jsDoer(t *testing.T) fetch.Doer {
	t.Helper()
	d, err := jsfetch.NewDoer(nil)
	require.NoError(t, err)
	return d
}

// TestFetchNoDefaultDoer: transport/fetch has no JavaScript default (it
// imports no syscall/js); without Options.HTTP a request fails with
// ErrNoDefaultHTTP and nothing is sent.
func TestFetchNoDefaultDoer(t *testing.T) {
	tr, err := fetch.New(env(t, gojs.EnvGoLegacy)+"/mcp", nil)
	require.NoError(t, err)
	client := core.NewClient(&core.Implementation{Name: "t", Version: "1"}, nil)
	_, err = client.Connect(testCtx(t), tr, nil)
	require.ErrorIs(t, err, fetch.ErrNoDefaultHTTP)
}
