package bridge

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/mcpwasm/mcpwasm/core"
)

// TestAppendTaskList: a tasks/list answer is written as encoding/json
// writes the hosts' shapes (the JS host's member names, the WASI ABI's),
// with durations in the unit asked for.
func TestAppendTaskList(t *testing.T) {
	ttl := 90 * time.Second
	full := &core.ListTasksResult{Tasks: []core.TaskState{
		{ID: "t-1", Status: "working", StatusMessage: `half "done" <b>`, CreatedAt: "2026-12-03T10:00:00Z", LastUpdatedAt: "2026-12-03T10:00:05Z", TTL: &ttl, PollInterval: 1500 * time.Millisecond},
		{ID: "t-2", Status: "completed"},
	}, NextCursor: "c2"}
	type jsState struct {
		ID            string `json:"id"`
		Status        string `json:"status"`
		StatusMessage string `json:"statusMessage,omitempty"`
		CreatedAt     string `json:"createdAt,omitempty"`
		LastUpdatedAt string `json:"lastUpdatedAt,omitempty"`
		TTL           *int64 `json:"ttl"`
		PollInterval  int64  `json:"pollInterval"`
	}
	type wasiState struct {
		ID             string `json:"id"`
		Status         string `json:"status"`
		StatusMessage  string `json:"statusMessage,omitempty"`
		CreatedAt      string `json:"createdAt,omitempty"`
		LastUpdatedAt  string `json:"lastUpdatedAt,omitempty"`
		TTLMs          *int64 `json:"ttlMs"`
		PollIntervalMs int64  `json:"pollIntervalMs"`
	}
	ms := func(d time.Duration) *int64 { v := d.Milliseconds(); return &v }
	tests := []struct {
		name   string
		r      *core.ListTasksResult
		format TaskStateFormat
		want   any
	}{
		{"empty", &core.ListTasksResult{}, TaskStateJS, struct {
			Tasks []jsState `json:"tasks"`
		}{Tasks: []jsState{}}},
		{"js", full, TaskStateJS, struct {
			Tasks      []jsState `json:"tasks"`
			NextCursor string    `json:"nextCursor,omitempty"`
		}{[]jsState{
			{ID: "t-1", Status: "working", StatusMessage: `half "done" <b>`, CreatedAt: "2026-12-03T10:00:00Z", LastUpdatedAt: "2026-12-03T10:00:05Z", TTL: ms(ttl), PollInterval: 1500},
			{ID: "t-2", Status: "completed"},
		}, "c2"}},
		{"wasi", full, TaskStateWASI, struct {
			Tasks      []wasiState `json:"tasks"`
			NextCursor string      `json:"nextCursor,omitempty"`
		}{[]wasiState{
			{ID: "t-1", Status: "working", StatusMessage: `half "done" <b>`, CreatedAt: "2026-12-03T10:00:00Z", LastUpdatedAt: "2026-12-03T10:00:05Z", TTLMs: ms(ttl), PollIntervalMs: 1500},
			{ID: "t-2", Status: "completed"},
		}, "c2"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			want, err := json.Marshal(tc.want)
			assert.NoError(t, err)
			assert.Equal(t, string(want), string(AppendTaskList([]byte("x"), tc.r, tc.format, time.Millisecond))[1:])
		})
	}
}
