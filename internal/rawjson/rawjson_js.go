package rawjson

import (
	"errors"
	"strconv"
)

// RawMessage is a raw encoded JSON value, as json.RawMessage (whose
// methods it has) in the GOOS=js build.
type RawMessage []byte

// MarshalJSON returns m as the JSON encoding of m (null when m is nil), as
// json.RawMessage does.
func (m RawMessage) MarshalJSON() ([]byte, error) {
	if m == nil {
		return []byte("null"), nil
	}
	return m, nil
}

// UnmarshalJSON sets *m to a copy of data, as json.RawMessage does.
func (m *RawMessage) UnmarshalJSON(data []byte) error {
	if m == nil {
		return errors.New("json.RawMessage: UnmarshalJSON on nil pointer")
	}
	*m = append((*m)[0:0], data...)
	return nil
}

// Number is a JSON number literal, as json.Number (whose methods it has)
// in the GOOS=js build.
type Number string

// String returns the literal text of the number.
func (n Number) String() string { return string(n) }

// Float64 returns the number as a float64.
func (n Number) Float64() (float64, error) { return strconv.ParseFloat(string(n), 64) }

// Int64 returns the number as an int64.
func (n Number) Int64() (int64, error) { return strconv.ParseInt(string(n), 10, 64) }

// Reflection reports whether Marshal and Unmarshal take any Go value
// (true: encoding/json) or only those with JSON methods (false: GOOS=js).
const Reflection = false

// Marshal returns v.MarshalJSON() for a value with that method and
// ErrUnsupported for any other. Safe for concurrent use.
func Marshal(v any) ([]byte, error) {
	if m, ok := v.(interface{ MarshalJSON() ([]byte, error) }); ok {
		return m.MarshalJSON()
	}
	return nil, ErrUnsupported
}

// Unmarshal calls v.UnmarshalJSON(data) for a value with that method and
// returns ErrUnsupported for any other. Safe for concurrent use.
func Unmarshal(data []byte, v any) error {
	if u, ok := v.(interface{ UnmarshalJSON([]byte) error }); ok {
		return u.UnmarshalJSON(data)
	}
	return ErrUnsupported
}
