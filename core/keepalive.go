package core

import (
	"context"
	"errors"

	"github.com/mcpwasm/mcpwasm/internal/errf"
)

// ErrKeepAlive is wrapped by the warning about a failed keepalive ping.
var ErrKeepAlive = errors.New("core: keepalive ping failed")

// startKeepAlive pings the server every ClientOptions.KeepAlive until the
// session ends. Each ping is bounded by the interval itself.
func (s *Session) startKeepAlive() {
	every := s.client.opts.KeepAlive
	if every <= 0 {
		return
	}
	s.wg.Add(1)
	go func() {
		// A timer re-armed after each ping rather than a ticker: the pings
		// stay an interval apart however long one takes, and the client's
		// clock (a fake one in tests) times them.
		t := s.client.clock.NewTimer(every)
		for {
			select {
			case <-s.ctx.Done():
				t.Stop()
				s.wg.Done()
				return
			case <-t.C():
			}
			ctx, cancel := context.WithTimeout(s.ctx, every)
			err := s.Ping(ctx)
			cancel()
			if err != nil && s.ctx.Err() == nil {
				s.warn(errf.Errorf("%w: %w", ErrKeepAlive, err))
			}
			t.Reset(every)
		}
	}()
}
