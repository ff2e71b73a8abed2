//go:build !js

package ws_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpwasm/mcpwasm/core"
	"github.com/mcpwasm/mcpwasm/harness/testpeers"
	"github.com/mcpwasm/mcpwasm/jsonrpc"
	"github.com/mcpwasm/mcpwasm/transport/ws"
)

var legacyOnly = []string{core.Version20251125}

// TestGoSDKServer runs full sessions of both eras against the official Go
// SDK server over WebSocket.
func TestGoSDKServer(t *testing.T) {
	srv := startGoServer(t)
	for _, tc := range []struct {
		name     string
		versions []string
		era      core.Era
		version  string
	}{
		{"legacy", legacyOnly, core.EraLegacy, core.Version20251125},
		{"modern", nil, core.EraModern, core.Version20260728},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Run("handshake and tools", func(t *testing.T) {
				s := connect(t, srv.URL, tc.versions, nil, nil)
				assert.Equal(t, tc.era, s.Era())
				assert.Equal(t, tc.version, s.ProtocolVersion())
				require.NotNil(t, s.ServerInfo())
				assert.Equal(t, "mcpwasm-demoserver", s.ServerInfo().Name)
				assert.Equal(t, "mcpwasm test peer", s.Instructions())
				assert.Equal(t, "héllo\nwörld", text(t, call(t, s, "echo", map[string]any{"text": "héllo\nwörld"})))
				r := call(t, s, "add", map[string]any{"a": 2, "b": 40})
				assert.JSONEq(t, `{"sum":42}`, string(mustJSON(t, r.StructuredContent)))
				if tc.era == core.EraLegacy {
					require.NoError(t, s.Ping(testCtx(t)))
				}
			})

			t.Run("progress", func(t *testing.T) {
				s := connect(t, srv.URL, tc.versions, nil, nil)
				var mu sync.Mutex
				var seen []float64
				r, err := s.CallTool(testCtx(t), &core.CallToolParams{Name: "progress", Arguments: map[string]any{"steps": 3, "delayMs": 10}}, &core.CallOptions{
					OnProgress: func(p *core.ProgressParams) {
						mu.Lock()
						seen = append(seen, p.Progress)
						mu.Unlock()
					},
				})
				require.NoError(t, err)
				assert.Equal(t, "done", text(t, r))
				require.Eventually(t, func() bool { mu.Lock(); defer mu.Unlock(); return len(seen) == 3 }, 5*time.Second, 10*time.Millisecond)
				mu.Lock()
				assert.Equal(t, []float64{1, 2, 3}, seen)
				mu.Unlock()
			})

			t.Run("cancellation", func(t *testing.T) {
				s := connect(t, srv.URL, tc.versions, nil, nil)
				count := func() int {
					var n int
					require.NoError(t, json.Unmarshal([]byte(strings.TrimSpace(text(t, call(t, s, "cancelled_count", nil)))), &n))
					return n
				}
				before, wireBefore := count(), srv.H.Cancelled()
				ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
				defer cancel()
				_, err := s.CallTool(ctx, &core.CallToolParams{Name: "slow", Arguments: map[string]any{"ms": 10000}}, nil)
				require.ErrorIs(t, err, context.DeadlineExceeded)
				require.Eventually(t, func() bool { return count() == before+1 }, 5*time.Second, 20*time.Millisecond, "the tool saw the cancellation")
				assert.Equal(t, wireBefore+1, srv.H.Cancelled(), "notifications/cancelled went over the socket")
				assert.Equal(t, "alive", text(t, call(t, s, "echo", map[string]any{"text": "alive"})))
			})

			t.Run("server requests: elicitation, sampling, roots", func(t *testing.T) {
				var elicited, sampled atomic.Int32
				s := connect(t, srv.URL, tc.versions, &core.ClientOptions{
					Roots: []*core.Root{{URI: "file:///work", Name: "work"}},
					ElicitationHandler: func(_ context.Context, req *core.ElicitRequest) (*core.ElicitResult, error) {
						elicited.Add(1)
						return &core.ElicitResult{Action: core.ActionAccept, Content: map[string]any{"name": "Grace", "age": 40}}, nil
					},
					SamplingHandler: func(_ context.Context, req *core.CreateMessageRequest) (*core.CreateMessageResult, error) {
						sampled.Add(1)
						return &core.CreateMessageResult{Role: "assistant", Model: "m", Content: core.ContentList{core.TextContent("sampled " + req.Params.Messages[0].Content[0].Text)}}, nil
					},
				}, nil)
				var res core.ElicitResult
				require.NoError(t, json.Unmarshal([]byte(text(t, call(t, s, "elicit", nil))), &res))
				assert.Equal(t, core.ActionAccept, res.Action)
				assert.Equal(t, "Grace", res.Content["name"])
				assert.Equal(t, "m: sampled hi", text(t, call(t, s, "sample", map[string]any{"prompt": "hi"})))
				var roots []string
				require.NoError(t, json.Unmarshal([]byte(text(t, call(t, s, "roots", nil))), &roots))
				assert.Equal(t, []string{"file:///work"}, roots)
				var multi map[string]any
				require.NoError(t, json.Unmarshal([]byte(text(t, call(t, s, "multi_input", nil))), &multi))
				assert.Equal(t, "Grace", multi["name"])
				assert.Equal(t, int32(2), elicited.Load())
				assert.Equal(t, int32(2), sampled.Load())
			})

			t.Run("concurrent calls", func(t *testing.T) {
				s := connect(t, srv.URL, tc.versions, nil, nil)
				var wg sync.WaitGroup
				errs := make(chan error, 32)
				for i := range 32 {
					wg.Add(1)
					go func() {
						defer wg.Done()
						want := strings.Repeat("x", i*100)
						r, err := s.CallTool(testCtx(t), &core.CallToolParams{Name: "echo", Arguments: map[string]any{"text": want}}, nil)
						if err == nil && (len(r.Content) != 1 || r.Content[0].Text != want) {
							err = errors.New("wrong echo")
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
		})
	}
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return b
}

// TestEverythingBridge runs a legacy session against server-everything
// (stdio mode) behind the Node ws bridge.
func TestEverythingBridge(t *testing.T) {
	peer := testpeers.StartWSBridge(t, nil)
	var sampled, elicited atomic.Int32
	var progress atomic.Int32
	s := connect(t, peer.URL, nil, &core.ClientOptions{
		Roots: []*core.Root{{URI: "file:///bridge", Name: "bridge"}},
		SamplingHandler: func(_ context.Context, req *core.CreateMessageRequest) (*core.CreateMessageResult, error) {
			sampled.Add(1)
			return &core.CreateMessageResult{Role: "assistant", Model: "bridge-model", Content: core.ContentList{core.TextContent("sampled")}}, nil
		},
		ElicitationHandler: func(_ context.Context, req *core.ElicitRequest) (*core.ElicitResult, error) {
			elicited.Add(1)
			return &core.ElicitResult{Action: core.ActionDecline}, nil
		},
	}, nil)
	assert.Equal(t, core.EraLegacy, s.Era(), "server-everything is a legacy server: the modern probe fell back")
	require.NotNil(t, s.ServerInfo())
	assert.Contains(t, s.ServerInfo().Name, "everything")

	assert.Contains(t, text(t, call(t, s, "echo", map[string]any{"message": "over ws"})), "over ws")
	assert.Contains(t, text(t, call(t, s, "get-sum", map[string]any{"a": 2, "b": 3})), "5")

	r, err := s.CallTool(testCtx(t), &core.CallToolParams{Name: "trigger-long-running-operation", Arguments: map[string]any{"duration": 0.3, "steps": 3}},
		&core.CallOptions{OnProgress: func(*core.ProgressParams) { progress.Add(1) }})
	require.NoError(t, err)
	assert.Contains(t, text(t, r), "completed")
	require.Eventually(t, func() bool { return progress.Load() == 3 }, 5*time.Second, 10*time.Millisecond)

	assert.Contains(t, text(t, call(t, s, "trigger-sampling-request", map[string]any{"prompt": "hi", "maxTokens": 5})), "bridge-model")
	assert.Equal(t, int32(1), sampled.Load())
	call(t, s, "trigger-elicitation-request", nil)
	assert.Equal(t, int32(1), elicited.Load())
	assert.Contains(t, text(t, call(t, s, "get-roots-list", nil)), "file:///bridge")

	// Cancelling a long operation sends notifications/cancelled; the
	// session carries on.
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	_, err = s.CallTool(ctx, &core.CallToolParams{Name: "trigger-long-running-operation", Arguments: map[string]any{"duration": 10, "steps": 2}}, nil)
	require.ErrorIs(t, err, context.DeadlineExceeded)
	assert.Contains(t, text(t, call(t, s, "echo", map[string]any{"message": "still here"})), "still here")

	// The server going away fails the pending call with a clear error and
	// ends the legacy session.
	done := make(chan error, 1)
	go func() {
		_, err := s.CallTool(testCtx(t), &core.CallToolParams{Name: "trigger-long-running-operation", Arguments: map[string]any{"duration": 10, "steps": 2}}, nil)
		done <- err
	}()
	time.Sleep(200 * time.Millisecond)
	peer.Stop()
	select {
	case err := <-done:
		require.ErrorIs(t, err, core.ErrClosed)
		var ce *ws.CloseError
		require.ErrorAs(t, err, &ce)
		assert.Equal(t, 1006, ce.Code, "the process died: no close frame")
		assert.Contains(t, err.Error(), "abnormal closure")
	case <-time.After(10 * time.Second):
		t.Fatal("the pending call did not fail after the server went away")
	}
	<-s.Done()
	assert.Error(t, s.Err())
}

// TestEverythingBridgeSeesCancellation checks on the wire that a cancelled
// call's notifications/cancelled reached the bridge, which wrote it to
// server-everything's stdin.
func TestEverythingBridgeSeesCancellation(t *testing.T) {
	peer := testpeers.StartWSBridge(t, &testpeers.WSBridgeOptions{Verbose: true})
	s := connect(t, peer.URL, nil, nil, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	_, err := s.CallTool(ctx, &core.CallToolParams{Name: "trigger-long-running-operation", Arguments: map[string]any{"duration": 10, "steps": 2}}, nil)
	require.ErrorIs(t, err, context.DeadlineExceeded)
	require.Eventually(t, func() bool {
		return strings.Contains(peer.Stderr(), `-> {"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":`)
	}, 5*time.Second, 20*time.Millisecond, "the bridge received notifications/cancelled:\n%s", peer.Stderr())
	assert.Contains(t, text(t, call(t, s, "echo", map[string]any{"message": "after"})), "after")
}

func TestSubprotocolRequired(t *testing.T) {
	srv := startGoServer(t)
	tr, err := ws.New(strings.TrimSuffix(srv.URL, "/mcp")+"/no-subprotocol", nil)
	require.NoError(t, err)
	_, err = tr.Connect(testCtx(t))
	require.ErrorIs(t, err, ws.ErrSubprotocol)
	assert.Contains(t, err.Error(), "selected none")
}

func TestDialFailures(t *testing.T) {
	t.Run("nothing listening", func(t *testing.T) {
		hs := httptest.NewServer(http.NotFoundHandler())
		url := "ws" + strings.TrimPrefix(hs.URL, "http")
		hs.Close()
		tr, err := ws.New(url, nil)
		require.NoError(t, err)
		_, err = tr.Connect(testCtx(t))
		require.ErrorIs(t, err, ws.ErrDial)
	})
	t.Run("not a WebSocket endpoint", func(t *testing.T) {
		hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			http.Error(w, "no websockets here\n<html>\n  <body>"+strings.Repeat(" filler", 100)+"</body>", http.StatusNotFound)
		}))
		defer hs.Close()
		tr, err := ws.New("ws"+strings.TrimPrefix(hs.URL, "http"), nil)
		require.NoError(t, err)
		_, err = tr.Connect(testCtx(t))
		require.ErrorIs(t, err, ws.ErrDial)
		assert.Contains(t, err.Error(), "HTTP 404")
		assert.Contains(t, err.Error(), "no websockets here <html> <body>")
		assert.NotContains(t, err.Error(), "\n", "the body is cut to one line")
		assert.Less(t, len(err.Error()), 400)
	})
	t.Run("context ends", func(t *testing.T) {
		// A server that accepts TCP but never answers the handshake.
		block := make(chan struct{})
		hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { <-block }))
		defer hs.Close()
		defer close(block)
		tr, err := ws.New("ws"+strings.TrimPrefix(hs.URL, "http"), nil)
		require.NoError(t, err)
		ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
		defer cancel()
		_, err = tr.Connect(ctx)
		require.ErrorIs(t, err, context.DeadlineExceeded)
	})
}

func TestHandshakeHeaders(t *testing.T) {
	srv := startGoServer(t)
	var got atomic.Value
	front := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got.Store(r.Header.Get("Authorization") + "|" + r.Header.Get("Sec-WebSocket-Protocol"))
		srv.H.ServeHTTP(w, r)
	}))
	defer front.Close()
	s := connect(t, "ws"+strings.TrimPrefix(front.URL, "http")+"/mcp", legacyOnly, nil, &ws.Options{Header: map[string]string{"Authorization": "Bearer t0k"}})
	assert.Equal(t, "ok", text(t, call(t, s, "echo", map[string]any{"text": "ok"})))
	assert.Equal(t, "Bearer t0k|mcp", got.Load())
	s.Close()
}

// TestMalformedFrames makes the server send frames that are not JSON-RPC
// messages: each is reported, none ends the session.
func TestMalformedFrames(t *testing.T) {
	srv := startGoServer(t)
	for _, tc := range []struct {
		name     string
		versions []string
	}{{"legacy", legacyOnly}, {"modern", nil}} {
		t.Run(tc.name, func(t *testing.T) {
			var w warnings
			var mu sync.Mutex
			var reported []error // transport errors without a request id
			s := connect(t, srv.URL, tc.versions, &core.ClientOptions{
				OnWarning: w.add,
				OnMessage: func(_ *core.Session, dir core.Direction, m jsonrpc.Message) {
					if r, ok := m.(*jsonrpc.Response); ok && dir == core.Incoming && r.TransportErr != nil && !r.ID.IsValid() {
						mu.Lock()
						reported = append(reported, r.TransportErr)
						mu.Unlock()
					}
				},
			}, nil)
			res, err := inject(testCtx(t), s, map[string]any{"frames": []map[string]any{
				{"binary": base64.StdEncoding.EncodeToString([]byte(`{"jsonrpc":"2.0","method":"notifications/message"}`))},
				{"text": "this is not JSON"},
				{"text": `{"jsonrpc":"2.0","id":123456}`},
				{"text": `{"jsonrpc":"2.0","id":"wstest-1","method":42}`},
			}})
			require.NoError(t, err)
			assert.Equal(t, "alive", text(t, call(t, s, "echo", map[string]any{"text": "alive"})), "the session survived")
			require.Eventually(t, func() bool { return len(w.list()) >= 4 }, 5*time.Second, 10*time.Millisecond, "every malformed frame is reported: %v", w.list())
			mu.Lock()
			require.Len(t, reported, 4)
			for i, want := range []string{"a binary frame (50 bytes)", "invalid character", "neither a method, a result nor an error", "answered with Invalid Request"} {
				assert.ErrorIs(t, reported[i], ws.ErrMalformed)
				assert.Contains(t, reported[i].Error(), want)
			}
			mu.Unlock()

			// The malformed server request was answered with Invalid Request.
			res, err = inject(testCtx(t), s, map[string]any{})
			require.NoError(t, err)
			require.NotEmpty(t, res.Replies)
			var reply struct {
				ID    string `json:"id"`
				Error struct {
					Code int `json:"code"`
				} `json:"error"`
			}
			require.NoError(t, json.Unmarshal(res.Replies[len(res.Replies)-1], &reply))
			assert.Equal(t, "wstest-1", reply.ID)
			assert.Equal(t, -32600, reply.Error.Code)

			// A malformed response still names its request: that call fails
			// with ErrMalformed and nothing else does.
			_, err = inject(testCtx(t), s, map[string]any{"respond": "malformed"})
			require.ErrorIs(t, err, ws.ErrMalformed)
			assert.Contains(t, err.Error(), `"1.0"`)
			assert.Equal(t, "still", text(t, call(t, s, "echo", map[string]any{"text": "still"})))
			select {
			case <-s.Done():
				t.Fatal("the session ended")
			default:
			}
		})
	}
}

// TestServerClosesSocket: in a legacy session the socket is the session;
// pending calls fail with the close status and reason.
func TestServerClosesSocket(t *testing.T) {
	srv := startGoServer(t)
	s := connect(t, srv.URL, legacyOnly, nil, &ws.Options{})
	slow := make(chan error, 1)
	go func() {
		_, err := s.CallTool(testCtx(t), &core.CallToolParams{Name: "slow", Arguments: map[string]any{"ms": 10000}}, nil)
		slow <- err
	}()
	_, err := inject(testCtx(t), s, map[string]any{"delayMs": 100, "respond": "none", "close": map[string]any{"code": 1001, "reason": "maintenance"}})
	require.Error(t, err)
	var ce *ws.CloseError
	require.ErrorAs(t, err, &ce)
	assert.Equal(t, 1001, ce.Code)
	assert.Equal(t, "maintenance", ce.Reason)
	assert.ErrorIs(t, err, core.ErrClosed)
	assert.Contains(t, err.Error(), "going away")
	select {
	case err := <-slow:
		require.ErrorAs(t, err, &ce)
	case <-time.After(5 * time.Second):
		t.Fatal("the slow call did not fail")
	}
	<-s.Done()
	require.ErrorAs(t, s.Err(), &ce)
	_, err = s.CallTool(testCtx(t), &core.CallToolParams{Name: "echo", Arguments: map[string]any{"text": "x"}}, nil)
	require.ErrorIs(t, err, core.ErrClosed)
}

// TestModernReconnect: a modern session has no server state, so a lost
// socket fails only what was in flight and the next call reconnects.
func TestModernReconnect(t *testing.T) {
	srv := startGoServer(t)
	s := connect(t, srv.URL, nil, nil, nil)
	require.Equal(t, core.EraModern, s.Era())
	first, err := inject(testCtx(t), s, map[string]any{})
	require.NoError(t, err)

	slow := make(chan error, 1)
	go func() {
		_, err := s.CallTool(testCtx(t), &core.CallToolParams{Name: "slow", Arguments: map[string]any{"ms": 10000}}, nil)
		slow <- err
	}()
	_, err = inject(testCtx(t), s, map[string]any{"delayMs": 100, "respond": "none", "close": map[string]any{"code": 1012, "reason": "restart"}})
	require.ErrorIs(t, err, ws.ErrConnectionLost)
	var ce *ws.CloseError
	require.ErrorAs(t, err, &ce)
	assert.Equal(t, 1012, ce.Code)
	select {
	case err := <-slow:
		require.ErrorIs(t, err, ws.ErrConnectionLost)
	case <-time.After(5 * time.Second):
		t.Fatal("the slow call did not fail")
	}

	assert.Equal(t, "back", text(t, call(t, s, "echo", map[string]any{"text": "back"})), "the next call reconnects")
	second, err := inject(testCtx(t), s, map[string]any{})
	require.NoError(t, err)
	assert.Equal(t, first.Connection+1, second.Connection, "a new socket")
	select {
	case <-s.Done():
		t.Fatal("the session ended")
	default:
	}

	t.Run("disabled", func(t *testing.T) {
		s := connect(t, srv.URL, nil, nil, &ws.Options{DisableReconnect: true})
		_, err := inject(testCtx(t), s, map[string]any{"respond": "none", "close": map[string]any{"code": 1012, "reason": "restart"}})
		require.ErrorAs(t, err, &ce)
		<-s.Done()
	})
}

func TestMessageTooLarge(t *testing.T) {
	srv := startGoServer(t)
	s := connect(t, srv.URL, legacyOnly, nil, &ws.Options{MaxMessageSize: 8 << 10})
	assert.Equal(t, "small", text(t, call(t, s, "echo", map[string]any{"text": "small"})))
	_, err := s.CallTool(testCtx(t), &core.CallToolParams{Name: "echo", Arguments: map[string]any{"text": strings.Repeat("x", 20<<10)}}, nil)
	require.ErrorIs(t, err, ws.ErrTooLarge)
	<-s.Done()
}

// TestPing: an unanswered ping ends the connection; an answered one keeps
// it.
func TestPing(t *testing.T) {
	t.Run("answered", func(t *testing.T) {
		srv := startGoServer(t)
		s := connect(t, srv.URL, legacyOnly, nil, &ws.Options{PingInterval: 20 * time.Millisecond})
		time.Sleep(200 * time.Millisecond)
		assert.Equal(t, "ok", text(t, call(t, s, "echo", map[string]any{"text": "ok"})))
	})
	t.Run("unanswered", func(t *testing.T) {
		// A server that completes the handshake and then never reads, so it
		// never answers a ping.
		release := make(chan struct{})
		hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			c, err := websocket.Accept(w, r, &websocket.AcceptOptions{Subprotocols: []string{"mcp"}})
			if err != nil {
				return
			}
			<-release
			c.CloseNow()
		}))
		defer hs.Close()
		defer close(release)
		tr, err := ws.New("ws"+strings.TrimPrefix(hs.URL, "http"), &ws.Options{PingInterval: 50 * time.Millisecond, DisableReconnect: true})
		require.NoError(t, err)
		conn, err := tr.Connect(testCtx(t))
		require.NoError(t, err)
		defer conn.Close()
		_, err = conn.Recv(testCtx(t))
		require.Error(t, err)
		assert.Contains(t, err.Error(), "no pong within 50ms")
	})
}

func TestNewValidation(t *testing.T) {
	for _, tc := range []struct {
		url  string
		opts *ws.Options
		want string
	}{
		{"ftp://host/mcp", nil, "must be ws or wss"},
		{"ws:///mcp", nil, "has no host"},
		{"ws://host/mcp#frag", nil, "fragment"},
		{"ws://host/mcp", &ws.Options{Header: map[string]string{"Bad Name": "x"}}, "invalid header"},
		{"ws://host/mcp", &ws.Options{Header: map[string]string{"X-Ok": "a\r\nb"}}, "invalid header"},
	} {
		t.Run(tc.url, func(t *testing.T) {
			_, err := ws.New(tc.url, tc.opts)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
	tr, err := ws.New("https://example.com:8443/mcp?x=1", nil)
	require.NoError(t, err)
	assert.Equal(t, "wss://example.com:8443/mcp?x=1", tr.URL())
	assert.Equal(t, "wss://example.com:8443", tr.EraKey())
}

// TestConnClose covers Close semantics on the raw connection.
func TestConnClose(t *testing.T) {
	srv := startGoServer(t)
	tr, err := ws.New(srv.URL, nil)
	require.NoError(t, err)
	conn, err := tr.Connect(testCtx(t))
	require.NoError(t, err)
	require.NoError(t, conn.Send(testCtx(t), &jsonrpc.Request{ID: jsonrpc.Int64ID(1), Method: "ping"}, nil))
	m, err := conn.Recv(testCtx(t))
	require.NoError(t, err)
	resp, ok := m.(*jsonrpc.Response)
	require.True(t, ok)
	assert.Equal(t, jsonrpc.Int64ID(1), resp.ID)
	require.NoError(t, conn.Close())
	require.NoError(t, conn.Close(), "Close is idempotent")
	_, err = conn.Recv(testCtx(t))
	assert.ErrorIs(t, err, errEOF)
	err = conn.Send(testCtx(t), &jsonrpc.Request{ID: jsonrpc.Int64ID(2), Method: "ping"}, nil)
	assert.ErrorIs(t, err, core.ErrClosed)
}

// TestConnectContextEndsAfterConnect: the context of Connect bounds the
// handshake only.
func TestConnectContextEndsAfterConnect(t *testing.T) {
	srv := startGoServer(t)
	tr, err := ws.New(srv.URL, nil)
	require.NoError(t, err)
	client := core.NewClient(&core.Implementation{Name: "t", Version: "1"}, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	s, err := client.Connect(ctx, tr, &core.ConnectOptions{ProtocolVersions: legacyOnly})
	require.NoError(t, err)
	defer s.Close()
	cancel()
	time.Sleep(50 * time.Millisecond)
	assert.Equal(t, "after", text(t, call(t, s, "echo", map[string]any{"text": "after"})))
}
