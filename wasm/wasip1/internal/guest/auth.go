package guest

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/mcpwasm/mcpwasm/auth"
	"github.com/mcpwasm/mcpwasm/internal/bridge"
	"github.com/mcpwasm/mcpwasm/internal/errf"
	"github.com/mcpwasm/mcpwasm/transport/fetch"
	"github.com/mcpwasm/mcpwasm/wasm/abi"
)

// conn ties what a connect request creates (its auth Doer, the host's
// user agent) to the session it becomes: the session id once it exists,
// and a context that ends when the connect fails or the session ends, so
// that nothing waits on the host for a session that is gone.
type conn struct {
	client uint32
	id     atomic.Uint32
	life   context.Context
	end    context.CancelFunc
}

func newConn(client uint32) *conn {
	c := &conn{client: client}
	c.life, c.end = context.WithCancel(context.Background())
	return c
}

func (c *conn) session() uint32 { return c.id.Load() }

// authDoer returns the Doer of a session configured with cfg: the bridge's
// OAuth Doer on top of the host-backed Doer, with the host as user agent
// ("authorize" events), a token store in guest memory (reported in
// "auth_store" events with cfg.Persist) and "log" events (cfg.Log). The
// configuration is checked here, so that a bad one fails mcpwasm_connect
// at once.
func (g *Guest) authDoer(cfg *abi.AuthConfig, c *conn) (fetch.Doer, error) {
	store, err := newAuthStore(cfg.Store)
	if err != nil {
		return nil, errorf(abi.StatusInvalid, "connect request: auth: store: %v", err)
	}
	if cfg.Persist {
		store.changed = func(state json.RawMessage) {
			g.emit(&abi.Event{Type: abi.EventAuthStore, Client: c.client, Session: c.session(), Store: state})
		}
	}
	hooks := &bridge.AuthHooks{
		UserAgent: &hostAgent{g: g, c: c, redirect: cfg.RedirectURI},
		Store:     store,
		Logf: func(format string, args ...any) {
			g.emit(&abi.Event{Type: abi.EventLog, Client: c.client, Session: c.session(), Message: errf.Sprintf(format, args...)})
		},
	}
	return bridge.AuthDoer(g.doer, cfg, hooks)
}

// hostAgent is the auth.UserAgent that asks the host ("authorize" events).
type hostAgent struct {
	g        *Guest
	c        *conn
	redirect string
}

// errAuthorize is the host's failure to authorize (its answer was an
// error).
var errAuthorize = errors.New("mcpwasm: the host's user agent failed")

func (a *hostAgent) RedirectURI() string { return a.redirect }

func (a *hostAgent) Authorize(ctx context.Context, authURL string) (string, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	stop := context.AfterFunc(a.c.life, cancel)
	defer stop()
	ans, err := a.g.ask(ctx, &abi.Event{Type: abi.EventAuthorize, Client: a.c.client, Session: a.c.session(), URL: authURL})
	if err != nil {
		if a.c.life.Err() != nil {
			return "", errf.Errorf("%w: the session ended", errAuthorize)
		}
		return "", err
	}
	if ans.Error != nil {
		return "", errf.Errorf("%w: %s", errAuthorize, ans.Error.Message)
	}
	var r abi.AuthorizeResult
	if err := bridge.Unmarshal(ans.Result, (*authorizeResult)(&r)); err != nil || r.CallbackURL == "" {
		return "", errf.Errorf("%w: the answer to an authorize event needs a callbackUrl", errAuthorize)
	}
	return r.CallbackURL, nil
}

// authStore is a session's auth.Store: in guest memory, initialised from
// AuthConfig.Store and, with AuthConfig.Persist, reported to the host
// after every change.
type authStore struct {
	mu      sync.Mutex
	regs    map[string]*auth.Registration
	tokens  map[[2]string]*auth.Token
	changed func(state json.RawMessage) // nil: not reported
}

// storeVersion is the version of the store's JSON form.
const storeVersion = 1

// storeState is the JSON form of an authStore (opaque to hosts).
type storeState struct {
	V             int                           `json:"v"`
	Registrations map[string]*auth.Registration `json:"registrations,omitempty"`
	Tokens        []storedToken                 `json:"tokens,omitempty"`
}

type storedToken struct {
	Resource string      `json:"resource"`
	Issuer   string      `json:"issuer"`
	Token    *auth.Token `json:"token"`
}

func newAuthStore(state json.RawMessage) (*authStore, error) {
	s := &authStore{regs: map[string]*auth.Registration{}, tokens: map[[2]string]*auth.Token{}}
	if len(state) == 0 || string(state) == "null" {
		return s, nil
	}
	var st storeState
	if err := bridge.Decode(state, &st, "auth store"); err != nil {
		return nil, err
	}
	if st.V != storeVersion {
		return nil, errf.Errorf("version %d, this guest reads version %d", st.V, storeVersion)
	}
	for iss, r := range st.Registrations {
		if r != nil {
			s.regs[iss] = r
		}
	}
	for _, t := range st.Tokens {
		if t.Token != nil {
			s.tokens[[2]string{t.Resource, t.Issuer}] = t.Token
		}
	}
	return s, nil
}

func cloneToken(t *auth.Token) *auth.Token {
	if t == nil {
		return nil
	}
	c := *t
	return &c
}

func cloneRegistration(r *auth.Registration) *auth.Registration {
	if r == nil {
		return nil
	}
	c := *r
	c.RedirectURIs = slices.Clone(r.RedirectURIs)
	return &c
}

// reportLocked sends the store's state to the host; s.mu must be held.
func (s *authStore) reportLocked() {
	if s.changed == nil {
		return
	}
	st := storeState{V: storeVersion, Registrations: s.regs}
	for k, t := range s.tokens {
		st.Tokens = append(st.Tokens, storedToken{Resource: k[0], Issuer: k[1], Token: t})
	}
	slices.SortFunc(st.Tokens, func(a, b storedToken) int {
		return cmp.Or(cmp.Compare(a.Resource, b.Resource), cmp.Compare(a.Issuer, b.Issuer))
	})
	b, err := appendStore(nil, &st)
	if err == nil {
		s.changed(b)
	}
}

// Registration implements auth.Store.
func (s *authStore) Registration(_ context.Context, issuer string) (*auth.Registration, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return cloneRegistration(s.regs[issuer]), nil
}

// SetRegistration implements auth.Store.
func (s *authStore) SetRegistration(_ context.Context, issuer string, r *auth.Registration) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if r == nil {
		delete(s.regs, issuer)
	} else {
		s.regs[issuer] = cloneRegistration(r)
	}
	s.reportLocked()
	return nil
}

// Token implements auth.Store.
func (s *authStore) Token(_ context.Context, resource, issuer string) (*auth.Token, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return cloneToken(s.tokens[[2]string{resource, issuer}]), nil
}

// SetToken implements auth.Store.
func (s *authStore) SetToken(_ context.Context, resource, issuer string, t *auth.Token) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if t == nil {
		delete(s.tokens, [2]string{resource, issuer})
	} else {
		s.tokens[[2]string{resource, issuer}] = cloneToken(t)
	}
	s.reportLocked()
	return nil
}
