package jsonrpc

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpwasm/mcpwasm/internal/rawjson"
)

// FuzzDecodeMessages: a body from the server, a single message or a
// batch. It never panics; what decodes is one message per batch element,
// each re-encoding to a message that decodes to the same thing.
func FuzzDecodeMessages(f *testing.F) {
	for _, s := range []string{
		`[{"jsonrpc":"2.0","id":1,"result":{}},{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info"}}]`,
		`  [{"jsonrpc":"2.0","id":"a","error":{"code":-32601,"message":"nope","data":[1]}}]`,
		`[]`, `[1]`, `[{"jsonrpc":"2.0","id":1,"method":"ping"}, null]`,
		`{"jsonrpc":"2.0","id":2,"method":"roots/list"}`, "\n[", `[[]]`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		ms, err := DecodeMessages(in)
		if err != nil {
			require.ErrorIs(t, err, ErrInvalidMessage)
			require.Nil(t, ms)
			return
		}
		trimmed := bytes.TrimLeft(in, " \t\r\n")
		if len(trimmed) > 0 && trimmed[0] == '[' {
			var elems []rawjson.RawMessage
			require.NoError(t, json.Unmarshal(trimmed, &elems))
			require.Len(t, ms, len(elems), "one message per batch element")
		} else {
			require.Len(t, ms, 1)
		}
		for _, m := range ms {
			require.NotNil(t, m)
			b, err := EncodeMessage(m)
			require.NoError(t, err)
			m2, err := DecodeMessage(b)
			require.NoError(t, err, "%s", b)
			b2, err := EncodeMessage(m2)
			require.NoError(t, err)
			assert.JSONEq(t, string(b), string(b2))
		}
	})
}
