package fetch_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpwasm/mcpwasm/core"
	"github.com/mcpwasm/mcpwasm/transport/fetch"
)

// v1SessionServer answers like servers written from the TypeScript SDK v1
// examples: an unknown session id gets 400 with a JSON-RPC error naming
// it. refuseAll makes it refuse every session after initialize.
func v1SessionServer(t *testing.T, refuseAll bool) (*httptest.Server, *atomic.Int32, func()) {
	t.Helper()
	var mu sync.Mutex
	valid := map[string]bool{}
	var inits atomic.Int32
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			w.WriteHeader(http.StatusMethodNotAllowed)
			return
		}
		req := readReq(t, r)
		switch req.Method {
		case core.MethodDiscover:
			http.Error(w, "Bad Request", http.StatusBadRequest)
			return
		case core.MethodInitialize:
			id := fmt.Sprintf("session-%d", inits.Add(1))
			mu.Lock()
			valid[id] = true
			mu.Unlock()
			w.Header().Set("Mcp-Session-Id", id)
			writeJSON(w, req.ID, initResult)
			return
		}
		mu.Lock()
		ok := valid[r.Header.Get("Mcp-Session-Id")] && !(refuseAll && req.Method == core.MethodListTools)
		mu.Unlock()
		if !ok {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusBadRequest)
			fmt.Fprintf(w, `{"jsonrpc":"2.0","error":{"code":-32000,"message":"Bad Request: No valid session ID provided"},"id":%s}`, orNull(req.ID))
			return
		}
		if req.Method == core.NotificationInitialized {
			w.WriteHeader(http.StatusAccepted)
			return
		}
		writeJSON(w, req.ID, `{"tools":[]}`)
	}))
	t.Cleanup(hs.Close)
	forget := func() {
		mu.Lock()
		clear(valid)
		mu.Unlock()
	}
	return hs, &inits, forget
}

func orNull(id []byte) string {
	if len(id) == 0 {
		return "null"
	}
	return string(id)
}

func TestBadRequestNamingTheSessionIsExpiry(t *testing.T) {
	t.Run("re-initializes and retries", func(t *testing.T) {
		hs, inits, forget := v1SessionServer(t, false)
		s := connectTo(t, hs.URL, nil, nil)
		assert.Equal(t, "session-1", s.ID())
		forget()
		_, err := s.ListTools(ctxT(t), nil)
		require.NoError(t, err)
		assert.Equal(t, int32(2), inits.Load())
		assert.Equal(t, "session-2", s.ID())
	})
	t.Run("once per call, never in a loop", func(t *testing.T) {
		hs, inits, _ := v1SessionServer(t, true)
		s := connectTo(t, hs.URL, nil, nil)
		_, err := s.ListTools(ctxT(t), nil)
		require.ErrorIs(t, err, core.ErrSessionExpired)
		assert.Contains(t, err.Error(), "No valid session ID provided")
		assert.Equal(t, int32(2), inits.Load(), "one re-initialization")
	})
}

// TestModernLostResponseIsReissued: when a 2026-07-28 response stream ends
// before its response, the request is re-issued once with a new id.
func TestModernLostResponseIsReissued(t *testing.T) {
	var mu sync.Mutex
	var ids []string
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		req := readReq(t, r)
		if req.Method == core.MethodDiscover {
			writeJSON(w, req.ID, `{"resultType":"complete","supportedVersions":["2026-07-28"],"capabilities":{"tools":{}},"ttlMs":0,"cacheScope":"public"}`)
			return
		}
		mu.Lock()
		ids = append(ids, string(req.ID))
		n := len(ids)
		mu.Unlock()
		if n == 1 {
			w.Header().Set("Content-Type", "text/event-stream")
			fmt.Fprint(w, "id: 1\ndata: \n\n") // priming event, then the stream ends
			return
		}
		writeJSON(w, req.ID, `{"resultType":"complete","content":[{"type":"text","text":"done"}]}`)
	}))
	t.Cleanup(hs.Close)
	s := connectTo(t, hs.URL, nil, nil)
	r, err := s.CallTool(ctxT(t), &core.CallToolParams{Name: "t"}, nil)
	require.NoError(t, err)
	assert.Equal(t, "done", r.Content[0].Text)
	mu.Lock()
	defer mu.Unlock()
	require.Len(t, ids, 2)
	assert.NotEqual(t, ids[0], ids[1], "a new request id")
}

func TestUnexpectedAnswers(t *testing.T) {
	page := "<!DOCTYPE html>\n<html>\n  <body>\n    <h1>Sign in to the corporate proxy</h1>\n" + strings.Repeat("<p>lorem ipsum</p>\n", 200) + "</body></html>"
	var answer atomic.Value
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		req := readReq(t, r)
		if req.Method == core.MethodDiscover {
			writeJSON(w, req.ID, `{"resultType":"complete","supportedVersions":["2026-07-28"],"capabilities":{"tools":{}},"ttlMs":0,"cacheScope":"public"}`)
			return
		}
		switch answer.Load().(string) {
		case "html":
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			fmt.Fprint(w, page)
		case "html-error":
			w.Header().Set("Content-Type", "text/html")
			w.WriteHeader(http.StatusBadGateway)
			fmt.Fprint(w, page)
		case "plain-json":
			w.Header().Set("Content-Type", "text/plain")
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{"resultType":"complete","tools":[]}}`, req.ID)
		case "null":
			writeJSON(w, req.ID, `null`)
		}
	}))
	t.Cleanup(hs.Close)
	s := connectTo(t, hs.URL, nil, nil)

	answer.Store("html")
	_, err := s.ListTools(ctxT(t), nil)
	require.ErrorIs(t, err, fetch.ErrContentType)
	assert.Contains(t, err.Error(), `"text/html"`)
	assert.Contains(t, err.Error(), "Sign in to the corporate proxy")
	assert.NotContains(t, err.Error(), "malformed JSON")
	assert.NotContains(t, err.Error(), "\n", "one line")

	answer.Store("html-error")
	_, err = s.ListTools(ctxT(t), nil)
	var se *fetch.StatusError
	require.ErrorAs(t, err, &se)
	assert.Equal(t, page, se.Body, "the body is kept whole for the caller")
	assert.NotContains(t, err.Error(), "\n", "the message is one line")
	assert.LessOrEqual(t, len(err.Error()), 260)

	answer.Store("plain-json")
	_, err = s.ListTools(ctxT(t), nil)
	require.NoError(t, err, "JSON-RPC under the wrong Content-Type is still read")

	answer.Store("null")
	_, err = s.ListTools(ctxT(t), nil)
	require.ErrorIs(t, err, core.ErrInvalidResult, "result: null for tools/list")
	assert.Contains(t, err.Error(), "null result")
}

// TestLogFloodInOneResponse: one SSE response carrying 50,000 log
// notifications before its result, with a handler that has not returned
// yet, leaves at most MaxQueuedNotifications handlers queued.
func TestLogFloodInOneResponse(t *testing.T) {
	const flood = 50000
	hs := legacyServer(t, func(w http.ResponseWriter, r *http.Request, req rpcReq) {
		if r.Method != http.MethodPost {
			w.WriteHeader(http.StatusMethodNotAllowed)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		for i := range flood {
			fmt.Fprintf(w, "data: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{\"level\":\"info\",\"data\":\"line %d\"}}\n\n", i)
		}
		fmt.Fprintf(w, "data: {\"jsonrpc\":\"2.0\",\"id\":%s,\"result\":{\"tools\":[]}}\n\n", req.ID)
	})
	release := make(chan struct{})
	var handled atomic.Int32
	var dropped atomic.Int32
	s := connectTo(t, hs.URL, &core.ClientOptions{
		MaxQueuedNotifications: 256,
		LoggingHandler: func(context.Context, *core.Session, *core.LoggingMessageParams) {
			<-release
			handled.Add(1)
		},
		OnWarning: func(_ *core.Session, err error) {
			if errors.Is(err, core.ErrNotificationsDropped) {
				dropped.Add(1)
			}
		},
	}, nil)
	_, err := s.ListTools(ctxT(t), nil)
	require.NoError(t, err)
	assert.LessOrEqual(t, s.Stats().QueuedNotifications, 256)
	assert.Equal(t, int32(1), dropped.Load(), "one warning when dropping starts")
	close(release)
	require.Eventually(t, func() bool { return s.Stats().QueuedNotifications == 0 }, 10*time.Second, 5*time.Millisecond)
	assert.LessOrEqual(t, handled.Load(), int32(257))
}

// TestHostileGETStream: the GET stream answers every connection with
// "retry: 1" and one event without a message, then closes. The client used
// to reconnect thousands of times a second; now such streams count as
// failures, and after MaxReconnects of them the stream is given up and the
// application is told.
func TestHostileGETStream(t *testing.T) {
	var gets atomic.Int32
	var healthy atomic.Bool
	hs := legacyServer(t, func(w http.ResponseWriter, r *http.Request, req rpcReq) {
		if r.Method == http.MethodGet {
			n := gets.Add(1)
			w.Header().Set("Content-Type", "text/event-stream")
			if healthy.Load() {
				w.WriteHeader(200)
				fmt.Fprint(w, "data: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{\"level\":\"info\",\"data\":\"back\"}}\n\n")
				w.(http.Flusher).Flush()
				<-r.Context().Done()
				return
			}
			fmt.Fprintf(w, "retry: 1\nid: %d\ndata: \n\n", n)
			return
		}
		if r.Method == http.MethodDelete {
			return
		}
		writeJSON(w, req.ID, `{"tools":[]}`)
	})
	gaveUp := make(chan error, 1)
	logs := make(chan string, 4)
	s := connectTo(t, hs.URL, &core.ClientOptions{
		LoggingHandler: func(_ context.Context, _ *core.Session, m *core.LoggingMessageParams) { logs <- string(m.Data) },
		OnWarning: func(_ *core.Session, err error) {
			if errors.Is(err, fetch.ErrStreamGaveUp) {
				gaveUp <- err
			}
		},
	}, &fetch.Options{MaxReconnects: 4})
	require.NoError(t, s.BackgroundStreamErr())
	select {
	case err := <-gaveUp:
		assert.Contains(t, err.Error(), "after 4 attempts")
	case <-time.After(20 * time.Second):
		t.Fatalf("the GET stream never gave up (%d GETs)", gets.Load())
	}
	assert.Equal(t, int32(4), gets.Load(), "one connection per attempt, no more")
	require.ErrorIs(t, s.BackgroundStreamErr(), fetch.ErrStreamGaveUp)
	healthy.Store(true)
	_, err := s.ListTools(ctxT(t), nil)
	require.NoError(t, err, "calls still work")
	select {
	case m := <-logs:
		assert.Equal(t, `"back"`, m, "an accepted call re-opens the GET stream that gave up")
	case <-time.After(10 * time.Second):
		t.Fatal("the GET stream stayed given up")
	}
	require.NoError(t, s.BackgroundStreamErr())
}

// TestRetryPolicy: with ClientOptions.Retry, 429/502/503/504 answers are
// retried (after Retry-After when given) for requests that are safe to
// repeat, and never for a tool that does not say it is idempotent.
func TestRetryPolicy(t *testing.T) {
	var mu sync.Mutex
	failFor := map[string]int{}  // method or tool -> failures left
	attempts := map[string]int{} // method or tool -> attempts seen
	status := map[string]int{}   // method or tool -> status to fail with
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		req := readReq(t, r)
		if req.Method == core.MethodDiscover {
			writeJSON(w, req.ID, `{"resultType":"complete","supportedVersions":["2026-07-28"],"capabilities":{"tools":{}},"ttlMs":0,"cacheScope":"public"}`)
			return
		}
		key := req.Method
		if req.Method == core.MethodCallTool {
			key = r.Header.Get("Mcp-Name")
		}
		mu.Lock()
		attempts[key]++
		fail := failFor[key] > 0
		if fail {
			failFor[key]--
		}
		st := status[key]
		mu.Unlock()
		if fail {
			w.Header().Set("Retry-After", "0")
			http.Error(w, "busy", st)
			return
		}
		if req.Method == core.MethodListTools {
			writeJSON(w, req.ID, `{"resultType":"complete","tools":[`+
				`{"name":"charge","inputSchema":{"type":"object"}},`+
				`{"name":"lookup","inputSchema":{"type":"object"},"annotations":{"readOnlyHint":true}},`+
				`{"name":"put","inputSchema":{"type":"object"},"annotations":{"idempotentHint":true}}]}`)
			return
		}
		writeJSON(w, req.ID, `{"resultType":"complete","content":[{"type":"text","text":"ok"}]}`)
	}))
	t.Cleanup(hs.Close)
	set := func(key string, fails, st int) {
		mu.Lock()
		failFor[key], status[key], attempts[key] = fails, st, 0
		mu.Unlock()
	}
	seen := func(key string) int {
		mu.Lock()
		defer mu.Unlock()
		return attempts[key]
	}
	policy := &core.RetryPolicy{Attempts: 3, Delay: time.Millisecond}
	s := connectTo(t, hs.URL, &core.ClientOptions{Retry: policy, DisableCache: true}, nil)
	_, err := s.ListTools(ctxT(t), nil)
	require.NoError(t, err)

	for _, st := range []int{429, 502, 503, 504} {
		set(core.MethodListTools, 2, st)
		_, err = s.ListTools(ctxT(t), nil)
		require.NoError(t, err, "HTTP %d twice, then success", st)
		assert.Equal(t, 3, seen(core.MethodListTools))
	}

	set(core.MethodListTools, 5, 503)
	_, err = s.ListTools(ctxT(t), nil)
	var se *fetch.StatusError
	require.ErrorAs(t, err, &se, "bounded: three attempts")
	assert.Equal(t, 3, seen(core.MethodListTools))

	set(core.MethodListTools, 1, 500)
	_, err = s.ListTools(ctxT(t), nil)
	require.Error(t, err, "500 is not transient")
	assert.Equal(t, 1, seen(core.MethodListTools))

	set("charge", 1, 503)
	_, err = s.CallTool(ctxT(t), &core.CallToolParams{Name: "charge"}, nil)
	require.Error(t, err, "a tool that does not say it is idempotent is never repeated")
	assert.Equal(t, 1, seen("charge"))

	for _, tool := range []string{"lookup", "put"} {
		set(tool, 1, 503)
		_, err = s.CallTool(ctxT(t), &core.CallToolParams{Name: tool}, nil)
		require.NoError(t, err, "%s says readOnlyHint or idempotentHint", tool)
		assert.Equal(t, 2, seen(tool))
	}

	plain := connectTo(t, hs.URL, &core.ClientOptions{DisableCache: true}, nil)
	set(core.MethodListTools, 1, 503)
	_, err = plain.ListTools(ctxT(t), nil)
	require.Error(t, err, "no policy, no retry")
	assert.Equal(t, 1, seen(core.MethodListTools))
}
