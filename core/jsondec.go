package core

import (
	"encoding/json"
	"errors"
	"strconv"
	"strings"

	"github.com/mcpwasm/mcpwasm/internal/jsonscan"
)

// This file decodes the wire types the client reads without reflection
// (package encoding/json is not linked into the WebAssembly modules; see
// docs/size.md). The decoders follow encoding/json's rules for the struct
// shapes of types.go, so that results are the same as json.Unmarshal's:
// member names match exactly or else case-insensitively, a repeated
// member is decoded again into the same value (the last scalar wins,
// objects merge), null leaves a scalar alone and sets a pointer, map,
// slice to nil (a json.RawMessage to "null"), a member of the wrong kind
// is skipped and reported (the first such error, with encoding/json's
// text) while the rest is decoded, and unknown members are ignored.

// dec is the state of one decoding: the first error, and the error
// context encoding/json reports (the innermost struct and the field path).
type dec struct {
	err   error
	fatal bool // a value that decodes itself failed: encoding/json stops
	strct string
	path  []string
	buf   [8]string
}

// typeError is encoding/json's UnmarshalTypeError, in text.
type typeError struct {
	value, strct, field, typ string
}

func (e *typeError) Error() string {
	if e.strct != "" || e.field != "" {
		return "json: cannot unmarshal " + e.value + " into Go struct field " + e.strct + "." + e.field + " of type " + e.typ
	}
	return "json: cannot unmarshal " + e.value + " into Go value of type " + e.typ
}

func newDec() *dec {
	d := &dec{}
	d.path = d.buf[:0]
	return d
}

// kindName names the kind of a JSON value as encoding/json's errors do.
func kindName(v []byte) string {
	if len(v) == 0 {
		return "nothing"
	}
	switch v[0] {
	case '{':
		return "object"
	case '[':
		return "array"
	case '"':
		return "string"
	case 't', 'f':
		return "bool"
	case 'n':
		return "null"
	}
	return "number"
}

func isNullRaw(v []byte) bool { return len(v) == 4 && string(v) == "null" }

// typeErr records a value of the wrong kind (the first one only).
func (d *dec) typeErr(value, typ string) {
	if d.err != nil {
		return
	}
	d.err = &typeError{value: value, strct: d.strct, field: strings.Join(d.path, "."), typ: typ}
}

// fail records another error.
func (d *dec) fail(err error) {
	if d.err == nil {
		d.err = err
	}
}

// failSelf records the error of a value that decodes itself (an
// UnmarshalJSON method): encoding/json stops there and returns it as is.
func (d *dec) failSelf(err error) {
	d.err = err
	d.fatal = true
}

// array calls f with each element of the JSON array v; it reports whether
// v was an array (null: false, no error; another kind: an error).
func (d *dec) array(v []byte, typ string, f func(elem []byte)) bool {
	if len(v) == 0 || isNullRaw(v) {
		return false
	}
	if v[0] != '[' {
		d.typeErr(kindName(v), typ)
		return false
	}
	i := jsonscan.SkipSpace(v, 1)
	for i < len(v) && v[i] != ']' && !d.fatal {
		end := jsonscan.ValueEnd(v, i)
		f(v[i:end])
		i = jsonscan.SkipSpace(v, end)
		if i < len(v) && v[i] == ',' {
			i = jsonscan.SkipSpace(v, i+1)
		}
	}
	return true
}

func containsByte(b []byte, c byte) bool {
	for _, x := range b {
		if x == c {
			return true
		}
	}
	return false
}

// str decodes a string member into p.
func (d *dec) str(p *string, v []byte) {
	if len(v) == 0 || isNullRaw(v) {
		return
	}
	if v[0] != '"' {
		d.typeErr(kindName(v), "string")
		return
	}
	*p = jsonscan.RawString(v)
}

// boolean decodes a boolean member into p.
func (d *dec) boolean(p *bool, v []byte) {
	switch string(v) {
	case "true":
		*p = true
	case "false":
		*p = false
	case "", "null":
	default:
		d.typeErr(kindName(v), "bool")
	}
}

// int64v decodes an integer member into p.
func (d *dec) int64v(p *int64, v []byte) {
	if len(v) == 0 || isNullRaw(v) {
		return
	}
	if kindName(v) != "number" {
		d.typeErr(kindName(v), "int64")
		return
	}
	n, err := strconv.ParseInt(string(v), 10, 64)
	if err != nil {
		d.typeErr("number "+string(v), "int64")
		return
	}
	*p = n
}

// int64p decodes an integer member into a pointer (null: nil).
func (d *dec) int64p(p **int64, v []byte) {
	if isNullRaw(v) {
		*p = nil
		return
	}
	if *p == nil {
		*p = new(int64)
	}
	d.int64v(*p, v)
}

// float decodes a number member into p.
func (d *dec) float(p *float64, v []byte) {
	if len(v) == 0 || isNullRaw(v) {
		return
	}
	if kindName(v) != "number" {
		d.typeErr(kindName(v), "float64")
		return
	}
	f, err := strconv.ParseFloat(string(v), 64)
	if err != nil {
		d.typeErr("number "+string(v), "float64")
		return
	}
	*p = f
}

// floatp decodes a number member into a pointer (null: nil).
func (d *dec) floatp(p **float64, v []byte) {
	if isNullRaw(v) {
		*p = nil
		return
	}
	if *p == nil {
		*p = new(float64)
	}
	d.float(*p, v)
}

// raw copies a member's raw JSON (null included, as json.RawMessage keeps it).
func raw(p *json.RawMessage, v []byte) { *p = append((*p)[0:0], v...) }

// anyMap decodes an object member into a map of decoded JSON values
// (typ names the map type for errors); null sets nil.
func (d *dec) anyMap(p *map[string]any, v []byte, typ string) {
	if isNullRaw(v) {
		*p = nil
		return
	}
	if len(v) == 0 || v[0] != '{' {
		d.typeErr(kindName(v), typ)
		return
	}
	ms, err := jsonscan.SplitMembers(v)
	if err != nil {
		d.fail(err)
		return
	}
	if *p == nil {
		*p = make(map[string]any, len(ms))
	}
	for _, m := range ms {
		(*p)[m.Key] = d.anyOf(m.Val)
	}
}

// anyOf decodes the valid JSON value v as json.Unmarshal into an interface
// does: a number out of the float64 range is a type error (in the context
// of the member being decoded) and nil.
func (d *dec) anyOf(v []byte) any {
	switch v[0] {
	case '{':
		ms, err := jsonscan.SplitMembers(v)
		if err != nil {
			d.fail(err)
			return nil
		}
		m := make(map[string]any, len(ms))
		for _, mb := range ms {
			m[mb.Key] = d.anyOf(mb.Val)
		}
		return m
	case '[':
		out := []any{}
		d.array(v, "", func(e []byte) { out = append(out, d.anyOf(e)) })
		return out
	case '"':
		return jsonscan.RawString(v)
	case 't':
		return true
	case 'f':
		return false
	case 'n':
		return nil
	}
	f, err := strconv.ParseFloat(string(v), 64)
	if err != nil {
		d.typeErr("number "+string(v), "float64")
		return nil
	}
	return f
}

// strs decodes an array of strings (null: nil).
func (d *dec) strs(p *[]string, v []byte) {
	if isNullRaw(v) {
		*p = nil
		return
	}
	out := (*p)[:0]
	if out == nil {
		out = []string{}
	}
	if d.array(v, "[]string", func(e []byte) {
		var s string
		d.str(&s, e)
		out = append(out, s)
	}) {
		*p = out
	}
}

// topLevel validates data and reports a syntax error as json.Unmarshal
// would (encoding/json checks the whole input before decoding).
func topLevel(data []byte) error {
	if jsonscan.Valid(data) {
		return nil
	}
	if len(trimJSON(data)) == 0 {
		return errEmptyJSON
	}
	return jsonscan.SyntaxError(data)
}

// errEmptyJSON is encoding/json's error for empty input.
var errEmptyJSON = errors.New("unexpected end of JSON input")

// trimJSON trims the whitespace around a JSON value.
func trimJSON(b []byte) []byte {
	i := jsonscan.SkipSpace(b, 0)
	j := len(b)
	for j > i && (b[j-1] == ' ' || b[j-1] == '\t' || b[j-1] == '\n' || b[j-1] == '\r') {
		j--
	}
	return b[i:j]
}
