package urlx

import (
	"testing"
	"time"
)

func TestAppendRFC3339(t *testing.T) {
	zones := []*time.Location{time.UTC, time.FixedZone("", 3600), time.FixedZone("", -5*3600-30*60), time.FixedZone("", 30), time.FixedZone("", -30), time.FixedZone("", 24*3600), time.FixedZone("", -24*3600+1), time.FixedZone("", 23*3600+59*60+59)}
	var times []time.Time
	for _, z := range zones {
		for _, y := range []int{-1, 0, 1, 1582, 1600, 1899, 1900, 1969, 1970, 2000, 2024, 2026, 2100, 9999, 10000} {
			for _, md := range [][2]int{{1, 1}, {2, 28}, {2, 29}, {3, 1}, {12, 31}} {
				for _, ns := range []int{0, 1, 120000000, 999999999} {
					times = append(times, time.Date(y, time.Month(md[0]), md[1], 23, 59, 59, ns, z), time.Date(y, time.Month(md[0]), md[1], 0, 0, 0, ns, z))
				}
			}
		}
	}
	times = append(times, time.Time{}, time.Unix(0, 0), time.Now(), time.Unix(1<<62, 0), time.Unix(-1<<62, 0), time.Unix(1<<63-1, 0), time.Unix(-1<<63, 0))
	for i := int64(-400 * 366); i < 400*366; i += 37 {
		times = append(times, time.Unix(i*86400+i, 0).UTC())
	}
	for _, tm := range times {
		want, werr := tm.MarshalText()
		got, err := AppendRFC3339([]byte("x"), tm, true, "Time.MarshalText: ")
		if (err == nil) != (werr == nil) || err != nil && err.Error() != werr.Error() || err == nil && string(got) != "x"+string(want) {
			t.Errorf("%v: got %q, %v; want %q, %v", tm, got, err, want, werr)
		}
		want, werr = tm.Truncate(time.Second).MarshalText()
		got, err = AppendRFC3339(nil, tm, false, "Time.MarshalText: ")
		if (err == nil) != (werr == nil) || err == nil && string(got) != string(want) {
			t.Errorf("%v: got %q, %v; want %q, %v", tm, got, err, want, werr)
		}
	}
}
