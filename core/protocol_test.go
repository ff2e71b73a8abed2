package core

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSupportedVersionsIsACopy(t *testing.T) {
	tests := []struct {
		name   string
		mutate func(t *testing.T) []string // returns what the next caller should still see
	}{
		{"a caller's change does not reach the next call", func(t *testing.T) []string {
			t.Helper()
			v := SupportedVersions()
			want := append([]string(nil), v...)
			v[0] = "1999-01-01"
			return want
		}},
		{"a client's default does not share it", func(t *testing.T) []string {
			t.Helper()
			c := NewClient(&Implementation{Name: "x", Version: "1"}, nil)
			want := SupportedVersions()
			c.opts.ProtocolVersions[0] = "1999-01-01"
			return want
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			want := tt.mutate(t)
			assert.Equal(t, want, SupportedVersions())
			assert.Equal(t, Version20260728, SupportedVersions()[0])
		})
	}
}

func TestClientKeepsItsOwnProtocolVersions(t *testing.T) {
	versions := []string{Version20251125}
	c := NewClient(&Implementation{Name: "x", Version: "1"}, &ClientOptions{ProtocolVersions: versions})
	versions[0] = Version20260728
	require.Len(t, c.opts.ProtocolVersions, 1)
	assert.Equal(t, Version20251125, c.opts.ProtocolVersions[0], "the caller's later change does not reach the client")
}
