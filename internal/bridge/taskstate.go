package bridge

import (
	"time"

	"github.com/mcpwasm/mcpwasm/core"
	"github.com/mcpwasm/mcpwasm/internal/jsonscan"
)

// HostTaskState is a core.TaskState as a host writes it: the durations as
// integers in the host's unit, TTL nil when unlimited. Its one encoder
// serves the JS host, the WASI host and ErrorInfo's data.
type HostTaskState struct {
	ID, Status, StatusMessage, CreatedAt, LastUpdatedAt string
	TTL                                                 *int64
	PollInterval                                        int64
}

// NewHostTaskState converts st, its durations counted in unit.
func NewHostTaskState(st core.TaskState, unit time.Duration) HostTaskState {
	out := HostTaskState{ID: st.ID, Status: st.Status, StatusMessage: st.StatusMessage,
		CreatedAt: st.CreatedAt, LastUpdatedAt: st.LastUpdatedAt, PollInterval: int64(st.PollInterval / unit)}
	if st.TTL != nil {
		v := int64(*st.TTL / unit)
		out.TTL = &v
	}
	return out
}

// TaskStateFormat selects the member names of an encoded task state.
type TaskStateFormat uint8

const (
	// TaskStateJS is the JS host's: id, status, statusMessage, createdAt,
	// lastUpdatedAt (the last three left out when empty), ttl,
	// pollInterval (milliseconds).
	TaskStateJS TaskStateFormat = iota
	// TaskStateWASI is abi.TaskState's: as TaskStateJS with ttlMs and
	// pollIntervalMs.
	TaskStateWASI
)

var taskStateNames = [...][7]string{
	TaskStateJS:   {"id", "status", "statusMessage", "createdAt", "lastUpdatedAt", "ttl", "pollInterval"},
	TaskStateWASI: {"id", "status", "statusMessage", "createdAt", "lastUpdatedAt", "ttlMs", "pollIntervalMs"},
}

// Append appends s as encoding/json encodes the format's struct.
func (s *HostTaskState) Append(dst []byte, f TaskStateFormat) []byte {
	n := &taskStateNames[f]
	w := jsonscan.NewObjectWriter(dst)
	w.String(n[0], s.ID)
	w.String(n[1], s.Status)
	w.StringOmit(n[2], s.StatusMessage)
	w.StringOmit(n[3], s.CreatedAt)
	w.StringOmit(n[4], s.LastUpdatedAt)
	if s.TTL != nil {
		w.Int(n[5], *s.TTL)
	} else {
		w.Raw(n[5], nil)
	}
	w.Int(n[6], s.PollInterval)
	return w.Bytes()
}

// AppendTaskList appends r as both hosts encode a tasks/list answer:
// {"tasks":[state…],"nextCursor":…} (nextCursor left out when empty), each
// state in format f with its durations counted in unit.
func AppendTaskList(dst []byte, r *core.ListTasksResult, f TaskStateFormat, unit time.Duration) []byte {
	list := append(make([]byte, 0, 64*len(r.Tasks)+2), '[')
	for i, st := range r.Tasks {
		if i > 0 {
			list = append(list, ',')
		}
		hs := NewHostTaskState(st, unit)
		list = hs.Append(list, f)
	}
	w := jsonscan.NewObjectWriter(dst)
	w.Raw("tasks", append(list, ']'))
	w.StringOmit("nextCursor", r.NextCursor)
	return w.Bytes()
}
