// Package rfctime reads and writes the two timestamp formats the library
// meets on the wire — RFC 3339 (task timestamps, stored authorizations)
// and the HTTP date of Retry-After (RFC 9110 §5.6.7, IMF-fixdate) —
// without time.Parse and time.Format, whose layout engine is a sizeable
// part of a WebAssembly module and parses far more than these formats.
//
// All functions are safe for concurrent use.
package rfctime

import (
	"errors"
	"strconv"
	"time"
)

// ErrSyntax is returned for a timestamp that is not in the expected format.
var ErrSyntax = errors.New("rfctime: malformed timestamp")

// ParseRFC3339 parses an RFC 3339 date-time ("2006-01-02T15:04:05Z",
// with an optional fraction of up to nine digits and a "Z" or ±hh:mm
// offset) — no more than time.Parse(time.RFC3339Nano, s) accepts. The result
// is in UTC when the offset is zero, else in a fixed zone of that offset.
func ParseRFC3339(s string) (time.Time, error) {
	if len(s) < len("2006-01-02T15:04:05Z") || s[4] != '-' || s[7] != '-' || s[10] != 'T' || s[13] != ':' || s[16] != ':' {
		return time.Time{}, ErrSyntax
	}
	year, ok1 := digits(s[0:4])
	month, ok2 := digits(s[5:7])
	day, ok3 := digits(s[8:10])
	hour, ok4 := digits(s[11:13])
	minute, ok5 := digits(s[14:16])
	sec, ok6 := digits(s[17:19])
	if !(ok1 && ok2 && ok3 && ok4 && ok5 && ok6) || month < 1 || month > 12 || day < 1 || day > daysIn(month, year) || hour > 23 || minute > 59 || sec > 59 {
		return time.Time{}, ErrSyntax
	}
	rest := s[19:]
	nsec := 0
	if len(rest) > 0 && rest[0] == '.' {
		n := 1
		for n < len(rest) && rest[n] >= '0' && rest[n] <= '9' {
			n++
		}
		frac := rest[1:n]
		if len(frac) == 0 || len(frac) > 9 {
			return time.Time{}, ErrSyntax
		}
		v, _ := digits(frac)
		for i := len(frac); i < 9; i++ {
			v *= 10
		}
		nsec = v
		rest = rest[n:]
	}
	offset := 0
	switch {
	case rest == "Z":
	case len(rest) == 6 && (rest[0] == '+' || rest[0] == '-') && rest[3] == ':':
		oh, okh := digits(rest[1:3])
		om, okm := digits(rest[4:6])
		if !okh || !okm || oh > 23 || om > 59 {
			return time.Time{}, ErrSyntax
		}
		offset = (oh*60 + om) * 60
		if rest[0] == '-' {
			offset = -offset
		}
	default:
		return time.Time{}, ErrSyntax
	}
	loc := time.UTC
	if offset != 0 {
		loc = time.FixedZone("", offset)
	}
	return time.Date(year, time.Month(month), day, hour, minute, sec, nsec, loc), nil
}

// AppendRFC3339 appends t in RFC 3339 with as many fraction digits as
// needed (none for whole seconds) — time.RFC3339Nano's output — in t's
// own offset ("Z" for UTC).
func AppendRFC3339(dst []byte, t time.Time) []byte {
	year, month, day := t.Date()
	hour, minute, sec := t.Clock()
	dst = pad(dst, year, 4)
	dst = append(dst, '-')
	dst = pad(dst, int(month), 2)
	dst = append(dst, '-')
	dst = pad(dst, day, 2)
	dst = append(dst, 'T')
	dst = pad(dst, hour, 2)
	dst = append(dst, ':')
	dst = pad(dst, minute, 2)
	dst = append(dst, ':')
	dst = pad(dst, sec, 2)
	if ns := t.Nanosecond(); ns != 0 {
		var frac [9]byte
		for i := 8; i >= 0; i-- {
			frac[i] = byte('0' + ns%10)
			ns /= 10
		}
		n := 9
		for n > 0 && frac[n-1] == '0' {
			n--
		}
		dst = append(dst, '.')
		dst = append(dst, frac[:n]...)
	}
	_, off := t.Zone()
	if off == 0 {
		return append(dst, 'Z')
	}
	sign := byte('+')
	if off < 0 {
		sign, off = '-', -off
	}
	dst = append(dst, sign)
	dst = pad(dst, off/3600, 2)
	dst = append(dst, ':')
	return pad(dst, off%3600/60, 2)
}

// FormatRFC3339 is AppendRFC3339 into a new string.
func FormatRFC3339(t time.Time) string { return string(AppendRFC3339(nil, t)) }

var months = [12]string{"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"}
var days = [7]string{"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"}

// ParseHTTPDate parses an HTTP date in the preferred IMF-fixdate form,
// "Sun, 06 Nov 1994 08:49:37 GMT" (RFC 9110 §5.6.7); "UTC" is accepted
// for "GMT". The result is in UTC. The weekday is checked for its form,
// not against the date, as time.Parse does.
func ParseHTTPDate(s string) (time.Time, error) {
	if len(s) != len("Sun, 06 Nov 1994 08:49:37 GMT") || s[3] != ',' || s[4] != ' ' || s[7] != ' ' || s[11] != ' ' || s[16] != ' ' || s[19] != ':' || s[22] != ':' || s[25] != ' ' {
		return time.Time{}, ErrSyntax
	}
	if zone := s[26:]; zone != "GMT" && zone != "UTC" {
		return time.Time{}, ErrSyntax
	}
	okDay := false
	for _, d := range days {
		if s[:3] == d {
			okDay = true
		}
	}
	month := 0
	for i, m := range months {
		if s[8:11] == m {
			month = i + 1
		}
	}
	day, ok1 := digits(s[5:7])
	year, ok2 := digits(s[12:16])
	hour, ok3 := digits(s[17:19])
	minute, ok4 := digits(s[20:22])
	sec, ok5 := digits(s[23:25])
	if !okDay || month == 0 || !(ok1 && ok2 && ok3 && ok4 && ok5) || day < 1 || day > daysIn(month, year) || hour > 23 || minute > 59 || sec > 59 {
		return time.Time{}, ErrSyntax
	}
	return time.Date(year, time.Month(month), day, hour, minute, sec, 0, time.UTC), nil
}

func digits(s string) (int, bool) {
	if s == "" {
		return 0, false
	}
	n := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, true
}

func daysIn(month, year int) int {
	switch month {
	case 2:
		if year%4 == 0 && (year%100 != 0 || year%400 == 0) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}

func pad(dst []byte, n, width int) []byte {
	s := strconv.Itoa(n)
	for i := len(s); i < width; i++ {
		dst = append(dst, '0')
	}
	return append(dst, s...)
}
