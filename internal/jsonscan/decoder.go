package jsonscan

import (
	"errors"
	"strconv"
	"strings"
)

// Decoder is the state of one decoding of valid JSON into Go values with
// encoding/json's rules and messages, shared by core's table-driven
// decoder and the bridge's schema decoder: the first error, and the
// context encoding/json names in its type errors (the innermost struct
// and the path of JSON names to the member). Its primitives take a
// trimmed member value (empty means absent): null leaves a scalar alone
// and clears a pointer, slice or map; a value of the wrong kind is
// recorded (the first error only) and decoding goes on, as
// encoding/json's does. The zero value is ready to use.
type Decoder struct {
	Err    error    // the first error met
	Fatal  bool     // a value that decodes itself failed: encoding/json stops there
	Struct string   // Go name of the innermost struct being decoded ("" at the top)
	Path   []string // JSON names from the outermost struct to the current member
	buf    [8]string
}

// UnmarshalTypeError is encoding/json's UnmarshalTypeError, in text: a
// JSON value (Value, e.g. "string" or "number 1e999") that cannot go
// into the Go type Type, at the member Field of the struct Struct.
type UnmarshalTypeError struct {
	_                          [0]func() // not comparable: no generated equality function
	Value, Struct, Field, Type string
}

// Error returns encoding/json's message.
func (e *UnmarshalTypeError) Error() string {
	into := "Go value"
	if e.Struct != "" || e.Field != "" {
		into = "Go struct field " + e.Struct + "." + e.Field
	}
	return "json: cannot unmarshal " + e.Value + " into " + into + " of type " + e.Type
}

// numberValue names the number val as encoding/json's type errors do.
func numberValue(val []byte) string { return "number " + string(val) }

// ErrEmpty is encoding/json's error for input without a value.
var ErrEmpty = errors.New("unexpected end of JSON input")

// KindName names the kind of the JSON value v starts with as
// encoding/json's type errors do: "object", "array", "string", "bool",
// "null", "number" ("nothing" when v is empty). Unlike [Kind], v must
// be trimmed and valid.
func KindName(v []byte) string {
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

// IsNullLiteral reports whether the trimmed value v is the literal null
// (unlike [IsNull], empty v is not).
func IsNullLiteral(v []byte) bool { return len(v) == 4 && string(v) == "null" }

// TrimSpace trims the JSON whitespace around b.
func TrimSpace(b []byte) []byte { return trimSpace(b) }

// CheckDocument reports a syntax error in data as json.Unmarshal does
// before it decodes anything: nil when data is one valid JSON value,
// [ErrEmpty] when it is only whitespace, else the *Error.
func CheckDocument(data []byte) error {
	if Valid(data) {
		return nil
	}
	if len(trimSpace(data)) == 0 {
		return ErrEmpty
	}
	return SyntaxError(data)
}

// Enter makes the member name (after via, an embedded struct's field,
// when not empty) of the struct strct the current context; Leave(outer,
// depth) with what Enter returns restores the previous one.
func (d *Decoder) Enter(strct, via, name string) (outer string, depth int) {
	outer, depth = d.Struct, len(d.Path)
	if d.Path == nil {
		d.Path = d.buf[:0]
	}
	d.Struct = strct
	if via != "" {
		d.Path = append(d.Path, via)
	}
	d.Path = append(d.Path, name)
	return outer, depth
}

// Leave restores the context Enter returned.
func (d *Decoder) Leave(outer string, depth int) { d.Struct, d.Path = outer, d.Path[:depth] }

// TypeErr records a value (as encoding/json names it) of the wrong kind
// for the Go type typ, in the current context (the first error only).
func (d *Decoder) TypeErr(value, typ string) {
	if d.Err != nil {
		return
	}
	d.Err = &UnmarshalTypeError{Value: value, Struct: d.Struct, Field: strings.Join(d.Path, "."), Type: typ}
}

// Wrong records the value val of the wrong kind for the Go type typ.
func (d *Decoder) Wrong(val []byte, typ string) { d.TypeErr(KindName(val), typ) }

// Fail records err if it is the first error.
func (d *Decoder) Fail(err error) {
	if d.Err == nil {
		d.Err = err
	}
}

// FailSelf records the error of a value that decodes itself (an
// UnmarshalJSON method): encoding/json stops there and returns it as is.
func (d *Decoder) FailSelf(err error) {
	d.Err = err
	d.Fatal = true
}

// Array calls f with each element of the JSON array val; it reports
// whether val was an array (absent or null: false; another kind: false
// and a type error for typ). It stops once the decoding is Fatal.
func (d *Decoder) Array(val []byte, typ string, f func(elem []byte)) bool {
	if len(val) == 0 || IsNullLiteral(val) {
		return false
	}
	if val[0] != '[' {
		d.Wrong(val, typ)
		return false
	}
	i := SkipSpace(val, 1)
	for i < len(val) && val[i] != ']' && !d.Fatal {
		end := ValueEnd(val, i)
		f(val[i:end])
		i = SkipSpace(val, end)
		if i < len(val) && val[i] == ',' {
			i = SkipSpace(val, i+1)
		}
	}
	return true
}

// Object splits the JSON object val into its members (values trimmed);
// ok is false when val is absent or null, or of another kind (a type
// error for typ). err is a bad escape in a member name.
func (d *Decoder) Object(val []byte, typ string) (ms []Member, ok bool, err error) {
	if len(val) == 0 || IsNullLiteral(val) {
		return nil, false, nil
	}
	if val[0] != '{' {
		d.Wrong(val, typ)
		return nil, false, nil
	}
	ms, err = SplitMembers(val)
	return ms, err == nil, err
}

// String decodes a string member into p.
func (d *Decoder) String(val []byte, p *string) {
	if len(val) == 0 || IsNullLiteral(val) {
		return
	}
	if val[0] != '"' {
		d.Wrong(val, "string")
		return
	}
	s, err := Unquote(val)
	if err != nil {
		d.TypeErr("string", "string")
		return
	}
	*p = s
}

// Bool decodes a boolean member into p.
func (d *Decoder) Bool(val []byte, p *bool) {
	switch string(val) {
	case "true":
		*p = true
	case "false":
		*p = false
	case "", "null":
	default:
		d.Wrong(val, "bool")
	}
}

// integer parses an integer member for the Go type typ of bits bits.
func (d *Decoder) integer(val []byte, typ string, bits int) (int64, bool) {
	if len(val) == 0 || IsNullLiteral(val) {
		return 0, false
	}
	if KindName(val) != "number" {
		d.Wrong(val, typ)
		return 0, false
	}
	n, err := strconv.ParseInt(string(val), 10, bits)
	if err != nil {
		d.TypeErr(numberValue(val), typ)
		return 0, false
	}
	return n, true
}

// Int decodes an integer member into the Go int at p.
func (d *Decoder) Int(val []byte, p *int) {
	if n, ok := d.integer(val, "int", strconv.IntSize); ok {
		*p = int(n)
	}
}

// Int64 decodes an integer member into p.
func (d *Decoder) Int64(val []byte, p *int64) {
	if n, ok := d.integer(val, "int64", 64); ok {
		*p = n
	}
}

// Float64 decodes a number member into p.
func (d *Decoder) Float64(val []byte, p *float64) {
	if len(val) == 0 || IsNullLiteral(val) {
		return
	}
	if KindName(val) != "number" {
		d.Wrong(val, "float64")
		return
	}
	f, err := strconv.ParseFloat(string(val), 64)
	if err != nil {
		d.TypeErr(numberValue(val), "float64")
		return
	}
	*p = f
}

// Raw copies the member's JSON as it is (null included), as a
// json.RawMessage field keeps it.
func (d *Decoder) Raw(val []byte, p *[]byte) { *p = append((*p)[:0], val...) }

// Strings decodes an array of strings into p, reusing its array; null
// clears it, a null element is "".
func (d *Decoder) Strings(val []byte, p *[]string) {
	if IsNullLiteral(val) {
		*p = nil
		return
	}
	out := (*p)[:0]
	if out == nil {
		out = []string{}
	}
	if d.Array(val, "[]string", func(e []byte) {
		var s string
		d.String(e, &s)
		out = append(out, s)
	}) {
		*p = out
	}
}

// Value decodes the valid JSON value val as json.Unmarshal into an
// interface does (numbers as float64). A number out of the float64 range
// is a type error in the current context and nil, as encoding/json saves
// that error and goes on.
func (d *Decoder) Value(val []byte) any {
	dv := decoder{data: val, types: d}
	v, _, err := dv.value(0, 0)
	if err != nil {
		d.Fail(err)
		return nil
	}
	return v
}

// Any decodes a member into the interface at p; null clears it. A
// number out of the float64 range is a type error and leaves p alone.
func (d *Decoder) Any(val []byte, p *any) {
	if len(val) == 0 {
		return
	}
	if c := val[0]; c == '-' || (c >= '0' && c <= '9') {
		f, err := strconv.ParseFloat(string(val), 64)
		if err != nil {
			d.TypeErr(numberValue(val), "float64")
			return
		}
		*p = f
		return
	}
	*p = d.Value(val)
}

// AnyMap decodes an object member into a map of decoded JSON values,
// merging into an existing one (typ names the map type for errors); null
// clears it.
func (d *Decoder) AnyMap(val []byte, p *map[string]any, typ string) {
	if IsNullLiteral(val) {
		*p = nil
		return
	}
	if len(val) == 0 || val[0] != '{' {
		d.Wrong(val, typ)
		return
	}
	m, _ := d.Value(val).(map[string]any)
	if m == nil {
		return
	}
	if *p == nil {
		*p = m
		return
	}
	for k, x := range m {
		(*p)[k] = x
	}
}

// Ptr prepares the pointer member *p for the trimmed value val as
// encoding/json does: null sets it to nil and Ptr returns nil; otherwise
// *p is allocated when nil, and returned to decode val into.
func Ptr[T any](val []byte, p **T) *T {
	if IsNullLiteral(val) {
		*p = nil
		return nil
	}
	if *p == nil {
		*p = new(T)
	}
	return *p
}
