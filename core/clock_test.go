package core

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpwasm/mcpwasm/jsonrpc"
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

// TestSubscriptionReopenBackoff: when the session's own subscription
// stream ends, it is re-opened after a backoff on the client's clock (500
// ms, doubling while re-opening fails), never before.
func TestSubscriptionReopenBackoff(t *testing.T) {
	f, tr := newFake(t, EraModern)
	listens := make(chan *jsonrpc.Request, 8)
	var failing atomic.Bool
	f.handle(MethodListen, func(r *jsonrpc.Request) (any, *jsonrpc.Error) {
		// Read the switch before telling the test: the test flips it as soon
		// as it sees this request, and the answer must be the one it expects.
		fail := failing.Load()
		listens <- r
		if fail {
			return nil, &jsonrpc.Error{Code: CodeInternalError, Message: "not now"}
		}
		meta := map[string]any{MetaSubscriptionID: r.ID.Raw()}
		go f.notify(NotificationAcknowledged, map[string]any{"_meta": meta, "notifications": map[string]any{"resourceSubscriptions": []string{"a:1"}}})
		return nil, nil // the stream stays open
	})
	s, clk := connectFakeClock(t, tr, &ClientOptions{RequestTimeout: time.Hour, ProbeTimeout: time.Hour})
	require.NoError(t, s.Subscribe(ctx5(t), "a:1"))
	first := <-listens

	// The server ends the stream; the next open must wait 500 ms.
	failing.Store(true)
	f.reply(first.ID, map[string]any{"resultType": "complete", "_meta": map[string]any{MetaSubscriptionID: first.ID.Raw()}})
	for _, d := range []time.Duration{500 * time.Millisecond, time.Second, 2 * time.Second} {
		clk.WaitDeadline(t, d)
		require.Empty(t, listens, "no re-open before the backoff has passed")
		clk.Advance(d)
		select {
		case <-listens: // re-opened, and refused: the backoff doubles
		case <-time.After(5 * time.Second):
			t.Fatalf("no re-open %v after the stream ended", d)
		}
	}
	failing.Store(false)
	clk.WaitDeadline(t, 4*time.Second)
	clk.Advance(4 * time.Second)
	select {
	case r := <-listens:
		assert.Equal(t, map[string]any{"resourceSubscriptions": []any{"a:1"}}, paramsOf(t, r)["notifications"], "the same subscriptions")
	case <-time.After(5 * time.Second):
		t.Fatal("no re-open after the server recovered")
	}
}
