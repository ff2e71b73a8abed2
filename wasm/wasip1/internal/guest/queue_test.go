package guest

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpwasm/mcpwasm/wasm/abi"
)

// Between two polls the event queue is bounded: a server flooding
// notifications (or huge ones) loses notifications, with one warning
// saying how many, and never a result, request, cancel or closed event.
func TestEventQueueIsBoundedBetweenPolls(t *testing.T) {
	big := json.RawMessage(`{"data":"` + strings.Repeat("x", 1<<20) + `"}`)
	for _, tc := range []struct {
		name          string
		notifications int
		params        json.RawMessage
		wantDropped   int
	}{
		{"many small notifications", 300_000, json.RawMessage(`{"level":"info","data":"x"}`), 300_000 - (maxQueuedEvents - 1)}, // the request, then notifications up to the bound,
		{"huge notifications", 40, big, 40 - (maxQueuedBytes / len(big))},
		{"within the bounds", 100, json.RawMessage(`{}`), 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := New(newScriptedHost())
			g.emit(&abi.Event{Type: abi.EventRequest, ID: 7, Method: "sampling/createMessage"})
			for i := range tc.notifications {
				g.emit(&abi.Event{Type: abi.EventNotification, Method: "notifications/message", Params: tc.params})
				if i == tc.notifications/2 {
					g.queue(&abi.Event{Type: abi.EventResult, Op: 1, Result: json.RawMessage(`{}`)}, false)
					g.emit(&abi.Event{Type: abi.EventCancel, ID: 7})
				}
			}
			g.emit(&abi.Event{Type: abi.EventClosed, Session: 3})
			g.mu.Lock()
			queued, count := g.queued, len(g.events)
			g.mu.Unlock()
			assert.LessOrEqual(t, count, maxQueuedEvents+3)
			assert.LessOrEqual(t, queued, maxQueuedBytes+4096)

			var evs []abi.Event
			require.NoError(t, json.Unmarshal(g.Poll(), &evs))
			kinds := map[string]int{}
			for _, e := range evs {
				kinds[e.Type]++
			}
			assert.Equal(t, 1, kinds[abi.EventRequest])
			assert.Equal(t, 1, kinds[abi.EventResult])
			assert.Equal(t, 1, kinds[abi.EventCancel])
			assert.Equal(t, 1, kinds[abi.EventClosed])
			assert.Equal(t, tc.notifications-tc.wantDropped, kinds[abi.EventNotification])
			if tc.wantDropped == 0 {
				assert.Zero(t, kinds[abi.EventWarning])
			} else {
				require.Equal(t, 1, kinds[abi.EventWarning])
				last := evs[len(evs)-1]
				assert.Equal(t, abi.EventWarning, last.Type)
				assert.Contains(t, last.Message, "dropped "+itoa(tc.wantDropped)+" ")
			}
			// The queue starts again empty: nothing more is dropped.
			g.emit(&abi.Event{Type: abi.EventNotification, Method: "n"})
			require.NoError(t, json.Unmarshal(g.Poll(), &evs))
			require.Len(t, evs, 1)
			assert.Equal(t, abi.EventNotification, evs[0].Type)
		})
	}
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }
