package auth

import (
	"context"
	"strings"

	"github.com/mcpwasm/mcpwasm/internal/errf"
	"github.com/mcpwasm/mcpwasm/internal/urlx"
	"github.com/mcpwasm/mcpwasm/transport/fetch"
)

// UserAgent performs the user's part of the authorization code grant.
// Implementations must be safe for concurrent use (the Doer runs one
// authorization at a time, but a UserAgent may be shared by Doers).
type UserAgent interface {
	// RedirectURI is the redirect URI to register and to send in
	// authorization requests. It must be stable for the UserAgent's life.
	RedirectURI() string
	// Authorize sends the user to authURL (in a browser, a popup, …) and
	// returns the URL the authorization server redirected back to: the
	// redirect URI with the code, state and iss parameters (or an error).
	// It must give up when ctx ends. A user agent that sends the whole
	// page to authURL returns an error wrapping ErrRedirected: the
	// authorization then stays pending (see PendingStore and
	// Options.CallbackURL).
	Authorize(ctx context.Context, authURL string) (callbackURL string, err error)
}

// DefaultHeadlessRedirectURI is the redirect URI of a HeadlessAgent that
// names none.
const DefaultHeadlessRedirectURI = "http://127.0.0.1/callback"

// HeadlessAgent is a UserAgent for authorization servers that redirect
// without user interaction (test servers, like those of the MCP
// conformance suite, or a server that already holds the user's session in
// a cookie the Doer sends): it requests the authorization URL without
// following redirects and returns the Location that points at the redirect
// URI. Redirects within the authorization endpoint's origin (same scheme,
// host and port) are followed, at most 10; a redirect to any other origin
// that is not the redirect URI is an error (ErrRedirectMismatch) and is not
// requested: the agent carries the authorization server's cookies and
// must not be steered to other hosts (a user agent that needs a sign-in
// elsewhere needs a user). An answer that is not a redirect means a user
// is needed, and is an error. It is safe for concurrent use.
type HeadlessAgent struct {
	// HTTP performs the requests; it must honour fetch.Request.NoRedirect.
	HTTP fetch.Doer
	// Redirect is the redirect URI; default DefaultHeadlessRedirectURI.
	Redirect string
}

// Headless returns a HeadlessAgent using doer (nil: fetch.DefaultDoer())
// and DefaultHeadlessRedirectURI. Set its Redirect before use to change the
// redirect URI.
func Headless(doer fetch.Doer) *HeadlessAgent {
	if doer == nil {
		doer = fetch.DefaultDoer()
	}
	return &HeadlessAgent{HTTP: doer}
}

// RedirectURI implements UserAgent.
func (h *HeadlessAgent) RedirectURI() string {
	if h.Redirect != "" {
		return h.Redirect
	}
	return DefaultHeadlessRedirectURI
}

// Authorize implements UserAgent.
func (h *HeadlessAgent) Authorize(ctx context.Context, authURL string) (string, error) {
	redirect, err := urlx.Parse(h.RedirectURI())
	if err != nil {
		return "", wrapErr("auth: invalid redirect URI", err)
	}
	next := authURL
	for hop := 0; hop < 10; hop++ {
		resp, err := h.HTTP.Do(ctx, &fetch.Request{Method: "GET", URL: next, NoRedirect: true, MaxBody: maxDocument})
		if err != nil {
			return "", wrapErr("auth: headless authorization", err)
		}
		b, _ := readAtMost(resp, 4096)
		loc := hget(resp.Header, "location")
		if resp.StatusCode < 300 || resp.StatusCode > 399 || loc == "" {
			if resp.StatusCode == 0 {
				return "", errHeadlessOpaque
			}
			detail := strings.TrimSpace(string(b))
			if len(detail) > 200 {
				detail = detail[:200] + "…"
			}
			return "", errf.Errorf("auth: headless authorization: the authorization endpoint answered HTTP %d instead of redirecting (a user must sign in: use an interactive user agent): %s", resp.StatusCode, detail)
		}
		base, _ := urlx.Parse(next)
		u, err := base.Parse(loc)
		if err != nil {
			return "", failf(ErrBadResponse, "%w: invalid Location %q", loc)
		}
		if atRedirect(u, redirect) {
			return u.String(), nil
		}
		if !strings.EqualFold(u.Scheme, base.Scheme) || canonicalHostPort(u) != canonicalHostPort(base) {
			return "", failf(ErrRedirectMismatch, "%w: the authorization endpoint redirected to %s, another origin (a headless agent follows redirects only within %s)", redact(u.String()), origin(base))
		}
		next = u.String()
	}
	return "", errHeadlessTooManyHops
}

// atRedirect reports whether u is at the redirect URI: same scheme, host
// and path (a loopback redirect URI without a port accepts any port, RFC
// 8252 §7.3).
func atRedirect(u, redirect *urlx.URL) bool {
	if !strings.EqualFold(u.Scheme, redirect.Scheme) || u.EscapedPath() != redirect.EscapedPath() {
		return false
	}
	if redirect.Port() == "" && isLoopback(redirect) {
		return strings.EqualFold(u.Hostname(), redirect.Hostname())
	}
	return canonicalHostPort(u) == canonicalHostPort(redirect)
}
