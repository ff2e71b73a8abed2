//go:build js

package jsonschema

// compileECMA compiles src with compileLinear: the JavaScript engine's
// RegExp backtracks (^(a+)+$ against 30 characters takes seconds on the
// page's thread), and Go's regexp would add about 135 KB gzip to the
// module; see docs/architecture.md. Unicode property escapes need tables
// this build does not link: they are refused unless the caller passes
// Options.Pattern (internal/js/regex's engine uses the JavaScript
// engine's tables).
func compileECMA(src string) (matcher, error) {
	re, err := compileLinear(src, nil)
	if err != nil {
		return nil, err
	}
	return re.MatchString, nil
}
