//go:build !js && !wasip1

package auth_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpwasm/mcpwasm/auth"
	"github.com/mcpwasm/mcpwasm/transport/fetch"
)

// get sends a GET through d and returns the status and body.
func get(t *testing.T, d fetch.Doer, url string) (int, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	resp, err := d.Do(ctx, &fetch.Request{Method: "GET", URL: url})
	require.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return resp.StatusCode, string(b)
}

// doErr sends a GET through d and returns the error it must fail with.
func doErr(t *testing.T, d fetch.Doer, url string) error {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	resp, err := d.Do(ctx, &fetch.Request{Method: "GET", URL: url})
	if err == nil {
		resp.Body.Close()
		t.Fatalf("request to %s succeeded (HTTP %d)", url, resp.StatusCode)
	}
	return err
}

func newDoer(t *testing.T, opts *auth.Options) *auth.Doer {
	t.Helper()
	inner := newInner(t)
	o := auth.Options{}
	if opts != nil {
		o = *opts
	}
	if o.UserAgent == nil {
		o.UserAgent = auth.Headless(inner)
	}
	return auth.NewDoer(inner, &o)
}

func TestTokenStaysWithResource(t *testing.T) {
	as := newTestAS(t)
	rs := newTestRS(t, as)
	other := &recorder{}
	otherSrv := newOpenServer(t, other)
	rs.set(func(rs *testRS) { rs.redirectOut = otherSrv.URL + "/landing" }) // same host, another port: another origin
	d := newDoer(t, nil)

	status, body := get(t, d, rs.URL+"/mcp")
	require.Equal(t, 200, status, body)
	require.Equal(t, "ok /mcp", body)

	tests := []struct {
		name      string
		url       string
		wantPath  string // where the request ends up
		onOther   bool   // ends up at the other server
		wantToken bool
	}{
		{"the resource", rs.URL + "/mcp", "/mcp", false, true},
		{"below the resource", rs.URL + "/mcp/sub", "/mcp/sub", false, true},
		{"a sibling path with the same prefix", rs.URL + "/mcpx", "/mcpx", false, false},
		{"another path of the origin", rs.URL + "/other", "/other", false, false},
		{"another origin", otherSrv.URL + "/mcp", "/mcp", true, false},
		{"a redirect to another origin", rs.URL + "/mcp/out", "/landing", true, false},
		{"a redirect within the resource", rs.URL + "/mcp/in", "/mcp", false, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rs.reset()
			other.reset()
			status, _ := get(t, d, tt.url)
			require.Equal(t, 200, status)
			rec := &rs.recorder
			if tt.onOther {
				rec = other
			}
			reqs := rec.all()
			require.NotEmpty(t, reqs)
			last := reqs[len(reqs)-1]
			assert.Equal(t, tt.wantPath, last.path)
			if tt.wantToken {
				assert.True(t, strings.HasPrefix(last.authorization, "Bearer token-"), "got %q", last.authorization)
			} else {
				assert.Empty(t, last.authorization)
			}
			for _, r := range other.all() {
				assert.Empty(t, r.authorization, "the other origin saw a credential at %s", r.path)
			}
		})
	}
	n, _ := as.counts()
	assert.Equal(t, 1, n, "one authorization for the whole test")
}

// newOpenServer is a server that answers everything and records it.
func newOpenServer(t *testing.T, rec *recorder) *httptest.Server {
	t.Helper()
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec.note(r)
		_, _ = io.WriteString(w, "other "+r.URL.Path)
	}))
	t.Cleanup(s.Close)
	return s
}

func TestRefresh(t *testing.T) {
	t.Run("an expired token is refreshed before it is sent", func(t *testing.T) {
		as := newTestAS(t)
		as.set(func(as *testAS) { as.refresh = true })
		rs := newTestRS(t, as)
		var mu sync.Mutex
		now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
		clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
		d := newDoer(t, &auth.Options{Now: clock})

		status, _ := get(t, d, rs.URL+"/mcp")
		require.Equal(t, 200, status)
		first := rs.all()[len(rs.all())-1].authorization

		mu.Lock()
		now = now.Add(2 * time.Hour) // past expires_in (3600 s)
		mu.Unlock()
		rs.reset()
		status, _ = get(t, d, rs.URL+"/mcp")
		require.Equal(t, 200, status)

		reqs := rs.all()
		require.Len(t, reqs, 1, "refreshed before sending: no 401 round trip")
		assert.NotEqual(t, first, reqs[0].authorization)
		n, grants := as.counts()
		assert.Equal(t, 1, n, "no second authorization")
		assert.Equal(t, []string{"authorization_code", "refresh_token"}, grants)
	})
	t.Run("a refused token is refreshed, not re-authorized", func(t *testing.T) {
		as := newTestAS(t)
		as.set(func(as *testAS) { as.refresh = true })
		rs := newTestRS(t, as)
		d := newDoer(t, nil)
		status, _ := get(t, d, rs.URL+"/mcp")
		require.Equal(t, 200, status)
		as.revokeAll()
		status, _ = get(t, d, rs.URL+"/mcp")
		require.Equal(t, 200, status)
		n, grants := as.counts()
		assert.Equal(t, 1, n)
		assert.Equal(t, []string{"authorization_code", "refresh_token"}, grants)
	})
	t.Run("a dead refresh token leads to a new authorization", func(t *testing.T) {
		as := newTestAS(t)
		as.set(func(as *testAS) { as.refresh = true })
		rs := newTestRS(t, as)
		d := newDoer(t, nil)
		status, _ := get(t, d, rs.URL+"/mcp")
		require.Equal(t, 200, status)
		as.revokeAll()
		as.set(func(as *testAS) { as.refreshes = map[string]bool{} })
		status, _ = get(t, d, rs.URL+"/mcp")
		require.Equal(t, 200, status)
		n, grants := as.counts()
		assert.Equal(t, 2, n)
		assert.Equal(t, []string{"authorization_code", "refresh_token", "authorization_code"}, grants)
	})
}

func TestStore(t *testing.T) {
	t.Run("memory round trip", func(t *testing.T) {
		ctx := context.Background()
		s := auth.NewMemoryStore()
		reg, err := s.Registration(ctx, "https://as")
		require.NoError(t, err)
		assert.Nil(t, reg)

		in := &auth.Registration{ClientID: "c", ClientSecret: "s", AuthMethod: "client_secret_basic", RedirectURIs: []string{"http://127.0.0.1/cb"}}
		require.NoError(t, s.SetRegistration(ctx, "https://as", in))
		in.RedirectURIs[0] = "mutated"
		got, err := s.Registration(ctx, "https://as")
		require.NoError(t, err)
		assert.Equal(t, "http://127.0.0.1/cb", got.RedirectURIs[0], "the store keeps its own copy")
		other, err := s.Registration(ctx, "https://other-as")
		require.NoError(t, err)
		assert.Nil(t, other, "registrations are keyed by issuer")

		tok := &auth.Token{AccessToken: "a", Type: "Bearer", RefreshToken: "r", Scope: "x y", Expiry: time.Unix(1800000000, 0).UTC()}
		require.NoError(t, s.SetToken(ctx, "https://rs/mcp", "https://as", tok))
		gotTok, err := s.Token(ctx, "https://rs/mcp", "https://as")
		require.NoError(t, err)
		assert.Equal(t, tok, gotTok)
		for _, key := range [][2]string{{"https://rs/mcp", "https://other-as"}, {"https://rs/other", "https://as"}} {
			none, err := s.Token(ctx, key[0], key[1])
			require.NoError(t, err)
			assert.Nil(t, none, "tokens are keyed by resource and issuer: %v", key)
		}
		require.NoError(t, s.SetToken(ctx, "https://rs/mcp", "https://as", nil))
		gone, err := s.Token(ctx, "https://rs/mcp", "https://as")
		require.NoError(t, err)
		assert.Nil(t, gone)
		require.NoError(t, s.SetRegistration(ctx, "https://as", nil))
		goneReg, err := s.Registration(ctx, "https://as")
		require.NoError(t, err)
		assert.Nil(t, goneReg)
	})
	t.Run("JSON round trip", func(t *testing.T) {
		tok := auth.Token{AccessToken: "a", Type: "DPoP", RefreshToken: "r", Expiry: time.Unix(1800000000, 0).UTC(), Scope: "x", GrantedScope: "x", JKT: "k"}
		b, err := json.Marshal(tok)
		require.NoError(t, err)
		var back auth.Token
		require.NoError(t, json.Unmarshal(b, &back))
		assert.Equal(t, tok, back)
		reg := auth.Registration{ClientID: "c", ClientSecret: "s", SecretExpiresAt: time.Unix(1800000000, 0).UTC(), AuthMethod: "none", RedirectURIs: []string{"u"}}
		b, err = json.Marshal(reg)
		require.NoError(t, err)
		var regBack auth.Registration
		require.NoError(t, json.Unmarshal(b, &regBack))
		assert.Equal(t, reg, regBack)
	})
	t.Run("a second Doer on the same store authorizes nothing", func(t *testing.T) {
		as := newTestAS(t)
		rs := newTestRS(t, as)
		store := &jsonStore{m: map[string][]byte{}}
		status, _ := get(t, newDoer(t, &auth.Options{Store: store}), rs.URL+"/mcp")
		require.Equal(t, 200, status)
		// A new process: a new Doer, the same (serialized) store.
		status, _ = get(t, newDoer(t, &auth.Options{Store: store}), rs.URL+"/mcp")
		require.Equal(t, 200, status)
		n, grants := as.counts()
		assert.Equal(t, 1, n)
		assert.Equal(t, []string{"authorization_code"}, grants)
		as.set(func(as *testAS) { assert.Equal(t, 1, as.registerN) })
	})
}

// jsonStore is a Store that keeps everything serialized, like an
// application's persistent storage would.
type jsonStore struct {
	mu sync.Mutex
	m  map[string][]byte
}

func (s *jsonStore) load(key string, v any) (bool, error) {
	s.mu.Lock()
	b, ok := s.m[key]
	s.mu.Unlock()
	if !ok {
		return false, nil
	}
	return true, json.Unmarshal(b, v)
}

func (s *jsonStore) save(key string, v any, del bool) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if del {
		delete(s.m, key)
		return nil
	}
	b, err := json.Marshal(v)
	s.m[key] = b
	return err
}

func (s *jsonStore) Registration(_ context.Context, issuer string) (*auth.Registration, error) {
	var r auth.Registration
	if ok, err := s.load("reg "+issuer, &r); !ok || err != nil {
		return nil, err
	}
	return &r, nil
}

func (s *jsonStore) SetRegistration(_ context.Context, issuer string, r *auth.Registration) error {
	return s.save("reg "+issuer, r, r == nil)
}

func (s *jsonStore) Token(_ context.Context, resource, issuer string) (*auth.Token, error) {
	var t auth.Token
	if ok, err := s.load("tok "+resource+" "+issuer, &t); !ok || err != nil {
		return nil, err
	}
	return &t, nil
}

func (s *jsonStore) SetToken(_ context.Context, resource, issuer string, t *auth.Token) error {
	return s.save("tok "+resource+" "+issuer, t, t == nil)
}

func TestAuthorizationResponseValidation(t *testing.T) {
	tests := []struct {
		name         string
		setup        func(as *testAS)
		want         error
		wantTokenReq bool
	}{
		{"state mismatch", func(as *testAS) { as.forgeState = true }, auth.ErrStateMismatch, false},
		{"wrong iss", func(as *testAS) { as.iss = "wrong" }, auth.ErrIssuerMismatch, false},
		{"iss differing by a trailing slash", func(as *testAS) { as.iss = "normalized"; as.advertiseIss = true }, auth.ErrIssuerMismatch, false},
		{"advertised iss missing", func(as *testAS) { as.iss = "omit"; as.advertiseIss = true }, auth.ErrIssuerMissing, false},
		{"unadvertised iss missing", func(as *testAS) { as.iss = "omit" }, nil, true},
		{"correct iss", func(as *testAS) { as.advertiseIss = true }, nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			as := newTestAS(t)
			as.set(tt.setup)
			rs := newTestRS(t, as)
			d := newDoer(t, nil)
			if tt.want != nil {
				err := doErr(t, d, rs.URL+"/mcp")
				assert.ErrorIs(t, err, tt.want)
			} else {
				status, _ := get(t, d, rs.URL+"/mcp")
				assert.Equal(t, 200, status)
			}
			n, grants := as.counts()
			assert.Equal(t, 1, n, "the authorization request was made")
			assert.Equal(t, tt.wantTokenReq, len(grants) > 0, "token requests: %v", grants)
		})
	}
}

func TestResourceMismatch(t *testing.T) {
	as := newTestAS(t)
	rs := newTestRS(t, as)
	rs.set(func(rs *testRS) { rs.prmResource = "https://evil.example/mcp" })
	err := doErr(t, newDoer(t, nil), rs.URL+"/mcp")
	assert.ErrorIs(t, err, auth.ErrResourceMismatch)
	n, grants := as.counts()
	assert.Zero(t, n, "no authorization started")
	assert.Empty(t, grants)
}

// hidingDoer hides WWW-Authenticate as a browser does when the server does
// not list it in Access-Control-Expose-Headers.
type hidingDoer struct{ inner fetch.Doer }

func (h hidingDoer) Do(ctx context.Context, r *fetch.Request) (*fetch.Response, error) {
	resp, err := h.inner.Do(ctx, r)
	if err != nil {
		return nil, err
	}
	delete(resp.Header, "www-authenticate")
	resp.Hidden = func(name string) bool { return strings.EqualFold(name, "www-authenticate") }
	return resp, nil
}

func TestHiddenWWWAuthenticate(t *testing.T) {
	t.Run("with failing discovery the error names the header", func(t *testing.T) {
		as := newTestAS(t)
		rs := newTestRS(t, as)
		rs.set(func(rs *testRS) { rs.noPRM = true }) // the well-known URLs 404 too
		inner := hidingDoer{newInner(t)}
		d := auth.NewDoer(inner, &auth.Options{UserAgent: auth.Headless(inner)})
		err := doErr(t, d, rs.URL+"/mcp")
		assert.ErrorIs(t, err, fetch.ErrHiddenHeader)
		assert.Contains(t, err.Error(), "WWW-Authenticate")
		assert.Contains(t, err.Error(), "Access-Control-Expose-Headers")
		n, _ := as.counts()
		assert.Zero(t, n)
	})
	t.Run("well-known discovery works without it", func(t *testing.T) {
		as := newTestAS(t)
		rs := newTestRS(t, as)
		inner := hidingDoer{newInner(t)}
		d := auth.NewDoer(inner, &auth.Options{UserAgent: auth.Headless(inner)})
		status, _ := get(t, d, rs.URL+"/mcp")
		assert.Equal(t, 200, status)
	})
}

func TestConcurrentRefusalsShareOneAuthorization(t *testing.T) {
	as := newTestAS(t)
	rs := newTestRS(t, as)
	d := newDoer(t, nil)
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			status, _ := get(t, d, rs.URL+"/mcp")
			assert.Equal(t, 200, status)
		})
	}
	wg.Wait()
	n, grants := as.counts()
	assert.Equal(t, 1, n)
	assert.Len(t, grants, 1)
}

func TestNoUserAgent(t *testing.T) {
	as := newTestAS(t)
	rs := newTestRS(t, as)
	d := auth.NewDoer(newInner(t), nil)
	err := doErr(t, d, rs.URL+"/mcp")
	assert.ErrorIs(t, err, auth.ErrNoUserAgent)
}

func TestErrorsAreMatchable(t *testing.T) {
	e := error(&auth.Error{Code: "invalid_grant", Description: "expired", StatusCode: 400, Endpoint: "token"})
	wrapped := errors.Join(errors.New("context"), e)
	var oe *auth.Error
	require.ErrorAs(t, wrapped, &oe)
	assert.Equal(t, "invalid_grant", oe.Code)
	assert.Equal(t, "auth: token endpoint: HTTP 400: invalid_grant: expired", e.Error())
}

// opaqueDoer answers requests that ask not to follow redirects the way a
// browser's fetch does when the response is a redirect: status 0, nothing
// readable.
type opaqueDoer struct {
	inner fetch.Doer
	mu    sync.Mutex
	calls []bool // NoRedirect of each request to /mcp/out
}

func (o *opaqueDoer) Do(ctx context.Context, r *fetch.Request) (*fetch.Response, error) {
	if strings.HasSuffix(r.URL, "/mcp/out") {
		o.mu.Lock()
		o.calls = append(o.calls, r.NoRedirect)
		o.mu.Unlock()
		if r.NoRedirect {
			return &fetch.Response{StatusCode: 0, Header: fetch.Header{}, Body: io.NopCloser(strings.NewReader(""))}, nil
		}
	}
	return o.inner.Do(ctx, r)
}

func TestOpaqueRedirect(t *testing.T) {
	as := newTestAS(t)
	rs := newTestRS(t, as)
	other := &recorder{}
	otherSrv := newOpenServer(t, other)
	rs.set(func(rs *testRS) { rs.redirectOut = otherSrv.URL + "/landing" })
	inner := &opaqueDoer{inner: newInner(t)}
	d := auth.NewDoer(inner, &auth.Options{UserAgent: auth.Headless(inner)})
	status, _ := get(t, d, rs.URL+"/mcp")
	require.Equal(t, 200, status)
	status, body := get(t, d, rs.URL+"/mcp/out")
	assert.Equal(t, 200, status)
	assert.Equal(t, "other /landing", body)
	inner.mu.Lock()
	assert.Equal(t, []bool{true, false}, inner.calls, "asked not to follow, then let the platform follow")
	inner.mu.Unlock()
}

func TestOtherSchemesAreLeftAlone(t *testing.T) {
	var hits int
	var mu sync.Mutex
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		hits++
		mu.Unlock()
		w.Header().Set("WWW-Authenticate", `Basic realm="x"`)
		w.WriteHeader(401)
	}))
	t.Cleanup(srv.Close)
	status, _ := get(t, newDoer(t, nil), srv.URL+"/mcp")
	assert.Equal(t, 401, status, "the 401 is the caller's to handle")
	mu.Lock()
	assert.Equal(t, 1, hits, "no discovery requests")
	mu.Unlock()
}

func TestPreRegisteredCredentialsStayWithTheirServer(t *testing.T) {
	as1, as2 := newTestAS(t), newTestAS(t)
	rs := newTestRS(t, as1)
	d := newDoer(t, &auth.Options{Client: &auth.Client{ID: "pre-registered"}})
	status, _ := get(t, d, rs.URL+"/mcp")
	require.Equal(t, 200, status)

	// The resource moves to another authorization server.
	rs.set(func(rs *testRS) { rs.as = as2 })
	status, _ = get(t, d, rs.URL+"/mcp")
	require.Equal(t, 200, status)

	as1.set(func(as *testAS) {
		assert.Equal(t, []string{"pre-registered"}, as.clientIDs)
		assert.Zero(t, as.registerN)
	})
	as2.set(func(as *testAS) {
		assert.Equal(t, []string{"client-1"}, as.clientIDs, "registered anew, the credentials of the first server not presented")
		assert.Equal(t, 1, as.registerN)
	})
}
