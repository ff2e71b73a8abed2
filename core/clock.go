package core

import (
	"time"

	"github.com/mcpwasm/mcpwasm/internal/timerq"
)

// clock is the time source of everything a client times: request timeouts,
// retry delays, keepalive pings, the re-open backoff of the session's
// subscription stream, task polling (and its jitter) and the ttlMs result
// cache. It is the real clock, or a test's fake one (set on Client.clock
// before Connect) so that such tests advance time instead of sleeping.
// (Transports keep the real clock: their waits are on the network.)
type clock interface {
	Now() time.Time
	// AfterFunc runs f once d has passed, on a goroutine of its own (the
	// real clock) or on the goroutine that advances a fake one.
	AfterFunc(d time.Duration, f func()) timer
	NewTimer(d time.Duration) timer
}

// timer is a *time.Timer of a clock.
type timer interface {
	// C is the timer's channel (nil for one made by AfterFunc).
	C() <-chan time.Time
	Stop() bool
	Reset(d time.Duration) bool
}

// realClock is the time package's clock.
type realClock struct{}

func (realClock) Now() time.Time                            { return time.Now() }
func (realClock) AfterFunc(d time.Duration, f func()) timer { return realTimer{time.AfterFunc(d, f)} }
func (realClock) NewTimer(d time.Duration) timer            { return realTimer{time.NewTimer(d)} }

// realTimer is pointer-shaped: making a timer of it does not allocate.
type realTimer struct{ t *time.Timer }

func (t realTimer) C() <-chan time.Time        { return t.t.C }
func (t realTimer) Stop() bool                 { return t.t.Stop() }
func (t realTimer) Reset(d time.Duration) bool { return t.t.Reset(d) }

// queueClock is a clock as a timerq.Clock.
type queueClock struct{ c clock }

func (q queueClock) Now() time.Time { return q.c.Now() }

func (q queueClock) AfterFunc(d time.Duration, f func()) timerq.Stopper {
	return q.c.AfterFunc(d, f)
}
