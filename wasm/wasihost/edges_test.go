package wasihost

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpwasm/mcpwasm/core"
	"github.com/mcpwasm/mcpwasm/tests/peerproc"
	"github.com/mcpwasm/mcpwasm/wasm/abi"
)

// onPump runs f on the pump goroutine (where guest calls are allowed).
func onPump(t *testing.T, h *Host, f func() error) error {
	t.Helper()
	return h.do(f)
}

// rawStatus calls an export with raw arguments and returns its status.
func rawStatus(t *testing.T, h *Host, name string, args ...uint64) (int32, string) {
	t.Helper()
	var code int32
	var msg string
	require.NoError(t, onPump(t, h, func() error {
		v, err := h.call(name, args...)
		if err != nil {
			return err
		}
		code = int32(uint32(v))
		if code < 0 {
			msg, err = h.lastError()
		}
		return err
	}))
	return code, msg
}

func TestPollReturnsWhenIdle(t *testing.T) {
	h := newHost(t, nil)
	start := time.Now()
	require.NoError(t, onPump(t, h, func() error {
		for range 200 {
			v, err := h.call(abi.ExportPoll)
			if err != nil {
				return err
			}
			if v != 0 {
				return errors.New("an idle guest returned events")
			}
		}
		return nil
	}))
	assert.Less(t, time.Since(start), 10*time.Second, "poll must return at once when nothing runs")
	require.NoError(t, h.Err())
}

// TestBadInputKeepsTheInstance feeds every export ids it never issued,
// malformed JSON and foreign buffers: each gets a clear status and the
// instance stays usable.
func TestBadInputKeepsTheInstance(t *testing.T) {
	h := newHost(t, nil)
	input := func(name string, data string, args ...uint64) error {
		return onPump(t, h, func() error {
			_, err := h.callInput(name, []byte(data), args...)
			return err
		})
	}
	status := func(name string, args ...uint64) error {
		return onPump(t, h, func() error {
			_, err := h.callStatus(name, args...)
			return err
		})
	}
	const unknown = 987654
	cases := []struct {
		name    string
		err     error
		want    error
		message string
	}{
		{"body for an unknown handle", input(abi.ExportHTTPBody, "data", unknown), ErrNotFound, "no open HTTP handle"},
		{"end of an unknown handle", input(abi.ExportHTTPEnd, "", unknown), ErrNotFound, "no open HTTP handle"},
		{"head of an unknown handle", input(abi.ExportHTTPResponse, `{"status":200}`, unknown), ErrNotFound, "no open HTTP handle"},
		{"answer without result or error", input(abi.ExportAnswer, `{}`, unknown), ErrInvalid, "exactly one of result and error"},
		{"answer with a result to an unknown request", input(abi.ExportAnswer, `{"result":{"roots":[]}}`, unknown), ErrNotFound, "no open request"},
		{"malformed answer", input(abi.ExportAnswer, `{"result":`, unknown), ErrInvalid, "answer"},
		{"cancel of an unknown operation", status(abi.ExportCancel, unknown), ErrNotFound, "no running operation"},
		{"free of an unknown client", status(abi.ExportClientFree, unknown), ErrNotFound, "no client"},
		{"request on an unknown session", input(abi.ExportRequest, `{"method":"ping"}`, unknown), ErrNotFound, "no session"},
		{"close of an unknown session", status(abi.ExportClose, unknown), ErrNotFound, "no session"},
		{"connect of an unknown client", input(abi.ExportConnect, `{"url":"http://127.0.0.1:1/mcp"}`, unknown), ErrNotFound, "no client"},
		{"malformed config", input(abi.ExportClientNew, `{"clientInfo":`), ErrInvalid, "client options"},
		{"unknown config member", input(abi.ExportClientNew, `{"clientInfo":{"name":"a","version":"1"},"bogus":1}`), ErrInvalid, "bogus"},
		{"missing clientInfo", input(abi.ExportClientNew, `{}`), ErrInvalid, "clientInfo needs a name and a version"},
		{"unsupported version", input(abi.ExportClientNew, `{"clientInfo":{"name":"a","version":"1"},"protocolVersions":["1999-01-01"]}`), ErrInvalid, "unsupported protocol version"},
		{"unknown elicitation mode", input(abi.ExportClientNew, `{"clientInfo":{"name":"a","version":"1"},"elicitationModes":["telepathy"]}`), ErrInvalid, "telepathy"},
		{"unknown debug trap", status(abi.ExportDebugTrap, 99), ErrInvalid, "unknown trap kind"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			require.ErrorIs(t, c.err, c.want)
			assert.Contains(t, c.err.Error(), c.message)
		})
	}

	t.Run("buffers", func(t *testing.T) {
		code, msg := rawStatus(t, h, abi.ExportClientNew, 64, 8)
		assert.Equal(t, int32(abi.StatusInvalid), code)
		assert.Contains(t, msg, "was not allocated with mcpwasm_alloc")

		var ptr uint32
		require.NoError(t, onPump(t, h, func() error {
			v, err := h.call(abi.ExportAlloc, 16)
			ptr = uint32(v)
			return err
		}))
		require.NotZero(t, ptr)
		code, msg = rawStatus(t, h, abi.ExportClientNew, uint64(ptr), 17)
		assert.Equal(t, int32(abi.StatusInvalid), code, "a length beyond the allocation")
		assert.Contains(t, msg, "exceeds")
		code, _ = rawStatus(t, h, abi.ExportFree, uint64(ptr))
		assert.Equal(t, int32(abi.StatusNotFound), code, "the failed call consumed the buffer")

		require.NoError(t, onPump(t, h, func() error {
			v, err := h.call(abi.ExportAlloc, 16)
			ptr = uint32(v)
			return err
		}))
		code, _ = rawStatus(t, h, abi.ExportFree, uint64(ptr))
		assert.Equal(t, int32(abi.StatusOK), code)
		code, _ = rawStatus(t, h, abi.ExportFree, uint64(ptr))
		assert.Equal(t, int32(abi.StatusNotFound), code, "double free")
	})

	t.Run("invalid connect options", func(t *testing.T) {
		_, err := h.Connect(testCtx(t), "ftp://example.com/mcp", nil)
		require.ErrorIs(t, err, ErrInvalid)
		_, err = h.Connect(testCtx(t), "http://127.0.0.1:1/mcp", &ConnectOptions{ProtocolVersions: []string{"1999-01-01"}})
		require.ErrorIs(t, err, ErrInvalid)
		_, err = h.Connect(testCtx(t), "http://127.0.0.1:1/mcp", &ConnectOptions{ListChanged: []string{"weather"}})
		require.ErrorIs(t, err, ErrInvalid)
	})

	require.NoError(t, h.Err())
	url := peerproc.GoSDKServer(t, peerproc.DemoOptions{Modern: true}) + peerproc.MCPPath
	s, err := h.Connect(testCtx(t), url, nil)
	require.NoError(t, err, "the instance still works")
	assert.Equal(t, "ok", callTool(t, s, "echo", map[string]any{"text": "ok"}).text())
	_, err = s.Request(testCtx(t), "tools/call", json.RawMessage(`[1,2]`), nil)
	require.ErrorIs(t, err, ErrInvalid, "params must be an object")
	require.NoError(t, s.Close())
	assertNoHandles(t, h)
}

func assertNoHandles(t *testing.T, h *Host) {
	t.Helper()
	require.Eventually(t, func() bool {
		var n int
		_ = h.do(func() error { n = len(h.handles) + len(h.ops) + len(h.questions); return nil })
		return n == 0
	}, 5*time.Second, 10*time.Millisecond, "every HTTP handle, operation and question was released")
}

// hangingServer delegates to the Go SDK server, except that POSTs whose
// body contains "hang-me" get no answer until the client goes away.
func hangingServer(t *testing.T) (url string, aborted *atomic.Int32) {
	t.Helper()
	proxy := peerproc.Proxy(t, peerproc.GoSDKServer(t, peerproc.DemoOptions{Modern: true}))
	aborted = &atomic.Int32{}
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost {
			body, _ := io.ReadAll(r.Body)
			if bytes.Contains(body, []byte("hang-me")) {
				select {
				case <-r.Context().Done():
					aborted.Add(1)
				case <-time.After(30 * time.Second):
				}
				return
			}
			r.Body = io.NopCloser(bytes.NewReader(body))
		}
		proxy.ServeHTTP(w, r)
	}))
	t.Cleanup(func() {
		hs.CloseClientConnections()
		hs.Close()
	})
	return hs.URL + peerproc.MCPPath, aborted
}

// TestWaitingOnTheHost: while the guest waits for an HTTP answer the pump
// keeps returning (no export blocks, nothing traps), and cancellation —
// the caller's context or the guest's own timer — travels back out as
// http_close, which aborts the host's request.
func TestWaitingOnTheHost(t *testing.T) {
	h := newHost(t, nil)
	url, aborted := hangingServer(t)
	s, err := h.Connect(testCtx(t), url, nil)
	require.NoError(t, err)
	hang := map[string]any{"name": "echo", "arguments": map[string]any{"text": "hang-me"}}

	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	_, err = s.Request(ctx, "tools/call", hang, nil)
	require.ErrorIs(t, err, context.DeadlineExceeded)
	require.Eventually(t, func() bool { return aborted.Load() == 1 }, 5*time.Second, 10*time.Millisecond, "the host aborted the HTTP request")

	_, err = s.Request(testCtx(t), "tools/call", hang, &RequestOptions{Timeout: 300 * time.Millisecond})
	require.ErrorIs(t, err, core.ErrTimeout, "the guest's timer advanced while the host pumped")
	require.Eventually(t, func() bool { return aborted.Load() == 2 }, 5*time.Second, 10*time.Millisecond)

	assert.Equal(t, "fine", callTool(t, s, "echo", map[string]any{"text": "fine"}).text())
	require.NoError(t, h.Err())
	require.NoError(t, s.Close())
	assertNoHandles(t, h)
}

// TestConnectFailures: transport errors surface as Go errors and leave the
// instance usable.
func TestConnectFailures(t *testing.T) {
	h := newHost(t, nil)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	closedURL := "http://" + l.Addr().String() + "/mcp"
	require.NoError(t, l.Close())
	_, err = h.Connect(testCtx(t), closedURL, &ConnectOptions{Mode: "streamable-http"})
	require.Error(t, err)
	assert.ErrorIs(t, err, ErrTransport, "got %v", err)

	url, _ := hangingServer(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = h.Connect(ctx, url, nil)
	require.ErrorIs(t, err, context.Canceled)
	require.NoError(t, h.Err())
	assertNoHandles(t, h)
}

// TestTraps: a trap ends the instance; everything pending fails with
// ErrTrapped and the Host is never used again.
func TestTraps(t *testing.T) {
	t.Run("panic with calls in flight", func(t *testing.T) {
		h := newHost(t, nil)
		url := peerproc.GoSDKServer(t, peerproc.DemoOptions{Modern: true}) + peerproc.MCPPath
		handlerDone := make(chan error, 1)
		asked := make(chan struct{})
		s, err := h.Connect(testCtx(t), url, &ConnectOptions{Handlers: Handlers{
			Elicitation: func(ctx context.Context, _ json.RawMessage) (json.RawMessage, error) {
				close(asked)
				<-ctx.Done()
				handlerDone <- ctx.Err()
				return nil, ctx.Err()
			},
		}})
		require.NoError(t, err)
		slow := make(chan error, 1)
		go func() {
			_, err := s.Request(testCtx(t), "tools/call", map[string]any{"name": "slow", "arguments": map[string]any{"ms": 20000}}, nil)
			slow <- err
		}()
		elicit := make(chan error, 1)
		go func() {
			_, err := s.Request(testCtx(t), "tools/call", map[string]any{"name": "elicit"}, nil)
			elicit <- err
		}()
		select {
		case <-asked:
		case <-time.After(10 * time.Second):
			t.Fatal("the elicitation handler was not called")
		}

		err = onPump(t, h, func() error {
			_, err := h.call(abi.ExportDebugTrap, abi.TrapPanic)
			return err
		})
		require.ErrorIs(t, err, ErrTrapped)
		for name, ch := range map[string]chan error{"slow": slow, "elicit": elicit} {
			select {
			case err := <-ch:
				require.ErrorIs(t, err, ErrTrapped, name)
			case <-time.After(5 * time.Second):
				t.Fatalf("%s did not fail after the trap", name)
			}
		}
		select {
		case err := <-handlerDone:
			require.ErrorIs(t, err, context.Canceled, "the handler's context ends with the instance")
		case <-time.After(5 * time.Second):
			t.Fatal("the handler's context did not end")
		}
		<-h.Done()
		require.ErrorIs(t, h.Err(), ErrTrapped)
		assert.Contains(t, h.Err().Error(), "mcpwasm_debug_trap(TrapPanic)", "the guest's panic report is kept")
		<-s.Done()
		require.ErrorIs(t, s.Err(), ErrTrapped)

		_, err = s.Request(testCtx(t), "tools/call", map[string]any{"name": "echo"}, nil)
		require.ErrorIs(t, err, ErrTrapped, "the session is not reused")
		_, err = h.Connect(testCtx(t), url, nil)
		require.ErrorIs(t, err, ErrTrapped, "the instance is not reused")
		require.NoError(t, s.Close())
		require.NoError(t, h.Close())
	})

	t.Run("deadlock", func(t *testing.T) {
		h := newHost(t, nil)
		err := onPump(t, h, func() error {
			_, err := h.call(abi.ExportDebugTrap, abi.TrapDeadlock)
			return err
		})
		require.ErrorIs(t, err, ErrTrapped)
		assert.Contains(t, err.Error(), "deadlock", "an export that blocks with nothing to wake it traps")
		_, err = h.Connect(testCtx(t), "http://127.0.0.1:1/mcp", nil)
		require.ErrorIs(t, err, ErrTrapped)
	})

	t.Run("out of memory", func(t *testing.T) {
		const pages = 2048 // 128 MiB
		h := newHost(t, &Options{MemoryLimitPages: pages})
		err := onPump(t, h, func() error {
			_, err := h.call(abi.ExportAlloc, pages*65536)
			return err
		})
		require.ErrorIs(t, err, ErrTrapped)
		assert.Contains(t, strings.ToLower(err.Error()), "out of memory")
		<-h.Done()
	})
}

// TestCloseWithCallsInFlight: Close fails pending calls with core.ErrClosed.
func TestCloseWithCallsInFlight(t *testing.T) {
	h := newHost(t, nil)
	url := peerproc.GoSDKServer(t, peerproc.DemoOptions{Modern: true}) + peerproc.MCPPath
	s, err := h.Connect(testCtx(t), url, nil)
	require.NoError(t, err)
	slow := make(chan error, 1)
	go func() {
		_, err := s.Request(testCtx(t), "tools/call", map[string]any{"name": "slow", "arguments": map[string]any{"ms": 20000}}, nil)
		slow <- err
	}()
	time.Sleep(200 * time.Millisecond)
	require.NoError(t, h.Close())
	select {
	case err := <-slow:
		require.ErrorIs(t, err, core.ErrClosed)
	case <-time.After(5 * time.Second):
		t.Fatal("the pending request did not fail")
	}
	require.ErrorIs(t, s.Err(), core.ErrClosed)
	require.ErrorIs(t, h.Err(), core.ErrClosed)
	_, err = h.Connect(testCtx(t), url, nil)
	require.ErrorIs(t, err, core.ErrClosed)
}
