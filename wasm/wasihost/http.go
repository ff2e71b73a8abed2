package wasihost

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"

	"github.com/tetratelabs/wazero/api"

	"github.com/mcpwasm/mcpwasm/transport/fetch"
	"github.com/mcpwasm/mcpwasm/wasm/abi"
)

// chunkSize bounds one body chunk delivered to the guest.
const chunkSize = 32 << 10

// httpCall is one HTTP exchange the guest asked for. Its goroutine performs
// the request, then one body read per http_read; results go to the guest
// through the pump.
type httpCall struct {
	id         uint32
	ctx        context.Context
	cancel     context.CancelFunc
	reads      chan struct{} // buffered, 1
	noRedirect bool          // deliver a redirect instead of following it
}

// importHTTPRequest is http_request(handle, head_ptr, head_len, body_ptr,
// body_len). It runs on the pump goroutine, inside a guest call: it copies
// its arguments and starts the exchange without blocking.
func (h *Host) importHTTPRequest(_ context.Context, m api.Module, stack []uint64) {
	id := api.DecodeU32(stack[0])
	headB, ok1 := m.Memory().Read(api.DecodeU32(stack[1]), api.DecodeU32(stack[2]))
	bodyB, ok2 := m.Memory().Read(api.DecodeU32(stack[3]), api.DecodeU32(stack[4]))
	c := &httpCall{id: id, reads: make(chan struct{}, 1)}
	c.ctx, c.cancel = context.WithCancel(h.ctx)
	if old := h.handles[id]; old != nil {
		old.cancel()
	}
	h.handles[id] = c
	var head abi.HTTPRequestHead
	var err error
	switch {
	case !ok1 || !ok2:
		err = errors.New("http_request arguments are out of range")
	default:
		err = json.Unmarshal(headB, &head)
	}
	var req *http.Request
	if err == nil {
		var body io.Reader
		if len(bodyB) > 0 {
			body = bytes.NewReader(append([]byte(nil), bodyB...))
		}
		req, err = http.NewRequestWithContext(c.ctx, head.Method, head.URL, body)
	}
	if err == nil {
		c.noRedirect = head.NoRedirect
		for name, values := range head.Headers {
			for _, v := range values {
				req.Header.Add(name, v)
			}
		}
		fetch.Replayable(req) // as the native transport: a POST survives a kept-alive connection the server closed
	}
	h.wg.Add(1)
	go h.runHTTP(c, req, err)
}

// importHTTPRead is http_read(handle): the guest wants the next body chunk.
func (h *Host) importHTTPRead(_ context.Context, _ api.Module, stack []uint64) {
	if c := h.handles[api.DecodeU32(stack[0])]; c != nil {
		select {
		case c.reads <- struct{}{}:
		default:
		}
	}
}

// importHTTPClose is http_close(handle): the guest is done with it.
func (h *Host) importHTTPClose(_ context.Context, _ api.Module, stack []uint64) {
	id := api.DecodeU32(stack[0])
	if c := h.handles[id]; c != nil {
		delete(h.handles, id)
		c.cancel()
	}
}

// deliver runs f on the pump if the handle is still open.
func (h *Host) deliver(c *httpCall, f func()) bool {
	return h.submit(func() {
		if h.dead || h.handles[c.id] != c {
			return
		}
		f()
	}) == nil
}

// deliverEnd sends mcpwasm_http_end(handle, msg).
func (h *Host) deliverEnd(c *httpCall, msg string) {
	h.deliver(c, func() { _, _ = h.callInput(abi.ExportHTTPEnd, []byte(msg), uint64(c.id)) })
}

func (h *Host) runHTTP(c *httpCall, req *http.Request, err error) {
	defer h.wg.Done()
	defer c.cancel()
	if err != nil {
		h.deliverEnd(c, "invalid request: "+err.Error())
		return
	}
	client := h.http
	if c.noRedirect {
		nc := *client
		nc.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
		client = &nc
	}
	resp, err := client.Do(req)
	if err != nil {
		h.deliverEnd(c, err.Error())
		return
	}
	defer resp.Body.Close()
	head := abi.HTTPResponseHead{Status: resp.StatusCode, Headers: make(map[string][]string, len(resp.Header))}
	for k, v := range resp.Header {
		head.Headers[strings.ToLower(k)] = v
	}
	b, _ := json.Marshal(&head)
	if !h.deliver(c, func() { _, _ = h.callInput(abi.ExportHTTPResponse, b, uint64(c.id)) }) {
		return
	}
	buf := make([]byte, chunkSize)
	for {
		select {
		case <-c.reads:
		case <-c.ctx.Done():
			return
		}
		n, err := resp.Body.Read(buf)
		if n > 0 {
			chunk := append([]byte(nil), buf[:n]...)
			ok := h.deliver(c, func() { _, _ = h.callInput(abi.ExportHTTPBody, chunk, uint64(c.id)) })
			if !ok {
				return
			}
			if err == nil {
				continue
			}
			// Deliver the end on the next read.
			select {
			case <-c.reads:
			case <-c.ctx.Done():
				return
			}
		}
		if err != nil {
			msg := ""
			if !errors.Is(err, io.EOF) {
				msg = err.Error()
			}
			h.deliverEnd(c, msg)
			return
		}
	}
}
