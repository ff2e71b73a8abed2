//go:build js

package jsfetch

import (
	"context"
	"errors"

	"github.com/mcpwasm/mcpwasm/internal/errf"
	"github.com/mcpwasm/mcpwasm/transport/fetch"
)

// NewDoer returns a transport/fetch Doer that performs requests with a
// JavaScript fetch function (Options.Hook.Fetch, else globalThis.fetch,
// looked up at each request). Response bodies are streamed from the
// response's ReadableStream; closing a body, or the end of the request's
// context, aborts the request (closing a 2026-07-28 response stream is how
// a request is cancelled). Response.Hidden reports headers that a
// cross-origin response may hide. The Doer is safe for concurrent use.
// NewDoer fails for option values the Fetch standard does not define and
// for mode "no-cors". wasm/js passes it to transport/fetch's Options.HTTP,
// which has no JavaScript default of its own.
func NewDoer(opts *Options) (fetch.Doer, error) {
	f, err := New(opts)
	if err != nil {
		return nil, err
	}
	return &doer{f: f}, nil
}

// doer adapts a Fetcher to fetch.Doer.
type doer struct{ f *Fetcher }

func (d *doer) Do(ctx context.Context, r *fetch.Request) (*fetch.Response, error) {
	// NoRedirect is redirect: "manual". Browsers answer with an opaque
	// redirect (status 0, every header hidden); Node with the 3xx response.
	resp, err := d.f.Do(ctx, r)
	if errors.Is(err, ErrNetwork) {
		return nil, errf.Errorf("%w: %w", fetch.ErrNetwork, err)
	}
	if err != nil {
		return nil, err
	}
	return &fetch.Response{StatusCode: resp.Status, Header: resp.Header, Body: resp.Body, Hidden: resp.Hidden}, nil
}
