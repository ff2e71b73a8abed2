package core

import (
	"context"
	"math/rand/v2"
	"time"

	"github.com/mcpwasm/mcpwasm/internal/errf"
	"github.com/mcpwasm/mcpwasm/internal/jsonscan"
)

// Defaults of RetryPolicy.
const (
	DefaultRetryAttempts = 3
	DefaultRetryDelay    = 500 * time.Millisecond
	DefaultRetryMaxDelay = 10 * time.Second
)

// RetryPolicy is an opt-in policy (ClientOptions.Retry) for requests that
// failed for a transient reason: errors implementing TransientError, which
// the HTTP transport returns for 429, 502, 503 and 504 answers. The delay
// is the server's Retry-After when it sent one, otherwise exponential
// backoff from Delay, with ±20% jitter, capped at MaxDelay; the idle
// timeout, the maximum total time and ctx bound the whole.
//
// A request is repeated only when repeating it is safe: every request but
// tools/call (listing, reading, getting prompts, completions, ping), and
// tools/call only for tools whose annotations (from the last tools/list)
// say readOnlyHint or idempotentHint. Another tool's call is never
// repeated: a 502 or 504 from a proxy does not tell whether it ran.
type RetryPolicy struct {
	// Attempts is the maximum number of attempts, the first included.
	// Default DefaultRetryAttempts.
	Attempts int
	// Delay is the first backoff delay. Default DefaultRetryDelay.
	Delay time.Duration
	// MaxDelay caps one delay, Retry-After included. Default
	// DefaultRetryMaxDelay.
	MaxDelay time.Duration
}

// TransientError is implemented by errors a later attempt may cure (an
// overloaded or restarting server). RetryAfter returns the delay the server
// asked for, or 0.
type TransientError interface {
	error
	Transient() bool
	RetryAfter() time.Duration
}

// retryDelay decides whether failed attempt number attempt (1-based) of a
// request is repeated and after how long.
func (s *Session) retryDelay(err error, method string, user []jsonscan.Member, attempt int) (time.Duration, bool) {
	p := s.client.opts.Retry
	if p == nil {
		return 0, false
	}
	var te TransientError
	if !asTransient(err, &te) || !te.Transient() {
		return 0, false
	}
	attempts := p.Attempts
	if attempts <= 0 {
		attempts = DefaultRetryAttempts
	}
	if attempt >= attempts {
		return 0, false
	}
	if method == MethodCallTool {
		info := s.toolInfo(stringMember(user, "name"))
		if info == nil || !info.repeatable {
			return 0, false
		}
	}
	base, maxDelay := p.Delay, p.MaxDelay
	if base <= 0 {
		base = DefaultRetryDelay
	}
	if maxDelay <= 0 {
		maxDelay = DefaultRetryMaxDelay
	}
	d := te.RetryAfter()
	if d <= 0 {
		d = base
		for i := 1; i < attempt && d < maxDelay; i++ {
			d *= 2
		}
		d = time.Duration(float64(d) * (0.8 + 0.4*rand.Float64()))
	}
	return min(d, maxDelay), true
}

// asTransient is errors.As for the TransientError interface.
func asTransient(err error, te *TransientError) bool {
	for err != nil {
		if t, ok := err.(TransientError); ok {
			*te = t
			return true
		}
		switch u := err.(type) {
		case interface{ Unwrap() error }:
			err = u.Unwrap()
		case interface{ Unwrap() []error }:
			for _, e := range u.Unwrap() {
				if asTransient(e, te) {
					return true
				}
			}
			return false
		default:
			return false
		}
	}
	return false
}

// waitRetry sleeps d before a retry, bounded by ctx, the session and the
// call's maximum total time; it returns the error that ends the call
// instead, or nil.
func (s *Session) waitRetry(ctx context.Context, c *callSpec, started time.Time, d time.Duration, cause error) error {
	if c.total > 0 && s.client.clock.Now().Sub(started)+d >= c.total {
		return cause
	}
	t := s.client.clock.NewTimer(d)
	var err error
	select {
	case <-t.C():
	case <-ctx.Done():
		err = ctx.Err()
	case <-s.done:
		err = errf.Errorf("%w (while waiting to retry: %w)", s.closedErr(), cause)
	}
	t.Stop()
	return err
}
