package wasihost

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/mcpwasm/mcpwasm/core"
	"github.com/mcpwasm/mcpwasm/internal/bridge"
	"github.com/mcpwasm/mcpwasm/wasm/abi"
)

// HandlerFunc answers a server→client request: it gets the request's params
// and returns the MCP result object (for example a CreateMessageResult), or
// an error (a *core.RPCError keeps its code; others become -32603). It runs on
// its own goroutine and must return when ctx is done (the server withdrew
// the request or the session ended). It may call Session.Request.
type HandlerFunc func(ctx context.Context, params json.RawMessage) (json.RawMessage, error)

// Handlers are the host's answers to server→client requests, in both
// protocol eras (legacy JSON-RPC requests and modern input_required
// rounds alike). A nil handler is not declared as a capability.
type Handlers struct {
	// Sampling answers sampling/createMessage.
	Sampling HandlerFunc
	// Elicitation answers elicitation/create.
	Elicitation HandlerFunc
	// Roots answers roots/list; without it, ConnectOptions.Roots (if set)
	// is answered by the guest.
	Roots HandlerFunc
}

// ConnectOptions configure Host.Connect; nil means all defaults.
type ConnectOptions struct {
	// ClientInfo is the client's identity. Default: mcpwasm-wasihost 0.1.0.
	ClientInfo *core.Implementation
	// ProtocolVersions are the accepted protocol versions, in preference
	// order. Default: every version the guest speaks, 2026-07-28 first.
	ProtocolVersions []string
	// Mode is the transport: "auto" (default), "streamable-http" or "sse".
	Mode string
	// Headers are sent with every HTTP request of the session.
	Headers map[string]string
	// Capabilities are declared in addition to those of the handlers.
	Capabilities *core.ClientCapabilities
	// Handlers answer sampling, elicitation and roots requests.
	Handlers Handlers
	// SamplingTools declares sampling.tools.
	SamplingTools bool
	// ElicitationModes are the declared elicitation modes (default
	// ["form"]).
	ElicitationModes []string
	// Roots is a static root list answered by the guest when
	// Handlers.Roots is nil; change it with Session.SetRoots.
	Roots []*core.Root
	// LogLevel is the initial minimum log level.
	LogLevel string
	// ListChanged names the list-changed notifications wanted ("tools",
	// "prompts", "resources"): on modern servers the guest opens a
	// subscriptions/listen stream for them.
	ListChanged []string
	// RequestTimeout is the default request timeout inside the guest.
	// Default 60 s; negative means none (as in core.ClientOptions).
	RequestTimeout time.Duration
	// Tasks declares the 2026-07-28 tasks extension with every modern
	// request (see core.ClientOptions.Tasks). Default off: the tasks API
	// (Session.CallToolAsTask, …) declares it on its own requests.
	Tasks bool
	// OnNotification receives every server notification, in order, on a
	// goroutine of the session (never concurrently with itself).
	OnNotification func(method string, params json.RawMessage)
	// OnWarning receives the guest's non-fatal warnings, on the same
	// goroutine as OnNotification.
	OnWarning func(message string)
	// Auth, when set, makes the guest authorize the session's requests
	// with OAuth 2.1 (nil: requests are sent as they are).
	Auth *AuthOptions
}

// Grants of AuthOptions.Grant.
const (
	// GrantAuthorizationCode is the authorization code grant with PKCE: a
	// user signs in (AuthOptions.Authorize). The default.
	GrantAuthorizationCode = abi.GrantAuthorizationCode
	// GrantClientCredentials is the client credentials grant: the client
	// acts on its own behalf with AuthOptions.ClientSecret or
	// PrivateKeyPEM.
	GrantClientCredentials = abi.GrantClientCredentials
	// GrantJWTBearer is the JWT bearer grant: the client presents
	// AuthOptions.Assertion, or an identity assertion grant obtained with
	// AuthOptions.IDJAG.
	GrantJWTBearer = abi.GrantJWTBearer
)

// AuthorizeFunc sends the user to authURL (a browser, a popup, a message
// with a link…) and returns the URL the authorization server redirected
// back to: AuthOptions.RedirectURI with the code, state and iss parameters
// (or an error). It runs on its own goroutine and must return when ctx is
// done (the authorization was abandoned or the session ended).
type AuthorizeFunc func(ctx context.Context, authURL string) (callbackURL string, err error)

// AuthOptions configure OAuth for a session: the bridge's auth
// configuration (abi.AuthConfig, documented in docs/configuration.md and
// docs/wasi-abi.md), plus the Go functions that answer the guest. The
// authorization runs inside the guest (discovery, registration, PKCE,
// state and iss checks, token requests, refresh, step-up, DPoP); the host
// only performs HTTP and, with Authorize, shows the authorization URL to
// the user. A plain value; read by Connect.
type AuthOptions struct {
	// AuthConfig is the configuration (grant, client credentials, scopes,
	// DPoP, store, …). Its UserAgent, Persist and Log members are set
	// from the functions below: UserAgent is "host" with Authorize and
	// "headless" without it (the guest then requests the authorization URL
	// itself without following redirects and reads the redirect to
	// RedirectURI, default http://127.0.0.1/callback: for authorization
	// servers that need no user, like test servers).
	abi.AuthConfig
	// Authorize performs the user's part of the authorization code grant;
	// RedirectURI is then required (where the application receives the
	// callback; a native program may use auth.NewLoopbackCallback's
	// RedirectURI and Authorize).
	Authorize AuthorizeFunc
	// OnStore, if set, receives the session's token store after every
	// change (a new registration, token or refresh), to be persisted and
	// passed back as AuthConfig.Store. It holds tokens, refresh tokens and
	// client secrets: keep it as safe as credentials. It runs on the
	// session's callback goroutine.
	OnStore func(state json.RawMessage)
	// OnLog, if set, receives a line for each step of an authorization, on
	// the session's callback goroutine.
	OnLog func(message string)
}

// authConfig returns the ABI's message for a.
func (a *AuthOptions) authConfig() *abi.AuthConfig {
	cfg := a.AuthConfig
	cfg.UserAgent = abi.UserAgentHeadless
	if a.Authorize != nil {
		cfg.UserAgent = abi.UserAgentHost
	}
	if cfg.Grant != "" && cfg.Grant != GrantAuthorizationCode {
		cfg.UserAgent = ""
	}
	cfg.Persist = a.OnStore != nil
	cfg.Log = a.OnLog != nil
	return &cfg
}

// Session is a connection to one MCP server through the guest. Its methods
// are safe for concurrent use.
type Session struct {
	h      *Host
	client uint32
	id     uint32
	opts   ConnectOptions
	info   abi.ConnectResult
	queue  *queue
	ctx    context.Context // ends with the session: handler contexts
	cancel context.CancelFunc

	endOnce sync.Once
	done    chan struct{}
	mu      sync.Mutex
	err     error
}

// Connect creates a client in the guest and connects it to the MCP
// endpoint url; it returns when the handshake is done (era detection,
// version negotiation). ctx bounds the handshake only.
func (h *Host) Connect(ctx context.Context, url string, opts *ConnectOptions) (*Session, error) {
	var o ConnectOptions
	if opts != nil {
		o = *opts
	}
	info := o.ClientInfo
	if info == nil {
		info = &core.Implementation{Name: "mcpwasm-wasihost", Version: "0.1.0"}
	}
	cfgJSON, reqJSON, err := o.messages(url, info)
	if err != nil {
		return nil, err
	}
	return h.connect(ctx, &o, cfgJSON, reqJSON)
}

// connect creates a client from the ABI's client config cfgJSON and
// connects it with the connect request reqJSON; opts supplies the
// handlers and callbacks.
func (h *Host) connect(ctx context.Context, opts *ConnectOptions, cfgJSON, reqJSON []byte) (*Session, error) {
	s := &Session{h: h, done: make(chan struct{}), opts: *opts}
	var err error
	s.ctx, s.cancel = context.WithCancel(h.ctx)

	op := &pendingOp{session: s, done: make(chan opResult, 1)}
	op.finish = func(ev *abi.Event) {
		if ev.Error != nil || json.Unmarshal(ev.Result, &s.info) != nil || s.info.Session == 0 {
			h.freeClient(s.client)
			return
		}
		s.id = s.info.Session
		h.sessions[s.id] = s
	}
	var opID uint32
	err = h.do(func() error {
		id, err := h.callInput(abi.ExportClientNew, cfgJSON)
		if err != nil {
			return err
		}
		// Goroutines of the Host are only added on the pump goroutine, so
		// that none is added while Close waits for them.
		s.queue = newQueue(&h.wg)
		s.client = id
		h.clients[id] = s
		opID, err = h.callInput(abi.ExportConnect, reqJSON, uint64(id))
		if err != nil {
			h.freeClient(id)
			return err
		}
		h.ops[opID] = op
		return nil
	})
	if err != nil {
		s.end(err)
		return nil, err
	}
	var r opResult
	select {
	case r = <-op.done:
	case <-ctx.Done():
		// Cancel the handshake, then wait for its (prompt) end so that no
		// session is left behind in the guest.
		_ = h.submit(func() {
			if h.ops[opID] != nil {
				_, _ = h.callStatus(abi.ExportCancel, uint64(opID))
			}
		})
		r = <-op.done
		if r.err == nil {
			_ = s.Close()
		}
		s.end(ctx.Err())
		return nil, ctx.Err()
	}
	if r.err != nil {
		s.end(r.err)
		return nil, fmt.Errorf("wasihost: connect: %w", r.err)
	}
	return s, nil
}

// messages converts the options to the ABI's client config and connect
// request: the bridge's schema, where durations are milliseconds (a Go
// zero is left out: the default; a negative one is -1: none).
func (o *ConnectOptions) messages(url string, info *core.Implementation) (cfgJSON, reqJSON []byte, err error) {
	cfg := abi.ClientConfig{
		ClientInfo:       info,
		ProtocolVersions: o.ProtocolVersions,
		Capabilities:     o.Capabilities,
		Handlers: abi.Handlers{
			Sampling:    o.Handlers.Sampling != nil,
			Elicitation: o.Handlers.Elicitation != nil,
			Roots:       o.Handlers.Roots != nil,
		},
		SamplingTools:    o.SamplingTools,
		ElicitationModes: o.ElicitationModes,
		Roots:            o.Roots,
		LogLevel:         o.LogLevel,
		RequestTimeoutMs: millis(o.RequestTimeout),
		Tasks:            o.Tasks,
	}
	if o.Roots != nil && len(o.Roots) == 0 {
		cfg.Roots = []*core.Root{} // declared, empty
	}
	for _, name := range o.ListChanged {
		switch name {
		case "tools":
			cfg.Notifications = append(cfg.Notifications, core.NotificationToolsChanged)
		case "prompts":
			cfg.Notifications = append(cfg.Notifications, core.NotificationPromptsChanged)
		case "resources":
			cfg.Notifications = append(cfg.Notifications, core.NotificationResourcesChanged)
		default:
			return nil, nil, fmt.Errorf("%w: unknown ListChanged kind %q (want tools, prompts or resources)", ErrInvalid, name)
		}
	}
	if cfgJSON, err = json.Marshal(&cfg); err != nil {
		return nil, nil, err
	}
	creq := &abi.ConnectRequest{URL: url, ProtocolVersions: o.ProtocolVersions, Transport: o.Mode, Headers: o.Headers}
	if o.Auth != nil {
		creq.Auth = o.Auth.authConfig()
	}
	reqJSON, err = json.Marshal(creq)
	return cfgJSON, reqJSON, err
}

// millis converts a Go duration of the options (zero: the default,
// negative: none) to the schema's milliseconds (absent: the default, -1:
// none).
func millis(d time.Duration) *abi.Millis {
	if d == 0 {
		return nil
	}
	return bridge.Ms(d)
}

// end marks the session ended with err (nil after Close).
func (s *Session) end(err error) {
	s.endOnce.Do(func() {
		s.mu.Lock()
		s.err = err
		s.mu.Unlock()
		if s.cancel != nil {
			s.cancel()
		}
		if s.queue != nil {
			s.queue.close()
		}
		close(s.done)
	})
}

// Era returns the server's protocol era, "modern" or "legacy".
func (s *Session) Era() string { return s.info.Era }

// ProtocolVersion returns the negotiated protocol version.
func (s *Session) ProtocolVersion() string { return s.info.ProtocolVersion }

// SessionID returns the legacy Mcp-Session-Id, or "".
func (s *Session) SessionID() string { return s.info.SessionID }

// ServerInfo returns the server's Implementation object (raw JSON).
func (s *Session) ServerInfo() *core.Implementation { return s.info.ServerInfo }

// ServerCapabilities returns the server's capabilities object (raw JSON).
func (s *Session) ServerCapabilities() *core.ServerCapabilities { return s.info.ServerCapabilities }

// Instructions returns the server's instructions.
func (s *Session) Instructions() string { return s.info.Instructions }

// Done is closed when the session has ended.
func (s *Session) Done() <-chan struct{} { return s.done }

// Err returns why the session ended: nil while it runs or after Close, an
// error wrapping core.ErrClosed if the connection failed, or the Host's error
// after a trap.
func (s *Session) Err() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.err
}

// RequestOptions tune one request; nil means the session defaults.
type RequestOptions struct {
	// Timeout is the request's idle timeout inside the guest (0: the
	// session default; negative: none).
	Timeout time.Duration
	// ResetTimeoutOnProgress restarts the timeout on progress.
	ResetTimeoutOnProgress bool
	// MaxTotalTimeout is a hard limit even when progress resets the
	// timeout (0: none unless the guest has a default; negative: none).
	MaxTotalTimeout time.Duration
	// OnProgress receives the request's notifications/progress params (a
	// progress token is sent when it is set). It is called in order on the
	// goroutine that called Request, and never after Request returned.
	OnProgress func(params json.RawMessage)
	// NoCache skips the guest's ttlMs result cache.
	NoCache bool
	// Meta members are added to the request's _meta.
	Meta map[string]any
	// NoTaskWait makes tools/call fail with core.ErrTaskCreated (a *GuestError
	// whose Data holds the task's id and state) when the server answers
	// with a task, instead of waiting for it.
	NoTaskWait bool
}

// Request sends any client request through the guest's full pipeline and
// returns the raw result. params is a value that encodes as a JSON object,
// a json.RawMessage, or nil. resources/subscribe, resources/unsubscribe,
// logging/setLevel and ping work in both eras. A JSON-RPC error is an
// *core.RPCError; other failures are *GuestError, which unwrap to core's
// sentinels (core.ErrTimeout, core.ErrClosed, …) or the package's; an output
// schema mismatch returns the result together with core.ErrOutputSchema. When
// ctx ends, the request is cancelled in the guest (and on the wire) and
// ctx.Err() is returned.
func (s *Session) Request(ctx context.Context, method string, params any, opts *RequestOptions) (json.RawMessage, error) {
	var raw json.RawMessage
	switch p := params.(type) {
	case nil:
	case json.RawMessage:
		raw = p
	case []byte:
		raw = p
	default:
		b, err := json.Marshal(p)
		if err != nil {
			return nil, fmt.Errorf("wasihost: encoding params: %w", err)
		}
		raw = b
	}
	req := abi.CallRequest{Method: method, Params: raw}
	var onProgress func(json.RawMessage)
	if opts != nil {
		req.TimeoutMs = millis(opts.Timeout)
		req.ResetTimeoutOnProgress = opts.ResetTimeoutOnProgress
		req.MaxTotalTimeoutMs = millis(opts.MaxTotalTimeout)
		req.Progress = opts.OnProgress != nil
		req.NoCache = opts.NoCache
		req.Meta = opts.Meta
		req.NoTaskWait = opts.NoTaskWait
		onProgress = opts.OnProgress
	}
	return s.request(ctx, &req, onProgress)
}

// request sends the ABI's call request req; onProgress receives its
// progress when req.Progress is set.
func (s *Session) request(ctx context.Context, req *abi.CallRequest, onProgress func(json.RawMessage)) (json.RawMessage, error) {
	op := &pendingOp{session: s, done: make(chan opResult, 1)}
	if req.Progress && onProgress != nil {
		op.progress = newProgressQueue()
	}
	b, err := json.Marshal(req)
	if err != nil {
		return nil, fmt.Errorf("wasihost: encoding the request: %w", err)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	opID, err := s.startOp(op, func() (uint32, error) {
		return s.h.callInput(abi.ExportRequest, b, uint64(s.id))
	})
	if err != nil {
		return nil, err
	}
	var wake chan struct{}
	if op.progress != nil {
		wake = op.progress.wake
	}
	for {
		select {
		case <-wake:
			op.progress.drain(onProgress)
		case r := <-op.done:
			if op.progress != nil {
				// Queued before the result: deliver them first.
				op.progress.drain(onProgress)
			}
			return r.result, r.err
		case <-ctx.Done():
			s.cancelOp(opID, op)
			return nil, ctx.Err()
		}
	}
}

func (s *Session) closedErr() error {
	if err := s.Err(); err != nil {
		if errors.Is(err, core.ErrClosed) || errors.Is(err, ErrTrapped) {
			return err
		}
		return fmt.Errorf("%w: %w", core.ErrClosed, err)
	}
	return core.ErrClosed
}

// SetRoots replaces the static roots the guest answers roots/list with and
// notifies a legacy server (notifications/roots/list_changed).
func (s *Session) SetRoots(ctx context.Context, roots []*core.Root) error {
	if roots == nil {
		roots = []*core.Root{}
	}
	b, err := json.Marshal(roots)
	if err != nil {
		return err
	}
	return s.runOp(ctx, func() (uint32, error) {
		return s.h.callInput(abi.ExportSetRoots, b, uint64(s.client))
	})
}

// runOp starts an operation on the pump and waits for its result.
func (s *Session) runOp(ctx context.Context, start func() (uint32, error)) error {
	op := &pendingOp{session: s, done: make(chan opResult, 1)}
	opID, err := s.startOp(op, start)
	if err != nil {
		return err
	}
	select {
	case r := <-op.done:
		return r.err
	case <-ctx.Done():
		s.cancelOp(opID, op)
		return ctx.Err()
	}
}

// startOp runs start on the pump while the session is open and registers op
// under the operation id the guest returned.
func (s *Session) startOp(op *pendingOp, start func() (uint32, error)) (uint32, error) {
	h := s.h
	var opID uint32
	err := h.do(func() error {
		if h.sessions[s.id] != s {
			return s.closedErr()
		}
		id, err := start()
		if err != nil {
			return err
		}
		opID = id
		h.ops[id] = op
		return nil
	})
	return opID, err
}

// cancelOp asks the guest to cancel operation opID if it is still op; it
// does not wait.
func (s *Session) cancelOp(opID uint32, op *pendingOp) {
	h := s.h
	_ = h.submit(func() {
		if h.ops[opID] == op {
			_, _ = h.callStatus(abi.ExportCancel, uint64(opID))
		}
	})
}

// Close ends the session (a legacy HTTP session is deleted on the server)
// and frees its client in the guest. It is safe to call more than once.
func (s *Session) Close() error {
	select {
	case <-s.done:
		return nil
	default:
	}
	err := s.runOp(context.Background(), func() (uint32, error) {
		return s.h.callStatus(abi.ExportClose, uint64(s.id))
	})
	_ = s.h.do(func() error {
		if s.h.sessions[s.id] == s {
			s.h.forgetSession(s, nil)
		}
		return nil
	})
	s.end(nil)
	if errors.Is(err, core.ErrClosed) {
		return nil
	}
	return err
}

// queue runs callbacks in order on one goroutine.
type queue struct {
	mu     sync.Mutex
	items  []func()
	wake   chan struct{}
	closed bool
}

func newQueue(wg *sync.WaitGroup) *queue {
	q := &queue{wake: make(chan struct{}, 1)}
	wg.Add(1)
	go func() {
		defer wg.Done()
		q.run()
	}()
	return q
}

// push queues f; it reports false if the queue is closed.
func (q *queue) push(f func()) bool {
	q.mu.Lock()
	if q.closed {
		q.mu.Unlock()
		return false
	}
	q.items = append(q.items, f)
	q.mu.Unlock()
	select {
	case q.wake <- struct{}{}:
	default:
	}
	return true
}

// close stops the queue once the callbacks already queued have run.
func (q *queue) close() {
	q.mu.Lock()
	q.closed = true
	q.mu.Unlock()
	select {
	case q.wake <- struct{}{}:
	default:
	}
}

func (q *queue) run() {
	for {
		q.mu.Lock()
		if len(q.items) == 0 {
			closed := q.closed
			q.mu.Unlock()
			if closed {
				return
			}
			<-q.wake
			continue
		}
		f := q.items[0]
		q.items[0] = nil
		q.items = q.items[1:]
		q.mu.Unlock()
		func() {
			defer func() { _ = recover() }()
			f()
		}()
	}
}
