package timerq

import (
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fakeClock is a Clock whose time moves only with Advance. A Queue arms
// at most one timer at a time, so the clock holds at most one.
type fakeClock struct {
	mu    sync.Mutex
	now   time.Time
	armed *fakeTimer
}

type fakeTimer struct {
	c    *fakeClock
	when time.Time
	f    func()
}

func newFakeClock() *fakeClock { return &fakeClock{now: time.Unix(1_000_000, 0)} }

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) AfterFunc(d time.Duration, f func()) Stopper {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.armed != nil {
		panic("timerq armed a second timer")
	}
	c.armed = &fakeTimer{c: c, when: c.now.Add(d), f: f}
	return c.armed
}

func (t *fakeTimer) Stop() bool {
	t.c.mu.Lock()
	defer t.c.mu.Unlock()
	if t.c.armed != t {
		return false
	}
	t.c.armed = nil
	return true
}

// Advance moves the clock by d, running the armed timer's function (on
// this goroutine) while it is due.
func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	for c.armed != nil && !c.armed.when.After(c.now) {
		f := c.armed.f
		c.armed = nil
		c.mu.Unlock()
		f()
		c.mu.Lock()
	}
	c.mu.Unlock()
}

func TestQueue(t *testing.T) {
	const d = 10 * time.Second
	newTimers := func() (*Queue, *fakeClock) {
		clk := newFakeClock()
		return New(clk, d), clk
	}
	active := func(clk *fakeClock) int {
		clk.mu.Lock()
		defer clk.mu.Unlock()
		if clk.armed != nil {
			return 1
		}
		return 0
	}
	// fired records which entries ran, in order.
	type record struct {
		mu  sync.Mutex
		ran []int
	}
	mark := func(r *record, i int) func() {
		return func() {
			r.mu.Lock()
			r.ran = append(r.ran, i)
			r.mu.Unlock()
		}
	}

	t.Run("sequential calls arm the clock once and leave nothing behind", func(t *testing.T) {
		ts, clk := newTimers()
		var r record
		for i := range 1000 {
			e := ts.Add(mark(&r, i))
			assert.True(t, e.Stop())
			assert.False(t, e.Stop(), "a second Stop reports nothing stopped")
		}
		assert.Empty(t, ts.q)
		assert.Zero(t, ts.live)
		assert.Equal(t, 1, active(clk), "one clock timer for all of them")
		clk.Advance(d)
		assert.Empty(t, r.ran)
		assert.Equal(t, 0, active(clk), "nothing left to wait for: the timer is not re-armed")
	})

	t.Run("expired entries run in deadline order; stopped ones never", func(t *testing.T) {
		ts, clk := newTimers()
		var r record
		e0 := ts.Add(mark(&r, 0))
		clk.Advance(time.Second)
		e1 := ts.Add(mark(&r, 1))
		clk.Advance(time.Second)
		ts.Add(mark(&r, 2))
		assert.True(t, e1.Stop())
		clk.Advance(d - 2*time.Second - time.Millisecond)
		assert.Empty(t, r.ran, "nothing is due yet")
		clk.Advance(time.Millisecond)
		assert.Equal(t, []int{0}, r.ran)
		assert.False(t, e0.Stop(), "it ran")
		clk.Advance(time.Second) // e1's deadline: stopped
		assert.Equal(t, []int{0}, r.ran)
		clk.Advance(time.Second)
		assert.Equal(t, []int{0, 2}, r.ran)
		assert.Equal(t, 0, active(clk))
	})

	t.Run("a long call at the head does not keep the entries behind it", func(t *testing.T) {
		ts, _ := newTimers()
		var r record
		long := ts.Add(mark(&r, -1))
		for i := range 10000 {
			a := ts.Add(mark(&r, i))
			b := ts.Add(mark(&r, i))
			a.Stop() // not at an end: b is behind it
			b.Stop()
		}
		assert.LessOrEqual(t, len(ts.q)-ts.head, 2*ts.live+64+2)
		assert.LessOrEqual(t, cap(ts.q), 4096, "the queue's array stays small")
		assert.True(t, long.Stop())
		assert.Empty(t, ts.q[ts.head:])
	})

	t.Run("a steady window of calls in flight keeps the array bounded", func(t *testing.T) {
		// 64 calls always in flight, each settling in the order it was
		// made: the queue never empties and never has more stopped
		// entries than live ones, so only the dead front of the array can
		// be given back.
		for _, window := range []int{1, 2, 64, 1000} {
			t.Run(strconv.Itoa(window), func(t *testing.T) {
				ts, clk := newTimers()
				var r record
				inFlight := make([]*Timer, 0, window)
				for i := range 200_000 {
					if len(inFlight) == window {
						require.True(t, inFlight[0].Stop())
						inFlight = inFlight[1:]
					}
					inFlight = append(inFlight, ts.Add(mark(&r, i)))
				}
				assert.Equal(t, window, ts.live)
				assert.LessOrEqual(t, cap(ts.q), 4*window+64, "the queue's array holds the calls in flight, not every call made")
				for _, e := range inFlight {
					require.True(t, e.Stop())
				}
				assert.Empty(t, ts.q[ts.head:])
				clk.Advance(d)
				assert.Empty(t, r.ran)
			})
		}
	})

	t.Run("after close nothing runs", func(t *testing.T) {
		ts, clk := newTimers()
		var r record
		e := ts.Add(mark(&r, 0))
		ts.Close()
		assert.Equal(t, 0, active(clk))
		late := ts.Add(mark(&r, 1))
		clk.Advance(2 * d)
		assert.Empty(t, r.ran)
		assert.False(t, e.Stop())
		assert.False(t, late.Stop())
		assert.Zero(t, ts.live)
	})

	t.Run("concurrent calls", func(t *testing.T) {
		ts, clk := newTimers()
		var r record
		var wg sync.WaitGroup
		for g := range 8 {
			wg.Go(func() {
				for i := range 500 {
					e := ts.Add(mark(&r, g*1000+i))
					if i%2 == 0 {
						e.Stop()
					}
				}
			})
		}
		wg.Wait()
		require.Equal(t, 8*250, ts.live)
		clk.Advance(d)
		assert.Len(t, r.ran, 8*250, "every entry not stopped ran once")
		assert.Zero(t, ts.live)
		assert.Empty(t, ts.q[ts.head:])
	})

	t.Run("a Timer in the caller's record fires the record, and arms without allocating", func(t *testing.T) {
		ts, clk := newTimers()
		var calls [2]firerCall
		ts.Start(&calls[0].t, &calls[0])
		ts.Start(&calls[1].t, &calls[1])
		assert.True(t, calls[1].t.Stop())
		clk.Advance(d)
		assert.Equal(t, int32(1), calls[0].fired.Load())
		assert.Zero(t, calls[1].fired.Load(), "stopped")
		assert.False(t, calls[0].t.Stop(), "it ran")
		var c firerCall
		allocs := testing.AllocsPerRun(100, func() {
			c.t = Timer{}
			ts.Start(&c.t, &c)
			c.t.Stop()
		})
		assert.Zero(t, allocs)
	})
}

// firerCall is a caller's record with its Timer in it.
type firerCall struct {
	t     Timer
	fired atomic.Int32
}

func (c *firerCall) Fire() { c.fired.Add(1) }
