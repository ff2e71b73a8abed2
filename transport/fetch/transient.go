package fetch

import (
	"strconv"
	"strings"
	"time"

	"github.com/mcpwasm/mcpwasm/core"
)

// maxRetryAfter caps a server's Retry-After: a day-long value is not a
// reason to hold a call.
const maxRetryAfter = 5 * time.Minute

// Transient reports whether the status is one a later attempt may cure:
// 429 Too Many Requests, 502 Bad Gateway, 503 Service Unavailable and 504
// Gateway Timeout (core.RetryPolicy decides whether to repeat).
func (e *StatusError) Transient() bool {
	switch e.StatusCode {
	case 429, 502, 503, 504:
		return true
	}
	return false
}

// RetryAfter returns the delay of the answer's Retry-After header (seconds
// or an HTTP date), at most five minutes; 0 when there is none.
func (e *StatusError) RetryAfter() time.Duration {
	if e.Header == nil {
		return 0
	}
	return parseRetryAfter(e.Header.Get("Retry-After"), time.Now())
}

func parseRetryAfter(v string, now time.Time) time.Duration {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0
	}
	var d time.Duration
	if n, err := strconv.ParseInt(v, 10, 64); err == nil {
		if n <= 0 {
			return 0
		}
		if n > int64(maxRetryAfter/time.Second) {
			return maxRetryAfter
		}
		d = time.Duration(n) * time.Second
	} else if t, ok := parseHTTPDate(v); ok {
		d = t.Sub(now)
	} else {
		return 0
	}
	return min(max(d, 0), maxRetryAfter)
}

var _ core.TransientError = (*StatusError)(nil)

var httpMonths = [12]string{"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"}

// parseHTTPDate reads an HTTP date in its IMF-fixdate form, "Sun, 06 Nov
// 1994 08:49:37 GMT" (RFC 9110 §5.6.7; "UTC" accepted for "GMT"), by
// hand: time.Parse would link time's whole layout engine into the
// WebAssembly modules for this one format (docs/size.md).
func parseHTTPDate(s string) (time.Time, bool) {
	if len(s) != len("Sun, 06 Nov 1994 08:49:37 GMT") || s[3] != ',' || s[4] != ' ' || s[7] != ' ' || s[11] != ' ' || s[16] != ' ' || s[19] != ':' || s[22] != ':' || s[25] != ' ' {
		return time.Time{}, false
	}
	if zone := s[26:]; zone != "GMT" && zone != "UTC" {
		return time.Time{}, false
	}
	if !strings.Contains("Sun Mon Tue Wed Thu Fri Sat", s[:3]) || strings.Contains(s[:3], " ") {
		return time.Time{}, false
	}
	month := 0
	for i, m := range httpMonths {
		if s[8:11] == m {
			month = i + 1
		}
	}
	// The numbers: day, year, hour, minute, second (start and end offsets).
	var f [5]int
	for i, r := range [5][2]uint8{{5, 7}, {12, 16}, {17, 19}, {20, 22}, {23, 25}} {
		for _, c := range []byte(s[r[0]:r[1]]) {
			if c < '0' || c > '9' {
				return time.Time{}, false
			}
			f[i] = f[i]*10 + int(c-'0')
		}
	}
	day, year, hour, minute, sec := f[0], f[1], f[2], f[3], f[4]
	if month == 0 || day < 1 || hour > 23 || minute > 59 || sec > 59 {
		return time.Time{}, false
	}
	days := 31 // in the month: no 31 Nov and the like
	switch month {
	case 4, 6, 9, 11:
		days = 30
	case 2:
		days = 28
		if year%4 == 0 && (year%100 != 0 || year%400 == 0) {
			days = 29
		}
	}
	if day > days {
		return time.Time{}, false
	}
	return time.Date(year, time.Month(month), day, hour, minute, sec, 0, time.UTC), true
}
