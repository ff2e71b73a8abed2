//go:build js

package jsfetch

import (
	"context"
	"errors"
	"io"
	"strings"
	"sync"
	"syscall/js"

	"github.com/mcpwasm/mcpwasm/internal/errf"
	"github.com/mcpwasm/mcpwasm/internal/js/bridge"
	"github.com/mcpwasm/mcpwasm/transport/fetch"
)

// HostLink is the fast path of a Fetcher: a JavaScript helper object (the
// npm package's glue installs one, js/src/host.js) performs a whole
// exchange — building the RequestInit, calling fetch, reading the headers
// and the body — and reports back. The module's entry point carries the
// exchange's bytes both ways through its Port (WebAssembly imports and
// exports that take numbers and copy bytes, no syscall/js values), so a
// request costs no js.Func and no JavaScript value with a finalizer.
//
// The helper's contract: host.register(fn, extraInit, init) → config
// makes a fetch configuration known (fn: the fetch function or undefined;
// init, when not undefined, is credentials, mode, cache and referrerPolicy
// joined by "\n", "" for unset); the Port starts and aborts exchanges. The
// entry point passes the helper's reports to Deliver with kind:
//
//	1 head+body: status, type, headerLines, body (a non-SSE response, read whole)
//	2 head:      status, type, headerLines (an SSE response: chunks follow)
//	3 chunk:     body
//	4 end of the body
//
// and a failure reaches host.deliver(id, 5, thrownValue) (a js.FuncOf: rare,
// and it needs the thrown value). headerLines alternate names and values
// separated by "\n" (fetch headers never contain CR, LF or NUL). A HostLink
// lives as long as the instance: Release frees its callback, after which no
// exchange may start. It is safe for concurrent use.
type HostLink struct {
	host    js.Value
	port    Port
	deliver js.Func

	mu   sync.Mutex
	next int
	reqs map[int]*hostReq
}

// Port starts and aborts the helper's exchanges. Start must not block and
// must not keep head or body after it returns; Abort must not block. The
// helper reads a body it buffers (every body but an event stream) up to
// maxBody+1 bytes and then cancels it.
type Port interface {
	Start(id, config int, head string, body []byte, noRedirect bool, maxBody int)
	Abort(id int)
}

// NewHostLink wraps a helper object (see HostLink) reached through port.
func NewHostLink(host js.Value, port Port) *HostLink {
	l := &HostLink{host: host, port: port, reqs: map[int]*hostReq{}}
	l.deliver = js.FuncOf(l.onDeliver)
	host.Set("deliver", l.deliver)
	return l
}

// register makes f's configuration known to the helper, once.
func (l *HostLink) register(f *Fetcher) (int, error) {
	l.mu.Lock()
	n := f.hostConfig
	var err error
	if n <= 0 {
		err = jsbridge.Call(func() {
			n = l.host.Call("register", f.fn, f.init, f.hostInit).Int()
		})
		if err != nil {
			n = 0
		} else {
			f.hostConfig = n
		}
	}
	l.mu.Unlock()
	return n, err
}

// Release frees the callback; exchanges in flight fail.
func (l *HostLink) Release() {
	l.mu.Lock()
	reqs := l.reqs
	l.reqs = map[int]*hostReq{}
	l.mu.Unlock()
	for _, r := range reqs {
		r.fail(errors.New("jsfetch: host released"))
	}
	l.deliver.Release()
}

// hostReq is one exchange in flight.
type hostReq struct {
	req  *Request
	head chan *Response // the response head, once
	mu   sync.Mutex
	q    [][]byte // body chunks not yet read
	end  error    // io.EOF or the failure, after the last chunk
	wake chan struct{}
	sent bool // head delivered
}

func (r *hostReq) push(b []byte, end error) {
	r.mu.Lock()
	if b != nil {
		r.q = append(r.q, b)
	}
	if end != nil && r.end == nil {
		r.end = end
	}
	r.mu.Unlock()
	select {
	case r.wake <- struct{}{}:
	default:
	}
}

// markSent reports whether the head is still to be delivered, and from
// now on it is not.
func (r *hostReq) markSent() bool {
	r.mu.Lock()
	first := !r.sent
	r.sent = true
	r.mu.Unlock()
	return first
}

func (r *hostReq) fail(err error) {
	if r.markSent() {
		r.head <- &Response{Status: -1, Body: errBody{err}}
	}
	r.push(nil, err)
}

type errBody struct{ err error }

func (e errBody) Read([]byte) (int, error) { return 0, e.err }
func (e errBody) Close() error             { return nil }

func (l *HostLink) get(id int, remove bool) *hostReq {
	l.mu.Lock()
	r := l.reqs[id]
	if remove {
		delete(l.reqs, id)
	}
	l.mu.Unlock()
	return r
}

// abort ends exchange id, if still in flight.
func (l *HostLink) abort(id int) {
	if l.get(id, true) != nil {
		l.port.Abort(id)
	}
}

// Deliver passes the helper's report on exchange id (see HostLink) to the
// exchange. It must not block: the entry point calls it from an export.
// body is taken over.
func (l *HostLink) Deliver(id, kind, status int, typ, headerLines string, body []byte) {
	switch kind {
	case 1, 2:
		r := l.get(id, false)
		if r == nil {
			return
		}
		resp := &Response{Status: status, Type: typ, Header: parseHeaderLines(headerLines)}
		if !r.markSent() {
			return // already failed
		}
		if kind == 1 {
			if body == nil {
				body = []byte{}
			}
			r.push(body, io.EOF)
			l.get(id, true)
		}
		r.head <- resp
	case 3:
		if r := l.get(id, false); r != nil && len(body) > 0 {
			r.push(body, nil)
		}
	case 4:
		if r := l.get(id, true); r != nil {
			r.push(nil, io.EOF)
		}
	}
}

// onDeliver receives failures: host.deliver(id, 5, thrownValue). It runs on
// the JavaScript side of the boundary: it must not block.
func (l *HostLink) onDeliver(_ js.Value, args []js.Value) any {
	if len(args) < 2 || args[1].Int() != 5 {
		return nil
	}
	if r := l.get(args[0].Int(), true); r != nil {
		v := js.Undefined()
		if len(args) > 2 {
			v = args[2]
		}
		r.fail(fetchError(jsbridge.ErrorFrom(v), r.req))
	}
	return nil
}

func parseHeaderLines(s string) map[string][]string {
	if s == "" {
		return map[string][]string{}
	}
	return headerPairs(strings.Split(s, "\n"))
}

// headerPairs turns alternating names and values into headers with
// lower-case names. A header's values are a slice of parts (capped, so a
// repeated name's append copies), not one allocation per header.
func headerPairs(parts []string) map[string][]string {
	h := make(map[string][]string, len(parts)/2)
	for i := 0; i+1 < len(parts); i += 2 {
		name := strings.ToLower(parts[i])
		if vs, ok := h[name]; ok {
			h[name] = append(vs, parts[i+1])
		} else {
			h[name] = parts[i+1 : i+2 : i+2]
		}
	}
	return h
}

// requestHead is the request line and headers as the helper takes them,
// separated by "\n": the method, the URL, then header names and values
// alternating (with no header, the URL's line ends with "\n").
func requestHead(req *Request) string {
	parts := make([]string, 2, 2+2*len(req.Header))
	parts[0], parts[1] = req.Method, req.URL
	for k, vs := range req.Header {
		for _, v := range vs {
			parts = append(parts, k, v)
		}
	}
	if len(parts) == 2 {
		parts = append(parts, "")
	}
	return strings.Join(parts, "\n")
}

// doHost performs req through the helper.
func (f *Fetcher) doHost(ctx context.Context, l *HostLink, req *Request) (*Response, error) {
	r := &hostReq{req: req, head: make(chan *Response, 1), wake: make(chan struct{}, 1)}
	l.mu.Lock()
	l.next++
	id := l.next
	l.reqs[id] = r
	l.mu.Unlock()
	config, err := l.register(f)
	if err != nil {
		l.get(id, true)
		return nil, fetchError(err, req)
	}
	// The request line and headers travel as one string.
	maxBody := req.MaxBody
	if maxBody <= 0 {
		maxBody = fetch.DefaultMaxMessageSize
	}
	l.port.Start(id, config, requestHead(req), req.Body, req.NoRedirect, maxBody)
	var resp *Response
	select {
	case resp = <-r.head:
	case <-ctx.Done():
		l.abort(id)
		return nil, ctx.Err()
	}
	if resp.Status < 0 {
		_, err := resp.Body.Read(nil)
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, err
	}
	b := &hostBody{r: r, l: l, id: id, stop: bodyDone}
	r.mu.Lock()
	whole := r.end == io.EOF
	r.mu.Unlock()
	if !whole {
		// A body still arriving (an event stream) ends with ctx. A whole
		// one (a JSON answer) is in memory: reading it never waits, and
		// watching ctx cost a context registration per call.
		b.stop = context.AfterFunc(ctx, func() {
			b.fail(ctx.Err())
			l.abort(id)
		})
	}
	resp.Body = b
	return resp, nil
}

// bodyDone is the stop of a body that was whole when it arrived.
func bodyDone() bool { return true }

// Whole returns the entire body when the helper delivered it in one piece
// (every response but an event stream) without copying it again; ok is
// false otherwise, and then the body must be read as a stream.
func (b *hostBody) Whole() (data []byte, ok bool) {
	b.r.mu.Lock()
	if b.r.end == io.EOF && len(b.cur) == 0 && len(b.r.q) <= 1 {
		ok = true
		if len(b.r.q) == 1 {
			data = b.r.q[0]
			b.r.q = nil
		}
		if data == nil {
			data = []byte{}
		}
	}
	b.r.mu.Unlock()
	return data, ok
}

// hostBody reads the chunks a helper delivered.
type hostBody struct {
	r    *hostReq
	l    *HostLink
	id   int
	stop func() bool
	cur  []byte

	mu     sync.Mutex
	closed bool
	err    error
}

func (b *hostBody) fail(err error) {
	b.mu.Lock()
	if b.err == nil {
		b.err = errf.Errorf("jsfetch: reading the response body: %w", err)
	}
	b.mu.Unlock()
	b.r.push(nil, err)
}

func (b *hostBody) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	if err := b.next(); err != nil {
		return 0, err
	}
	n := copy(p, b.cur)
	b.cur = b.cur[n:]
	return n, nil
}

// Chunk returns the next chunk the helper delivered, whole and without a
// copy (the caller may keep it: each chunk is a buffer of its own); it
// blocks as Read does and returns io.EOF at the end. The SSE reader
// (internal/sse) parses event streams from it in place.
func (b *hostBody) Chunk() ([]byte, error) {
	if err := b.next(); err != nil {
		return nil, err
	}
	c := b.cur
	b.cur = nil
	return c, nil
}

// next waits until b.cur holds unread bytes, or the body ended.
func (b *hostBody) next() error {
	for {
		if len(b.cur) > 0 {
			return nil
		}
		b.mu.Lock()
		closed, failed := b.closed, b.err
		b.mu.Unlock()
		if closed {
			return ErrBodyClosed
		}
		b.r.mu.Lock()
		if len(b.r.q) > 0 {
			b.cur = b.r.q[0]
			b.r.q[0] = nil
			b.r.q = b.r.q[1:]
			b.r.mu.Unlock()
			continue
		}
		end := b.r.end
		b.r.mu.Unlock()
		if failed != nil {
			return failed
		}
		if end != nil {
			if end == io.EOF {
				b.stop()
				return io.EOF
			}
			return errf.Errorf("jsfetch: reading the response body: %w", end)
		}
		<-b.r.wake
	}
}

func (b *hostBody) Close() error {
	b.mu.Lock()
	if b.closed {
		b.mu.Unlock()
		return nil
	}
	b.closed = true
	b.mu.Unlock()
	b.stop()
	b.l.abort(b.id)
	b.r.push(nil, ErrBodyClosed)
	return nil
}
