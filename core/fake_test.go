package core

import (
	"context"
	"encoding/json"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/mcpwasm/mcpwasm/jsonrpc"
)

// fakeServer is a scripted MCP server on the far end of an in-memory pipe,
// for faults real servers do not produce. Handlers run on the server's
// read goroutine unless they start their own.
type fakeServer struct {
	t    *testing.T
	conn *memConn

	mu       sync.Mutex
	handlers map[string]func(*jsonrpc.Request) (any, *jsonrpc.Error)
	// received records every message from the client, in order (none when
	// forget is set: the soak measures the client's heap alone).
	received []jsonrpc.Message
	forget   bool
	// pending server→client requests waiting for the client's answer.
	answers map[string]chan *jsonrpc.Response
	nextID  int
}

// newFake returns a fake server speaking the given era and a client
// transport connected to it.
func newFake(t *testing.T, era Era) (*fakeServer, Transport) {
	t.Helper()
	clientSide, serverSide := NewInMemoryTransports()
	c, err := serverSide.Connect(context.Background())
	require.NoError(t, err)
	f := &fakeServer{t: t, conn: c.(*memConn), handlers: map[string]func(*jsonrpc.Request) (any, *jsonrpc.Error){}, answers: map[string]chan *jsonrpc.Response{}}
	switch era {
	case EraModern:
		f.handle(MethodDiscover, func(*jsonrpc.Request) (any, *jsonrpc.Error) {
			return map[string]any{
				"resultType":        "complete",
				"supportedVersions": []string{Version20260728},
				"capabilities":      map[string]any{"tools": map[string]any{"listChanged": true}, "resources": map[string]any{"subscribe": true, "listChanged": true}, "logging": map[string]any{}},
				"_meta":             map[string]any{MetaServerInfo: map[string]any{"name": "fake", "version": "9"}},
				"instructions":      "be nice",
				"ttlMs":             0,
				"cacheScope":        "public",
			}, nil
		})
	case EraLegacy:
		f.handle(MethodPing, func(*jsonrpc.Request) (any, *jsonrpc.Error) { return map[string]any{}, nil })
		f.handle(MethodDiscover, func(*jsonrpc.Request) (any, *jsonrpc.Error) {
			return nil, &jsonrpc.Error{Code: CodeMethodNotFound, Message: "no such method"}
		})
		f.handle(MethodInitialize, func(r *jsonrpc.Request) (any, *jsonrpc.Error) {
			var p InitializeParams
			_ = json.Unmarshal(r.Params, &p)
			return map[string]any{
				"protocolVersion": p.ProtocolVersion,
				"capabilities":    map[string]any{"tools": map[string]any{}, "logging": map[string]any{}, "resources": map[string]any{"subscribe": true}},
				"serverInfo":      map[string]any{"name": "fake-legacy", "version": "1"},
			}, nil
		})
	}
	done := make(chan struct{})
	go f.serve(done)
	t.Cleanup(func() {
		f.conn.Close()
		<-done
	})
	return f, clientSide
}

func (f *fakeServer) handle(method string, h func(*jsonrpc.Request) (any, *jsonrpc.Error)) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.handlers[method] = h
}

func (f *fakeServer) serve(done chan struct{}) {
	defer close(done)
	for {
		m, err := f.conn.Recv(context.Background())
		if err != nil {
			return
		}
		f.mu.Lock()
		if !f.forget {
			f.received = append(f.received, m)
		}
		f.mu.Unlock()
		switch m := m.(type) {
		case *jsonrpc.Response:
			f.mu.Lock()
			ch := f.answers[m.ID.String()]
			delete(f.answers, m.ID.String())
			f.mu.Unlock()
			if ch != nil {
				ch <- m
			}
		case *jsonrpc.Request:
			if m.IsNotification() {
				continue
			}
			f.mu.Lock()
			h := f.handlers[m.Method]
			f.mu.Unlock()
			resp := &jsonrpc.Response{ID: m.ID}
			if h == nil {
				resp.Error = &jsonrpc.Error{Code: CodeMethodNotFound, Message: "method not found: " + m.Method}
			} else {
				res, werr := h(m)
				if werr != nil {
					resp.Error = werr
				} else if raw, ok := res.(RawMessage); ok {
					resp.Result = raw
				} else if res == nil {
					continue // the handler answers later (or never)
				} else {
					resp.Result = mustMarshal(res)
				}
			}
			_ = f.conn.Send(context.Background(), resp, nil)
		}
	}
}

// notify sends a notification to the client. Errors are ignored: it may
// run on a goroutine after the client went away.
func (f *fakeServer) notify(method string, params any) {
	_ = f.conn.Send(context.Background(), &jsonrpc.Request{Method: method, Params: mustMarshal(params)}, nil)
}

// reply answers a request the handler left unanswered.
func (f *fakeServer) reply(id jsonrpc.ID, result any) {
	_ = f.conn.Send(context.Background(), &jsonrpc.Response{ID: id, Result: mustMarshal(result)}, nil)
}

// raw sends bytes as if they were a message.
func (f *fakeServer) raw(b string) {
	f.conn.peer.in <- []byte(b)
}

// request sends a server→client request and waits for the answer.
func (f *fakeServer) request(method string, params any) *jsonrpc.Response {
	f.t.Helper()
	f.mu.Lock()
	f.nextID++
	id := jsonrpc.StringID("srv-" + time.Now().Format("150405.000000") + "-" + string(rune('a'+f.nextID%26)))
	ch := make(chan *jsonrpc.Response, 1)
	f.answers[id.String()] = ch
	f.mu.Unlock()
	require.NoError(f.t, f.conn.Send(context.Background(), &jsonrpc.Request{ID: id, Method: method, Params: mustMarshal(params)}, nil))
	select {
	case r := <-ch:
		return r
	case <-time.After(5 * time.Second):
		f.t.Fatalf("no answer to %s", method)
		return nil
	}
}

// requests returns the client requests received with the given method.
func (f *fakeServer) requests(method string) []*jsonrpc.Request {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []*jsonrpc.Request
	for _, m := range f.received {
		if r, ok := m.(*jsonrpc.Request); ok && r.Method == method {
			out = append(out, r)
		}
	}
	return out
}

func connectFake(t *testing.T, tr Transport, opts *ClientOptions) *Session {
	t.Helper()
	if opts == nil {
		opts = &ClientOptions{}
	}
	if opts.OnWarning == nil {
		opts.OnWarning = func(_ *Session, err error) { t.Logf("warning: %v", err) }
	}
	c := NewClient(&Implementation{Name: "test", Version: "0"}, opts)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	s, err := c.Connect(ctx, tr, nil)
	require.NoError(t, err)
	t.Cleanup(func() { s.Close() })
	return s
}

func ctx5(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// paramsOf decodes a request's params.
func paramsOf(t *testing.T, r *jsonrpc.Request) map[string]any {
	t.Helper()
	var m map[string]any
	require.NoError(t, json.Unmarshal(r.Params, &m))
	return m
}
