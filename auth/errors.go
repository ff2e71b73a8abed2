package auth

import (
	"strconv"

	"github.com/mcpwasm/mcpwasm/internal/errf"
)

// Sentinel errors of the package. Errors returned by the Doer wrap them (and
// often a more specific cause): match them with errors.Is.
var (
	// ErrNoCrypto means the build has no cryptography of its own: the
	// GOOS=js build links no Go crypto, so Options.Random and
	// Options.SHA256 must be given, and ParseSigner and GenerateSigner are
	// unavailable (pass a Signer made elsewhere, such as on WebCrypto).
	ErrNoCrypto error = &sentinel{"auth: no cryptography in this build (GOOS=js): set Options.Random and Options.SHA256, and pass Signers made on the platform's crypto"}
	// ErrResourceMismatch means the protected resource metadata names a
	// resource that does not cover the URL the client requested. No
	// authorization is started (a server could otherwise obtain a token for
	// another resource).
	ErrResourceMismatch error = &sentinel{"auth: protected resource metadata names a different resource"}
	// ErrNoAuthorizationServer means the protected resource metadata lists
	// no usable authorization server.
	ErrNoAuthorizationServer error = &sentinel{"auth: protected resource metadata lists no authorization server"}
	// ErrMetadata means authorization server metadata was missing or
	// invalid (for example its issuer differs from the issuer identifier
	// the well-known URL was built from).
	ErrMetadata error = &sentMetadata
	// ErrNoPKCE means the authorization server does not advertise the S256
	// PKCE method; the authorization code flow refuses to proceed.
	ErrNoPKCE error = &sentinel{"auth: authorization server does not support PKCE with S256"}
	// ErrStateMismatch means the authorization response carried a state
	// other than the one the client sent.
	ErrStateMismatch error = &sentinel{"auth: authorization response state does not match"}
	// ErrIssuerMismatch means the authorization response's iss parameter
	// (RFC 9207) is not the authorization server's issuer, compared as
	// plain strings. The response is not acted on.
	ErrIssuerMismatch error = &sentinel{"auth: authorization response iss does not match the authorization server"}
	// ErrIssuerMissing means the authorization server advertises the iss
	// response parameter (RFC 9207) but the response had none.
	ErrIssuerMissing error = &sentinel{"auth: authorization response lacks the iss parameter the server advertises"}
	// ErrRedirectMismatch means the user agent returned a callback URL that
	// is not at the redirect URI.
	ErrRedirectMismatch error = &sentinel{"auth: callback URL is not at the redirect URI"}
	// ErrNoRegistration means the client has no way to obtain a client ID
	// at the authorization server: no pre-registered credentials for it, no
	// Client ID Metadata Document support, no dynamic registration.
	ErrNoRegistration error = &sentinel{"auth: no client registration possible with the authorization server"}
	// ErrNoUserAgent means the authorization code grant needs a UserAgent
	// and Options.UserAgent is nil.
	ErrNoUserAgent error = &sentinel{"auth: authorization needs a user agent (Options.UserAgent)"}
	// ErrRetryLimit means the server kept refusing freshly obtained tokens
	// (401, or 403 insufficient_scope) Options.MaxAuthorizations times in a
	// row; the Doer stops authorizing until a request succeeds.
	ErrRetryLimit error = &sentinel{"auth: server still refuses after repeated authorization"}
	// ErrInsecureEndpoint means a URL a server named (metadata, an
	// authorization server endpoint, a redirect) is not HTTPS: plain HTTP is
	// accepted only for a loopback host when the protected resource is on a
	// loopback host too, or with Options.AllowInsecureHTTP.
	ErrInsecureEndpoint error = &sentinel{"auth: authorization server endpoint is not HTTPS"}
	// ErrUnsafeURL means a URL a server named (metadata, an authorization
	// server endpoint, a redirect) is on a loopback, private or link-local
	// address while the protected resource is not in that class of
	// network, or on an unspecified, multicast or broadcast address. See
	// Options.AllowPrivateAddresses.
	ErrUnsafeURL error = &sentinel{"auth: refusing a URL the server named: an address in a network the protected resource is not in"}
	// ErrRedirected is returned by a UserAgent that sent the whole page to
	// the authorization server (a full-page redirect, when a popup cannot
	// be opened): the Doer keeps the pending authorization (PendingStore),
	// and a Doer made with Options.CallbackURL when the page is loaded
	// again at the redirect URI finishes it.
	ErrRedirected error = &sentinel{"auth: the page went to the authorization server; the authorization finishes when it is loaded again at the redirect URI (Options.CallbackURL)"}
	// ErrNoPendingAuthorization means Options.CallbackURL could not be
	// used: the Store keeps no pending authorizations, or the one it kept
	// has expired, is incomplete, or was made for another client.
	ErrNoPendingAuthorization error = &sentNoPending
	// ErrBadResponse means an authorization server answered with something
	// that is not a valid OAuth response.
	ErrBadResponse error = &sentBadResponse
)

// The sentinels some static errors wrap.
var (
	sentMetadata    = sentinel{"auth: unusable authorization server metadata"}
	sentNoPending   = sentinel{"auth: no usable pending authorization for the callback URL"}
	sentBadResponse = sentinel{"auth: invalid response from the authorization server"}
)

// Errors without variable parts, built statically (with the texts
// errf.Errorf("%w: …", sentinel) would make at each return).
var (
	errNoClientID           error = &wrapped{msg: "auth: invalid response from the authorization server: registration response without client_id", err: &sentBadResponse}
	errNoAuthzEndpoint      error = &wrapped{msg: "auth: unusable authorization server metadata: no authorization_endpoint", err: &sentMetadata}
	errNoCode               error = &wrapped{msg: "auth: invalid response from the authorization server: authorization response without code", err: &sentBadResponse}
	errNoAccessToken        error = &wrapped{msg: "auth: invalid response from the authorization server: token response without access_token", err: &sentBadResponse}
	errNoExchangedToken     error = &wrapped{msg: "auth: invalid response from the authorization server: token exchange response without access_token", err: &sentBadResponse}
	errNoPendingStore       error = &wrapped{msg: "auth: no usable pending authorization for the callback URL: Options.CallbackURL needs a Store that keeps pending authorizations (PendingStore)", err: &sentNoPending}
	errIncompletePending    error = &wrapped{msg: "auth: no usable pending authorization for the callback URL: the stored pending authorization is incomplete", err: &sentNoPending}
	errPendingClientChanged error = &wrapped{msg: "auth: no usable pending authorization for the callback URL: the client registration changed since the authorization started", err: &sentNoPending}
	errHeadlessOpaque       error = &sentinel{"auth: headless authorization: the platform hides redirects (opaque redirect): use an interactive user agent"}
	errHeadlessTooManyHops  error = &sentinel{"auth: headless authorization: too many redirects"}
)

// wrapped is a static error with the text msg wrapping the sentinel err.
type wrapped struct {
	_   [0]func() // not comparable: no generated equality function
	msg string
	err error
}

func (e *wrapped) Error() string { return e.msg }
func (e *wrapped) Unwrap() error { return e.err }

// sentinel is the type of the sentinel errors: like errors.New's, a
// pointer (each is equal to itself only), but initialized statically (no
// code in the package's init).
type sentinel struct{ msg string }

func (e *sentinel) Error() string { return e.msg }

// Error is an OAuth 2.0 error response (RFC 6749 §5.2 and §4.1.2.1) from an
// authorization server's token, registration or authorization endpoint.
// Match it with errors.As.
type Error struct {
	// Code is the error code, e.g. "invalid_grant" or "access_denied".
	Code string
	// Description is error_description, if any.
	Description string
	// URI is error_uri, if any.
	URI string
	// StatusCode is the HTTP status (0 for an authorization response
	// delivered through the redirect URI).
	StatusCode int
	// Endpoint names where the error came from: "token", "registration",
	// "authorization" or "token exchange".
	Endpoint string
}

// oauthErr returns the *Error in err's chain, or nil.
func oauthErr(err error) *Error {
	var e *Error
	if errf.As(err, &e) {
		return e
	}
	return nil
}

func (e *Error) Error() string {
	msg := "auth: " + e.Endpoint + " endpoint: " + e.Code
	if e.StatusCode != 0 {
		msg = "auth: " + e.Endpoint + " endpoint: HTTP " + strconv.Itoa(e.StatusCode) + ": " + e.Code
	}
	if e.Description != "" {
		msg += ": " + e.Description
	}
	return msg
}

// wrapErr returns err wrapped with the message msg+": "+err.Error() (as
// errf.Errorf("%s: %w", msg, err)): one call site for the many.
func wrapErr(msg string, err error) error { return errf.Errorf("%s: %w", msg, err) }

// failf is errf.Errorf for a format whose first verb is %w (for sentinel)
// and whose other operands are strings: its call sites box nothing.
func failf(sentinel error, format string, args ...string) error {
	a := make([]any, 1+len(args))
	a[0] = sentinel
	for i, s := range args {
		a[1+i] = s
	}
	return errf.Errorf(format, a...)
}
