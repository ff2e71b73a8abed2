package wire

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/mcpwasm/mcpwasm/jsonrpc"
)

func TestCancelledRequestID(t *testing.T) {
	cases := []struct {
		name   string
		method string
		params string
		want   int64
		ok     bool
	}{
		{"numeric id", "notifications/cancelled", `{"requestId":7,"reason":"user"}`, 7, true},
		{"string id is not ours", "notifications/cancelled", `{"requestId":"7"}`, 0, false},
		{"malformed params", "notifications/cancelled", `{"requestId":`, 0, false},
		{"other notification", "notifications/progress", `{"requestId":7}`, 0, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			id, ok := CancelledRequestID(&jsonrpc.Request{Method: tc.method, Params: json.RawMessage(tc.params)})
			assert.Equal(t, tc.ok, ok)
			assert.Equal(t, tc.want, id)
		})
	}
}

func TestValidHeader(t *testing.T) {
	cases := []struct {
		name, value string
		want        bool
	}{
		{"Authorization", "Bearer x", true},
		{"X-Custom", "", true},
		{"Bad Name", "v", false},
		{"", "v", false},
		{"X-Split", "a\r\nInjected: 1", false},
		{"X-Nul", "a\x00", false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, ValidHeader(tc.name, tc.value))
		})
	}
}
