package guest

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/mcpwasm/mcpwasm/auth"
	"github.com/mcpwasm/mcpwasm/transport/fetch"
	"github.com/mcpwasm/mcpwasm/wasm/wasip1/abi"
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

// authDoer returns the Doer of a session configured with cfg: OAuth inside
// the guest, on top of the host-backed Doer. The configuration is checked
// here, so that a bad one fails mcpwasm_connect at once.
func (g *Guest) authDoer(cfg *abi.AuthConfig, c *conn) (fetch.Doer, error) {
	bad := func(format string, args ...any) error {
		return errorf(abi.StatusInvalid, "connect request: auth: "+format, args...)
	}
	inner := &innerDoer{d: g.doer}
	opts := &auth.Options{
		ClientMetadataURL: cfg.ClientMetadataURL,
		ClientName:        cfg.ClientName,
		ApplicationType:   cfg.ApplicationType,
		Scopes:            cfg.Scopes,
		NoOfflineAccess:   cfg.NoOfflineAccess,
		MaxAuthorizations: cfg.MaxAuthorizations,
		AllowInsecureHTTP: cfg.AllowInsecureHTTP,
		// Tests and development only: see auth.Options.
		AllowPrivateAddresses: cfg.AllowPrivateAddresses,
	}
	if cfg.AuthorizationTimeoutMs > 0 {
		opts.AuthorizationTimeout = ms(cfg.AuthorizationTimeoutMs)
	}
	switch cfg.ApplicationType {
	case "", "native", "web":
	default:
		return nil, bad("unknown applicationType %q (want native or web)", cfg.ApplicationType)
	}
	if cfg.MaxAuthorizations < 0 || cfg.AuthorizationTimeoutMs < 0 {
		return nil, bad("maxAuthorizations and authorizationTimeoutMs must not be negative")
	}

	switch cfg.Grant {
	case "", abi.GrantAuthorizationCode:
		opts.Grant = auth.GrantAuthorizationCode
		switch cfg.UserAgent {
		case "", abi.UserAgentHost:
			if cfg.RedirectURI == "" {
				return nil, bad("the host user agent needs a redirectUri")
			}
			opts.UserAgent = &hostAgent{g: g, c: c, redirect: cfg.RedirectURI}
		case abi.UserAgentHeadless:
			ua := auth.Headless(inner)
			ua.Redirect = cfg.RedirectURI
			opts.UserAgent = ua
		default:
			return nil, bad("unknown userAgent %q (want %s or %s)", cfg.UserAgent, abi.UserAgentHost, abi.UserAgentHeadless)
		}
	case abi.GrantClientCredentials:
		opts.Grant = auth.GrantClientCredentials
	case abi.GrantJWTBearer:
		opts.Grant = auth.GrantJWTBearer
	default:
		return nil, bad("unknown grant %q (want %s, %s or %s)", cfg.Grant, abi.GrantAuthorizationCode, abi.GrantClientCredentials, abi.GrantJWTBearer)
	}

	if (cfg.Assertion != "" || cfg.IDJAG != nil) != (opts.Grant == auth.GrantJWTBearer) {
		return nil, bad("the %s grant needs exactly one of assertion and idjag, and the other grants neither", abi.GrantJWTBearer)
	}
	switch {
	case cfg.Assertion != "" && cfg.IDJAG != nil:
		return nil, bad("assertion and idjag are exclusive")
	case cfg.Assertion != "":
		assertion := cfg.Assertion
		opts.Assertion = func(context.Context, *auth.AssertionRequest) (string, error) { return assertion, nil }
	case cfg.IDJAG != nil:
		x := *cfg.IDJAG
		if x.TokenEndpoint == "" || x.SubjectToken == "" {
			return nil, bad("idjag needs tokenEndpoint and subjectToken")
		}
		opts.Assertion = auth.IDJAG(&auth.IDJAGOptions{
			TokenEndpoint:    x.TokenEndpoint,
			ClientID:         x.ClientID,
			ClientSecret:     x.ClientSecret,
			SubjectToken:     func(context.Context) (string, error) { return x.SubjectToken, nil },
			SubjectTokenType: x.SubjectTokenType,
			HTTP:             inner,
		})
	}

	if cfg.ClientID != "" {
		opts.Client = &auth.Client{ID: cfg.ClientID, Secret: cfg.ClientSecret, AuthMethod: cfg.AuthMethod, Issuer: cfg.Issuer}
		if cfg.PrivateKeyPEM != "" {
			s, err := auth.ParseSigner([]byte(cfg.PrivateKeyPEM))
			if err != nil {
				return nil, bad("privateKeyPem: %v", err)
			}
			opts.Client.Signer = s
		}
	} else if cfg.ClientSecret != "" || cfg.PrivateKeyPEM != "" || cfg.AuthMethod != "" || cfg.Issuer != "" {
		return nil, bad("clientSecret, privateKeyPem, authMethod and issuer need a clientId")
	}
	if m := cfg.AuthMethod; m != "" && !slices.Contains([]string{auth.AuthMethodNone, auth.AuthMethodBasic, auth.AuthMethodPost, auth.AuthMethodJWT}, m) {
		return nil, bad("unknown authMethod %q", m)
	}
	if cfg.AuthMethod == auth.AuthMethodJWT && cfg.PrivateKeyPEM == "" {
		return nil, bad("authMethod %s needs a privateKeyPem", auth.AuthMethodJWT)
	}

	switch {
	case cfg.DPoPKeyPEM != "":
		s, err := auth.ParseSigner([]byte(cfg.DPoPKeyPEM))
		if err != nil {
			return nil, bad("dpopKeyPem: %v", err)
		}
		opts.DPoP = s
	case cfg.DPoP:
		s, err := auth.GenerateSigner()
		if err != nil {
			return nil, fmt.Errorf("mcpwasm: generating a DPoP key: %w", err)
		}
		opts.DPoP = s
	}

	store, err := newAuthStore(cfg.Store)
	if err != nil {
		return nil, bad("store: %v", err)
	}
	if cfg.Persist {
		store.changed = func(state json.RawMessage) {
			g.emit(&abi.Event{Type: abi.EventAuthStore, Client: c.client, Session: c.session(), Store: state})
		}
	}
	opts.Store = store
	if cfg.Log {
		opts.Logf = func(format string, args ...any) {
			g.emit(&abi.Event{Type: abi.EventLog, Client: c.client, Session: c.session(), Message: fmt.Sprintf(format, args...)})
		}
	}
	return &outerDoer{d: auth.NewDoer(inner, opts)}, nil
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
			return "", fmt.Errorf("%w: the session ended", errAuthorize)
		}
		return "", err
	}
	if ans.Error != nil {
		return "", fmt.Errorf("%w: %s", errAuthorize, ans.Error.Message)
	}
	var r abi.AuthorizeResult
	if err := json.Unmarshal(ans.Result, &r); err != nil || r.CallbackURL == "" {
		return "", fmt.Errorf("%w: the answer to an authorize event needs a callbackUrl", errAuthorize)
	}
	return r.CallbackURL, nil
}

// innerDoer is the host-backed Doer as package auth sees it: its errors
// are marked, so that outerDoer can tell the failure of the request
// itself from a failed authorization.
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
// the request's own HTTP failure and its context's end are marked as
// authorization failures (error kind "auth").
type outerDoer struct{ d *auth.Doer }

// authFailure is an authorization failure of a session's request.
type authFailure struct{ err error }

func (e *authFailure) Error() string { return e.err.Error() }
func (e *authFailure) Unwrap() error { return e.err }

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
	return nil, &authFailure{err}
}

// authErrorInfo fills in the kind "auth" of an operation's error.
func authErrorInfo(e *abi.Error, err error) {
	e.Kind = abi.KindAuth
	var oe *auth.Error
	if errors.As(err, &oe) {
		e.Code = int64(oe.StatusCode)
		e.Data, _ = json.Marshal(map[string]string{"error": oe.Code, "error_description": oe.Description, "endpoint": oe.Endpoint})
	}
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
	if err := decodeStrict(state, &st, "auth store"); err != nil {
		return nil, err
	}
	if st.V != storeVersion {
		return nil, fmt.Errorf("version %d, this guest reads version %d", st.V, storeVersion)
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
	b, err := json.Marshal(&st)
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
