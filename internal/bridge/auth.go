package bridge

import (
	"context"
	"errors"
	"io"
	"slices"

	"github.com/mcpwasm/mcpwasm/auth"
	"github.com/mcpwasm/mcpwasm/internal/errf"
	"github.com/mcpwasm/mcpwasm/internal/rawjson"
	"github.com/mcpwasm/mcpwasm/transport/fetch"
)

// Grants of AuthConfig.Grant.
const (
	GrantAuthorizationCode = "authorization_code"
	GrantClientCredentials = "client_credentials"
	GrantJWTBearer         = "jwt_bearer"
)

// User agents of AuthConfig.UserAgent.
const (
	// UserAgentHost: the host shows the authorization URL to the user and
	// returns the callback URL (AuthHooks.UserAgent: the page's
	// onAuthorizationUrl in JavaScript, "authorize" events in the WASI
	// ABI). The default when the host has one.
	UserAgentHost = "host"
	// UserAgentHeadless: the module requests the authorization URL itself
	// without following redirects and reads the redirect to the redirect
	// URI (authorization servers that need no user: tests, the
	// conformance suite's).
	UserAgentHeadless = "headless"
)

// AuthConfig configures OAuth for a connection (ConnectConfig.Auth). The
// module runs the whole authorization (discovery, registration, PKCE,
// token requests, refresh, step-up, DPoP); the host performs HTTP and, with
// UserAgentHost, shows the authorization URL to the user.
type AuthConfig struct {
	// Grant is GrantAuthorizationCode (default; GrantJWTBearer when an
	// assertion or IDJAG is given), GrantClientCredentials or
	// GrantJWTBearer.
	Grant string `json:"grant,omitempty"`
	// UserAgent is UserAgentHost or UserAgentHeadless (default: the host's
	// when it has one).
	UserAgent string `json:"userAgent,omitempty"`
	// RedirectURI is the redirect URI of authorization requests: required
	// with UserAgentHost; default http://127.0.0.1/callback headless.
	RedirectURI string `json:"redirectUri,omitempty"`
	// CallbackURL resumes an authorization after a full-page redirect: the
	// URL the authorization server sent the page back to.
	CallbackURL string `json:"callbackUrl,omitempty"`
	// ClientID, ClientSecret, AuthMethod and Issuer are pre-registered
	// client credentials (required for the client credentials and JWT
	// bearer grants). AuthMethod is the token endpoint authentication
	// method ("none", "client_secret_basic", "client_secret_post",
	// "private_key_jwt"; default: chosen from what the server supports);
	// Issuer binds the credentials to one authorization server.
	ClientID     string `json:"clientId,omitempty"`
	ClientSecret string `json:"clientSecret,omitempty"`
	AuthMethod   string `json:"authMethod,omitempty"`
	Issuer       string `json:"issuer,omitempty"`
	// PrivateKeyPEM is the client's private key (PKCS #8, SEC 1 or PKCS #1
	// PEM) for private_key_jwt.
	PrivateKeyPEM string `json:"privateKeyPem,omitempty"`
	// ClientMetadataURL is the client's Client ID Metadata Document URL.
	ClientMetadataURL string `json:"clientMetadataUrl,omitempty"`
	// ClientName is the client_name of dynamic registrations.
	ClientName string `json:"clientName,omitempty"`
	// ApplicationType is the application_type of dynamic registrations
	// ("native" or "web"; default from the redirect URI).
	ApplicationType string `json:"applicationType,omitempty"`
	// Scopes are requested in addition to those the server asks for.
	Scopes []string `json:"scopes,omitempty"`
	// NoOfflineAccess stops the client from adding offline_access.
	NoOfflineAccess bool `json:"noOfflineAccess,omitempty"`
	// DPoP asks for sender-constrained tokens (RFC 9449) with DPoPKeyPEM,
	// or a P-256 key generated for the session.
	DPoP bool `json:"dpop,omitempty"`
	// DPoPKeyPEM is the DPoP private key (PEM); it implies DPoP.
	DPoPKeyPEM string `json:"dpopKeyPem,omitempty"`
	// Assertion is a fixed assertion of the JWT bearer grant (a workload
	// identity token); AuthHooks.Assertion computes one per request
	// instead.
	Assertion string `json:"assertion,omitempty"`
	// IDJAG makes the JWT bearer grant's assertion an identity assertion
	// grant obtained from the user's identity provider for each token
	// request (enterprise-managed authorization).
	IDJAG *IDJAGConfig `json:"idjag,omitempty"`
	// MaxAuthorizations bounds consecutive refusals of fresh tokens
	// (default 3).
	MaxAuthorizations int `json:"maxAuthorizations,omitempty"`
	// AuthorizationTimeoutMs bounds one authorization, the user's sign-in
	// included (default 600000; must be positive).
	AuthorizationTimeoutMs *Millis `json:"authorizationTimeoutMs,omitempty"`
	// AllowInsecureHTTP accepts plain-HTTP URLs from servers on any host.
	// Never in production.
	AllowInsecureHTTP bool `json:"allowInsecureHttp,omitempty"`
	// AllowPrivateAddresses lets servers name loopback, private and
	// link-local URLs whatever the protected resource's address. Tests and
	// development.
	AllowPrivateAddresses bool `json:"allowPrivateAddresses,omitempty"`
	// Store is the initial token store of hosts without a store of their
	// own (the WASI ABI: a state from an "auth_store" event).
	Store rawjson.RawMessage `json:"store,omitempty"`
	// Persist makes such a host report the token store after every
	// change (WASI ABI: "auth_store" events).
	Persist bool `json:"persist,omitempty"`
	// Log makes the host report each authorization step
	// (AuthHooks.Logf).
	Log bool `json:"log,omitempty"`
}

// IDJAGConfig configures the identity assertion grant exchange (RFC 8693
// token exchange at the identity provider) of AuthConfig.IDJAG.
type IDJAGConfig struct {
	_ noCompare
	// TokenEndpoint is the identity provider's token endpoint (required).
	TokenEndpoint string `json:"tokenEndpoint"`
	// ClientID is the client's identifier at the identity provider.
	ClientID string `json:"clientId,omitempty"`
	// ClientSecret authenticates the client at the identity provider.
	ClientSecret string `json:"clientSecret,omitempty"`
	// SubjectToken is the user's identity assertion (an ID token);
	// AuthHooks.SubjectToken fetches one per exchange instead. One of them
	// is required.
	SubjectToken string `json:"subjectToken,omitempty"`
	// SubjectTokenType is its token type URI (default the ID token type).
	SubjectTokenType string `json:"subjectTokenType,omitempty"`
}

// AuthHooks are what a host's plumbing adds to an AuthConfig: the parts
// that call into the application. Every member is optional.
type AuthHooks struct {
	// UserAgent is the host's user agent (UserAgentHost).
	UserAgent auth.UserAgent
	// Store keeps registrations and tokens (default: in memory).
	Store auth.Store
	// Assertion computes the JWT bearer grant's assertion per request.
	Assertion func(ctx context.Context, req *auth.AssertionRequest) (string, error)
	// SubjectToken returns the user's identity assertion for IDJAG.
	SubjectToken func(ctx context.Context) (string, error)
	// Logf receives each authorization step when AuthConfig.Log is set.
	Logf func(format string, args ...any)
	// Crypto is the host's cryptography (random source, SHA-256, signers);
	// nil fields fall back to auth's defaults (Go's crypto natively; none
	// under GOOS=js, where the host must supply them).
	Crypto AuthCrypto
}

// AuthCrypto is the cryptography a host gives the OAuth doer, each field
// optional (see [AuthHooks.Crypto]).
type AuthCrypto struct {
	// Random and SHA256 become auth.Options.Random and SHA256.
	Random io.Reader
	SHA256 func(data []byte) [32]byte
	// ParseSigner reads a PEM private key (default auth.ParseSigner);
	// GenerateSigner makes a new key, for DPoP (default auth.GenerateSigner).
	ParseSigner    func(pem []byte) (auth.Signer, error)
	GenerateSigner func() (auth.Signer, error)
}

// AuthDoer wraps inner, the host's HTTP, with OAuth as cfg says. The
// configuration is checked here, so that a bad one fails connect at once
// (*ConfigError). Errors of the returned Doer other than inner's own and
// the end of the request's context are *AuthError (kind "auth").
func AuthDoer(inner fetch.Doer, cfg *AuthConfig, hooks *AuthHooks) (fetch.Doer, error) {
	if hooks == nil {
		hooks = &AuthHooks{}
	}
	in := &innerDoer{d: inner}
	timeout, err := bounded(cfg.AuthorizationTimeoutMs, "connect: auth: authorizationTimeoutMs")
	if err != nil {
		return nil, err
	}
	opts := &auth.Options{
		CallbackURL:          cfg.CallbackURL,
		ClientMetadataURL:    cfg.ClientMetadataURL,
		ClientName:           cfg.ClientName,
		ApplicationType:      cfg.ApplicationType,
		Scopes:               cfg.Scopes,
		NoOfflineAccess:      cfg.NoOfflineAccess,
		MaxAuthorizations:    cfg.MaxAuthorizations,
		AuthorizationTimeout: timeout,
		AllowInsecureHTTP:    cfg.AllowInsecureHTTP,
		// Tests and development only: see auth.Options.
		AllowPrivateAddresses: cfg.AllowPrivateAddresses,
		Store:                 hooks.Store,
		Random:                hooks.Crypto.Random,
		SHA256:                hooks.Crypto.SHA256,
	}
	parseSigner, generateSigner := auth.ParseSigner, auth.GenerateSigner
	if hooks.Crypto.ParseSigner != nil {
		parseSigner = hooks.Crypto.ParseSigner
	}
	if hooks.Crypto.GenerateSigner != nil {
		generateSigner = hooks.Crypto.GenerateSigner
	}
	switch cfg.ApplicationType {
	case "", "native", "web":
	default:
		return nil, authInvalid("unknown applicationType %q (native, web)", cfg.ApplicationType)
	}
	if cfg.MaxAuthorizations < 0 {
		return nil, authInvalid("maxAuthorizations must not be negative")
	}

	assertions := 0
	if cfg.Assertion != "" {
		assertions++
	}
	if cfg.IDJAG != nil {
		assertions++
	}
	if hooks.Assertion != nil {
		assertions++
	}
	grant := cfg.Grant
	if grant == "" && assertions > 0 {
		grant = GrantJWTBearer
	}
	switch grant {
	case "", GrantAuthorizationCode:
		opts.Grant = auth.GrantAuthorizationCode
		switch ua := cfg.UserAgent; {
		case ua == UserAgentHeadless:
			h := auth.Headless(in)
			h.Redirect = cfg.RedirectURI
			opts.UserAgent = h
		case ua != "" && ua != UserAgentHost:
			return nil, authInvalid("unknown userAgent %q ("+UserAgentHost+", "+UserAgentHeadless+")", ua)
		case hooks.UserAgent != nil:
			if cfg.RedirectURI == "" {
				return nil, authInvalid("redirectUri is required with the host's user agent")
			}
			opts.UserAgent = hooks.UserAgent
		case ua == UserAgentHost:
			return nil, authInvalid("this host has no user agent (use " + UserAgentHeadless + ", or give the host one)")
		}
	case GrantClientCredentials:
		opts.Grant = auth.GrantClientCredentials
	case GrantJWTBearer:
		opts.Grant = auth.GrantJWTBearer
	default:
		return nil, authInvalid("unknown grant %q ("+GrantAuthorizationCode+", "+GrantClientCredentials+", "+GrantJWTBearer+")", cfg.Grant)
	}
	if (assertions > 0) != (opts.Grant == auth.GrantJWTBearer) || assertions > 1 {
		return nil, authInvalid("the " + GrantJWTBearer + " grant needs exactly one of assertion, idjag and an assertion hook, and the other grants none")
	}
	switch {
	case cfg.Assertion != "":
		a := cfg.Assertion
		opts.Assertion = func(context.Context, *auth.AssertionRequest) (string, error) { return a, nil }
	case hooks.Assertion != nil:
		opts.Assertion = hooks.Assertion
	case cfg.IDJAG != nil:
		x := *cfg.IDJAG
		subject := hooks.SubjectToken
		if x.SubjectToken != "" {
			t := x.SubjectToken
			subject = func(context.Context) (string, error) { return t, nil }
		}
		if x.TokenEndpoint == "" || subject == nil {
			return nil, authInvalid("idjag needs a tokenEndpoint and a subject token")
		}
		opts.Assertion = auth.IDJAG(&auth.IDJAGOptions{
			TokenEndpoint:    x.TokenEndpoint,
			ClientID:         x.ClientID,
			ClientSecret:     x.ClientSecret,
			SubjectToken:     subject,
			SubjectTokenType: x.SubjectTokenType,
			HTTP:             in,
		})
	}

	if cfg.ClientID != "" {
		opts.Client = &auth.Client{ID: cfg.ClientID, Secret: cfg.ClientSecret, AuthMethod: cfg.AuthMethod, Issuer: cfg.Issuer}
		if cfg.PrivateKeyPEM != "" {
			s, err := parseSigner([]byte(cfg.PrivateKeyPEM))
			if err != nil {
				return nil, authInvalid("privateKeyPem: %v", err)
			}
			opts.Client.Signer = s
		}
	} else if cfg.ClientSecret != "" || cfg.PrivateKeyPEM != "" || cfg.AuthMethod != "" || cfg.Issuer != "" {
		return nil, authInvalid("clientSecret, privateKeyPem, authMethod and issuer need a clientId")
	}
	if m := cfg.AuthMethod; m != "" && !slices.Contains([]string{auth.AuthMethodNone, auth.AuthMethodBasic, auth.AuthMethodPost, auth.AuthMethodJWT}, m) {
		return nil, authInvalid("unknown authMethod %q", m)
	}
	if cfg.AuthMethod == auth.AuthMethodJWT && cfg.PrivateKeyPEM == "" {
		return nil, authInvalid("authMethod " + auth.AuthMethodJWT + " needs a privateKeyPem")
	}
	switch {
	case cfg.DPoPKeyPEM != "":
		s, err := parseSigner([]byte(cfg.DPoPKeyPEM))
		if err != nil {
			return nil, authInvalid("dpopKeyPem: %v", err)
		}
		opts.DPoP = s
	case cfg.DPoP:
		s, err := generateSigner()
		if err != nil {
			return nil, errf.Errorf("mcpwasm: auth: generating a DPoP key: %w", err)
		}
		opts.DPoP = s
	}
	if cfg.Log && hooks.Logf != nil {
		opts.Logf = hooks.Logf
	}
	return &outerDoer{d: auth.NewDoer(in, opts)}, nil
}

// authInvalid is the *ConfigError of a bad auth configuration.
//
//go:noinline
func authInvalid(format string, args ...any) error {
	return invalidf("connect: auth: "+format, args...)
}

// innerDoer is the host's Doer as package auth sees it: its errors are
// marked, so that outerDoer can tell the failure of the request itself from
// a failed authorization.
type innerDoer struct{ d fetch.Doer }

type innerError struct{ err error }

func (e *innerError) Error() string { return e.err.Error() }
func (e *innerError) Unwrap() error { return e.err }

func (d *innerDoer) Do(ctx context.Context, req *fetch.Request) (*fetch.Response, error) {
	resp, err := d.d.Do(ctx, req)
	if err != nil {
		return nil, &innerError{err}
	}
	return resp, nil
}

// outerDoer is the session's Doer: the auth Doer, whose errors other than
// the request's own HTTP failure and its context's end are *AuthError.
type outerDoer struct{ d *auth.Doer }

// AuthError is an authorization failure of a request (kind "auth"). Match
// it with errors.As; it wraps the auth package's error (an *auth.Error
// when the authorization server refused).
type AuthError struct{ Err error }

func (e *AuthError) Error() string { return e.Err.Error() }

// Unwrap returns the authorization's error.
func (e *AuthError) Unwrap() error { return e.Err }

func (d *outerDoer) Do(ctx context.Context, req *fetch.Request) (*fetch.Response, error) {
	resp, err := d.d.Do(ctx, req)
	if err == nil {
		return resp, nil
	}
	if ie, ok := err.(*innerError); ok {
		return nil, ie.err
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		if ctx.Err() != nil {
			return nil, err
		}
	}
	return nil, &AuthError{err}
}
