//go:build js

package ws

import (
	"context"

	"github.com/mcpwasm/mcpwasm/internal/errf"
)

// defaultDialer is Options.Dialer's default under GOOS=js: none. The
// runtime's WebSocket class is reached only through syscall/js, which this
// package does not import; mcpwasm's JavaScript module passes the dialer of
// internal/js/ws.
func defaultDialer() Dialer { return &noDialer{} }

type noDialer struct{}

func (*noDialer) Dial(context.Context, string, *DialOptions) (Socket, error) {
	return nil, errf.Errorf("%w: no Options.Dialer (this build has no WebSocket of its own)", ErrNoWebSocket)
}

func (*noDialer) SendsHeaders() bool { return true }
