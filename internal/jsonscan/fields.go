package jsonscan

import (
	"strings"
	"time"
)

// FieldError is a member of the wrong kind met by [Fields].
type FieldError struct {
	_      [0]func() // not comparable: no generated equality function
	Member string    // the member's name as written
	Err    error     // a *TypeError
}

// Error names the member and the kinds.
func (e *FieldError) Error() string { return "member " + quoteASCII(e.Member) + ": " + e.Err.Error() }

// Unwrap returns the *TypeError.
func (e *FieldError) Unwrap() error { return e.Err }

func quoteASCII(s string) string { return string(AppendString(nil, s)) }

// Fields reads the JSON object data the way encoding/json.Unmarshal fills
// a struct: each member, in document order, whose name equals one of names
// case-insensitively (encoding/json's rule; names must not fold to one
// another) is handed to set with the index of that name, so that a
// repeated member's last value wins (set is called for null values too:
// encoding/json leaves a field alone for null, but hands null to a
// json.RawMessage); other members are ignored. data must be one
// JSON value (no input at all is a syntax error): null gives no calls; a syntax error is an *Error, another
// kind than an object a *TypeError, and an error of set is returned as a
// *FieldError (wrapping it) when it is a *TypeError, else as is.
func Fields(data []byte, names []string, set func(i int, val []byte) error) error {
	if len(trimSpace(data)) == 0 {
		return SyntaxError(data) // encoding/json: unexpected end of input
	}
	obj, err := ParseObject(data)
	if err != nil {
		return err
	}
	for _, m := range obj {
		for i, n := range names {
			if m.Key != n && !strings.EqualFold(m.Key, n) {
				continue
			}
			if err := set(i, m.Val); err != nil {
				if te, ok := err.(*TypeError); ok {
					return &FieldError{Member: m.Key, Err: te}
				}
				return err
			}
			break
		}
	}
	return nil
}

// StringSlice returns the array of strings raw holds as encoding/json
// decodes it into a []string: nil when absent or null, a null element is
// "", another kind (of raw or of an element) is a *TypeError.
func StringSlice(raw []byte) ([]string, error) { return stringArray(raw, true) }

// FieldsInto is [Fields] with a target per name, filled as encoding/json
// fills a struct field of that type: *string, *bool, *int64, *[]string
// (see [StringSlice]), *time.Time (as its UnmarshalJSON: [UnmarshalTime]) or *[]byte, which
// gets the raw value (null included, as a json.RawMessage does); null leaves the other kinds alone. (One
// difference: a repeated member whose later array holds null gets "" in
// that place, where encoding/json, reusing the slice, keeps the earlier
// array's element.) One
// table-driven function keeps each decoder a slice literal.
func FieldsInto(data []byte, names []string, targets []any) error {
	return Fields(data, names, fieldTargets(targets).set)
}

// fieldTargets are FieldsInto's targets; its set method is the one
// function every decoder shares (a closure would be copied into each).
type fieldTargets []any

func (t fieldTargets) set(i int, v []byte) (err error) {
	if p, ok := t[i].(*[]byte); ok {
		*p = v
		return nil
	}
	if IsNull(v) {
		return nil
	}
	switch p := t[i].(type) {
	case *string:
		*p, err = String(v)
	case *bool:
		*p, err = Bool(v)
	case *int64:
		*p, err = Int64(v)
	case *[]string:
		*p, err = StringSlice(v)
	case *time.Time:
		err = UnmarshalTime(v, p)
	default:
		panic("jsonscan: FieldsInto: unsupported target type")
	}
	return err
}
