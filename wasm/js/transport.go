//go:build js

package main

import (
	"fmt"
	"syscall/js"

	"github.com/mcpwasm/mcpwasm/core"
	"github.com/mcpwasm/mcpwasm/internal/js/fetch"
	"github.com/mcpwasm/mcpwasm/transport/fetch"
	"github.com/mcpwasm/mcpwasm/transport/ws"
)

// newTransport builds the transport connect asked for: Streamable HTTP /
// HTTP+SSE over the JavaScript fetch (the page's own fetch function when
// one was passed), or WebSocket.
func newTransport(url string, o *connectOptions, fetchFn js.Value, host *jsfetch.HostLink) (core.Transport, error) {
	switch o.Transport {
	case "", "auto", fetch.ModeStreamableHTTP, fetch.ModeSSE:
		mode := o.Transport
		if mode == "" {
			mode = fetch.ModeAuto
		}
		doer, err := fetchDoer(o.Credentials, o.Mode, fetchFn, host)
		if err != nil {
			return nil, err
		}
		if o.Auth != nil { // OAuth (wasm/js/auth.go)
			if doer, err = authDoer(doer, o.Auth, o.authHooks); err != nil {
				return nil, err
			}
		}
		return fetch.New(url, &fetch.Options{Mode: mode, Header: o.Headers, MaxMessageSize: o.MaxMessageSize, HTTP: doer})
	case "websocket":
		return ws.New(url, &ws.Options{Header: o.Headers, MaxMessageSize: o.MaxMessageSize, Dialer: wsDialer()})
	case "port": // a transport implemented in JavaScript (port.go); the port comes in fetchFn's place
		return newPortTransport(fetchFn)
	}
	return nil, fmt.Errorf("mcpwasm: unknown transport %q", o.Transport)
}
