//go:build !js && !wasip1

package auth_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpwasm/mcpwasm/auth"
)

// The headless agent follows redirects only within the authorization
// endpoint's origin, up to the redirect URI; a redirect to another host is
// refused without being requested.
func TestHeadlessAgentStaysWithinTheAuthorizationServer(t *testing.T) {
	var elsewhere atomic.Int32
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		elsewhere.Add(1)
		http.Redirect(w, r, "http://127.0.0.1/callback?code=c&state=s", http.StatusFound)
	}))
	t.Cleanup(other.Close)
	var to atomic.Pointer[string] // where /login redirects
	as := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/authorize":
			http.Redirect(w, r, "/login", http.StatusFound) // same origin: followed
		case "/login":
			http.Redirect(w, r, *to.Load(), http.StatusFound)
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(as.Close)
	for _, tc := range []struct {
		name, to string
		want     error
	}{
		{"to the redirect URI", "http://127.0.0.1:4567/callback?code=c&state=s", nil},
		{"to another host", other.URL + "/sso", auth.ErrRedirectMismatch},
		{"to a non-HTTP scheme", "file:///etc/passwd", auth.ErrRedirectMismatch},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ua := auth.Headless(newInner(t))
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			to.Store(&tc.to)
			elsewhere.Store(0)
			cb, err := ua.Authorize(ctx, as.URL+"/authorize?client_id=x")
			if tc.want == nil {
				require.NoError(t, err)
				assert.Equal(t, tc.to, cb)
				return
			}
			assert.ErrorIs(t, err, tc.want)
			assert.Zero(t, elsewhere.Load(), "the other host was requested")
		})
	}
}
