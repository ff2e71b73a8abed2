//go:build !js && !wasip1

package auth_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpwasm/mcpwasm/auth"
)

// redirectingAgent is the user agent of a page that cannot open a popup:
// it sends the whole page to the authorization server (here: records the
// URL) and reports auth.ErrRedirected.
type redirectingAgent struct {
	redirect string

	mu   sync.Mutex
	urls []string
}

func (a *redirectingAgent) RedirectURI() string { return a.redirect }

func (a *redirectingAgent) Authorize(_ context.Context, authURL string) (string, error) {
	a.mu.Lock()
	a.urls = append(a.urls, authURL)
	a.mu.Unlock()
	return "", fmt.Errorf("test page navigated: %w", auth.ErrRedirected)
}

func (a *redirectingAgent) last(t *testing.T) string {
	t.Helper()
	a.mu.Lock()
	defer a.mu.Unlock()
	require.NotEmpty(t, a.urls, "the user agent was not asked to authorize")
	return a.urls[len(a.urls)-1]
}

// failingAgent fails the test if an authorization is started.
type failingAgent struct {
	t        *testing.T
	redirect string
}

func (a failingAgent) RedirectURI() string { return a.redirect }

func (a failingAgent) Authorize(context.Context, string) (string, error) {
	a.t.Errorf("a new authorization was started")
	return "", fmt.Errorf("unexpected authorization")
}

// follow plays the user at the authorization server: it requests the
// authorization URL and returns where the server redirects the browser.
func follow(t *testing.T, authURL string) string {
	t.Helper()
	c := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := c.Get(authURL)
	require.NoError(t, err)
	resp.Body.Close()
	require.Equal(t, http.StatusFound, resp.StatusCode)
	return resp.Header.Get("Location")
}

// pendingJSONStore keeps pending authorizations serialized too, as a
// page's storage would across page loads.
type pendingJSONStore struct{ jsonStore }

func (s *pendingJSONStore) Pending(_ context.Context, resource, issuer string) (*auth.Pending, error) {
	var p auth.Pending
	if ok, err := s.load("pending "+resource+" "+issuer, &p); !ok || err != nil {
		return nil, err
	}
	return &p, nil
}

func (s *pendingJSONStore) SetPending(_ context.Context, resource, issuer string, p *auth.Pending) error {
	return s.save("pending "+resource+" "+issuer, p, p == nil)
}

func (s *pendingJSONStore) pendingCount() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for k := range s.m {
		if len(k) > 8 && k[:8] == "pending " {
			n++
		}
	}
	return n
}

const pageCallback = "https://app.example/callback"

func TestResumeAfterRedirect(t *testing.T) {
	tests := []struct {
		name    string
		tamper  func(q url.Values) // changes the authorization response
		later   time.Duration      // how long after the redirect the page is back
		wantErr error
	}{
		{name: "the page is back with the code"},
		{name: "a forged state", tamper: func(q url.Values) { q.Set("state", "forged") }, wantErr: auth.ErrStateMismatch},
		{name: "a wrong iss", tamper: func(q url.Values) { q.Set("iss", "https://evil.example") }, wantErr: auth.ErrIssuerMismatch},
		{name: "an error response", tamper: func(q url.Values) { q.Del("code"); q.Set("error", "access_denied") }, wantErr: &auth.Error{}},
		{name: "too late", later: auth.DefaultAuthorizationTimeout + time.Minute, wantErr: auth.ErrNoPendingAuthorization},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			as := newTestAS(t)
			rs := newTestRS(t, as)
			store := &pendingJSONStore{jsonStore{m: map[string][]byte{}}}

			// The first page load: the page leaves for the authorization server.
			agent := &redirectingAgent{redirect: pageCallback}
			err := doErr(t, newDoer(t, &auth.Options{UserAgent: agent, Store: store}), rs.URL+"/mcp")
			require.ErrorIs(t, err, auth.ErrRedirected)
			assert.Equal(t, 1, store.pendingCount(), "the pending authorization is kept")

			// The user signs in; the browser comes back to the redirect URI.
			cb, err := url.Parse(follow(t, agent.last(t)))
			require.NoError(t, err)
			if tt.tamper != nil {
				q := cb.Query()
				tt.tamper(q)
				cb.RawQuery = q.Encode()
			}

			// The second page load finishes it, without a new authorization.
			now := time.Now().Add(tt.later)
			d := newDoer(t, &auth.Options{UserAgent: failingAgent{t, pageCallback}, Store: store, CallbackURL: cb.String(), Now: func() time.Time { return now }})
			if tt.wantErr != nil {
				err := doErr(t, d, rs.URL+"/mcp")
				if target, ok := tt.wantErr.(*auth.Error); ok {
					require.ErrorAs(t, err, &target)
					assert.Equal(t, "access_denied", target.Code)
				} else {
					require.ErrorIs(t, err, tt.wantErr)
				}
				_, grants := as.counts()
				assert.Empty(t, grants, "no code was exchanged")
			} else {
				status, body := get(t, d, rs.URL+"/mcp")
				require.Equal(t, 200, status, body)
				n, grants := as.counts()
				assert.Equal(t, 1, n, "one authorization in all")
				assert.Equal(t, []string{"authorization_code"}, grants)
			}
			assert.Zero(t, store.pendingCount(), "a pending authorization is used once")
		})
	}
}

func TestResumeEdgeCases(t *testing.T) {
	t.Run("nothing pending: the callback is ignored and a new authorization runs", func(t *testing.T) {
		as := newTestAS(t)
		rs := newTestRS(t, as)
		d := newDoer(t, &auth.Options{CallbackURL: "http://127.0.0.1/callback?code=stale&state=stale"})
		status, body := get(t, d, rs.URL+"/mcp")
		require.Equal(t, 200, status, body)
		n, grants := as.counts()
		assert.Equal(t, 1, n)
		assert.Equal(t, []string{"authorization_code"}, grants, "the stale code was never sent")
	})
	t.Run("a store that keeps no pending authorizations", func(t *testing.T) {
		as := newTestAS(t)
		rs := newTestRS(t, as)
		d := newDoer(t, &auth.Options{Store: &jsonStore{m: map[string][]byte{}}, CallbackURL: pageCallback + "?code=c&state=s"})
		err := doErr(t, d, rs.URL+"/mcp")
		require.ErrorIs(t, err, auth.ErrNoPendingAuthorization)
		assert.Contains(t, err.Error(), "PendingStore")
	})
	t.Run("a user agent that answers leaves nothing pending", func(t *testing.T) {
		as := newTestAS(t)
		rs := newTestRS(t, as)
		store := auth.NewMemoryStore()
		status, _ := get(t, newDoer(t, &auth.Options{Store: store}), rs.URL+"/mcp")
		require.Equal(t, 200, status)
		p, err := store.Pending(context.Background(), rs.URL+"/mcp", as.URL)
		require.NoError(t, err)
		assert.Nil(t, p)
	})
	t.Run("the memory store keeps its own copy", func(t *testing.T) {
		ctx := context.Background()
		s := auth.NewMemoryStore()
		in := &auth.Pending{State: "s", Verifier: "v", RedirectURI: pageCallback, ClientID: "c", Created: time.Unix(1800000000, 0).UTC()}
		require.NoError(t, s.SetPending(ctx, "https://rs/mcp", "https://as", in))
		in.State = "mutated"
		got, err := s.Pending(ctx, "https://rs/mcp", "https://as")
		require.NoError(t, err)
		assert.Equal(t, "s", got.State)
		none, err := s.Pending(ctx, "https://rs/mcp", "https://other-as")
		require.NoError(t, err)
		assert.Nil(t, none, "keyed by resource and issuer")
		require.NoError(t, s.SetPending(ctx, "https://rs/mcp", "https://as", nil))
		gone, err := s.Pending(ctx, "https://rs/mcp", "https://as")
		require.NoError(t, err)
		assert.Nil(t, gone)
	})
}
