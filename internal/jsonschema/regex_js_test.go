//go:build js

package jsonschema

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// Under GOOS=js patterns run on the JavaScript engine's RegExp, the
// ECMA-262 dialect JSON Schema specifies: look-around and back-references
// are enforced, nothing is skipped.
func TestPatternsUseTheJavaScriptEngine(t *testing.T) {
	s := mustCompile(t, `{"properties":{
		"a":{"pattern":"^(?!admin).*$"},
		"b":{"pattern":"(a)\\1"},
		"d":{"pattern":"^\\p{Lu}"}},
		"patternProperties":{"(?<=x)y":{"type":"string"}}}`)
	assert.Empty(t, s.Skipped())
	assertValid(t, s, `{"a":"user","b":"aa","d":"Émile","xy":"s"}`, true)
	assertValid(t, s, `{"a":"admin"}`, false)
	assertValid(t, s, `{"b":"ab"}`, false)
	assertValid(t, s, `{"d":"émile"}`, false)
	assertValid(t, s, `{"xy":1}`, false)
	_, err := Compile([]byte(`{"pattern":"(unclosed"}`))
	assert.NoError(t, err, "an invalid pattern is skipped, not fatal")
	assert.Equal(t, []string{"/pattern: (unclosed"}, mustCompile(t, `{"pattern":"(unclosed"}`).Skipped())
}
