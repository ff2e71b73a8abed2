//go:build js

package gojs_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpwasm/mcpwasm/core"
	"github.com/mcpwasm/mcpwasm/internal/rawjson"
	"github.com/mcpwasm/mcpwasm/tests/gojs"
	"github.com/mcpwasm/mcpwasm/transport/fetch"
)

// sumOnly decodes {"sum": n} through its own UnmarshalJSON, as a Go type
// must in the GOOS=js build (no reflection).
type sumOnly struct{ raw string }

func (s *sumOnly) UnmarshalJSON(b []byte) error { s.raw = string(b); return nil }

// argsJSON encodes itself, as a Go type must in the GOOS=js build.
type argsJSON struct{ a, b int }

func (a argsJSON) MarshalJSON() ([]byte, error) {
	return []byte(`{"a": ` + itoa(a.a) + `, "b": ` + itoa(a.b) + `}`), nil
}

func itoa(n int) string {
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + string(rune('0'+n%10))
}

// TestGenericValuesWithoutReflection checks what the GOOS=js build's
// generic entry points take without encoding/json (internal/rawjson):
// JSON-shaped values, core.RawMessage and types with JSON methods go over
// the wire as encoding/json would send them; other Go types get an error
// that wraps rawjson.ErrUnsupported, and nothing is sent for them.
func TestGenericValuesWithoutReflection(t *testing.T) {
	require.False(t, rawjson.Reflection, "this test is about the GOOS=js build")
	tr, err := fetch.New(env(t, gojs.EnvGoModern)+"/mcp", &fetch.Options{HTTP: jsDoer(t)})
	require.NoError(t, err)
	s := connect(t, tr, nil, nil)

	for name, args := range map[string]any{
		"map":             map[string]any{"a": 20, "b": 22},
		"raw":             core.RawMessage(`{"a":20,"b":22}`),
		"MarshalJSON":     argsJSON{20, 22},
		"params with raw": &core.CallToolParams{Name: "add", Arguments: core.RawMessage(`{"a":20,"b":22}`)},
	} {
		t.Run(name, func(t *testing.T) {
			var r *core.CallToolResult
			if p, ok := args.(*core.CallToolParams); ok {
				r, err = s.CallTool(testCtx(t), p, nil)
				require.NoError(t, err)
			} else {
				r = call(t, s, "add", args)
			}
			var m map[string]any
			require.NoError(t, r.DecodeStructured(&m))
			assert.Equal(t, map[string]any{"sum": 42.0}, m)
			var v any
			require.NoError(t, r.DecodeStructured(&v))
			assert.Equal(t, map[string]any{"sum": 42.0}, v)
			var own sumOnly
			require.NoError(t, r.DecodeStructured(&own))
			assert.JSONEq(t, `{"sum":42}`, own.raw)
			var plain struct{ Sum int }
			err := r.DecodeStructured(&plain)
			assert.ErrorIs(t, err, rawjson.ErrUnsupported)
			assert.Zero(t, plain.Sum)
		})
	}

	t.Run("a struct without JSON methods", func(t *testing.T) {
		_, err := s.Request(testCtx(t), "tools/call", struct{ Name string }{"add"}, nil)
		assert.ErrorIs(t, err, rawjson.ErrUnsupported)
		assert.ErrorContains(t, err, "core: encoding params")
	})
}
