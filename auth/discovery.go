package auth

import (
	"context"
	"errors"
	"strconv"
	"strings"

	"github.com/mcpwasm/mcpwasm/internal/errf"
	"github.com/mcpwasm/mcpwasm/internal/urlx"
	"github.com/mcpwasm/mcpwasm/transport/fetch"
)

// maxDocument bounds metadata documents and OAuth responses.
const maxDocument = 1 << 20

// prMetadata is OAuth 2.0 Protected Resource Metadata (RFC 9728).
type prMetadata struct {
	Resource             string   `json:"resource"`
	AuthorizationServers []string `json:"authorization_servers"`
	ScopesSupported      []string `json:"scopes_supported"`
}

// asMetadata is OAuth 2.0 Authorization Server Metadata (RFC 8414) or an
// OpenID Provider configuration, limited to what the client uses.
type asMetadata struct {
	Issuer                            string   `json:"issuer"`
	AuthorizationEndpoint             string   `json:"authorization_endpoint"`
	TokenEndpoint                     string   `json:"token_endpoint"`
	RegistrationEndpoint              string   `json:"registration_endpoint"`
	ScopesSupported                   []string `json:"scopes_supported"`
	TokenEndpointAuthMethodsSupported []string `json:"token_endpoint_auth_methods_supported"`
	CodeChallengeMethodsSupported     []string `json:"code_challenge_methods_supported"`
	ClientIDMetadataDocumentSupported bool     `json:"client_id_metadata_document_supported"`
	IssParameterSupported             bool     `json:"authorization_response_iss_parameter_supported"`
	DPoPSigningAlgValuesSupported     []string `json:"dpop_signing_alg_values_supported"`

	// fallback marks the 2025-03-26 default endpoints (/authorize, /token,
	// /register at the server's origin) used when no document exists.
	fallback bool
}

// discovery is what an authorization is based on.
type discovery struct {
	_ [0]func() // not comparable: no generated equality function
	// resource is the RFC 8707 resource identifier: the PRM resource as
	// published, or the server's origin for a 2025-03-26 server.
	resource string
	// covers is the set of URLs the resource's tokens may be sent to.
	covers *urlx.URL
	// prm is nil for a 2025-03-26 server (no protected resource metadata).
	prm    *prMetadata
	meta   *asMetadata
	issuer string
}

// origin returns scheme://host[:port] of u.
func origin(u *urlx.URL) string { return u.Scheme + "://" + u.Host }

// canonicalHostPort lower-cases the host and drops a default port.
func canonicalHostPort(u *urlx.URL) string {
	host := strings.ToLower(u.Hostname())
	port := u.Port()
	if (u.Scheme == "https" && port == "443") || (u.Scheme == "http" && port == "80") {
		port = ""
	}
	if strings.Contains(host, ":") {
		host = "[" + host + "]"
	}
	if port != "" {
		return host + ":" + port
	}
	return host
}

// coversURL reports whether target belongs to the protected resource: the
// same origin, and a path equal to the resource's or below it.
func coversURL(resource, target *urlx.URL) bool {
	if !strings.EqualFold(resource.Scheme, target.Scheme) || canonicalHostPort(resource) != canonicalHostPort(target) {
		return false
	}
	rp := trimByte(resource.EscapedPath(), '/')
	tp := target.EscapedPath()
	return rp == "" || tp == rp || tp == rp+"/" || strings.HasPrefix(tp, rp+"/")
}

// isLoopback reports whether the URL's host is a loopback host.
func isLoopback(u *urlx.URL) bool {
	h := strings.ToLower(u.Hostname())
	if h == "localhost" || strings.HasSuffix(h, ".localhost") {
		return true
	}
	a, ok := parseAddr(h)
	return ok && a.loopback()
}

// checkEndpoint validates an authorization server URL for the protected
// resource at resource: absolute http(s), no fragment, allowed by the URL
// guard (checkURL).
func (d *Doer) checkEndpoint(what, raw string, resource *urlx.URL) (*urlx.URL, error) {
	u, err := urlx.Parse(raw)
	if err != nil || u.Host == "" || (u.Scheme != "https" && u.Scheme != "http") {
		return nil, failf(ErrMetadata, "%w: %s %q is not an absolute http(s) URL", what, raw)
	}
	if u.Fragment != "" {
		return nil, failf(ErrMetadata, "%w: %s %q has a fragment", what, raw)
	}
	if err := d.checkURL(what, u, resource); err != nil {
		return nil, err
	}
	return u, nil
}

// metaDoc is a metadata document firstDoc decodes (from scratch).
type metaDoc interface{ decode([]byte) error }

// firstDoc fetches the candidate URLs of a metadata document (what names
// it) through the URL guard, in order, and decodes the first one found
// into doc. A 2xx answer that cannot be read or decoded is a miss, or with
// strict an error; a refusal of the guard is an error. It returns the URL
// of the document found ("" if none) and misses with one line per
// candidate that failed.
func (d *Doer) firstDoc(ctx context.Context, what string, urls []string, resource *urlx.URL, doc metaDoc, strict bool, misses []string) (string, []string, error) {
	for _, u := range urls {
		d.cfg.logs("auth: %s at %s", what, u)
		resp, err := d.guardedDo(ctx, what, &fetch.Request{Method: "GET", URL: u, Header: fetch.Header{"accept": {"application/json"}}, MaxBody: maxDocument}, resource)
		if err == nil {
			if resp.StatusCode < 200 || resp.StatusCode > 299 {
				drain(resp)
				misses = append(misses, u+": HTTP "+strconv.Itoa(resp.StatusCode))
				continue
			}
			var b []byte
			if b, err = readBody(resp); err == nil {
				if err = doc.decode(b); err == nil {
					return u, misses, nil
				}
				err = errf.Errorf("%w: %w", ErrBadResponse, err)
			}
		}
		if guardRefused(err) {
			return "", nil, err
		}
		if strict && errors.Is(err, ErrBadResponse) {
			return "", nil, errf.Errorf("%w: %s: %w", ErrMetadata, u, err)
		}
		misses = append(misses, u+": "+err.Error())
	}
	return "", misses, nil
}

// guardRefused reports whether err is a refusal of the URL guard.
func guardRefused(err error) bool {
	return errors.Is(err, ErrUnsafeURL) || errors.Is(err, ErrInsecureEndpoint)
}

// wellKnownPRM lists the RFC 9728 well-known URLs for target in the order
// MCP prescribes: path-aware first (when the endpoint has a path), then the
// root.
func wellKnownPRM(target *urlx.URL) []string {
	root := origin(target) + "/.well-known/oauth-protected-resource"
	if p := trimByte(target.EscapedPath(), '/'); p != "" {
		return []string{root + p, root}
	}
	return []string{root}
}

// wellKnownAS lists the RFC 8414 and OpenID Connect discovery URLs for an
// issuer in the order MCP prescribes.
func wellKnownAS(issuer *urlx.URL) []string {
	o := origin(issuer)
	p := trimByte(issuer.EscapedPath(), '/')
	out := []string{o + "/.well-known/oauth-authorization-server" + p, o + "/.well-known/openid-configuration" + p}
	if p != "" {
		out = append(out, o+p+"/.well-known/openid-configuration")
	}
	return out
}

// issuerMatches compares a metadata document's issuer with the issuer
// identifier its well-known URL was built from (RFC 8414 §3.3). They must
// be identical, except that an issuer without a path may differ by a
// trailing slash (both forms build the same well-known URL).
func issuerMatches(got, want string) bool {
	if got == want {
		return true
	}
	u, err := urlx.Parse(want)
	if err != nil || (u.Path != "" && u.Path != "/") {
		return false
	}
	return trimByte(got, '/') == trimByte(want, '/')
}

// discover finds the protected resource and its authorization server for
// a request to target that was refused with challenge ch.
func (d *Doer) discover(ctx context.Context, target *urlx.URL, ch oauthChallenge, hidden bool) (*discovery, error) {
	var misses, urls []string
	if ch.resourceMetadata != "" {
		u, err := target.Parse(ch.resourceMetadata)
		if err != nil || (u.Scheme != "https" && u.Scheme != "http") {
			misses = append(misses, "resource_metadata "+strconv.Quote(ch.resourceMetadata)+" is not an http(s) URL")
		} else {
			urls = append(urls, u.String())
		}
	}
	var doc prMetadata
	found, misses, err := d.firstDoc(ctx, "protected resource metadata", append(urls, wellKnownPRM(target)...), target, &doc, false, misses)
	if err != nil {
		return nil, err
	}
	var prm *prMetadata
	if found != "" {
		prm = &doc
	}

	disc := &discovery{prm: prm}
	var asURL *urlx.URL
	if prm != nil {
		res, err := urlx.Parse(prm.Resource)
		if prm.Resource == "" || err != nil || res.Host == "" || (res.Scheme != "https" && res.Scheme != "http") || res.Fragment != "" {
			return nil, failf(ErrResourceMismatch, "%w: resource %q is not an absolute http(s) URI without fragment", prm.Resource)
		}
		if !coversURL(res, target) {
			return nil, failf(ErrResourceMismatch, "%w: metadata for %q, request to %s", prm.Resource, redact(target.String()))
		}
		if len(prm.AuthorizationServers) == 0 {
			return nil, failf(ErrNoAuthorizationServer, "%w (resource %s)", prm.Resource)
		}
		disc.resource, disc.covers = prm.Resource, res
		asURL, err = d.checkEndpoint("authorization server", prm.AuthorizationServers[0], target)
		if err != nil {
			return nil, err
		}
	} else {
		// A 2025-03-26 server: no protected resource metadata; its
		// authorization server is at its origin.
		d.cfg.logs("auth: no protected resource metadata (%s): 2025-03-26 discovery at the origin", strings.Join(misses, "; "))
		o, _ := urlx.Parse(origin(target))
		disc.resource, disc.covers = o.String(), o
		var err error
		if asURL, err = d.checkEndpoint("authorization server", o.String(), target); err != nil {
			return nil, err
		}
	}

	meta, err := d.discoverAS(ctx, asURL, target, prm == nil)
	if err != nil {
		if prm == nil && hidden {
			return nil, hiddenError(err)
		}
		return nil, err
	}
	if meta.fallback && hidden {
		// Without a readable challenge, without any metadata, the default
		// endpoints are a guess: report the likely cause instead.
		return nil, hiddenError(failf(ErrMetadata, "%w: no protected resource or authorization server metadata (%s)", strings.Join(misses, "; ")))
	}
	disc.meta, disc.issuer = meta, meta.Issuer
	return disc, nil
}

func hiddenError(err error) error {
	return errf.Errorf("%w: WWW-Authenticate of the 401 response (the server must list it in Access-Control-Expose-Headers), and metadata discovery failed: %w", fetch.ErrHiddenHeader, err)
}

// discoverAS fetches and validates authorization server metadata; for a
// 2025-03-26 server without any it returns the default endpoints.
func (d *Doer) discoverAS(ctx context.Context, issuer, resource *urlx.URL, legacy bool) (*asMetadata, error) {
	want := issuer.String()
	var meta asMetadata
	u, misses, err := d.firstDoc(ctx, "authorization server metadata", wellKnownAS(issuer), resource, &meta, true, nil)
	if err != nil {
		return nil, err
	}
	if u != "" {
		if !issuerMatches(meta.Issuer, want) {
			return nil, failf(ErrMetadata, "%w: %s names issuer %q, not %q", u, meta.Issuer, want)
		}
		for _, e := range [...]struct{ what, url string }{
			{"authorization_endpoint", meta.AuthorizationEndpoint},
			{"token_endpoint", meta.TokenEndpoint},
			{"registration_endpoint", meta.RegistrationEndpoint},
		} {
			if e.url == "" {
				continue
			}
			if _, err := d.checkEndpoint(e.what, e.url, resource); err != nil {
				return nil, err
			}
		}
		if meta.TokenEndpoint == "" {
			return nil, failf(ErrMetadata, "%w: %s has no token_endpoint", u)
		}
		return &meta, nil
	}
	if !legacy {
		return nil, failf(ErrMetadata, "%w: none found for %s (%s)", want, strings.Join(misses, "; "))
	}
	o := origin(issuer)
	d.cfg.logs("auth: no authorization server metadata: 2025-03-26 default endpoints at %s", o)
	return &asMetadata{
		Issuer:                        o,
		AuthorizationEndpoint:         o + "/authorize",
		TokenEndpoint:                 o + "/token",
		RegistrationEndpoint:          o + "/register",
		CodeChallengeMethodsSupported: []string{"S256"},
		fallback:                      true,
	}, nil
}
