package guest

import (
	"context"
	"errors"
	"io"
	"slices"
	"strings"
	"sync"

	"github.com/mcpwasm/mcpwasm/internal/callctx"
	"github.com/mcpwasm/mcpwasm/transport/fetch"
	"github.com/mcpwasm/mcpwasm/wasm/abi"
)

// httpError is an HTTP failure reported by the host (mcpwasm_http_end with
// a message).
type httpError struct{ msg string }

func (e *httpError) Error() string { return "host HTTP: " + e.msg }

// errBodyClosed is returned by reads after Close.
var errBodyClosed = errors.New("mcpwasm: read on closed response body")

// handle is one HTTP request/response exchanged with the host.
//
// Life cycle: http_request → (mcpwasm_http_response | mcpwasm_http_end) →
// any number of http_read → (mcpwasm_http_body | mcpwasm_http_end) → and,
// exactly once per handle, http_close when the guest is done with it.
type handle struct {
	id uint32
	g  *Guest

	mu       sync.Mutex
	headDone bool
	headCh   chan struct{} // closed when headDone is set
	head     *abi.HTTPResponseHead
	headErr  error
	data     []byte
	eof      bool
	err      error // with eof: nil means io.EOF
	reading  bool  // an http_read is outstanding
	released bool  // http_close was sent
	wake     chan struct{}
}

// doer is the guest's fetch.Doer: HTTP through the host imports.
type doer struct{ g *Guest }

// Do implements fetch.Doer.
func (d *doer) Do(ctx context.Context, req *fetch.Request) (*fetch.Response, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	g := d.g
	head := appendHTTPRequestHead(nil, &abi.HTTPRequestHead{Method: req.Method, URL: req.URL, Headers: req.Header, NoRedirect: req.NoRedirect})
	h := &handle{g: g, headCh: make(chan struct{}), wake: make(chan struct{}, 1)}
	g.mu.Lock()
	h.id = g.newIDLocked()
	g.handles[h.id] = h
	g.mu.Unlock()
	g.host.HTTPRequest(h.id, head, req.Body)
	watch := callctx.AfterEnd(ctx, func() { h.abort(ctx.Err()) })
	<-h.headCh
	h.mu.Lock()
	rh, herr := h.head, h.headErr
	h.mu.Unlock()
	if herr != nil {
		watch.Stop()
		h.release()
		return nil, herr
	}
	resp := &fetch.Response{StatusCode: rh.Status, Header: make(fetch.Header, len(rh.Headers)), Body: &body{h: h, watch: watch}}
	for k, v := range rh.Headers {
		k = strings.ToLower(k)
		resp.Header[k] = append(resp.Header[k], v...)
	}
	if len(rh.Hidden) > 0 {
		hidden := make([]string, len(rh.Hidden))
		for i, n := range rh.Hidden {
			hidden[i] = strings.ToLower(n)
		}
		resp.Hidden = func(name string) bool { return slices.Contains(hidden, strings.ToLower(name)) }
	}
	return resp, nil
}

func (h *handle) signal() {
	select {
	case h.wake <- struct{}{}:
	default:
	}
}

// abort ends the exchange with err (the request's context ended).
func (h *handle) abort(err error) {
	h.mu.Lock()
	if !h.headDone {
		h.headDone = true
		h.headErr = err
		close(h.headCh)
	}
	if !h.eof {
		h.eof = true
		h.err = err
	}
	h.mu.Unlock()
	h.signal()
	h.release()
}

// release sends http_close once and forgets the handle.
func (h *handle) release() {
	h.mu.Lock()
	done := h.released
	h.released = true
	h.mu.Unlock()
	if done {
		return
	}
	h.g.mu.Lock()
	delete(h.g.handles, h.id)
	h.g.mu.Unlock()
	h.g.host.HTTPClose(h.id)
}

// body is a response body read from the host chunk by chunk.
type body struct {
	h     *handle
	watch callctx.Watch // of the request's context
}

func (b *body) Read(p []byte) (int, error) {
	h := b.h
	for {
		h.mu.Lock()
		if len(h.data) > 0 {
			n := copy(p, h.data)
			h.data = h.data[n:]
			h.mu.Unlock()
			return n, nil
		}
		if h.eof {
			err := h.err
			h.mu.Unlock()
			if err == nil {
				err = io.EOF
			}
			return 0, err
		}
		if len(p) == 0 {
			h.mu.Unlock()
			return 0, nil
		}
		ask := !h.reading
		h.reading = true
		h.mu.Unlock()
		if ask {
			h.g.host.HTTPRead(h.id)
		}
		<-h.wake
	}
}

func (b *body) Close() error {
	b.watch.Stop()
	h := b.h
	h.mu.Lock()
	if !h.eof {
		h.eof = true
		h.err = errBodyClosed
	}
	h.data = nil
	h.mu.Unlock()
	h.signal()
	h.release()
	return nil
}

func (g *Guest) handle(id uint32) (*handle, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	h := g.handles[id]
	if h == nil {
		return nil, errorf(abi.StatusNotFound, "no open HTTP handle %d", id)
	}
	return h, nil
}

// HTTPResponse delivers the response head (JSON abi.HTTPResponseHead) of
// handle id.
func (g *Guest) HTTPResponse(id uint32, head []byte) error {
	h, err := g.handle(id)
	if err != nil {
		return err
	}
	var rh abi.HTTPResponseHead
	if err := decodeStrict(head, (*httpResponseHead)(&rh), "HTTP response head"); err != nil {
		return err
	}
	if rh.Status < 100 || rh.Status > 999 {
		return errorf(abi.StatusInvalid, "HTTP response head: status %d out of range", rh.Status)
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.headDone {
		return errorf(abi.StatusInvalid, "HTTP handle %d already has its response head", id)
	}
	h.headDone = true
	h.head = &rh
	close(h.headCh)
	return nil
}

// HTTPBody delivers a chunk of the response body of handle id, answering
// its http_read. The guest keeps chunk (it must not be reused).
func (g *Guest) HTTPBody(id uint32, chunk []byte) error {
	h, err := g.handle(id)
	if err != nil {
		return err
	}
	h.mu.Lock()
	switch {
	case !h.headDone || h.headErr != nil:
		h.mu.Unlock()
		return errorf(abi.StatusInvalid, "HTTP handle %d: body chunk before the response head", id)
	case h.eof:
		h.mu.Unlock()
		return errorf(abi.StatusNotFound, "HTTP handle %d: body already ended", id)
	}
	if len(h.data) == 0 {
		h.data = chunk
	} else {
		h.data = append(h.data, chunk...)
	}
	h.reading = false
	h.mu.Unlock()
	h.signal()
	return nil
}

// HTTPEnd ends handle id: before the response head it is the request's
// failure (msg says why), afterwards the end of the body (msg empty: a
// normal end; otherwise a read error).
func (g *Guest) HTTPEnd(id uint32, msg []byte) error {
	h, err := g.handle(id)
	if err != nil {
		return err
	}
	h.mu.Lock()
	if !h.headDone {
		h.headDone = true
		text := string(msg)
		if text == "" {
			text = "the request failed before a response"
		}
		h.headErr = &httpError{msg: text}
		close(h.headCh)
		h.mu.Unlock()
		return nil
	}
	if h.eof {
		h.mu.Unlock()
		return errorf(abi.StatusNotFound, "HTTP handle %d: body already ended", id)
	}
	h.eof = true
	if len(msg) > 0 {
		h.err = &httpError{msg: string(msg)}
	}
	h.reading = false
	h.mu.Unlock()
	h.signal()
	return nil
}
