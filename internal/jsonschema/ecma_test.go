package jsonschema

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Patterns that make a backtracking engine (the JavaScript RegExp) take
// exponential or polynomial time on inputs that almost match: with 10^5
// characters none of them would finish. compileLinear's engine must visit
// at most 2 × program length instructions per character, whatever the
// pattern, and answer correctly.
func TestLinearPatternsOnCatastrophicInputs(t *testing.T) {
	long := strings.Repeat("a", 100_000)
	for _, tc := range []struct {
		pattern, input string
		want           bool
	}{
		{`^(a+)+$`, long + "!", false},
		{`^(a+)+$`, long, true},
		{`(a|a)*$`, long + "!", true}, // matches the empty string at the end
		{`^(a|a)*$`, long + "!", false},
		{`^(a|aa)+$`, long + "!", false},
		{`^(a*)*b$`, long, false},
		{`^(\w+\s?)*$`, strings.Repeat("word ", 20_000) + "!", false},
		{`^(([a-z])+.)+[A-Z]([a-z])+$`, long, false},
		{`a*a*a*a*a*b`, long, false},
		{`^(a?){30}a{30}$`, strings.Repeat("a", 30), true},
		{`^(.*?,){11}P`, strings.Repeat("1,", 50_000), false},
		{`(x+x+)+y`, strings.Repeat("x", 100_000), false},
	} {
		t.Run(tc.pattern, func(t *testing.T) {
			re, err := compileLinear(tc.pattern, testProp)
			require.NoError(t, err)
			got, steps := re.match(tc.input)
			assert.Equal(t, tc.want, got)
			bound := 2 * len(re.prog) * (len([]rune(tc.input)) + 1)
			assert.LessOrEqual(t, steps, bound, "steps for %d characters, program of %d", len(tc.input), len(re.prog))
		})
	}
}

// A schema with such a pattern validates a long string (the test is about
// returning at all: with a backtracking engine it would not).
func TestSchemaPatternOnLongInputReturns(t *testing.T) {
	s := mustCompile(t, `{"type":"object","properties":{"a":{"pattern":"^(a+)+$"},"b":{"pattern":"^(a|aa)+$"}},
		"patternProperties":{"^(x+x+)+y$":{"type":"string"}}}`)
	long := strings.Repeat("a", 100_000)
	assertValid(t, s, `{"a":"`+long+`!"}`, false)
	assertValid(t, s, `{"b":"`+long+`!"}`, false)
	assertValid(t, s, `{"a":"`+long+`","b":"`+long+`"}`, true)
	assertValid(t, s, `{"`+strings.Repeat("x", 100_000)+`":1}`, true)
}

// An anchored pattern stops at the first character no thread can take:
// ^[a-z]{0,1000}$ against 10^6 characters does about 1000 characters' work.
func TestAnchoredPatternStopsEarly(t *testing.T) {
	re, err := compileLinear(`^[a-z]{0,1000}$`, testProp)
	require.NoError(t, err)
	ok, steps := re.match(strings.Repeat("a", 1_000_000))
	assert.False(t, ok)
	assert.Less(t, steps, 2*len(re.prog)*1002)
	ok, _ = re.match(strings.Repeat("a", 1000))
	assert.True(t, ok)
}

func TestLinearPatternSemantics(t *testing.T) {
	for _, tc := range []struct {
		pattern string
		yes, no []string
	}{
		{`^a.b$`, []string{"axb", "a€b"}, []string{"a\nb", "ab", "a\u2028b"}},
		{`abc`, []string{"xxabcxx"}, []string{"ab", "acb"}},
		{`^$`, []string{""}, []string{"a"}},
		{`^(?:ab|cd)+$`, []string{"ab", "abcdab"}, []string{"", "abc"}},
		{`^(?<year>\d{4})-(\d{2})$`, []string{"2024-01"}, []string{"24-01", "2024-1"}},
		{`^[^]$`, []string{"\n", "x"}, []string{"", "xy"}},
		{`[]`, nil, []string{"", "a"}},
		{`^[a-c\d_-]+$`, []string{"a-1_c"}, []string{"d", "a b"}},
		{`^[\D]$`, []string{"a"}, []string{"1"}},
		{`^[^\s]+$`, []string{"abc"}, []string{"a b", "a\u00a0b"}},
		{`^\s$`, []string{" ", "\t", "\ufeff", "\u3000"}, []string{"x"}},
		{`\bfoo\b`, []string{"a foo b", "foo"}, []string{"food", "afoo"}},
		{`\Boo\B`, []string{"foods"}, []string{"oo", "a oo b"}},
		{`^\u00e9\u{1F600}\uD83D\uDE00$`, []string{"é😀😀"}, []string{"e😀😀"}},
		{`^\x41\cA\0\t$`, []string{"A\x01\x00\t"}, []string{"A"}},
		{`^a{2,3}$`, []string{"aa", "aaa"}, []string{"a", "aaaa"}},
		{`^a{2,}$`, []string{"aa", "aaaaa"}, []string{"a"}},
		{`^a{2}$`, []string{"aa"}, []string{"aaa"}},
		{`^a{,2}$`, []string{"a{,2}"}, []string{"aa"}},
		{`^x{$`, []string{"x{"}, nil},
		{`^a*?b+?c??$`, []string{"b", "aabbc"}, []string{"c"}},
		{`^\p{Lu}\P{Lu}$`, []string{"Éa"}, []string{"éa", "ÉA"}},
		{`^\p{Letter}+$`, []string{"Émile"}, []string{"É1"}},
		{`^\p{sc=Greek}$`, []string{"α"}, []string{"a"}},
		{`^[\p{Nd}x]+$`, []string{"12x٣"}, []string{"y"}},
		{`^\/\.\-\q$`, []string{"/.-q"}, nil},
		{`^[\b]$`, []string{"\b"}, []string{"b"}},
		{`^(a*)*$`, []string{"", "aaa"}, []string{"b"}},
		{`^(|a)+$`, []string{"", "aa"}, []string{"b"}},
		{`x|^$`, []string{"", "x"}, []string{"y"}},
	} {
		t.Run(tc.pattern, func(t *testing.T) {
			re, err := compileLinear(tc.pattern, testProp)
			require.NoError(t, err)
			for _, s := range tc.yes {
				assert.True(t, re.MatchString(s), "%q should match", s)
			}
			for _, s := range tc.no {
				assert.False(t, re.MatchString(s), "%q should not match", s)
			}
		})
	}
}

func TestLinearPatternRefusals(t *testing.T) {
	for _, tc := range []struct {
		pattern     string
		unsupported bool // errUnsupportedRegexp (skipped), else a syntax error
	}{
		{`(?=a)`, true}, {`(?!a)`, true}, {`(?<=a)b`, true}, {`(?<!a)b`, true},
		{`(a)\1`, true}, {`\k<n>`, true}, {`\01`, true}, {`\pL`, true}, {`\p{NoSuchProperty}`, true},
		{`(unclosed`, false}, {`a)`, false}, {`[a`, false}, {`*a`, false}, {`a**`, false},
		{`a{3,2}`, false}, {`[z-a]`, false}, {`a\`, false}, {`(?i:a)`, false}, {`\p{L`, false},
		{`{2}`, false},
	} {
		_, err := compileLinear(tc.pattern, testProp)
		require.Error(t, err, tc.pattern)
		if tc.unsupported {
			assert.ErrorIs(t, err, errUnsupportedRegexp, tc.pattern)
		}
	}
	for _, big := range []string{`a{1001}`, `(a{1000}){1000}`, `((((a{100}){100}){100}){100})`, strings.Repeat("(", 300) + strings.Repeat(")", 300)} {
		_, err := compileLinear(big, testProp)
		assert.Error(t, err, "%.40s", big)
	}
}
