//go:build js

package gojs_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"strings"
	"sync"
	"sync/atomic"
	"syscall/js"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpwasm/mcpwasm/core"
	jsws "github.com/mcpwasm/mcpwasm/internal/js/ws"
	"github.com/mcpwasm/mcpwasm/jsonrpc"
	"github.com/mcpwasm/mcpwasm/tests/gojs"
	"github.com/mcpwasm/mcpwasm/transport/ws"
)

func wsTransport(t *testing.T, url string, opts *ws.Options) *ws.Transport {
	t.Helper()
	o := ws.Options{}
	if opts != nil {
		o = *opts
	}
	if o.Dialer == nil {
		o.Dialer = jsws.Dialer{} // as wasm/js wires it
	}
	tr, err := ws.New(url, &o)
	require.NoError(t, err)
	return tr
}

// TestWSBridgeSession: a legacy session with server-everything (stdio
// behind the Node ws bridge) through Node 22's WebSocket.
func TestWSBridgeSession(t *testing.T) {
	url := env(t, gojs.EnvWSBridge)
	var sampled, elicited, progress atomic.Int32
	var mu sync.Mutex
	var sent []string
	s := connect(t, wsTransport(t, url, nil), nil, &core.ClientOptions{
		Roots: []*core.Root{{URI: "file:///from-wasm", Name: "wasm"}},
		SamplingHandler: func(context.Context, *core.CreateMessageRequest) (*core.CreateMessageResult, error) {
			sampled.Add(1)
			return &core.CreateMessageResult{Role: "assistant", Model: "wasm-model", Content: core.ContentList{core.TextContent("sampled")}}, nil
		},
		ElicitationHandler: func(context.Context, *core.ElicitRequest) (*core.ElicitResult, error) {
			elicited.Add(1)
			return &core.ElicitResult{Action: core.ActionDecline}, nil
		},
		OnMessage: func(_ *core.Session, dir core.Direction, m jsonrpc.Message) {
			if r, ok := m.(*jsonrpc.Request); ok && dir == core.Outgoing {
				mu.Lock()
				sent = append(sent, r.Method)
				mu.Unlock()
			}
		},
	})
	assert.Equal(t, core.EraLegacy, s.Era())
	require.NotNil(t, s.ServerInfo())
	assert.Contains(t, s.ServerInfo().Name, "everything")
	assert.Contains(t, text(t, call(t, s, "echo", map[string]any{"message": "from wasm"})), "from wasm")
	assert.Contains(t, text(t, call(t, s, "get-sum", map[string]any{"a": 19, "b": 23})), "42")

	r, err := s.CallTool(testCtx(t), &core.CallToolParams{Name: "trigger-long-running-operation", Arguments: map[string]any{"duration": 0.3, "steps": 3}},
		&core.CallOptions{OnProgress: func(*core.ProgressParams) { progress.Add(1) }})
	require.NoError(t, err)
	assert.Contains(t, text(t, r), "completed")
	require.Eventually(t, func() bool { return progress.Load() == 3 }, 5*time.Second, 10*time.Millisecond)

	assert.Contains(t, text(t, call(t, s, "trigger-sampling-request", map[string]any{"prompt": "hi", "maxTokens": 5})), "wasm-model")
	assert.Equal(t, int32(1), sampled.Load())
	call(t, s, "trigger-elicitation-request", nil)
	assert.Equal(t, int32(1), elicited.Load())
	assert.Contains(t, text(t, call(t, s, "get-roots-list", nil)), "file:///from-wasm")

	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	_, err = s.CallTool(ctx, &core.CallToolParams{Name: "trigger-long-running-operation", Arguments: map[string]any{"duration": 10, "steps": 2}}, nil)
	require.ErrorIs(t, err, context.DeadlineExceeded)
	require.Eventually(t, func() bool {
		mu.Lock()
		defer mu.Unlock()
		return len(sent) > 0 && sent[len(sent)-1] == core.NotificationCancelled
	}, 5*time.Second, 10*time.Millisecond, "notifications/cancelled was sent")
	assert.Contains(t, text(t, call(t, s, "echo", map[string]any{"message": "still here"})), "still here")
}

type injectResult struct {
	Connection int64             `json:"connection"`
	Cancelled  int64             `json:"cancelled"`
	Replies    []core.RawMessage `json:"replies"`
}

func inject(ctx context.Context, s *core.Session, params map[string]any) (*injectResult, error) {
	raw, err := s.Request(ctx, gojs.WSInjectMethod, params, &core.CallOptions{NoCache: true})
	if err != nil {
		return nil, err
	}
	var r injectResult
	if err := json.Unmarshal(raw, &r); err != nil {
		return nil, err
	}
	return &r, nil
}

// TestWSGoSessions: both eras against the official Go SDK server over
// WebSocket, through Node 22's WebSocket.
func TestWSGoSessions(t *testing.T) {
	url := env(t, gojs.EnvWSGo)
	for _, tc := range []struct {
		name     string
		versions []string
		era      core.Era
	}{{"legacy", legacyOnly, core.EraLegacy}, {"modern", nil, core.EraModern}} {
		t.Run(tc.name, func(t *testing.T) {
			var elicited atomic.Int32
			s := connect(t, wsTransport(t, url, nil), tc.versions, &core.ClientOptions{
				Roots: []*core.Root{{URI: "file:///w"}},
				ElicitationHandler: func(context.Context, *core.ElicitRequest) (*core.ElicitResult, error) {
					elicited.Add(1)
					return &core.ElicitResult{Action: core.ActionAccept, Content: map[string]any{"name": "Lin", "age": 3}}, nil
				},
				SamplingHandler: func(context.Context, *core.CreateMessageRequest) (*core.CreateMessageResult, error) {
					return &core.CreateMessageResult{Role: "assistant", Model: "m", Content: core.ContentList{core.TextContent("ok")}}, nil
				},
			})
			assert.Equal(t, tc.era, s.Era())
			assert.Equal(t, strings.Repeat("é", 1000), text(t, call(t, s, "echo", map[string]any{"text": strings.Repeat("é", 1000)})))

			var progress atomic.Int32
			r, err := s.CallTool(testCtx(t), &core.CallToolParams{Name: "progress", Arguments: map[string]any{"steps": 3, "delayMs": 10}},
				&core.CallOptions{OnProgress: func(*core.ProgressParams) { progress.Add(1) }})
			require.NoError(t, err)
			assert.Equal(t, "done", text(t, r))
			require.Eventually(t, func() bool { return progress.Load() == 3 }, 5*time.Second, 10*time.Millisecond)

			var multi map[string]any
			require.NoError(t, json.Unmarshal([]byte(text(t, call(t, s, "multi_input", nil))), &multi))
			assert.Equal(t, "Lin", multi["name"])
			assert.Equal(t, []any{"file:///w"}, multi["roots"])
			assert.Equal(t, int32(1), elicited.Load())

			before, err := inject(testCtx(t), s, map[string]any{})
			require.NoError(t, err)
			count := cancelledCount(t, s)
			ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
			defer cancel()
			_, err = s.CallTool(ctx, &core.CallToolParams{Name: "slow", Arguments: map[string]any{"ms": 10000}}, nil)
			require.ErrorIs(t, err, context.DeadlineExceeded)
			require.Eventually(t, func() bool { return cancelledCount(t, s) == count+1 }, 5*time.Second, 20*time.Millisecond, "the tool was cancelled")
			after, err := inject(testCtx(t), s, map[string]any{})
			require.NoError(t, err)
			assert.Equal(t, before.Cancelled+1, after.Cancelled, "notifications/cancelled went over the socket")
		})
	}
}

func TestWSMalformedFrames(t *testing.T) {
	var mu sync.Mutex
	var reported []error
	s := connect(t, wsTransport(t, env(t, gojs.EnvWSGo), nil), legacyOnly, &core.ClientOptions{
		OnWarning: func(*core.Session, error) {},
		OnMessage: func(_ *core.Session, dir core.Direction, m jsonrpc.Message) {
			if r, ok := m.(*jsonrpc.Response); ok && dir == core.Incoming && r.TransportErr != nil && !r.ID.IsValid() {
				mu.Lock()
				reported = append(reported, r.TransportErr)
				mu.Unlock()
			}
		},
	})
	_, err := inject(testCtx(t), s, map[string]any{"frames": []map[string]any{
		{"binary": base64.StdEncoding.EncodeToString([]byte("0123456789"))},
		{"text": "{not json"},
		{"text": `{"jsonrpc":"2.0","id":"wstest-js","method":7}`},
	}})
	require.NoError(t, err)
	assert.Equal(t, "alive", text(t, call(t, s, "echo", map[string]any{"text": "alive"})))
	require.Eventually(t, func() bool { mu.Lock(); defer mu.Unlock(); return len(reported) == 3 }, 5*time.Second, 10*time.Millisecond)
	mu.Lock()
	for i, want := range []string{"a binary frame (10 bytes)", "invalid character", "Invalid Request"} {
		assert.ErrorIs(t, reported[i], ws.ErrMalformed)
		assert.Contains(t, reported[i].Error(), want)
	}
	mu.Unlock()
	res, err := inject(testCtx(t), s, map[string]any{})
	require.NoError(t, err)
	require.NotEmpty(t, res.Replies)
	assert.Contains(t, string(res.Replies[len(res.Replies)-1]), `"id":"wstest-js"`)
	assert.Contains(t, string(res.Replies[len(res.Replies)-1]), `-32600`)

	_, err = inject(testCtx(t), s, map[string]any{"respond": "malformed"})
	require.ErrorIs(t, err, ws.ErrMalformed)
	assert.Equal(t, "still", text(t, call(t, s, "echo", map[string]any{"text": "still"})))
}

func TestWSServerClosesSocket(t *testing.T) {
	s := connect(t, wsTransport(t, env(t, gojs.EnvWSGo), nil), legacyOnly, nil)
	slow := make(chan error, 1)
	go func() {
		_, err := s.CallTool(testCtx(t), &core.CallToolParams{Name: "slow", Arguments: map[string]any{"ms": 10000}}, nil)
		slow <- err
	}()
	_, err := inject(testCtx(t), s, map[string]any{"delayMs": 100, "respond": "none", "close": map[string]any{"code": 4000, "reason": "bye from the server"}})
	var ce *ws.CloseError
	require.ErrorAs(t, err, &ce)
	assert.Equal(t, 4000, ce.Code)
	assert.Equal(t, "bye from the server", ce.Reason)
	assert.ErrorIs(t, err, core.ErrClosed)
	select {
	case err := <-slow:
		require.ErrorAs(t, err, &ce)
	case <-time.After(5 * time.Second):
		t.Fatal("the pending call did not fail")
	}
	<-s.Done()
}

func TestWSModernReconnect(t *testing.T) {
	s := connect(t, wsTransport(t, env(t, gojs.EnvWSGo), nil), nil, nil)
	require.Equal(t, core.EraModern, s.Era())
	first, err := inject(testCtx(t), s, map[string]any{})
	require.NoError(t, err)
	_, err = inject(testCtx(t), s, map[string]any{"respond": "none", "close": map[string]any{"code": 4001, "reason": "restart"}})
	require.ErrorIs(t, err, ws.ErrConnectionLost)
	assert.Equal(t, "back", text(t, call(t, s, "echo", map[string]any{"text": "back"})))
	second, err := inject(testCtx(t), s, map[string]any{})
	require.NoError(t, err)
	assert.Greater(t, second.Connection, first.Connection, "a new socket")
}

func TestWSErrors(t *testing.T) {
	url := env(t, gojs.EnvWSGo)
	t.Run("subprotocol not selected", func(t *testing.T) {
		// The JavaScript WebSocket itself fails a handshake that does not
		// select a subprotocol the client offered.
		_, err := wsTransport(t, strings.TrimSuffix(url, "/mcp")+"/no-subprotocol", nil).Connect(testCtx(t))
		require.ErrorIs(t, err, ws.ErrDial)
		assert.Contains(t, err.Error(), `"mcp" subprotocol`)
		assert.Contains(t, err.Error(), "did not respond with sent protocols", "Node says why")
	})
	t.Run("nothing listening", func(t *testing.T) {
		_, err := wsTransport(t, "ws"+strings.TrimPrefix(env(t, gojs.EnvClosed), "http")+"/mcp", nil).Connect(testCtx(t))
		require.ErrorIs(t, err, ws.ErrDial)
		var ce *ws.CloseError
		require.ErrorAs(t, err, &ce)
		assert.Equal(t, 1006, ce.Code)
	})
	t.Run("no WebSocket in the runtime", func(t *testing.T) {
		global := js.Global()
		saved := global.Get("WebSocket")
		global.Set("WebSocket", js.Undefined())
		defer global.Set("WebSocket", saved)
		_, err := wsTransport(t, url, nil).Connect(testCtx(t))
		require.ErrorIs(t, err, ws.ErrNoWebSocket)
		assert.Equal(t, "ws: this runtime has no WebSocket", err.Error())
	})
	t.Run("handshake headers are impossible", func(t *testing.T) {
		_, err := ws.New(url, &ws.Options{Header: map[string]string{"Authorization": "Bearer x"}, Dialer: jsws.Dialer{}})
		require.Error(t, err)
		assert.Contains(t, err.Error(), "cannot send handshake headers")
	})
	t.Run("no dialer: transport/ws has no JavaScript default", func(t *testing.T) {
		tr, err := ws.New(url, nil)
		require.NoError(t, err)
		_, err = tr.Connect(testCtx(t))
		require.ErrorIs(t, err, ws.ErrNoWebSocket)
		assert.Contains(t, err.Error(), "no Options.Dialer")
	})
	t.Run("message too large", func(t *testing.T) {
		s := connect(t, wsTransport(t, url, &ws.Options{MaxMessageSize: 8 << 10}), legacyOnly, nil)
		_, err := s.CallTool(testCtx(t), &core.CallToolParams{Name: "echo", Arguments: map[string]any{"text": strings.Repeat("x", 20<<10)}}, nil)
		require.ErrorIs(t, err, ws.ErrTooLarge)
		<-s.Done()
	})
}
