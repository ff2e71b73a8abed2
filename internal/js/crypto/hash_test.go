//go:build js

package jscrypto

import (
	"bytes"
	"crypto/sha256"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSum256MatchesCryptoSHA256(t *testing.T) {
	for _, n := range []int{0, 1, 3, 55, 56, 57, 63, 64, 65, 119, 120, 128, 1000, 4097} {
		data := bytes.Repeat([]byte{byte(n), 'x', 0xff}, n/3+1)[:n]
		assert.Equal(t, sha256.Sum256(data), Sum256(data), "length %d", n)
	}
	// FIPS 180-4 example.
	want := sha256.Sum256([]byte("abc"))
	assert.Equal(t, want, Sum256([]byte("abc")))
}

func TestReader(t *testing.T) {
	a, b := make([]byte, 70000), make([]byte, 70000)
	n, err := Reader{}.Read(a)
	require.NoError(t, err)
	require.Equal(t, len(a), n)
	_, err = Reader{}.Read(b)
	require.NoError(t, err)
	require.NotEqual(t, a, b)
	zeros := 0
	tail := a[65536:]
	for _, c := range tail {
		if c == 0 {
			zeros++
		}
	}
	assert.Less(t, zeros, len(tail)/16, "bytes past the first 64 KiB are filled too (about 1 in 256 is zero)")
}
