//go:build js

package jsonschema

import (
	"strings"
	"syscall/js"
)

// jsRegExp is a pattern compiled by the JavaScript engine: ECMA-262 is the
// dialect JSON Schema specifies, and leaving Go's regexp out of the
// GOOS=js build keeps the WebAssembly module smaller. The RegExp has no
// g/y flag, so test keeps no state and concurrent use is safe (JavaScript
// runs on one thread).
type jsRegExp struct{ re js.Value }

func (r jsRegExp) MatchString(s string) (ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	var v js.Value
	if strings.HasPrefix(s, "\ufeff") {
		// wasm_exec's TextDecoder drops a leading byte-order mark: keep it
		// by starting the JavaScript string one character early.
		slice := js.Global().Get("String").Get("prototype").Get("slice")
		v = slice.Call("call", "\x00"+s, 1)
	} else {
		v = js.ValueOf(s)
	}
	return r.re.Call("test", v).Bool()
}

// compileECMA compiles src with the JavaScript RegExp in Unicode mode.
func compileECMA(src string) (m matcher, err error) {
	defer func() {
		if recover() != nil {
			m, err = nil, errUnsupportedRegexp
		}
	}()
	return jsRegExp{js.Global().Get("RegExp").New(src, "u")}, nil
}
