//go:build js

// Package jsregex gives the GOOS=js build's JSON Schema patterns the
// JavaScript engine's Unicode property tables. Patterns run on
// jsonschema's linear-time engine (the JavaScript RegExp backtracks:
// ^(a+)+$ against 30 characters takes seconds on the page's thread); only
// \p{…} and \P{…} consult JavaScript, one character at a time, which is
// constant work per character. wasm/js passes [Pattern] to
// core.ClientOptions.Pattern.
package jsregex

import (
	"errors"
	"syscall/js"

	"github.com/mcpwasm/mcpwasm/internal/jsonschema"
)

// errUnsupported means the JavaScript engine does not know a property.
var errUnsupported = errors.New("jsregex: unknown Unicode property")

// Pattern is jsonschema's linear-time engine with UnicodeProperty.
func Pattern(src string) (match func(string) bool, err error) {
	return jsonschema.LinearPattern(UnicodeProperty)(src)
}

// UnicodeProperty is the predicate of \p{name}: the JavaScript engine
// knows the Unicode property names and tables, so each character is tested
// with a one-character RegExp.
func UnicodeProperty(name string) (pred func(rune) bool, err error) {
	defer func() {
		if recover() != nil {
			pred, err = nil, errUnsupported
		}
	}()
	re := js.Global().Get("RegExp").New(`^\p{`+name+`}$`, "u")
	fromCodePoint := js.Global().Get("String").Get("fromCodePoint")
	return func(r rune) bool {
		return re.Call("test", fromCodePoint.Invoke(int(r))).Bool()
	}, nil
}
