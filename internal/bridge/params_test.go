package bridge

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpwasm/mcpwasm/core"
)

// unmarshalParity asserts that dec decodes in as json.Unmarshal does into
// a fresh T: the same value, or the same error text.
func unmarshalParity[T any](t *testing.T, ins []string, dec func([]byte, *T) error) {
	t.Helper()
	for _, in := range ins {
		var want, got T
		werr := json.Unmarshal([]byte(in), &want)
		gerr := dec([]byte(in), &got)
		if werr != nil {
			if assert.Error(t, gerr, in) {
				assert.Equal(t, werr.Error(), gerr.Error(), in)
			}
			continue
		}
		require.NoError(t, gerr, in)
		assert.Equal(t, want, got, in)
	}
}

// TestParamsParity: the hosts' arguments decode as encoding/json decoded
// them.
func TestParamsParity(t *testing.T) {
	common := []string{`null`, `{}`, `[]`, `"x"`, `1`, `{"x":1}`, `{`, `nul`, `{} x`}
	t.Run("roots", func(t *testing.T) {
		unmarshalParity(t, append(common, `[{"uri":"file:///a","name":"A","_meta":{"k":[1,"2"]},"extra":true},null]`, `[{"uri":1}]`, `[1]`, `[{"URI":"x"}]`),
			func(b []byte, r *[]*core.Root) (err error) { *r, err = UnmarshalRoots(b); return err })
	})
	t.Run("callTool", func(t *testing.T) {
		unmarshalParity(t, append(common, `{"name":"echo","arguments":{"a":1.5,"b":[true,null,"x",{}]},"_meta":{"progressToken":3}}`,
			`{"name":"t","arguments":null}`, `{"name":"t","arguments":"s"}`, `{"name":2}`, `{"_meta":[]}`, `{"arguments":[1,2]}`),
			UnmarshalCallToolParams)
	})
	t.Run("paginated", func(t *testing.T) {
		unmarshalParity(t, append(common, `{"cursor":"c","_meta":{"a":1}}`, `{"cursor":5}`, `{"_meta":"x"}`), UnmarshalPaginatedParams)
	})
	t.Run("filter", func(t *testing.T) {
		unmarshalParity(t, append(common, `{"toolsListChanged":true,"promptsListChanged":false,"resourcesListChanged":true,"resourceSubscriptions":["a","b"],"taskIds":["t"]}`,
			`{"toolsListChanged":"yes"}`, `{"taskIds":[1]}`, `{"resourceSubscriptions":"a"}`), UnmarshalSubscriptionFilter)
	})
}
