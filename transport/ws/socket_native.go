//go:build !js

package ws

import (
	"context"
	"errors"
	"io"
	"net/http"

	"github.com/coder/websocket"
	"github.com/mcpwasm/mcpwasm/internal/errf"
	"github.com/mcpwasm/mcpwasm/internal/oneline"
)

// defaultDialer is Options.Dialer's default: github.com/coder/websocket.
func defaultDialer() Dialer { return nativeDialer{} }

// nativeDialer dials with github.com/coder/websocket.
type nativeDialer struct{}

// SendsHeaders: native handshakes may carry headers.
func (nativeDialer) SendsHeaders() bool { return true }

type nativeSocket struct{ c *websocket.Conn }

func (nativeDialer) Dial(ctx context.Context, u string, o *DialOptions) (Socket, error) {
	h := http.Header{}
	for k, v := range o.Header {
		h.Set(k, v)
	}
	c, resp, err := websocket.Dial(ctx, u, &websocket.DialOptions{
		Subprotocols: o.Subprotocols,
		HTTPHeader:   h,
	})
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if resp != nil && resp.StatusCode != http.StatusSwitchingProtocols {
			var body []byte
			if resp.Body != nil {
				body, _ = io.ReadAll(io.LimitReader(resp.Body, 512))
				resp.Body.Close()
			}
			detail := ""
			if b := oneline.Cut(string(body), 200); b != "" {
				detail = ": " + b
			}
			return nil, errf.Errorf("%w: %s answered HTTP %d%s", ErrDial, u, resp.StatusCode, detail)
		}
		return nil, errf.Errorf("%w: %s: %w", ErrDial, u, err)
	}
	c.SetReadLimit(int64(o.MaxMessageSize))
	return &nativeSocket{c: c}, nil
}

func (s *nativeSocket) Read(ctx context.Context) (bool, []byte, error) {
	typ, data, err := s.c.Read(ctx)
	if err != nil {
		if code := websocket.CloseStatus(err); code != -1 {
			var ce websocket.CloseError
			errors.As(err, &ce)
			return false, nil, &CloseError{Code: int(code), Reason: ce.Reason}
		}
		if errors.Is(err, websocket.ErrMessageTooBig) {
			return false, nil, errf.Errorf("%w: %w", ErrTooLarge, err)
		}
		return false, nil, err
	}
	return typ == websocket.MessageText, data, nil
}

func (s *nativeSocket) Write(ctx context.Context, data []byte) error {
	return s.c.Write(ctx, websocket.MessageText, data)
}

func (s *nativeSocket) Ping(ctx context.Context) error { return s.c.Ping(ctx) }

func (s *nativeSocket) Close(code int, reason string) error {
	return s.c.Close(websocket.StatusCode(code), reason)
}

func (s *nativeSocket) Abort() error { return s.c.CloseNow() }

func (s *nativeSocket) Subprotocol() string { return s.c.Subprotocol() }
