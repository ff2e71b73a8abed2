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
	} else if t, err := time.Parse(time.RFC1123, v); err == nil {
		d = t.Sub(now)
	} else {
		return 0
	}
	return min(max(d, 0), maxRetryAfter)
}

var _ core.TransientError = (*StatusError)(nil)
