package fetch

import (
	"errors"
	"math/rand/v2"
	"time"

	"github.com/mcpwasm/mcpwasm/core"
	"github.com/mcpwasm/mcpwasm/internal/errf"
)

// Bounds of SSE reconnection, whatever the server asks for.
const (
	// minRetryDelay is the floor of the delay before re-opening a stream:
	// a server's "retry: 1" does not make the client reconnect in a loop.
	minRetryDelay = 250 * time.Millisecond
	// maxRetryDelay caps the delay (the server's retry and the backoff).
	maxRetryDelay = 30 * time.Second
	// maxServerRetry bounds a server's retry field: any sane value is
	// waited for in full, an absurd one (an hour, a year) is not.
	maxServerRetry = 10 * time.Minute
	// reconnectWindow is the window of Options.MaxReconnectsPerMinute.
	reconnectWindow = time.Minute
)

// reconnect is what a re-opened SSE stream carries from one attempt to the
// next: where to resume, the server's retry delay, how many attempts in a
// row have brought nothing, and when the last attempts were made (for the
// per-minute cap).
type reconnect struct {
	lastID   string
	retry    time.Duration
	base     time.Duration // Options.Retry
	failures int
	perMin   int
	recent   []time.Time // the last perMin attempts, oldest first
	now      func() time.Time
}

func (c *conn) newReconnect(lastID string, retry time.Duration) *reconnect {
	return &reconnect{lastID: lastID, retry: retry, base: c.t.opts.Retry, perMin: c.t.opts.MaxReconnectsPerMinute, now: time.Now}
}

// after notes the outcome of one stream: only a stream that delivered a
// JSON-RPC message resets the failure count (priming events, comments and
// empty events do not, or a server could keep the client reconnecting
// forever with one event per connection).
func (st *reconnect) after(res *streamResult) {
	if res.lastID != "" {
		st.lastID = res.lastID
	}
	if res.retry > 0 {
		st.retry = res.retry
	}
	if res.msgs > 0 {
		st.failures = 0
	} else {
		st.failures++
	}
}

// delay returns how long to wait before the next attempt and records it:
// the server's retry, floored at minRetryDelay (and bounded by
// maxServerRetry) and lengthened by up to 20%
// of jitter (never shortened: a client MUST wait at least the retry field's
// time), or else Options.Retry doubled per failure, floored at
// minRetryDelay, capped at maxRetryDelay, with ±20% jitter — so that many
// clients do not reconnect in step; then as long as it takes to stay within
// MaxReconnectsPerMinute.
func (st *reconnect) delay() time.Duration {
	var d time.Duration
	lo, span := 1.0, 0.2 // the server's retry: up to 20% longer
	if st.retry > 0 {
		d = min(max(st.retry, minRetryDelay), maxServerRetry)
	} else {
		d = st.base
		for i := 1; i < st.failures && d < maxRetryDelay; i++ {
			d *= 2
		}
		d = min(max(d, minRetryDelay), maxRetryDelay)
		lo, span = 0.8, 0.4 // the client's backoff: ±20%
	}
	d = time.Duration(float64(d) * (lo + span*rand.Float64()))
	now := st.now()
	at := now.Add(d)
	if st.perMin > 0 && len(st.recent) >= st.perMin {
		if earliest := st.recent[len(st.recent)-st.perMin].Add(reconnectWindow); earliest.Sub(at) > 0 {
			at = earliest
		}
	}
	st.recent = append(st.recent, at)
	if len(st.recent) > st.perMin {
		st.recent = append(st.recent[:0], st.recent[len(st.recent)-st.perMin:]...)
	}
	return at.Sub(now)
}

// ErrStreamGaveUp is wrapped by the warning (and Conn.BackgroundStreamErr)
// when the standalone GET stream of a legacy session stopped reconnecting
// after Options.MaxReconnects attempts in a row brought nothing: server
// requests and notifications outside any request no longer arrive.
var ErrStreamGaveUp = errors.New("fetch: gave up re-opening the server's event stream")

// gaveUp records and reports that the GET stream stopped reconnecting.
func (c *conn) gaveUp(failures int, last error) {
	err := errf.Errorf("%w after %d attempts in a row", ErrStreamGaveUp, failures)
	if last != nil {
		err = errf.Errorf("%w (last: %v)", err, last)
	}
	c.mu.Lock()
	c.streamErr = err
	c.getStarted = false // (runGET is returning) so that reviveGET may start another
	warn := c.warn
	c.mu.Unlock()
	c.getGaveUp.Store(true)
	if warn != nil {
		warn(err)
	}
}

func (c *conn) setStreamErr(err error) {
	c.mu.Lock()
	c.streamErr = err
	c.mu.Unlock()
}

// SetWarn implements core.Warner.
func (c *conn) SetWarn(f func(error)) {
	c.mu.Lock()
	c.warn = f
	c.mu.Unlock()
}

// BackgroundStreamErr implements core.BackgroundStream: nil while the GET
// stream is up or being re-established (or the session has none), the
// reason it was given up otherwise.
func (c *conn) BackgroundStreamErr() error {
	c.mu.Lock()
	err := c.streamErr
	c.mu.Unlock()
	return err
}

var (
	_ core.Warner           = (*conn)(nil)
	_ core.BackgroundStream = (*conn)(nil)
)

// reviveGET re-opens a GET stream that gave up, once a request shows the
// server is answering again (it restarted, or the network came back): the
// stream's own attempts are bounded, the application's calls are not.
func (c *conn) reviveGET(version string) {
	if !c.getGaveUp.Swap(false) {
		return
	}
	c.setStreamErr(nil)
	c.startGET(version)
}
