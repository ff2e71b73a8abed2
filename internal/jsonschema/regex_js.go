//go:build js

package jsonschema

import "syscall/js"

// compileECMA compiles src with compileLinear: the JavaScript engine's
// RegExp backtracks (^(a+)+$ against 30 characters takes seconds on the
// page's thread), and Go's regexp would add about 135 KB gzip to the
// module; see docs/architecture.md.
func compileECMA(src string) (matcher, error) {
	re, err := compileLinear(src)
	if err != nil {
		return nil, err
	}
	return re, nil
}

// unicodeProperty is the predicate of \p{name} for compileLinear: the
// JavaScript engine knows the Unicode property names and tables, so each
// character is tested with a one-character RegExp (constant work per
// character, so matching stays linear).
func unicodeProperty(name string) (pred func(rune) bool, err error) {
	defer func() {
		if recover() != nil {
			pred, err = nil, errUnsupportedRegexp
		}
	}()
	re := js.Global().Get("RegExp").New(`^\p{`+name+`}$`, "u")
	fromCodePoint := js.Global().Get("String").Get("fromCodePoint")
	return func(r rune) bool {
		return re.Call("test", fromCodePoint.Invoke(int(r))).Bool()
	}, nil
}
