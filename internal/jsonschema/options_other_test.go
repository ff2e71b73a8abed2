//go:build !js

package jsonschema

// testOptions: the defaults (Go's regexp).
var testOptions *Options
