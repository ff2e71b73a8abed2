package auth

import (
	"context"
	"io"
	"time"

	"github.com/mcpwasm/mcpwasm/transport/fetch"
)

// Grant types (the values of Options.Grant).
const (
	// GrantAuthorizationCode is the authorization code grant with PKCE: a
	// user signs in through Options.UserAgent. The default.
	GrantAuthorizationCode = "authorization_code"
	// GrantClientCredentials is the client credentials grant (the OAuth
	// client credentials MCP extension): the client acts on its own behalf
	// with Options.Client's secret or private key.
	GrantClientCredentials = "client_credentials"
	// GrantJWTBearer is the JWT bearer grant (RFC 7523): the client presents
	// an assertion from Options.Assertion — a workload identity token, or an
	// identity assertion grant from the user's identity provider
	// (enterprise-managed authorization, see IDJAG).
	GrantJWTBearer = "urn:ietf:params:oauth:grant-type:jwt-bearer"
)

// Token endpoint client authentication methods (Client.AuthMethod):
// none (a public client: client_id in the body), client_secret_basic (HTTP
// Basic), client_secret_post (secret in the body) and private_key_jwt
// (RFC 7523 client assertion signed by Client.Signer).
const (
	AuthMethodNone  = "none"
	AuthMethodBasic = "client_secret_basic"
	AuthMethodPost  = "client_secret_post"
	AuthMethodJWT   = "private_key_jwt"
)

const refreshGrantType = "refresh_token"

// Defaults of Options.
const (
	// DefaultMaxAuthorizations bounds consecutive refusals of fresh tokens
	// (see Options.MaxAuthorizations).
	DefaultMaxAuthorizations = 3
	// DefaultAuthorizationTimeout bounds one authorization (discovery,
	// registration, the user's sign-in and the token request).
	DefaultAuthorizationTimeout = 10 * time.Minute
	// DefaultClientName is the client_name of dynamic registrations.
	DefaultClientName = "mcpwasm"
)

// Options configure a Doer; nil means every default (the authorization code
// grant, which then needs a UserAgent). Options are read when the Doer is
// made; do not change them afterwards.
type Options struct {
	// Grant is how tokens are obtained: GrantAuthorizationCode (the
	// default), GrantClientCredentials or GrantJWTBearer.
	Grant string
	// UserAgent performs the user's part of the authorization code grant:
	// it opens the authorization URL and returns the URL the authorization
	// server redirected back to. Required for GrantAuthorizationCode.
	UserAgent UserAgent
	// Client holds pre-registered client credentials, if any. They are used
	// only with the authorization server they belong to (Client.Issuer).
	// Required for GrantClientCredentials and GrantJWTBearer.
	Client *Client
	// ClientMetadataURL is the HTTPS URL of the client's Client ID Metadata
	// Document. When an authorization server advertises
	// client_id_metadata_document_supported, the URL is the client_id and no
	// registration is made. Empty: never used.
	ClientMetadataURL string
	// ClientName is the client_name of dynamic client registrations.
	// Default DefaultClientName.
	ClientName string
	// ApplicationType is the OpenID application_type sent with dynamic
	// client registrations: "native" or "web". Default: "native" when the
	// redirect URI is a loopback or custom-scheme URI, else "web".
	ApplicationType string
	// Scopes are requested in addition to the scopes the server asks for.
	Scopes []string
	// NoOfflineAccess stops the Doer from adding offline_access to the
	// requested scopes. By default it is added (to obtain a refresh token)
	// when the authorization server lists it in scopes_supported and other
	// scopes are requested.
	NoOfflineAccess bool
	// DPoP, when set, makes the Doer request sender-constrained tokens
	// (RFC 9449) from authorization servers that advertise the signer's
	// algorithm in dpop_signing_alg_values_supported, and present them with
	// a fresh DPoP proof on every request. Use GenerateSigner for a key.
	DPoP Signer
	// Assertion provides the assertion of GrantJWTBearer.
	Assertion AssertionFunc
	// Store keeps client registrations and tokens. Default NewMemoryStore().
	// A Store that is also a PendingStore keeps pending authorizations,
	// which CallbackURL needs.
	Store Store
	// CallbackURL is an authorization response (the redirect URI with
	// code, state and iss) of an authorization started by an earlier Doer
	// whose page was replaced by a full-page redirect (its UserAgent
	// returned ErrRedirected). When this Doer first authorizes for a
	// resource whose pending authorization the Store holds, it finishes
	// that one with CallbackURL (state, iss and the PKCE verifier are
	// checked as always) instead of starting a new one. With nothing
	// pending, CallbackURL is ignored. Empty: none.
	CallbackURL string
	// MaxAuthorizations bounds how many freshly obtained tokens the server
	// may refuse in a row (401, or 403 insufficient_scope) before the Doer
	// gives up with ErrRetryLimit; a successful request resets the count.
	// Default DefaultMaxAuthorizations.
	MaxAuthorizations int
	// AuthorizationTimeout bounds one authorization. It runs on its own
	// context so that a short request deadline (or a connection probe) does
	// not abort a user's sign-in: the request stops waiting, the next one
	// joins the authorization in progress. Default
	// DefaultAuthorizationTimeout.
	AuthorizationTimeout time.Duration
	// AllowInsecureHTTP accepts plain-HTTP URLs from servers (metadata,
	// authorization server endpoints, redirects) on any host. By default
	// (false) only HTTPS is fetched, and plain HTTP only on a loopback host
	// when the protected resource is on a loopback host too. Never in
	// production.
	AllowInsecureHTTP bool
	// AllowPrivateAddresses lets servers name URLs on loopback, private
	// (10/8, 172.16/12, 192.168/16, 100.64/10, fc00::/7) and link-local
	// (169.254/16, fe80::/10) addresses whatever the protected resource's
	// address is, and plain-HTTP loopback URLs for any resource. By default
	// (false) such a URL is fetched only when the protected resource is in
	// the same class of network (ErrUnsafeURL). Unspecified, multicast and
	// broadcast addresses are always refused. For tests and development.
	AllowPrivateAddresses bool
	// Now is the clock for token expiry. Default time.Now.
	Now func() time.Time
	// Random is the cryptographic random source of PKCE verifiers, state
	// and JWT ids. Default: crypto/rand natively. The GOOS=js build links no
	// Go crypto and has no default: without Random (and SHA256) Do fails
	// with ErrNoCrypto; mcpwasm's JavaScript module passes WebCrypto's.
	Random io.Reader
	// SHA256 hashes PKCE challenges, JWK thumbprints and DPoP ath claims.
	// Default: crypto/sha256 natively; no default under GOOS=js (see
	// Random).
	SHA256 func(data []byte) [32]byte
	// Logf, if set, receives a line for each step of an authorization.
	Logf func(format string, args ...any)
}

// Client is a client registration known in advance (pre-registration, or
// the client credentials of a machine client). A Client is a plain value;
// the Signer must be safe for concurrent use.
type Client struct {
	// ID is the client_id.
	ID string
	// Secret is the client secret, if the client has one.
	Secret string
	// Signer signs private_key_jwt client assertions (RFC 7523 §2.2), if
	// the client authenticates with a key.
	Signer Signer
	// AuthMethod is the token endpoint authentication method. Default:
	// chosen from the authorization server's
	// token_endpoint_auth_methods_supported and what the client holds.
	AuthMethod string
	// Issuer is the issuer identifier of the authorization server the
	// credentials belong to. Empty: they are bound to the first
	// authorization server the Doer uses them with, and never presented
	// to another.
	Issuer string
}

// AssertionFunc returns the assertion of a JWT bearer grant (RFC 7523) for
// the authorization server and resource in req. It is called for each token
// request, from any goroutine.
type AssertionFunc func(ctx context.Context, req *AssertionRequest) (string, error)

// AssertionRequest describes the token request an assertion is for. It is
// a plain value.
type AssertionRequest struct {
	// Issuer is the authorization server's issuer identifier (the audience
	// of an assertion).
	Issuer string
	// TokenEndpoint is the authorization server's token endpoint.
	TokenEndpoint string
	// Resource is the protected resource (RFC 8707) the token is for.
	Resource string
	// Scopes are the scopes to be requested.
	Scopes []string
	// HTTP is the Doer for requests to third parties (an identity
	// provider): the Doer's inner one.
	HTTP fetch.Doer
}

// config is Options with defaults applied.
type config struct {
	Options
}

func newConfig(opts *Options) *config {
	c := &config{}
	if opts != nil {
		c.Options = *opts
	}
	if c.Grant == "" {
		c.Grant = GrantAuthorizationCode
	}
	if c.ClientName == "" {
		c.ClientName = DefaultClientName
	}
	if c.Store == nil {
		c.Store = NewMemoryStore()
	}
	if c.MaxAuthorizations <= 0 {
		c.MaxAuthorizations = DefaultMaxAuthorizations
	}
	if c.AuthorizationTimeout <= 0 {
		c.AuthorizationTimeout = DefaultAuthorizationTimeout
	}
	if c.Now == nil {
		c.Now = time.Now
	}
	if c.Random == nil {
		c.Random = defaultRandom()
	}
	if c.SHA256 == nil {
		c.SHA256 = defaultSHA256()
	}
	return c
}

// logs is logf for string arguments (its call sites box nothing).
func (c *config) logs(format string, args ...string) {
	if c.Logf != nil {
		a := make([]any, len(args))
		for i, s := range args {
			a[i] = s
		}
		c.Logf(format, a...)
	}
}

func (c *config) logf(format string, args ...any) {
	if c.Logf != nil {
		c.Logf(format, args...)
	}
}
