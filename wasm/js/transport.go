//go:build js

package main

import (
	"fmt"
	"syscall/js"

	"github.com/mcpwasm/mcpwasm/core"
	schema "github.com/mcpwasm/mcpwasm/internal/bridge"
	"github.com/mcpwasm/mcpwasm/internal/jsfetch"
	"github.com/mcpwasm/mcpwasm/transport/fetch"
	"github.com/mcpwasm/mcpwasm/transport/ws"
)

// newTransport builds the transport connect asked for: Streamable HTTP /
// HTTP+SSE over the JavaScript fetch (the page's own fetch function when
// one was passed), or WebSocket.
func newTransport(url string, o *schema.ConnectConfig, fetchFn, authHooks js.Value, host *jsfetch.HostLink) (core.Transport, error) {
	switch o.Transport {
	case "", schema.TransportAuto, schema.TransportStreamableHTTP, schema.TransportSSE:
		doer, err := fetch.JSFetch(&fetch.JSFetchOptions{
			Credentials: o.Credentials,
			Mode:        o.FetchMode,
			Hook:        &jsfetch.Hook{Fetch: fetchFn, Host: host},
		})
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
		return ws.New(url, &ws.Options{Header: o.Headers, MaxMessageSize: o.MaxMessageSize})
	}
	return nil, fmt.Errorf("mcpwasm: unknown transport %q", o.Transport)
}
