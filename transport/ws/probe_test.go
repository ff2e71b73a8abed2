package ws

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/mcpwasm/mcpwasm/internal/rawjson"
)

// TestProbeMembers: malformed finds the members encoding/json's Unmarshal
// found, and refuses what it refused.
func TestProbeMembers(t *testing.T) {
	for _, in := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"x","params":{"a":[1]}}`, `{"id":"a","result":{}}`, `{"ID":2,"Error":{"code":1}}`,
		`{"id":1,"id":null}`, `{"id":1,"iD":2}`, `{}`, `{"id":1`, `{"id":1} x`, `{"method":tru}`, `{"result": [ 1 , 2 ] }`,
	} {
		var want struct {
			ID     rawjson.RawMessage `json:"id"`
			Method rawjson.RawMessage `json:"method"`
			Result rawjson.RawMessage `json:"result"`
			Error  rawjson.RawMessage `json:"error"`
		}
		werr := json.Unmarshal([]byte(in), &want)
		var got probeMembers
		ok := got.read([]byte(in))
		assert.Equal(t, werr == nil, ok, in)
		if ok {
			assert.Equal(t, string(want.ID), string(got.ID), in)
			assert.Equal(t, string(want.Method), string(got.Method), in)
			assert.Equal(t, string(want.Result), string(got.Result), in)
			assert.Equal(t, string(want.Error), string(got.Error), in)
		}
	}
}
