package auth

import (
	"context"
	"slices"
	"sync"

	"github.com/mcpwasm/mcpwasm/internal/errf"
	"github.com/mcpwasm/mcpwasm/internal/urlx"
	"github.com/mcpwasm/mcpwasm/transport/fetch"
)

// Doer is a fetch.Doer that authorizes the requests it passes on: wrap a
// transport's Doer with it (fetch.Options{HTTP: auth.NewDoer(nil, opts)}).
//
// It attaches the access token (Authorization: Bearer, or DPoP with a
// fresh proof) only to requests whose URL belongs to the protected resource
// the token was issued for: the same origin and a path at or below the
// resource's. When a server answers 401 it discovers the protected resource
// and its authorization server, registers the client if needed, obtains a
// token (refreshing one when it can, otherwise running Options.Grant) and
// retries the request; on 403 insufficient_scope it re-authorizes with the
// union of the scopes requested so far and the challenged ones. Expired
// tokens are refreshed before they are sent. Requests to authorization
// servers go straight to the inner Doer.
//
// A Doer is safe for concurrent use; it runs one authorization at a time
// (concurrent requests refused meanwhile wait for it and are retried).
type Doer struct {
	inner fetch.Doer
	cfg   *config

	mu        sync.Mutex
	resources []*resource
	flight    *flight
	nonces    map[string]string // DPoP nonces by origin
	preBound  string            // issuer Options.Client without Issuer is bound to
	callback  string            // Options.CallbackURL until first consulted
}

// resource is what the Doer knows about one protected resource.
type resource struct {
	_       [0]func() // not comparable: no generated equality function
	disc    *discovery
	token   *Token // nil: none yet
	refused int    // fresh tokens refused in a row
	counted bool   // token's refusal has been counted
}

// flight is an authorization (or refresh) in progress.
type flight struct {
	_    [0]func() // not comparable: no generated equality function
	done chan struct{}
	err  error
}

// sent records what a request carried.
type sent struct {
	url   *urlx.URL
	res   *resource // nil if no token was attached
	token *Token
}

// NewDoer returns a Doer that sends requests through inner (nil:
// fetch.DefaultDoer()). opts may be nil.
func NewDoer(inner fetch.Doer, opts *Options) *Doer {
	if inner == nil {
		inner = fetch.DefaultDoer()
	}
	cfg := newConfig(opts)
	return &Doer{inner: inner, cfg: cfg, nonces: map[string]string{}, callback: cfg.CallbackURL}
}

// Do implements fetch.Doer.
func (d *Doer) Do(ctx context.Context, req *fetch.Request) (*fetch.Response, error) {
	if d.cfg.Random == nil || d.cfg.SHA256 == nil {
		return nil, ErrNoCrypto
	}
	nonceRetried := false
	// Each round is bounded by the refusal count; this bounds them all.
	for round := 0; ; round++ {
		if round > 2*d.cfg.MaxAuthorizations+2 {
			return nil, failf(ErrRetryLimit, "%w: %s %s keeps being refused", req.Method, redact(req.URL))
		}
		resp, s, err := d.send(ctx, req)
		if err != nil {
			return nil, err
		}
		if resp.StatusCode != 401 && resp.StatusCode != 403 {
			d.accepted(s)
			return resp, nil
		}
		challenges := ParseChallenges(resp.Header["www-authenticate"]...)
		ch := pickChallenge(challenges)
		if len(challenges) > 0 && !ch.present {
			return resp, nil // the server wants another scheme (Basic, …)
		}
		hidden := !ch.present && resp.Hidden != nil && resp.Hidden("www-authenticate")
		if resp.StatusCode == 403 && !ch.insufficientScope() {
			return resp, nil // not something authorization can fix
		}
		if resp.StatusCode == 401 && ch.errorCode == "use_dpop_nonce" && !nonceRetried &&
			s.token != nil && s.token.Type == "DPoP" && hget(resp.Header, "dpop-nonce") != "" {
			// RFC 9449 §9: retry once with the server's nonce (noted by send).
			nonceRetried = true
			drain(resp)
			d.cfg.logf("auth: resource server asked for a DPoP nonce: retrying")
			continue
		}
		drain(resp)
		if err := d.refused(ctx, s, resp.StatusCode, ch, hidden); err != nil {
			return nil, err
		}
	}
}

// hget returns the first value of the header named k (lower-case, as
// fetch.Header keeps names), or "".
func hget(h fetch.Header, k string) string {
	if v := h[k]; len(v) > 0 {
		return v[0]
	}
	return ""
}

// hset sets the header named k (lower-case) to v.
func hset(h fetch.Header, k, v string) { h[k] = []string{v} }

// drain reads (at most 4 KB of) a response body that is not used, and
// closes it.
func drain(resp *fetch.Response) { _, _ = readAtMost(resp, 4096) }

// lookup returns the known resource covering u (the most specific one).
// d.mu must be held.
func (d *Doer) lookup(u *urlx.URL) *resource {
	var best *resource
	for _, r := range d.resources {
		if coversURL(r.disc.covers, u) && (best == nil || len(r.disc.covers.Path) > len(best.disc.covers.Path)) {
			best = r
		}
	}
	return best
}

// credentials returns the token to attach to a request to u, refreshing
// an expired one first when it can.
func (d *Doer) credentials(ctx context.Context, u *urlx.URL) (*resource, *Token) {
	d.mu.Lock()
	r := d.lookup(u)
	if r == nil || r.token == nil {
		d.mu.Unlock()
		return nil, nil
	}
	tok := r.token
	d.mu.Unlock()
	if tok.expired(d.cfg.Now()) && tok.RefreshToken != "" {
		if err := d.await(ctx, nil, 0, oauthChallenge{}, false, r, tok); err != nil {
			d.cfg.logf("auth: refreshing an expired token: %v", err)
		}
		d.mu.Lock()
		tok = r.token
		d.mu.Unlock()
	}
	return r, tok
}

// send sends req with the credentials that belong to its URL. Redirects of
// credentialed requests are followed here, re-deciding the credentials for
// each URL, so that a token never follows a redirect to another resource.
func (d *Doer) send(ctx context.Context, req *fetch.Request) (*fetch.Response, *sent, error) {
	cur := *req // its Header is the caller's until a redirect changes it
	for hop := 0; ; hop++ {
		u, err := urlx.Parse(cur.URL)
		if err != nil {
			return nil, nil, wrapErr("auth: invalid URL", err)
		}
		r, tok := d.credentials(ctx, u)
		out := cur
		if tok != nil {
			out.Header = cur.Header.Clone()
			if tok.Type == "DPoP" {
				proof, err := d.cfg.dpopProof(ctx, d.cfg.DPoP, out.Method, out.URL, tok.AccessToken, d.nonce(u), d.cfg.Now())
				if err != nil {
					return nil, nil, err
				}
				hset(out.Header, "authorization", "DPoP "+tok.AccessToken)
				hset(out.Header, "dpop", proof)
			} else {
				hset(out.Header, "authorization", "Bearer "+tok.AccessToken)
			}
			out.NoRedirect = true
		}
		resp, err := d.inner.Do(ctx, &out)
		if err == nil && tok != nil && resp.StatusCode == 0 && !req.NoRedirect {
			// An opaque redirect: a browser cannot show it to scripts. Let
			// the platform follow it (fetch drops Authorization when a
			// redirect crosses origins). A DPoP proof is bound to this
			// request's method and URL, and fetch would forward the DPoP
			// header to any origin: a DPoP-bound request is replayed
			// without its credentials (the redirect target gets neither the
			// token nor the proof).
			drain(resp)
			out.NoRedirect = false
			if tok.Type == "DPoP" {
				out.Header = cur.Header
				tok = nil
			}
			resp, err = d.inner.Do(ctx, &out)
		}
		if err != nil {
			return nil, nil, err
		}
		d.noteNonce(u, resp)
		s := &sent{url: u}
		if tok != nil {
			s.res, s.token = r, tok
		}
		loc := hget(resp.Header, "location")
		if tok == nil || req.NoRedirect || loc == "" || !isRedirect(resp.StatusCode) {
			return resp, s, nil
		}
		next, err := u.Parse(loc)
		if err != nil || (next.Scheme != "http" && next.Scheme != "https") || hop >= 10 {
			return resp, s, nil
		}
		drain(resp)
		d.cfg.logs("auth: following a redirect to %s", redact(next.String()))
		redirected(&cur, resp.StatusCode, u, next)
	}
}

// redirected turns cur, answered with the redirect status from u to next,
// into the request to next, as fetch does: 303 (and 301 or 302 after a
// POST) becomes a GET without body, and no credentials (Authorization,
// DPoP, cookies) go to another origin.
func redirected(cur *fetch.Request, status int, u, next *urlx.URL) {
	cur.Header = cur.Header.Clone()
	if status == 303 || (status <= 302 && cur.Method == "POST") {
		if cur.Method != "HEAD" {
			cur.Method = "GET"
		}
		cur.Body = nil
		delete(cur.Header, "content-type")
		delete(cur.Header, "content-length")
	}
	if origin(next) != origin(u) {
		delete(cur.Header, "authorization")
		delete(cur.Header, "dpop")
		delete(cur.Header, "cookie")
	}
	cur.URL = next.String()
}

func isRedirect(status int) bool {
	return status == 301 || status == 302 || status == 303 || status == 307 || status == 308
}

// accepted notes that a request was not refused: the token works.
func (d *Doer) accepted(s *sent) {
	if s == nil || s.res == nil {
		return
	}
	d.mu.Lock()
	if s.res.token == s.token {
		s.res.refused = 0
	}
	d.mu.Unlock()
}

// refused handles a 401, or a 403 insufficient_scope: it authorizes (or
// joins the authorization in progress) so that the request can be retried,
// or reports why it cannot.
func (d *Doer) refused(ctx context.Context, s *sent, status int, ch oauthChallenge, hidden bool) error {
	d.mu.Lock()
	if s.res != nil {
		r := s.res
		if r.token != s.token {
			d.mu.Unlock()
			return nil // replaced meanwhile: retry with the new token
		}
		if !r.counted {
			r.counted = true
			r.refused++
		}
		if r.refused >= d.cfg.MaxAuthorizations {
			d.mu.Unlock()
			detail := ch.errorCode
			if ch.description != "" {
				detail += ": " + ch.description
			}
			return errf.Errorf("%w: HTTP %d (%s) for %s after %d authorizations", ErrRetryLimit, status, detail, redact(s.url.String()), r.refused)
		}
	} else if r := d.lookup(s.url); r != nil && r.token != nil {
		d.mu.Unlock()
		return nil // a token appeared meanwhile: retry with it
	}
	d.mu.Unlock()
	if status == 403 {
		d.cfg.logs("auth: HTTP 403, insufficient scope (challenge scope %q): stepping up", ch.scope)
	} else {
		d.cfg.logs("auth: HTTP 401 for %s: authorizing", redact(s.url.String()))
	}
	return d.await(ctx, s, status, ch, hidden, nil, nil)
}

// await runs the authorization of s (authorize with s, status, ch and
// hidden), or when s is nil the refresh of the token tok of r
// (refreshExpired), as the Doer's single authorization flight, or waits for
// the one in progress (then the error is not reported: the caller retries
// and decides again). The flight runs on a context detached from
// ctx's cancellation, bounded by Options.AuthorizationTimeout: a caller
// that gives up stops waiting, the authorization goes on for the next.
func (d *Doer) await(ctx context.Context, s *sent, status int, ch oauthChallenge, hidden bool, r *resource, tok *Token) error {
	d.mu.Lock()
	if f := d.flight; f != nil {
		d.mu.Unlock()
		select {
		case <-f.done:
			return nil
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	f := &flight{done: make(chan struct{})}
	d.flight = f
	d.mu.Unlock()
	go func() {
		fctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), d.cfg.AuthorizationTimeout)
		var err error
		if s != nil {
			err = d.authorize(fctx, s, status, ch, hidden)
		} else {
			err = d.refreshExpired(fctx, r, tok)
		}
		cancel()
		releaseIdleTimer()
		d.mu.Lock()
		f.err = err
		d.flight = nil
		d.mu.Unlock()
		close(f.done)
	}()
	select {
	case <-f.done:
		return f.err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// resourceFor returns (creating it) the state of a discovered resource,
// recording the new discovery. It reports whether the authorization
// server changed, in which case the old token is dropped: tokens and
// client credentials never cross authorization servers.
func (d *Doer) resourceFor(disc *discovery, target *urlx.URL) (r *resource, prev *Token, migrated bool) {
	d.mu.Lock()
	for _, x := range d.resources {
		if x.disc.resource == disc.resource {
			r = x
			break
		}
	}
	if r == nil {
		r = &resource{disc: disc}
	}
	// The server has just said which resource governs the URL: forget
	// others that claimed it.
	kept := d.resources[:0]
	for _, x := range d.resources {
		if x != r && !coversURL(x.disc.covers, target) {
			kept = append(kept, x)
		}
	}
	d.resources = append(kept, r)
	if r.disc == disc {
		d.mu.Unlock()
		return r, nil, false
	}
	prev = r.token
	if r.disc.issuer != disc.issuer {
		migrated = true
		r.token, r.counted = nil, false
	}
	r.disc = disc
	d.mu.Unlock()
	return r, prev, migrated
}

// install makes tok the resource's token and stores it.
func (d *Doer) install(ctx context.Context, r *resource, tok *Token) error {
	d.mu.Lock()
	r.token, r.counted = tok, false
	disc := r.disc
	d.mu.Unlock()
	if err := d.cfg.Store.SetToken(ctx, disc.resource, disc.issuer, tok); err != nil {
		return wrapErr("auth: storing the token", err)
	}
	return nil
}

// usable reports whether a stored token can be presented.
func (d *Doer) usable(t *Token) bool {
	if t == nil || t.AccessToken == "" || t.expired(d.cfg.Now()) {
		return false
	}
	if t.Type == "DPoP" {
		return d.cfg.DPoP != nil && t.JKT == d.cfg.thumbprint(d.cfg.DPoP.PublicJWK())
	}
	return true
}

// authorize obtains a token after a refusal: from the store, by refresh,
// or through the grant.
func (d *Doer) authorize(ctx context.Context, s *sent, status int, ch oauthChallenge, hidden bool) error {
	disc, err := d.discover(ctx, s.url, ch, hidden)
	if err != nil {
		return err
	}
	r, prev, migrated := d.resourceFor(disc, s.url)
	if migrated {
		d.cfg.logs("auth: the authorization server of %s changed to %s", disc.resource, disc.issuer)
	}
	meta := disc.meta
	dpop := d.cfg.DPoP != nil && slices.Contains(meta.DPoPSigningAlgValuesSupported, d.cfg.DPoP.Algorithm())
	stored, err := d.cfg.Store.Token(ctx, disc.resource, disc.issuer)
	if err != nil {
		return wrapErr("auth: reading the token store", err)
	}

	if status == 401 {
		// A token this Doer has not presented yet (another process stored
		// it, or this is the first request since the Doer was made).
		if stored != nil && (s.token == nil || stored.AccessToken != s.token.AccessToken) && d.usable(stored) {
			d.cfg.logs("auth: using the stored token for %s", disc.resource)
			return d.install(ctx, r, stored)
		}
		// A refresh token for the refused (or stored) token.
		for _, t := range []*Token{prev, stored} {
			if t == nil || t.RefreshToken == "" || migrated {
				continue
			}
			tok, err := d.refresh(ctx, disc, t, dpop)
			if err == nil {
				return d.install(ctx, r, tok)
			}
			d.cfg.logf("auth: refresh failed: %v", err)
			if oauthErr(err) != nil {
				_ = d.cfg.Store.SetToken(ctx, disc.resource, disc.issuer, nil)
			}
			break
		}
	}

	// The scopes: the challenge's, plus those requested before (a step-up
	// keeps them, SEP-2350); without either, the resource's
	// scopes_supported; plus Options.Scopes.
	var scopes []string
	if !migrated {
		if prev != nil {
			scopes = fields(prev.Scope)
		} else if stored != nil {
			scopes = fields(stored.Scope)
		}
	}
	scopes = union(scopes, fields(ch.scope))
	if len(scopes) == 0 && disc.prm != nil {
		scopes = union(nil, disc.prm.ScopesSupported)
	}
	scopes = union(scopes, d.cfg.Scopes)

	var tok *Token
	switch d.cfg.Grant {
	case GrantAuthorizationCode:
		if len(scopes) > 0 && !d.cfg.NoOfflineAccess && slices.Contains(meta.ScopesSupported, "offline_access") {
			scopes = union(scopes, []string{"offline_access"})
		}
		tok, err = d.authorizationCode(ctx, disc, scopes, dpop)
	case GrantClientCredentials, GrantJWTBearer:
		tok, err = d.machineGrant(ctx, disc, scopes, dpop)
	default:
		err = errf.Errorf("auth: unsupported grant %q", d.cfg.Grant)
	}
	if err != nil {
		return err
	}
	d.cfg.logs("auth: obtained a %s token for %s", tok.Type, disc.resource)
	return d.install(ctx, r, tok)
}

// refreshExpired refreshes the resource's token tok before it is sent.
func (d *Doer) refreshExpired(ctx context.Context, r *resource, tok *Token) error {
	d.mu.Lock()
	if r.token != tok {
		d.mu.Unlock()
		return nil // already replaced
	}
	disc := r.disc
	d.mu.Unlock()
	nt, err := d.refresh(ctx, disc, tok, tok.Type == "DPoP")
	if err != nil {
		if oauthErr(err) != nil {
			// The refresh token is dead: forget the token; the server's
			// 401 will start a new authorization.
			d.mu.Lock()
			if r.token == tok {
				r.token = nil
			}
			d.mu.Unlock()
			_ = d.cfg.Store.SetToken(ctx, disc.resource, disc.issuer, nil)
		}
		return err
	}
	return d.install(ctx, r, nt)
}

// union returns a followed by the members of b not in a.
func union(a, b []string) []string {
	out := append(a[:0:0], a...)
	for _, s := range b {
		if s != "" && !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}

// nonce returns the DPoP nonce last received from u's origin.
func (d *Doer) nonce(u *urlx.URL) string {
	o := origin(u)
	d.mu.Lock()
	n := d.nonces[o]
	d.mu.Unlock()
	return n
}

// noteNonce records a DPoP-Nonce response header (RFC 9449 §8, §9).
func (d *Doer) noteNonce(u *urlx.URL, resp *fetch.Response) {
	if n := hget(resp.Header, "dpop-nonce"); n != "" {
		d.mu.Lock()
		d.nonces[origin(u)] = n
		d.mu.Unlock()
	}
}

// redact returns a URL without user information, query and fragment, for
// messages (a query may hold an authorization code).
func redact(raw string) string {
	u, err := urlx.Parse(raw)
	if err != nil {
		return "(invalid URL)"
	}
	return u.Scheme + "://" + u.Host + u.EscapedPath()
}
