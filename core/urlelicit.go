package core

import (
	"context"
	"errors"
	"time"

	"github.com/mcpwasm/mcpwasm/internal/errf"
)

// ErrURLElicitation is wrapped by *URLElicitationError.
var ErrURLElicitation = errors.New("core: the request needs URL elicitations completed first")

// URLElicitationError is returned when a legacy server answered a request
// with URLElicitationRequiredError (-32042) and the client could not retry
// it: there is no elicitation handler, the handler declined, or no
// notifications/elicitation/complete arrived within the call's timeout
// (servers need not send one). The elicitations are carried so that the
// application can show them and retry the call itself. errors.As with
// *RPCError still finds the server's error.
type URLElicitationError struct {
	Method       string
	Elicitations []*ElicitParams
	// RPC is the server's -32042 error.
	RPC *RPCError
	// Err says why the call was not retried: ErrNoHandler, ErrDeclined, a
	// *TimeoutError when the completion did not arrive in time, or an
	// *InputError from the handler.
	Err error
}

func (e *URLElicitationError) Error() string {
	b := errf.Appendf(nil, "core: %s needs %d URL elicitation(s) completed", e.Method, len(e.Elicitations))
	for i, p := range e.Elicitations {
		if i == 3 {
			b = append(b, ", ..."...)
			break
		}
		if p != nil && p.URL != "" {
			b = errf.Appendf(b, " [%s]", p.URL)
		}
	}
	if e.Err != nil {
		b = errf.Appendf(b, ": %v", e.Err)
	}
	return string(b)
}

// Unwrap returns ErrURLElicitation, the server's error and the reason.
func (e *URLElicitationError) Unwrap() []error {
	errs := []error{ErrURLElicitation}
	if e.RPC != nil {
		errs = append(errs, e.RPC)
	}
	if e.Err != nil {
		errs = append(errs, e.Err)
	}
	return errs
}

// ErrDeclined means the user declined or cancelled an elicitation the
// request depended on.
var ErrDeclined = errors.New("core: the user declined the elicitation")

// completeURLElicitations handles a legacy URLElicitationRequiredError: each
// listed elicitation goes to the elicitation handler (which talks to the
// user, so only ctx and the call's maximum total time bound it); when all
// are accepted the call waits for their completion notifications, bounded
// by the call's timeout, maximum total time and ctx, and is then retried. A handler that
// answers with ElicitResult.Completed says the user has finished already:
// the call is retried without waiting. nil means retry.
func (s *Session) completeURLElicitations(ctx context.Context, c *callSpec, started time.Time, rpc *RPCError) error {
	var data urlElicitationData
	_ = decodeParamsOf(rpc.Data, &data)
	var wait []string
	err, bare := s.elicitURLs(ctx, c, started, data.Elicitations, &wait)
	for _, id := range wait {
		s.elicits.forget(id)
	}
	if err == nil || bare {
		return err
	}
	return &URLElicitationError{Method: c.method, Elicitations: data.Elicitations, RPC: rpc, Err: err}
}

// elicitURLs is completeURLElicitations' work. It adds the elicitations it
// waits for to wait (the caller forgets them); bare reports an error
// returned as it is rather than in a *URLElicitationError.
func (s *Session) elicitURLs(ctx context.Context, c *callSpec, started time.Time, list []*ElicitParams, wait *[]string) (err error, bare bool) {
	h := s.client.opts.ElicitationHandler
	if h == nil {
		return ErrNoHandler, false
	}
	if len(list) == 0 {
		return wrap(ErrInvalidResult, "the error lists no elicitations"), false
	}
	// No deferred calls: the loops below break out with err and bare,
	// the handlers' context and the timer stop where they end.
	total := &TimeoutError{Method: c.method, Timeout: c.total, Total: true}
	hctx, cancel := ctx, context.CancelFunc(nil) // the handler talks to the user: only the hard limit applies
	if c.total > 0 {
		// started is on the client's clock: the deadline is what remains.
		hctx, cancel = context.WithTimeout(ctx, c.total-s.client.clock.Now().Sub(started))
	}
	for _, p := range list {
		if p == nil {
			err = wrap(ErrInvalidResult, "an empty elicitation")
			break
		}
		if p.Mode == "" {
			p.Mode = ElicitModeURL
		}
		if p.ElicitationID != "" {
			s.elicits.channel(p.ElicitationID) // start listening before asking
		}
		r, herr := h(hctx, &ElicitRequest{Session: s, Params: p})
		switch {
		case herr != nil && ctx.Err() != nil:
			err, bare = ctx.Err(), true
		case herr != nil && hctx.Err() != nil:
			err = total
		case herr != nil:
			err = &InputError{Method: MethodElicit, Err: herr}
		case r == nil || r.Action != ActionAccept:
			err = ErrDeclined
		case p.ElicitationID == "":
		case r.Completed:
			s.elicits.forget(p.ElicitationID)
		default:
			*wait = append(*wait, p.ElicitationID)
		}
		if err != nil {
			break
		}
	}
	if cancel != nil {
		cancel()
	}
	if err != nil || len(*wait) == 0 {
		return err, bare || err == nil
	}
	// One timer: the call's timeout, or what remains of its maximum total
	// time when that is sooner.
	var limit <-chan time.Time
	var t timer
	d, terr := c.timeout, &TimeoutError{Method: c.method, Timeout: c.timeout}
	if c.total > 0 {
		if rem := c.total - s.client.clock.Now().Sub(started); c.timeout <= 0 || rem < c.timeout {
			d, terr = max(rem, 0), total
		}
	}
	if c.timeout > 0 || c.total > 0 {
		t = s.client.clock.NewTimer(d)
		limit = t.C()
	}
	bare = true
	for _, id := range *wait {
		select {
		case <-s.elicits.channel(id):
		case <-limit:
			err, bare = strErr("no notifications/elicitation/complete for %q: %w", id, terr), false
		case <-ctx.Done():
			err = ctx.Err()
		case <-s.done:
			err = s.closedErr()
		}
		if err != nil {
			break
		}
	}
	if t != nil {
		t.Stop()
	}
	return err, bare
}

// closedErr returns the error calls on the closed session get.
func (s *Session) closedErr() error {
	s.mu.Lock()
	v := s.closedErrLocked()
	s.mu.Unlock()
	return v
}
