package auth

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// expires_in from the server never turns a fresh token into an expired
// one: huge values are capped, negative or malformed ones ignored.
func TestExpiresInNeverExpiresAFreshToken(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	d := NewDoer(nil, &Options{Now: func() time.Time { return now }})
	for _, tc := range []struct {
		expiresIn string
		want      time.Duration // 0: no expiry recorded
	}{
		{`3600`, time.Hour},
		{`"3600"`, time.Hour},
		{`3599.9`, 3599 * time.Second},
		{`0`, 0 * time.Second},
		{`9.2e9`, maxTokenLifetime},
		{`9223372036`, maxTokenLifetime},
		{`9223372036854775807`, maxTokenLifetime},
		{`1e308`, maxTokenLifetime},
		{`-5`, 0},
		{`-1e308`, 0},
		{`"NaN"`, 0},
		{`"Inf"`, 0},
		{`"soon"`, 0},
		{`true`, 0},
		{`{"s":1}`, 0},
		{`null`, 0},
	} {
		tok, err := d.parseToken([]byte(`{"access_token":"a","token_type":"Bearer","expires_in":`+tc.expiresIn+`}`), false)
		require.NoError(t, err, tc.expiresIn)
		if tc.want == 0 && tc.expiresIn != `0` {
			assert.True(t, tok.Expiry.IsZero(), "%s: expiry %v", tc.expiresIn, tok.Expiry)
			assert.False(t, tok.expired(now), tc.expiresIn)
			continue
		}
		assert.Equal(t, now.Add(tc.want), tok.Expiry, tc.expiresIn)
		if tc.want > time.Minute {
			assert.False(t, tok.expired(now), "%s: a fresh token counts as expired", tc.expiresIn)
		}
	}
}

func TestCreatedTextToTheSecond(t *testing.T) {
	for _, tm := range []time.Time{
		time.Date(2026, 12, 2, 12, 34, 56, 789000000, time.UTC),
		time.Date(2026, 12, 2, 12, 34, 56, 0, time.FixedZone("", -5*3600-30*60)),
		time.Date(1, 1, 1, 0, 0, 0, 1, time.UTC),
		time.Date(9999, 12, 31, 23, 59, 59, 999999999, time.FixedZone("", 3600)),
		time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC),
		time.Date(-1, 1, 1, 0, 0, 0, 0, time.UTC),
		time.Now(),
	} {
		want := "an unknown time"
		if b, err := tm.Truncate(time.Second).MarshalText(); err == nil {
			want = string(b)
		}
		if got := createdText(tm); got != want {
			t.Errorf("createdText(%v) = %q, want %q", tm, got, want)
		}
	}
}
