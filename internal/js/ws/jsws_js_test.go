//go:build js

package jsws_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"os"
	"strings"
	"syscall/js"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"

	"github.com/mcpwasm/mcpwasm/internal/js/ws"
	"github.com/mcpwasm/mcpwasm/tests/gojs"
)

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m, goleak.IgnoreAnyFunction("runtime.handleEvent"))
}

func wsURL(t *testing.T) string {
	t.Helper()
	v := os.Getenv(gojs.EnvWSGo)
	if v == "" {
		t.Fatalf("%s is not set: %s", gojs.EnvWSGo, gojs.Hint)
	}
	return v
}

func testCtx(t *testing.T) context.Context {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// injectFrame is a wstest/inject request (see harness/wsserver) sent as a
// raw text frame.
func injectFrame(t *testing.T, id int, params map[string]any) []byte {
	t.Helper()
	b, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "method": "wstest/inject", "params": params})
	require.NoError(t, err)
	return b
}

func TestFrames(t *testing.T) {
	s, err := jsws.Dial(testCtx(t), wsURL(t), []string{"mcp"}, 1<<20)
	require.NoError(t, err)
	assert.Equal(t, "mcp", s.Protocol())
	bin := []byte{0, 1, 2, 0xff}
	require.NoError(t, s.SendText(injectFrame(t, 1, map[string]any{"frames": []map[string]any{
		{"text": "plain ✓ text"},
		{"binary": base64.StdEncoding.EncodeToString(bin)},
	}})))
	m, err := s.Read(testCtx(t))
	require.NoError(t, err)
	assert.Equal(t, jsws.Message{Text: true, Data: []byte("plain ✓ text")}, m)
	m, err = s.Read(testCtx(t))
	require.NoError(t, err)
	assert.Equal(t, jsws.Message{Text: false, Data: bin}, m)
	m, err = s.Read(testCtx(t))
	require.NoError(t, err)
	assert.True(t, m.Text)
	assert.Contains(t, string(m.Data), `"id":1`)
	assert.Zero(t, s.BufferedAmount())

	// The server closes with a code and reason of its own.
	require.NoError(t, s.SendText(injectFrame(t, 2, map[string]any{"respond": "none", "close": map[string]any{"code": 4321, "reason": "server says bye"}})))
	_, err = s.Read(testCtx(t))
	var ce *jsws.CloseError
	require.ErrorAs(t, err, &ce)
	assert.Equal(t, 4321, ce.Code)
	assert.Equal(t, "server says bye", ce.Reason)
	assert.True(t, ce.WasClean)
	assert.False(t, ce.BeforeOpen)
	err = s.SendText([]byte("late"))
	require.ErrorIs(t, err, jsws.ErrNotOpen)
}

func TestReadContext(t *testing.T) {
	s, err := jsws.Dial(testCtx(t), wsURL(t), []string{"mcp"}, 0)
	require.NoError(t, err)
	defer s.Abort()
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	_, err = s.Read(ctx)
	require.ErrorIs(t, err, context.DeadlineExceeded)
}

func TestClientClose(t *testing.T) {
	s, err := jsws.Dial(testCtx(t), wsURL(t), []string{"mcp"}, 0)
	require.NoError(t, err)
	// 1002 is not a code scripts may send: it is sent as 1000; the long
	// reason is cut to the 123 bytes a close frame allows.
	require.NoError(t, s.Close(testCtx(t), 1002, strings.Repeat("é", 100)))
	_, err = s.Read(testCtx(t))
	var ce *jsws.CloseError
	require.ErrorAs(t, err, &ce)
	assert.Equal(t, 1000, ce.Code)
	assert.LessOrEqual(t, len(ce.Reason), 123)
	assert.True(t, strings.HasPrefix(ce.Reason, "éé"))
}

func TestTooLarge(t *testing.T) {
	s, err := jsws.Dial(testCtx(t), wsURL(t), []string{"mcp"}, 100)
	require.NoError(t, err)
	require.NoError(t, s.SendText(injectFrame(t, 1, map[string]any{"respond": "none", "frames": []map[string]any{{"text": strings.Repeat("x", 101)}}})))
	_, err = s.Read(testCtx(t))
	require.ErrorIs(t, err, jsws.ErrTooLarge)
	assert.Contains(t, err.Error(), "101 bytes, the limit is 100")
}

func TestDialFailures(t *testing.T) {
	t.Run("refused", func(t *testing.T) {
		closed := os.Getenv(gojs.EnvClosed)
		require.NotEmpty(t, closed, gojs.Hint)
		_, err := jsws.Dial(testCtx(t), "ws"+strings.TrimPrefix(closed, "http"), []string{"mcp"}, 0)
		var ce *jsws.CloseError
		require.ErrorAs(t, err, &ce)
		assert.Equal(t, 1006, ce.Code)
		assert.True(t, ce.BeforeOpen)
	})
	t.Run("subprotocol not selected", func(t *testing.T) {
		_, err := jsws.Dial(testCtx(t), strings.TrimSuffix(wsURL(t), "/mcp")+"/no-subprotocol", []string{"mcp"}, 0)
		var ce *jsws.CloseError
		require.ErrorAs(t, err, &ce, "the WebSocket API fails such a handshake")
		assert.True(t, ce.BeforeOpen)
	})
	t.Run("no subprotocol offered", func(t *testing.T) {
		s, err := jsws.Dial(testCtx(t), strings.TrimSuffix(wsURL(t), "/mcp")+"/no-subprotocol", nil, 0)
		require.NoError(t, err)
		assert.Equal(t, "", s.Protocol())
		s.Abort()
	})
	t.Run("context ends", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		_, err := jsws.Dial(ctx, wsURL(t), []string{"mcp"}, 0)
		require.ErrorIs(t, err, context.Canceled)
	})
	t.Run("no WebSocket", func(t *testing.T) {
		global := js.Global()
		saved := global.Get("WebSocket")
		global.Set("WebSocket", js.Undefined())
		defer global.Set("WebSocket", saved)
		assert.False(t, jsws.Available())
		_, err := jsws.Dial(testCtx(t), wsURL(t), []string{"mcp"}, 0)
		require.ErrorIs(t, err, jsws.ErrNoWebSocket)
	})
}
