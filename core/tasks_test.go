package core

import (
	"context"
	"encoding/json"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpwasm/mcpwasm/internal/jsonscan"
	"github.com/mcpwasm/mcpwasm/jsonrpc"
)

// Fault tests of the tasks API with scripted servers; the protocol flows
// themselves are tested against real peers in harness/integration.

func modernTask(id, status string, extra map[string]any) map[string]any {
	m := map[string]any{"resultType": "complete", "taskId": id, "status": status, "createdAt": "2026-01-01T00:00:00Z", "lastUpdatedAt": "2026-01-01T00:00:01Z", "ttlMs": nil, "pollIntervalMs": 20}
	for k, v := range extra {
		m[k] = v
	}
	return m
}

// taskFake is a modern fake whose tools/call creates task "t1" and whose
// tasks/get answers with get(n) for the n-th poll (from 1).
func taskFake(t *testing.T, get func(n int64) (any, *jsonrpc.Error), timeout ...time.Duration) (*fakeServer, *Session, *atomic.Int64) {
	t.Helper()
	f, tr := newFake(t, EraModern)
	var polls atomic.Int64
	f.handle(MethodCallTool, func(*jsonrpc.Request) (any, *jsonrpc.Error) {
		m := modernTask("t1", TaskWorking, nil)
		m["resultType"] = ResultTypeTask
		return m, nil
	})
	f.handle(MethodGetTask, func(*jsonrpc.Request) (any, *jsonrpc.Error) { return get(polls.Add(1)) })
	rt := 200 * time.Millisecond // short: the retry test waits for timeouts
	if len(timeout) > 0 {
		rt = timeout[0]
	}
	return f, connectFake(t, tr, &ClientOptions{Tasks: true, RequestTimeout: rt}), &polls
}

func TestTaskFaults(t *testing.T) {
	t.Run("a task that never finishes: ctx bounds Wait, polls follow pollIntervalMs", func(t *testing.T) {
		// On a fake clock: a poll goes out each time pollIntervalMs (20 ms)
		// has passed, never before (no busy loop), and the caller's
		// context ends the wait.
		f, tr := newFake(t, EraModern)
		var polls atomic.Int64
		f.handle(MethodCallTool, func(*jsonrpc.Request) (any, *jsonrpc.Error) {
			m := modernTask("t1", TaskWorking, nil)
			m["resultType"] = ResultTypeTask
			return m, nil
		})
		f.handle(MethodGetTask, func(*jsonrpc.Request) (any, *jsonrpc.Error) {
			polls.Add(1)
			return modernTask("t1", TaskWorking, nil), nil
		})
		s, clk := connectFakeClock(t, tr, &ClientOptions{Tasks: true, RequestTimeout: time.Hour})
		task, err := s.CallToolAsTask(ctx5(t), &CallToolParams{Name: "x"}, nil)
		require.NoError(t, err)
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		done := make(chan error, 1)
		go func() {
			_, err := task.Wait(ctx, nil)
			done <- err
		}()
		for i := int64(1); i <= 5; i++ {
			clk.WaitDeadline(t, 20*time.Millisecond) // the next poll is armed
			require.Equal(t, i-1, polls.Load(), "no poll before the interval has passed")
			clk.Advance(20 * time.Millisecond)
			require.Eventually(t, func() bool { return polls.Load() == i }, 5*time.Second, time.Millisecond)
		}
		stillPending(t, done)
		cancel()
		require.ErrorIs(t, returned(t, done), context.Canceled)
		assert.Equal(t, int64(5), polls.Load())
		_, err = task.Result()
		require.ErrorIs(t, err, ErrTaskPending)
	})

	t.Run("a huge pollIntervalMs is capped by MaxPollInterval", func(t *testing.T) {
		f, tr := newFake(t, EraModern)
		var polls atomic.Int64
		f.handle(MethodCallTool, func(*jsonrpc.Request) (any, *jsonrpc.Error) {
			m := modernTask("t1", TaskWorking, nil)
			m["resultType"] = ResultTypeTask
			return m, nil
		})
		f.handle(MethodGetTask, func(*jsonrpc.Request) (any, *jsonrpc.Error) {
			if polls.Add(1) < 3 {
				return modernTask("t1", TaskWorking, map[string]any{"pollIntervalMs": 3_600_000}), nil
			}
			return modernTask("t1", TaskCompleted, map[string]any{"result": map[string]any{"content": []any{map[string]any{"type": "text", "text": "ok"}}}}), nil
		})
		s, clk := connectFakeClock(t, tr, &ClientOptions{Tasks: true, RequestTimeout: time.Hour})
		task, err := s.CallToolAsTask(ctx5(t), &CallToolParams{Name: "x"}, nil)
		require.NoError(t, err)
		type result struct {
			r   *CallToolResult
			err error
		}
		done := make(chan result, 1)
		go func() {
			r, err := task.Wait(ctx5(t), &TaskWaitOptions{MaxPollInterval: 30 * time.Millisecond})
			done <- result{r, err}
		}()
		for i := int64(1); i <= 3; i++ {
			d := 30 * time.Millisecond // capped, not an hour
			if i == 1 {
				d = 20 * time.Millisecond // the created task's own pollIntervalMs
			}
			clk.WaitDeadline(t, d)
			require.Equal(t, i-1, polls.Load(), "no poll before the interval has passed")
			clk.Advance(d)
			require.Eventually(t, func() bool { return polls.Load() == i }, 5*time.Second, time.Millisecond)
		}
		select {
		case res := <-done:
			require.NoError(t, res.err)
			assert.Equal(t, "ok", res.r.Content[0].Text)
		case <-time.After(5 * time.Second):
			t.Fatal("Wait did not return")
		}
		assert.Equal(t, int64(3), polls.Load())
	})

	t.Run("a terminal status that goes backwards is an error; the handle stays terminal", func(t *testing.T) {
		_, s, _ := taskFake(t, func(n int64) (any, *jsonrpc.Error) {
			if n == 1 {
				return modernTask("t1", TaskCancelled, nil), nil
			}
			return modernTask("t1", TaskWorking, map[string]any{"lastUpdatedAt": "2026-01-01T00:00:09Z"}), nil
		})
		task, err := s.CallToolAsTask(ctx5(t), &CallToolParams{Name: "x"}, nil)
		require.NoError(t, err)
		st, err := task.Refresh(ctx5(t))
		require.NoError(t, err)
		assert.Equal(t, TaskCancelled, st.Status)
		st, err = task.Refresh(ctx5(t))
		require.ErrorIs(t, err, ErrInvalidResult)
		assert.Contains(t, err.Error(), "from cancelled back to working")
		assert.Equal(t, TaskCancelled, st.Status)
		_, err = task.Wait(ctx5(t), nil)
		require.ErrorIs(t, err, ErrTaskCancelled)
	})

	t.Run("an older snapshot does not overwrite a newer one", func(t *testing.T) {
		_, s, _ := taskFake(t, func(n int64) (any, *jsonrpc.Error) {
			if n == 1 {
				return modernTask("t1", TaskWorking, map[string]any{"statusMessage": "new", "lastUpdatedAt": "2026-01-01T00:00:05Z"}), nil
			}
			return modernTask("t1", TaskWorking, map[string]any{"statusMessage": "old", "lastUpdatedAt": "2026-01-01T00:00:02Z"}), nil
		})
		task, err := s.CallToolAsTask(ctx5(t), &CallToolParams{Name: "x"}, nil)
		require.NoError(t, err)
		_, err = task.Refresh(ctx5(t))
		require.NoError(t, err)
		st, err := task.Refresh(ctx5(t))
		require.NoError(t, err)
		assert.Equal(t, "new", st.StatusMessage)
	})

	t.Run("unknown task id", func(t *testing.T) {
		_, s, _ := taskFake(t, func(int64) (any, *jsonrpc.Error) {
			return nil, &jsonrpc.Error{Code: CodeInvalidParams, Message: "Failed to retrieve task: Task not found"}
		})
		_, err := s.GetTask(ctx5(t), "nope")
		var rpc *RPCError
		require.ErrorAs(t, err, &rpc)
		assert.Equal(t, int64(CodeInvalidParams), rpc.Code)
		_, err = s.GetTask(ctx5(t), "")
		require.Error(t, err)
	})

	t.Run("a task result far larger than a call's arrives whole", func(t *testing.T) {
		big := strings.Repeat("x", 8<<20)
		_, s, _ := taskFake(t, func(int64) (any, *jsonrpc.Error) {
			return modernTask("t1", TaskCompleted, map[string]any{"result": map[string]any{"content": []any{map[string]any{"type": "text", "text": big}}}}), nil
		}, 4*time.Second)
		task, err := s.CallToolAsTask(ctx5(t), &CallToolParams{Name: "x"}, nil)
		require.NoError(t, err)
		r, err := task.Wait(ctx5(t), nil)
		require.NoError(t, err)
		require.Len(t, r.Content, 1)
		assert.Equal(t, len(big), len(r.Content[0].Text))
	})

	t.Run("polls that time out are retried with backoff, then given up", func(t *testing.T) {
		f, s, polls := taskFake(t, func(n int64) (any, *jsonrpc.Error) {
			if n <= 2 {
				return nil, nil // never answered: the poll times out
			}
			return modernTask("t1", TaskCompleted, map[string]any{"result": map[string]any{"content": []any{}}}), nil
		})
		_ = f
		task, err := s.CallToolAsTask(ctx5(t), &CallToolParams{Name: "x"}, nil)
		require.NoError(t, err)
		_, err = task.Wait(ctx5(t), nil)
		require.NoError(t, err)
		assert.Equal(t, int64(3), polls.Load())

		_, s2, _ := taskFake(t, func(int64) (any, *jsonrpc.Error) { return nil, nil })
		task2, err := s2.CallToolAsTask(ctx5(t), &CallToolParams{Name: "x"}, nil)
		require.NoError(t, err)
		_, err = task2.Wait(ctx5(t), &TaskWaitOptions{MaxRetries: -1})
		require.ErrorIs(t, err, ErrTimeout)
	})

	t.Run("a completed task without its result is invalid", func(t *testing.T) {
		_, s, _ := taskFake(t, func(int64) (any, *jsonrpc.Error) { return modernTask("t1", TaskCompleted, nil), nil })
		task, err := s.CallToolAsTask(ctx5(t), &CallToolParams{Name: "x"}, nil)
		require.NoError(t, err)
		_, err = task.Wait(ctx5(t), nil)
		require.ErrorIs(t, err, ErrInvalidResult)
	})

	t.Run("an unknown status is invalid", func(t *testing.T) {
		_, s, _ := taskFake(t, func(int64) (any, *jsonrpc.Error) { return modernTask("t1", "sleeping", nil), nil })
		_, err := s.GetTask(ctx5(t), "t1")
		require.ErrorIs(t, err, ErrInvalidResult)
	})
}

// TestTaskLegacyNotification: a 2025-11-25 status notification wakes Wait
// before the (long) poll interval, and the result comes from tasks/result.
func TestTaskLegacyNotification(t *testing.T) {
	f, tr := newFake(t, EraLegacy)
	f.handle(MethodInitialize, func(r *jsonrpc.Request) (any, *jsonrpc.Error) {
		var p InitializeParams
		_ = json.Unmarshal(r.Params, &p)
		return map[string]any{
			"protocolVersion": p.ProtocolVersion,
			"capabilities":    map[string]any{"tools": map[string]any{}, "tasks": map[string]any{"list": map[string]any{}, "cancel": map[string]any{}, "requests": map[string]any{"tools": map[string]any{"call": map[string]any{}}}}},
			"serverInfo":      map[string]any{"name": "fake-legacy", "version": "1"},
		}, nil
	})
	task := func(status string) map[string]any {
		return map[string]any{"taskId": "L1", "status": status, "createdAt": "2026-01-01T00:00:00Z", "lastUpdatedAt": "2026-01-01T00:00:00Z", "ttl": 60000, "pollInterval": 10_000}
	}
	f.handle(MethodCallTool, func(r *jsonrpc.Request) (any, *jsonrpc.Error) {
		if paramsOf(t, r)["task"] == nil {
			return nil, &jsonrpc.Error{Code: CodeInvalidParams, Message: "task augmentation required"}
		}
		return map[string]any{"task": task(TaskWorking)}, nil
	})
	f.handle(MethodGetTask, func(*jsonrpc.Request) (any, *jsonrpc.Error) { return task(TaskWorking), nil })
	f.handle(MethodTaskResult, func(*jsonrpc.Request) (any, *jsonrpc.Error) {
		return map[string]any{"content": []any{map[string]any{"type": "text", "text": "done"}}}, nil
	})
	// On a fake clock that never moves: only the notification can end
	// the wait.
	s, clk := connectFakeClock(t, tr, nil)
	tk, err := s.CallToolAsTask(ctx5(t), &CallToolParams{Name: "x"}, &TaskOptions{TTL: time.Minute})
	require.NoError(t, err)
	assert.Equal(t, 10*time.Second, tk.PollInterval())
	assert.EqualValues(t, 60000, paramsOf(t, f.requests(MethodCallTool)[0])["task"].(map[string]any)["ttl"])
	go func() {
		clk.WaitDeadline(t, 10*time.Second) // Wait is waiting for its first poll
		st := task(TaskCompleted)
		st["lastUpdatedAt"] = "2026-01-01T00:00:02Z"
		f.notify(NotificationTaskStatus, st)
	}()
	r, err := tk.Wait(ctx5(t), nil)
	require.NoError(t, err)
	assert.Equal(t, "done", r.Content[0].Text)
	assert.Equal(t, TaskCompleted, tk.Status())
	assert.Empty(t, f.requests(MethodGetTask), "woken by the notification, not a poll")
}

// TestTaskModernNotification: with the extension advertised, Wait opens a
// subscriptions/listen stream for the task, and notifications/tasks carry
// the final result without a poll.
func TestTaskModernNotification(t *testing.T) {
	for _, acked := range []bool{true, false} {
		t.Run(map[bool]string{true: "acknowledged", false: "not acknowledged: polls"}[acked], func(t *testing.T) {
			f, tr := newFake(t, EraModern)
			f.handle(MethodDiscover, func(*jsonrpc.Request) (any, *jsonrpc.Error) {
				return map[string]any{"resultType": "complete", "supportedVersions": []string{Version20260728},
					"capabilities": map[string]any{"tools": map[string]any{}, "extensions": map[string]any{ExtensionTasks: map[string]any{}}}}, nil
			})
			f.handle(MethodCallTool, func(*jsonrpc.Request) (any, *jsonrpc.Error) {
				m := modernTask("t1", TaskWorking, map[string]any{"pollIntervalMs": 300})
				m["resultType"] = ResultTypeTask
				return m, nil
			})
			done := map[string]any{"result": map[string]any{"content": []any{map[string]any{"type": "text", "text": "pushed"}}}, "lastUpdatedAt": "2026-01-01T00:00:09Z"}
			f.handle(MethodGetTask, func(*jsonrpc.Request) (any, *jsonrpc.Error) { return modernTask("t1", TaskCompleted, done), nil })
			f.handle(MethodListen, func(r *jsonrpc.Request) (any, *jsonrpc.Error) {
				p := paramsOf(t, r)
				assert.Equal(t, map[string]any{"taskIds": []any{"t1"}}, p["notifications"])
				caps := p["_meta"].(map[string]any)[MetaClientCapabilities].(map[string]any)
				assert.Contains(t, caps["extensions"], ExtensionTasks, "the listen declares the extension")
				meta := map[string]any{MetaSubscriptionID: r.ID.Raw()}
				go func() {
					ack := map[string]any{}
					if acked {
						ack["taskIds"] = []string{"t1"}
					}
					f.notify(NotificationAcknowledged, map[string]any{"_meta": meta, "notifications": ack})
					if acked {
						time.Sleep(20 * time.Millisecond)
						n := modernTask("t1", TaskCompleted, done)
						delete(n, "resultType")
						n["_meta"] = meta
						f.notify(NotificationTasks, n)
					}
				}()
				return nil, nil
			})
			s := connectFake(t, tr, nil)
			task, err := s.CallToolAsTask(ctx5(t), &CallToolParams{Name: "x"}, nil)
			require.NoError(t, err)
			r, err := task.Wait(ctx5(t), nil)
			require.NoError(t, err)
			assert.Equal(t, "pushed", r.Content[0].Text)
			if acked {
				assert.Empty(t, f.requests(MethodGetTask), "the notification carried the result")
			} else {
				assert.Len(t, f.requests(MethodGetTask), 1)
			}
		})
	}
}

// TestCallToolRaw: the bridges' CallTool keeps unknown result members and
// waits for a task like CallTool.
func TestCallToolRaw(t *testing.T) {
	_, s, _ := taskFake(t, func(int64) (any, *jsonrpc.Error) {
		return modernTask("t1", TaskCompleted, map[string]any{"result": map[string]any{"content": []any{}, "x-extra": 7}}), nil
	})
	raw, err := s.CallToolRaw(ctx5(t), RawMessage(`{"name":"x"}`), nil)
	require.NoError(t, err)
	assert.JSONEq(t, `{"content":[],"x-extra":7}`, string(raw))
	_, err = s.CallToolRaw(ctx5(t), RawMessage(`{"name":"x"}`), &CallOptions{NoTaskWait: true})
	var tc *TaskCreatedError
	require.ErrorAs(t, err, &tc)
	assert.Equal(t, "t1", tc.Task.ID())
}

func TestTaskWaitEdges(t *testing.T) {
	done := map[string]any{"result": map[string]any{"content": []any{map[string]any{"type": "text", "text": "r"}}}}

	t.Run("a resumed completed task: the inlined result, no second poll", func(t *testing.T) {
		_, s, polls := taskFake(t, func(int64) (any, *jsonrpc.Error) { return modernTask("t1", TaskCompleted, done), nil })
		task, err := s.GetTask(ctx5(t), "t1")
		require.NoError(t, err)
		r, err := task.Wait(ctx5(t), nil)
		require.NoError(t, err)
		assert.Equal(t, "r", r.Content[0].Text)
		assert.Equal(t, int64(1), polls.Load())
	})

	t.Run("a task created already completed is polled at once", func(t *testing.T) {
		f, s, polls := taskFake(t, func(int64) (any, *jsonrpc.Error) { return modernTask("t1", TaskCompleted, done), nil })
		f.handle(MethodCallTool, func(*jsonrpc.Request) (any, *jsonrpc.Error) {
			m := modernTask("t1", TaskCompleted, map[string]any{"pollIntervalMs": 60_000})
			m["resultType"] = ResultTypeTask
			return m, nil
		})
		task, err := s.CallToolAsTask(ctx5(t), &CallToolParams{Name: "x"}, nil)
		require.NoError(t, err)
		start := time.Now()
		r, err := task.Wait(ctx5(t), nil)
		require.NoError(t, err)
		assert.Equal(t, "r", r.Content[0].Text)
		assert.Less(t, time.Since(start), time.Second)
		assert.Equal(t, int64(1), polls.Load())
	})

	t.Run("a second Wait is bounded by its own ctx while the first polls", func(t *testing.T) {
		_, s, polls := taskFake(t, func(int64) (any, *jsonrpc.Error) { return modernTask("t1", TaskWorking, nil), nil })
		task, err := s.CallToolAsTask(ctx5(t), &CallToolParams{Name: "x"}, nil)
		require.NoError(t, err)
		first, cancelFirst := context.WithCancel(context.Background())
		firstDone := make(chan error, 1)
		go func() {
			_, err := task.Wait(first, nil)
			firstDone <- err
		}()
		// The first Wait holds the poller's place once it has polled.
		require.Eventually(t, func() bool { return polls.Load() >= 1 }, 5*time.Second, 5*time.Millisecond)
		short, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
		defer cancel()
		start := time.Now()
		_, err = task.Wait(short, nil)
		require.ErrorIs(t, err, context.DeadlineExceeded)
		assert.Less(t, time.Since(start), time.Second)
		cancelFirst()
		require.ErrorIs(t, <-firstDone, context.Canceled)
	})

	t.Run("timestamps of different precision are compared as times", func(t *testing.T) {
		assert.True(t, older("2026-01-01T00:00:00Z", "2026-01-01T00:00:00.5Z"))
		assert.False(t, older("2026-01-01T00:00:00.5Z", "2026-01-01T00:00:00Z"))
		assert.False(t, older("", "2026-01-01T00:00:00Z"))
		assert.False(t, older("yesterday", "2026-01-01T00:00:00Z"))
	})
}

func TestTaskBackoff(t *testing.T) {
	for _, tc := range []struct {
		failures int
		lo, hi   time.Duration
	}{{1, 200 * time.Millisecond, 250 * time.Millisecond}, {2, 400 * time.Millisecond, 500 * time.Millisecond}, {40, 100 * time.Millisecond << 16, 125 * time.Millisecond << 16}} {
		d := backoff(100*time.Millisecond, tc.failures, time.Now())
		assert.GreaterOrEqual(t, d, tc.lo)
		assert.LessOrEqual(t, d, tc.hi)
	}
}

// TestTaskHeaders: tasks/get, tasks/update and tasks/cancel carry the task
// id in Mcp-Name on HTTP, so intermediaries can route them to the
// server holding the task.
func TestTaskHeaders(t *testing.T) {
	s := &Session{tools: map[string]*toolInfo{}}
	for _, m := range []string{MethodGetTask, MethodUpdateTask, MethodCancelTask} {
		hs, err := s.mirroredHeaders(m, []jsonscan.Member{{Key: "taskId", Val: RawMessage(`"786512e2-9e0d"`)}})
		require.NoError(t, err)
		assert.Equal(t, []Header{{"Mcp-Method", m}, {"Mcp-Name", "786512e2-9e0d"}}, hs, m)
	}
}
