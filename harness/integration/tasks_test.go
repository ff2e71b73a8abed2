package integration_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpwasm/mcpwasm/core"
	"github.com/mcpwasm/mcpwasm/harness/testpeers"
	"github.com/mcpwasm/mcpwasm/jsonrpc"
	"github.com/mcpwasm/mcpwasm/transport/fetch"
)

// taskClient connects to url with an elicitation handler that answers the
// research tool's clarification and records what it was asked.
func taskClient(t *testing.T, url string, tasks bool, asked *[]string, mu *sync.Mutex) *core.Session {
	t.Helper()
	client := core.NewClient(&core.Implementation{Name: "mcpwasm-tasks", Version: "1.0.0"}, &core.ClientOptions{
		Tasks: tasks,
		ElicitationHandler: func(_ context.Context, req *core.ElicitRequest) (*core.ElicitResult, error) {
			mu.Lock()
			*asked = append(*asked, req.Params.Message)
			mu.Unlock()
			return &core.ElicitResult{Action: core.ActionAccept, Content: map[string]any{"interpretation": "comedy", "name": "Ada"}}, nil
		},
		OnWarning: func(_ *core.Session, err error) { t.Logf("warning: %v", err) },
	})
	tr, err := fetch.New(url, nil)
	require.NoError(t, err)
	s, err := client.Connect(testCtx(t), tr, nil)
	require.NoError(t, err)
	t.Cleanup(func() { s.Close() })
	return s
}

// TestTasksEverything drives the 2025-11-25 experimental tasks of
// server-everything: its simulate-research-query tool runs only as a task,
// reports stages in statusMessage, and (ambiguous) asks for clarification
// through an elicitation delivered on the tasks/result stream.
func TestTasksEverything(t *testing.T) {
	srv := testpeers.StartEverything(t, "streamableHttp")
	var mu sync.Mutex
	var asked []string
	s := taskClient(t, srv.URL, false, &asked, &mu)
	require.Equal(t, core.EraLegacy, s.Era())

	t.Run("call as task, wait, input through the elicitation handler", func(t *testing.T) {
		ctx := testCtx(t)
		task, err := s.CallToolAsTask(ctx, &core.CallToolParams{Name: "simulate-research-query", Arguments: map[string]any{"topic": "python", "ambiguous": true}}, nil)
		require.NoError(t, err)
		require.NotEmpty(t, task.ID())
		assert.Equal(t, core.TaskWorking, task.Status())
		assert.Equal(t, time.Second, task.PollInterval())
		var seen []string
		r, err := task.Wait(ctx, &core.TaskWaitOptions{OnStatus: func(st core.TaskState) { seen = append(seen, st.Status+":"+st.StatusMessage) }})
		require.NoError(t, err)
		assert.Contains(t, text(t, r), "Research Report: python (comedy)")
		assert.Equal(t, core.TaskCompleted, task.Status())
		mu.Lock()
		require.Len(t, asked, 1)
		assert.Contains(t, asked[0], "multiple interpretations")
		mu.Unlock()
		assert.NotEmpty(t, seen)
		// Result is memoized.
		r2, err := task.Result()
		require.NoError(t, err)
		assert.Same(t, r, r2)
	})

	t.Run("CallTool on a task-only tool waits for the task", func(t *testing.T) {
		ctx := testCtx(t)
		r, err := s.CallTool(ctx, &core.CallToolParams{Name: "simulate-research-query", Arguments: map[string]any{"topic": "tides"}}, nil)
		require.NoError(t, err)
		assert.Contains(t, text(t, r), "Research Report: tides")
	})

	t.Run("NoTaskWait returns the handle", func(t *testing.T) {
		ctx := testCtx(t)
		_, err := s.CallTool(ctx, &core.CallToolParams{Name: "simulate-research-query", Arguments: map[string]any{"topic": "owls"}}, &core.CallOptions{NoTaskWait: true})
		var tc *core.TaskCreatedError
		require.ErrorAs(t, err, &tc)
		require.ErrorIs(t, err, core.ErrTaskCreated)
		require.NoError(t, tc.Task.Cancel(ctx))
	})

	t.Run("list, resume in a new session, cancel", func(t *testing.T) {
		ctx := testCtx(t)
		task, err := s.CallToolAsTask(ctx, &core.CallToolParams{Name: "simulate-research-query", Arguments: map[string]any{"topic": "rivers"}}, &core.TaskOptions{TTL: time.Minute})
		require.NoError(t, err)
		list, err := s.ListTasks(ctx, nil)
		require.NoError(t, err)
		var ids []string
		for _, st := range list.Tasks {
			ids = append(ids, st.ID)
		}
		assert.Contains(t, ids, task.ID())

		// server-everything keeps tasks per MCP session: another session
		// is told the id is unknown; a fresh handle in this one resumes.
		s2 := taskClient(t, srv.URL, false, &asked, &mu)
		_, err = s2.GetTask(ctx, task.ID())
		var rpc *core.RPCError
		require.ErrorAs(t, err, &rpc)
		assert.Equal(t, int64(core.CodeInvalidParams), rpc.Code)
		resumed, err := s.GetTask(ctx, task.ID())
		require.NoError(t, err)
		assert.Equal(t, core.TaskWorking, resumed.Status())
		assert.Equal(t, task.ID(), resumed.ID())
		require.NoError(t, resumed.Cancel(ctx))
		_, err = resumed.Wait(ctx, nil)
		require.ErrorIs(t, err, core.ErrTaskCancelled)
		assert.Equal(t, core.TaskCancelled, resumed.Status())
	})

	t.Run("unknown task id", func(t *testing.T) {
		_, err := s.GetTask(testCtx(t), "no-such-task")
		var rpc *core.RPCError
		require.ErrorAs(t, err, &rpc)
		assert.True(t, strings.Contains(strings.ToLower(rpc.Message), "task"), rpc.Message)
	})

	t.Run("caller's ctx bounds Wait; the task goes on", func(t *testing.T) {
		task, err := s.CallToolAsTask(testCtx(t), &core.CallToolParams{Name: "simulate-research-query", Arguments: map[string]any{"topic": "moss"}}, nil)
		require.NoError(t, err)
		short, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
		defer cancel()
		_, err = task.Wait(short, nil)
		require.ErrorIs(t, err, context.DeadlineExceeded)
		_, err = task.Result()
		require.ErrorIs(t, err, core.ErrTaskPending)
		r, err := task.Wait(testCtx(t), nil)
		require.NoError(t, err)
		assert.Contains(t, text(t, r), "moss")
	})
}

// TestTasksExtension drives the 2026-07-28 tasks extension on a TypeScript
// SDK v2 server whose wire shapes are checked with the official
// @modelcontextprotocol/ext-tasks package.
func TestTasksExtension(t *testing.T) {
	srv := testpeers.StartTasksServer(t, false)
	var mu sync.Mutex
	var asked []string
	s := taskClient(t, srv.URL, false, &asked, &mu)
	require.Equal(t, core.EraModern, s.Era())

	t.Run("call as task, statuses, structured result validated", func(t *testing.T) {
		ctx := testCtx(t)
		task, err := s.CallToolAsTask(ctx, &core.CallToolParams{Name: "slow_sum", Arguments: map[string]any{"a": 2, "b": 3, "steps": 3}}, nil)
		require.NoError(t, err)
		require.NotEmpty(t, task.ID())
		assert.Equal(t, 100*time.Millisecond, task.PollInterval())
		var msgs []string
		r, err := task.Wait(ctx, &core.TaskWaitOptions{OnStatus: func(st core.TaskState) { msgs = append(msgs, st.StatusMessage) }})
		require.NoError(t, err)
		assert.Equal(t, "5", text(t, r))
		assert.JSONEq(t, `{"sum":5}`, string(r.StructuredContent))
		assert.Equal(t, core.TaskCompleted, task.Status())
		assert.Contains(t, msgs, "done")
	})

	t.Run("input through tasks/update answered by the elicitation handler", func(t *testing.T) {
		ctx := testCtx(t)
		task, err := s.CallToolAsTask(ctx, &core.CallToolParams{Name: "ask_name"}, nil)
		require.NoError(t, err)
		r, err := task.Wait(ctx, nil)
		require.NoError(t, err)
		assert.Equal(t, "Hello, Ada!", text(t, r))
		mu.Lock()
		assert.Contains(t, asked, "Please enter your name.")
		mu.Unlock()
	})

	t.Run("CallTool without opting in: -32021, retried with the extension, waited for", func(t *testing.T) {
		r, err := s.CallTool(testCtx(t), &core.CallToolParams{Name: "slow_sum", Arguments: map[string]any{"a": 20, "b": 22, "steps": 1}}, nil)
		require.NoError(t, err)
		assert.Equal(t, "42", text(t, r))
	})

	t.Run("a server that answers directly gives a completed handle", func(t *testing.T) {
		task, err := s.CallToolAsTask(testCtx(t), &core.CallToolParams{Name: "quick", Arguments: map[string]any{"text": "hi"}}, nil)
		require.NoError(t, err)
		assert.Empty(t, task.ID())
		assert.Equal(t, core.TaskCompleted, task.Status())
		r, err := task.Wait(testCtx(t), nil)
		require.NoError(t, err)
		assert.Equal(t, "quick hi", text(t, r))
	})

	t.Run("failed task is the JSON-RPC error", func(t *testing.T) {
		task, err := s.CallToolAsTask(testCtx(t), &core.CallToolParams{Name: "fail_task"}, nil)
		require.NoError(t, err)
		_, err = task.Wait(testCtx(t), nil)
		var rpc *core.RPCError
		require.ErrorAs(t, err, &rpc)
		assert.Equal(t, int64(core.CodeInternalError), rpc.Code)
		assert.Equal(t, "the backend is on fire", rpc.Message)
		assert.Equal(t, core.TaskFailed, task.Status())
	})

	t.Run("a task that never finishes: ctx bounds Wait, resume in a new session, cancel", func(t *testing.T) {
		task, err := s.CallToolAsTask(testCtx(t), &core.CallToolParams{Name: "forever"}, nil)
		require.NoError(t, err)
		short, cancel := context.WithTimeout(context.Background(), 400*time.Millisecond)
		defer cancel()
		start := time.Now()
		_, err = task.Wait(short, nil)
		require.ErrorIs(t, err, context.DeadlineExceeded)
		assert.Less(t, time.Since(start), 2*time.Second)

		s2 := taskClient(t, srv.URL, false, &asked, &mu)
		resumed, err := s2.GetTask(testCtx(t), task.ID())
		require.NoError(t, err)
		assert.Equal(t, core.TaskWorking, resumed.Status())
		assert.Equal(t, "still going", resumed.StatusMessage())
		require.NoError(t, resumed.Cancel(testCtx(t)))
		_, err = resumed.Wait(testCtx(t), nil)
		require.ErrorIs(t, err, core.ErrTaskCancelled)
		_, err = task.Wait(testCtx(t), nil)
		require.ErrorIs(t, err, core.ErrTaskCancelled)
	})

	t.Run("unknown task id", func(t *testing.T) {
		_, err := s.GetTask(testCtx(t), "no-such-task")
		var rpc *core.RPCError
		require.ErrorAs(t, err, &rpc)
		assert.Equal(t, int64(core.CodeInvalidParams), rpc.Code)
	})

	t.Run("no tasks/list in this era", func(t *testing.T) {
		_, err := s.ListTasks(testCtx(t), nil)
		require.ErrorIs(t, err, core.ErrNotSupported)
	})
}

// TestTasksOptIn checks that the extension is declared on every request
// only when ClientOptions.Tasks is set: without it, a task-only tool is
// refused (-32021) and the call is sent again with the extension.
func TestTasksOptIn(t *testing.T) {
	srv := testpeers.StartTasksServer(t, false)
	for _, optIn := range []bool{false, true} {
		t.Run(fmt.Sprint("optIn=", optIn), func(t *testing.T) {
			var mu sync.Mutex
			var calls []string // clientCapabilities of each tools/call sent
			client := core.NewClient(&core.Implementation{Name: "mcpwasm-tasks", Version: "1.0.0"}, &core.ClientOptions{
				Tasks: optIn,
				OnMessage: func(_ *core.Session, dir core.Direction, msg jsonrpc.Message) {
					if req, ok := msg.(*jsonrpc.Request); ok && dir == core.Outgoing && req.Method == core.MethodCallTool {
						var p struct {
							Meta map[string]json.RawMessage `json:"_meta"`
						}
						_ = json.Unmarshal(req.Params, &p)
						mu.Lock()
						calls = append(calls, string(p.Meta[core.MetaClientCapabilities]))
						mu.Unlock()
					}
				},
			})
			tr, err := fetch.New(srv.URL, nil)
			require.NoError(t, err)
			s, err := client.Connect(testCtx(t), tr, nil)
			require.NoError(t, err)
			defer s.Close()
			_, err = s.CallTool(testCtx(t), &core.CallToolParams{Name: "slow_sum", Arguments: map[string]any{"a": 1, "b": 1, "steps": 1}}, &core.CallOptions{NoTaskWait: true})
			var tc *core.TaskCreatedError
			require.ErrorAs(t, err, &tc)
			mu.Lock()
			defer mu.Unlock()
			if optIn {
				require.Len(t, calls, 1)
				assert.Contains(t, calls[0], core.ExtensionTasks)
			} else {
				require.Len(t, calls, 2)
				assert.NotContains(t, calls[0], core.ExtensionTasks)
				assert.Contains(t, calls[1], core.ExtensionTasks)
			}
		})
	}
}
