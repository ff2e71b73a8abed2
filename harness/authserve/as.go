package main

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"html/template"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"
)

// authServer is a small OAuth 2.1 authorization server: metadata (RFC
// 8414), dynamic client registration (RFC 7591), the authorization code
// grant with PKCE S256, RFC 8707 resource binding, RFC 9207 iss, and
// rotating refresh tokens (issued when offline_access is granted). With
// consent set, /authorize shows a page with Allow and Deny buttons (a
// user's sign-in); otherwise it approves at once (headless clients).
type authServer struct {
	issuer  string
	consent bool

	mu       sync.Mutex
	clients  map[string][]string // client_id → redirect URIs
	requests map[string]url.Values
	codes    map[string]*grant
	tokens   map[string]*issued
	refresh  map[string]*grant
	serial   int
	// Observations (see state).
	authorizations int
	registrations  int
	grants         []string
}

// grant is what a code or refresh token stands for.
type grant struct {
	clientID, redirectURI, challenge, resource, scope string
}

// issued is an access token.
type issued struct {
	resource string
	scopes   []string
	expiry   time.Time
}

// shortResourceSuffix marks resources whose tokens live shortLifetime:
// the client treats a token as expired 30 s before its expiry, so it
// refreshes such a token about a second after receiving it.
const (
	shortResourceSuffix = "/short/mcp"
	shortLifetime       = 31
	longLifetime        = 3600
)

func newAuthServer(issuer string, consent bool) *authServer {
	return &authServer{
		issuer: issuer, consent: consent,
		clients: map[string][]string{}, requests: map[string]url.Values{},
		codes: map[string]*grant{}, tokens: map[string]*issued{}, refresh: map[string]*grant{},
	}
}

func (as *authServer) handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /.well-known/oauth-authorization-server", as.metadata)
	mux.HandleFunc("POST /register", as.register)
	mux.HandleFunc("GET /authorize", as.authorize)
	mux.HandleFunc("POST /authorize/decision", as.decision)
	mux.HandleFunc("POST /token", as.token)
	return mux
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

func oauthError(w http.ResponseWriter, status int, code, description string) {
	writeJSON(w, status, map[string]string{"error": code, "error_description": description})
}

func random() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}

func (as *authServer) metadata(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, 200, map[string]any{
		"issuer":                                         as.issuer,
		"authorization_endpoint":                         as.issuer + "/authorize",
		"token_endpoint":                                 as.issuer + "/token",
		"registration_endpoint":                          as.issuer + "/register",
		"scopes_supported":                               []string{"mcp:tools", "offline_access"},
		"response_types_supported":                       []string{"code"},
		"grant_types_supported":                          []string{"authorization_code", "refresh_token"},
		"code_challenge_methods_supported":               []string{"S256"},
		"token_endpoint_auth_methods_supported":          []string{"none"},
		"authorization_response_iss_parameter_supported": true,
	})
}

func (as *authServer) register(w http.ResponseWriter, r *http.Request) {
	var body struct {
		RedirectURIs []string `json:"redirect_uris"`
	}
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 1<<16)).Decode(&body); err != nil || len(body.RedirectURIs) == 0 {
		oauthError(w, 400, "invalid_client_metadata", "redirect_uris are required")
		return
	}
	as.mu.Lock()
	as.registrations++
	as.serial++
	id := fmt.Sprintf("client-%d", as.serial)
	as.clients[id] = body.RedirectURIs
	as.mu.Unlock()
	writeJSON(w, 201, map[string]any{"client_id": id, "redirect_uris": body.RedirectURIs, "token_endpoint_auth_method": "none"})
}

var consentPage = template.Must(template.New("consent").Parse(`<!doctype html>
<meta charset="utf-8">
<title>Sign in — test authorization server</title>
<h1>Authorize {{.Client}}?</h1>
<p>Scope: <code>{{.Scope}}</code>. Resource: <code>{{.Resource}}</code>.</p>
<form method="post" action="/authorize/decision">
<input type="hidden" name="request" value="{{.Request}}">
<button name="decision" value="allow" id="allow">Allow</button>
<button name="decision" value="deny" id="deny">Deny</button>
</form>
`))

func (as *authServer) authorize(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	as.mu.Lock()
	redirects, known := as.clients[q.Get("client_id")]
	as.mu.Unlock()
	// Without a valid client and redirect URI, nothing is redirected.
	if !known || !slices.Contains(redirects, q.Get("redirect_uri")) {
		http.Error(w, "unknown client or redirect_uri", 400)
		return
	}
	if q.Get("response_type") != "code" || q.Get("code_challenge_method") != "S256" || q.Get("code_challenge") == "" || q.Get("state") == "" || q.Get("resource") == "" {
		as.redirect(w, r, q, "", "invalid_request")
		return
	}
	if !as.consent {
		as.redirect(w, r, q, as.newCode(q), "")
		return
	}
	id := random()
	as.mu.Lock()
	as.requests[id] = q
	as.mu.Unlock()
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	_ = consentPage.Execute(w, map[string]string{"Client": q.Get("client_id"), "Scope": q.Get("scope"), "Resource": q.Get("resource"), "Request": id})
}

func (as *authServer) decision(w http.ResponseWriter, r *http.Request) {
	id := r.PostFormValue("request")
	as.mu.Lock()
	q, ok := as.requests[id]
	delete(as.requests, id)
	as.mu.Unlock()
	if !ok {
		http.Error(w, "unknown or used authorization request", 400)
		return
	}
	if r.PostFormValue("decision") != "allow" {
		as.redirect(w, r, q, "", "access_denied")
		return
	}
	as.redirect(w, r, q, as.newCode(q), "")
}

func (as *authServer) newCode(q url.Values) string {
	code := random()
	as.mu.Lock()
	defer as.mu.Unlock()
	as.authorizations++
	as.codes[code] = &grant{
		clientID: q.Get("client_id"), redirectURI: q.Get("redirect_uri"), challenge: q.Get("code_challenge"),
		resource: q.Get("resource"), scope: q.Get("scope"),
	}
	return code
}

// redirect answers the authorization request through its redirect URI.
func (as *authServer) redirect(w http.ResponseWriter, r *http.Request, q url.Values, code, errCode string) {
	cb, _ := url.Parse(q.Get("redirect_uri"))
	v := cb.Query()
	if errCode != "" {
		v.Set("error", errCode)
	} else {
		v.Set("code", code)
	}
	v.Set("state", q.Get("state"))
	v.Set("iss", as.issuer)
	cb.RawQuery = v.Encode()
	http.Redirect(w, r, cb.String(), http.StatusFound)
}

func (as *authServer) token(w http.ResponseWriter, r *http.Request) {
	if err := r.ParseForm(); err != nil {
		oauthError(w, 400, "invalid_request", err.Error())
		return
	}
	f := r.PostForm
	as.mu.Lock()
	defer as.mu.Unlock()
	as.grants = append(as.grants, f.Get("grant_type"))
	var g *grant
	switch f.Get("grant_type") {
	case "authorization_code":
		g = as.codes[f.Get("code")]
		delete(as.codes, f.Get("code"))
		sum := sha256.Sum256([]byte(f.Get("code_verifier")))
		if g == nil || g.clientID != f.Get("client_id") || g.redirectURI != f.Get("redirect_uri") ||
			base64.RawURLEncoding.EncodeToString(sum[:]) != g.challenge || g.resource != f.Get("resource") {
			oauthError(w, 400, "invalid_grant", "unknown code, or client, redirect_uri, code_verifier or resource mismatch")
			return
		}
	case "refresh_token":
		g = as.refresh[f.Get("refresh_token")]
		delete(as.refresh, f.Get("refresh_token")) // rotation
		if g == nil || g.clientID != f.Get("client_id") || (f.Get("resource") != "" && f.Get("resource") != g.resource) {
			oauthError(w, 400, "invalid_grant", "unknown refresh token")
			return
		}
	default:
		oauthError(w, 400, "unsupported_grant_type", f.Get("grant_type"))
		return
	}
	lifetime := longLifetime
	if strings.HasSuffix(g.resource, shortResourceSuffix) {
		lifetime = shortLifetime
	}
	as.serial++
	access := fmt.Sprintf("at-%d-%s", as.serial, random())
	scopes := strings.Fields(g.scope)
	as.tokens[access] = &issued{resource: g.resource, scopes: scopes, expiry: time.Now().Add(time.Duration(lifetime) * time.Second)}
	resp := map[string]any{"access_token": access, "token_type": "Bearer", "expires_in": lifetime, "scope": g.scope}
	if slices.Contains(scopes, "offline_access") {
		rt := "rt-" + random()
		as.refresh[rt] = g
		resp["refresh_token"] = rt
	}
	writeJSON(w, 200, resp)
}

// verify returns the scopes of a valid, unexpired access token issued
// for resource.
func (as *authServer) verify(token, resource string) ([]string, time.Time, bool) {
	as.mu.Lock()
	defer as.mu.Unlock()
	t := as.tokens[token]
	if t == nil || t.resource != resource || !time.Now().Before(t.expiry) {
		return nil, time.Time{}, false
	}
	return t.scopes, t.expiry, true
}

// resourceOf returns the resource a token was issued for ("" if none).
func (as *authServer) resourceOf(token string) string {
	as.mu.Lock()
	defer as.mu.Unlock()
	if t := as.tokens[token]; t != nil {
		return t.resource
	}
	return ""
}
