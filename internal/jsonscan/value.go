package jsonscan

import (
	"errors"
	"math"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// Number is a JSON number kept as its text, as [DecodeOptions].UseNumber
// yields it (the counterpart of encoding/json's Number, without the
// package).
type Number string

// Float64 returns the number as a float64.
func (n Number) Float64() (float64, error) { return strconv.ParseFloat(string(n), 64) }

// Int64 returns the number as an int64.
func (n Number) Int64() (int64, error) { return strconv.ParseInt(string(n), 10, 64) }

// String returns the number's text.
func (n Number) String() string { return string(n) }

// Error is a syntax error in a JSON document: what was wrong and where.
type Error struct {
	_      [0]func() // not comparable: no generated equality function
	Offset int       // the byte offset of the problem
	Msg    string    // e.g. "invalid character 'x' looking for beginning of value"
}

// Error returns the message and the offset.
func (e *Error) Error() string {
	return "invalid JSON: " + e.Msg + " (offset " + strconv.Itoa(e.Offset) + ")"
}

// TypeError is a JSON value of the wrong kind for where it was read.
type TypeError struct {
	_    [0]func() // not comparable: no generated equality function
	Want string    // "string", "boolean", "integer", "number", "object", "array"
	Got  string    // the JSON kind found
}

// Error says what was wanted and what was found.
func (e *TypeError) Error() string { return "JSON: want " + e.Want + ", got " + e.Got }

// ErrDepth is returned for documents nested deeper than encoding/json
// allows (10,000 levels).
var ErrDepth = errors.New("jsonscan: JSON nested too deeply")

// DecodeOptions tunes [DecodeWith]. The zero value decodes like
// encoding/json into an `any`.
type DecodeOptions struct {
	// UseNumber keeps numbers as [Number] instead of float64.
	UseNumber bool
}

// Decode decodes the single JSON value of data into map[string]any,
// []any, string, float64, bool or nil: what encoding/json.Unmarshal into
// an `any` gives, without reflection. It is linear in len(data).
func Decode(data []byte) (any, error) { return DecodeWith(data, nil) }

// DecodeWith is [Decode] with options (nil means the zero value).
func DecodeWith(data []byte, opts *DecodeOptions) (any, error) {
	d := decoder{data: data}
	if opts != nil {
		d.useNumber = opts.UseNumber
	}
	i := SkipSpace(data, 0)
	v, i, err := d.value(i, 0)
	if err != nil {
		return nil, err
	}
	if i = SkipSpace(data, i); i < len(data) {
		return nil, d.bad(i, "after top-level value")
	}
	return v, nil
}

type decoder struct {
	data      []byte
	useNumber bool
	types     *Decoder // when set, a number out of range is a type error there and nil
}

func (d *decoder) bad(i int, context string) error {
	if i >= len(d.data) {
		return &Error{Offset: len(d.data), Msg: "unexpected end of JSON input"}
	}
	return &Error{Offset: i, Msg: invalidChar(d.data[i], context)}
}

func (d *decoder) value(i, depth int) (any, int, error) {
	b := d.data
	if i >= len(b) {
		return nil, i, d.bad(i, "")
	}
	switch c := b[i]; {
	case c == '{' || c == '[':
		if depth >= maxJSONDepth {
			return nil, i, ErrDepth
		}
		// One loop reads an object's members and an array's elements;
		// an object is the one with a map.
		var m map[string]any
		a := []any{}
		if c == '{' {
			m = map[string]any{}
			a = nil
		}
		i = SkipSpace(b, i+1)
		for first := true; ; first = false {
			if first && i < len(b) && b[i] == c+2 { // '}' or ']': empty
				break
			}
			var k string
			if m != nil {
				if i >= len(b) || b[i] != '"' {
					return nil, i, d.bad(i, "looking for beginning of object key string")
				}
				end := stringEndValid(b, i)
				if end < 0 {
					return nil, i, d.bad(i, "in string literal")
				}
				var err error
				if k, err = Unquote(b[i:end]); err != nil {
					return nil, i, err
				}
				i = SkipSpace(b, end)
				if i >= len(b) || b[i] != ':' {
					return nil, i, d.bad(i, "after object key")
				}
				i = SkipSpace(b, i+1)
			}
			v, j, err := d.value(i, depth+1)
			if err != nil {
				return nil, j, err
			}
			if m != nil {
				m[k] = v
			} else {
				a = append(a, v)
			}
			i = SkipSpace(b, j)
			if i < len(b) && b[i] == ',' {
				i = SkipSpace(b, i+1)
				continue
			}
			if i < len(b) && b[i] == c+2 {
				break
			}
			if m != nil {
				return nil, i, d.bad(i, "after object key:value pair")
			}
			return nil, i, d.bad(i, "after array element")
		}
		if m != nil {
			return m, i + 1, nil
		}
		return a, i + 1, nil
	case c == '"':
		end := stringEndValid(b, i)
		if end < 0 {
			return nil, i, d.bad(len(b), "in string literal")
		}
		s, err := Unquote(b[i:end])
		return s, end, err
	case c == '-' || (c >= '0' && c <= '9'):
		end := numberEnd(b, i)
		if end < 0 {
			return nil, i, d.bad(i+1, "in numeric literal")
		}
		if d.useNumber {
			return Number(b[i:end]), end, nil
		}
		f, err := strconv.ParseFloat(string(b[i:end]), 64)
		if err != nil {
			msg := numberValue(b[i:end])
			if d.types != nil {
				d.types.TypeErr(msg, "float64")
				return nil, end, nil
			}
			return nil, i, &Error{Offset: i, Msg: msg + " out of range"}
		}
		return f, end, nil
	case c == 't' && hasLiteral(b, i, "true"):
		return true, i + 4, nil
	case c == 'f' && hasLiteral(b, i, "false"):
		return false, i + 5, nil
	case c == 'n' && hasLiteral(b, i, "null"):
		return nil, i + 4, nil
	}
	return nil, i, d.bad(i, "looking for beginning of value")
}

// Unquote decodes the JSON string literal raw (quotes included), as
// encoding/json does: escapes resolved, invalid UTF-8 and lone surrogates
// replaced by U+FFFD.
func Unquote(raw []byte) (string, error) {
	if len(raw) < 2 || raw[0] != '"' || raw[len(raw)-1] != '"' {
		return "", &TypeError{Want: "string", Got: Kind(raw)}
	}
	s := raw[1 : len(raw)-1]
	plain := true
	for _, c := range s {
		if c == '\\' || c == '"' || c < 0x20 || c >= 0x80 {
			plain = false
			break
		}
	}
	if plain {
		return string(s), nil
	}
	out := make([]byte, 0, len(s))
	for i := 0; i < len(s); {
		// Each step reads n bytes of s as the rune r (invalid UTF-8 and
		// lone surrogates are appended as U+FFFD by AppendRune).
		r, n := rune(s[i]), 1
		switch {
		case r >= utf8.RuneSelf:
			r, n = utf8.DecodeRune(s[i:])
		case r == '\\':
			if i+1 >= len(s) {
				return "", &Error{Offset: i + 1, Msg: "unexpected end of string escape"}
			}
			n = 2
			switch c := s[i+1]; c {
			case '"', '\\', '/':
				r = rune(c)
			case 'b':
				r = '\b'
			case 'f':
				r = '\f'
			case 'n':
				r = '\n'
			case 'r':
				r = '\r'
			case 't':
				r = '\t'
			case 'u':
				var ok bool
				if r, ok = hex4(s, i+2); !ok {
					return "", &Error{Offset: i + 2, Msg: "invalid \\u escape"}
				}
				n = 6
				if utf16.IsSurrogate(r) {
					if r2, ok2 := hex4(s, i+8); ok2 && s[i+6] == '\\' && s[i+7] == 'u' {
						if dec := utf16.DecodeRune(r, r2); dec != utf8.RuneError {
							r, n = dec, 12
						}
					}
				}
			default:
				return "", &Error{Offset: i + 2, Msg: invalidChar(c, "in string escape code")}
			}
		case r < 0x20 || r == '"':
			return "", &Error{Offset: i + 1, Msg: invalidChar(byte(r), "in string literal")}
		}
		out = utf8.AppendRune(out, r)
		i += n
	}
	return string(out), nil
}

func hex4(s []byte, i int) (rune, bool) {
	if i+4 > len(s) {
		return 0, false
	}
	var r rune
	for _, c := range s[i : i+4] {
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c = c - 'a' + 10
		case c >= 'A' && c <= 'F':
			c = c - 'A' + 10
		default:
			return 0, false
		}
		r = r<<4 | rune(c)
	}
	return r, true
}

// Kind names the kind of the JSON value raw starts with: "object",
// "array", "string", "number", "boolean", "null" or "nothing".
// It is [KindName] of raw trimmed, in this package's own words for a
// boolean and for what starts no JSON value.
func Kind(raw []byte) string {
	v := trimSpace(raw)
	if len(v) > 0 {
		switch c := v[0]; {
		case c == 't' || c == 'f':
			return "boolean"
		case c != '{' && c != '[' && c != '"' && c != 'n' && c != '-' && (c < '0' || c > '9'):
			return "invalid JSON"
		}
	}
	return KindName(v)
}

// IsNull reports whether raw is absent (empty) or the literal null.
func IsNull(raw []byte) bool {
	i := SkipSpace(raw, 0)
	return i >= len(raw) || (hasLiteral(raw, i, "null") && SkipSpace(raw, i+4) == len(raw))
}

// String returns the string raw holds; "" when raw is absent or null (as
// encoding/json leaves a field alone), a *TypeError for another kind.
func String(raw []byte) (string, error) {
	if IsNull(raw) {
		return "", nil
	}
	return Unquote(trimSpace(raw))
}

// Bool returns the boolean raw holds; false when absent or null.
func Bool(raw []byte) (bool, error) {
	raw = trimSpace(raw)
	switch string(raw) {
	case "", "null", "false":
		return false, nil
	case "true":
		return true, nil
	}
	return false, &TypeError{Want: "boolean", Got: Kind(raw)}
}

// Int64 returns the integer raw holds; 0 when absent or null. A fraction,
// an exponent or a value out of range is a *TypeError, as with
// encoding/json into an int64.
func Int64(raw []byte) (int64, error) {
	raw = trimSpace(raw)
	if IsNull(raw) {
		return 0, nil
	}
	if k := Kind(raw); k != "number" {
		return 0, &TypeError{Want: "integer", Got: k}
	}
	n, err := strconv.ParseInt(string(raw), 10, 64)
	if err != nil {
		return 0, &TypeError{Want: "integer", Got: numberValue(raw)}
	}
	return n, nil
}

// Float64 returns the number raw holds; 0 when absent or null.
func Float64(raw []byte) (float64, error) {
	raw = trimSpace(raw)
	if IsNull(raw) {
		return 0, nil
	}
	if k := Kind(raw); k != "number" || numberEnd(raw, 0) != len(raw) {
		return 0, &TypeError{Want: "number", Got: k}
	}
	f, err := strconv.ParseFloat(string(raw), 64)
	if err != nil {
		return 0, &TypeError{Want: "number", Got: numberValue(raw)}
	}
	return f, nil
}

// Strings returns the array of strings raw holds; nil when absent or null.
func Strings(raw []byte) ([]string, error) { return stringArray(raw, false) }

// stringArray is Strings and StringSlice: a null element is an error, or
// "" when nullOK.
func stringArray(raw []byte, nullOK bool) ([]string, error) {
	items, err := Elements(raw)
	if err != nil || items == nil {
		return nil, err
	}
	out := make([]string, len(items))
	for i, it := range items {
		if nullOK && IsNull(it) {
			continue
		}
		if out[i], err = Unquote(it); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// Elements splits the JSON array raw into its elements (raw, not copied);
// nil when raw is absent or null. raw must be valid JSON (as the values
// [ParseObject] and Elements hand out are); anything else is an error.
func Elements(raw []byte) ([][]byte, error) {
	raw = trimSpace(raw)
	if IsNull(raw) {
		return nil, nil
	}
	if raw[0] != '[' {
		return nil, &TypeError{Want: "array", Got: Kind(raw)}
	}
	out := [][]byte{}
	i := SkipSpace(raw, 1)
	for i < len(raw) && raw[i] != ']' {
		end := ValueEnd(raw, i)
		out = append(out, raw[i:end])
		i = SkipSpace(raw, end)
		if i < len(raw) && raw[i] == ',' {
			i = SkipSpace(raw, i+1)
		}
	}
	return out, nil
}

// Object is a JSON object split into its members, in document order.
type Object []Member

// ParseObject validates raw and splits it into its members. Absent or
// null gives an empty Object and no error; another kind is a *TypeError.
func ParseObject(raw []byte) (Object, error) {
	raw = trimSpace(raw)
	if IsNull(raw) {
		return nil, nil
	}
	if err := SyntaxError(raw); err != nil {
		return nil, err
	}
	if raw[0] != '{' {
		return nil, &TypeError{Want: "object", Got: Kind(raw)}
	}
	return SplitMembers(raw)
}

// Get returns the raw value of the member key (the last one if repeated,
// as encoding/json keeps), or nil.
func (o Object) Get(key string) []byte {
	for i := len(o) - 1; i >= 0; i-- {
		if o[i].Key == key {
			return o[i].Val
		}
	}
	return nil
}

// Has reports whether the member key is present (even when null).
func (o Object) Has(key string) bool {
	for i := range o {
		if o[i].Key == key {
			return true
		}
	}
	return false
}

func trimSpace(b []byte) []byte {
	i := SkipSpace(b, 0)
	j := len(b)
	for j > i && (b[j-1] == ' ' || b[j-1] == '\t' || b[j-1] == '\n' || b[j-1] == '\r') {
		j--
	}
	return b[i:j]
}

// JSONAppender is a value that encodes itself (a reflection-free
// counterpart of json.Marshaler).
type JSONAppender interface {
	AppendJSON(dst []byte) []byte
}

// AppendValue appends v as JSON: nil, bool, string, the integer and float
// types, Number, map[string]any (keys sorted, as encoding/json does),
// []any, []string, map[string]string, a [JSONAppender], and values of
// those. Raw JSON is appended with [AppendRaw]. Any other type is an
// error, as are NaN and infinities.
func AppendValue(dst []byte, v any) ([]byte, error) {
	// The scalar kinds meet at one call per way of writing them: as a
	// literal, a signed or unsigned integer, or a float of bits bits.
	var lit string
	var n int64 // an integer of any type, as int64 bits
	var f float64
	bits := 0 // 64 or 32 for a float
	kind := 'l'
	switch x := v.(type) {
	case nil:
		lit = "null"
	case bool:
		lit = "false"
		if x {
			lit = "true"
		}
	case string:
		return AppendString(dst, x), nil
	case float64:
		f, bits = x, 64
	case float32:
		f, bits = float64(x), 32
	case int:
		n, kind = int64(x), 'i'
	case int64:
		n, kind = x, 'i'
	case int32:
		n, kind = int64(x), 'i'
	case uint:
		n, kind = int64(x), 'u'
	case uint64:
		n, kind = int64(x), 'u'
	case uint32:
		n, kind = int64(x), 'u'
	case Number:
		lit = string(x)
		if x == "" {
			lit = "0"
		} else if numberEnd([]byte(x), 0) != len(x) {
			return dst, errors.New("jsonscan: invalid number literal " + strconv.Quote(lit))
		}
	case JSONAppender:
		return x.AppendJSON(dst), nil
	case []any:
		return AppendArray(dst, x, AppendValue)
	case []string:
		return AppendStrings(dst, x)
	case map[string]any:
		return AppendSortedMap(dst, x, AppendValue)
	case map[string]string:
		return appendStringMap(dst, x), nil
	case []map[string]any:
		// A list of objects, as Go code builds one (no generic copy: each
		// instantiation of AppendArray is code of its own).
		if x == nil {
			return add(dst, "null"), nil
		}
		dst = add(dst, "[")
		for i, m := range x {
			if i > 0 {
				dst = add(dst, ",")
			}
			var err error
			if dst, err = AppendSortedMap(dst, m, AppendValue); err != nil {
				return dst, err
			}
		}
		return add(dst, "]"), nil
	default:
		return dst, errors.New("jsonscan: cannot encode a value of this Go type (only decoded JSON values are supported)")
	}
	switch {
	case bits != 0:
		return AppendFloat(dst, f, bits)
	case kind == 'i':
		return strconv.AppendInt(dst, n, 10), nil
	case kind == 'u':
		return strconv.AppendUint(dst, uint64(n), 10), nil
	}
	return add(dst, lit), nil
}

// Marshal is AppendValue into a new slice.
func Marshal(v any) ([]byte, error) { return AppendValue(nil, v) }

// AppendRaw appends raw JSON (which the caller has validated), or null
// when raw is empty.
func AppendRaw(dst, raw []byte) []byte {
	if len(raw) == 0 {
		return append(dst, "null"...)
	}
	return append(dst, raw...)
}

// AppendFloat appends f the way encoding/json writes a float of the given
// bit size: the shortest decimal that reads back as f, in exponent form
// only below 1e-6 or from 1e21 on. NaN and infinities are an error.
func AppendFloat(dst []byte, f float64, bits int) ([]byte, error) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return dst, errors.New("jsonscan: unsupported value: " + strconv.FormatFloat(f, 'g', -1, bits))
	}
	format := byte('f')
	if a := math.Abs(f); a != 0 {
		if bits == 32 {
			a = float64(float32(a))
		}
		if a < 1e-6 || a >= 1e21 {
			format = 'e'
		}
	}
	start := len(dst)
	dst = strconv.AppendFloat(dst, f, format, -1, bits)
	if format == 'e' {
		// 1e-07 -> 1e-7, as encoding/json writes it.
		if n := len(dst); n-start >= 4 && dst[n-4] == 'e' && dst[n-3] == '-' && dst[n-2] == '0' {
			dst[n-2] = dst[n-1]
			dst = dst[:n-1]
		}
	}
	return dst, nil
}

// ObjectWriter builds a JSON object member by member. The zero value is
// ready; Bytes closes the object. Not safe for concurrent use.
type ObjectWriter struct {
	b []byte
}

// NewObjectWriter starts an object appended to dst.
func NewObjectWriter(dst []byte) ObjectWriter { return ObjectWriter{b: add(dst, "{")} }

func (w *ObjectWriter) key(k string) {
	if len(w.b) == 0 {
		w.b = add(w.b, "{")
	} else if c := w.b[len(w.b)-1]; c != '{' {
		w.b = add(w.b, ",")
	}
	w.b = AppendString(w.b, k)
	w.b = add(w.b, ":")
}

// String adds a string member.
func (w *ObjectWriter) String(k, v string) { w.key(k); w.b = AppendString(w.b, v) }

// StringOmit adds a string member unless v is empty (omitempty).
func (w *ObjectWriter) StringOmit(k, v string) {
	if v != "" {
		w.String(k, v)
	}
}

// Bool adds a boolean member.
func (w *ObjectWriter) Bool(k string, v bool) {
	w.key(k)
	if v {
		w.b = add(w.b, "true")
	} else {
		w.b = add(w.b, "false")
	}
}

// BoolOmit adds a boolean member unless it is false (omitempty).
func (w *ObjectWriter) BoolOmit(k string, v bool) {
	if v {
		w.Bool(k, v)
	}
}

// Int adds an integer member.
func (w *ObjectWriter) Int(k string, v int64) { w.key(k); w.b = strconv.AppendInt(w.b, v, 10) }

// IntOmit adds an integer member unless it is 0 (omitempty).
func (w *ObjectWriter) IntOmit(k string, v int64) {
	if v != 0 {
		w.Int(k, v)
	}
}

// Raw adds a member of raw JSON (validated by the caller); empty raw
// writes null.
func (w *ObjectWriter) Raw(k string, raw []byte) { w.key(k); w.b = AppendRaw(w.b, raw) }

// RawOmit adds a member of raw JSON unless raw is empty (omitempty).
func (w *ObjectWriter) RawOmit(k string, raw []byte) {
	if len(raw) != 0 {
		w.Raw(k, raw)
	}
}

// Value adds a member encoded with [AppendValue].
func (w *ObjectWriter) Value(k string, v any) error {
	w.key(k)
	var err error
	w.b, err = AppendValue(w.b, v)
	return err
}

// Bytes closes the object and returns it.
func (w *ObjectWriter) Bytes() []byte {
	if len(w.b) == 0 {
		return []byte("{}")
	}
	return add(w.b, "}")
}
