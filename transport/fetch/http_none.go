//go:build js || wasip1

package fetch

import (
	"context"
	"errors"
)

// ErrNoDefaultHTTP is returned by the DefaultDoer of GOOS=js and
// GOOS=wasip1: neither build has an HTTP implementation of its own, so the
// caller passes one in Options.HTTP.
var ErrNoDefaultHTTP = errors.New("fetch: no default HTTP implementation in this build (GOOS=js, wasip1): set Options.HTTP (mcpwasm's modules pass the JavaScript fetch or their host's)")

// DefaultDoer returns the platform's HTTP implementation. Under GOOS=js and
// GOOS=wasip1 there is none: net/http would cost megabytes, a WASI guest
// has no network, and the JavaScript fetch is reached only through
// syscall/js, which this package does not import. Every request fails with
// ErrNoDefaultHTTP; callers pass a Doer in Options.HTTP instead (wasm/js
// passes the JavaScript fetch Doer of internal/js/fetch, the wasm/wasip1
// reactor one on its host imports). It is safe for concurrent use.
func DefaultDoer() Doer { return &noHTTP{} }

type noHTTP struct{}

func (*noHTTP) Do(context.Context, *Request) (*Response, error) { return nil, ErrNoDefaultHTTP }

// renderHead is never called here: no Doer of this build takes
// Request.head (headTaker).
func renderHead(Header) []byte { return nil }
