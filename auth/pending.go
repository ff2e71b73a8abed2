package auth

import (
	"github.com/mcpwasm/mcpwasm/internal/urlx"

	"context"
	"time"
)

// Resuming an authorization after a full-page redirect.
//
// A page whose user agent cannot open a popup sends the whole page to the
// authorization server; the page (and the Doer in it) is gone when the
// authorization server redirects back. Before a UserAgent runs, the Doer
// therefore records what finishing the grant needs — the state, the PKCE
// verifier, the redirect URI and the client — in the Store, when the Store
// is a PendingStore, and removes it when the UserAgent returns, except
// when it returns ErrRedirected. The page loaded again at the redirect URI
// makes a new Doer with Options.CallbackURL set to its own URL; its first
// authorization of that resource at that authorization server exchanges
// the callback's code with the recorded verifier instead of starting a new
// authorization.

// Pending is an authorization code grant that waits for its authorization
// response: what finishing it needs after the page that started it was
// replaced. It holds the PKCE code verifier: keep it where the page's
// tokens are kept. A Pending is a plain value.
type Pending struct {
	// State is the state parameter of the authorization request.
	State string `json:"state"`
	// Verifier is the PKCE code verifier.
	Verifier string `json:"code_verifier"`
	// RedirectURI is the redirect URI of the authorization request.
	RedirectURI string `json:"redirect_uri"`
	// ClientID is the client_id of the authorization request.
	ClientID string `json:"client_id"`
	// Scope is the space-separated scope requested.
	Scope string `json:"scope,omitempty"`
	// Created is when the authorization request was made; a Pending older
	// than Options.AuthorizationTimeout is not finished.
	Created time.Time `json:"created"`
}

// PendingStore is implemented by Stores that also keep pending
// authorizations (at most one per protected resource and authorization
// server), which makes authorizations resumable after a full-page
// redirect (Options.CallbackURL). MemoryStore implements it (useful
// within one process only). Like Store, it must be safe for concurrent
// use; a lookup of an absent entry returns nil and no error.
type PendingStore interface {
	// Pending returns the pending authorization for resource at issuer.
	Pending(ctx context.Context, resource, issuer string) (*Pending, error)
	// SetPending stores (or, with nil, deletes) the pending authorization
	// for resource at issuer.
	SetPending(ctx context.Context, resource, issuer string, p *Pending) error
}

func (p *Pending) clone() *Pending {
	if p == nil {
		return nil
	}
	c := *p
	return &c
}

// Pending implements PendingStore.
func (m *MemoryStore) Pending(_ context.Context, resource, issuer string) (*Pending, error) {
	m.mu.Lock()
	p := m.pending[[2]string{resource, issuer}].clone()
	m.mu.Unlock()
	return p, nil
}

// SetPending implements PendingStore.
func (m *MemoryStore) SetPending(_ context.Context, resource, issuer string, p *Pending) error {
	m.mu.Lock()
	if m.pending == nil {
		m.pending = map[[2]string]*Pending{}
	}
	if p == nil {
		delete(m.pending, [2]string{resource, issuer})
	} else {
		m.pending[[2]string{resource, issuer}] = p.clone()
	}
	m.mu.Unlock()
	return nil
}

// savePending records an authorization about to be handed to the user
// agent, when the Store can keep it.
func (d *Doer) savePending(ctx context.Context, disc *discovery, p *Pending) error {
	ps, ok := d.cfg.Store.(PendingStore)
	if !ok {
		return nil
	}
	if err := ps.SetPending(ctx, disc.resource, disc.issuer, p); err != nil {
		return wrapErr("auth: storing the pending authorization", err)
	}
	return nil
}

// dropPending forgets the pending authorization once the user agent has
// answered (the page is still there to finish it).
func (d *Doer) dropPending(ctx context.Context, disc *discovery) {
	if ps, ok := d.cfg.Store.(PendingStore); ok {
		_ = ps.SetPending(context.WithoutCancel(ctx), disc.resource, disc.issuer, nil)
	}
}

// takeCallback returns Options.CallbackURL the first time it is asked for.
func (d *Doer) takeCallback() string {
	d.mu.Lock()
	cb := d.callback
	d.callback = ""
	d.mu.Unlock()
	return cb
}

// resume finishes the pending authorization for the discovered resource
// with the authorization response cb. Without a token or an error (the
// callback ignored), nothing is pending for this resource at this
// authorization server: a new authorization starts.
func (d *Doer) resume(ctx context.Context, disc *discovery, cb string, dpop bool) (*Token, error) {
	ps, isPS := d.cfg.Store.(PendingStore)
	if !isPS {
		return nil, errNoPendingStore
	}
	p, err := ps.Pending(ctx, disc.resource, disc.issuer)
	if err != nil {
		return nil, wrapErr("auth: reading the pending authorization", err)
	}
	if p == nil {
		d.cfg.logs("auth: no pending authorization for %s at %s: ignoring the callback URL", disc.resource, disc.issuer)
		return nil, nil
	}
	// One use: whatever happens next, this authorization is spent.
	if err := ps.SetPending(ctx, disc.resource, disc.issuer, nil); err != nil {
		return nil, wrapErr("auth: removing the pending authorization", err)
	}
	if !d.cfg.Now().Before(p.Created.Add(d.cfg.AuthorizationTimeout)) {
		return nil, failf(ErrNoPendingAuthorization, "%w: the authorization for %s started at %s has expired", disc.resource, createdText(p.Created))
	}
	ru, err := urlx.Parse(p.RedirectURI)
	if err != nil || ru.Scheme == "" || p.State == "" || p.Verifier == "" {
		return nil, errIncompletePending
	}
	d.cfg.logs("auth: finishing the authorization for %s started before a redirect", disc.resource)
	code, err := checkCallback(cb, ru, p.State, disc.meta, disc.issuer)
	if err != nil {
		return nil, err
	}
	ca, err := d.client(ctx, disc, p.RedirectURI, false)
	if err != nil {
		return nil, err
	}
	if ca.id != p.ClientID {
		return nil, errPendingClientChanged
	}
	return d.redeemCode(ctx, disc, ca, code, p, dpop)
}

// createdText writes when a pending authorization started, in RFC 3339 to
// the second, as time's MarshalText would after Truncate(time.Second),
// without linking time's formatting into the WebAssembly modules.
func createdText(t time.Time) string {
	b, err := urlx.AppendRFC3339(nil, t, false, "")
	if err != nil {
		return "an unknown time"
	}
	return string(b)
}
