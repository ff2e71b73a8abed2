package auth

import (
	"context"
	"sync"
	"time"
	"unicode"
)

// Store keeps what the Doer learns: client registrations, keyed by the
// authorization server's issuer identifier (a registration is never used
// with another authorization server), and tokens, keyed by protected
// resource and issuer. Implement it to persist them in the application's
// own storage; values may be serialized with encoding/json. The Doer calls
// it from any goroutine, so implementations must be safe for concurrent
// use. Lookups of absent entries return nil and no error.
type Store interface {
	// Registration returns the client registration for issuer.
	Registration(ctx context.Context, issuer string) (*Registration, error)
	// SetRegistration stores (or, with nil, deletes) the registration for
	// issuer.
	SetRegistration(ctx context.Context, issuer string, r *Registration) error
	// Token returns the token for resource from issuer.
	Token(ctx context.Context, resource, issuer string) (*Token, error)
	// SetToken stores (or, with nil, deletes) the token for resource from
	// issuer.
	SetToken(ctx context.Context, resource, issuer string, t *Token) error
}

// Registration is a client registration at one authorization server: the
// result of dynamic client registration (RFC 7591). It is a plain value.
type Registration struct {
	ClientID     string `json:"client_id"`
	ClientSecret string `json:"client_secret,omitempty"`
	// SecretExpiresAt is when the secret expires (zero: never).
	SecretExpiresAt time.Time `json:"client_secret_expires_at,omitzero"`
	// AuthMethod is the token endpoint authentication method the server
	// registered (may be empty).
	AuthMethod string `json:"token_endpoint_auth_method,omitempty"`
	// RedirectURIs are the registered redirect URIs.
	RedirectURIs []string `json:"redirect_uris,omitempty"`
}

// Token is an access token for one protected resource. It is a plain
// value; the Doer never modifies a Token it has handed to a Store.
type Token struct {
	AccessToken string `json:"access_token"`
	// Type is "Bearer" or "DPoP".
	Type         string `json:"token_type"`
	RefreshToken string `json:"refresh_token,omitempty"`
	// Expiry is when the access token expires (zero: unknown).
	Expiry time.Time `json:"expiry,omitzero"`
	// Scope is the space-separated scope the client requested: the base of
	// the next step-up (the union of requested and challenged scopes).
	Scope string `json:"scope,omitempty"`
	// GrantedScope is the scope the authorization server reported granting.
	GrantedScope string `json:"granted_scope,omitempty"`
	// JKT is the JWK thumbprint of the DPoP key the token is bound to.
	JKT string `json:"jkt,omitempty"`
}

// expired reports whether the token has expired at now, with a margin so
// that a token is not sent in its last seconds.
func (t *Token) expired(now time.Time) bool {
	return !t.Expiry.IsZero() && !now.Before(t.Expiry.Add(-30*time.Second))
}

// fields splits s around runs of white space, as strings.Fields does
// (without its ASCII fast path and FieldsFunc, which nothing else links).
func fields(s string) []string {
	var out []string
	start := -1
	for i, r := range s {
		if unicode.IsSpace(r) {
			if start >= 0 {
				out = append(out, s[start:i])
				start = -1
			}
		} else if start < 0 {
			start = i
		}
	}
	if start >= 0 {
		out = append(out, s[start:])
	}
	return out
}

func (t *Token) clone() *Token {
	if t == nil {
		return nil
	}
	c := *t
	return &c
}

func (r *Registration) clone() *Registration {
	if r == nil {
		return nil
	}
	c := *r
	c.RedirectURIs = append(r.RedirectURIs[:0:0], r.RedirectURIs...)
	return &c
}

// MemoryStore is the default Store: it keeps registrations and tokens in
// memory for the life of the process. It is safe for concurrent use.
type MemoryStore struct {
	mu      sync.Mutex
	clients map[string]*Registration
	tokens  map[[2]string]*Token
	pending map[[2]string]*Pending
}

// NewMemoryStore returns an empty MemoryStore.
func NewMemoryStore() *MemoryStore {
	return &MemoryStore{clients: map[string]*Registration{}, tokens: map[[2]string]*Token{}}
}

// Registration implements Store.
func (m *MemoryStore) Registration(_ context.Context, issuer string) (*Registration, error) {
	m.mu.Lock()
	r := m.clients[issuer].clone()
	m.mu.Unlock()
	return r, nil
}

// SetRegistration implements Store.
func (m *MemoryStore) SetRegistration(_ context.Context, issuer string, r *Registration) error {
	m.mu.Lock()
	if r == nil {
		delete(m.clients, issuer)
	} else {
		m.clients[issuer] = r.clone()
	}
	m.mu.Unlock()
	return nil
}

// Token implements Store.
func (m *MemoryStore) Token(_ context.Context, resource, issuer string) (*Token, error) {
	m.mu.Lock()
	t := m.tokens[[2]string{resource, issuer}].clone()
	m.mu.Unlock()
	return t, nil
}

// SetToken implements Store.
func (m *MemoryStore) SetToken(_ context.Context, resource, issuer string, t *Token) error {
	m.mu.Lock()
	if t == nil {
		delete(m.tokens, [2]string{resource, issuer})
	} else {
		m.tokens[[2]string{resource, issuer}] = t.clone()
	}
	m.mu.Unlock()
	return nil
}
