//go:build js

package fetch

import (
	"context"
	"errors"
	"fmt"

	"github.com/mcpwasm/mcpwasm/internal/jsfetch"
)

// DefaultDoer returns the platform's HTTP implementation: under GOOS=js the
// JavaScript fetch function (globalThis.fetch, looked up at each request)
// with the runtime's RequestInit defaults. Go's net/http is not linked.
func DefaultDoer() Doer {
	d, _ := JSFetch(nil) // nil options cannot be invalid
	return d
}

// JSFetchOptions configure the JavaScript fetch Doer made by JSFetch (GOOS=js
// only); nil means every default. The strings are RequestInit members; ""
// leaves the runtime's default.
type JSFetchOptions struct {
	// Credentials is "same-origin" (the default: cookies and HTTP
	// authentication only to the page's own origin), "include" (to other
	// origins too; the server must answer
	// Access-Control-Allow-Credentials: true and a non-"*" origin) or
	// "omit".
	Credentials string
	// Mode is "cors" (the default) or "same-origin" (refuse other origins).
	// "no-cors" is refused: its opaque responses cannot carry MCP.
	Mode string
	// Cache is the RequestInit cache mode ("no-store", "no-cache", …).
	Cache string
	// ReferrerPolicy is the RequestInit referrerPolicy.
	ReferrerPolicy string
	// Hook is how mcpwasm's own entry points (wasm/js) pass a
	// user-supplied JavaScript fetch function and extra RequestInit members
	// (values of the JavaScript world, which this package does not handle).
	// Code outside this module cannot build one and leaves it nil; a nil Hook
	// means globalThis.fetch and no extra members.
	Hook *jsfetch.Hook
}

// JSFetch returns a Doer that performs requests with a JavaScript fetch
// function (GOOS=js only). Response bodies are streamed from the response's
// ReadableStream; closing a body, or the end of the request's context,
// aborts the request (closing a 2026-07-28 response stream is how a
// request is cancelled). Response.Hidden reports headers that a
// cross-origin response may hide (see the package documentation). The Doer
// is safe for concurrent use. JSFetch fails for option values the Fetch
// standard does not define and for mode "no-cors".
func JSFetch(opts *JSFetchOptions) (Doer, error) {
	var o jsfetch.Options
	if opts != nil {
		o = jsfetch.Options{
			Credentials:    opts.Credentials,
			Mode:           opts.Mode,
			Cache:          opts.Cache,
			ReferrerPolicy: opts.ReferrerPolicy,
		}
		if opts.Hook != nil {
			o.Hook = *opts.Hook
		}
	}
	f, err := jsfetch.New(&o)
	if err != nil {
		return nil, err
	}
	return &jsDoer{f: f}, nil
}

// jsDoer adapts a jsfetch.Fetcher to Doer.
type jsDoer struct{ f *jsfetch.Fetcher }

func (d *jsDoer) Do(ctx context.Context, r *Request) (*Response, error) {
	resp, err := d.f.Do(ctx, &jsfetch.Request{
		Method: r.Method,
		URL:    r.URL,
		Header: r.Header,
		Body:   r.Body,
		// redirect: "manual". Browsers answer with an opaque redirect
		// (status 0, every header hidden); Node with the 3xx response.
		NoRedirect: r.NoRedirect,
	})
	if errors.Is(err, jsfetch.ErrNetwork) {
		return nil, fmt.Errorf("%w: %w", ErrNetwork, err)
	}
	if err != nil {
		return nil, err
	}
	return &Response{StatusCode: resp.Status, Header: resp.Header, Body: resp.Body, Hidden: resp.Hidden}, nil
}
