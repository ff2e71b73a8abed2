package jsonschema

import "errors"

// errUnsupportedRegexp reports an ECMA-262 feature compileECMA does not
// support.
var errUnsupportedRegexp = errors.New("unsupported ECMA-262 regular expression feature")

// matcher is a compiled pattern: Go's regexp natively (ECMA-262 syntax
// translated to RE2), compileLinear's engine under GOOS=js. It must be safe
// for concurrent use.
type matcher interface {
	MatchString(s string) bool
}
