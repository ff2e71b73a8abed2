package wire

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/mcpwasm/mcpwasm/internal/rawjson"
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
		{"integral float", "notifications/cancelled", `{"requestId":7.0}`, 7, true},
		{"names match case-insensitively", "notifications/cancelled", `{"REQUESTID":9}`, 9, true},
		{"the last repeated member wins", "notifications/cancelled", `{"requestId":1,"requestid":2}`, 2, true},
		{"null id", "notifications/cancelled", `{"requestId":null}`, 0, false},
		{"object id", "notifications/cancelled", `{"requestId":{}}`, 0, false},
		{"fractional id", "notifications/cancelled", `{"requestId":1.5}`, 0, false},
		{"params not an object", "notifications/cancelled", `[7]`, 0, false},
		{"no params", "notifications/cancelled", ``, 0, false},
		{"no id", "notifications/cancelled", `{}`, 0, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			id, ok := CancelledRequestID(&jsonrpc.Request{Method: tc.method, Params: rawjson.RawMessage(tc.params)})
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
