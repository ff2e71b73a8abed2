package wasihost

import (
	"context"
	"encoding/json"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpwasm/mcpwasm/core"
	"github.com/mcpwasm/mcpwasm/tests/peerproc"
)

// TestTasks drives the tasks API through the WASI guest against
// server-everything (2025-11-25) and the TypeScript SDK v2 server with the
// 2026-07-28 tasks extension.
func TestTasks(t *testing.T) {
	h := newHost(t, nil)
	var mu sync.Mutex
	var asked []string
	elicit := func(_ context.Context, params json.RawMessage) (json.RawMessage, error) {
		var p struct{ Message string }
		_ = json.Unmarshal(params, &p)
		mu.Lock()
		asked = append(asked, p.Message)
		mu.Unlock()
		return json.RawMessage(`{"action":"accept","content":{"interpretation":"comedy","name":"Ada"}}`), nil
	}
	resultText := func(t *testing.T, raw json.RawMessage) string {
		t.Helper()
		var r struct {
			Content []struct{ Text string }
		}
		require.NoError(t, json.Unmarshal(raw, &r))
		require.NotEmpty(t, r.Content)
		return r.Content[0].Text
	}

	t.Run("2025-11-25 server-everything", func(t *testing.T) {
		url := peerproc.Everything(t, "streamableHttp")
		s, err := h.Connect(testCtx(t), url, &ConnectOptions{Handlers: Handlers{Elicitation: elicit}})
		require.NoError(t, err)
		defer s.Close()
		require.Equal(t, "legacy", s.Era())

		th, err := s.CallToolAsTask(testCtx(t), "simulate-research-query", map[string]any{"topic": "python", "ambiguous": true}, time.Minute, nil)
		require.NoError(t, err)
		require.NotEmpty(t, th.State.ID)
		assert.Equal(t, "working", th.State.Status)
		assert.Equal(t, time.Second, th.State.PollInterval)
		states, _, err := s.ListTasks(testCtx(t), "")
		require.NoError(t, err)
		assert.NotEmpty(t, states)
		raw, err := s.WaitTask(testCtx(t), th.State.ID, 0)
		require.NoError(t, err)
		assert.Contains(t, resultText(t, raw), "Research Report: python (comedy)")
		mu.Lock()
		assert.Len(t, asked, 1)
		mu.Unlock()

		// tools/call on the task-only tool waits for the task.
		raw, err = s.Request(testCtx(t), "tools/call", map[string]any{"name": "simulate-research-query", "arguments": map[string]any{"topic": "tides"}}, nil)
		require.NoError(t, err)
		assert.Contains(t, resultText(t, raw), "Research Report: tides")
		_, err = s.Request(testCtx(t), "tools/call", map[string]any{"name": "simulate-research-query", "arguments": map[string]any{"topic": "owls"}}, &RequestOptions{NoTaskWait: true})
		require.ErrorIs(t, err, core.ErrTaskCreated)
		var ge *GuestError
		require.ErrorAs(t, err, &ge)
		var data struct{ TaskID string }
		require.NoError(t, json.Unmarshal(ge.Data, &data))
		st, err := s.CancelTask(testCtx(t), data.TaskID)
		require.NoError(t, err)
		assert.Equal(t, data.TaskID, st.ID)
		_, err = s.WaitTask(testCtx(t), data.TaskID, 0)
		require.ErrorIs(t, err, core.ErrTaskCancelled)
	})

	t.Run("2026-07-28 extension", func(t *testing.T) {
		url := peerproc.TasksServer(t)
		s, err := h.Connect(testCtx(t), url, &ConnectOptions{Handlers: Handlers{Elicitation: elicit}})
		require.NoError(t, err)
		defer s.Close()
		require.Equal(t, "modern", s.Era())

		th, err := s.CallToolAsTask(testCtx(t), "ask_name", nil, 0, nil)
		require.NoError(t, err)
		raw, err := s.WaitTask(testCtx(t), th.State.ID, 0)
		require.NoError(t, err)
		assert.Equal(t, "Hello, Ada!", resultText(t, raw))

		// A never-ending task: ctx bounds the wait; another session resumes
		// and cancels it.
		th, err = s.CallToolAsTask(testCtx(t), "forever", nil, 0, nil)
		require.NoError(t, err)
		short, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
		defer cancel()
		_, err = s.WaitTask(short, th.State.ID, 0)
		require.ErrorIs(t, err, context.DeadlineExceeded)
		s2, err := h.Connect(testCtx(t), url, nil)
		require.NoError(t, err)
		defer s2.Close()
		got, err := s2.GetTask(testCtx(t), th.State.ID)
		require.NoError(t, err)
		assert.Equal(t, "still going", got.State.StatusMessage)
		_, err = s2.CancelTask(testCtx(t), th.State.ID)
		require.NoError(t, err)
		_, err = s2.WaitTask(testCtx(t), th.State.ID, 0)
		require.ErrorIs(t, err, core.ErrTaskCancelled)

		_, err = s.GetTask(testCtx(t), "no-such-task")
		var rpc *core.RPCError
		require.ErrorAs(t, err, &rpc)
		assert.EqualValues(t, -32602, rpc.Code)
		_, _, err = s.ListTasks(testCtx(t), "")
		require.ErrorIs(t, err, core.ErrNotSupported)
	})
}
