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
	if t, ok := parseTime(s); ok {
		return t, nil
	}
	return time.Time{}, &TimeError{Value: s}
}

func parseTime(s string) (time.Time, bool) {
	if len(s) < len("2006-01-02T15:04:05Z") {
		return time.Time{}, false
	}
	// year, month, day, hour, minute, second: s[0:4], then two digits
	// after each separator.
	var v [6]int
	for k := range v {
		start, end := 0, 4
		if k > 0 {
			start = 2 + 3*k
			end = start + 2
			if s[start-1] != "--T::"[k-1] {
				return time.Time{}, false
			}
		}
		n, ok := timeDigits(s[start:end])
		if !ok {
			return time.Time{}, false
		}
		v[k] = n
	}
	year, month, day := v[0], v[1], v[2]
	if month < 1 || month > 12 || day < 1 || day > daysIn(month, year) || v[3] > 23 || v[4] > 59 || v[5] > 59 {
		return time.Time{}, false
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
			return time.Time{}, false
		}
		nsec, _ = timeDigits(frac)
		for i := len(frac); i < 9; i++ {
			nsec *= 10
		}
		rest = rest[n:]
	}
	loc := time.UTC
	if rest != "Z" {
		if len(rest) != 6 || (rest[0] != '+' && rest[0] != '-') || rest[3] != ':' {
			return time.Time{}, false
		}
		oh, okh := timeDigits(rest[1:3])
		om, okm := timeDigits(rest[4:6])
		if !okh || !okm || oh > 23 || om > 59 {
			return time.Time{}, false
		}
		offset := (oh*60 + om) * 60
		if rest[0] == '-' {
			offset = -offset
		}
		if offset != 0 {
			loc = time.FixedZone("", offset)
		}
	}
	return time.Date(year, time.Month(month), day, v[3], v[4], v[5], nsec, loc), true
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
