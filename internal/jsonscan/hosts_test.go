package jsonscan

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestAppendCompact: a raw value is written as json.Marshal writes a
// json.RawMessage.
func TestAppendCompact(t *testing.T) {
	for _, in := range []string{
		`{}`, ` { "a" : [ 1 , 2.5e3 , true , null ] , "b" : "x y" } `, "{\n\t\"a\":\r\n\"<b>&\"}",
		`"\u003c\"<\\"`, "\"\u2028 \u2029 \u2027 \u202a\"", `["é", "😀", "\\\"<"]`, `"a\\"`, `{"a":{"b":{}}}`,
	} {
		t.Run(in, func(t *testing.T) {
			want, err := json.Marshal(json.RawMessage(in))
			require.NoError(t, err)
			assert.Equal(t, string(want), string(AppendCompact(nil, []byte(in))))
			assert.Equal(t, "x"+string(want), string(AppendCompact([]byte("x"), []byte(in))))
		})
	}
	assert.Equal(t, "null", string(AppendCompact(nil, nil)))
}

// FuzzAppendCompact compares AppendCompact with json.Marshal on valid
// JSON.
func FuzzAppendCompact(f *testing.F) {
	f.Add(`{"a": "<\u2028>"}`)
	f.Fuzz(func(t *testing.T, in string) {
		if !json.Valid([]byte(in)) {
			return
		}
		want, err := json.Marshal(json.RawMessage(in))
		require.NoError(t, err)
		assert.Equal(t, string(want), string(AppendCompact(nil, []byte(in))))
	})
}
