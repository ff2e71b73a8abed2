package integration_test

import (
	"context"
	"encoding/json"
	"errors"
	"net"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpwasm/mcpwasm/core"
	"github.com/mcpwasm/mcpwasm/harness/demoserver"
	"github.com/mcpwasm/mcpwasm/harness/testpeers"
	"github.com/mcpwasm/mcpwasm/jsonrpc"
	"github.com/mcpwasm/mcpwasm/transport/fetch"
)

// connectEverything connects to a server-everything over Streamable HTTP.
func connectEverything(t *testing.T, url string, opts *core.ClientOptions) *core.Session {
	t.Helper()
	tr, err := fetch.New(url, nil)
	require.NoError(t, err)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	s, err := core.NewClient(&core.Implementation{Name: "mcpwasm-it", Version: "1.0.0"}, opts).Connect(ctx, tr, nil)
	require.NoError(t, err)
	t.Cleanup(func() { s.Close() })
	return s
}

// TestEverythingURLElicitationErrorPath: server-everything's
// trigger-url-elicitation with errorPath answers -32042 and never sends
// notifications/elicitation/complete. The call must end within its timeout
// with the elicitation in hand, or be retried when the handler says the
// user is done.
func TestEverythingURLElicitationErrorPath(t *testing.T) {
	srv := testpeers.StartEverything(t, "streamableHttp")
	args := func(id string) map[string]any {
		return map[string]any{"url": "https://example.com/next", "errorPath": true, "elicitationId": id}
	}
	t.Run("no completion: typed error within the timeout", func(t *testing.T) {
		s := connectEverything(t, srv.URL, &core.ClientOptions{
			ElicitationModes: []string{core.ElicitModeURL},
			ElicitationHandler: func(context.Context, *core.ElicitRequest) (*core.ElicitResult, error) {
				return &core.ElicitResult{Action: core.ActionAccept}, nil
			},
		})
		start := time.Now()
		_, err := s.CallTool(testCtx(t), &core.CallToolParams{Name: "trigger-url-elicitation", Arguments: args("a")}, &core.CallOptions{Timeout: time.Second})
		var ue *core.URLElicitationError
		require.ErrorAs(t, err, &ue)
		require.ErrorIs(t, err, core.ErrTimeout)
		require.Len(t, ue.Elicitations, 1)
		assert.Equal(t, "https://modelcontextprotocol.io", ue.Elicitations[0].URL)
		assert.Less(t, time.Since(start), 10*time.Second)
	})
	t.Run("the handler says the user is done: retried", func(t *testing.T) {
		var urls []string
		s := connectEverything(t, srv.URL, &core.ClientOptions{
			ElicitationModes: []string{core.ElicitModeURL},
			ElicitationHandler: func(_ context.Context, req *core.ElicitRequest) (*core.ElicitResult, error) {
				urls = append(urls, req.Params.URL)
				return &core.ElicitResult{Action: core.ActionAccept, Completed: true}, nil
			},
		})
		r, err := s.CallTool(testCtx(t), &core.CallToolParams{Name: "trigger-url-elicitation", Arguments: args("b")}, nil)
		require.NoError(t, err)
		assert.Contains(t, text(t, r), "User completed the URL elicitation flow")
		assert.Equal(t, []string{"https://modelcontextprotocol.io", "https://example.com/next"}, urls,
			"the prerequisite from the error, then the retried call's own elicitation")
	})
}

// TestEverythingForgottenSession: server-everything answers a session it no
// longer knows with 400 "Bad Request: No valid session ID provided". The
// client re-initializes and the call succeeds.
func TestEverythingForgottenSession(t *testing.T) {
	srv := testpeers.StartEverything(t, "streamableHttp")
	s := connectEverything(t, srv.URL, nil)
	old := s.ID()
	require.NotEmpty(t, old)

	// End the session behind the client's back.
	req, err := http.NewRequestWithContext(testCtx(t), http.MethodDelete, srv.URL, nil)
	require.NoError(t, err)
	req.Header.Set("Mcp-Session-Id", old)
	req.Header.Set("MCP-Protocol-Version", s.ProtocolVersion())
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	resp.Body.Close()
	require.Less(t, resp.StatusCode, 300)

	r, err := s.ListTools(testCtx(t), nil)
	require.NoError(t, err, "re-initialized after the 400")
	assert.NotEmpty(t, r.Tools)
	assert.NotEqual(t, old, s.ID())
}

// TestOneChangeOneCallback: with a list-changed handler the session opens
// its own listen stream; an application's Listen for the same
// notifications gets its own copy, and the client-level handler still
// runs once per change.
func TestOneChangeOneCallback(t *testing.T) {
	peers := []peer{
		{name: "ts-modern", start: tsPeer(testpeers.TSServerOptions{}), era: core.EraModern, version: core.Version20260728},
		goSDKPeers()[1], // gosdk-modern
	}
	for _, p := range peers {
		t.Run(p.name, func(t *testing.T) {
			url := p.start(t)
			var clientCalls, subCalls, onWire atomic.Int32
			s := connect(t, p, url, &core.ClientOptions{
				ToolListChangedHandler: func(context.Context, *core.Session) { clientCalls.Add(1) },
				OnMessage: func(_ *core.Session, dir core.Direction, m jsonrpc.Message) {
					if r, ok := m.(*jsonrpc.Request); ok && dir == core.Incoming && r.Method == core.NotificationToolsChanged {
						onWire.Add(1)
					}
				},
			})
			sub, err := s.Listen(testCtx(t), &core.SubscriptionFilter{ToolsListChanged: true}, &core.ListenOptions{
				Handler: func(_ context.Context, method string, _ json.RawMessage) {
					if method == core.NotificationToolsChanged {
						subCalls.Add(1)
					}
				},
			})
			require.NoError(t, err)
			defer sub.Close()
			require.True(t, sub.Acknowledged().ToolsListChanged)

			call(t, s, "change_tools", nil)
			require.Eventually(t, func() bool { return onWire.Load() == 2 }, 10*time.Second, 5*time.Millisecond,
				"one copy per stream on the wire")
			// Handlers run in arrival order: once this call's progress has
			// been handled, so have both copies.
			barrier := make(chan struct{}, 8)
			_, err = s.CallTool(testCtx(t), &core.CallToolParams{Name: "progress", Arguments: map[string]any{"steps": 1, "delayMs": 1}},
				&core.CallOptions{OnProgress: func(*core.ProgressParams) { barrier <- struct{}{} }})
			require.NoError(t, err)
			select {
			case <-barrier:
			case <-time.After(10 * time.Second):
				t.Fatal("no progress")
			}
			assert.Equal(t, int32(1), clientCalls.Load(), "one change, one client-level callback")
			assert.Equal(t, int32(1), subCalls.Load(), "the application's stream gets its copy")
		})
	}
}

// TestElicitationAnswersAreValidated: an accepted form whose content does
// not match requestedSchema is not sent. server-everything (legacy) gets an
// error answer instead; on the TypeScript SDK v2 server (modern, MRTR) the
// call fails with the reason, and no retry carries the bad answer.
func TestElicitationAnswersAreValidated(t *testing.T) {
	bad := func(context.Context, *core.ElicitRequest) (*core.ElicitResult, error) {
		return &core.ElicitResult{Action: core.ActionAccept, Content: map[string]any{"name": 42, "age": -3}}, nil
	}
	t.Run("server-everything", func(t *testing.T) {
		srv := testpeers.StartEverything(t, "streamableHttp")
		var warned atomic.Int32
		var sentResult atomic.Int32
		var sentError atomic.Value
		s := connectEverything(t, srv.URL, &core.ClientOptions{
			ElicitationHandler: bad,
			OnWarning: func(_ *core.Session, err error) {
				if errors.Is(err, core.ErrElicitationContent) {
					warned.Add(1)
				}
			},
			OnMessage: func(_ *core.Session, dir core.Direction, m jsonrpc.Message) {
				if r, ok := m.(*jsonrpc.Response); ok && dir == core.Outgoing {
					if r.Error != nil {
						sentError.Store(r.Error.Message)
					} else {
						sentResult.Add(1)
					}
				}
			},
		})
		_, _ = s.CallTool(testCtx(t), &core.CallToolParams{Name: "trigger-elicitation-request"}, nil)
		assert.Equal(t, int32(1), warned.Load(), "the application is told")
		assert.Equal(t, int32(0), sentResult.Load(), "the invalid answer is not sent")
		msg, _ := sentError.Load().(string)
		assert.Contains(t, msg, "does not match the requested schema")
	})
	t.Run("ts-modern", func(t *testing.T) {
		p := peer{name: "ts-modern", start: tsPeer(testpeers.TSServerOptions{}), era: core.EraModern, version: core.Version20260728}
		url := p.start(t)
		var retries atomic.Int32
		s := connect(t, p, url, &core.ClientOptions{
			ElicitationHandler: bad,
			OnMessage: func(_ *core.Session, dir core.Direction, m jsonrpc.Message) {
				if r, ok := m.(*jsonrpc.Request); ok && dir == core.Outgoing && r.Method == core.MethodCallTool && strings.Contains(string(r.Params), "inputResponses") {
					retries.Add(1)
				}
			},
		})
		_, err := s.CallTool(testCtx(t), &core.CallToolParams{Name: "elicit"}, nil)
		require.ErrorIs(t, err, core.ErrElicitationContent)
		var ie *core.InputError
		require.ErrorAs(t, err, &ie)
		assert.Equal(t, int32(0), retries.Load())

		good := connect(t, p, url, &core.ClientOptions{ElicitationHandler: func(context.Context, *core.ElicitRequest) (*core.ElicitResult, error) {
			return &core.ElicitResult{Action: core.ActionAccept, Content: map[string]any{"age": 36}}, nil
		}})
		r, err := good.CallTool(testCtx(t), &core.CallToolParams{Name: "elicit"}, nil)
		require.NoError(t, err)
		assert.Contains(t, text(t, r), `"age":36`)
	})
}

// TestHTTPSSERestart: the official Go SDK server over the 2024-11-05
// HTTP+SSE transport restarts on the same address (every session
// forgotten). The call in flight fails at once instead of waiting for its
// timeout; the stream is re-opened, the session re-initialized, and calls
// work again, without a new Connect.
func TestHTTPSSERestart(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := ln.Addr().String()
	serve := func(ln net.Listener) (*http.Server, *demoserver.Server) {
		demo := demoserver.New(&demoserver.Options{PageSize: 10})
		hs := &http.Server{Handler: demo.Handler()}
		go hs.Serve(ln)
		return hs, demo
	}
	hs, demo := serve(ln)
	t.Cleanup(func() { hs.Close(); demo.Close() })

	var warnings atomic.Int32
	s := connect(t, peer{mode: fetch.ModeSSE}, "http://"+addr+demoserver.SSEPath, &core.ClientOptions{
		OnWarning: func(_ *core.Session, err error) { warnings.Add(1); t.Logf("warning: %v", err) },
	})
	assert.Equal(t, "one", text(t, call(t, s, "echo", map[string]any{"text": "one"})))

	slow := make(chan error, 1)
	go func() {
		_, err := s.CallTool(context.Background(), &core.CallToolParams{Name: "slow", Arguments: map[string]any{"ms": 2000}}, nil)
		slow <- err
	}()
	time.Sleep(100 * time.Millisecond) // let the slow call reach the server
	hs.Close()
	demo.Close()
	select {
	case err := <-slow:
		require.ErrorIs(t, err, fetch.ErrStreamEnded, "the call in flight fails when its stream ends")
	case <-time.After(10 * time.Second):
		t.Fatal("the call in flight waited for its timeout")
	}

	for range 50 {
		if ln, err = net.Listen("tcp", addr); err == nil {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	require.NoError(t, err)
	hs2, demo2 := serve(ln)
	t.Cleanup(func() { hs2.Close(); demo2.Close() })

	r, err := s.CallTool(testCtx(t), &core.CallToolParams{Name: "echo", Arguments: map[string]any{"text": "two"}}, nil)
	require.NoError(t, err, "re-opened and re-initialized")
	assert.Equal(t, "two", text(t, r))
	select {
	case <-s.Done():
		t.Fatal("the session ended")
	default:
	}
	assert.Positive(t, warnings.Load(), "the application was told the stream ended")
}
