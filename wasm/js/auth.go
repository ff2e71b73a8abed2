//go:build js

package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"syscall/js"

	"github.com/mcpwasm/mcpwasm/auth"
	"github.com/mcpwasm/mcpwasm/internal/js/bridge"
	"github.com/mcpwasm/mcpwasm/transport/fetch"
)

// authOptions is the JSON part of connect's auth option (js/src/auth.js
// splits the option into this and the hooks object). Which hooks exist is
// said here; the functions themselves come in the hooks object:
//
//	{onAuthorizationUrl(url, info) → string | null | Promise,
//	 storage: {load(key), save(key, value), remove?(key)},
//	 assertion(request) → string | Promise, subjectToken() → string | Promise,
//	 log(line)}
type authOptions struct {
	// Grant is "authorization_code" (default), "client_credentials" or
	// "jwt_bearer".
	Grant string `json:"grant"`
	// UserAgent is "" (the page's onAuthorizationUrl) or "headless".
	UserAgent            string      `json:"userAgent"`
	RedirectURI          string      `json:"redirectUri"`
	CallbackURL          string      `json:"callbackUrl"`
	Client               *authClient `json:"client"`
	ClientMetadataURL    string      `json:"clientMetadataUrl"`
	ClientName           string      `json:"clientName"`
	ApplicationType      string      `json:"applicationType"`
	Scopes               []string    `json:"scopes"`
	NoOfflineAccess      bool        `json:"noOfflineAccess"`
	DPoP                 bool        `json:"dpop"`
	IDJAG                *authIDJAG  `json:"idJag"`
	MaxAuthorizations    int         `json:"maxAuthorizations"`
	AuthorizationTimeout float64     `json:"authorizationTimeout"` // ms
	AllowInsecureHTTP    bool        `json:"allowInsecureHttp"`
	AllowPrivateAddr     bool        `json:"allowPrivateAddresses"`
}

// authClient is a pre-registered client.
type authClient struct {
	ID            string `json:"id"`
	Secret        string `json:"secret"`
	PrivateKeyPEM string `json:"privateKeyPem"`
	AuthMethod    string `json:"authMethod"`
	Issuer        string `json:"issuer"`
}

// authIDJAG configures enterprise-managed authorization (the user's
// identity provider; the ID token comes from the subjectToken hook).
type authIDJAG struct {
	TokenEndpoint    string `json:"tokenEndpoint"`
	ClientID         string `json:"clientId"`
	ClientSecret     string `json:"clientSecret"`
	SubjectTokenType string `json:"subjectTokenType"`
}

// grant maps a JS grant name to the auth package's.
func grant(name string) (string, bool) {
	switch name {
	case "", "authorization_code":
		return auth.GrantAuthorizationCode, true
	case "client_credentials":
		return auth.GrantClientCredentials, true
	case "jwt_bearer":
		return auth.GrantJWTBearer, true
	}
	return "", false
}

// authDoer wraps the transport's Doer with OAuth as connect's auth option
// says. It runs on a connect goroutine (the signers await WebCrypto).
func authDoer(inner fetch.Doer, o *authOptions, hooks js.Value) (fetch.Doer, error) {
	fn := func(name string) js.Value {
		if hooks.Type() != js.TypeObject {
			return js.Undefined()
		}
		if f := hooks.Get(name); f.Type() == js.TypeFunction {
			return f
		}
		return js.Undefined()
	}
	g, ok := grant(o.Grant)
	if !ok {
		return nil, fmt.Errorf("mcpwasm: auth: unknown grant %q (authorization_code, client_credentials, jwt_bearer)", o.Grant)
	}
	if o.IDJAG != nil && o.Grant == "" {
		g = auth.GrantJWTBearer
	}
	opts := &auth.Options{
		Grant:             g,
		CallbackURL:       o.CallbackURL,
		ClientMetadataURL: o.ClientMetadataURL,
		ClientName:        o.ClientName,
		ApplicationType:   o.ApplicationType,
		Scopes:            o.Scopes,
		NoOfflineAccess:   o.NoOfflineAccess,
		MaxAuthorizations: o.MaxAuthorizations,
		AllowInsecureHTTP: o.AllowInsecureHTTP,
		// Tests and development only: see auth.Options.
		AllowPrivateAddresses: o.AllowPrivateAddr,
	}
	platformAuth(opts)
	if o.AuthorizationTimeout > 0 {
		opts.AuthorizationTimeout = ms(o.AuthorizationTimeout)
	}
	var storage js.Value
	if hooks.Type() == js.TypeObject {
		storage = hooks.Get("storage")
	}
	resumable := false
	if storage.Type() == js.TypeObject {
		opts.Store = &jsStore{hooks: storage}
		resumable = true
	}
	switch {
	case o.UserAgent == "headless":
		h := auth.Headless(inner)
		h.Redirect = o.RedirectURI
		opts.UserAgent = h
	case o.UserAgent != "":
		return nil, fmt.Errorf("mcpwasm: auth: unknown userAgent %q (headless, or pass onAuthorizationUrl)", o.UserAgent)
	case fn("onAuthorizationUrl").Type() == js.TypeFunction:
		if o.RedirectURI == "" {
			return nil, errors.New("mcpwasm: auth: redirectUri is required with onAuthorizationUrl")
		}
		opts.UserAgent = &jsUserAgent{fn: fn("onAuthorizationUrl"), redirect: o.RedirectURI, resumable: resumable}
	}
	if c := o.Client; c != nil {
		opts.Client = &auth.Client{ID: c.ID, Secret: c.Secret, AuthMethod: c.AuthMethod, Issuer: c.Issuer}
		if c.PrivateKeyPEM != "" {
			s, err := parseSigner([]byte(c.PrivateKeyPEM))
			if err != nil {
				return nil, fmt.Errorf("mcpwasm: auth: client.privateKeyPem: %w", err)
			}
			opts.Client.Signer = s
		}
	}
	if o.DPoP {
		s, err := generateSigner()
		if err != nil {
			return nil, fmt.Errorf("mcpwasm: auth: DPoP key: %w", err)
		}
		opts.DPoP = s
	}
	if f := fn("log"); f.Type() == js.TypeFunction {
		opts.Logf = func(format string, args ...any) {
			defer func() { _ = recover() }()
			f.Invoke(fmt.Sprintf(format, args...))
		}
	}
	if j := o.IDJAG; j != nil {
		subject := fn("subjectToken")
		if subject.Type() != js.TypeFunction {
			return nil, errors.New("mcpwasm: auth: idJag needs a subjectToken function")
		}
		opts.Assertion = auth.IDJAG(&auth.IDJAGOptions{
			TokenEndpoint:    j.TokenEndpoint,
			ClientID:         j.ClientID,
			ClientSecret:     j.ClientSecret,
			SubjectTokenType: j.SubjectTokenType,
			SubjectToken: func(ctx context.Context) (string, error) {
				return callString(ctx, subject, "subjectToken")
			},
		})
	} else if f := fn("assertion"); f.Type() == js.TypeFunction {
		opts.Assertion = func(ctx context.Context, req *auth.AssertionRequest) (string, error) {
			scopes := req.Scopes
			if scopes == nil {
				scopes = []string{}
			}
			b, _ := json.Marshal(map[string]any{
				"issuer":        req.Issuer,
				"tokenEndpoint": req.TokenEndpoint,
				"resource":      req.Resource,
				"scopes":        scopes,
			})
			return callString(ctx, f, "assertion", js.Global().Get("JSON").Call("parse", string(b)))
		}
	}
	return auth.NewDoer(inner, opts), nil
}

// callString calls a hook and awaits the string it returns.
func callString(ctx context.Context, f js.Value, name string, args ...any) (s string, err error) {
	defer jsbridge.Recover(&err)
	v, err := await(ctx, func() js.Value { return f.Invoke(args...) })
	if err != nil {
		return "", fmt.Errorf("mcpwasm: auth: %s: %w", name, err)
	}
	if v.Type() != js.TypeString || v.String() == "" {
		return "", fmt.Errorf("mcpwasm: auth: %s must return a non-empty string, got %s", name, v.Type())
	}
	return v.String(), nil
}

// await calls a hook and awaits its result; a synchronous throw is an
// error like a rejection.
func await(ctx context.Context, call func() js.Value) (js.Value, error) {
	var p js.Value
	if err := jsbridge.Call(func() { p = call() }); err != nil {
		return js.Undefined(), err
	}
	return jsbridge.Await(ctx, p)
}

// jsUserAgent is the page's user-agent step: onAuthorizationUrl(url,
// {redirectUri, state, resumable, signal}) resolves with the URL the
// authorization server redirected back to, or with null after sending the
// whole page there (a full-page redirect; resumable says whether the
// storage hooks can keep the pending authorization meanwhile). It is safe
// for concurrent use.
type jsUserAgent struct {
	fn        js.Value
	redirect  string
	resumable bool
}

func (a *jsUserAgent) RedirectURI() string { return a.redirect }

func (a *jsUserAgent) Authorize(ctx context.Context, authURL string) (cb string, err error) {
	defer jsbridge.Recover(&err)
	state := ""
	if u, err := url.Parse(authURL); err == nil {
		state = u.Query().Get("state")
	}
	signal, stop, err := jsbridge.AbortSignal(ctx)
	if err != nil {
		signal = js.Undefined()
	}
	defer stop()
	info := js.Global().Get("Object").New()
	info.Set("redirectUri", a.redirect)
	info.Set("state", state)
	info.Set("resumable", a.resumable)
	info.Set("signal", signal)
	v, err := await(ctx, func() js.Value { return a.fn.Invoke(authURL, info) })
	if err != nil {
		return "", fmt.Errorf("auth: onAuthorizationUrl: %w", err)
	}
	switch v.Type() {
	case js.TypeString:
		return v.String(), nil
	case js.TypeNull:
		return "", fmt.Errorf("auth: onAuthorizationUrl resolved with null: %w", auth.ErrRedirected)
	}
	return "", fmt.Errorf("auth: onAuthorizationUrl must resolve with the callback URL (a string), or null after sending the page to the authorization server; got %s", v.Type())
}

// jsStore is an auth.Store (and auth.PendingStore) on the page's storage
// hooks {load(key) → string | null, save(key, value), remove?(key)}, each
// of which may return a Promise. Values are JSON; keys are
// "registration <issuer>", "token <issuer> <resource>" and
// "pending <issuer> <resource>" (URLs contain no spaces). It is safe for
// concurrent use (every JavaScript call runs on the one wasm thread).
type jsStore struct{ hooks js.Value }

func (s *jsStore) load(ctx context.Context, key string, v any) (found bool, err error) {
	defer jsbridge.Recover(&err)
	f := s.hooks.Get("load")
	if f.Type() != js.TypeFunction {
		return false, errors.New("mcpwasm: auth: storage.load is not a function")
	}
	r, err := await(ctx, func() js.Value { return s.hooks.Call("load", key) })
	if err != nil {
		return false, fmt.Errorf("mcpwasm: auth: storage.load: %w", err)
	}
	switch r.Type() {
	case js.TypeNull, js.TypeUndefined:
		return false, nil
	case js.TypeString:
	default:
		return false, fmt.Errorf("mcpwasm: auth: storage.load must return a string or null, got %s", r.Type())
	}
	raw := r.String()
	if raw == "" || raw == "null" {
		return false, nil
	}
	if err := json.Unmarshal([]byte(raw), v); err != nil {
		return false, fmt.Errorf("mcpwasm: auth: storage.load(%q) returned invalid JSON: %w", key, err)
	}
	return true, nil
}

func (s *jsStore) save(ctx context.Context, key string, v any, del bool) (err error) {
	defer jsbridge.Recover(&err)
	method, args := "save", []any{key, "null"}
	switch {
	case del && s.hooks.Get("remove").Type() == js.TypeFunction:
		method, args = "remove", []any{key}
	case s.hooks.Get("save").Type() != js.TypeFunction:
		return errors.New("mcpwasm: auth: storage.save is not a function")
	case !del:
		b, err := json.Marshal(v)
		if err != nil {
			return err
		}
		args[1] = string(b)
	}
	if _, err := await(ctx, func() js.Value { return s.hooks.Call(method, args...) }); err != nil {
		return fmt.Errorf("mcpwasm: auth: storage.%s: %w", method, err)
	}
	return nil
}

func storeKey(kind string, parts ...string) string {
	return kind + " " + strings.Join(parts, " ")
}

func (s *jsStore) Registration(ctx context.Context, issuer string) (*auth.Registration, error) {
	var r auth.Registration
	if ok, err := s.load(ctx, storeKey("registration", issuer), &r); !ok || err != nil {
		return nil, err
	}
	return &r, nil
}

func (s *jsStore) SetRegistration(ctx context.Context, issuer string, r *auth.Registration) error {
	return s.save(ctx, storeKey("registration", issuer), r, r == nil)
}

func (s *jsStore) Token(ctx context.Context, resource, issuer string) (*auth.Token, error) {
	var t auth.Token
	if ok, err := s.load(ctx, storeKey("token", issuer, resource), &t); !ok || err != nil {
		return nil, err
	}
	return &t, nil
}

func (s *jsStore) SetToken(ctx context.Context, resource, issuer string, t *auth.Token) error {
	return s.save(ctx, storeKey("token", issuer, resource), t, t == nil)
}

func (s *jsStore) Pending(ctx context.Context, resource, issuer string) (*auth.Pending, error) {
	var p auth.Pending
	if ok, err := s.load(ctx, storeKey("pending", issuer, resource), &p); !ok || err != nil {
		return nil, err
	}
	return &p, nil
}

func (s *jsStore) SetPending(ctx context.Context, resource, issuer string, p *auth.Pending) error {
	return s.save(ctx, storeKey("pending", issuer, resource), p, p == nil)
}

// authErrorData is the data of an McpError of kind "auth".
func authErrorData(err error) json.RawMessage {
	d := map[string]any{}
	var oe *auth.Error
	if errors.As(err, &oe) {
		d["error"] = oe.Code
		if oe.Description != "" {
			d["errorDescription"] = oe.Description
		}
		d["endpoint"] = oe.Endpoint
	}
	if errors.Is(err, auth.ErrRedirected) {
		d["redirected"] = true
	}
	if errors.Is(err, fetch.ErrHiddenHeader) {
		d["hiddenHeader"] = "WWW-Authenticate"
	}
	if len(d) == 0 {
		return nil
	}
	b, _ := json.Marshal(d)
	return b
}

// isAuthError reports whether err is an authorization failure: an error
// of the auth package (whose messages start with its "auth: " prefix)
// anywhere in err's chain.
func isAuthError(err error) bool {
	if err == nil {
		return false
	}
	if strings.HasPrefix(err.Error(), "auth: ") || strings.HasPrefix(err.Error(), "mcpwasm: auth: ") {
		return true
	}
	switch u := err.(type) {
	case interface{ Unwrap() error }:
		return isAuthError(u.Unwrap())
	case interface{ Unwrap() []error }:
		for _, e := range u.Unwrap() {
			if isAuthError(e) {
				return true
			}
		}
	}
	return false
}

// authErrorStatus is the HTTP status of an OAuth error response, if any.
func authErrorStatus(err error) int {
	var oe *auth.Error
	if errors.As(err, &oe) {
		return oe.StatusCode
	}
	return 0
}
