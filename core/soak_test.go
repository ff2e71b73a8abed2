package core

import (
	"context"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpwasm/mcpwasm/jsonrpc"
)

// TestSoak makes 100,000 calls (10,000 with -short or under wasm) over the in-memory
// pair, with progress and log notifications, cancellations and timeouts
// mixed in, and asserts counts, not times: goroutines (besides the bounded
// idle senders kept for reuse), pending requests, progress registrations,
// server requests and queued notifications are back where they started,
// and the live heap has grown by less than a byte per call.
func TestSoak(t *testing.T) {
	calls := 100_000
	if testing.Short() || runtime.GOARCH == "wasm" {
		calls = 10_000 // the wasm test runs (wasip1 under wazero) are for behaviour, not volume
	}
	f, tr := newFake(t, EraLegacy)
	f.forget = true
	f.handle(MethodCallTool, func(r *jsonrpc.Request) (any, *jsonrpc.Error) {
		p := paramsOf(t, r)
		switch p["name"] {
		case "hang":
			return nil, nil // never answered: the caller cancels or times out
		case "progress":
			meta, _ := p["_meta"].(map[string]any)
			f.notify(NotificationProgress, map[string]any{"progressToken": meta["progressToken"], "progress": 1})
		case "log":
			f.notify(NotificationMessage, map[string]any{"level": "info", "data": "x"})
		}
		return map[string]any{"content": []any{map[string]any{"type": "text", "text": "ok"}}}, nil
	})
	var logs, progress atomic.Int64
	s := connectFake(t, tr, &ClientOptions{
		LoggingHandler: func(context.Context, *Session, *LoggingMessageParams) { logs.Add(1) },
	})
	// Settle, then take the baseline.
	_, err := s.CallTool(ctx5(t), &CallToolParams{Name: "warm"}, nil)
	require.NoError(t, err)
	// The session keeps up to maxIdleSenders idle send goroutines for reuse:
	// they are counted apart.
	busyGoroutines := func() int { return runtime.NumGoroutine() - s.sends.Idle() }
	baseGoroutines := busyGoroutines()
	base := s.Stats()
	baseHeap := liveHeap()

	const workers = 8
	var wg sync.WaitGroup
	var failures atomic.Int64
	var next atomic.Int64
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := next.Add(1)
				if i > int64(calls) {
					return
				}
				var err error
				switch {
				case i%1000 == 0: // cancelled by the caller
					ctx, cancel := context.WithCancel(context.Background())
					go cancel()
					_, err = s.CallTool(ctx, &CallToolParams{Name: "hang"}, nil)
					if err == nil {
						failures.Add(1)
					}
					continue
				case i%1000 == 500: // timed out
					_, err = s.CallTool(context.Background(), &CallToolParams{Name: "hang"}, &CallOptions{Timeout: time.Millisecond})
					if err == nil {
						failures.Add(1)
					}
					continue
				case i%10 == 1:
					_, err = s.CallTool(context.Background(), &CallToolParams{Name: "progress"}, &CallOptions{OnProgress: func(*ProgressParams) { progress.Add(1) }})
				case i%10 == 2:
					_, err = s.CallTool(context.Background(), &CallToolParams{Name: "log"}, nil)
				default:
					_, err = s.CallTool(context.Background(), &CallToolParams{Name: fmt.Sprint("t", i%7)}, nil)
				}
				if err != nil {
					failures.Add(1)
				}
			}
		}()
	}
	wg.Wait()
	assert.Zero(t, failures.Load(), "every call ended as expected")

	// Everything queued has run once the queue is empty.
	require.Eventually(t, func() bool { return s.Stats().QueuedNotifications == base.QueuedNotifications }, 10*time.Second, time.Millisecond)
	assert.Positive(t, logs.Load())
	assert.Positive(t, progress.Load())

	st := s.Stats()
	assert.Equal(t, base, st, "pending requests, server requests, subscriptions and queued notifications")
	// A few bytes kept per call is a leak that only shows over millions of
	// calls; over these it shows as growth of the live heap.
	heap := liveHeap()
	t.Logf("live heap %d -> %d bytes over %d calls", baseHeap, heap, calls)
	assert.Less(t, int64(heap)-int64(baseHeap), int64(max(calls, 64<<10)), "the live heap grows by less than a byte per call (or 64 KiB: the runtime's own)")
	s.mu.Lock()
	assert.Empty(t, s.progress, "progress registrations")
	assert.Empty(t, s.incoming)
	s.mu.Unlock()
	s.elicits.mu.Lock()
	assert.Empty(t, s.elicits.waiting)
	s.elicits.mu.Unlock()
	// (Polled here: assert.Eventually runs its condition on goroutines of
	// its own, which would be counted.)
	deadline := time.Now().Add(10 * time.Second)
	for busyGoroutines() > baseGoroutines && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	assert.LessOrEqual(t, s.sends.Idle(), maxIdleSenders, "idle send goroutines are bounded")
	if n := busyGoroutines(); n > baseGoroutines {
		buf := make([]byte, 1<<20)
		t.Errorf("goroutines: %d, started with %d:\n%s", n, baseGoroutines, buf[:runtime.Stack(buf, true)])
	}
}

// liveHeap returns the bytes of live heap objects after a collection.
func liveHeap() uint64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}
