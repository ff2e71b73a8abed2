//go:build js

package jsonschema

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// Under GOOS=js patterns run on compileLinear's engine, not the JavaScript
// RegExp (which backtracks): ^(a+)+$ against 10^5 characters returns.
// Unicode property escapes use the JavaScript engine's tables; look-around
// and back-references are skipped, as natively.
func TestPatternsRunInLinearTime(t *testing.T) {
	s := mustCompile(t, `{"properties":{
		"a":{"pattern":"^(?!admin).*$"},
		"b":{"pattern":"(a)\\1"},
		"c":{"pattern":"^(a+)+$"},
		"d":{"pattern":"^\\p{Lu}"},
		"e":{"pattern":"^\\p{Script=Greek}+$"}},
		"patternProperties":{"(?<=x)y":{"type":"string"}}}`)
	assert.Equal(t, []string{
		"/patternProperties/(?<=x)y: (?<=x)y",
		"/properties/a/pattern: ^(?!admin).*$",
		"/properties/b/pattern: (a)\\1",
	}, s.Skipped())
	assertValid(t, s, `{"a":"admin","b":"ab","c":"aaa","d":"Émile","e":"αβ","xy":1}`, true)
	assertValid(t, s, `{"c":"`+strings.Repeat("a", 100_000)+`!"}`, false)
	assertValid(t, s, `{"d":"émile"}`, false)
	assertValid(t, s, `{"e":"αb"}`, false)
	assertValid(t, s, `{"d":"\ufeff"}`, false)
	assert.Equal(t, []string{"/pattern: (unclosed"}, mustCompile(t, `{"pattern":"(unclosed"}`).Skipped())
	assert.Equal(t, []string{"/pattern: \\p{NoSuchProperty}"}, mustCompile(t, `{"pattern":"\\p{NoSuchProperty}"}`).Skipped())
}
