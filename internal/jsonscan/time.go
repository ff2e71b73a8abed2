package jsonscan

import (
	"errors"
	"strconv"
	"time"
)

// ErrTime is the error for a timestamp that is not RFC 3339 (wrapped in a
// *TimeError naming the value).
var ErrTime = errors.New("not an RFC 3339 date-time")

// TimeError is a timestamp [ParseTime] could not read: its text starts as
// time.Parse's does ("parsing time \"x\""), then says why in general.
type TimeError struct {
	_     [0]func() // not comparable: no generated equality function
	Value string
}

// Error names the value.
func (e *TimeError) Error() string {
	return "parsing time " + strconv.Quote(e.Value) + ": " + ErrTime.Error()
}

// Unwrap returns ErrTime.
func (e *TimeError) Unwrap() error { return ErrTime }

// UnmarshalTime decodes the JSON value raw into *p as time.Time's
// UnmarshalJSON does — null leaves *p alone, a string must hold an RFC 3339
// date-time ("2006-01-02T15:04:05Z", an optional fraction of up to nine
// digits, "Z" or ±hh:mm) — without calling it: its fallback is time.Parse,
// whose layout engine would otherwise be linked into the WebAssembly
// modules for this one format (docs/size.md). It accepts no more than
// UnmarshalJSON does (FuzzUnmarshalTime) and gives the same instant and
// offset (in UTC for a zero offset, else in a fixed zone).
func UnmarshalTime(raw []byte, p *time.Time) error {
	if IsNullLiteral(raw) { // exactly null, as UnmarshalJSON has it
		return nil
	}
	if len(raw) < 2 || raw[0] != '"' || raw[len(raw)-1] != '"' {
		return errors.New("Time.UnmarshalJSON: input is not a JSON string")
	}
	t, err := ParseTime(string(raw[1 : len(raw)-1]))
	if err != nil {
		return err
	}
	*p = t
	return nil
}

// ParseTime parses an RFC 3339 date-time as time.Time's UnmarshalText
// does (see [UnmarshalTime]).
func ParseTime(s string) (time.Time, error) {
	if len(s) < len("2006-01-02T15:04:05Z") || s[4] != '-' || s[7] != '-' || s[10] != 'T' || s[13] != ':' || s[16] != ':' {
		return time.Time{}, &TimeError{Value: s}
	}
	year, ok1 := timeDigits(s[0:4])
	month, ok2 := timeDigits(s[5:7])
	day, ok3 := timeDigits(s[8:10])
	hour, ok4 := timeDigits(s[11:13])
	minute, ok5 := timeDigits(s[14:16])
	sec, ok6 := timeDigits(s[17:19])
	if !(ok1 && ok2 && ok3 && ok4 && ok5 && ok6) || month < 1 || month > 12 || day < 1 || day > daysIn(month, year) || hour > 23 || minute > 59 || sec > 59 {
		return time.Time{}, &TimeError{Value: s}
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
			return time.Time{}, &TimeError{Value: s}
		}
		v, _ := timeDigits(frac)
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
		oh, okh := timeDigits(rest[1:3])
		om, okm := timeDigits(rest[4:6])
		if !okh || !okm || oh > 23 || om > 59 {
			return time.Time{}, &TimeError{Value: s}
		}
		offset = (oh*60 + om) * 60
		if rest[0] == '-' {
			offset = -offset
		}
	default:
		return time.Time{}, &TimeError{Value: s}
	}
	loc := time.UTC
	if offset != 0 {
		loc = time.FixedZone("", offset)
	}
	return time.Date(year, time.Month(month), day, hour, minute, sec, nsec, loc), nil
}

func timeDigits(s string) (int, bool) {
	n := 0
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
		n = n*10 + int(s[i]-'0')
	}
	return n, s != ""
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
