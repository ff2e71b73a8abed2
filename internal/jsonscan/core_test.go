package jsonscan

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestAppendCompactMatchesEncodingJSON(t *testing.T) {
	cases := []string{
		`{}`, ` { "a" : [ 1 , 2.5e3 , true , null ] , "b" : "x y\t" } `,
		`"<a href=\"x\">&amp;</a>"`, "\"line\u2028sep\u2029\"", `{"k<>":"\\u2028 \\\" <"}`,
		"[\n 1,\n {\"x\" : \"\u00e9\u2028\"}\n]", `"\\"`, `"é"`,
	}
	for _, c := range cases {
		t.Run(c, func(t *testing.T) {
			want, err := json.Marshal(json.RawMessage(c))
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
