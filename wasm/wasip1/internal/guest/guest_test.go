package guest

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"

	"github.com/mcpwasm/mcpwasm/core"
	"github.com/mcpwasm/mcpwasm/transport/fetch"
	"github.com/mcpwasm/mcpwasm/wasm/abi"
)

// These tests exercise the engine's side of the ABI with a scripted host:
// the host calls are recorded and the test plays the host's part
// (deliveries, answers, polls). They run natively (go test, with the race
// detector) and under GOOS=wasip1 with wazero (scripts/test.sh), where the
// single-threaded scheduler is the one the reactor really has. Full MCP
// sessions against real servers are tested through the module by
// wasm/wasihost.

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}

type hostRequest struct {
	head abi.HTTPRequestHead
	body string
}

// scriptedHost records the guest's host calls.
type scriptedHost struct {
	mu       sync.Mutex
	requests map[uint32]hostRequest
	order    []uint32 // handles in request order
	reads    map[uint32]int
	closes   map[uint32]int
}

func newScriptedHost() *scriptedHost {
	return &scriptedHost{requests: map[uint32]hostRequest{}, reads: map[uint32]int{}, closes: map[uint32]int{}}
}

func (h *scriptedHost) HTTPRequest(handle uint32, head, body []byte) {
	var rh abi.HTTPRequestHead
	if err := json.Unmarshal(head, &rh); err != nil {
		panic(err)
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	h.requests[handle] = hostRequest{head: rh, body: string(body)}
	h.order = append(h.order, handle)
}

func (h *scriptedHost) HTTPRead(handle uint32) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.reads[handle]++
}

func (h *scriptedHost) HTTPClose(handle uint32) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.closes[handle]++
}

func (h *scriptedHost) counts(handle uint32) (reads, closes int) {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.reads[handle], h.closes[handle]
}

// pollUntil polls the guest (as the host's pump does) until cond holds,
// collecting the events.
func pollUntil(t *testing.T, g *Guest, events *[]abi.Event, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		if b := g.Poll(); b != nil {
			var evs []abi.Event
			require.NoError(t, json.Unmarshal(b, &evs), "poll returned %s", b)
			*events = append(*events, evs...)
		}
		if cond() {
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("condition not reached while polling")
		}
		time.Sleep(time.Millisecond)
	}
}

func (h *scriptedHost) nth(n int) (uint32, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if len(h.order) <= n {
		return 0, false
	}
	return h.order[n], true
}

func statusOf(err error) int32 {
	var e *Error
	if errors.As(err, &e) {
		return e.Status
	}
	return 0
}

func TestPollWithNothingToDo(t *testing.T) {
	g := New(newScriptedHost())
	for range 100 {
		require.Nil(t, g.Poll(), "an idle guest has no events and poll returns at once")
	}
}

type doResult struct {
	resp *fetch.Response
	err  error
}

func startDo(g *Guest, ctx context.Context, req *fetch.Request) chan doResult {
	ch := make(chan doResult, 1)
	go func() {
		resp, err := g.Doer().Do(ctx, req)
		ch <- doResult{resp, err}
	}()
	return ch
}

// TestHTTPExchange follows one request through the three imports and the
// three delivery exports.
func TestHTTPExchange(t *testing.T) {
	host := newScriptedHost()
	g := New(host)
	var events []abi.Event
	done := startDo(g, context.Background(), &fetch.Request{
		Method: "POST",
		URL:    "http://example.test/mcp",
		Header: fetch.Header{"content-type": {"application/json"}},
		Body:   []byte(`{"hello":"world"}`),
	})
	var id uint32
	pollUntil(t, g, &events, func() bool { var ok bool; id, ok = host.nth(0); return ok })
	host.mu.Lock()
	req := host.requests[id]
	host.mu.Unlock()
	assert.Equal(t, "POST", req.head.Method)
	assert.Equal(t, "http://example.test/mcp", req.head.URL)
	assert.Equal(t, []string{"application/json"}, req.head.Headers["content-type"])
	assert.Equal(t, `{"hello":"world"}`, req.body)

	require.Equal(t, abi.StatusInvalid, statusOf(g.HTTPBody(id, []byte("early"))), "a chunk before the head")
	require.Equal(t, abi.StatusInvalid, statusOf(g.HTTPResponse(id, []byte(`{"status":42}`))))
	require.Equal(t, abi.StatusInvalid, statusOf(g.HTTPResponse(id, []byte(`{"status":200,"extra":1}`))))
	require.NoError(t, g.HTTPResponse(id, []byte(`{"status":201,"headers":{"Content-Type":["text/plain"],"x-two":["a","b"]}}`)))
	require.Equal(t, abi.StatusInvalid, statusOf(g.HTTPResponse(id, []byte(`{"status":200}`))), "a second head")
	var r doResult
	pollUntil(t, g, &events, func() bool {
		select {
		case r = <-done:
			return true
		default:
			return false
		}
	})
	require.NoError(t, r.err)
	assert.Equal(t, 201, r.resp.StatusCode)
	assert.Equal(t, "text/plain", r.resp.Header.Get("Content-Type"))
	assert.Equal(t, []string{"a", "b"}, r.resp.Header["x-two"])

	body := make(chan []byte, 1)
	go func() {
		b, _ := io.ReadAll(r.resp.Body)
		body <- b
	}()
	chunks := []string{"first ", "second ", "third"}
	for i, c := range chunks {
		pollUntil(t, g, &events, func() bool { reads, _ := host.counts(id); return reads == i+1 })
		require.NoError(t, g.HTTPBody(id, []byte(c)))
	}
	pollUntil(t, g, &events, func() bool { reads, _ := host.counts(id); return reads == len(chunks)+1 })
	require.NoError(t, g.HTTPEnd(id, nil))
	var got []byte
	pollUntil(t, g, &events, func() bool {
		select {
		case got = <-body:
			return true
		default:
			return false
		}
	})
	assert.Equal(t, "first second third", string(got))
	reads, closes := host.counts(id)
	assert.Equal(t, len(chunks)+1, reads, "one http_read per chunk, never two outstanding")
	assert.Zero(t, closes, "the handle stays open until the body is closed")
	require.NoError(t, r.resp.Body.Close())
	require.NoError(t, r.resp.Body.Close())
	_, closes = host.counts(id)
	assert.Equal(t, 1, closes, "http_close exactly once")
	assert.Equal(t, abi.StatusNotFound, statusOf(g.HTTPBody(id, []byte("late"))), "deliveries after close are refused")
	assert.Empty(t, events, "HTTP alone emits no events")
}

func TestHTTPFailures(t *testing.T) {
	t.Run("host error before the head", func(t *testing.T) {
		host := newScriptedHost()
		g := New(host)
		var events []abi.Event
		done := startDo(g, context.Background(), &fetch.Request{Method: "GET", URL: "http://example.test/"})
		var id uint32
		pollUntil(t, g, &events, func() bool { var ok bool; id, ok = host.nth(0); return ok })
		require.NoError(t, g.HTTPEnd(id, []byte("connection refused")))
		var r doResult
		pollUntil(t, g, &events, func() bool {
			select {
			case r = <-done:
				return true
			default:
				return false
			}
		})
		require.Error(t, r.err)
		assert.Contains(t, r.err.Error(), "connection refused")
		_, closes := host.counts(id)
		assert.Equal(t, 1, closes)
	})

	t.Run("read error", func(t *testing.T) {
		host := newScriptedHost()
		g := New(host)
		var events []abi.Event
		done := startDo(g, context.Background(), &fetch.Request{Method: "GET", URL: "http://example.test/"})
		var id uint32
		pollUntil(t, g, &events, func() bool { var ok bool; id, ok = host.nth(0); return ok })
		require.NoError(t, g.HTTPResponse(id, []byte(`{"status":200}`)))
		var r doResult
		pollUntil(t, g, &events, func() bool {
			select {
			case r = <-done:
				return true
			default:
				return false
			}
		})
		require.NoError(t, r.err)
		readErr := make(chan error, 1)
		go func() {
			_, err := io.ReadAll(r.resp.Body)
			readErr <- err
		}()
		pollUntil(t, g, &events, func() bool { reads, _ := host.counts(id); return reads == 1 })
		require.NoError(t, g.HTTPEnd(id, []byte("connection reset")))
		var err error
		pollUntil(t, g, &events, func() bool {
			select {
			case err = <-readErr:
				return true
			default:
				return false
			}
		})
		require.Error(t, err)
		assert.Contains(t, err.Error(), "connection reset")
		r.resp.Body.Close()
	})

	t.Run("cancelled while the host works", func(t *testing.T) {
		host := newScriptedHost()
		g := New(host)
		var events []abi.Event
		ctx, cancel := context.WithCancel(context.Background())
		done := startDo(g, ctx, &fetch.Request{Method: "GET", URL: "http://example.test/"})
		var id uint32
		pollUntil(t, g, &events, func() bool { var ok bool; id, ok = host.nth(0); return ok })
		cancel()
		var r doResult
		pollUntil(t, g, &events, func() bool {
			select {
			case r = <-done:
				return true
			default:
				return false
			}
		})
		require.ErrorIs(t, r.err, context.Canceled)
		_, closes := host.counts(id)
		assert.Equal(t, 1, closes, "cancellation releases the handle")
		assert.Equal(t, abi.StatusNotFound, statusOf(g.HTTPResponse(id, []byte(`{"status":200}`))), "a late head is refused, not blocked on")
	})
}

func newClient(t *testing.T, g *Guest, cfg string) uint32 {
	t.Helper()
	id, err := g.NewClient([]byte(cfg))
	require.NoError(t, err)
	require.NotZero(t, id)
	return id
}

func resultOf(events []abi.Event, op uint32) *abi.Event {
	for i := range events {
		if events[i].Type == abi.EventResult && events[i].Op == op {
			return &events[i]
		}
	}
	return nil
}

// TestOperations: connect fails through the host (transport error), and a
// connect cancelled while it waits on the host ends with kind "abort"
// and releases its HTTP handle.
func TestOperations(t *testing.T) {
	host := newScriptedHost()
	g := New(host)
	var events []abi.Event
	client := newClient(t, g, `{"clientInfo":{"name":"t","version":"1"},"protocolVersions":["2026-07-28"]}`)

	op, err := g.Connect(client, []byte(`{"url":"http://example.test/mcp"}`))
	require.NoError(t, err)
	served := 0
	pollUntil(t, g, &events, func() bool {
		for {
			id, ok := host.nth(served)
			if !ok {
				break
			}
			served++
			require.NoError(t, g.HTTPEnd(id, []byte("connection refused")))
		}
		return resultOf(events, op) != nil
	})
	res := resultOf(events, op)
	require.NotNil(t, res.Error)
	assert.Equal(t, abi.KindTransport, res.Error.Kind)
	assert.Contains(t, res.Error.Message, "connection refused")

	op, err = g.Connect(client, []byte(`{"url":"http://example.test/mcp"}`))
	require.NoError(t, err)
	pollUntil(t, g, &events, func() bool { _, ok := host.nth(served); return ok })
	id, _ := host.nth(served)
	served++
	require.NoError(t, g.Cancel(op))
	pollUntil(t, g, &events, func() bool {
		// Refuse whatever else the guest sends (core may announce the
		// cancellation with a notification).
		for {
			other, ok := host.nth(served)
			if !ok {
				break
			}
			served++
			require.NoError(t, g.HTTPEnd(other, []byte("connection refused")))
		}
		return resultOf(events, op) != nil
	})
	res = resultOf(events, op)
	require.NotNil(t, res.Error)
	assert.Equal(t, abi.KindAbort, res.Error.Kind)
	_, closes := host.counts(id)
	assert.Equal(t, 1, closes, "the cancelled request's handle is released")
	assert.Equal(t, abi.StatusNotFound, statusOf(g.Cancel(op)), "the operation is over")

	require.NoError(t, g.FreeClient(client))
	_, err = g.Connect(client, []byte(`{"url":"http://example.test/mcp"}`))
	assert.Equal(t, abi.StatusNotFound, statusOf(err))
}

// TestQuestions: a server→client request becomes a "request" event; the
// host's answer reaches the handler, a malformed answer is refused without
// losing the question, and a withdrawn question becomes a "cancel" event.
func TestQuestions(t *testing.T) {
	host := newScriptedHost()
	g := New(host)
	var events []abi.Event
	client := newClient(t, g, `{"clientInfo":{"name":"t","version":"1"}}`)

	type answer struct {
		res core.CreateMessageResult
		err error
	}
	asked := func(ctx context.Context) chan answer {
		ch := make(chan answer, 1)
		go func() {
			var a answer
			var raw json.RawMessage
			raw, a.err = guestCallbacks{g: g, id: client}.Ask(ctx, nil, abi.MethodCreateMessage, json.RawMessage(`{"maxTokens":5}`))
			if a.err == nil {
				a.err = json.Unmarshal(raw, &a.res)
			}
			ch <- a
		}()
		return ch
	}
	question := func() *abi.Event {
		for i := len(events) - 1; i >= 0; i-- {
			if events[i].Type == abi.EventRequest {
				return &events[i]
			}
		}
		return nil
	}
	wait := func(ch chan answer) answer {
		var a answer
		pollUntil(t, g, &events, func() bool {
			select {
			case a = <-ch:
				return true
			default:
				return false
			}
		})
		return a
	}

	ch := asked(context.Background())
	pollUntil(t, g, &events, func() bool { return question() != nil })
	q := question()
	assert.Equal(t, client, q.Client)
	assert.Equal(t, abi.MethodCreateMessage, q.Method)
	assert.JSONEq(t, `{"maxTokens":5}`, string(q.Params))
	assert.Equal(t, abi.StatusInvalid, statusOf(g.Answer(q.ID, []byte(`{"result":`))))
	assert.Equal(t, abi.StatusInvalid, statusOf(g.Answer(q.ID, []byte(`{"result":[1]}`))))
	require.NoError(t, g.Answer(q.ID, []byte(`{"result":{"role":"assistant","model":"m","content":{"type":"text","text":"hi"}}}`)), "the question survived the bad answers")
	a := wait(ch)
	require.NoError(t, a.err)
	assert.Equal(t, "m", a.res.Model)
	assert.Equal(t, abi.StatusNotFound, statusOf(g.Answer(q.ID, []byte(`{"result":{}}`))), "answered once")

	events = nil
	ch = asked(context.Background())
	pollUntil(t, g, &events, func() bool { return question() != nil })
	require.NoError(t, g.Answer(question().ID, []byte(`{"error":{"code":-1,"message":"the user said no"}}`)))
	a = wait(ch)
	var rpc *core.RPCError
	require.ErrorAs(t, a.err, &rpc)
	assert.Equal(t, int64(-1), rpc.Code)
	assert.Equal(t, "the user said no", rpc.Message)

	events = nil
	ctx, cancel := context.WithCancel(context.Background())
	ch = asked(ctx)
	pollUntil(t, g, &events, func() bool { return question() != nil })
	id := question().ID
	cancel()
	a = wait(ch)
	require.ErrorIs(t, a.err, context.Canceled)
	pollUntil(t, g, &events, func() bool {
		for _, e := range events {
			if e.Type == abi.EventCancel && e.ID == id {
				return true
			}
		}
		return false
	})
	assert.Equal(t, abi.StatusNotFound, statusOf(g.Answer(id, []byte(`{"result":{}}`))))
}

func TestInvalidArguments(t *testing.T) {
	g := New(newScriptedHost())
	client := newClient(t, g, `{"clientInfo":{"name":"t","version":"1"}}`)
	cases := []struct {
		name string
		err  error
		want int32
	}{
		{"config is not JSON", func() error { _, err := g.NewClient([]byte("nope")); return err }(), abi.StatusInvalid},
		{"config with trailing data", func() error {
			_, err := g.NewClient([]byte(`{"clientInfo":{"name":"t","version":"1"}} {}`))
			return err
		}(), abi.StatusInvalid},
		{"config with a stray closing bracket", func() error {
			_, err := g.NewClient([]byte(`{"clientInfo":{"name":"t","version":"1"}}]`))
			return err
		}(), abi.StatusInvalid},
		{"clientInfo without version", func() error { _, err := g.NewClient([]byte(`{"clientInfo":{"name":"t"}}`)); return err }(), abi.StatusInvalid},
		{"unknown notification", func() error {
			_, err := g.NewClient([]byte(`{"clientInfo":{"name":"t","version":"1"},"notifications":["x"]}`))
			return err
		}(), abi.StatusInvalid},
		{"bad roots", func() error {
			_, err := g.NewClient([]byte(`{"clientInfo":{"name":"t","version":"1"},"roots":{"uri":1}}`))
			return err
		}(), abi.StatusInvalid},
		{"connect to a non-http URL", func() error { _, err := g.Connect(client, []byte(`{"url":"file:///x"}`)); return err }(), abi.StatusInvalid},
		{"connect with an unknown mode", func() error {
			_, err := g.Connect(client, []byte(`{"url":"http://x/","transport":"carrier-pigeon"}`))
			return err
		}(), abi.StatusInvalid},
		{"roots without uri", func() error { _, err := g.SetRoots(client, []byte(`[{"name":"x"}]`)); return err }(), abi.StatusInvalid},
		{"request on no session", func() error { _, err := g.Request(7777, []byte(`{"method":"ping"}`)); return err }(), abi.StatusNotFound},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			require.Error(t, c.err)
			assert.Equal(t, c.want, statusOf(c.err), "%v", c.err)
		})
	}
}
