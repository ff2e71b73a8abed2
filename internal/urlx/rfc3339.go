package urlx

import (
	"errors"
	"time"
)

// AppendRFC3339 appends t as time's MarshalText writes it (RFC 3339, with
// the fraction of a second when nanos is set) and refuses the times
// MarshalText refuses, with time's error texts after prefix. It goes
// through AppendFormat, which the modules link anyway, instead of
// MarshalJSON and MarshalText; it lives here because auth and authjson
// both link urlx.
func AppendRFC3339(b []byte, t time.Time, nanos bool, prefix string) ([]byte, error) {
	n0 := len(b)
	layout := time.RFC3339
	if nanos {
		layout = time.RFC3339Nano
	}
	b = t.AppendFormat(b, layout)
	// time's appendStrictRFC3339: the year takes exactly 4 digits, the
	// zone's hours 2 and below 24.
	if b[n0+4] != '-' {
		return nil, errors.New(prefix + "year outside of range [0,9999]")
	}
	if n := len(b); b[n-1] != 'Z' {
		if c := b[n-6]; '0' <= c && c <= '9' || 10*(b[n-5]-'0')+b[n-4]-'0' >= 24 {
			return nil, errors.New(prefix + "timezone hour outside of range [0,23]")
		}
	}
	return b, nil
}
