package core

import "github.com/mcpwasm/mcpwasm/internal/rawjson"

// RawMessage is a raw encoded JSON value: json.RawMessage everywhere but
// in GOOS=js builds, where it is a type of the library's own with the same
// methods and meaning, so that the WebAssembly module does not import
// encoding/json (docs/size.md). The public types' raw JSON members have
// this type; code that builds them for every platform names it
// core.RawMessage. A value is a byte slice: not safe for concurrent
// mutation.
type RawMessage = rawjson.RawMessage

// Number is a JSON number literal: json.Number everywhere but in GOOS=js
// builds, where it is the library's own with json.Number's methods (see
// RawMessage). Safe for concurrent use (a string).
type Number = rawjson.Number
