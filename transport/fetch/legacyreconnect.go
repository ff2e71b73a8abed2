package fetch

import (
	"github.com/mcpwasm/mcpwasm/core"
	"github.com/mcpwasm/mcpwasm/internal/errf"
	"github.com/mcpwasm/mcpwasm/jsonrpc"
)

// The 2024-11-05 HTTP+SSE transport has one GET stream for everything the
// server sends. When it ends (the server restarted, a proxy cut it), the
// requests whose responses were due on it fail at once, and the stream is
// re-opened with the same bounded reconnection as the Streamable HTTP
// streams. The server behind the new stream has a new session: the first
// request after it is refused with core.ErrSessionExpired (not sent), which
// makes the session re-initialize and retry. When every attempt fails, the
// connection ends as before.

// legacyLost handles the end of the HTTP+SSE stream.
func (c *conn) legacyLost(cause error) {
	c.mu.Lock()
	c.legacySSE = nil
	c.sseReinit = true
	lost := c.sseInFlight
	c.sseInFlight = nil
	warn := c.warn
	c.mu.Unlock()
	for id := range lost {
		c.push(&jsonrpc.Response{ID: jsonrpc.Int64ID(id), TransportErr: cause})
	}
	if warn != nil {
		warn(errf.Errorf("%w; re-opening it", cause))
	}
	c.wg.Add(1)
	go c.reopenLegacySSE(cause)
}

// reopenLegacySSE re-opens the HTTP+SSE stream, or ends the connection
// after Options.MaxReconnects failed attempts in a row.
func (c *conn) reopenLegacySSE(cause error) {
	st := c.newReconnect("", 0)
	for {
		if st.failures >= c.t.opts.MaxReconnects {
			c.fail(errf.Errorf("fetch: HTTP+SSE stream could not be re-opened after %d attempts: %w", st.failures, cause))
			break
		}
		if !sleep(c.ctx, st.delay()) {
			break
		}
		c.mu.Lock()
		c.legacyFailed = nil // each attempt is a fresh try
		c.mu.Unlock()
		err := c.openLegacySSE(c.ctx)
		if err == nil || c.ctx.Err() != nil {
			break
		}
		cause = err
		st.failures++
	}
	c.wg.Done()
}

// newSSESession refuses the first request (other than initialize) after
// the stream was re-opened: the server's session is new, so the session
// must re-initialize first.
func (c *conn) newSSESession(req *jsonrpc.Request) error {
	if req == nil {
		return nil
	}
	c.mu.Lock()
	reinit := c.sseReinit
	if reinit && req.Method == core.MethodInitialize {
		c.sseReinit = false
	}
	c.mu.Unlock()
	if !reinit || req.Method == core.MethodInitialize || req.IsNotification() {
		return nil
	}
	return errf.Errorf("%w: the HTTP+SSE stream was re-opened (a new server session)", core.ErrSessionExpired)
}

// forgetInFlight drops a request whose POST failed from the requests due
// on the stream.
func (c *conn) forgetInFlight(id int64) {
	if id < 0 {
		return
	}
	c.mu.Lock()
	delete(c.sseInFlight, id)
	c.mu.Unlock()
}
