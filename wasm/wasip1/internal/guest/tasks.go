package guest

import (
	"context"
	"encoding/json"
	"sync"
	"time"

	"github.com/mcpwasm/mcpwasm/core"
	"github.com/mcpwasm/mcpwasm/internal/bridge"
	"github.com/mcpwasm/mcpwasm/internal/errf"
	"github.com/mcpwasm/mcpwasm/wasm/abi"
)

// The tasks API of the ABI (abi.MethodTask*): operations by task id. The
// session keeps the handles it made, so that waiting again (or from
// another operation) keeps the task's answered input requests.

// maxSessionTasks bounds the handles a session keeps; the oldest finished
// ones go first, then the oldest.
const maxSessionTasks = 256

type taskTable struct {
	mu    sync.Mutex
	m     map[string]*core.Task
	order []string
}

func (tt *taskTable) put(t *core.Task) {
	id := t.ID()
	if id == "" {
		return
	}
	tt.mu.Lock()
	defer tt.mu.Unlock()
	if tt.m == nil {
		tt.m = map[string]*core.Task{}
	}
	if _, ok := tt.m[id]; ok {
		return
	}
	if len(tt.order) >= maxSessionTasks {
		evict := 0
		for i, old := range tt.order {
			if st := tt.m[old].State(); st.Terminal() {
				evict = i
				break
			}
		}
		delete(tt.m, tt.order[evict])
		tt.order = append(tt.order[:evict], tt.order[evict+1:]...)
	}
	tt.m[id] = t
	tt.order = append(tt.order, id)
}

func (tt *taskTable) get(id string) *core.Task {
	tt.mu.Lock()
	defer tt.mu.Unlock()
	return tt.m[id]
}

func taskState(st core.TaskState) abi.TaskState {
	out := abi.TaskState{ID: st.ID, Status: st.Status, StatusMessage: st.StatusMessage, CreatedAt: st.CreatedAt, LastUpdatedAt: st.LastUpdatedAt, PollIntervalMs: st.PollInterval.Milliseconds()}
	if st.TTL != nil {
		v := st.TTL.Milliseconds()
		out.TTLMs = &v
	}
	return out
}

func handleJSON(t *core.Task) (json.RawMessage, error) {
	return appendTaskHandle(nil, &abi.TaskHandle{State: taskState(t.State()), Result: t.RawResult()})
}

// task returns the session's handle of id, resuming it (tasks/get) if the
// session has none.
func (s *session) task(ctx context.Context, id string) (*core.Task, error) {
	if id == "" {
		return nil, errorf(abi.StatusInvalid, "taskId is required")
	}
	if t := s.tasks.get(id); t != nil {
		return t, nil
	}
	t, err := s.s.GetTask(ctx, id)
	if err != nil {
		return nil, err
	}
	s.tasks.put(t)
	return s.tasks.get(id), nil
}

// taskOp runs one abi.MethodTask* operation.
func (s *session) taskOp(ctx context.Context, method string, params json.RawMessage, opts *core.CallOptions) (json.RawMessage, error) {
	var p taskParams
	if len(params) > 0 {
		if err := bridge.Unmarshal(params, &p); err != nil {
			return nil, errorf(abi.StatusInvalid, "%s params: %v", method, err)
		}
	}
	switch method {
	case abi.MethodTaskCall:
		raw, err := core.AppendWireJSON(nil, &p.CallToolParams)
		if err != nil {
			return nil, errorf(abi.StatusInvalid, "%s params: %v", method, err)
		}
		t, err := s.s.CallToolAsTaskRaw(ctx, raw, &core.TaskOptions{TTL: time.Duration(p.TTLMs) * time.Millisecond, Call: opts})
		if err != nil {
			return nil, err
		}
		s.tasks.put(t)
		return handleJSON(t)
	case abi.MethodTaskGet:
		t, err := s.task(ctx, p.TaskID)
		if err != nil {
			return nil, err
		}
		if _, err := t.Refresh(ctx); err != nil {
			return nil, err
		}
		return handleJSON(t)
	case abi.MethodTaskWait:
		t, err := s.task(ctx, p.TaskID)
		if err != nil {
			return nil, err
		}
		_, err = t.Wait(ctx, &core.TaskWaitOptions{MaxPollInterval: time.Duration(p.MaxPollIntervalMs) * time.Millisecond})
		if err != nil {
			var ose *core.OutputSchemaError
			if errf.As(err, &ose) {
				return t.RawResult(), err
			}
			return nil, err
		}
		return t.RawResult(), nil
	case abi.MethodTaskCancel:
		t, err := s.task(ctx, p.TaskID)
		if err != nil {
			return nil, err
		}
		if err := t.Cancel(ctx); err != nil {
			return nil, err
		}
		st := taskState(t.State())
		return appendTaskState(nil, &st), nil
	case abi.MethodTaskList:
		var pp *core.PaginatedParams
		if p.Cursor != "" {
			pp = &core.PaginatedParams{Cursor: p.Cursor}
		}
		r, err := s.s.ListTasks(ctx, pp)
		if err != nil {
			return nil, err
		}
		return bridge.AppendTaskList(nil, r, bridge.TaskStateWASI, time.Millisecond), nil
	}
	return nil, errorf(abi.StatusInvalid, "unknown operation %s", method)
}
