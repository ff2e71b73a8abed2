//go:build js

package main

import (
	"fmt"
	"syscall/js"

	"github.com/mcpwasm/mcpwasm/core"
	"github.com/mcpwasm/mcpwasm/transport/fetch"
)

// newTransport builds the transport connect asked for.
func newTransport(url string, o *connectOptions, fetchFn js.Value) (core.Transport, error) {
	switch o.Transport {
	case "", "auto", fetch.ModeStreamableHTTP, fetch.ModeSSE:
		mode := o.Transport
		if mode == "" {
			mode = fetch.ModeAuto
		}
		return fetch.New(url, &fetch.Options{Mode: mode, Header: o.Headers, MaxMessageSize: o.MaxMessageSize})
	case "websocket":
		return nil, fmt.Errorf("mcpwasm: the websocket transport is not wired in yet")
	}
	return nil, fmt.Errorf("mcpwasm: unknown transport %q", o.Transport)
}
