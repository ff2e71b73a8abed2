package bridge_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpwasm/mcpwasm/core"
	"github.com/mcpwasm/mcpwasm/internal/bridge"
	"github.com/mcpwasm/mcpwasm/wasm/abi"
)

// jsTaskState is a task state as the JS API shows it (js/index.d.ts TaskState).
type jsTaskState struct {
	ID            string `json:"id"`
	Status        string `json:"status"`
	StatusMessage string `json:"statusMessage,omitempty"`
	CreatedAt     string `json:"createdAt,omitempty"`
	LastUpdatedAt string `json:"lastUpdatedAt,omitempty"`
	TTL           *int64 `json:"ttl"`
	PollInterval  int64  `json:"pollInterval"`
}

// taskList is a tasks/list answer of either host.
type taskList[S any] struct {
	Tasks      []S    `json:"tasks"`
	NextCursor string `json:"nextCursor,omitempty"`
}

// TestAppendTaskList: a tasks/list answer is written as encoding/json
// writes each host's shape (the JS API's member names, the WASI ABI's
// abi.TaskState), durations in milliseconds.
func TestAppendTaskList(t *testing.T) {
	ttl := 90 * time.Second
	states := []core.TaskState{
		{ID: "t-1", Status: "working", StatusMessage: `half "done" <b>`, CreatedAt: "2026-12-03T10:00:00Z", LastUpdatedAt: "2026-12-03T10:00:05Z", TTL: &ttl, PollInterval: 1500 * time.Millisecond},
		{ID: "t-2", Status: "completed"},
	}
	ms := func(d *time.Duration) *int64 {
		if d == nil {
			return nil
		}
		v := d.Milliseconds()
		return &v
	}
	js := taskList[jsTaskState]{Tasks: []jsTaskState{}}
	wasi := taskList[abi.TaskState]{Tasks: []abi.TaskState{}, NextCursor: "c2"}
	for _, st := range states {
		js.Tasks = append(js.Tasks, jsTaskState{st.ID, st.Status, st.StatusMessage, st.CreatedAt, st.LastUpdatedAt, ms(st.TTL), st.PollInterval.Milliseconds()})
		wasi.Tasks = append(wasi.Tasks, abi.TaskState{ID: st.ID, Status: st.Status, StatusMessage: st.StatusMessage, CreatedAt: st.CreatedAt,
			LastUpdatedAt: st.LastUpdatedAt, TTLMs: ms(st.TTL), PollIntervalMs: st.PollInterval.Milliseconds()})
	}
	tests := []struct {
		name   string
		r      *core.ListTasksResult
		format bridge.TaskStateFormat
		want   any
	}{
		{"empty", &core.ListTasksResult{}, bridge.TaskStateJS, taskList[jsTaskState]{Tasks: []jsTaskState{}}},
		{"js, no cursor", &core.ListTasksResult{Tasks: states}, bridge.TaskStateJS, js},
		{"wasi, a cursor", &core.ListTasksResult{Tasks: states, NextCursor: "c2"}, bridge.TaskStateWASI, wasi},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			want, err := json.Marshal(tc.want)
			require.NoError(t, err)
			got := bridge.AppendTaskList([]byte("x"), tc.r, tc.format, time.Millisecond)
			assert.Equal(t, "x"+string(want), string(got), "appended after what dst held")
		})
	}
}
