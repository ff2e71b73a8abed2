package wasihost

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/mcpwasm/mcpwasm/wasm/abi"
)

// TaskState is a task as the server last described it (both eras).
type TaskState struct {
	// ID is the task id ("" for a call the server answered directly).
	ID            string
	Status        string // working, input_required, completed, failed, cancelled
	StatusMessage string
	CreatedAt     string
	LastUpdatedAt string
	// TTL is the retention from creation; nil means unlimited.
	TTL *time.Duration
	// PollInterval is the server's suggested polling interval (0: none).
	PollInterval time.Duration
}

func stateFrom(a abi.TaskState) TaskState {
	st := TaskState{ID: a.ID, Status: a.Status, StatusMessage: a.StatusMessage, CreatedAt: a.CreatedAt, LastUpdatedAt: a.LastUpdatedAt,
		PollInterval: time.Duration(a.PollIntervalMs) * time.Millisecond}
	if a.TTLMs != nil {
		d := time.Duration(*a.TTLMs) * time.Millisecond
		st.TTL = &d
	}
	return st
}

// TaskHandle is what CallToolAsTask and GetTask return: the task's state,
// and for a call the server answered directly, its result.
type TaskHandle struct {
	State  TaskState
	Result json.RawMessage
}

func (s *Session) taskCall(ctx context.Context, method string, params any, opts *RequestOptions, out any) (json.RawMessage, error) {
	raw, err := s.Request(ctx, method, params, opts)
	if err != nil {
		return raw, err
	}
	if out != nil {
		if err := json.Unmarshal(raw, out); err != nil {
			return nil, fmt.Errorf("wasihost: %s: %w", method, err)
		}
	}
	return raw, nil
}

func (s *Session) taskHandle(ctx context.Context, method string, params any, opts *RequestOptions) (*TaskHandle, error) {
	var h abi.TaskHandle
	if _, err := s.taskCall(ctx, method, params, opts, &h); err != nil {
		return nil, err
	}
	return &TaskHandle{State: stateFrom(h.State), Result: h.Result}, nil
}

// CallToolAsTask calls a tool as a task (2025-11-25; ttl is the retention
// asked, 0 for the server's choice) or allowing one (2026-07-28) inside the
// guest and returns the task's state. A server that answers directly gives
// a completed handle with an empty ID and the Result.
func (s *Session) CallToolAsTask(ctx context.Context, name string, arguments any, ttl time.Duration, opts *RequestOptions) (*TaskHandle, error) {
	return s.taskHandle(ctx, abi.MethodTaskCall, map[string]any{"name": name, "arguments": arguments, "ttlMs": ttl.Milliseconds()}, opts)
}

// GetTask fetches a task's state by id (tasks/get): how a task started in
// another session (or process) is resumed. An unknown id is the server's
// *core.RPCError (-32602).
func (s *Session) GetTask(ctx context.Context, taskID string) (*TaskHandle, error) {
	return s.taskHandle(ctx, abi.MethodTaskGet, map[string]any{"taskId": taskID}, nil)
}

// WaitTask waits inside the guest for the task to end and returns its final
// CallToolResult: polling at the server's interval (capped by
// maxPollInterval, 0 for 30 s), woken by status notifications, with the
// task's input requests answered by the session's Handlers. It is bounded
// by ctx (the task goes on when ctx ends). A failed task is an *core.RPCError, a
// cancelled one core.ErrTaskCancelled.
func (s *Session) WaitTask(ctx context.Context, taskID string, maxPollInterval time.Duration) (json.RawMessage, error) {
	return s.taskCall(ctx, abi.MethodTaskWait, map[string]any{"taskId": taskID, "maxPollIntervalMs": maxPollInterval.Milliseconds()}, &RequestOptions{Timeout: -1}, nil)
}

// CancelTask asks the server to cancel the task (tasks/cancel) and returns
// its state. Cancellation is cooperative: WaitTask tells how it ended.
func (s *Session) CancelTask(ctx context.Context, taskID string) (TaskState, error) {
	var st abi.TaskState
	if _, err := s.taskCall(ctx, abi.MethodTaskCancel, map[string]any{"taskId": taskID}, nil, &st); err != nil {
		return TaskState{}, err
	}
	return stateFrom(st), nil
}

// ListTasks returns one page of the server's tasks (tasks/list, 2025-11-25
// servers that offer it; core.ErrNotSupported otherwise) and the next cursor.
func (s *Session) ListTasks(ctx context.Context, cursor string) ([]TaskState, string, error) {
	var out struct {
		Tasks      []abi.TaskState `json:"tasks"`
		NextCursor string          `json:"nextCursor"`
	}
	if _, err := s.taskCall(ctx, abi.MethodTaskList, map[string]any{"cursor": cursor}, nil, &out); err != nil {
		return nil, "", err
	}
	states := make([]TaskState, 0, len(out.Tasks))
	for _, a := range out.Tasks {
		states = append(states, stateFrom(a))
	}
	return states, out.NextCursor, nil
}
