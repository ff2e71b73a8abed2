// Package errf formats error messages without package fmt.
//
// fmt and the reflection behind it are a large part of a WebAssembly
// module (docs/size.md), and the library only ever formats a handful of
// kinds of values into its error messages: strings, byte slices, errors,
// Stringers, integers, floats and booleans. Errorf, Sprintf and Appendf
// format those with fmt's verbs and produce the same text fmt would;
// Errorf wraps its %w operands the way fmt.Errorf does, so errors.Is and
// errors.As see through it. A value of any other type prints as
// "%!v(unsupported)" — a programmer error the package's tests keep out of
// the library.
//
// Supported: %v %s %q %d %x %X %w %t %c and %%, on those types and on
// []string and []any of them, the flags '#' (0x prefix)
// and '0' (zero padding), a width, and a precision for strings (%.20s).
//
// All functions are safe for concurrent use.
package errf

import (
	"errors"
	"strconv"
	"unicode/utf8"
)

// stringer is fmt.Stringer, declared here so that fmt is not imported.
type stringer interface{ String() string }

// Errorf formats like fmt.Errorf: the message, and the %w operands wrapped
// (one: Unwrap() error; several: Unwrap() []error). Safe for concurrent use.
func Errorf(format string, a ...any) error {
	var wrapped []error
	msg := string(appendf(nil, format, a, &wrapped))
	switch len(wrapped) {
	case 0:
		return &plainError{msg}
	case 1:
		return &wrapError{msg: msg, err: wrapped[0]}
	}
	return &wrapErrors{msg, wrapped}
}

// Sprintf formats like fmt.Sprintf. Safe for concurrent use.
func Sprintf(format string, a ...any) string { return string(appendf(nil, format, a, nil)) }

// Appendf formats like fmt.Appendf. Safe for concurrent use.
func Appendf(dst []byte, format string, a ...any) []byte { return appendf(dst, format, a, nil) }

type plainError struct{ msg string }

func (e *plainError) Error() string { return e.msg }

type wrapError struct {
	_   [0]func() // not comparable: no generated equality
	msg string
	err error
}

func (e *wrapError) Error() string { return e.msg }
func (e *wrapError) Unwrap() error { return e.err }

type wrapErrors struct {
	msg  string
	errs []error
}

func (e *wrapErrors) Error() string   { return e.msg }
func (e *wrapErrors) Unwrap() []error { return e.errs }

// spec is one parsed verb.
type spec struct {
	verb  byte
	sharp bool
	zero  bool
	minus bool
	plus  bool
	width int
	prec  int // -1: none
}

func appendf(dst []byte, format string, a []any, wrapped *[]error) []byte {
	arg := 0
	for i := 0; i < len(format); {
		c := format[i]
		if c != '%' {
			j := i + 1
			for j < len(format) && format[j] != '%' {
				j++
			}
			dst = add(dst, format[i:j])
			i = j
			continue
		}
		i++
		if i >= len(format) {
			dst = add(dst, "%!(NOVERB)")
			break
		}
		s := spec{prec: -1}
	flags:
		for ; i < len(format); i++ {
			switch format[i] {
			case '#':
				s.sharp = true
			case '0':
				s.zero = true
			case '-':
				s.minus = true
			case '+':
				s.plus = true
			default:
				break flags
			}
		}
		for i < len(format) && format[i] >= '0' && format[i] <= '9' {
			s.width = s.width*10 + int(format[i]-'0')
			i++
		}
		if i < len(format) && format[i] == '.' {
			i++
			s.prec = 0
			for i < len(format) && format[i] >= '0' && format[i] <= '9' {
				s.prec = s.prec*10 + int(format[i]-'0')
				i++
			}
		}
		if i >= len(format) {
			dst = add(dst, "%!(NOVERB)")
			break
		}
		s.verb = format[i]
		i++
		if s.verb == '%' {
			dst = add(dst, "%")
			continue
		}
		if arg >= len(a) {
			dst = badVerb(dst, s.verb, "MISSING")
			continue
		}
		v := a[arg]
		arg++
		if s.verb == 'w' {
			if err, ok := v.(error); ok && wrapped != nil {
				*wrapped = append(*wrapped, err)
				s.verb = 'v'
			} else if wrapped == nil || v == nil {
				// fmt: %w outside Errorf, or a nil operand, is a bad verb.
				dst = add(dst, "%!w(")
				dst = appendValue(dst, spec{verb: 'v', prec: -1}, v)
				dst = add(dst, ")")
				continue
			} else {
				s.verb = 'v'
			}
		}
		dst = appendValue(dst, s, v)
	}
	if arg < len(a) {
		dst = add(dst, "%!(EXTRA ")
		for k, v := range a[arg:] {
			if k > 0 {
				dst = add(dst, ", ")
			}
			dst = add(add(dst, typeName(v)), "=")
			dst = appendValue(dst, spec{verb: 'v', prec: -1}, v)
		}
		dst = add(dst, ")")
	}
	return dst
}

// typeName names the supported types for the EXTRA note.
func typeName(v any) string {
	switch v.(type) {
	case string:
		return "string"
	case int:
		return "int"
	case int64:
		return "int64"
	case bool:
		return "bool"
	case error:
		return "error"
	}
	return "?"
}

// appendValue formats one operand. The cases meet at one call per way of
// writing a value (a call costs much code in WebAssembly).
func appendValue(dst []byte, s spec, v any) []byte {
	var n int64       // an integer, as int64 bits
	var f float64     // a float of bits bits
	var str string    // a string, or a text to pad or to put in a bad-verb note
	kind := byte('s') // 's' string, 'p' padded text, 'b' bad verb, 'i'/'u' integer, 'f' float
	bits := 64
	switch x := v.(type) {
	case nil:
		str, kind = "<nil>", 'b'
		if s.verb == 'v' {
			kind = 'p'
		}
	case string:
		str = x
	case []byte:
		if s.verb == 'v' || s.verb == 'd' {
			return appendByteList(dst, x)
		}
		str = string(x)
	case error:
		str = x.Error()
	case stringer:
		str = x.String()
	case bool:
		str, kind = "bad", 'b'
		if s.verb == 'v' || s.verb == 't' {
			str, kind = strconv.FormatBool(x), 'p'
		}
	case int:
		n, kind = int64(x), 'i'
	case int8:
		n, kind = int64(x), 'i'
	case int16:
		n, kind = int64(x), 'i'
	case int32:
		n, kind = int64(x), 'i'
	case int64:
		n, kind = x, 'i'
	case uint:
		n, kind = int64(x), 'u'
	case uint8:
		n, kind = int64(x), 'u'
	case uint16:
		n, kind = int64(x), 'u'
	case uint32:
		n, kind = int64(x), 'u'
	case uint64:
		n, kind = int64(x), 'u'
		if x > 1<<63-1 && (s.verb == 'd' || s.verb == 'v') {
			str, kind = strconv.FormatUint(x, 10), 'p'
		}
	case []string:
		dst = add(dst, "[")
		for i, e := range x {
			if i > 0 {
				dst = add(dst, " ")
			}
			dst = appendString(dst, spec{verb: s.verb, prec: -1}, e)
		}
		return add(dst, "]")
	case []any:
		dst = add(dst, "[")
		for i, e := range x {
			if i > 0 {
				dst = add(dst, " ")
			}
			dst = appendValue(dst, spec{verb: s.verb, prec: -1}, e)
		}
		return add(dst, "]")
	case float64:
		f, kind = x, 'f'
	case float32:
		f, kind, bits = float64(x), 'f', 32
	default:
		str, kind = "unsupported", 'b'
	}
	switch kind {
	case 'i', 'u':
		return appendInt(dst, s, n, kind == 'u')
	case 'f':
		return appendFloat(dst, s, f, bits)
	case 'p':
		return pad(dst, s, str)
	case 'b':
		return badVerb(dst, s.verb, str)
	}
	return appendString(dst, s, str)
}

// badVerb appends fmt's note for a verb that does not fit its operand.
func badVerb(dst []byte, verb byte, x string) []byte {
	dst = append(add(dst, "%!"), verb)
	return add(add(add(dst, "("), x), ")")
}

func appendString(dst []byte, s spec, x string) []byte {
	if s.prec >= 0 && (s.verb == 's' || s.verb == 'v' || s.verb == 'q') {
		n := 0
		for i := range x {
			if n == s.prec {
				x = x[:i]
				break
			}
			n++
		}
	}
	switch s.verb {
	case 'v', 's':
	case 'q':
		if s.sharp && strconv.CanBackquote(x) {
			x = "`" + x + "`"
		} else {
			x = strconv.Quote(x)
		}
	case 'x', 'X':
		out := make([]byte, 0, 2*len(x)+2)
		if s.sharp {
			out = append(out, '0', s.verb)
		}
		for i := 0; i < len(x); i++ {
			out = appendHexByte(out, s.verb, x[i])
		}
		x = string(out)
	default:
		return badVerb(dst, s.verb, x)
	}
	return pad(dst, s, x)
}

// appendHexByte appends c as two hex digits, upper case for the verb 'X'.
func appendHexByte(dst []byte, verb, c byte) []byte {
	digits := "0123456789abcdef"
	if verb == 'X' {
		digits = "0123456789ABCDEF"
	}
	return append(dst, digits[c>>4], digits[c&15])
}

func appendByteList(dst []byte, b []byte) []byte {
	dst = add(dst, "[")
	for i, c := range b {
		if i > 0 {
			dst = add(dst, " ")
		}
		dst = strconv.AppendUint(dst, uint64(c), 10)
	}
	return add(dst, "]")
}

// appendInt formats an integer (unsigned: n holds a uint64's bits).
func appendInt(dst []byte, s spec, n int64, unsigned bool) []byte {
	var buf [24]byte
	b := buf[:0] // the sign and prefix, then the digits
	u := uint64(n)
	if !unsigned && n < 0 {
		b = append(b, '-')
		u = -u
	}
	var str string // the text of %c and %q
	base := 10
	switch s.verb {
	case 'v', 'd':
		if s.plus && n >= 0 {
			b = append(b, '+')
		}
	case 'x', 'X':
		base = 16
		if s.sharp {
			b = append(b, '0', s.verb)
		}
	case 'c':
		str = string(rune(n))
	case 'q':
		str = strconv.QuoteRune(rune(n))
	default:
		return badVerb(dst, s.verb, strconv.FormatInt(n, 10))
	}
	if str == "" {
		p := len(b)
		b = strconv.AppendUint(b, u, base)
		if s.verb == 'X' {
			for i := p; i < len(b); i++ {
				if b[i] >= 'a' {
					b[i] -= 'a' - 'A'
				}
			}
		}
		for s.zero && !s.minus && len(b) < s.width {
			// zero padding goes between the sign or prefix and the digits
			b = append(b, 0)
			copy(b[p+1:], b[p:])
			b[p] = '0'
		}
		s.zero = false
		str = string(b)
	}
	return pad(dst, s, str)
}

func appendFloat(dst []byte, s spec, f float64, bits int) []byte {
	switch s.verb {
	case 'v', 'g':
		prec := s.prec
		return pad(dst, s, strconv.FormatFloat(f, 'g', prec, bits))
	case 'f', 'e':
		prec := s.prec
		if prec < 0 {
			prec = 6
		}
		return pad(dst, s, strconv.FormatFloat(f, s.verb, prec, bits))
	}
	return badVerb(dst, s.verb, strconv.FormatFloat(f, 'g', -1, bits))
}

// pad appends x padded with spaces to the width (left unless '-').
func pad(dst []byte, s spec, x string) []byte {
	k := s.width - utf8.RuneCountInString(x) // the padding
	if !s.minus {
		fill := " "
		if s.zero && (s.verb == 's' || s.verb == 'v' || s.verb == 'q') {
			fill = "0"
		}
		for ; k > 0; k-- {
			dst = add(dst, fill)
		}
	}
	dst = add(dst, x)
	for ; k > 0; k-- {
		dst = add(dst, " ")
	}
	return dst
}

// add appends x: a call instead of an append inlined at each site.
func add(dst []byte, x string) []byte { return append(dst, x...) }

// As is errors.As for a target of a concrete error type: it reports whether
// an error in err's tree is a T (or says so through an As method) and, if
// so, sets *target to it; otherwise *target is left alone. It stands on
// errors.AsType, so a module that calls As instead of errors.As links no
// reflection for it (errors.As checks its target's type at run time through
// internal/reflectlite, ≈ 25 KB of WebAssembly code). Safe for concurrent
// use.
func As[T error](err error, target *T) bool {
	v, ok := errors.AsType[T](err)
	if ok {
		*target = v
	}
	return ok
}
