package callctx

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

type key struct{}

var errCause = errors.New("the call's own reason")

// ended waits until ch is closed (bounded).
func ended(t *testing.T, ch <-chan struct{}, what string) {
	t.Helper()
	select {
	case <-ch:
	case <-time.After(5 * time.Second):
		t.Fatalf("%s did not happen", what)
	}
}

func TestCtxEndings(t *testing.T) {
	tests := []struct {
		name string
		// end ends the Ctx (through its parent's cancel, or End).
		end       func(c *Ctx, cancel context.CancelCauseFunc)
		wantErr   error
		wantCause error
	}{
		{"End with a cause", func(c *Ctx, _ context.CancelCauseFunc) { c.End(errCause) }, context.Canceled, errCause},
		{"End with nil", func(c *Ctx, _ context.CancelCauseFunc) { c.End(nil) }, context.Canceled, context.Canceled},
		{"the parent cancelled", func(_ *Ctx, cancel context.CancelCauseFunc) { cancel(errCause) }, context.Canceled, errCause},
	}
	for _, tt := range tests {
		for _, mode := range []string{"watched", "done", "plain"} {
			t.Run(tt.name+"/"+mode, func(t *testing.T) {
				parent, cancel := context.WithCancelCause(context.WithValue(context.Background(), key{}, "v"))
				defer cancel(nil)
				var c Ctx
				c.Start(parent)
				require.NoError(t, c.Err())
				require.NoError(t, c.Cause())

				ran := make(chan struct{})
				var runs atomic.Int32
				switch mode {
				case "watched":
					require.True(t, c.OnEnd(func() { runs.Add(1); close(ran) }))
				case "done":
					go func() { <-c.Done(); runs.Add(1); close(ran) }()
				}
				tt.end(&c, cancel)
				if mode != "plain" {
					ended(t, ran, "the watcher")
				}
				assert.ErrorIs(t, c.Err(), tt.wantErr)
				assert.Equal(t, tt.wantCause, c.Cause())
				ended(t, c.Done(), "Done")
				assert.Equal(t, tt.wantCause, context.Cause(&c), "context.Cause sees the Ctx's cause")
				// A second ending changes nothing.
				c.End(errors.New("later"))
				assert.Equal(t, tt.wantCause, c.Cause())
				if mode != "plain" {
					assert.Equal(t, int32(1), runs.Load())
				}
				assert.Equal(t, "v", c.Value(key{}), "values are the parent's")
			})
		}
	}
}

func TestCtxParentDeadline(t *testing.T) {
	parent, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	var c Ctx
	c.Start(parent)
	d, ok := c.Deadline()
	want, _ := parent.Deadline()
	assert.True(t, ok)
	assert.Equal(t, want, d)
	ran := make(chan struct{})
	w := AfterEnd(&c, func() { close(ran) })
	ended(t, ran, "the watcher after the parent's deadline")
	assert.ErrorIs(t, c.Err(), context.DeadlineExceeded)
	assert.False(t, w.Stop(), "the watcher ran")
}

func TestCtxErrSeesTheParentWithoutAWatcher(t *testing.T) {
	parent, cancel := context.WithCancel(context.Background())
	var c Ctx
	c.Start(parent)
	cancel()
	assert.ErrorIs(t, c.Err(), context.Canceled)
	assert.ErrorIs(t, c.Cause(), context.Canceled)
	ended(t, c.Done(), "Done")
}

func TestOffEnd(t *testing.T) {
	var c Ctx
	c.Start(context.Background())
	require.True(t, c.OnEnd(func() { t.Error("a removed watcher ran") }))
	assert.True(t, c.OffEnd(), "removed before the end")
	assert.False(t, c.OffEnd(), "nothing left to remove")
	c.End(nil)

	// A watcher that ran is not removed.
	var d Ctx
	d.Start(context.Background())
	var runs atomic.Int32
	require.True(t, d.OnEnd(func() { runs.Add(1) }))
	d.End(errCause)
	assert.Equal(t, int32(1), runs.Load(), "End runs the watcher on its own goroutine")
	assert.False(t, d.OffEnd())
}

func TestOnEndAfterTheEnd(t *testing.T) {
	var c Ctx
	c.Start(context.Background())
	c.End(errCause)
	ran := make(chan struct{})
	require.True(t, c.OnEnd(func() { close(ran) }))
	ended(t, ran, "a watcher registered after the end")
}

func TestAfterEnd(t *testing.T) {
	t.Run("one watcher on the Ctx, the next through a derived context", func(t *testing.T) {
		var c Ctx
		c.Start(context.Background())
		first, second := make(chan struct{}), make(chan struct{})
		w1 := AfterEnd(&c, func() { close(first) })
		w2 := AfterEnd(&c, func() { close(second) })
		assert.NotNil(t, w1.c)
		assert.Nil(t, w2.c, "the Ctx keeps one watcher")
		c.End(errCause)
		ended(t, first, "the first watcher")
		ended(t, second, "the second watcher")
		assert.False(t, w1.Stop())
		assert.False(t, w2.Stop())
	})
	t.Run("after Done, through the derived context", func(t *testing.T) {
		var c Ctx
		c.Start(context.Background())
		_ = c.Done()
		ran := make(chan struct{})
		w := AfterEnd(&c, func() { close(ran) })
		assert.Nil(t, w.c)
		c.End(nil)
		ended(t, ran, "the watcher")
	})
	t.Run("any other context", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		ran := make(chan struct{})
		w := AfterEnd(ctx, func() { close(ran) })
		cancel()
		ended(t, ran, "the watcher")
		assert.False(t, w.Stop())
		w = AfterEnd(context.Background(), func() { t.Error("ran") })
		assert.True(t, w.Stop())
	})
	t.Run("the zero Watch", func(t *testing.T) {
		assert.False(t, Watch{}.Stop())
	})
}

func TestDerivedContextsEndWithTheCtx(t *testing.T) {
	var c Ctx
	c.Start(context.Background())
	child, cancel := context.WithCancel(&c)
	defer cancel()
	c.End(errCause)
	ended(t, child.Done(), "the child's Done")
	assert.Equal(t, errCause, context.Cause(child))
}

func TestConcurrentEndings(t *testing.T) {
	parent, cancel := context.WithCancel(context.Background())
	defer cancel()
	var c Ctx
	c.Start(parent)
	var runs atomic.Int32
	require.True(t, c.OnEnd(func() { runs.Add(1) }))
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			switch i % 4 {
			case 0:
				c.End(errCause)
			case 1:
				cancel()
			case 2:
				<-c.Done()
			case 3:
				_ = c.Err()
				c.OffEnd()
			}
		})
	}
	wg.Wait()
	assert.LessOrEqual(t, runs.Load(), int32(1), "the watcher runs at most once")
	assert.Error(t, c.Err())
}

func TestNoAllocationsUnderAParentThatCannotEnd(t *testing.T) {
	var c Ctx
	c.Start(context.Background())
	f := func() {}
	allocs := testing.AllocsPerRun(100, func() {
		w := AfterEnd(&c, f)
		w.Stop()
		_ = c.Err()
	})
	assert.Zero(t, allocs)
}
