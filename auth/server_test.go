//go:build !js && !wasip1

package auth_test

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/mcpwasm/mcpwasm/transport/fetch"
)

// The servers here are mcpwasm's own, for the faults and observations the
// conformance suite does not reach (a token offered to another origin,
// expiry, a forged state or iss, CORS-hidden headers). The flows
// themselves are covered by the real suite (conformance/run.sh).

// testAS is an OAuth 2.1 authorization server.
type testAS struct {
	*httptest.Server

	mu sync.Mutex
	// Knobs (set before use).
	iss          string // "" (correct), "wrong", "normalized" or "omit"
	advertiseIss bool
	forgeState   bool
	expiresIn    int  // 0: 3600
	refresh      bool // issue refresh tokens
	stingy       int  // grant the next N authorizations all but the last requested scope
	// Observations.
	authorizeN int
	grants     []string // grant_type of each token request
	registerN  int
	lastScope  string // granted by the last authorization
	requested  []string
	clientIDs  []string // client_id of each authorization request
	challenge  string
	codes      map[string]bool
	tokens     map[string]bool     // valid access tokens
	scopes     map[string][]string // granted scopes by access token
	refreshes  map[string]bool     // valid refresh tokens
	serial     int
}

func newTestAS(t *testing.T) *testAS {
	t.Helper()
	as := startTestAS()
	t.Cleanup(as.Close)
	return as
}

// startTestAS starts a testAS; Close stops it.
func startTestAS() *testAS {
	as := &testAS{codes: map[string]bool{}, tokens: map[string]bool{}, refreshes: map[string]bool{}, scopes: map[string][]string{}}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /.well-known/oauth-authorization-server", as.metadata)
	mux.HandleFunc("POST /register", as.register)
	mux.HandleFunc("GET /authorize", as.authorize)
	mux.HandleFunc("POST /token", as.token)
	as.Server = httptest.NewServer(mux)
	return as
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

func (as *testAS) metadata(w http.ResponseWriter, r *http.Request) {
	as.mu.Lock()
	defer as.mu.Unlock()
	writeJSON(w, 200, map[string]any{
		"issuer":                                         as.URL,
		"authorization_endpoint":                         as.URL + "/authorize",
		"token_endpoint":                                 as.URL + "/token",
		"registration_endpoint":                          as.URL + "/register",
		"code_challenge_methods_supported":               []string{"S256"},
		"token_endpoint_auth_methods_supported":          []string{"none"},
		"authorization_response_iss_parameter_supported": as.advertiseIss,
	})
}

func (as *testAS) register(w http.ResponseWriter, r *http.Request) {
	var body struct {
		RedirectURIs []string `json:"redirect_uris"`
	}
	_ = json.NewDecoder(r.Body).Decode(&body)
	as.mu.Lock()
	as.registerN++
	as.mu.Unlock()
	writeJSON(w, 201, map[string]any{"client_id": "client-1", "redirect_uris": body.RedirectURIs, "token_endpoint_auth_method": "none"})
}

func (as *testAS) authorize(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	as.mu.Lock()
	defer as.mu.Unlock()
	as.authorizeN++
	as.clientIDs = append(as.clientIDs, q.Get("client_id"))
	as.lastScope = q.Get("scope")
	as.requested = append(as.requested, q.Get("scope"))
	if f := strings.Fields(as.lastScope); as.stingy > 0 && len(f) > 0 {
		as.stingy--
		as.lastScope = strings.Join(f[:len(f)-1], " ")
	}
	if q.Get("response_type") != "code" || q.Get("code_challenge_method") != "S256" || q.Get("code_challenge") == "" {
		http.Error(w, "bad authorization request", 400)
		return
	}
	as.challenge = q.Get("code_challenge")
	as.serial++
	code := fmt.Sprintf("code-%d", as.serial)
	as.codes[code] = true
	cb, err := url.Parse(q.Get("redirect_uri"))
	if err != nil {
		http.Error(w, "bad redirect_uri", 400)
		return
	}
	v := cb.Query()
	v.Set("code", code)
	v.Set("state", q.Get("state"))
	if as.forgeState {
		v.Set("state", "forged")
	}
	switch as.iss {
	case "":
		v.Set("iss", as.URL)
	case "wrong":
		v.Set("iss", "https://evil.example")
	case "normalized":
		v.Set("iss", as.URL+"/")
	}
	cb.RawQuery = v.Encode()
	http.Redirect(w, r, cb.String(), http.StatusFound)
}

func s256(v string) string {
	sum := sha256.Sum256([]byte(v))
	return base64.RawURLEncoding.EncodeToString(sum[:])
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
	switch grant {
	case "authorization_code":
		code := r.PostForm.Get("code")
		if !as.codes[code] || s256(r.PostForm.Get("code_verifier")) != as.challenge {
			writeJSON(w, 400, map[string]string{"error": "invalid_grant"})
			return
		}
		delete(as.codes, code)
	case "refresh_token":
		rt := r.PostForm.Get("refresh_token")
		if !as.refreshes[rt] {
			writeJSON(w, 400, map[string]string{"error": "invalid_grant"})
			return
		}
		delete(as.refreshes, rt) // rotation
	default:
		writeJSON(w, 400, map[string]string{"error": "unsupported_grant_type"})
		return
	}
	as.serial++
	resp := map[string]any{"access_token": fmt.Sprintf("token-%d", as.serial), "token_type": "Bearer"}
	tok := resp["access_token"].(string)
	as.tokens[tok] = true
	as.scopes[tok] = strings.Fields(as.lastScope)
	exp := as.expiresIn
	if exp == 0 {
		exp = 3600
	}
	resp["expires_in"] = exp
	if as.refresh {
		rt := fmt.Sprintf("refresh-%d", as.serial)
		as.refreshes[rt] = true
		resp["refresh_token"] = rt
	}
	writeJSON(w, 200, resp)
}

// set changes the server's knobs (or reads its observations) under its lock.
func (as *testAS) set(f func(*testAS)) {
	as.mu.Lock()
	defer as.mu.Unlock()
	f(as)
}

func (as *testAS) valid(tok string) bool {
	as.mu.Lock()
	defer as.mu.Unlock()
	return as.tokens[tok]
}

// scopesRequested returns the scope parameter of each authorization request.
func (as *testAS) scopesRequested() []string {
	as.mu.Lock()
	defer as.mu.Unlock()
	return append([]string(nil), as.requested...)
}

// granted returns the scopes of a valid token.
func (as *testAS) granted(tok string) ([]string, bool) {
	as.mu.Lock()
	defer as.mu.Unlock()
	return append([]string(nil), as.scopes[tok]...), as.tokens[tok]
}

func (as *testAS) revokeAll() {
	as.mu.Lock()
	defer as.mu.Unlock()
	as.tokens = map[string]bool{}
}

func (as *testAS) counts() (authorize int, grants []string) {
	as.mu.Lock()
	defer as.mu.Unlock()
	return as.authorizeN, append([]string(nil), as.grants...)
}

// seen is a request a server observed.
type seen struct {
	path, authorization string
}

// recorder notes the requests a server received.
type recorder struct {
	mu   sync.Mutex
	reqs []seen
}

func (rec *recorder) note(r *http.Request) {
	rec.mu.Lock()
	rec.reqs = append(rec.reqs, seen{r.URL.Path, r.Header.Get("Authorization")})
	rec.mu.Unlock()
}

func (rec *recorder) all() []seen {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	return append([]seen(nil), rec.reqs...)
}

func (rec *recorder) reset() {
	rec.mu.Lock()
	rec.reqs = nil
	rec.mu.Unlock()
}

// testRS is a protected resource at /mcp whose tokens come from as; other
// paths are open.
type testRS struct {
	*httptest.Server
	recorder
	as *testAS

	mu          sync.Mutex
	prmResource string // override of the PRM resource
	noPRM       bool
	redirectOut string // where /mcp/out redirects
}

func newTestRS(t *testing.T, as *testAS) *testRS {
	t.Helper()
	rs := &testRS{as: as}
	rs.Server = httptest.NewServer(http.HandlerFunc(rs.serve))
	t.Cleanup(rs.Close)
	return rs
}

// set changes the server's knobs under its lock.
func (rs *testRS) set(f func(*testRS)) {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	f(rs)
}

func (rs *testRS) serve(w http.ResponseWriter, r *http.Request) {
	rs.note(r)
	rs.mu.Lock()
	prmResource, noPRM, out, as := rs.prmResource, rs.noPRM, rs.redirectOut, rs.as
	rs.mu.Unlock()
	switch {
	case r.URL.Path == "/.well-known/oauth-protected-resource/mcp":
		if noPRM {
			http.NotFound(w, r)
			return
		}
		if prmResource == "" {
			prmResource = rs.URL + "/mcp"
		}
		writeJSON(w, 200, map[string]any{"resource": prmResource, "authorization_servers": []string{as.URL}})
	case r.URL.Path == "/mcp/out":
		http.Redirect(w, r, out, http.StatusTemporaryRedirect)
	case r.URL.Path == "/mcp/in":
		http.Redirect(w, r, "/mcp", http.StatusTemporaryRedirect)
	case r.URL.Path == "/mcp" || strings.HasPrefix(r.URL.Path, "/mcp/"):
		tok, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
		if !ok || !as.valid(tok) {
			h := `Bearer error="invalid_token"`
			if !noPRM {
				h += `, resource_metadata="` + rs.URL + `/.well-known/oauth-protected-resource/mcp"`
			}
			w.Header().Set("WWW-Authenticate", h)
			writeJSON(w, 401, map[string]string{"error": "invalid_token"})
			return
		}
		_, _ = io.WriteString(w, "ok "+r.URL.Path)
	default:
		if strings.HasPrefix(r.URL.Path, "/.well-known/") {
			http.NotFound(w, r)
			return
		}
		_, _ = io.WriteString(w, "open "+r.URL.Path)
	}
}

// newInner returns a Doer on an HTTP client whose idle connections are
// closed when the test ends.
func newInner(t *testing.T) fetch.Doer {
	t.Helper()
	tr := &http.Transport{}
	t.Cleanup(tr.CloseIdleConnections)
	return fetch.NetHTTP(&http.Client{Transport: tr})
}
