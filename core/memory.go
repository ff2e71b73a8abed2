package core

import (
	"context"
	"errors"
	"io"
	"sync"

	"github.com/mcpwasm/mcpwasm/jsonrpc"
)

// NewInMemoryTransports returns two connected transports, for tests and for
// embedding a server in the same process: messages sent on the Conn of one
// are received on the Conn of the other, encoded and decoded as on a real
// wire. Each transport can be connected once. Either side closing ends both.
func NewInMemoryTransports() (Transport, Transport) {
	p := &pipe{done: make(chan struct{})}
	a := &memConn{p: p, in: make(chan []byte, 64)}
	b := &memConn{p: p, in: make(chan []byte, 64)}
	a.peer, b.peer = b, a
	return &memTransport{conn: a}, &memTransport{conn: b}
}

type pipe struct {
	once sync.Once
	done chan struct{}
}

type memTransport struct {
	mu   sync.Mutex
	conn *memConn
}

// Connect returns the transport's end of the pipe; a second call fails.
func (t *memTransport) Connect(ctx context.Context) (Conn, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.conn == nil {
		return nil, errors.New("core: in-memory transport already connected")
	}
	c := t.conn
	t.conn = nil
	return c, nil
}

type memConn struct {
	p    *pipe
	in   chan []byte
	peer *memConn
}

func (c *memConn) Send(ctx context.Context, m jsonrpc.Message, _ *SendOptions) error {
	b, err := jsonrpc.EncodeMessage(m)
	if err != nil {
		return err
	}
	select {
	case c.peer.in <- b:
		return nil
	case <-c.p.done:
		return ErrClosed
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (c *memConn) Recv(ctx context.Context) (jsonrpc.Message, error) {
	for {
		select {
		case b := <-c.in:
			m, err := jsonrpc.DecodeMessage(b)
			if err != nil {
				// The other side sent garbage: answer like a peer would.
				_ = c.Send(ctx, &jsonrpc.Response{Error: &jsonrpc.Error{Code: CodeParseError, Message: err.Error()}}, nil)
				continue
			}
			return m, nil
		case <-c.p.done:
			return nil, io.EOF
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

func (c *memConn) Close() error {
	c.p.once.Do(func() { close(c.p.done) })
	return nil
}
