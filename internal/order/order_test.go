package order

import (
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestStringsSorts checks Strings against slices.Sort on lengths around the
// insertion/heap boundary, with duplicates, sorted and reversed input.
func TestStringsSorts(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{0, 1, 2, 3, short - 1, short, short + 1, 50, 1000} {
		for _, shape := range []string{"random", "sorted", "reversed", "duplicates"} {
			t.Run(strconv.Itoa(n)+"/"+shape, func(t *testing.T) {
				s := make([]string, n)
				for i := range s {
					switch shape {
					case "random":
						s[i] = strconv.Itoa(r.IntN(1 << 20))
					case "sorted":
						s[i] = strconv.Itoa(100000 + i)
					case "reversed":
						s[i] = strconv.Itoa(100000 - i)
					case "duplicates":
						s[i] = strconv.Itoa(r.IntN(3))
					}
				}
				want := slices.Clone(s)
				slices.Sort(want)
				Strings(s)
				assert.Equal(t, want, s)
			})
		}
	}
}

// FuzzStrings holds Strings to slices.Sort on arbitrary lists.
func FuzzStrings(f *testing.F) {
	f.Add([]byte("b\x00a\x00c\x00a"))
	f.Fuzz(func(t *testing.T, b []byte) {
		var s []string
		start := 0
		for i, c := range b {
			if c == 0 {
				s = append(s, string(b[start:i]))
				start = i + 1
			}
		}
		s = append(s, string(b[start:]))
		want := slices.Clone(s)
		slices.Sort(want)
		Strings(s)
		if !slices.Equal(want, s) {
			t.Fatalf("Strings = %q, want %q", s, want)
		}
	})
}
