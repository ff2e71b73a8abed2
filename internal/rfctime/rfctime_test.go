package rfctime

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var rfc3339Seeds = []string{
	"2025-11-25T10:30:00Z", "2025-11-25T10:30:00.5Z", "2025-11-25T10:30:00.123456789Z", "2024-02-29T23:59:59+05:30",
	"2025-11-25t10:30:00z", "2025-01-01T00:00:00-08:00", "2023-02-29T00:00:00Z", "2025-13-01T00:00:00Z",
	"2025-11-25T24:00:00Z", "2025-11-25T10:30:00", "2025-11-25T10:30:00.Z", "2025-11-25T10:30:00.1234567890Z",
	"2025-11-25 10:30:00Z", "2025-11-25T10:30:00+0530", "", "garbage", "2025-11-25T10:30:60Z", "+2025-11-25T10:30:00Z",
}

// TestParseRFC3339LikeTime: where time.Parse(RFC3339Nano) accepts, the
// instant and offset are the same; what it refuses is refused.
func TestParseRFC3339LikeTime(t *testing.T) {
	for _, s := range rfc3339Seeds {
		t.Run(s, func(t *testing.T) { checkRFC3339(t, s) })
	}
}

func FuzzParseRFC3339(f *testing.F) {
	for _, s := range rfc3339Seeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) { checkRFC3339(t, s) })
}

func checkRFC3339(t *testing.T, s string) {
	t.Helper()
	want, wantErr := time.Parse(time.RFC3339Nano, s)
	got, err := ParseRFC3339(s)
	if wantErr != nil {
		// time.Parse is laxer in places (e.g. it accepts more than nine
		// fraction digits, a comma as the decimal mark, and hour 24 in
		// some layouts); being stricter is fine, accepting more is not.
		require.Error(t, err, "time.Parse refused %q (%v) but ParseRFC3339 accepted it", s, wantErr)
		return
	}
	if err != nil {
		return // stricter than time.Parse: allowed (see above)
	}
	assert.True(t, want.Equal(got), "%q: %v vs %v", s, want, got)
	_, wantOff := want.Zone()
	_, gotOff := got.Zone()
	assert.Equal(t, wantOff, gotOff)
	assert.Equal(t, want.Format(time.RFC3339Nano), FormatRFC3339(got))
}

func TestFormatRFC3339LikeTime(t *testing.T) {
	for _, tm := range []time.Time{
		time.Date(2025, 11, 25, 10, 30, 0, 0, time.UTC),
		time.Date(2025, 1, 2, 3, 4, 5, 600, time.UTC),
		time.Date(999, 1, 2, 3, 4, 5, 120000000, time.FixedZone("x", -(3*3600+30*60))),
		time.Date(2025, 6, 1, 0, 0, 0, 1, time.FixedZone("", 5*3600+45*60)),
	} {
		assert.Equal(t, tm.Format(time.RFC3339Nano), FormatRFC3339(tm))
	}
}

func TestParseHTTPDate(t *testing.T) {
	tests := []struct {
		in string
		ok bool
	}{
		{"Sun, 06 Nov 1994 08:49:37 GMT", true},
		{"Thu, 29 Feb 2024 23:59:59 GMT", true},
		{"Wed, 02 Dec 2026 06:00:00 UTC", true},
		{"Sun, 06 Nov 1994 08:49:37 PST", false},
		{"Sunday, 06-Nov-94 08:49:37 GMT", false},
		{"Sun Nov  6 08:49:37 1994", false},
		{"Sun, 31 Nov 1994 08:49:37 GMT", false},
		{"Sun, 06 Foo 1994 08:49:37 GMT", false},
		{"Xyz, 06 Nov 1994 08:49:37 GMT", false},
		{"", false},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := ParseHTTPDate(tt.in)
			if !tt.ok {
				assert.ErrorIs(t, err, ErrSyntax)
				return
			}
			require.NoError(t, err)
			want, err := time.Parse(time.RFC1123, tt.in)
			require.NoError(t, err)
			assert.True(t, want.Equal(got))
		})
	}
}
