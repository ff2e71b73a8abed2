package jsonscan

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpwasm/mcpwasm/internal/rawjson"
)

func TestAppendCompactMatchesEncodingJSON(t *testing.T) {
	cases := []string{
		`{}`, ` { "a" : [ 1 , 2.5e3 , true , null ] , "b" : "x y\t" } `,
		`"<a href=\"x\">&amp;</a>"`, "\"line\u2028sep\u2029\"", `{"k<>":"\\u2028 \\\" <"}`,
		"[\n 1,\n {\"x\" : \"\u00e9\u2028\"}\n]", `"\\"`, `"é"`,
	}
	for _, c := range cases {
		t.Run(c, func(t *testing.T) {
			want, err := json.Marshal(rawjson.RawMessage(c))
			require.NoError(t, err)
			got, err := AppendCompact([]byte("pre"), []byte(c), true)
			require.NoError(t, err)
			require.Equal(t, "pre"+string(want), string(got))
			var buf bytes.Buffer
			require.NoError(t, json.Compact(&buf, []byte(c)))
			got, err = AppendCompact(nil, []byte(c), false)
			require.NoError(t, err)
			require.Equal(t, buf.String(), string(got))
		})
	}
	t.Run("invalid", func(t *testing.T) {
		got, err := AppendCompact([]byte("pre"), []byte(`{"a":`), true)
		require.Error(t, err)
		require.Equal(t, "pre", string(got))
	})
}

// TestAppendCompact: a raw value is written as json.Marshal writes a
// json.RawMessage.
func TestAppendCompact(t *testing.T) {
	for _, in := range []string{
		`{}`, ` { "a" : [ 1 , 2.5e3 , true , null ] , "b" : "x y" } `, "{\n\t\"a\":\r\n\"<b>&\"}",
		`"\u003c\"<\\"`, "\"\u2028 \u2029 \u2027 \u202a\"", `["é", "😀", "\\\"<"]`, `"a\\"`, `{"a":{"b":{}}}`,
	} {
		t.Run(in, func(t *testing.T) {
			want, err := json.Marshal(rawjson.RawMessage(in))
			require.NoError(t, err)
			got, err := AppendCompact(nil, []byte(in), true)
			require.NoError(t, err)
			assert.Equal(t, string(want), string(got))
			got, err = AppendCompact([]byte("x"), []byte(in), true)
			require.NoError(t, err)
			assert.Equal(t, "x"+string(want), string(got))
		})
	}
	for _, in := range []string{``, `{`, `[1,]`} {
		got, err := AppendCompact([]byte("x"), []byte(in), true)
		assert.Error(t, err, in)
		assert.Equal(t, "x", string(got))
	}
}

// FuzzAppendCompact compares AppendCompact with json.Marshal on valid
// JSON.
func FuzzAppendCompact(f *testing.F) {
	f.Add(`{"a": "<\u2028>"}`)
	f.Fuzz(func(t *testing.T, in string) {
		want, werr := json.Marshal(rawjson.RawMessage(in))
		got, err := AppendCompact(nil, []byte(in), true)
		if werr != nil {
			assert.Error(t, err)
			return
		}
		require.NoError(t, err)
		assert.Equal(t, string(want), string(got))
	})
}

// TestStdError: syntax errors read as encoding/json's, from Unmarshal and
