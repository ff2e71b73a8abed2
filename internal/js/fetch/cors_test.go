package jsfetch_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpwasm/mcpwasm/internal/js/fetch"
)

func TestHiddenByCORS(t *testing.T) {
	for _, tc := range []struct {
		typ, name string
		present   bool
		want      bool
	}{
		{jsfetch.TypeCORS, "Mcp-Session-Id", false, true},
		{jsfetch.TypeCORS, "www-authenticate", false, true},
		{jsfetch.TypeCORS, "Mcp-Session-Id", true, false},
		{jsfetch.TypeCORS, "Content-Type", false, false},
		{jsfetch.TypeCORS, "content-length", false, false},
		{jsfetch.TypeCORS, "PRAGMA", false, false},
		{jsfetch.TypeBasic, "Mcp-Session-Id", false, false},
		{jsfetch.TypeDefault, "Mcp-Session-Id", false, false},
		{jsfetch.TypeOpaque, "Content-Type", false, true},
		{jsfetch.TypeOpaqueRedirect, "Location", false, true},
		{jsfetch.TypeError, "Mcp-Session-Id", false, false},
		{"", "Mcp-Session-Id", false, false},
	} {
		t.Run(tc.typ+"/"+tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, jsfetch.HiddenByCORS(tc.typ, tc.name, tc.present))
		})
	}
}

func TestCheckInit(t *testing.T) {
	require.NoError(t, jsfetch.CheckInit("", "", "", ""))
	require.NoError(t, jsfetch.CheckInit("include", "cors", "no-store", "no-referrer"))
	require.NoError(t, jsfetch.CheckInit("omit", "same-origin", "reload", "strict-origin-when-cross-origin"))
	for _, tc := range []struct {
		credentials, mode, cache, referrerPolicy string
		want                                     string
	}{
		{"always", "", "", "", `credentials "always"`},
		{"", "no-cors", "", "", "opaque responses"},
		{"", "navigate", "", "", `mode "navigate"`},
		{"", "", "forever", "", `cache "forever"`},
		{"", "", "", "nope", `referrerPolicy "nope"`},
	} {
		err := jsfetch.CheckInit(tc.credentials, tc.mode, tc.cache, tc.referrerPolicy)
		require.ErrorIs(t, err, jsfetch.ErrBadOption)
		assert.Contains(t, err.Error(), tc.want)
	}
}
