package jsonscan

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var timeSeeds = []string{
	`"2025-11-25T10:30:00Z"`, `"2025-11-25T10:30:00.5Z"`, `"2025-11-25T10:30:00.123456789Z"`, `"2024-02-29T23:59:59+05:30"`,
	`"2025-01-01T00:00:00-08:00"`, `"2023-02-29T00:00:00Z"`, `"2025-13-01T00:00:00Z"`, `"2025-11-25T24:00:00Z"`,
	`"2025-11-25T10:30:00"`, `"2025-11-25T10:30:00.Z"`, `"2025-11-25T10:30:00.1234567890Z"`, `"2025-11-25t10:30:00z"`,
	`"2025-11-25 10:30:00Z"`, `"2025-11-25T10:30:00+0530"`, `""`, `"garbage"`, `"2025-11-25T10:30:60Z"`, `null`, `12`,
	`"2025-11-25T10:30:00,5Z"`, `"2025-11-25T10:30:00+24:00"`,
}

// TestUnmarshalTimeLikeTime: what time.Time.UnmarshalJSON refuses is
// refused; what both accept is the same instant at the same offset.
func TestUnmarshalTimeLikeTime(t *testing.T) {
	for _, s := range timeSeeds {
		t.Run(s, func(t *testing.T) { checkTime(t, []byte(s)) })
	}
}

func FuzzUnmarshalTime(f *testing.F) {
	for _, s := range timeSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) { checkTime(t, raw) })
}

func checkTime(t *testing.T, raw []byte) {
	t.Helper()
	var want, got time.Time
	wantErr := want.UnmarshalJSON(raw)
	err := UnmarshalTime(raw, &got)
	if wantErr != nil {
		require.Error(t, err, "time refused %q (%v); UnmarshalTime accepted it", raw, wantErr)
		return
	}
	if err != nil {
		return // stricter than time (e.g. leap-second forms it tolerates): allowed
	}
	assert.True(t, want.Equal(got), "%q: %v vs %v", raw, want, got)
	_, wo := want.Zone()
	_, go_ := got.Zone()
	assert.Equal(t, wo, go_)
}

// TestUnmarshalTimeAccepts: the forms RFC 3339 timestamps take on the wire
// are read (so that being stricter than time costs nothing real).
func TestUnmarshalTimeAccepts(t *testing.T) {
	for _, s := range []string{`"2025-11-25T10:30:00Z"`, `"2025-11-25T10:30:00.123Z"`, `"2025-11-25T10:30:00+01:00"`, `"2025-11-25T10:30:00.000000001-09:30"`} {
		var tm time.Time
		require.NoError(t, UnmarshalTime([]byte(s), &tm), s)
		assert.False(t, tm.IsZero())
	}
	tm := time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)
	require.NoError(t, UnmarshalTime([]byte("null"), &tm))
	assert.Equal(t, 2020, tm.Year(), "null leaves the value alone")
}
