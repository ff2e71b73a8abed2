package fetch

import (
	"context"
	"errors"
	"io"
	"strings"

	"github.com/mcpwasm/mcpwasm/core"
	"github.com/mcpwasm/mcpwasm/internal/errf"
	"github.com/mcpwasm/mcpwasm/internal/sse"
	"github.com/mcpwasm/mcpwasm/internal/urlx"
	"github.com/mcpwasm/mcpwasm/jsonrpc"
)

// legacySSE is the state of the 2024-11-05 HTTP+SSE transport: one GET
// stream carries every server message, and the client POSTs its messages to
// the endpoint the server announced in its first event.
type legacySSE struct {
	postURL string
}

func (c *conn) sse() *legacySSE {
	c.mu.Lock()
	l := c.legacySSE
	c.mu.Unlock()
	return l
}

// fallbackToSSE switches to the HTTP+SSE transport after a Streamable HTTP
// initialize was refused with 400, 404 or 405, and re-sends initialize.
func (c *conn) fallbackToSSE(ctx context.Context, m *jsonrpc.Request, opts *core.SendOptions, cause error) error {
	if err := c.openLegacySSE(ctx); err != nil {
		return errf.Errorf("%w (the HTTP+SSE fallback failed too: %v)", cause, err)
	}
	c.t.rememberSSE()
	return c.sendLegacySSE(ctx, m, opts)
}

// openLegacySSE opens the GET stream and waits for the endpoint event.
func (c *conn) openLegacySSE(ctx context.Context) error {
	c.sseOpen.Lock()
	err := c.openLegacySSELocked(ctx)
	c.sseOpen.Unlock()
	return err
}

func (c *conn) openLegacySSELocked(ctx context.Context) error {
	c.mu.Lock()
	if c.legacySSE != nil {
		c.mu.Unlock()
		return nil
	}
	if c.legacyFailed != nil {
		err := c.legacyFailed
		c.mu.Unlock()
		return err
	}
	c.mu.Unlock()

	resp, err := c.do(c.ctx, "GET", c.t.endpoint, nil, hAccept, mimeSSE)
	if err != nil {
		return errf.Errorf("fetch: GET %s: %w", c.t.endpoint, err)
	}
	ct := mediaType(resp.Header.Get("Content-Type"))
	if resp.StatusCode != 200 || ct != "text/event-stream" {
		b := readErrorBody(resp)
		return &StatusError{StatusCode: resp.StatusCode, Body: string(b), Header: resp.Header}
	}
	endpoint := make(chan error, 1)
	c.wg.Add(1)
	go c.readLegacySSE(resp.Body, endpoint)
	select {
	case err := <-endpoint:
		if err != nil {
			c.mu.Lock()
			c.legacyFailed = err
			c.mu.Unlock()
			return err
		}
		return nil
	case <-ctx.Done():
		resp.Body.Close()
		return ctx.Err()
	}
}

// errSSEEnded is the end of the HTTP+SSE stream.
var errSSEEnded = errf.Errorf("fetch: HTTP+SSE stream ended: %w", ErrStreamEnded)

// readLegacySSE reads the HTTP+SSE stream: the endpoint event first, then
// messages. The end of the stream ends the connection.
func (c *conn) readLegacySSE(body io.ReadCloser, endpoint chan<- error) {
	stop := context.AfterFunc(c.ctx, func() { body.Close() })
	r := sse.NewReader(body, &sse.ReaderOptions{MaxEventSize: c.t.opts.MaxMessageSize})
	if err := c.legacyEvents(r, endpoint); err != nil && c.ctx.Err() == nil {
		if !errors.Is(err, io.EOF) {
			err = errf.Errorf("%w: %w", errSSEEnded, err)
		} else {
			err = errSSEEnded
		}
		c.legacyLost(err)
	}
	stop()
	body.Close()
	c.wg.Done()
}

// legacyEvents delivers the HTTP+SSE stream's events until it ends; it
// returns why, once the endpoint was announced (before, endpoint gets the
// error and legacyEvents returns nil).
func (c *conn) legacyEvents(r *sse.Reader, endpoint chan<- error) error {
	announced := false
	for {
		ev, err := r.Next()
		if err != nil {
			if !announced {
				endpoint <- errf.Errorf("%w: %v", ErrNoEndpoint, err)
				return nil
			}
			return err
		}
		switch {
		case ev.Type == "endpoint":
			u, err := c.resolveEndpoint(string(ev.Data))
			if err != nil {
				if !announced {
					endpoint <- err
					return nil
				}
				continue
			}
			c.mu.Lock()
			c.legacySSE = &legacySSE{postURL: u}
			c.mu.Unlock()
			if !announced {
				announced = true
				endpoint <- nil
			}
		case ev.Type == "" || ev.Type == "message":
			if len(ev.Data) == 0 {
				continue
			}
			var one [1]jsonrpc.Message // room for the event's message
			msgs, err := jsonrpc.AppendMessages(one[:0], ev.Data)
			if err != nil {
				continue
			}
			for _, m := range msgs {
				c.push(m)
			}
		}
	}
}

// resolveEndpoint resolves the announced POST URL, which must stay on the
// server's origin (credentials must not leak to another origin).
func (c *conn) resolveEndpoint(ref string) (string, error) {
	base, err := urlx.Parse(c.t.endpoint)
	if err != nil {
		return "", err
	}
	u, err := base.Parse(strings.TrimSpace(ref))
	if err != nil {
		return "", errf.Errorf("fetch: invalid endpoint event %q: %w", ref, err)
	}
	if u.Scheme != base.Scheme || u.Host != base.Host {
		return "", errf.Errorf("fetch: endpoint event %q points to another origin", ref)
	}
	return u.String(), nil
}

// sendLegacySSE POSTs a message to the HTTP+SSE endpoint.
func (c *conn) sendLegacySSE(ctx context.Context, msg jsonrpc.Message, opts *core.SendOptions) error {
	if core.IsModernVersion(opts.ProtocolVersion) {
		return errf.Errorf("%w: the server speaks the 2024-11-05 HTTP+SSE transport", core.ErrNotModern)
	}
	if err := c.openLegacySSE(ctx); err != nil {
		return err
	}
	l := c.sse()
	if l == nil {
		return errSSEEnded
	}
	req, _ := msg.(*jsonrpc.Request)
	id := int64(-1)
	if req != nil && !req.IsNotification() {
		if v, ok := req.ID.Raw().(int64); ok {
			id = v
		}
	}
	if err := c.newSSESession(req); err != nil {
		return err
	}
	body, err := jsonrpc.EncodeMessage(msg)
	if err != nil {
		return err
	}
	if id >= 0 {
		c.mu.Lock()
		if c.sseInFlight == nil {
			c.sseInFlight = map[int64]struct{}{}
		}
		c.sseInFlight[id] = struct{}{}
		c.mu.Unlock()
	}
	resp, err := c.do(ctx, "POST", l.postURL, body, hContentType, mimeJSON)
	if err != nil {
		c.forgetInFlight(id)
		return errf.Errorf("fetch: POST %s: %w", l.postURL, err)
	}
	b := readErrorBody(resp)
	if resp.StatusCode >= 200 && resp.StatusCode < 300 {
		return nil
	}
	c.forgetInFlight(id)
	method := ""
	if r, ok := msg.(*jsonrpc.Request); ok {
		method = r.Method
		if rr := jsonrpcError(b); rr != nil && !r.IsNotification() {
			rr.ID = r.ID
			c.push(rr)
			return nil
		}
	}
	return &StatusError{StatusCode: resp.StatusCode, Body: string(b), Header: resp.Header, Method: method}
}
