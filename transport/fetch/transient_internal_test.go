package fetch

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

// TestParseRetryAfterHTTPDates: seconds and IMF-fixdate HTTP dates (RFC 9110
// §10.2.3), capped; anything else is no delay. The dates are checked
// against time.Parse(time.RFC1123), which the hand-written reader replaces.
func TestParseRetryAfterHTTPDates(t *testing.T) {
	now := time.Date(2026, 12, 2, 6, 0, 0, 0, time.UTC)
	tests := []struct {
		in   string
		want time.Duration
	}{
		{"", 0},
		{"7", 7 * time.Second},
		{" 7 ", 7 * time.Second},
		{"-3", 0},
		{"86400", maxRetryAfter},
		{"Wed, 02 Dec 2026 06:00:30 GMT", 30 * time.Second},
		{"Wed, 02 Dec 2026 06:02:00 UTC", 2 * time.Minute},
		{"Wed, 02 Dec 2026 05:00:00 GMT", 0},
		{"Thu, 03 Dec 2026 06:00:00 GMT", maxRetryAfter},
		{"Wed, 02 Dec 2026 06:00:30 PST", 0},
		{"Wed, 31 Nov 2026 06:00:30 GMT", 0},
		{"Wednesday, 02-Dec-26 06:00:30 GMT", 0},
		{"Wed Dec  2 06:00:30 2026", 0},
		{"Wed, 02 Dec 2026 24:00:30 GMT", 0},
		{"soon", 0},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			assert.Equal(t, tt.want, parseRetryAfter(tt.in, now))
		})
	}
	for _, in := range []string{"Sun, 06 Nov 1994 08:49:37 GMT", "Thu, 29 Feb 2024 23:59:59 GMT", "Fri, 01 Jan 2100 00:00:00 GMT", "Tue, 29 Feb 2000 12:00:00 GMT", "Sat, 30 Apr 2022 00:00:00 GMT"} {
		got, ok := parseHTTPDate(in)
		want, err := time.Parse(time.RFC1123, in)
		assert.True(t, ok, in)
		assert.NoError(t, err)
		assert.True(t, want.Equal(got), in)
	}
	_, ok := parseHTTPDate("Sat, 29 Feb 2025 00:00:00 GMT")
	assert.False(t, ok, "29 February of a common year")
	_, ok = parseHTTPDate("Mon, 29 Feb 2100 00:00:00 GMT")
	assert.False(t, ok, "29 February of a century that is not a leap year")
	_, ok = parseHTTPDate("Sun, 31 Apr 2022 00:00:00 GMT")
	assert.False(t, ok, "31 April")
}
