package fetch

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

func TestReconnectDelay(t *testing.T) {
	clock := time.Unix(0, 0)
	newSt := func(retry time.Duration, perMin int) *reconnect {
		return &reconnect{retry: retry, base: time.Second, perMin: perMin, now: func() time.Time { return clock }}
	}
	t.Run("a server's retry: 1 is floored and jittered, never shortened", func(t *testing.T) {
		st := newSt(time.Millisecond, 1000)
		seen := map[time.Duration]bool{}
		for range 50 {
			d := st.delay()
			assert.GreaterOrEqual(t, d, minRetryDelay)
			assert.LessOrEqual(t, d, minRetryDelay*12/10)
			seen[d] = true
			clock = clock.Add(d)
		}
		assert.Greater(t, len(seen), 1, "jittered")
	})
	t.Run("a server's retry is waited for in full", func(t *testing.T) {
		st := newSt(500*time.Millisecond, 1000)
		for range 50 {
			d := st.delay()
			assert.GreaterOrEqual(t, d, 500*time.Millisecond, "a client MUST wait the retry field's time")
			assert.LessOrEqual(t, d, 600*time.Millisecond)
			clock = clock.Add(d)
		}
	})
	t.Run("an hour's retry is bounded", func(t *testing.T) {
		st := newSt(time.Hour, 20)
		assert.LessOrEqual(t, st.delay(), maxServerRetry*12/10)
	})
	t.Run("backoff without a server retry", func(t *testing.T) {
		st := newSt(0, 1000)
		st.failures = 4
		d := st.delay()
		assert.GreaterOrEqual(t, d, 8*time.Second*8/10)
		assert.LessOrEqual(t, d, 8*time.Second*12/10)
	})
	t.Run("at most perMin attempts in any minute", func(t *testing.T) {
		st := newSt(time.Millisecond, 5)
		var at []time.Time
		for range 40 {
			clock = clock.Add(st.delay())
			at = append(at, clock)
		}
		for i := range at {
			n := 0
			for j := i; j < len(at) && at[j].Sub(at[i]) < time.Minute; j++ {
				n++
			}
			assert.LessOrEqual(t, n, 5, "attempts in the minute from attempt %d", i)
		}
		assert.LessOrEqual(t, len(st.recent), 5, "the record is bounded")
	})
	t.Run("only a delivered message resets the failure count", func(t *testing.T) {
		st := newSt(0, 20)
		st.after(&streamResult{events: 3})
		st.after(&streamResult{events: 1, lastID: "7"})
		assert.Equal(t, 2, st.failures)
		assert.Equal(t, "7", st.lastID)
		st.after(&streamResult{events: 1, msgs: 1})
		assert.Equal(t, 0, st.failures)
	})
}

func TestParseRetryAfter(t *testing.T) {
	now := time.Date(2026, 7, 28, 12, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		in   string
		want time.Duration
	}{
		{"", 0},
		{"2", 2 * time.Second},
		{" 0 ", 0},
		{"-5", 0},
		{"99999999999", maxRetryAfter},
		{"Tue, 28 Jul 2026 12:00:07 GMT", 7 * time.Second},
		{"Tue, 28 Jul 2026 11:00:00 GMT", 0},
		{"soon", 0},
	} {
		t.Run(tc.in, func(t *testing.T) {
			assert.Equal(t, tc.want, parseRetryAfter(tc.in, now))
		})
	}
}
