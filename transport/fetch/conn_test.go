package fetch_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
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
	"github.com/mcpwasm/mcpwasm/internal/rawjson"
	"github.com/mcpwasm/mcpwasm/transport/fetch"
)

// These tests use small scripted servers for faults real servers do not
// produce on purpose: expired sessions, broken streams, malformed events,
// oversized bodies. The protocol itself is tested against real servers in
// harness/integration.

type rpcReq struct {
	ID     rawjson.RawMessage `json:"id"`
	Method string             `json:"method"`
	Params rawjson.RawMessage `json:"params"`
}

func readReq(t *testing.T, r *http.Request) rpcReq {
	t.Helper()
	var req rpcReq
	b, _ := io.ReadAll(r.Body)
	require.NoError(t, json.Unmarshal(b, &req), "body %s", b)
	return req
}

func writeJSON(w http.ResponseWriter, id rawjson.RawMessage, result string) {
	w.Header().Set("Content-Type", "application/json")
	fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":%s}`, id, result)
}

const initResult = `{"protocolVersion":"2025-11-25","capabilities":{"tools":{},"resources":{"subscribe":true}},"serverInfo":{"name":"scripted","version":"1"}}`

// legacyServer answers the handshake (refusing the modern probe like a
// legacy server) and hands everything else to h.
func legacyServer(t *testing.T, h func(w http.ResponseWriter, r *http.Request, req rpcReq)) *httptest.Server {
	t.Helper()
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			h(w, r, rpcReq{})
			return
		}
		req := readReq(t, r)
		switch req.Method {
		case core.MethodDiscover:
			http.Error(w, "Bad Request: no session", http.StatusBadRequest)
		case core.MethodInitialize:
			w.Header().Set("Mcp-Session-Id", "s-"+fmt.Sprint(time.Now().UnixNano()))
			writeJSON(w, req.ID, initResult)
		case core.NotificationInitialized:
			w.WriteHeader(http.StatusAccepted)
		default:
			h(w, r, req)
		}
	}))
	t.Cleanup(func() {
		hs.CloseClientConnections()
		hs.Close()
	})
	return hs
}

func connectTo(t *testing.T, url string, copts *core.ClientOptions, fopts *fetch.Options) *core.Session {
	t.Helper()
	tr, err := fetch.New(url, fopts)
	require.NoError(t, err)
	if copts == nil {
		copts = &core.ClientOptions{}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	s, err := core.NewClient(&core.Implementation{Name: "t", Version: "1"}, copts).Connect(ctx, tr, nil)
	require.NoError(t, err)
	t.Cleanup(func() { s.Close() })
	return s
}

func ctxT(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	t.Cleanup(cancel)
	return ctx
}

func TestSessionExpiryReinitializes(t *testing.T) {
	var mu sync.Mutex
	valid := map[string]bool{}
	var inits, subscribes atomic.Int32
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet || r.Method == http.MethodDelete {
			w.WriteHeader(http.StatusMethodNotAllowed)
			return
		}
		req := readReq(t, r)
		sid := r.Header.Get("Mcp-Session-Id")
		switch req.Method {
		case core.MethodDiscover:
			http.Error(w, "no", http.StatusBadRequest)
			return
		case core.MethodInitialize:
			n := inits.Add(1)
			id := fmt.Sprintf("session-%d", n)
			mu.Lock()
			valid[id] = true
			mu.Unlock()
			w.Header().Set("Mcp-Session-Id", id)
			writeJSON(w, req.ID, initResult)
			return
		}
		mu.Lock()
		ok := valid[sid]
		mu.Unlock()
		if !ok {
			http.Error(w, "session not found", http.StatusNotFound)
			return
		}
		switch req.Method {
		case core.NotificationInitialized:
			w.WriteHeader(http.StatusAccepted)
		case core.MethodSubscribe:
			subscribes.Add(1)
			writeJSON(w, req.ID, `{}`)
		case "expire":
			mu.Lock()
			valid = map[string]bool{}
			mu.Unlock()
			writeJSON(w, req.ID, `{}`)
		default:
			writeJSON(w, req.ID, `{"tools":[]}`)
		}
	}))
	defer hs.Close()
	s := connectTo(t, hs.URL, nil, nil)
	assert.Equal(t, "session-1", s.ID())
	require.NoError(t, s.Subscribe(ctxT(t), "res:1"))
	_, err := s.Request(ctxT(t), "expire", nil, nil)
	require.NoError(t, err)

	_, err = s.ListTools(ctxT(t), nil)
	require.NoError(t, err, "a 404 re-initializes the session and retries")
	assert.Equal(t, int32(2), inits.Load())
	assert.Equal(t, "session-2", s.ID())
	assert.Equal(t, int32(2), subscribes.Load(), "subscriptions are restored on the new session")
}

func TestLegacyStreamResumption(t *testing.T) {
	var gets []string
	var mu sync.Mutex
	hs := legacyServer(t, func(w http.ResponseWriter, r *http.Request, req rpcReq) {
		if r.Method == http.MethodGet {
			mu.Lock()
			gets = append(gets, r.Header.Get("Last-Event-ID"))
			n := len(gets)
			mu.Unlock()
			w.Header().Set("Content-Type", "text/event-stream")
			w.WriteHeader(http.StatusOK)
			w.(http.Flusher).Flush()
			if n == 1 {
				<-r.Context().Done() // the standalone stream
				return
			}
			// The resumed stream replays the missing response.
			fmt.Fprint(w, ": resumed\n\nid: ev-3\nevent: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":3,\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"resumed\"}]}}\n\n")
			return
		}
		if r.Method == http.MethodDelete {
			return
		}
		// tools/call: a stream that ends early after a priming event.
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprint(w, "id: ev-1\nretry: 150\ndata: \n\n")
		fmt.Fprint(w, "id: ev-2\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{\"progressToken\":1,\"progress\":1}}\n\n")
	})
	s := connectTo(t, hs.URL, nil, nil)
	start := time.Now()
	r, err := s.CallTool(ctxT(t), &core.CallToolParams{Name: "x"}, nil)
	require.NoError(t, err)
	assert.Equal(t, "resumed", r.Content[0].Text)
	assert.GreaterOrEqual(t, time.Since(start), 150*time.Millisecond, "the server's retry delay is honoured")
	mu.Lock()
	defer mu.Unlock()
	require.Len(t, gets, 2)
	assert.Equal(t, "", gets[0], "the standalone GET stream")
	assert.Equal(t, "ev-2", gets[1], "resumption sends the last event id")
}

func TestMalformedEventsAreSkipped(t *testing.T) {
	hs := legacyServer(t, func(w http.ResponseWriter, r *http.Request, req rpcReq) {
		if r.Method != http.MethodPost {
			w.WriteHeader(http.StatusMethodNotAllowed)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprint(w, ": comment\r\n\r\ndata: {not json\n\nevent: unknown-type\ndata: {}\n\ndata: {\"jsonrpc\":\"2.0\",\r\ndata: \"id\":")
		fmt.Fprintf(w, "%s,\"result\":{\"tools\":[]}}\r\n\r\n", req.ID)
	})
	s := connectTo(t, hs.URL, nil, nil)
	_, err := s.ListTools(ctxT(t), nil)
	require.NoError(t, err, "comments, garbage and unknown events are skipped; multi-line data is joined")
}

func TestModernStreamBreaks(t *testing.T) {
	var calls atomic.Int32
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		req := readReq(t, r)
		if req.Method == core.MethodDiscover {
			writeJSON(w, req.ID, `{"resultType":"complete","supportedVersions":["2026-07-28"],"capabilities":{"tools":{}},"ttlMs":0,"cacheScope":"public"}`)
			return
		}
		switch calls.Add(1) {
		case 1:
			w.Header().Set("Content-Type", "text/event-stream")
			fmt.Fprint(w, "id: 1\ndata: \n\n") // then the stream ends: no resumption in 2026-07-28
		case 2:
			w.Header().Set("Content-Type", "text/event-stream")
			fmt.Fprint(w, "id: 2\ndata: \n\n") // the re-issued request's stream breaks too
		case 3:
			w.WriteHeader(http.StatusInternalServerError)
		case 4:
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprint(w, `{"jsonrpc":"2.0","id":`)
		default:
			writeJSON(w, req.ID, `{"resultType":"complete","tools":[]}`)
		}
	}))
	defer hs.Close()
	s := connectTo(t, hs.URL, nil, nil)
	_, err := s.ListTools(ctxT(t), nil)
	require.ErrorIs(t, err, fetch.ErrStreamEnded, "re-issued once, then given up")
	require.ErrorIs(t, err, core.ErrResponseLost)
	assert.Equal(t, int32(2), calls.Load())
	_, err = s.ListTools(ctxT(t), nil)
	var se *fetch.StatusError
	require.ErrorAs(t, err, &se)
	assert.Equal(t, 500, se.StatusCode)
	_, err = s.ListTools(ctxT(t), nil)
	require.Error(t, err, "a truncated JSON body")
	_, err = s.ListTools(ctxT(t), nil)
	require.NoError(t, err, "the session survives all of it")
}

func TestStatusErrorKeepsTheStartOfALargeBody(t *testing.T) {
	page := "<html>" + strings.Repeat("proxy error ", 1000) + "</html>"
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		req := readReq(t, r)
		if req.Method == core.MethodDiscover {
			writeJSON(w, req.ID, `{"resultType":"complete","supportedVersions":["2026-07-28"],"capabilities":{"tools":{}}}`)
			return
		}
		w.Header().Set("Content-Type", "text/html")
		w.WriteHeader(http.StatusBadGateway)
		fmt.Fprint(w, page)
	}))
	defer hs.Close()
	s := connectTo(t, hs.URL, nil, nil)
	_, err := s.ListTools(ctxT(t), nil)
	var se *fetch.StatusError
	require.ErrorAs(t, err, &se)
	assert.Equal(t, http.StatusBadGateway, se.StatusCode)
	assert.Equal(t, page[:4096], se.Body, "the first 4 KiB of the body")
}

func TestOversizedMessage(t *testing.T) {
	hs := legacyServer(t, func(w http.ResponseWriter, r *http.Request, req rpcReq) {
		if r.Method != http.MethodPost {
			w.WriteHeader(http.StatusMethodNotAllowed)
			return
		}
		writeJSON(w, req.ID, `{"tools":[],"padding":"`+strings.Repeat("x", 4096)+`"}`)
	})
	s := connectTo(t, hs.URL, nil, &fetch.Options{MaxMessageSize: 1024})
	_, err := s.ListTools(ctxT(t), nil)
	require.ErrorIs(t, err, fetch.ErrTooLarge)
}

func TestModernErrorBodyIsAResponse(t *testing.T) {
	var versions []string
	var mu sync.Mutex
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		req := readReq(t, r)
		v := r.Header.Get("MCP-Protocol-Version")
		mu.Lock()
		versions = append(versions, req.Method+"@"+v)
		mu.Unlock()
		if v != "2026-07-28" {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusBadRequest)
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":null,"error":{"code":-32022,"message":"unsupported","data":{"supported":["2026-07-28"],"requested":%q}}}`, v)
			return
		}
		writeJSON(w, req.ID, `{"resultType":"complete","supportedVersions":["2026-07-28"],"capabilities":{},"ttlMs":0,"cacheScope":"public"}`)
	}))
	defer hs.Close()
	tr, err := fetch.New(hs.URL, nil)
	require.NoError(t, err)
	s, err := core.NewClient(&core.Implementation{Name: "t", Version: "1"}, &core.ClientOptions{ProtocolVersions: []string{"2027-06-01", "2026-07-28", "2025-11-25"}}).Connect(ctxT(t), tr, nil)
	require.NoError(t, err)
	defer s.Close()
	assert.Equal(t, "2026-07-28", s.ProtocolVersion())
	assert.Equal(t, []string{"server/discover@2027-06-01", "server/discover@2026-07-28"}, versions,
		"a 400 carrying UnsupportedProtocolVersionError is a modern answer: no fallback to initialize")
}

func TestSSEEndpointMustStayOnOrigin(t *testing.T) {
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost {
			http.Error(w, "not here", http.StatusMethodNotAllowed)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprint(w, "event: endpoint\ndata: https://evil.example/steal\n\n")
		w.(http.Flusher).Flush()
		<-r.Context().Done()
	}))
	defer func() {
		hs.CloseClientConnections()
		hs.Close()
	}()
	tr, err := fetch.New(hs.URL, nil)
	require.NoError(t, err)
	_, err = core.NewClient(&core.Implementation{Name: "t", Version: "1"}, nil).Connect(ctxT(t), tr, nil)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "another origin")
}

// TestAnsweredPOSTIsNotAborted: on HTTP+SSE the answer to a POST may come
// on the event stream before the POST is acknowledged; the client must let
// the POST finish rather than abort it (an aborted request tears down its
// connection under the requests that follow).
func TestAnsweredPOSTIsNotAborted(t *testing.T) {
	events := make(chan string, 16)
	var posts, acked, aborted atomic.Int32
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.Method == http.MethodGet:
			w.Header().Set("Content-Type", "text/event-stream")
			fmt.Fprint(w, "event: endpoint\ndata: /messages\n\n")
			w.(http.Flusher).Flush()
			for {
				select {
				case e := <-events:
					fmt.Fprintf(w, "event: message\ndata: %s\n\n", e)
					w.(http.Flusher).Flush()
				case <-r.Context().Done():
					return
				}
			}
		case r.URL.Path == "/messages":
			posts.Add(1)
			req := readReq(t, r)
			switch {
			case req.Method == core.MethodInitialize:
				events <- fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":%s}`, req.ID, initResult)
			case len(req.ID) > 0:
				events <- fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":{"tools":[]}}`, req.ID)
			}
			select {
			case <-time.After(100 * time.Millisecond): // answered first, acknowledged later
				w.WriteHeader(http.StatusAccepted)
				acked.Add(1)
			case <-r.Context().Done():
				aborted.Add(1)
			}
		default: // the Streamable HTTP attempts
			http.Error(w, "this server speaks HTTP+SSE", http.StatusMethodNotAllowed)
		}
	}))
	defer func() {
		hs.CloseClientConnections()
		hs.Close()
	}()
	s := connectTo(t, hs.URL, nil, nil)
	_, err := s.ListTools(ctxT(t), nil)
	require.NoError(t, err)
	require.Eventually(t, func() bool { return acked.Load()+aborted.Load() == posts.Load() }, 5*time.Second, 10*time.Millisecond)
	assert.Equal(t, int32(3), posts.Load(), "initialize, initialized, tools/list")
	assert.Zero(t, aborted.Load(), "no POST aborted after its answer arrived")
}

// hidingDoer simulates a browser that cannot read Mcp-Session-Id because
// the server did not expose it (CORS).
type hidingDoer struct{ inner fetch.Doer }

func (d hidingDoer) Do(ctx context.Context, r *fetch.Request) (*fetch.Response, error) {
	resp, err := d.inner.Do(ctx, r)
	if err != nil {
		return nil, err
	}
	delete(resp.Header, "mcp-session-id")
	resp.Hidden = func(name string) bool { return name == "mcp-session-id" }
	return resp, nil
}

func TestHiddenSessionHeaderIsDiagnosed(t *testing.T) {
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			w.WriteHeader(http.StatusMethodNotAllowed)
			return
		}
		req := readReq(t, r)
		switch {
		case req.Method == core.MethodDiscover:
			http.Error(w, "no", http.StatusBadRequest)
		case req.Method == core.MethodInitialize:
			w.Header().Set("Mcp-Session-Id", "secret")
			writeJSON(w, req.ID, initResult)
		case r.Header.Get("Mcp-Session-Id") == "":
			http.Error(w, "Bad Request: missing session id", http.StatusBadRequest)
		default:
			writeJSON(w, req.ID, `{}`)
		}
	}))
	defer hs.Close()
	tr, err := fetch.New(hs.URL, &fetch.Options{HTTP: hidingDoer{fetch.DefaultDoer()}})
	require.NoError(t, err)
	_, err = core.NewClient(&core.Implementation{Name: "t", Version: "1"}, nil).Connect(ctxT(t), tr, nil)
	require.ErrorIs(t, err, fetch.ErrHiddenHeader)
	assert.Contains(t, err.Error(), "Access-Control-Expose-Headers")
}

// Some servers answer a request without its session id with HTTP 200 and
// a JSON-RPC error: that too is explained as a hidden Mcp-Session-Id.
func TestHiddenSessionHeaderWithRPCError(t *testing.T) {
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			w.WriteHeader(http.StatusMethodNotAllowed)
			return
		}
		req := readReq(t, r)
		switch {
		case req.Method == core.MethodDiscover:
			http.Error(w, "no", http.StatusBadRequest)
		case req.Method == core.MethodInitialize:
			w.Header().Set("Mcp-Session-Id", "secret")
			writeJSON(w, req.ID, initResult)
		case req.Method == core.NotificationInitialized:
			w.WriteHeader(http.StatusAccepted)
		case r.Header.Get("Mcp-Session-Id") == "":
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"error":{"code":0,"message":"method is invalid during session initialization"}}`, req.ID)
		default:
			writeJSON(w, req.ID, `{"tools":[]}`)
		}
	}))
	defer hs.Close()
	tr, err := fetch.New(hs.URL, &fetch.Options{HTTP: hidingDoer{fetch.DefaultDoer()}})
	require.NoError(t, err)
	s, err := core.NewClient(&core.Implementation{Name: "t", Version: "1"}, nil).Connect(ctxT(t), tr, nil)
	require.NoError(t, err)
	defer s.Close()
	_, err = s.ListTools(ctxT(t), nil)
	require.ErrorIs(t, err, fetch.ErrHiddenHeader)
	var rpc *core.RPCError
	require.ErrorAs(t, err, &rpc, "the server's own answer stays in the chain")
	assert.Contains(t, err.Error(), "Access-Control-Expose-Headers")
}

func TestDeleteOnClose(t *testing.T) {
	deleted := make(chan string, 1)
	hs := legacyServer(t, func(w http.ResponseWriter, r *http.Request, req rpcReq) {
		switch r.Method {
		case http.MethodDelete:
			deleted <- r.Header.Get("Mcp-Session-Id")
		case http.MethodGet:
			w.WriteHeader(http.StatusMethodNotAllowed)
		default:
			writeJSON(w, req.ID, `{}`)
		}
	})
	s := connectTo(t, hs.URL, nil, nil)
	id := s.ID()
	require.NotEmpty(t, id)
	require.NoError(t, s.Close())
	select {
	case got := <-deleted:
		assert.Equal(t, id, got)
	case <-time.After(5 * time.Second):
		t.Fatal("no DELETE")
	}
}

func TestBatchResponse(t *testing.T) {
	hs := legacyServer(t, func(w http.ResponseWriter, r *http.Request, req rpcReq) {
		if r.Method != http.MethodPost {
			w.WriteHeader(http.StatusMethodNotAllowed)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `[{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"batched"}},{"jsonrpc":"2.0","id":%s,"result":{"tools":[]}}]`, req.ID)
	})
	logged := make(chan string, 1)
	s := connectTo(t, hs.URL, &core.ClientOptions{LoggingHandler: func(_ context.Context, _ *core.Session, m *core.LoggingMessageParams) {
		logged <- string(m.Data)
	}}, nil)
	_, err := s.ListTools(ctxT(t), nil)
	require.NoError(t, err)
	assert.Equal(t, `"batched"`, <-logged)
}

func TestInvalidOptions(t *testing.T) {
	for _, tc := range []struct {
		url  string
		opts *fetch.Options
		want string
	}{
		{"ftp://host/mcp", nil, "http or https"},
		{"http:///mcp", nil, "no host"},
		{"http://host/mcp", &fetch.Options{Mode: "pigeon"}, "unknown mode"},
		{"http://host/mcp", &fetch.Options{Header: map[string]string{"Bad\nName": "x"}}, "invalid header"},
		{"http://host/mcp", &fetch.Options{Header: map[string]string{"X-Ok": "bad\r\nvalue"}}, "invalid header"},
	} {
		t.Run(tc.want, func(t *testing.T) {
			_, err := fetch.New(tc.url, tc.opts)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
	_, err := fetch.New("https://example.com/mcp", &fetch.Options{Mode: fetch.ModeSSE})
	assert.NoError(t, err)
	assert.False(t, errors.Is(err, fetch.ErrTooLarge))
}

// A server that leaves a request's event stream open after the response
// (servers close it then) must not hold the call: the stream is ended a
// moment after the response and the call returns it.
func TestStreamLeftOpenAfterResponse(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	hs := legacyServer(t, func(w http.ResponseWriter, r *http.Request, req rpcReq) {
		if r.Method != http.MethodPost {
			w.WriteHeader(http.StatusMethodNotAllowed)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprintf(w, "data: {\"jsonrpc\":\"2.0\",\"id\":%s,\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"answered\"}]}}\n\n", req.ID)
		w.(http.Flusher).Flush()
		select { // keep the stream open
		case <-release:
		case <-r.Context().Done():
		case <-time.After(30 * time.Second):
		}
	})
	s := connectTo(t, hs.URL, &core.ClientOptions{RequestTimeout: time.Minute}, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 8*time.Second)
	defer cancel()
	res, err := s.CallTool(ctx, &core.CallToolParams{Name: "x"}, nil)
	require.NoError(t, err)
	require.NoError(t, ctx.Err(), "the call returned only when its context ended")
	require.Len(t, res.Content, 1)
	assert.Equal(t, "answered", res.Content[0].Text)
}

// TestCloseEndsARequestInFlight: a session closed while a request waits for
// its answer aborts that request: the call returns at once, and the server
// sees the request's connection go.
func TestCloseEndsARequestInFlight(t *testing.T) {
	got := make(chan struct{})
	gone := make(chan struct{})
	hs := legacyServer(t, func(w http.ResponseWriter, r *http.Request, req rpcReq) {
		if r.Method != http.MethodPost {
			w.WriteHeader(http.StatusMethodNotAllowed)
			return
		}
		close(got)
		select { // never answers
		case <-r.Context().Done():
			close(gone)
		case <-time.After(20 * time.Second):
		}
	})
	s := connectTo(t, hs.URL, nil, nil)
	errc := make(chan error, 1)
	go func() {
		_, err := s.CallTool(ctxT(t), &core.CallToolParams{Name: "slow"}, nil)
		errc <- err
	}()
	<-got
	closed := make(chan error, 1)
	go func() { closed <- s.Close() }()
	select {
	case err := <-errc:
		require.ErrorIs(t, err, core.ErrClosed)
	case <-time.After(5 * time.Second):
		require.FailNow(t, "the call did not return when its session closed")
	}
	select {
	case <-gone:
	case <-time.After(5 * time.Second):
		require.FailNow(t, "the request's connection stayed open")
	}
	select {
	case <-closed:
	case <-time.After(5 * time.Second):
		require.FailNow(t, "Close did not return")
	}
}
