package wasihost

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpwasm/mcpwasm/core"
	"github.com/mcpwasm/mcpwasm/tests/peerproc"
	"github.com/mcpwasm/mcpwasm/wasm/abi"
)

// The OAuth tests run the guest's authorization against the official Go SDK
// MCP server behind the Go SDK's own bearer-token middleware and protected
// resource metadata handler (as package auth's tests do). The
// authorization server is the test's own (no real one is available
// offline); it records what the guest sent so that the tests can check
// PKCE, state, resource and scopes, and it issues the tokens the
// middleware accepts.

// testAS is a small OAuth 2.1 authorization server.
type testAS struct {
	*httptest.Server

	mu sync.Mutex
	// Knobs.
	stingy int // grant the next N authorizations all but the last requested scope
	// Observations.
	authorizations []url.Values // query of each authorization request
	grants         []string     // grant_type of each token request
	registrations  int
	appTypes       []string // application_type of each registration
	// State.
	codes  map[string]pendingCode
	tokens map[string][]string // access token → granted scopes
	serial int
}

type pendingCode struct {
	challenge, redirect, scope string
}

// Client credentials of the machine client the server knows.
const (
	svcClientID     = "svc-client"
	svcClientSecret = "svc-secret"
)

func newTestAS(t *testing.T) *testAS {
	t.Helper()
	as := &testAS{codes: map[string]pendingCode{}, tokens: map[string][]string{}}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /.well-known/oauth-authorization-server", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, 200, map[string]any{
			"issuer":                                         as.URL,
			"authorization_endpoint":                         as.URL + "/authorize",
			"token_endpoint":                                 as.URL + "/token",
			"registration_endpoint":                          as.URL + "/register",
			"code_challenge_methods_supported":               []string{"S256"},
			"grant_types_supported":                          []string{"authorization_code", "client_credentials"},
			"token_endpoint_auth_methods_supported":          []string{"none", "client_secret_basic"},
			"authorization_response_iss_parameter_supported": true,
		})
	})
	mux.HandleFunc("POST /register", func(w http.ResponseWriter, r *http.Request) {
		var body struct {
			RedirectURIs    []string `json:"redirect_uris"`
			ApplicationType string   `json:"application_type"`
		}
		_ = json.NewDecoder(r.Body).Decode(&body)
		as.mu.Lock()
		as.registrations++
		as.appTypes = append(as.appTypes, body.ApplicationType)
		id := fmt.Sprintf("dyn-%d", as.registrations)
		as.mu.Unlock()
		writeJSON(w, 201, map[string]any{"client_id": id, "redirect_uris": body.RedirectURIs, "token_endpoint_auth_method": "none"})
	})
	mux.HandleFunc("GET /authorize", as.authorize)
	mux.HandleFunc("POST /token", as.token)
	as.Server = httptest.NewServer(mux)
	t.Cleanup(func() {
		as.CloseClientConnections()
		as.Close()
	})
	return as
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

func s256(v string) string {
	sum := sha256.Sum256([]byte(v))
	return base64.RawURLEncoding.EncodeToString(sum[:])
}

func (as *testAS) authorize(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	as.mu.Lock()
	defer as.mu.Unlock()
	as.authorizations = append(as.authorizations, q)
	if q.Get("response_type") != "code" || q.Get("code_challenge_method") != "S256" || q.Get("code_challenge") == "" || q.Get("state") == "" {
		http.Error(w, "bad authorization request", 400)
		return
	}
	scope := q.Get("scope")
	if f := strings.Fields(scope); as.stingy > 0 && len(f) > 0 {
		as.stingy--
		scope = strings.Join(f[:len(f)-1], " ")
	}
	cb, err := url.Parse(q.Get("redirect_uri"))
	if err != nil || cb.Scheme == "" {
		http.Error(w, "bad redirect_uri", 400)
		return
	}
	as.serial++
	code := fmt.Sprintf("code-%d", as.serial)
	as.codes[code] = pendingCode{challenge: q.Get("code_challenge"), redirect: q.Get("redirect_uri"), scope: scope}
	v := cb.Query()
	v.Set("code", code)
	v.Set("state", q.Get("state"))
	v.Set("iss", as.URL)
	cb.RawQuery = v.Encode()
	http.Redirect(w, r, cb.String(), http.StatusFound)
}

func (as *testAS) token(w http.ResponseWriter, r *http.Request) {
	if err := r.ParseForm(); err != nil {
		http.Error(w, err.Error(), 400)
		return
	}
	as.mu.Lock()
	defer as.mu.Unlock()
	grant := r.PostForm.Get("grant_type")
	as.grants = append(as.grants, grant)
	var scope string
	switch grant {
	case "authorization_code":
		pc, ok := as.codes[r.PostForm.Get("code")]
		if !ok || s256(r.PostForm.Get("code_verifier")) != pc.challenge || r.PostForm.Get("redirect_uri") != pc.redirect {
			writeJSON(w, 400, map[string]string{"error": "invalid_grant"})
			return
		}
		delete(as.codes, r.PostForm.Get("code"))
		scope = pc.scope
	case "client_credentials":
		id, secret, ok := r.BasicAuth()
		if !ok || id != svcClientID || secret != svcClientSecret {
			writeJSON(w, 401, map[string]string{"error": "invalid_client", "error_description": "unknown client or wrong secret"})
			return
		}
		scope = r.PostForm.Get("scope")
	default:
		writeJSON(w, 400, map[string]string{"error": "unsupported_grant_type"})
		return
	}
	as.serial++
	tok := fmt.Sprintf("token-%d", as.serial)
	as.tokens[tok] = strings.Fields(scope)
	writeJSON(w, 200, map[string]any{"access_token": tok, "token_type": "Bearer", "expires_in": 3600, "scope": scope})
}

// granted returns the scopes of a valid token.
func (as *testAS) granted(tok string) ([]string, bool) {
	as.mu.Lock()
	defer as.mu.Unlock()
	s, ok := as.tokens[tok]
	return slices.Clone(s), ok
}

func (as *testAS) observed() (authorizations []url.Values, grants []string, registrations int) {
	as.mu.Lock()
	defer as.mu.Unlock()
	return slices.Clone(as.authorizations), slices.Clone(as.grants), as.registrations
}

// protectedServer is the Go SDK demo server (dual-era) at /mcp behind the
// Go SDK's bearer-token middleware, requiring scopes from tokens of as. It
// records the Authorization header of every MCP request, and can be told
// to redirect /mcp elsewhere.
type protectedServer struct {
	url     string // the MCP endpoint
	mu      sync.Mutex
	auths   []string
	moveTo  string // when set, /mcp answers 307 to it
	mcpHits int
}

func startProtected(t *testing.T, as *testAS, scopes []string) *protectedServer {
	t.Helper()
	mux := http.NewServeMux()
	hs := httptest.NewServer(mux)
	t.Cleanup(func() {
		hs.CloseClientConnections()
		hs.Close()
	})
	ps := &protectedServer{url: hs.URL + peerproc.MCPPath}
	// The demo server's middleware checks each token here (demoserve's
	// -auth-verify).
	mux.HandleFunc("GET /_verify", func(w http.ResponseWriter, r *http.Request) {
		granted, ok := as.granted(strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer "))
		if !ok {
			http.Error(w, "unknown token", http.StatusUnauthorized)
			return
		}
		_ = json.NewEncoder(w).Encode(map[string][]string{"scopes": granted})
	})
	proxy := peerproc.Proxy(t, peerproc.GoSDKServer(t, peerproc.DemoOptions{
		Modern:       true,
		AuthResource: ps.url,
		AuthServer:   as.URL,
		AuthScopes:   strings.Join(scopes, ","),
		AuthVerify:   hs.URL + "/_verify",
	}))
	mux.Handle("/.well-known/oauth-protected-resource"+peerproc.MCPPath, proxy)
	mux.Handle(peerproc.MCPPath, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ps.mu.Lock()
		ps.auths = append(ps.auths, r.Header.Get("Authorization"))
		ps.mcpHits++
		moveTo := ps.moveTo
		ps.mu.Unlock()
		if moveTo != "" {
			http.Redirect(w, r, moveTo, http.StatusTemporaryRedirect)
			return
		}
		proxy.ServeHTTP(w, r)
	}))
	return ps
}

// authorizations returns the Authorization headers the MCP endpoint saw.
func (ps *protectedServer) authorizations() []string {
	ps.mu.Lock()
	defer ps.mu.Unlock()
	return slices.Clone(ps.auths)
}

func (ps *protectedServer) move(to string) {
	ps.mu.Lock()
	ps.moveTo = to
	ps.mu.Unlock()
}

// callAdd calls the demo server's add tool and checks the sum.
func callAdd(t *testing.T, s *Session) {
	t.Helper()
	r := callTool(t, s, "add", map[string]any{"a": 2, "b": 3})
	var out struct{ Sum int }
	require.NoError(t, json.Unmarshal(r.StructuredContent, &out), "result: %+v", r)
	assert.Equal(t, 5, out.Sum)
}

// browserAgent is a host user agent for the test: it plays the user's
// browser by requesting the authorization URL without following the
// redirect and returning the redirect's target, and records each call.
type browserAgent struct {
	calls atomic.Int32
	mu    sync.Mutex
	urls  []string
}

func (b *browserAgent) authorize(ctx context.Context, authURL string) (string, error) {
	b.calls.Add(1)
	b.mu.Lock()
	b.urls = append(b.urls, authURL)
	b.mu.Unlock()
	req, err := http.NewRequestWithContext(ctx, "GET", authURL, nil)
	if err != nil {
		return "", err
	}
	tr := &http.Transport{}
	defer tr.CloseIdleConnections()
	c := &http.Client{Transport: tr, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := c.Do(req)
	if err != nil {
		return "", err
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusFound {
		return "", fmt.Errorf("the authorization server answered %d", resp.StatusCode)
	}
	return resp.Header.Get("Location"), nil
}

// TestAuthHeadless runs the authorization code grant inside the guest with
// the headless user agent (the guest reads the authorization server's
// redirect through the host with noRedirect) against the Go SDK server, in
// both eras. The redirect URI is served by a recorder: had the host
// followed the authorization server's redirect, it would have been hit.
func TestAuthHeadless(t *testing.T) {
	for _, tt := range []struct {
		name, version, era string
	}{
		{"modern", core.Version20260728, "modern"},
		{"legacy", core.Version20251125, "legacy"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			as := newTestAS(t)
			ps := startProtected(t, as, []string{"mcp:read", "mcp:tools"})
			var callbackHits atomic.Int32
			callback := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { callbackHits.Add(1) }))
			t.Cleanup(callback.Close)
			var logMu sync.Mutex
			var logs []string

			h := newHost(t, nil)
			s := connectPeer(t, h, peer{}, ps.url, &ConnectOptions{
				ProtocolVersions: []string{tt.version},
				Auth: &AuthOptions{
					AuthConfig: abi.AuthConfig{RedirectURI: callback.URL + "/callback", ClientName: "wasihost-test"},
					OnLog: func(msg string) {
						logMu.Lock()
						logs = append(logs, msg)
						logMu.Unlock()
					},
				},
			})
			assert.Equal(t, tt.era, s.Era())
			assert.Equal(t, tt.version, s.ProtocolVersion())
			callAdd(t, s)

			authz, grants, regs := as.observed()
			require.Len(t, authz, 1, "one authorization")
			q := authz[0]
			assert.Equal(t, "mcp:read mcp:tools", q.Get("scope"), "the challenged scopes")
			assert.Equal(t, ps.url, q.Get("resource"), "RFC 8707 resource")
			assert.Equal(t, callback.URL+"/callback", q.Get("redirect_uri"))
			assert.Equal(t, "dyn-1", q.Get("client_id"), "dynamically registered")
			assert.Equal(t, 1, regs)
			as.mu.Lock()
			assert.Equal(t, []string{"native"}, as.appTypes, "a loopback redirect URI")
			as.mu.Unlock()
			assert.Equal(t, []string{"authorization_code"}, grants)
			assert.Zero(t, callbackHits.Load(), "the host must not follow the authorization server's redirect (noRedirect)")

			seen := ps.authorizations()
			require.NotEmpty(t, seen)
			assert.Empty(t, seen[0], "the first request goes without a token")
			assert.Equal(t, "Bearer token-2", seen[len(seen)-1], "later requests carry the token")
			logMu.Lock()
			assert.NotEmpty(t, logs, "OnLog receives the authorization's steps")
			logMu.Unlock()
			require.NoError(t, h.Err())
		})
	}
}

// TestAuthHostAgent answers the guest's authorize events from Go (the
// host's user agent), including a step-up: the authorization server first
// grants less than asked, the Go SDK middleware answers 403 with the
// required scopes, and the guest asks the host again for the union.
func TestAuthHostAgent(t *testing.T) {
	as := newTestAS(t)
	as.mu.Lock()
	as.stingy = 1
	as.mu.Unlock()
	ps := startProtected(t, as, []string{"mcp:read", "mcp:tools"})
	ua := &browserAgent{}
	const redirect = "https://app.example/oauth/callback"

	h := newHost(t, nil)
	s := connectPeer(t, h, peer{}, ps.url, &ConnectOptions{
		Auth: &AuthOptions{AuthConfig: abi.AuthConfig{RedirectURI: redirect}, Authorize: ua.authorize},
	})
	assert.Equal(t, "modern", s.Era())
	callAdd(t, s)

	assert.EqualValues(t, 2, ua.calls.Load(), "an authorization, then a step-up")
	for _, u := range ua.urls {
		assert.True(t, strings.HasPrefix(u, as.URL+"/authorize?"), "authorize event URL %s", u)
	}
	authz, grants, _ := as.observed()
	require.Len(t, authz, 2)
	for _, q := range authz {
		assert.Equal(t, redirect, q.Get("redirect_uri"))
		assert.Equal(t, "mcp:read mcp:tools", q.Get("scope"), "the step-up keeps the scopes")
	}
	as.mu.Lock()
	assert.Equal(t, []string{"web"}, as.appTypes, "one registration, for an https redirect URI")
	as.mu.Unlock()
	assert.Equal(t, []string{"authorization_code", "authorization_code"}, grants)
	require.NoError(t, h.Err())
}

// TestAuthHostAgentFailures: an Authorize that fails, and one that waits
// until the connect is abandoned, both leave a usable instance.
func TestAuthHostAgentFailures(t *testing.T) {
	as := newTestAS(t)
	ps := startProtected(t, as, []string{"mcp:read"})
	h := newHost(t, nil)

	t.Run("error", func(t *testing.T) {
		_, err := h.Connect(testCtx(t), ps.url, &ConnectOptions{Auth: &AuthOptions{
			AuthConfig: abi.AuthConfig{RedirectURI: "https://app.example/cb"},
			Authorize: func(context.Context, string) (string, error) {
				return "", errors.New("the user closed the window")
			},
		}})
		require.Error(t, err)
		assert.ErrorIs(t, err, ErrAuth)
		assert.Contains(t, err.Error(), "the user closed the window")
	})
	t.Run("abandoned", func(t *testing.T) {
		started := make(chan struct{})
		ended := make(chan error, 1)
		ctx, cancel := context.WithCancel(testCtx(t))
		go func() {
			<-started
			cancel()
		}()
		_, err := h.Connect(ctx, ps.url, &ConnectOptions{Auth: &AuthOptions{
			AuthConfig: abi.AuthConfig{RedirectURI: "https://app.example/cb"},
			Authorize: func(ctx context.Context, _ string) (string, error) {
				close(started)
				<-ctx.Done()
				ended <- ctx.Err()
				return "", ctx.Err()
			},
		}})
		require.ErrorIs(t, err, context.Canceled)
		select {
		case err := <-ended:
			assert.Error(t, err, "Authorize's context ends with the abandoned connect")
		case <-time.After(10 * time.Second):
			t.Fatal("Authorize's context did not end")
		}
	})
	t.Run("callback at another URI", func(t *testing.T) {
		_, err := h.Connect(testCtx(t), ps.url, &ConnectOptions{Auth: &AuthOptions{
			AuthConfig: abi.AuthConfig{RedirectURI: "https://app.example/cb"},
			Authorize: func(context.Context, string) (string, error) {
				return "https://evil.example/cb?code=stolen&state=x", nil
			},
		}})
		require.ErrorIs(t, err, ErrAuth)
	})
	s := connectPeer(t, h, peer{}, ps.url, &ConnectOptions{Auth: &AuthOptions{}})
	callAdd(t, s)
	require.NoError(t, h.Err())
}

// TestAuthClientCredentials: a machine client's client credentials grant,
// and the authorization server's OAuth error for a wrong secret surfacing
// as ErrAuth with its data.
func TestAuthClientCredentials(t *testing.T) {
	as := newTestAS(t)
	ps := startProtected(t, as, []string{"mcp:tools"})
	h := newHost(t, nil)

	s := connectPeer(t, h, peer{}, ps.url, &ConnectOptions{Auth: &AuthOptions{
		AuthConfig: abi.AuthConfig{Grant: GrantClientCredentials, ClientID: svcClientID, ClientSecret: svcClientSecret},
	}})
	callAdd(t, s)
	_, grants, regs := as.observed()
	assert.Equal(t, []string{"client_credentials"}, grants)
	assert.Zero(t, regs)

	_, err := h.Connect(testCtx(t), ps.url, &ConnectOptions{Auth: &AuthOptions{
		AuthConfig: abi.AuthConfig{Grant: GrantClientCredentials, ClientID: svcClientID, ClientSecret: "wrong"},
	}})
	require.ErrorIs(t, err, ErrAuth)
	var ge *GuestError
	require.ErrorAs(t, err, &ge)
	assert.Equal(t, 401, ge.Status)
	assert.JSONEq(t, `{"error":"invalid_client","errorDescription":"unknown client or wrong secret","endpoint":"token"}`, string(ge.Data))
	require.NoError(t, h.Err())
}

// TestAuthStore: the token store the guest reports (OnStore) lets a new
// instance reuse the registration and token without authorizing again.
func TestAuthStore(t *testing.T) {
	as := newTestAS(t)
	ps := startProtected(t, as, []string{"mcp:read"})

	var mu sync.Mutex
	var states []json.RawMessage
	h1 := newHost(t, nil)
	s1 := connectPeer(t, h1, peer{}, ps.url, &ConnectOptions{Auth: &AuthOptions{
		OnStore: func(state json.RawMessage) {
			mu.Lock()
			states = append(states, state)
			mu.Unlock()
		},
	}})
	callAdd(t, s1)
	require.NoError(t, s1.Close())
	mu.Lock()
	require.NotEmpty(t, states, "the store is reported after the registration and the token")
	last := states[len(states)-1]
	mu.Unlock()
	assert.Contains(t, string(last), `"access_token":"token-2"`)
	assert.Contains(t, string(last), `"client_id":"dyn-1"`)

	h2 := newHost(t, nil)
	s2 := connectPeer(t, h2, peer{}, ps.url, &ConnectOptions{Auth: &AuthOptions{AuthConfig: abi.AuthConfig{Store: last}}})
	callAdd(t, s2)
	authz, grants, regs := as.observed()
	assert.Len(t, authz, 1, "the stored token is used: no second authorization")
	assert.Len(t, grants, 1)
	assert.Equal(t, 1, regs)

	_, err := h2.Connect(testCtx(t), ps.url, &ConnectOptions{Auth: &AuthOptions{AuthConfig: abi.AuthConfig{Store: json.RawMessage(`{"v":99}`)}}})
	require.ErrorIs(t, err, ErrInvalid)
}

// TestAuthRedirectKeepsToken: when the protected endpoint redirects to
// another origin, the host delivers the redirect (noRedirect) and the guest
// follows it without the token. A host that followed it itself would have
// sent the token along (net/http keeps Authorization between ports of one
// host).
func TestAuthRedirectKeepsToken(t *testing.T) {
	as := newTestAS(t)
	ps := startProtected(t, as, []string{"mcp:read"})
	var mu sync.Mutex
	var elsewhere []string
	other := peerproc.Proxy(t, peerproc.GoSDKServer(t, peerproc.DemoOptions{Modern: true}))
	ohs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		elsewhere = append(elsewhere, r.Header.Get("Authorization"))
		mu.Unlock()
		other.ServeHTTP(w, r)
	}))
	t.Cleanup(func() {
		ohs.CloseClientConnections()
		ohs.Close()
	})

	// The host's user agent, so that only the credentialed request's
	// redirect depends on noRedirect.
	ua := &browserAgent{}
	h := newHost(t, nil)
	s := connectPeer(t, h, peer{}, ps.url, &ConnectOptions{
		ProtocolVersions: []string{core.Version20260728},
		Auth:             &AuthOptions{AuthConfig: abi.AuthConfig{RedirectURI: "https://app.example/cb"}, Authorize: ua.authorize},
	})
	callAdd(t, s)
	ps.move(ohs.URL + peerproc.MCPPath)
	callAdd(t, s)

	mu.Lock()
	defer mu.Unlock()
	require.NotEmpty(t, elsewhere, "the request reached the other origin")
	for _, a := range elsewhere {
		assert.Empty(t, a, "the token must not follow a redirect to another origin")
	}
	seen := ps.authorizations()
	assert.True(t, strings.HasPrefix(seen[len(seen)-1], "Bearer "), "the redirected request was credentialed at its own origin")
}

// TestAuthConfigErrors: malformed auth settings fail Connect at once with
// ErrInvalid and leave the instance usable.
func TestAuthConfigErrors(t *testing.T) {
	h := newHost(t, nil)
	noop := func(context.Context, string) (string, error) { return "", nil }
	for _, tt := range []struct {
		name string
		opts AuthOptions
		want string
	}{
		{"host agent without redirect URI", AuthOptions{Authorize: noop}, "redirectUri"},
		{"unknown grant", AuthOptions{AuthConfig: abi.AuthConfig{Grant: "password"}}, "unknown grant"},
		{"jwt bearer without assertion", AuthOptions{AuthConfig: abi.AuthConfig{Grant: GrantJWTBearer, ClientID: "c"}}, "assertion"},
		{"assertion with another grant", AuthOptions{AuthConfig: abi.AuthConfig{Grant: GrantClientCredentials, ClientID: "c", Assertion: "x"}}, "assertion"},
		{"secret without client id", AuthOptions{AuthConfig: abi.AuthConfig{ClientSecret: "s"}}, "clientId"},
		{"bad private key", AuthOptions{AuthConfig: abi.AuthConfig{Grant: GrantClientCredentials, ClientID: "c", PrivateKeyPEM: "not a key"}}, "privateKeyPem"},
		{"private_key_jwt without key", AuthOptions{AuthConfig: abi.AuthConfig{Grant: GrantClientCredentials, ClientID: "c", AuthMethod: "private_key_jwt"}}, "privateKeyPem"},
		{"bad DPoP key", AuthOptions{AuthConfig: abi.AuthConfig{DPoPKeyPEM: "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n"}}, "dpopKeyPem"},
		{"bad application type", AuthOptions{AuthConfig: abi.AuthConfig{ApplicationType: "desktop"}}, "applicationType"},
		{"malformed store", AuthOptions{AuthConfig: abi.AuthConfig{Store: json.RawMessage(`{"v":1,"tokens":"x"}`)}}, "store"},
		{"idjag without subject token", AuthOptions{AuthConfig: abi.AuthConfig{Grant: GrantJWTBearer, ClientID: "c", IDJAG: &abi.IDJAGConfig{TokenEndpoint: "https://idp.example/token"}}}, "subject token"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			opts := tt.opts
			_, err := h.Connect(testCtx(t), "http://127.0.0.1:1/mcp", &ConnectOptions{Auth: &opts})
			require.ErrorIs(t, err, ErrInvalid)
			assert.Contains(t, err.Error(), tt.want)
		})
	}
	require.NoError(t, h.Err())
}
