//go:build js

package jsregex_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	jsregex "github.com/mcpwasm/mcpwasm/internal/js/regex"
	"github.com/mcpwasm/mcpwasm/internal/jsonschema"
)

func compile(t *testing.T, pattern jsonschema.PatternFunc, doc string) *jsonschema.Schema {
	t.Helper()
	s, err := jsonschema.CompileWith([]byte(doc), &jsonschema.Options{Pattern: pattern})
	require.NoError(t, err)
	return s
}

func valid(t *testing.T, s *jsonschema.Schema, instance string) bool {
	t.Helper()
	var v any
	require.NoError(t, json.Unmarshal([]byte(instance), &v))
	return s.Validate(v) == nil
}

// Patterns run on jsonschema's linear engine, not the JavaScript RegExp
// (which backtracks): ^(a+)+$ against 10^5 characters returns. Unicode
// property escapes use the JavaScript engine's tables; look-around and
// back-references are skipped, as natively.
func TestPatternsRunInLinearTime(t *testing.T) {
	const doc = `{"properties":{
		"a":{"pattern":"^(?!admin).*$"},
		"b":{"pattern":"(a)\\1"},
		"c":{"pattern":"^(a+)+$"},
		"d":{"pattern":"^\\p{Lu}"},
		"e":{"pattern":"^\\p{Script=Greek}+$"}},
		"patternProperties":{"(?<=x)y":{"type":"string"}}}`
	s := compile(t, jsregex.Pattern, doc)
	assert.Equal(t, []string{
		"/patternProperties/(?<=x)y: (?<=x)y",
		"/properties/a/pattern: ^(?!admin).*$",
		"/properties/b/pattern: (a)\\1",
	}, s.Skipped())
	tests := []struct {
		instance string
		want     bool
	}{
		{`{"a":"admin","b":"ab","c":"aaa","d":"Émile","e":"αβ","xy":1}`, true},
		{`{"c":"` + strings.Repeat("a", 100_000) + `!"}`, false},
		{`{"d":"émile"}`, false},
		{`{"e":"αb"}`, false},
		{`{"d":"\ufeff"}`, false},
	}
	for _, tt := range tests {
		t.Run(tt.instance[:min(len(tt.instance), 20)], func(t *testing.T) {
			assert.Equal(t, tt.want, valid(t, s, tt.instance))
		})
	}
	assert.Equal(t, []string{"/pattern: (unclosed"}, compile(t, jsregex.Pattern, `{"pattern":"(unclosed"}`).Skipped())
	assert.Equal(t, []string{"/pattern: \\p{NoSuchProperty}"}, compile(t, jsregex.Pattern, `{"pattern":"\\p{NoSuchProperty}"}`).Skipped())

	// Without the JavaScript tables (jsonschema's GOOS=js default) property
	// escapes are skipped, and the rest still runs.
	plain := compile(t, nil, doc)
	assert.Contains(t, plain.Skipped(), "/properties/d/pattern: ^\\p{Lu}")
	assert.False(t, valid(t, plain, `{"c":"`+strings.Repeat("a", 100_000)+`!"}`))
}
