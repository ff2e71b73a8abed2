// Package rawjson holds the two JSON value types of the library's public
// API, RawMessage and Number, and the reflection-based Marshal and
// Unmarshal its generic Go entry points fall back on.
//
// Everywhere but GOOS=js they are encoding/json's: RawMessage and Number
// are aliases of json.RawMessage and json.Number, Marshal and Unmarshal are
// json.Marshal and json.Unmarshal.
//
// In the GOOS=js module they are the library's own, so that the module
// does not import encoding/json: an imported package's initialisation is
// linked whether or not its functions are, and encoding/json's brings fmt,
// os and reflect with it — 33 KB of the module's gzip size (docs/size.md).
// RawMessage and Number have json.RawMessage's and json.Number's methods
// and meaning (a Go program built for GOOS=js that marshals them with
// encoding/json gets the same bytes). Marshal and Unmarshal there serve
// values with a MarshalJSON or UnmarshalJSON method and return
// ErrUnsupported for anything else; the library's callers then handle the
// JSON-shaped values themselves (maps, slices, strings, numbers, booleans,
// nil) and report other Go types as unsupported. Portable code names the
// types as core.RawMessage and core.Number.
//
// Everything in the package is safe for concurrent use.
package rawjson

import "errors"

// ErrUnsupported is returned by Marshal and Unmarshal in the GOOS=js
// build for a value they cannot encode or decode without reflection.
// encoding/json's Marshal and Unmarshal never return it.
var ErrUnsupported = errors.New("rawjson: this Go type needs reflection, which the GOOS=js module leaves out")
