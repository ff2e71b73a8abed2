//go:build !js

package rawjson

import "encoding/json"

// RawMessage is json.RawMessage: a raw encoded JSON value.
type RawMessage = json.RawMessage

// Number is json.Number: a JSON number literal.
type Number = json.Number

// Marshal is json.Marshal. Safe for concurrent use.
// Reflection reports whether Marshal and Unmarshal take any Go value
// (true: encoding/json) or only those with JSON methods (false: GOOS=js).
const Reflection = true

func Marshal(v any) ([]byte, error) { return json.Marshal(v) }

// Unmarshal is json.Unmarshal. Safe for concurrent use.
func Unmarshal(data []byte, v any) error { return json.Unmarshal(data, v) }
