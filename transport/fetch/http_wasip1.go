//go:build wasip1

package fetch

import (
	"context"
	"errors"
)

// ErrNoDefaultHTTP is returned by the wasip1 DefaultDoer: a WASI guest has
// no sockets of its own, so its host must perform the HTTP requests.
var ErrNoDefaultHTTP = errors.New("fetch: no default HTTP implementation under wasip1: set Options.HTTP (the wasm/wasip1 reactor passes its host-backed Doer)")

// DefaultDoer returns the platform's HTTP implementation. Under GOOS=wasip1
// there is none (net/http would cost megabytes and a WASI guest has no
// network): every request fails with ErrNoDefaultHTTP, and callers pass a
// Doer in Options.HTTP instead (the wasm/wasip1 reactor implements one on
// top of its host imports). It is safe for concurrent use.
func DefaultDoer() Doer { return noHTTP{} }

type noHTTP struct{}

func (noHTTP) Do(context.Context, *Request) (*Response, error) { return nil, ErrNoDefaultHTTP }
