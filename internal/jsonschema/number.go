package jsonschema

import (
	"bytes"
	"math"
	"math/bits"
	"strconv"

	"github.com/mcpwasm/mcpwasm/internal/jsonscan"
)

// dec is an exact decimal number: ±0.d × 10^exp, where d holds ASCII digits
// without leading or trailing zeros. Zero has an empty d and neg == false.
type dec struct {
	neg bool
	d   []byte
	exp int
}

const maxExp = 1 << 40 // clamp for absurd exponents such as 1e999999999999

// parseDec parses a JSON number. The digits are appended to buf[:0].
func parseDec(s string, buf []byte) (dec, bool) {
	var x dec
	i, n := 0, len(s)
	if i < n && s[i] == '-' {
		x.neg = true
		i++
	}
	digits := buf[:0]
	total, lead, point := 0, 0, -1
	for ; i < n; i++ {
		c := s[i]
		if c == '.' {
			if point >= 0 {
				return dec{}, false
			}
			point = total
			continue
		}
		if c < '0' || c > '9' {
			break
		}
		total++
		if c == '0' && len(digits) == 0 {
			lead++
			continue
		}
		digits = append(digits, c)
	}
	if total == 0 {
		return dec{}, false
	}
	if point < 0 {
		point = total
	}
	exp := point - lead
	if i < n && (s[i] == 'e' || s[i] == 'E') {
		i++
		eneg := false
		if i < n && (s[i] == '+' || s[i] == '-') {
			eneg = s[i] == '-'
			i++
		}
		if i == n {
			return dec{}, false
		}
		e := 0
		for ; i < n; i++ {
			c := s[i]
			if c < '0' || c > '9' {
				return dec{}, false
			}
			if e < maxExp {
				e = e*10 + int(c-'0')
			}
		}
		if eneg {
			e = -e
		}
		exp += e
	}
	if i != n {
		return dec{}, false
	}
	for len(digits) > 0 && digits[len(digits)-1] == '0' {
		digits = digits[:len(digits)-1]
	}
	if len(digits) == 0 {
		return dec{}, true
	}
	x.d, x.exp = digits, max(-maxExp, min(maxExp, exp))
	return x, true
}

func (x dec) isInt() bool { return len(x.d) == 0 || x.exp >= len(x.d) }

// toDec converts a numeric instance value. buf should have room for about
// 32 bytes to avoid allocation.
func toDec(v any, buf []byte) (dec, bool) {
	var i int64
	var u uint64
	signed, size := true, 64
	switch v := v.(type) {
	case jsonscan.Number:
		return parseDec(string(v), buf)
	case float32:
		size = 32
		return floatDec(float64(v), size, buf)
	case float64:
		return floatDec(v, size, buf)
	case int:
		i = int64(v)
	case int32:
		i = int64(v)
	case int64:
		i = v
	case uint:
		u, signed = uint64(v), false
	case uint32:
		u, signed = uint64(v), false
	case uint64:
		u, signed = v, false
	default:
		return dec{}, false
	}
	b := strconv.AppendUint(buf[:0], u, 10)
	if signed {
		b = strconv.AppendInt(buf[:0], i, 10)
	}
	// string(b) is short and does not escape: no allocation.
	return parseDec(string(b), b[:0])
}

// floatDec is toDec for a float of the given size in bits.
func floatDec(f float64, size int, buf []byte) (dec, bool) {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return dec{}, false
	}
	b := strconv.AppendFloat(buf[:0], f, 'e', -1, size)
	return parseDec(string(b), b[:0])
}

// isInteger reports whether a numeric instance has no fractional part.
func isInteger(v any) bool {
	if f, ok := v.(float64); ok { // the common case, without a conversion
		return f == math.Trunc(f) && !math.IsInf(f, 0)
	}
	var buf [40]byte
	d, ok := toDec(v, buf[:0])
	return ok && d.isInt()
}

func cmpDec(a, b dec) int {
	switch {
	case a.neg && !b.neg:
		return -1
	case !a.neg && b.neg:
		return 1
	}
	var m int
	switch {
	case len(a.d) == 0 && len(b.d) == 0:
		return 0
	case len(a.d) == 0:
		m = -1
	case len(b.d) == 0:
		m = 1
	case a.exp != b.exp:
		m = 1
		if a.exp < b.exp {
			m = -1
		}
	default:
		m = bytes.Compare(a.d, b.d)
	}
	if a.neg {
		return -m
	}
	return m
}

// isMultiple reports whether a is an integer multiple of b (b > 0), exactly.
func isMultiple(a, b dec) bool {
	if len(a.d) == 0 {
		return true
	}
	// a = A×10^sa, b = B×10^sb with integers A, B that do not end in 0.
	sa, sb := a.exp-len(a.d), b.exp-len(b.d)
	if sa < sb {
		return false // A would need to be divisible by 10
	}
	if len(b.d) > 18 {
		fa, _ := strconv.ParseFloat(string(a.appendTo(nil)), 64)
		fb, _ := strconv.ParseFloat(string(b.appendTo(nil)), 64)
		q := fa / fb
		return !math.IsInf(q, 0) && !math.IsNaN(q) && q == math.Trunc(q)
	}
	var mod uint64
	for _, c := range b.d {
		mod = mod*10 + uint64(c-'0')
	}
	var rem uint64
	for _, c := range a.d {
		rem = (rem*10 + uint64(c-'0')) % mod
	}
	return mulMod(rem, powMod(10, uint64(sa-sb), mod), mod) == 0
}

func mulMod(a, b, m uint64) uint64 {
	hi, lo := bits.Mul64(a, b)
	return bits.Rem64(hi, lo, m)
}

func powMod(base, e, m uint64) uint64 {
	r := uint64(1) % m
	base %= m
	for ; e > 0; e >>= 1 {
		if e&1 == 1 {
			r = mulMod(r, base, m)
		}
		base = mulMod(base, base, m)
	}
	return r
}

// appendTo appends a canonical decimal representation ("-0.123e5").
func (x dec) appendTo(b []byte) []byte {
	if x.neg {
		b = append(b, '-')
	}
	b = append(b, "0."...)
	if len(x.d) == 0 {
		return append(b, '0')
	}
	b = append(b, x.d...)
	b = append(b, 'e')
	return strconv.AppendInt(b, int64(x.exp), 10)
}
