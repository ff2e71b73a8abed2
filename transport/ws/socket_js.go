//go:build js

package ws

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/mcpwasm/mcpwasm/internal/jsws"
)

// canSendHeaders: the browser WebSocket API cannot send handshake headers.
const canSendHeaders = false

// canPing: the browser WebSocket API cannot send pings.
const canPing = false

type jsSocket struct{ s *jsws.Socket }

func dial(ctx context.Context, u string, o *Options) (socket, error) {
	if !jsws.Available() {
		return nil, ErrNoWebSocket
	}
	s, err := jsws.Dial(ctx, u, []string{Subprotocol}, o.MaxMessageSize)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		err = mapErr(err)
		if ce, ok := err.(*CloseError); ok {
			return nil, &openError{url: u, close: ce}
		}
		return nil, fmt.Errorf("%w: %s: %w", ErrDial, u, err)
	}
	return &jsSocket{s: s}, nil
}

// openError is a WebSocket that closed before it opened. The WebSocket API
// does not say why; the close reason holds what the runtime offers (Node
// does, browsers leave it to their console).
type openError struct {
	url   string
	close *CloseError
}

func (e *openError) Error() string {
	msg := fmt.Sprintf("%v: %s", ErrDial, e.url)
	if e.close.Reason != "" {
		msg += ": " + e.close.Reason
	}
	return msg + fmt.Sprintf(" (status %d; the server may be down, or it refused the handshake or the %q subprotocol, which the runtime requires it to select)", e.close.Code, Subprotocol)
}

func (e *openError) Unwrap() []error { return []error{ErrDial, e.close} }

func mapErr(err error) error {
	var ce *jsws.CloseError
	if errors.As(err, &ce) {
		return &CloseError{Code: ce.Code, Reason: ce.Reason}
	}
	if errors.Is(err, jsws.ErrTooLarge) {
		return fmt.Errorf("%w: %w", ErrTooLarge, err)
	}
	return err
}

func (s *jsSocket) Read(ctx context.Context) (bool, []byte, error) {
	m, err := s.s.Read(ctx)
	if err != nil {
		return false, nil, mapErr(err)
	}
	return m.Text, m.Data, nil
}

func (s *jsSocket) Write(ctx context.Context, data []byte) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return s.s.SendText(data)
}

func (s *jsSocket) Ping(context.Context) error { return errors.ErrUnsupported }

func (s *jsSocket) Close(code int, reason string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	return s.s.Close(ctx, code, reason)
}

func (s *jsSocket) Abort() error {
	s.s.Abort()
	return nil
}

func (s *jsSocket) Subprotocol() string { return s.s.Protocol() }
