//go:build js

package jsws

import (
	"context"
	"errors"
	"time"

	"github.com/mcpwasm/mcpwasm/internal/errf"
	"github.com/mcpwasm/mcpwasm/transport/ws"
)

// Dialer is transport/ws's Dialer on the runtime's WebSocket class; wasm/js
// passes it to ws.Options.Dialer. The browser API cannot send handshake
// headers (SendsHeaders is false) or pings (Socket.Ping returns
// errors.ErrUnsupported). It has no state.
type Dialer struct{}

var _ ws.Dialer = Dialer{}

// SendsHeaders reports false: the WebSocket API cannot send handshake
// headers.
func (Dialer) SendsHeaders() bool { return false }

// Dial opens a WebSocket. A runtime without a WebSocket class (Node 20)
// fails with ws.ErrNoWebSocket.
func (Dialer) Dial(ctx context.Context, u string, o *ws.DialOptions) (ws.Socket, error) {
	if !Available() {
		return nil, ws.ErrNoWebSocket
	}
	s, err := Dial(ctx, u, o.Subprotocols, o.MaxMessageSize)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		err = mapErr(err)
		if ce, ok := err.(*ws.CloseError); ok {
			return nil, &openError{url: u, close: ce}
		}
		return nil, errf.Errorf("%w: %s: %w", ws.ErrDial, u, err)
	}
	return &socket{s: s}, nil
}

// openError is a WebSocket that closed before it opened. The WebSocket API
// does not say why; the close reason holds what the runtime offers (Node
// does, browsers leave it to their console).
type openError struct {
	_     [0]func() // not comparable: no generated equality function
	url   string
	close *ws.CloseError
}

func (e *openError) Error() string {
	msg := errf.Sprintf("%v: %s", ws.ErrDial, e.url)
	if e.close.Reason != "" {
		msg += ": " + e.close.Reason
	}
	return msg + errf.Sprintf(" (status %d; the server may be down, or it refused the handshake or the %q subprotocol, which the runtime requires it to select)", e.close.Code, ws.Subprotocol)
}

func (e *openError) Unwrap() []error { return []error{ws.ErrDial, e.close} }

func mapErr(err error) error {
	var ce *CloseError
	if errf.As(err, &ce) {
		return &ws.CloseError{Code: ce.Code, Reason: ce.Reason}
	}
	if errors.Is(err, ErrTooLarge) {
		return errf.Errorf("%w: %w", ws.ErrTooLarge, err)
	}
	return err
}

// socket adapts a Socket to ws.Socket.
type socket struct{ s *Socket }

func (s *socket) Read(ctx context.Context) (bool, []byte, error) {
	m, err := s.s.Read(ctx)
	if err != nil {
		return false, nil, mapErr(err)
	}
	return m.Text, m.Data, nil
}

func (s *socket) Write(ctx context.Context, data []byte) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return s.s.SendText(data)
}

func (s *socket) Ping(context.Context) error { return errors.ErrUnsupported }

func (s *socket) Close(code int, reason string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	return s.s.Close(ctx, code, reason)
}

func (s *socket) Abort() error {
	s.s.Abort()
	return nil
}

func (s *socket) Subprotocol() string { return s.s.Protocol() }
