package jsonschema

import "unicode"

// testProp resolves the few Unicode properties the engine's tests use, in
// every build (the GOOS=js build has no property tables of its own).
func testProp(name string) (func(rune) bool, error) {
	t := map[string]*unicode.RangeTable{"Lu": unicode.Lu, "Letter": unicode.L, "sc=Greek": unicode.Greek, "Script=Greek": unicode.Greek, "Nd": unicode.Nd}[name]
	if t == nil {
		return nil, errUnsupportedRegexp
	}
	return func(r rune) bool { return unicode.Is(t, r) }, nil
}
