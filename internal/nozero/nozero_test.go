package nozero

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestBytes(t *testing.T) {
	for _, n := range []int{-1, 0, 1, 7, 4096, 1 << 20} {
		b := Bytes(n)
		require.NotNil(t, b)
		assert.Equal(t, max(n, 0), len(b))
		for i := range b {
			b[i] = byte(i)
		}
		c := Bytes(n)
		if n > 0 {
			assert.NotSame(t, &b[0], &c[0], "each call is an allocation of its own")
		}
		for i := range b {
			if b[i] != byte(i) {
				t.Fatalf("byte %d changed", i)
			}
		}
	}
}

func BenchmarkBytes(b *testing.B) {
	b.Run("make", func(b *testing.B) {
		for b.Loop() {
			_ = make([]byte, 1<<20)
		}
	})
	b.Run("Bytes", func(b *testing.B) {
		for b.Loop() {
			_ = Bytes(1 << 20)
		}
	})
}

func TestGrow(t *testing.T) {
	b := []byte("abc")
	g := Grow(b, 2)
	assert.Same(t, &b[0], &g[0], "room enough: the same slice")
	g = Grow(b, 100)
	assert.Equal(t, "abc", string(g))
	assert.GreaterOrEqual(t, cap(g), 100)
	g = append(g, 'd')
	assert.Equal(t, "abc", string(b), "the original is untouched")
	assert.Empty(t, Grow(nil, 0))
}
