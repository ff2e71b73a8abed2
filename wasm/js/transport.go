//go:build js

package main

import (
	"syscall/js"

	"github.com/mcpwasm/mcpwasm/core"
	schema "github.com/mcpwasm/mcpwasm/internal/bridge"
	"github.com/mcpwasm/mcpwasm/internal/errf"
	"github.com/mcpwasm/mcpwasm/internal/js/fetch"
	"github.com/mcpwasm/mcpwasm/transport/fetch"
	"github.com/mcpwasm/mcpwasm/transport/ws"
)

// newTransport builds the transport connect asked for: Streamable HTTP /
// HTTP+SSE over the JavaScript fetch (the page's own fetch function when
// one was passed), WebSocket, or a transport written in JavaScript (a port).
func newTransport(url string, o *schema.ConnectConfig, fetchFn, authHooks js.Value, host *jsfetch.HostLink) (core.Transport, error) {
	switch o.Transport {
	case "", schema.TransportAuto, schema.TransportStreamableHTTP, schema.TransportSSE:
		doer, err := fetchDoer(o.Credentials, o.FetchMode, fetchFn, host)
		if err != nil {
			return nil, err
		}
		if o.Auth != nil { // OAuth (wasm/js/auth.go)
			if doer, err = authDoer(doer, o.Auth, authHooks); err != nil {
				return nil, err
			}
		}
		return fetch.New(url, &fetch.Options{Mode: o.FetchTransportMode(), Header: o.Headers, MaxMessageSize: o.MaxMessageSize,
			Retry: o.SSERetry(), MaxReconnects: o.MaxReconnects, HTTP: doer})
	case schema.TransportWebSocket:
		return ws.New(url, &ws.Options{Header: o.Headers, MaxMessageSize: o.MaxMessageSize, Dialer: wsDialer()})
	case schema.TransportPort: // a transport implemented in JavaScript (port.go); the port comes in fetchFn's place
		return newPortTransport(fetchFn)
	}
	return nil, errf.Errorf("mcpwasm: unknown transport %q", o.Transport)
}
