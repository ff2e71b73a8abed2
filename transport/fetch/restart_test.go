package fetch_test

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpwasm/mcpwasm/core"
	"github.com/mcpwasm/mcpwasm/transport/fetch"
)

// restartable serves h on one 127.0.0.1 address that survives a restart:
// stop closes the server and its connections (the port refuses
// connections until start), start serves again on the same address.
type restartable struct {
	t    *testing.T
	addr string
	h    http.Handler
	srv  *http.Server
}

func newRestartable(t *testing.T, h http.Handler) *restartable {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	r := &restartable{t: t, addr: ln.Addr().String(), h: h}
	r.serve(ln)
	t.Cleanup(r.stop)
	return r
}

func (r *restartable) serve(ln net.Listener) {
	r.srv = &http.Server{Handler: r.h}
	go r.srv.Serve(ln)
}

func (r *restartable) stop() { r.srv.Close() }

func (r *restartable) start() {
	var ln net.Listener
	var err error
	for range 50 {
		if ln, err = net.Listen("tcp", r.addr); err == nil {
			break
		}
		time.Sleep(20 * time.Millisecond) // the port may linger briefly
	}
	require.NoError(r.t, err)
	r.serve(ln)
}

// TestLegacyStreamsSurviveAServerRestart: the server restarts (connections
// refused meanwhile, every session forgotten). The next call re-initializes
// and the GET stream is opened on the new session: a notification the new
// server sends on it arrives.
func TestLegacyStreamsSurviveAServerRestart(t *testing.T) {
	var generation atomic.Int32
	generation.Store(1)
	var getsRefused atomic.Int32
	notes := make(chan string, 16)
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		gen := fmt.Sprint(generation.Load())
		sid := r.Header.Get("Mcp-Session-Id")
		known := sid == "s"+gen
		switch r.Method {
		case http.MethodGet:
			if !known {
				getsRefused.Add(1)
				http.Error(w, "Bad Request: No valid session ID provided", http.StatusBadRequest)
				return
			}
			w.Header().Set("Content-Type", "text/event-stream")
			w.WriteHeader(200)
			fmt.Fprintf(w, "data: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{\"level\":\"info\",\"data\":\"hello from generation %s\"}}\n\n", gen)
			w.(http.Flusher).Flush()
			<-r.Context().Done()
			return
		case http.MethodDelete:
			return
		}
		answerLegacyPOST(t, w, r, "s"+gen, known, http.StatusBadRequest, "Bad Request: No valid session ID provided")
	})
	srv := newRestartable(t, h)
	s := connectTo(t, "http://"+srv.addr+"/mcp", &core.ClientOptions{
		LoggingHandler: func(_ context.Context, _ *core.Session, m *core.LoggingMessageParams) { notes <- string(m.Data) },
	}, &fetch.Options{Retry: 50 * time.Millisecond})
	require.Equal(t, `"hello from generation 1"`, <-notes)

	srv.stop()
	generation.Store(2)
	_, err := s.ListTools(ctxT(t), nil)
	require.Error(t, err, "connection refused while the server is down")
	srv.start()
	// The old GET stream retries and is told its session is gone.
	require.Eventually(t, func() bool { return getsRefused.Load() > 0 }, 10*time.Second, 5*time.Millisecond)

	_, err = s.ListTools(ctxT(t), nil)
	require.NoError(t, err, "re-initialized on the restarted server")
	assert.Equal(t, "s2", s.ID())
	select {
	case n := <-notes:
		assert.Equal(t, `"hello from generation 2"`, n, "the GET stream is back on the new session")
	case <-time.After(10 * time.Second):
		t.Fatal("no GET stream on the restarted server")
	}
	require.NoError(t, s.BackgroundStreamErr())
}

// TestModernListenStreamSurvivesAServerRestart: the session's own
// subscriptions/listen stream is re-opened after the server restarts
// (connections refused meanwhile), and changes reach the handler again.
func TestModernListenStreamSurvivesAServerRestart(t *testing.T) {
	var listens atomic.Int32
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		req := readReq(t, r)
		switch req.Method {
		case core.MethodDiscover:
			writeJSON(w, req.ID, `{"resultType":"complete","supportedVersions":["2026-07-28"],"capabilities":{"tools":{"listChanged":true}},"ttlMs":0,"cacheScope":"public"}`)
		case core.MethodListen:
			n := listens.Add(1)
			w.Header().Set("Content-Type", "text/event-stream")
			w.WriteHeader(200)
			meta := fmt.Sprintf(`{"io.modelcontextprotocol/subscriptionId":%s}`, req.ID)
			fmt.Fprintf(w, "data: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/subscriptions/acknowledged\",\"params\":{\"_meta\":%s,\"notifications\":{\"toolsListChanged\":true}}}\n\n", meta)
			fmt.Fprintf(w, "data: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/tools/list_changed\",\"params\":{\"_meta\":%s,\"n\":%d}}\n\n", meta, n)
			w.(http.Flusher).Flush()
			<-r.Context().Done()
		default:
			writeJSON(w, req.ID, `{"resultType":"complete","tools":[]}`)
		}
	})
	srv := newRestartable(t, h)
	changed := make(chan struct{}, 16)
	refused := &countingDoer{d: fetch.DefaultDoer()}
	connectTo(t, "http://"+srv.addr+"/mcp", &core.ClientOptions{
		ToolListChangedHandler: func(context.Context, *core.Session) { changed <- struct{}{} },
		ProbeTimeout:           time.Second,
	}, &fetch.Options{HTTP: refused})
	wait := func(what string) {
		t.Helper()
		select {
		case <-changed:
		case <-time.After(20 * time.Second):
			t.Fatal(what)
		}
	}
	wait("no change on the first stream")
	srv.stop()
	require.Eventually(t, func() bool { return refused.errs.Load() >= 2 }, 20*time.Second, 5*time.Millisecond,
		"the client keeps trying while the server is down")
	srv.start()
	wait("the listen stream did not come back after the restart")
	assert.GreaterOrEqual(t, listens.Load(), int32(2))
}

// countingDoer counts the requests that failed before any answer
// (connection refused while the server is down).
type countingDoer struct {
	d    fetch.Doer
	errs atomic.Int32
}

func (c *countingDoer) Do(ctx context.Context, req *fetch.Request) (*fetch.Response, error) {
	resp, err := c.d.Do(ctx, req)
	if err != nil && ctx.Err() == nil {
		c.errs.Add(1)
	}
	return resp, err
}

// TestReissuedListenKeepsOneSubscription: a listen stream that ends before
// its response is re-issued under a new id; the subscription is known by
// the new id only.
func TestReissuedListenKeepsOneSubscription(t *testing.T) {
	var listens atomic.Int32
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		req := readReq(t, r)
		switch req.Method {
		case core.MethodDiscover:
			writeJSON(w, req.ID, `{"resultType":"complete","supportedVersions":["2026-07-28"],"capabilities":{"tools":{"listChanged":true}},"ttlMs":0,"cacheScope":"public"}`)
		case core.MethodListen:
			n := listens.Add(1)
			w.Header().Set("Content-Type", "text/event-stream")
			w.WriteHeader(200)
			meta := fmt.Sprintf(`{"io.modelcontextprotocol/subscriptionId":%s}`, req.ID)
			fmt.Fprintf(w, "data: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/subscriptions/acknowledged\",\"params\":{\"_meta\":%s,\"notifications\":{\"toolsListChanged\":true}}}\n\n", meta)
			w.(http.Flusher).Flush()
			if n == 1 {
				return // the first stream ends before its response
			}
			<-r.Context().Done()
		default:
			writeJSON(w, req.ID, `{"resultType":"complete","tools":[]}`)
		}
	}))
	t.Cleanup(func() { hs.CloseClientConnections(); hs.Close() })
	s := connectTo(t, hs.URL, nil, nil)
	sub, err := s.Listen(ctxT(t), &core.SubscriptionFilter{ToolsListChanged: true}, nil)
	require.NoError(t, err)
	require.Eventually(t, func() bool { return listens.Load() == 2 }, 10*time.Second, 5*time.Millisecond)
	require.Eventually(t, func() bool { return s.Stats().Pending == 1 }, 10*time.Second, 5*time.Millisecond)
	assert.Equal(t, 1, s.Stats().Subscriptions)
	require.NoError(t, sub.Close())
	assert.Equal(t, 0, s.Stats().Subscriptions)
}

// TestLegacyGETStreamFollowsAReinitialization: the session is
// re-initialized while the old GET stream's retry is still out (the
// server holds its refusal until the new session's first request, which
// comes after its notifications/initialized was answered). The
// new session's notifications/initialized finds the old stream running;
// when that stream is refused it starts again on the new session instead
// of ending, so the new session has a GET stream.
func TestLegacyGETStreamFollowsAReinitialization(t *testing.T) {
	var generation atomic.Int32
	generation.Store(1)
	notes := make(chan string, 16)
	dropOld := make(chan struct{})
	heldStale := make(chan struct{}, 16)
	listed2 := make(chan struct{})
	var closeListed2 sync.Once
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		gen := fmt.Sprint(generation.Load())
		sid := r.Header.Get("Mcp-Session-Id")
		known := sid == "s"+gen
		if r.Method == http.MethodGet {
			if !known {
				heldStale <- struct{}{}
				select { // the refusal comes after the new session's first request
				case <-listed2:
				case <-time.After(5 * time.Second):
				}
				http.Error(w, "Not Found: unknown session", http.StatusNotFound)
				return
			}
			w.Header().Set("Content-Type", "text/event-stream")
			w.WriteHeader(200)
			fmt.Fprintf(w, "data: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{\"level\":\"info\",\"data\":\"hello from generation %s\"}}\n\n", gen)
			w.(http.Flusher).Flush()
			select {
			case <-r.Context().Done():
			case <-dropOld:
			}
			return
		}
		if r.Method == http.MethodDelete {
			return
		}
		if answerLegacyPOST(t, w, r, "s"+gen, known, http.StatusNotFound, "Not Found: unknown session") == core.MethodListTools && gen == "2" {
			closeListed2.Do(func() { close(listed2) })
		}
	}))
	defer hs.Close()
	s := connectTo(t, hs.URL+"/mcp", &core.ClientOptions{
		LoggingHandler: func(_ context.Context, _ *core.Session, m *core.LoggingMessageParams) { notes <- string(m.Data) },
	}, &fetch.Options{Retry: 50 * time.Millisecond})
	require.Equal(t, `"hello from generation 1"`, <-notes)

	generation.Store(2) // the server forgets session s1
	close(dropOld)      // and its GET stream ends: the client retries it with s1
	select {
	case <-heldStale:
	case <-time.After(10 * time.Second):
		t.Fatal("the GET stream was not retried")
	}
	_, err := s.ListTools(ctxT(t), nil)
	require.NoError(t, err, "re-initialized")
	assert.Equal(t, "s2", s.ID())
	select {
	case n := <-notes:
		assert.Equal(t, `"hello from generation 2"`, n, "the GET stream is back on the new session")
	case <-time.After(10 * time.Second):
		t.Fatal("no GET stream on the new session")
	}
}

// answerLegacyPOST answers a POST as a legacy server whose session is sid
// (known: the request carried it): 400 to the era probe, sid to
// initialize, status and msg to another session's request, 202 to
// notifications/initialized, an empty tool list to the rest. It returns
// the request's method when it was answered as the session's.
func answerLegacyPOST(t *testing.T, w http.ResponseWriter, r *http.Request, sid string, known bool, status int, msg string) string {
	t.Helper()
	req := readReq(t, r)
	switch {
	case req.Method == core.MethodDiscover:
		http.Error(w, "Bad Request", http.StatusBadRequest)
	case req.Method == core.MethodInitialize:
		w.Header().Set("Mcp-Session-Id", sid)
		writeJSON(w, req.ID, initResult)
	case !known:
		http.Error(w, msg, status)
		return ""
	case req.Method == core.NotificationInitialized:
		w.WriteHeader(http.StatusAccepted)
	default:
		writeJSON(w, req.ID, `{"tools":[]}`)
	}
	return req.Method
}
