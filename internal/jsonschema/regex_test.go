//go:build !js

package jsonschema

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestTranslateECMA(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`^a.b$`, `^a[^\n\r\x{2028}\x{2029}]b$`},
		{`\s`, `[` + ecmaSpace + `]`},
		{`[\s\d]`, `[` + ecmaSpace + `\d]`},
		{`[^\S]`, `[^\S]`},
		{`\S`, `[^` + ecmaSpace + `]`},
		{`[\b]\b`, `[\x08]\b`},
		{`\u00e9`, `\x{e9}`},
		{`\u{1F600}`, `\x{1f600}`},
		{`\uD83D\uDE00`, `\x{1f600}`},
		{`\uZZ`, `uZZ`},
		{`\x41\xZ`, `\x{41}xZ`},
		{`\cA\c1`, `\x{1}\\c1`},
		{`\0`, `\x{0}`},
		{`\/\-\.`, `\/\-\.`},
		{`\é`, `é`},
		{`\q`, `q`},
		{`[[a]`, `[\[a]`},
		{`[^]`, `[\x{0}-\x{10FFFF}]`},
		{`[]`, `[^\x{0}-\x{10FFFF}]`},
		{`\p{Lu}\pL\P{Greek}`, `\p{Lu}\pL\P{Greek}`},
		{`\p{Letter}\p{gc=Decimal_Number}\p{sc=Greek}`, `\p{L}\p{Nd}\p{Greek}`},
		{`(?<name>x)`, `(?<name>x)`},
		// Counts with leading zeros are counts in ECMA-262, literal text in RE2.
		{`[0-x]{0000}`, `[0-x]{0}`},
		{`a{007,010}b{02,}c{3}`, `a{7,10}b{2,}c{3}`},
		{`a{,5}{x}{1`, `a{,5}{x}{1`},
		{`[{01}]`, `[{01}]`},
	} {
		got, err := translateECMA(tc.in)
		require.NoError(t, err, tc.in)
		assert.Equal(t, tc.want, got, tc.in)
	}
	for _, bad := range []string{`a\`, `(?=a)`, `(?!a)`, `(?<=a)`, `(?<!a)`, `(a)\1`, `\k<n>`, `\01`, `\p{Letter`, `\p{Block=Greek}`} {
		_, err := translateECMA(bad)
		assert.Error(t, err, bad)
	}
}

// Go's RE2 lacks look-around and back-references: such patterns are
// skipped (and reported) rather than failing every instance.
func TestUnsupportedPatternsAreSkipped(t *testing.T) {
	s := mustCompile(t, `{"properties":{
		"a":{"pattern":"^(?!admin).*$"},
		"b":{"pattern":"(a)\\1"},
		"c":{"pattern":"x{1001}"},
		"d":{"pattern":"^ok$"}},
		"patternProperties":{"(?<=x)y":{"type":"string"}}}`)
	assert.Equal(t, []string{
		"/patternProperties/(?<=x)y: (?<=x)y",
		"/properties/a/pattern: ^(?!admin).*$",
		"/properties/b/pattern: (a)\\1",
		"/properties/c/pattern: x{1001}",
	}, s.Skipped())
	assertValid(t, s, `{"a":"admin","b":"zz","c":"","xy":1}`, true)
	assertValid(t, s, `{"d":"not ok"}`, false)
	assert.Empty(t, mustCompile(t, `{"pattern":"^a"}`).Skipped())
}
