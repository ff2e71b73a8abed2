package timerq

import (
	"sync"
	"time"
)

// Clock is the time source of a Queue: the real one (nil in New), or a
// test's fake one.
type Clock interface {
	Now() time.Time
	// AfterFunc runs f once d has passed.
	AfterFunc(d time.Duration, f func()) Stopper
}

// Stopper is a timer a Clock armed.
type Stopper interface{ Stop() bool }

type realClock struct{}

func (realClock) Now() time.Time                              { return time.Now() }
func (realClock) AfterFunc(d time.Duration, f func()) Stopper { return time.AfterFunc(d, f) }

// Queue runs functions a fixed duration after they were added, unless
// stopped first. All deadlines are now + the same duration, taken under
// mu, so the queue is in deadline order: Add appends (moving the live
// entries to the front of the array first when the array is full and
// mostly spent), and Stop removes the entry at either end (a sequential
// caller's entry is the last one) or marks it for a later sweep. The one
// clock timer is armed for the first deadline and left armed while entries
// come and go; when it fires it runs what expired and re-arms for the next
// deadline. It is safe for concurrent use; the zero Queue is not usable
// (see New).
type Queue struct {
	clk  Clock
	d    time.Duration
	base time.Time // deadlines are nanoseconds since base (plain integers: less code than time.Time's)

	mu     sync.Mutex
	q      []*Timer // by deadline; q[head:] are live or stopped-not-yet-removed
	head   int
	live   int     // entries in q[head:] not stopped
	timer  Stopper // armed while q[head:] is not empty, at the latest; nil otherwise
	closed bool
}

// Timer is one entry of a Queue. A Timer may be a field of the caller's
// own record ([Queue.Start]); its zero value is ready for one Start.
type Timer struct {
	ts       *Queue
	deadline int64 // nanoseconds since ts.base
	x        Firer
	done     bool // stopped or fired (guarded by ts.mu)
}

// Firer is what a Timer runs when it expires: the caller's own record,
// say, so that arming a Timer allocates nothing ([Queue.Start]).
type Firer interface{ Fire() }

// funcFirer is a func as a Firer (a func is pointer-shaped: the
// conversion allocates nothing).
type funcFirer func()

// Fire calls f.
func (f funcFirer) Fire() { f() }

// New returns a Queue that runs each function d after its Add, on the
// real clock when clk is nil.
func New(clk Clock, d time.Duration) *Queue {
	if clk == nil {
		clk = realClock{}
	}
	return &Queue{clk: clk, d: d, base: clk.Now()}
}

// since is the clock's time in nanoseconds since ts.base.
func (ts *Queue) since() int64 { return int64(ts.clk.Now().Sub(ts.base)) }

// Duration returns the Queue's d.
func (ts *Queue) Duration() time.Duration { return ts.d }

// Add arms f to run the Queue's duration from now, on a goroutine of the
// Clock's (the real clock: a goroutine of its own per expiry).
func (ts *Queue) Add(f func()) *Timer {
	t := new(Timer)
	ts.Start(t, funcFirer(f))
	return t
}

// Start is Add with the Timer the caller's (a zero Timer, not started
// before) and x's Fire as the function: a Timer in the caller's own
// record and that record as x arm without allocating.
func (ts *Queue) Start(t *Timer, x Firer) {
	ts.mu.Lock()
	t.ts, t.deadline, t.x = ts, ts.since()+int64(ts.d), x
	if ts.closed {
		t.done = true
		ts.mu.Unlock()
		return
	}
	if len(ts.q) == cap(ts.q) && ts.head > len(ts.q)/2 {
		// The array is full and mostly entries already gone from its
		// front: move the rest down rather than grow it. (A steady window
		// of calls in flight never empties the queue, so without this the
		// array would grow with every call made.)
		n := copy(ts.q, ts.q[ts.head:])
		clear(ts.q[n:])
		ts.q, ts.head = ts.q[:n], 0
	}
	ts.q = append(ts.q, t)
	ts.live++
	if ts.timer == nil {
		ts.timer = ts.clk.AfterFunc(ts.d, ts.fire)
	}
	ts.mu.Unlock()
}

// Stop keeps t's function from running; it reports whether it stopped it
// (false: it ran, or runs now).
func (t *Timer) Stop() bool {
	ts := t.ts
	ts.mu.Lock()
	if t.done || ts.closed {
		t.done = true
		ts.mu.Unlock()
		return false
	}
	t.done = true
	ts.live--
	ts.trimLocked()
	ts.mu.Unlock()
	return true
}

// trimLocked drops stopped entries at both ends, and all of them when
// they outnumber the live ones (a long call at the head keeps the entries
// behind it otherwise until its deadline).
func (ts *Queue) trimLocked() {
	for n := len(ts.q); n > ts.head && ts.q[n-1].done; n-- {
		ts.q[n-1] = nil
		ts.q = ts.q[:n-1]
	}
	for ts.head < len(ts.q) && ts.q[ts.head].done {
		ts.q[ts.head] = nil
		ts.head++
	}
	switch n := len(ts.q) - ts.head; {
	case n == 0:
		ts.q, ts.head = ts.q[:0], 0
	case n > 2*ts.live+64:
		kept := ts.q[:0]
		for _, t := range ts.q[ts.head:] {
			if !t.done {
				kept = append(kept, t)
			}
		}
		clear(ts.q[len(kept):])
		ts.q, ts.head = kept, 0
	}
}

// fire runs the functions whose deadline passed and re-arms for the next.
func (ts *Queue) fire() {
	var due []*Timer
	ts.mu.Lock()
	now := ts.since()
	for ts.head < len(ts.q) && ts.q[ts.head].deadline <= now {
		t := ts.q[ts.head]
		ts.q[ts.head] = nil
		ts.head++
		if !t.done {
			t.done = true
			ts.live--
			due = append(due, t)
		}
	}
	ts.trimLocked()
	ts.timer = nil
	if ts.head < len(ts.q) && !ts.closed {
		ts.timer = ts.clk.AfterFunc(time.Duration(ts.q[ts.head].deadline-now), ts.fire)
	}
	ts.mu.Unlock()
	for _, t := range due {
		t.x.Fire()
	}
}

// Close stops the timer for good: no function runs from now on, and Add
// returns stopped Timers.
func (ts *Queue) Close() {
	ts.mu.Lock()
	ts.closed = true
	if ts.timer != nil {
		ts.timer.Stop()
		ts.timer = nil
	}
	clear(ts.q)
	ts.q, ts.head, ts.live = nil, 0, 0
	ts.mu.Unlock()
}
