//go:build !js

package jsonschema

import (
	"regexp"
	"testing"
	"unicode/utf8"
)

// FuzzLinearMatchesRE2 checks the linear engine used under GOOS=js against
// Go's RE2 (used natively) on the ECMA-262 patterns both accept: same
// answer, and never more than 2 × program length steps per character.
func FuzzLinearMatchesRE2(f *testing.F) {
	for _, seed := range [][2]string{
		{`^(a+)+$`, "aaaa!"}, {`^[a-z0-9_-]{3,16}$`, "user_1"}, {`\bfoo\b`, "a foo"},
		{`^\d{4}-\d{2}-\d{2}$`, "2024-01-31"}, {`^[^\s@]+@[^\s@]+\.[^\s@]+$`, "a@b.co"},
		{`(a|ab)(c|bcd)(d*)`, "abcd"}, {`^\p{Lu}[\p{Ll}\s]*$`, "Émile zola"}, {`[^]x|.y`, "\nx"},
		{`^(?:a{2,}|b?){1,3}$`, "aab"}, {`\u{1F600}|\x41`, "😀"}, {`[\b\B]\B`, "b"},
	} {
		f.Add(seed[0], seed[1])
	}
	f.Fuzz(func(t *testing.T, pattern, input string) {
		if !utf8.ValidString(pattern) || len(pattern) > 200 {
			return
		}
		lin, err := compileLinear(pattern, unicodeProperty)
		if err != nil {
			return
		}
		got, steps := lin.match(input)
		if bound := 2 * len(lin.prog) * (utf8.RuneCountInString(input) + 1); steps > bound {
			t.Fatalf("%q on %q: %d steps, bound %d", pattern, input, steps, bound)
		}
		tr, err := translateECMA(pattern)
		if err != nil {
			return
		}
		re, err := regexp.Compile(tr)
		if err != nil {
			return
		}
		if want := re.MatchString(input); got != want {
			t.Fatalf("%q (RE2 %q) on %q: linear %v, RE2 %v", pattern, tr, input, got, want)
		}
	})
}
