package jsonschema

import "errors"

// errUnsupportedRegexp reports an ECMA-262 feature compileECMA does not
// support.
var errUnsupportedRegexp = errors.New("unsupported ECMA-262 regular expression feature")

// matcher is a compiled pattern, reporting whether a string contains a
// match: Go's regexp natively (ECMA-262 syntax translated to RE2),
// compileLinear's engine under GOOS=js, or what Options.Pattern made. It
// must be safe for concurrent use.
type matcher = func(s string) bool

// PatternFunc compiles an ECMA-262 regular expression (pattern,
// patternProperties) into a predicate that reports whether a string
// contains a match (matching is unanchored, as in ECMA-262). The predicate
// must be safe for concurrent use and should run in linear time: patterns
// come from servers. An error makes the schema skip the pattern (see
// Schema.Skipped).
type PatternFunc func(src string) (match func(s string) bool, err error)

// LinearPattern returns the package's linear-time engine (a Pike VM for the
// ECMA-262 pattern subset; look-around and back-references are refused)
// with prop resolving Unicode property escapes (\p{name}, \P{name}); a
// nil prop refuses them. It is the GOOS=js default (with a nil prop):
// internal/js/regex passes the JavaScript engine's property tables.
func LinearPattern(prop func(name string) (func(rune) bool, error)) PatternFunc {
	return func(src string) (func(string) bool, error) {
		re, err := compileLinear(src, prop)
		if err != nil {
			return nil, err
		}
		return re.MatchString, nil
	}
}

// Options configure CompileWith; nil means every default.
type Options struct {
	// Pattern compiles pattern and patternProperties. Default: Go's
	// regexp (RE2, linear) natively, LinearPattern(nil) under GOOS=js.
	Pattern PatternFunc
}
