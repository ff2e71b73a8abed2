package callctx

import (
	"context"
	"sync"
	"time"
)

// Ctx is a call's context: its parent's values and deadline, ended by
// the parent's ending or by [Ctx.End], whichever comes first. The zero
// value is not usable; [Ctx.Start] readies it. It is safe for concurrent
// use once started (Start itself is not: it runs before the Ctx is
// shared).
type Ctx struct {
	parent context.Context

	mu    sync.Mutex
	err   error // what Err returns once ended; nil while the call runs
	cause error // why it ended
	// onEnd is the registered watcher (OnEnd), run once when the Ctx ends.
	onEnd func()
	// unwatch stops the watch of the parent, while onEnd is registered and
	// the parent can end.
	unwatch func() bool
	// real is a derived context of the parent, made when code that does
	// not know Ctx needs one (Done, Value); it ends with the Ctx.
	real       context.Context
	cancelReal context.CancelCauseFunc
	// parentEnded is c.fromParent as a func, made once per Ctx when the
	// parent needs watching.
	parentEnded func()
}

// Start readies c as a context under parent (not nil). It must be called
// once, before c is used.
func (c *Ctx) Start(parent context.Context) {
	c.parent = parent
}

// Deadline is the parent's deadline.
func (c *Ctx) Deadline() (time.Time, bool) { return c.parent.Deadline() }

// Value is the parent's value for key (through a derived context, so that
// context.Cause and contexts derived from c see its ending).
func (c *Ctx) Value(key any) any { return c.derived().Value(key) }

// Done is closed when c ends. The first call makes a derived context of
// the parent whose channel it is.
func (c *Ctx) Done() <-chan struct{} { return c.derived().Done() }

// Err is nil while c runs; context.Canceled once [Ctx.End] ended it, or
// the parent's error once the parent ended.
func (c *Ctx) Err() error {
	c.mu.Lock()
	err, real := c.err, c.real
	c.mu.Unlock()
	if err != nil {
		return err
	}
	if real != nil {
		// The derived context may have seen the parent end first.
		if err := real.Err(); err != nil {
			c.fromParent()
			return c.Err()
		}
		return nil
	}
	if c.parent.Err() != nil {
		c.fromParent()
		return c.Err()
	}
	return nil
}

// Cause is why c ended: End's cause (context.Canceled for nil), or the
// parent's cause; nil while c runs.
func (c *Ctx) Cause() error {
	if c.Err() == nil {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.cause
}

// End ends c with cause (nil: context.Canceled), unless it ended already:
// its watcher runs (on the caller's goroutine) and its Done closes. It is
// what a call's timers, its transport's abort and the call's own end
// call.
func (c *Ctx) End(cause error) {
	if cause == nil {
		cause = context.Canceled
	}
	c.end(context.Canceled, cause)
}

// fromParent ends c because its parent ended.
func (c *Ctx) fromParent() {
	c.end(c.parent.Err(), context.Cause(c.parent))
}

func (c *Ctx) end(err, cause error) {
	c.mu.Lock()
	if c.err != nil {
		c.mu.Unlock()
		return
	}
	c.err, c.cause = err, cause
	f, unwatch, cancel := c.onEnd, c.unwatch, c.cancelReal
	c.onEnd, c.unwatch = nil, nil
	c.mu.Unlock()
	if unwatch != nil {
		unwatch()
	}
	if cancel != nil {
		cancel(cause)
	}
	if f != nil {
		f()
	}
}

// derived is c's derived context, made on first use.
func (c *Ctx) derived() context.Context {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.real == nil {
		c.real, c.cancelReal = context.WithCancelCause(c.parent)
		if c.err != nil {
			c.cancelReal(c.cause)
		}
	}
	return c.real
}

// OnEnd registers f to run once when c ends (at once, on a goroutine of
// its own, if it ended already), and reports whether it did: c keeps one
// watcher, and none once a derived context exists (the caller then uses
// context.AfterFunc; [AfterEnd] does). f runs on the goroutine that ends
// c; it must not block.
func (c *Ctx) OnEnd(f func()) bool {
	c.mu.Lock()
	if c.onEnd != nil || c.real != nil {
		c.mu.Unlock()
		return false
	}
	if c.err != nil {
		c.mu.Unlock()
		go f()
		return true
	}
	c.onEnd = f
	if c.unwatch == nil && c.parent.Done() != nil {
		if c.parentEnded == nil {
			c.parentEnded = c.fromParent
		}
		// context.AfterFunc runs parentEnded on a goroutine of its own,
		// never here (it takes c.mu).
		c.unwatch = context.AfterFunc(c.parent, c.parentEnded)
	}
	c.mu.Unlock()
	return true
}

// OffEnd removes the watcher OnEnd registered, and reports whether it
// kept it from running (false: it ran, or runs now).
func (c *Ctx) OffEnd() bool {
	c.mu.Lock()
	f, unwatch := c.onEnd, c.unwatch
	c.onEnd, c.unwatch = nil, nil
	c.mu.Unlock()
	if unwatch != nil {
		unwatch()
	}
	return f != nil
}

// Watch is a watch [AfterEnd] set; [Watch.Stop] removes it. The zero
// Watch watches nothing.
type Watch struct {
	c    *Ctx
	stop func() bool
}

// AfterEnd arranges for f to run when ctx ends, as context.AfterFunc(ctx,
// f) does, but registered with ctx itself when it is a [Ctx] (no context
// of its own). f must not block: it may run on the goroutine that ends
// ctx. It is safe for concurrent use.
func AfterEnd(ctx context.Context, f func()) Watch {
	if c, ok := ctx.(*Ctx); ok && c.OnEnd(f) {
		return Watch{c: c}
	}
	return Watch{stop: context.AfterFunc(ctx, f)}
}

// Stop removes the watch, and reports whether it kept f from running
// (false: f ran or runs now, or the Watch is zero).
func (w Watch) Stop() bool {
	switch {
	case w.c != nil:
		return w.c.OffEnd()
	case w.stop != nil:
		return w.stop()
	}
	return false
}
