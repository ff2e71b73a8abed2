//go:build js

package jsonschema

// testOptions give the GOOS=js build, which has no Unicode property tables
// of its own, the few properties the tests use (internal/js/regex gives
// the module the JavaScript engine's).
var testOptions = &Options{Pattern: LinearPattern(testProp)}
