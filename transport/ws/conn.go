package ws

import (
	"bytes"
	"context"
	"errors"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/mcpwasm/mcpwasm/core"
	"github.com/mcpwasm/mcpwasm/internal/errf"
	"github.com/mcpwasm/mcpwasm/internal/inbox"
	"github.com/mcpwasm/mcpwasm/internal/jsonscan"
	"github.com/mcpwasm/mcpwasm/internal/wire"
	"github.com/mcpwasm/mcpwasm/jsonrpc"
)

// conn is one MCP connection over a sequence of sockets (one, unless a
// modern session reconnects).
type conn struct {
	t      *Transport
	in     chan jsonrpc.Message
	ctx    context.Context // ends with Close or a fatal error
	cancel context.CancelFunc
	wg     sync.WaitGroup
	dialMu sync.Mutex // one dial at a time

	mu       sync.Mutex
	cur      *link // nil while disconnected
	legacy   bool  // the server holds session state for this socket
	closed   bool
	fatal    error
	lastDrop error // why the last socket went away
}

// link is one socket and the requests in flight on it.
type link struct {
	s        Socket
	inflight map[int64]struct{} // guarded by conn.mu
}

func newConn(t *Transport) *conn {
	c := &conn{t: t, in: make(chan jsonrpc.Message, 256)}
	c.ctx, c.cancel = context.WithCancel(context.Background())
	return c
}

// link returns the current socket, dialling one when there is none and
// the connection may reconnect.
func (c *conn) link(ctx context.Context) (*link, error) {
	c.mu.Lock()
	l, err := c.cur, c.stateErrLocked()
	c.mu.Unlock()
	if err != nil || l != nil {
		return l, err
	}
	c.dialMu.Lock()
	l, err = c.dial(ctx)
	c.dialMu.Unlock()
	return l, err
}

// dial makes a new socket the current one (dialMu is held), unless
// another Send made one meanwhile or the connection may not reconnect.
func (c *conn) dial(ctx context.Context) (*link, error) {
	c.mu.Lock()
	l, err := c.cur, c.stateErrLocked()
	c.mu.Unlock()
	if err != nil || l != nil {
		return l, err
	}
	s, err := c.t.open(ctx)
	if err != nil {
		return nil, err
	}
	l = &link{s: s, inflight: map[int64]struct{}{}}
	c.mu.Lock()
	if err := c.stateErrLocked(); err != nil {
		c.mu.Unlock()
		_ = s.Close(1000, "")
		return nil, err
	}
	c.cur = l
	// Add under mu: Close (which sets closed under mu, then waits) cannot
	// be waiting yet.
	ping := c.t.opts.PingInterval > 0 && canPing
	c.wg.Add(1)
	if ping {
		c.wg.Add(1)
	}
	c.mu.Unlock()
	go c.readLoop(l)
	if ping {
		go c.pingLoop(l)
	}
	return l, nil
}

// stateErrLocked says why no socket may be used or dialled, if so.
func (c *conn) stateErrLocked() error {
	switch {
	case c.closed:
		return core.ErrClosed
	case c.fatal != nil:
		return c.fatal
	case c.cur == nil && c.lastDrop != nil && (c.legacy || c.t.opts.DisableReconnect):
		return c.lastDrop
	}
	return nil
}

func (c *conn) Send(ctx context.Context, msg jsonrpc.Message, opts *core.SendOptions) error {
	if opts == nil {
		opts = &core.SendOptions{}
	}
	b, err := jsonrpc.EncodeMessage(msg)
	if err != nil {
		return err
	}
	var reqID int64
	hasID := false
	switch m := msg.(type) {
	case *jsonrpc.Request:
		if m.Method == core.MethodInitialize || (opts.ProtocolVersion != "" && !core.IsModernVersion(opts.ProtocolVersion)) {
			c.mu.Lock()
			c.legacy = true
			c.mu.Unlock()
		}
		if id, ok := m.ID.Raw().(int64); ok {
			reqID, hasID = id, true
		}
		if id, ok := wire.CancelledRequestID(m); ok {
			// The server should not answer a cancelled request: stop
			// tracking it.
			c.untrack(id)
		}
	}
	l, err := c.link(ctx)
	if err != nil {
		return err
	}
	if hasID {
		c.mu.Lock()
		if c.cur != l {
			// The socket went away since link returned: its requests
			// were failed already.
			c.mu.Unlock()
			return errf.Errorf("%w: %w", ErrConnectionLost, c.lastDropOr(core.ErrClosed))
		}
		l.inflight[reqID] = struct{}{}
		c.mu.Unlock()
	}
	if err := ctx.Err(); err != nil {
		if hasID {
			c.untrack(reqID)
		}
		return err
	}
	// The write runs under the connection's context, not ctx: a frame
	// abandoned half-way would corrupt the stream (coder/websocket closes
	// the connection when a write's context ends), and ctx may end the
	// moment the response arrives, before Write has returned.
	if err := l.s.Write(c.ctx, b); err != nil {
		if hasID {
			c.untrack(reqID)
		}
		c.mu.Lock()
		closed := c.closed
		c.mu.Unlock()
		if closed {
			return core.ErrClosed
		}
		return errf.Errorf("ws: sending: %w", err)
	}
	return nil
}

// lastDropOr returns why the last socket went away, or def.
func (c *conn) lastDropOr(def error) error {
	c.mu.Lock()
	err := c.lastDrop
	c.mu.Unlock()
	if err != nil {
		return err
	}
	return def
}

func (c *conn) untrack(id int64) {
	c.mu.Lock()
	if c.cur != nil {
		delete(c.cur.inflight, id)
	}
	c.mu.Unlock()
}

func (c *conn) Recv(ctx context.Context) (jsonrpc.Message, error) {
	return inbox.Recv(ctx, c.in, c.ctx.Done(), func() error {
		c.mu.Lock()
		err := c.fatal
		c.mu.Unlock()
		return err
	})
}

// push delivers an incoming message; it gives up when the connection ends.
func (c *conn) push(m jsonrpc.Message) {
	select {
	case c.in <- m:
	case <-c.ctx.Done():
	}
}

func (c *conn) Close() error {
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return nil
	}
	c.closed = true
	l := c.cur
	c.cur = nil
	c.mu.Unlock()
	if l != nil {
		// Close first: cancelling the context would cut the socket before
		// the close frame went out.
		_ = l.s.Close(1000, "")
	}
	c.cancel()
	c.wg.Wait()
	return nil
}

// readLoop reads the socket's frames until it closes.
func (c *conn) readLoop(l *link) {
	for {
		text, data, err := l.s.Read(c.ctx)
		if err != nil {
			c.drop(l, err)
			c.wg.Done()
			return
		}
		if !text {
			c.malformed(l, nil, errf.Errorf("%w: a binary frame (%d bytes); MCP over WebSocket uses text frames", ErrMalformed, len(data)))
			continue
		}
		msgs, err := jsonrpc.DecodeMessages(data)
		if err != nil {
			c.malformed(l, data, errf.Errorf("%w: %w", ErrMalformed, err))
			continue
		}
		for _, m := range msgs {
			if r, ok := m.(*jsonrpc.Response); ok {
				if id, ok := r.ID.Raw().(int64); ok {
					c.mu.Lock()
					delete(l.inflight, id)
					c.mu.Unlock()
				}
			}
			c.push(m)
		}
	}
}

// malformed handles a frame that is not a JSON-RPC message: a response it
// still identifies fails its request, a request it identifies is answered
// with Invalid Request, anything else is reported without an id.
func (c *conn) malformed(l *link, data []byte, err error) {
	var probe probeMembers
	var id jsonrpc.ID
	if data != nil && bytes.HasPrefix(bytes.TrimSpace(data), []byte("{")) && probe.read(data) &&
		len(probe.ID) > 0 && id.UnmarshalJSON(probe.ID) == nil && id.IsValid() {
		switch {
		case len(probe.Method) > 0:
			resp := &jsonrpc.Response{ID: id, Error: &jsonrpc.Error{Code: -32600, Message: "Invalid Request: " + err.Error()}}
			if b, eerr := jsonrpc.EncodeMessage(resp); eerr == nil {
				_ = l.s.Write(c.ctx, b)
			}
			c.push(&jsonrpc.Response{TransportErr: errf.Errorf("%w (answered with Invalid Request)", err)})
			return
		case len(probe.Result) > 0 || len(probe.Error) > 0:
			if n, ok := id.Raw().(int64); ok {
				c.mu.Lock()
				delete(l.inflight, n)
				c.mu.Unlock()
			}
			c.push(&jsonrpc.Response{ID: id, TransportErr: err})
			return
		}
	}
	c.push(&jsonrpc.Response{TransportErr: err})
}

// drop handles the end of a socket: the connection ends, or (modern
// sessions) the requests in flight on it fail and the next Send dials.
func (c *conn) drop(l *link, err error) {
	var ce *CloseError
	switch {
	case errf.As(err, &ce), errors.Is(err, ErrTooLarge):
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		// The TCP connection ended without a close frame. (Not wrapping
		// io.EOF: the session would take it for an orderly end.)
		err = &CloseError{Code: 1006}
	default:
		err = errf.Errorf("ws: the connection broke: %w", err)
	}
	c.mu.Lock()
	if c.cur != l || c.closed {
		c.mu.Unlock()
		return
	}
	c.cur = nil
	c.lastDrop = err
	fatal := c.legacy || c.t.opts.DisableReconnect
	if fatal && c.fatal == nil {
		c.fatal = err
	}
	ids := l.inflight
	l.inflight = map[int64]struct{}{}
	c.mu.Unlock()
	_ = l.s.Abort()
	if fatal {
		c.cancel()
		return
	}
	for id := range ids {
		c.push(&jsonrpc.Response{ID: jsonrpc.Int64ID(id), TransportErr: errf.Errorf("%w: %w", ErrConnectionLost, err)})
	}
}

// pingLoop pings the socket; an unanswered ping drops it.
func (c *conn) pingLoop(l *link) {
	defer c.wg.Done()
	d := c.t.opts.PingInterval
	t := time.NewTicker(d)
	defer t.Stop()
	for {
		select {
		case <-c.ctx.Done():
			return
		case <-t.C:
		}
		c.mu.Lock()
		current := c.cur == l
		c.mu.Unlock()
		if !current {
			return
		}
		ctx, cancel := context.WithTimeout(c.ctx, d)
		err := l.s.Ping(ctx)
		cancel()
		if errors.Is(err, errors.ErrUnsupported) {
			return // the socket cannot ping (the browser WebSocket API)
		}
		if err != nil && c.ctx.Err() == nil {
			c.drop(l, errf.Errorf("no pong within %v: %w", d, err))
			return
		}
	}
}

// probeMembers are the members malformed looks for in a frame, raw.
type probeMembers struct {
	ID, Method, Result, Error []byte
}

// read fills p from the JSON object data as encoding/json's Unmarshal into
// a struct of json.RawMessage fields would (names matched
// case-insensitively, the last one winning); false if data is not a valid
// JSON object.
func (p *probeMembers) read(data []byte) bool {
	obj, err := jsonscan.ParseObject(data)
	if err != nil {
		return false
	}
	for _, m := range obj {
		switch {
		case strings.EqualFold(m.Key, "id"):
			p.ID = m.Val
		case strings.EqualFold(m.Key, "method"):
			p.Method = m.Val
		case strings.EqualFold(m.Key, "result"):
			p.Result = m.Val
		case strings.EqualFold(m.Key, "error"):
			p.Error = m.Val
		}
	}
	return true
}
