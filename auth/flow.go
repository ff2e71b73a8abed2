package auth

import (
	"bytes"
	"context"
	"errors"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/mcpwasm/mcpwasm/internal/b64"
	"github.com/mcpwasm/mcpwasm/internal/errf"
	"github.com/mcpwasm/mcpwasm/internal/jsonscan"
	"github.com/mcpwasm/mcpwasm/internal/urlx"
	"github.com/mcpwasm/mcpwasm/transport/fetch"
)

// clientAuth is the client's identity at one authorization server and how
// it authenticates at the token endpoint.
type clientAuth struct {
	_                  [0]func() // not comparable: no generated equality function
	id, secret, method string
	signer             Signer
	how                string // for logs: "pre-registered", "CIMD", …
}

// pkce returns a code verifier and its S256 challenge (RFC 7636).
func (c *config) pkce() (verifier, challenge string, err error) {
	verifier, err = c.randomString(32) // 43 characters of the unreserved set
	return verifier, c.s256(verifier), err
}

// s256 is the S256 code challenge of a verifier: BASE64URL(SHA256(v)).
func (c *config) s256(verifier string) string {
	sum := c.SHA256([]byte(verifier))
	return b64.RawURLString(sum[:])
}

// chooseAuthMethod picks the token endpoint authentication method from
// what the server supports (RFC 8414 default: client_secret_basic) and
// what the client holds.
func chooseAuthMethod(supported []string, hasSecret, hasSigner bool) string {
	if len(supported) == 0 {
		supported = []string{AuthMethodBasic}
	}
	var candidates []string
	if hasSecret {
		candidates = append(candidates, AuthMethodBasic, AuthMethodPost)
	}
	if hasSigner {
		candidates = append(candidates, AuthMethodJWT)
	}
	candidates = append(candidates, AuthMethodNone)
	for _, c := range candidates {
		if slices.Contains(supported, c) {
			return c
		}
	}
	switch {
	case hasSecret:
		return AuthMethodBasic
	case hasSigner:
		return AuthMethodJWT
	}
	return AuthMethodNone
}

// preRegistered returns Options.Client if it may be used with issuer,
// binding credentials without an issuer to the first one.
func (d *Doer) preRegistered(issuer string) (*Client, string) {
	c := d.cfg.Client
	if c == nil || c.ID == "" {
		return nil, ""
	}
	if c.Issuer != "" {
		if issuerMatches(issuer, c.Issuer) {
			return c, ""
		}
		return nil, c.Issuer
	}
	d.mu.Lock()
	if d.preBound == "" {
		d.preBound = issuer
	}
	bound := d.preBound
	d.mu.Unlock()
	if bound == issuer {
		return c, ""
	}
	return nil, bound
}

// client returns the client identity to use with the discovered
// authorization server, registering one if needed and allowed, in the
// order MCP prescribes: pre-registered credentials, a registration made
// earlier, a Client ID Metadata Document, dynamic client registration.
func (d *Doer) client(ctx context.Context, disc *discovery, redirect string, register bool) (*clientAuth, error) {
	meta, issuer := disc.meta, disc.issuer
	pre, boundTo := d.preRegistered(issuer)
	if pre != nil {
		return clientIdentity(pre.ID, pre.Secret, pre.Signer, pre.AuthMethod, meta, "pre-registered"), nil
	}
	if d.cfg.Grant != GrantAuthorizationCode {
		return nil, failf(ErrNoRegistration, "%w: the %s grant needs Options.Client credentials for %s%s", d.cfg.Grant, issuer, boundNote(boundTo))
	}
	reg, err := d.cfg.Store.Registration(ctx, issuer)
	if err != nil {
		return nil, wrapErr("auth: reading the client registration", err)
	}
	if reg != nil && reg.ClientID != "" &&
		(reg.SecretExpiresAt.IsZero() || d.cfg.Now().Before(reg.SecretExpiresAt)) &&
		(redirect == "" || len(reg.RedirectURIs) == 0 || slices.Contains(reg.RedirectURIs, redirect)) {
		return clientIdentity(reg.ClientID, reg.ClientSecret, nil, reg.AuthMethod, meta, "registered"), nil
	}
	if meta.ClientIDMetadataDocumentSupported && d.cfg.ClientMetadataURL != "" {
		if u, err := urlx.Parse(d.cfg.ClientMetadataURL); err != nil || u.Scheme != "https" || u.Host == "" || u.Path == "" || u.Path == "/" || u.Fragment != "" {
			d.cfg.logs("auth: ignoring ClientMetadataURL %q: not an https URL with a path", d.cfg.ClientMetadataURL)
		} else {
			return &clientAuth{id: d.cfg.ClientMetadataURL, method: AuthMethodNone, how: "client ID metadata document"}, nil
		}
	}
	if !register {
		return nil, failf(ErrNoRegistration, "%w: no registration with %s", issuer)
	}
	if meta.RegistrationEndpoint == "" {
		return nil, failf(ErrNoRegistration, "%w: %s offers neither dynamic registration nor client ID metadata documents%s", issuer, boundNote(boundTo))
	}
	reg, err = d.registerClient(ctx, meta, redirect, disc.covers)
	if err != nil {
		return nil, err
	}
	if err := d.cfg.Store.SetRegistration(ctx, issuer, reg); err != nil {
		return nil, wrapErr("auth: storing the client registration", err)
	}
	return clientIdentity(reg.ClientID, reg.ClientSecret, nil, reg.AuthMethod, meta, "dynamically registered"), nil
}

// clientIdentity is a client identity: its method is the given one, else
// one chosen from what the server supports.
func clientIdentity(id, secret string, signer Signer, method string, meta *asMetadata, how string) *clientAuth {
	if method == "" {
		method = chooseAuthMethod(meta.TokenEndpointAuthMethodsSupported, secret != "", signer != nil)
	}
	return &clientAuth{id: id, secret: secret, signer: signer, method: method, how: how}
}

func boundNote(issuer string) string {
	if issuer == "" {
		return ""
	}
	return " (the pre-registered credentials belong to " + issuer + ")"
}

// applicationType returns the OpenID application_type for a redirect URI.
func (d *Doer) applicationType(redirect string) string {
	if d.cfg.ApplicationType != "" {
		return d.cfg.ApplicationType
	}
	u, err := urlx.Parse(redirect)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || isLoopback(u) {
		return "native"
	}
	return "web"
}

// registerClient performs dynamic client registration (RFC 7591).
func (d *Doer) registerClient(ctx context.Context, meta *asMetadata, redirect string, resource *urlx.URL) (*Registration, error) {
	// Ask for a method the server supports, preferring a public client.
	method := ""
	for _, m := range []string{AuthMethodNone, AuthMethodBasic, AuthMethodPost} {
		if slices.Contains(meta.TokenEndpointAuthMethodsSupported, m) {
			method = m
			break
		}
	}
	b := registrationRequest(d.applicationType(redirect), d.cfg.ClientName, redirect, method)
	d.cfg.logs("auth: registering the client at %s", meta.RegistrationEndpoint)
	rb, err := d.postOAuth(ctx, nil, "client registration", "registration", meta.RegistrationEndpoint, oauthHeader("application/json"), b, resource, nil)
	if err != nil {
		return nil, err
	}
	var r registrationResponse
	if err := decodeRegistration(rb, &r); err != nil || r.ClientID == "" {
		return nil, errNoClientID
	}
	reg := &Registration{ClientID: r.ClientID, ClientSecret: r.ClientSecret, AuthMethod: r.AuthMethod, RedirectURIs: r.RedirectURIs}
	if len(reg.RedirectURIs) == 0 {
		reg.RedirectURIs = []string{redirect}
	}
	if r.ClientSecretExpiresAt > 0 {
		reg.SecretExpiresAt = time.Unix(r.ClientSecretExpiresAt, 0)
	}
	return reg, nil
}

// registrationRequest is the client metadata of a dynamic registration
// request, members sorted (the bytes encoding/json wrote for the map it
// was built from before); method is omitted when empty.
func registrationRequest(appType, name, redirect, method string) []byte {
	w := jsonscan.NewObjectWriter(nil)
	w.String("application_type", appType)
	w.String("client_name", name)
	w.Raw("grant_types", []byte(`["`+GrantAuthorizationCode+`","`+refreshGrantType+`"]`))
	w.Raw("redirect_uris", append(jsonscan.AppendString([]byte{'['}, redirect), ']'))
	w.Raw("response_types", []byte(`["code"]`))
	w.StringOmit("token_endpoint_auth_method", method)
	return w.Bytes()
}

// authorizationCode runs the authorization code grant with PKCE, state
// and RFC 9207 issuer validation.
func (d *Doer) authorizationCode(ctx context.Context, disc *discovery, scopes []string, dpop bool) (*Token, error) {
	if cb := d.takeCallback(); cb != "" {
		if tok, err := d.resume(ctx, disc, cb, dpop); tok != nil || err != nil {
			return tok, err
		}
	}
	ua := d.cfg.UserAgent
	if ua == nil {
		return nil, ErrNoUserAgent
	}
	meta := disc.meta
	if !slices.Contains(meta.CodeChallengeMethodsSupported, "S256") {
		return nil, errf.Errorf("%w (code_challenge_methods_supported: %v)", ErrNoPKCE, meta.CodeChallengeMethodsSupported)
	}
	if meta.AuthorizationEndpoint == "" {
		return nil, errNoAuthzEndpoint
	}
	redirect := ua.RedirectURI()
	ru, err := urlx.Parse(redirect)
	if err != nil || ru.Scheme == "" {
		return nil, errf.Errorf("auth: invalid redirect URI %q", redirect)
	}
	ca, err := d.client(ctx, disc, redirect, true)
	if err != nil {
		return nil, err
	}
	d.cfg.logs("auth: client %s (%s, token endpoint auth %s)", ca.id, ca.how, ca.method)

	verifier, challenge, err := d.cfg.pkce()
	if err != nil {
		return nil, err
	}
	state, err := d.cfg.randomString(32)
	if err != nil {
		return nil, err
	}
	scope := strings.Join(scopes, " ")
	au, _ := urlx.Parse(meta.AuthorizationEndpoint)
	q := setPairs(au.Query(), "response_type", "code", "client_id", ca.id, "redirect_uri", redirect,
		"code_challenge", challenge, "code_challenge_method", "S256", "state", state, "resource", disc.resource)
	if scope != "" {
		setPairs(q, "scope", scope)
	}
	au.RawQuery = q.Encode()
	d.cfg.logs("auth: authorization request to %s (scope %q)", meta.AuthorizationEndpoint, scope)

	pending := &Pending{State: state, Verifier: verifier, RedirectURI: redirect, ClientID: ca.id, Scope: scope, Created: d.cfg.Now()}
	if err := d.savePending(ctx, disc, pending); err != nil {
		return nil, err
	}
	cb, err := ua.Authorize(ctx, au.String())
	if errors.Is(err, ErrRedirected) {
		d.cfg.logf("auth: the page went to the authorization server; the authorization is pending")
		return nil, err
	}
	d.dropPending(ctx, disc)
	if err != nil {
		return nil, err
	}
	code, err := checkCallback(cb, ru, state, meta, disc.issuer)
	if err != nil {
		return nil, err
	}
	return d.redeemCode(ctx, disc, ca, code, pending, dpop)
}

// redeemCode exchanges an authorization code at the token endpoint with
// the PKCE verifier, redirect URI and scope of the authorization request
// p, for the discovered resource.
func (d *Doer) redeemCode(ctx context.Context, disc *discovery, ca *clientAuth, code string, p *Pending, dpop bool) (*Token, error) {
	tok, err := d.tokenRequest(ctx, disc, setPairs(nil, "grant_type", GrantAuthorizationCode, "code", code,
		"redirect_uri", p.RedirectURI, "code_verifier", p.Verifier, "resource", disc.resource), ca, dpop)
	if err != nil {
		return nil, err
	}
	tok.Scope = p.Scope
	return tok, nil
}

// checkCallback validates an authorization response and returns its code:
// it must be at the redirect URI, carry our state, and an iss equal to
// the recorded issuer whenever one is present or the server advertises it
// (RFC 9207 §2.4; plain string comparison). Errors are reported only
// after the issuer check (a mix-up attacker's error is not acted on).
func checkCallback(raw string, redirect *urlx.URL, state string, meta *asMetadata, issuer string) (string, error) {
	u, err := urlx.Parse(raw)
	if err != nil {
		return "", errf.Errorf("%w: %v", ErrRedirectMismatch, err)
	}
	if !atRedirect(u, redirect) {
		return "", failf(ErrRedirectMismatch, "%w: %s", redact(raw))
	}
	q := u.Query()
	if got := q.Get("state"); !constantTimeEqual(got, state) {
		return "", ErrStateMismatch
	}
	if q.Has("iss") {
		if q.Get("iss") != issuer {
			return "", failf(ErrIssuerMismatch, "%w: got %q, expected %q", q.Get("iss"), issuer)
		}
	} else if meta.IssParameterSupported {
		return "", failf(ErrIssuerMissing, "%w (expected %q)", issuer)
	}
	if e := q.Get("error"); e != "" {
		return "", &Error{Code: e, Description: q.Get("error_description"), URI: q.Get("error_uri"), Endpoint: "authorization"}
	}
	code := q.Get("code")
	if code == "" {
		return "", errNoCode
	}
	return code, nil
}

// refresh exchanges a refresh token (the new token keeps the requested
// scope, and the old refresh token if no new one is issued).
func (d *Doer) refresh(ctx context.Context, disc *discovery, old *Token, dpop bool) (*Token, error) {
	ca, err := d.client(ctx, disc, "", false)
	if err != nil {
		return nil, err
	}
	d.cfg.logs("auth: refreshing the token for %s", disc.resource)
	form := setPairs(nil, "grant_type", refreshGrantType, "refresh_token", old.RefreshToken, "resource", disc.resource)
	tok, err := d.tokenRequest(ctx, disc, form, ca, dpop)
	if err != nil {
		return nil, err
	}
	if tok.RefreshToken == "" {
		tok.RefreshToken = old.RefreshToken
	}
	tok.Scope = old.Scope
	return tok, nil
}

// machineGrant runs the client credentials or JWT bearer grant.
func (d *Doer) machineGrant(ctx context.Context, disc *discovery, scopes []string, dpop bool) (*Token, error) {
	ca, err := d.client(ctx, disc, "", false)
	if err != nil {
		return nil, err
	}
	form := setPairs(nil, "grant_type", d.cfg.Grant, "resource", disc.resource)
	if len(scopes) > 0 {
		setPairs(form, "scope", strings.Join(scopes, " "))
	}
	if d.cfg.Grant == GrantJWTBearer {
		if d.cfg.Assertion == nil {
			return nil, errors.New("auth: the JWT bearer grant needs Options.Assertion")
		}
		a, err := d.cfg.Assertion(ctx, &AssertionRequest{
			Issuer:        disc.issuer,
			TokenEndpoint: disc.meta.TokenEndpoint,
			Resource:      disc.resource,
			Scopes:        append(scopes[:0:0], scopes...),
			HTTP:          d.inner,
		})
		if err != nil {
			return nil, wrapErr("auth: obtaining the assertion", err)
		}
		setPairs(form, "assertion", a)
	}
	d.cfg.logs("auth: %s grant at %s as %s (%s)", d.cfg.Grant, disc.meta.TokenEndpoint, ca.id, ca.method)
	tok, err := d.tokenRequest(ctx, disc, form, ca, dpop)
	if err != nil {
		return nil, err
	}
	tok.Scope = strings.Join(scopes, " ")
	return tok, nil
}

// applyClientAuth adds the client's authentication to a token request.
func (d *Doer) applyClientAuth(ctx context.Context, ca *clientAuth, form urlx.Values, h fetch.Header, audience string) error {
	switch ca.method {
	case AuthMethodBasic:
		// RFC 6749 §2.3.1: form-encode both, then Base64.
		cred := urlx.QueryEscape(ca.id) + ":" + urlx.QueryEscape(ca.secret)
		hset(h, "authorization", "Basic "+b64.StdString([]byte(cred)))
	case AuthMethodPost:
		setPairs(form, "client_id", ca.id, "client_secret", ca.secret)
	case AuthMethodJWT:
		if ca.signer == nil {
			return errors.New("auth: private_key_jwt needs Client.Signer")
		}
		a, err := d.cfg.clientAssertion(ctx, ca.signer, ca.id, audience, d.cfg.Now())
		if err != nil {
			return err
		}
		setPairs(form, "client_id", ca.id, "client_assertion_type", "urn:ietf:params:oauth:client-assertion-type:jwt-bearer", "client_assertion", a)
	case AuthMethodNone:
		setPairs(form, "client_id", ca.id)
	default:
		return errf.Errorf("auth: unsupported token endpoint auth method %q", ca.method)
	}
	return nil
}

// tokenRequest POSTs to the token endpoint (with a DPoP proof when dpop,
// retrying once with the server's nonce on use_dpop_nonce) and parses the
// token response.
func (d *Doer) tokenRequest(ctx context.Context, disc *discovery, base urlx.Values, ca *clientAuth, dpop bool) (*Token, error) {
	endpoint := disc.meta.TokenEndpoint
	eu, err := urlx.Parse(endpoint)
	if err != nil {
		return nil, failf(ErrMetadata, "%w: token endpoint %q", endpoint)
	}
	for attempt := 0; ; attempt++ {
		form := urlx.Values{}
		for k, v := range base {
			form[k] = append(v[:0:0], v...)
		}
		h := oauthHeader(formType)
		if err := d.applyClientAuth(ctx, ca, form, h, disc.issuer); err != nil {
			return nil, err
		}
		nonce := ""
		if dpop {
			nonce = d.nonce(eu)
			proof, err := d.cfg.dpopProof(ctx, d.cfg.DPoP, "POST", endpoint, "", nonce, d.cfg.Now())
			if err != nil {
				return nil, err
			}
			hset(h, "dpop", proof)
		}
		b, err := d.postOAuth(ctx, nil, "token request", "token", endpoint, h, []byte(form.Encode()), disc.covers, eu)
		if err == nil {
			return d.parseToken(b, dpop)
		}
		if e := oauthErr(err); dpop && attempt == 0 && e != nil && e.Code == "use_dpop_nonce" && d.nonce(eu) != nonce {
			d.cfg.logf("auth: token endpoint asked for a DPoP nonce: retrying")
			continue
		}
		return nil, err
	}
}

// parseToken parses a successful token response (RFC 6749 §5.1).
func (d *Doer) parseToken(b []byte, dpop bool) (*Token, error) {
	var r tokenResponse
	if err := decodeTokenResponse(b, &r); err != nil {
		return nil, errf.Errorf("%w: token response: %v", ErrBadResponse, err)
	}
	if r.AccessToken == "" {
		return nil, errNoAccessToken
	}
	t := &Token{AccessToken: r.AccessToken, RefreshToken: r.RefreshToken, GrantedScope: r.Scope}
	switch {
	case r.TokenType == "" || strings.EqualFold(r.TokenType, "Bearer"):
		t.Type = "Bearer"
	case strings.EqualFold(r.TokenType, "DPoP") && dpop:
		t.Type = "DPoP"
		t.JKT = d.cfg.thumbprint(d.cfg.DPoP.PublicJWK())
	default:
		return nil, failf(ErrBadResponse, "%w: unsupported token_type %q", r.TokenType)
	}
	if len(r.ExpiresIn) > 0 && string(r.ExpiresIn) != "null" {
		if life, ok := tokenLifetime(r.ExpiresIn); ok {
			t.Expiry = d.cfg.Now().Add(life)
		} else {
			d.cfg.logf("auth: ignoring the token response's invalid expires_in %.40s: the token is used until the server refuses it", r.ExpiresIn)
		}
	}
	return t, nil
}

// maxTokenLifetime caps the lifetime a token response's expires_in gives a
// token: a larger value (up to 1e308 seconds, which would overflow a
// time.Duration into the past) counts as this long.
const maxTokenLifetime = 366 * 24 * time.Hour

// tokenLifetime reads expires_in (RFC 6749 §5.1: seconds, a JSON number;
// a numeric string is accepted too). A fraction is dropped, a huge value is
// capped at maxTokenLifetime; a negative, non-finite or non-numeric value
// is not a lifetime (ok false): expires_in is advice, and a token is never
// turned into one that is always expired because of it.
func tokenLifetime(raw []byte) (life time.Duration, ok bool) {
	s := string(raw)
	for len(s) > 0 && s[0] == '"' {
		s = s[1:]
	}
	for len(s) > 0 && s[len(s)-1] == '"' {
		s = s[:len(s)-1]
	}
	n, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(n) || math.IsInf(n, 0) || n < 0 {
		return 0, false
	}
	if n >= float64(maxTokenLifetime/time.Second) {
		return maxTokenLifetime, true
	}
	return time.Duration(n) * time.Second, true
}

// setPairs sets the fields of v (a new Values when nil) from name, value
// pairs, and returns v.
func setPairs(v urlx.Values, kv ...string) urlx.Values {
	if v == nil {
		v = urlx.Values{}
	}
	for i := 0; i+1 < len(kv); i += 2 {
		v[kv[i]] = []string{kv[i+1]}
	}
	return v
}

// formType is the content type of form-encoded requests.
const formType = "application/x-www-form-urlencoded"

// oauthHeader is the header of a request to an authorization server.
func oauthHeader(contentType string) fetch.Header {
	return fetch.Header{"content-type": {contentType}, "accept": {"application/json"}}
}

// postOAuth POSTs body to an authorization server's endpoint (named by
// endpoint: "token", "registration"…): through doer when it is not nil,
// else through the URL guard for the protected resource at resource. It
// returns the body of a 2xx answer, and otherwise the endpoint's error
// (oauthError); task prefixes the errors of the request itself. A DPoP
// nonce in the answer is noted for nonceAt, when not nil.
func (d *Doer) postOAuth(ctx context.Context, doer fetch.Doer, task, endpoint, url string, h fetch.Header, body []byte, resource, nonceAt *urlx.URL) ([]byte, error) {
	req := &fetch.Request{Method: "POST", URL: url, Header: h, Body: body, MaxBody: maxDocument}
	var resp *fetch.Response
	var err error
	if doer != nil {
		resp, err = doer.Do(ctx, req)
	} else {
		resp, err = d.guardedDo(ctx, endpoint+"_endpoint", req, resource)
	}
	if err == nil {
		if nonceAt != nil {
			d.noteNonce(nonceAt, resp)
		}
		var b []byte
		if b, err = readBody(resp); err == nil {
			if resp.StatusCode < 200 || resp.StatusCode > 299 {
				return nil, oauthError(b, resp.StatusCode, endpoint)
			}
			return b, nil
		}
	}
	return nil, errf.Errorf("auth: %s: %w", task, err)
}

// readBody reads (at most maxDocument bytes of) a response body.
func readBody(resp *fetch.Response) ([]byte, error) {
	b, err := readAtMost(resp, maxDocument+1)
	if err != nil {
		return nil, err
	}
	if len(b) > maxDocument {
		return nil, errf.Errorf("%w: response larger than %d bytes", ErrBadResponse, maxDocument)
	}
	return b, nil
}

// readAtMost reads at most limit bytes of a response body and closes it
// (io.ReadAll of an io.LimitReader, without io's copying machinery).
func readAtMost(resp *fetch.Response, limit int) ([]byte, error) {
	b := make([]byte, 0, min(limit, 512))
	var err error
	for len(b) < limit && err == nil {
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)] // grow as append does
		}
		var n int
		n, err = resp.Body.Read(b[len(b):min(cap(b), limit)])
		b = b[:len(b)+n]
	}
	resp.Body.Close()
	if err == io.EOF {
		err = nil
	}
	return b, err
}

// oauthError turns an error response into *Error (or ErrBadResponse when
// the body is not an OAuth error).
func oauthError(b []byte, status int, endpoint string) error {
	var e errorResponse
	if decodeErrorResponse(b, &e) == nil && e.Error != "" {
		return &Error{Code: e.Error, Description: e.Description, URI: e.URI, StatusCode: status, Endpoint: endpoint}
	}
	detail := string(bytes.TrimSpace(b))
	if len(detail) > 200 {
		detail = detail[:200] + "…"
	}
	return errf.Errorf("%w: %s endpoint answered HTTP %d: %s", ErrBadResponse, endpoint, status, detail)
}
