package core

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// fakeClock is a clock that moves only when a test advances it. Timers
// fire on the advancing goroutine, in the order of their deadlines.
type fakeClock struct {
	mu      sync.Mutex
	now     time.Time
	timers  map[*fakeTimer]bool // the active ones
	changed chan struct{}       // closed (and replaced) when a timer starts
}

func newFakeClock() *fakeClock {
	return &fakeClock{now: time.Unix(1_000_000, 0), timers: map[*fakeTimer]bool{}, changed: make(chan struct{})}
}

type fakeTimer struct {
	c    *fakeClock
	when time.Time
	f    func()
	ch   chan time.Time
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) AfterFunc(d time.Duration, f func()) timer {
	return c.start(&fakeTimer{c: c, f: f}, d)
}

func (c *fakeClock) NewTimer(d time.Duration) timer {
	return c.start(&fakeTimer{c: c, ch: make(chan time.Time, 1)}, d)
}

func (c *fakeClock) start(t *fakeTimer, d time.Duration) *fakeTimer {
	c.mu.Lock()
	defer c.mu.Unlock()
	t.when = c.now.Add(d)
	c.timers[t] = true
	close(c.changed)
	c.changed = make(chan struct{})
	return t
}

func (t *fakeTimer) C() <-chan time.Time { return t.ch }

func (t *fakeTimer) Stop() bool {
	t.c.mu.Lock()
	defer t.c.mu.Unlock()
	active := t.c.timers[t]
	delete(t.c.timers, t)
	return active
}

func (t *fakeTimer) Reset(d time.Duration) bool {
	active := t.Stop()
	t.c.start(t, d)
	return active
}

// Advance moves the clock by d and fires the timers whose deadline it
// passed.
func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	var due []*fakeTimer
	for t := range c.timers {
		if !t.when.After(c.now) {
			due = append(due, t)
			delete(c.timers, t)
		}
	}
	now := c.now
	c.mu.Unlock()
	for len(due) > 0 {
		first := 0
		for i, t := range due {
			if t.when.Before(due[first].when) {
				first = i
			}
		}
		t := due[first]
		due = append(due[:first], due[first+1:]...)
		if t.f != nil {
			t.f()
		} else {
			select {
			case t.ch <- now:
			default:
			}
		}
	}
}

// WaitTimers waits until at least n timers are active (a call armed its
// timeouts); it fails the test after 5 s of real time.
func (c *fakeClock) WaitTimers(t *testing.T, n int) {
	t.Helper()
	deadline := time.NewTimer(5 * time.Second)
	defer deadline.Stop()
	for {
		c.mu.Lock()
		active, changed := len(c.timers), c.changed
		c.mu.Unlock()
		if active >= n {
			return
		}
		select {
		case <-changed:
		case <-deadline.C:
			t.Fatalf("fakeClock: %d timers active after 5 s, want %d", active, n)
		}
	}
}

// WaitDeadline waits until a timer is active whose deadline is d after the
// clock's present (a loop armed its next wait); it fails the test after 5 s
// of real time.
func (c *fakeClock) WaitDeadline(t *testing.T, d time.Duration) {
	t.Helper()
	deadline := time.NewTimer(5 * time.Second)
	defer deadline.Stop()
	for {
		c.mu.Lock()
		found, changed := false, c.changed
		for tm := range c.timers {
			found = found || tm.when.Equal(c.now.Add(d))
		}
		c.mu.Unlock()
		if found {
			return
		}
		select {
		case <-changed:
		case <-deadline.C:
			t.Fatalf("fakeClock: no timer due %v from now after 5 s", d)
		}
	}
}

// connectFakeClock is connectFake with the client on a fake clock.
func connectFakeClock(t *testing.T, tr Transport, opts *ClientOptions) (*Session, *fakeClock) {
	t.Helper()
	if opts == nil {
		opts = &ClientOptions{}
	}
	if opts.OnWarning == nil {
		opts.OnWarning = func(_ *Session, err error) { t.Logf("warning: %v", err) }
	}
	clk := newFakeClock()
	c := NewClient(&Implementation{Name: "test", Version: "0"}, opts)
	c.clock = clk
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	s, err := c.Connect(ctx, tr, nil)
	require.NoError(t, err)
	t.Cleanup(func() { s.Close() })
	return s, clk
}

// returned waits (5 s at most) for the outcome of a call started on a
// goroutine.
func returned(t *testing.T, done <-chan error) error {
	t.Helper()
	select {
	case err := <-done:
		return err
	case <-time.After(5 * time.Second):
		require.FailNow(t, "the call did not return")
	}
	return nil
}

// stillPending fails the test if the call started on a goroutine returned.
func stillPending(t *testing.T, done <-chan error) {
	t.Helper()
	select {
	case err := <-done:
		require.FailNow(t, "the call returned before its deadline", "%v", err)
	default:
	}
}
