// Package manager connects to a set of MCP servers and presents them as
// one: each server connects, fails and reconnects on its own (one broken
// server never blocks the others, and its state is visible); their tools,
// resources and prompts form one aggregate under namespaced names
// ("server__tool"), with per-server allow/deny filters and a deterministic
// collision rule; a call is routed to the server that owns the tool; the
// same handlers answer every server's sampling, elicitation and roots
// requests and are told which server asks. It is configured from the
// de-facto "mcpServers" JSON (ParseConfig) or at run time (Add, Remove).
//
// It has the shape of the npm package's McpManager in Go idiom; see
// docs/manager.md for the reasons behind the naming, collision and
// reconnection rules.
package manager

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/mcpwasm/mcpwasm/core"
	"github.com/mcpwasm/mcpwasm/transport/fetch"
	"github.com/mcpwasm/mcpwasm/transport/stdio"
	"github.com/mcpwasm/mcpwasm/transport/ws"
)

// Sentinel errors of the package.
var (
	// ErrConfig wraps every configuration error.
	ErrConfig = errors.New("manager: invalid configuration")
	// ErrUnknownServer means no server has the name.
	ErrUnknownServer = errors.New("manager: unknown server")
	// ErrServerExists means Add was given a name in use.
	ErrServerExists = errors.New("manager: a server with this name exists")
	// ErrUnknownTool means the aggregate has no tool (or prompt) of the
	// name: it never existed, a filter hides it, or its server left.
	ErrUnknownTool = errors.New("manager: unknown tool")
	// ErrUnknownPrompt is ErrUnknownTool for prompts.
	ErrUnknownPrompt = errors.New("manager: unknown prompt")
	// ErrUnknownResource means no connected server lists the URI (give
	// the server's name).
	ErrUnknownResource = errors.New("manager: no connected server lists the resource")
	// ErrNotConnected means the server the call belongs to is not
	// connected (see NotConnectedError).
	ErrNotConnected = errors.New("manager: server not connected")
	// ErrClosed means the manager was closed.
	ErrClosed = errors.New("manager: closed")
)

// NotConnectedError is returned for a call to a server that is not
// connected. It matches ErrNotConnected with errors.Is.
type NotConnectedError struct {
	Server string
	Status Status
	// Cause is why its last attempt failed, if it did.
	Cause error
}

func (e *NotConnectedError) Error() string {
	s := fmt.Sprintf("manager: server %q is %s", e.Server, e.Status)
	if e.Cause != nil {
		s += ": " + e.Cause.Error()
	}
	return s
}

// Is reports whether target is ErrNotConnected.
func (e *NotConnectedError) Is(target error) bool { return target == ErrNotConnected }

// Unwrap returns Cause.
func (e *NotConnectedError) Unwrap() error { return e.Cause }

// Status is a server's connection state.
type Status string

// The statuses of a server.
const (
	StatusConnecting   Status = "connecting"
	StatusConnected    Status = "connected"
	StatusReconnecting Status = "reconnecting"
	StatusFailed       Status = "failed"
	StatusClosed       Status = "closed"
)

// ServerState is a snapshot of one server.
type ServerState struct {
	Name   string
	Status Status
	// Err is why the last attempt failed (reconnecting, failed).
	Err        error
	ServerInfo *core.Implementation
	// Session is the server's session, only while connected.
	Session *core.Session
	// PID is a stdio server's process id while connected (0 otherwise,
	// and for a transport that is not transport/stdio's).
	PID int
}

// ChangeKind says what part of the aggregate changed.
type ChangeKind string

// The kinds of change.
const (
	ChangeTools     ChangeKind = "tools"
	ChangeResources ChangeKind = "resources"
	ChangePrompts   ChangeKind = "prompts"
	// ChangeServers: a server connected or left (everything of it).
	ChangeServers ChangeKind = "servers"
)

// Change is one update of the aggregate.
type Change struct {
	Server string
	Kind   ChangeKind
}

// Tool is a tool of the aggregate: Name is the namespaced name, ToolName
// the server's own.
type Tool struct {
	core.Tool
	Server   string `json:"server"`
	ToolName string `json:"toolName"`
}

// Prompt is a prompt of the aggregate, namespaced like tools.
type Prompt struct {
	core.Prompt
	Server     string `json:"server"`
	PromptName string `json:"promptName"`
}

// Resource is a resource of the aggregate (URIs are not namespaced).
type Resource struct {
	core.Resource
	Server string `json:"server"`
}

// ResourceTemplate is a resource template of the aggregate.
type ResourceTemplate struct {
	core.ResourceTemplate
	Server string `json:"server"`
}

// ReconnectPolicy bounds a server's connection attempts.
type ReconnectPolicy struct {
	// Delay is the first backoff delay, doubled per attempt with ±20%
	// jitter. Default 500 ms.
	Delay time.Duration
	// MaxDelay caps one delay. Default 30 s.
	MaxDelay time.Duration
	// Attempts per loop, the first included; then the server is "failed"
	// until Reconnect. Default 8.
	Attempts int
}

// Options configure a Manager; nil means all defaults. Callbacks may be
// called concurrently (from different servers) and must return quickly.
type Options struct {
	// ClientInfo is the identity every server sees. Default
	// {Name: "mcpwasm-manager", Version: "0.1.0"}.
	ClientInfo *core.Implementation
	// Separator goes between the server's and the tool's name. Default
	// DefaultSeparator ("__").
	Separator string

	// SamplingHandler, ElicitationHandler and RootsHandler answer every
	// server's requests; server names the one that asks. Setting one
	// declares the capability to every server.
	SamplingHandler    func(ctx context.Context, server string, req *core.CreateMessageRequest) (*core.CreateMessageResult, error)
	ElicitationHandler func(ctx context.Context, server string, req *core.ElicitRequest) (*core.ElicitResult, error)
	RootsHandler       func(ctx context.Context, server string, req *core.ListRootsRequest) (*core.ListRootsResult, error)
	// Roots are given to every server when RootsHandler is nil.
	Roots []*core.Root
	// LoggingHandler and ProgressHandler receive every server's log and
	// progress notifications.
	LoggingHandler  func(ctx context.Context, server string, p *core.LoggingMessageParams)
	ProgressHandler func(ctx context.Context, server string, p *core.ProgressParams)
	// Stderr receives a stdio server's standard error, line by line.
	Stderr func(server, line string)

	// OnChange is called once per update of the aggregate.
	OnChange func(Change)
	// OnStatus is called when a server's status changes.
	OnStatus func(ServerState)

	// ClientOptions apply to every server's client (the handlers above
	// replace theirs; its list-changed handlers are called as well as the
	// manager's own).
	ClientOptions *core.ClientOptions
	// Reconnect bounds each server's attempts. Default: see
	// ReconnectPolicy.
	Reconnect *ReconnectPolicy
	// HealthCheck, when positive, pings every connected server at this
	// interval; a failed ping starts its reconnection. Default 0: none (a
	// session that ends, or a call that finds the connection gone, still
	// does).
	HealthCheck time.Duration
	// HTTP performs the requests of every server reached over HTTP(S)
	// (fetch.Options.HTTP of the default transports). Default
	// fetch.DefaultDoer(). For OAuth, an auth.Doer (auth.NewDoer): one
	// serves every server, keeping each one's tokens apart (a token only
	// goes to the resource it was issued for), as the JS manager's auth
	// member does per server.
	HTTP fetch.Doer
	// NewTransport makes a server's transport. Default: the package's
	// own — transport/fetch for HTTP(S) URLs (Headers, Transport, HTTP),
	// transport/ws for "websocket", transport/stdio for a Command. Set it
	// for a different HTTP client per server, or a transport of your own.
	NewTransport func(name string, cfg *ServerConfig) (core.Transport, error)
}

// Manager is a set of MCP servers presented as one. It is safe for
// concurrent use.
type Manager struct {
	opts      Options
	reconnect ReconnectPolicy
	wg        sync.WaitGroup // connection loops, watchers, refreshes

	mu      sync.Mutex
	entries map[string]*entry
	closed  bool
	agg     *aggregate // nil when it must be rebuilt
}

// entry is one server. Fields below mu are guarded by Manager.mu.
type entry struct {
	name   string
	cfg    *ServerConfig
	client *core.Client

	status        Status
	err           error
	session       *core.Session
	info          *core.Implementation
	lists         lists
	everConnected bool
	stop          context.CancelFunc // ends the current loop and watcher
	stopCtx       context.Context
	running       bool          // a connection loop runs
	first         chan struct{} // closed after the current loop's first attempt
	refreshing    map[ChangeKind]*refreshState
	// opening is the session being connected, and pending the lists it
	// said changed before it became e's (fetched again once it has).
	opening *core.Session
	pending map[ChangeKind]bool
	// stdio is the session's transport when it is a stdio one (for PID).
	stdio *stdio.Transport
}

type lists struct {
	tools     []*core.Tool
	resources []*core.Resource
	templates []*core.ResourceTemplate
	prompts   []*core.Prompt
}

type refreshState struct{ running, again bool }

// New returns a manager for cfg (nil: no servers yet). It connects
// nothing: Connect does.
func New(cfg *Config, opts *Options) (*Manager, error) {
	m := &Manager{entries: map[string]*entry{}}
	if opts != nil {
		m.opts = *opts
	}
	if m.opts.Separator == "" {
		m.opts.Separator = DefaultSeparator
	}
	if m.opts.ClientInfo == nil {
		m.opts.ClientInfo = &core.Implementation{Name: "mcpwasm-manager", Version: "0.1.0"}
	}
	m.reconnect = ReconnectPolicy{Delay: 500 * time.Millisecond, MaxDelay: 30 * time.Second, Attempts: 8}
	if r := m.opts.Reconnect; r != nil {
		if r.Delay > 0 {
			m.reconnect.Delay = r.Delay
		}
		if r.MaxDelay > 0 {
			m.reconnect.MaxDelay = r.MaxDelay
		}
		if r.Attempts > 0 {
			m.reconnect.Attempts = r.Attempts
		}
	}
	if cfg != nil {
		for name, sc := range cfg.MCPServers {
			if sc == nil {
				return nil, fmt.Errorf("%w: server %q has no configuration", ErrConfig, name)
			}
			c := sc.clone()
			if err := c.Validate(name); err != nil {
				return nil, err
			}
			m.entries[name] = m.newEntry(name, c)
		}
	}
	return m, nil
}

func (m *Manager) newEntry(name string, cfg *ServerConfig) *entry {
	e := &entry{name: name, cfg: cfg, status: StatusConnecting, refreshing: map[ChangeKind]*refreshState{}}
	if cfg.Disabled {
		e.status = StatusClosed
	}
	e.client = core.NewClient(m.opts.ClientInfo, m.clientOptions(e))
	return e
}

// ---------------------------------------------------------------- state

func (e *entry) stateLocked() ServerState {
	s := ServerState{Name: e.name, Status: e.status, Err: e.err, ServerInfo: e.info}
	if e.status == StatusConnected {
		s.Session = e.session
		if e.stdio != nil {
			s.PID = e.stdio.PID()
		}
	}
	return s
}

// setStatusLocked changes e's status and error and returns the state to
// report if the status changed (report it after unlocking). The aggregate
// holds the connected servers' lists, so a status change makes it stale:
// an OnStatus callback that asks for Tools sees the new one.
func (m *Manager) setStatusLocked(e *entry, st Status, err error) *ServerState {
	e.err = err
	if e.status == st {
		return nil
	}
	e.status = st
	m.agg = nil
	s := e.stateLocked()
	return &s
}

func (m *Manager) report(s *ServerState) {
	if s != nil && m.opts.OnStatus != nil {
		m.opts.OnStatus(*s)
	}
}

func (m *Manager) changed(server string, kind ChangeKind) {
	if m.opts.OnChange != nil {
		m.opts.OnChange(Change{Server: server, Kind: kind})
	}
}

// Servers returns the state of every configured server, by name.
func (m *Manager) Servers() []ServerState {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make([]ServerState, 0, len(m.entries))
	for _, e := range m.sortedLocked() {
		out = append(out, e.stateLocked())
	}
	return out
}

// Server returns the state of one server.
func (m *Manager) Server(name string) (ServerState, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	e := m.entries[name]
	if e == nil {
		return ServerState{}, false
	}
	return e.stateLocked(), true
}

// Session returns a connected server's session, or nil.
func (m *Manager) Session(name string) *core.Session {
	m.mu.Lock()
	defer m.mu.Unlock()
	if e := m.entries[name]; e != nil && e.status == StatusConnected {
		return e.session
	}
	return nil
}

func (m *Manager) sortedLocked() []*entry {
	out := make([]*entry, 0, len(m.entries))
	for _, e := range m.entries {
		out = append(out, e)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].name < out[j].name })
	return out
}

// ---------------------------------------------------------------- connecting

// Connect connects every configured, enabled server concurrently and
// returns when each has connected or failed its first attempt (or ctx
// ended); failed ones go on retrying in the background. It never fails
// because a server did: their states say why.
func (m *Manager) Connect(ctx context.Context) ([]ServerState, error) {
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		return nil, ErrClosed
	}
	var waits []chan struct{}
	for _, e := range m.sortedLocked() {
		if e.cfg.Disabled {
			continue
		}
		if !e.running && e.session == nil {
			m.startLocked(e)
		}
		if e.first != nil {
			waits = append(waits, e.first)
		}
	}
	m.mu.Unlock()
	for _, w := range waits {
		select {
		case <-w:
		case <-ctx.Done():
			return m.Servers(), ctx.Err()
		}
	}
	return m.Servers(), nil
}

// Add configures another server and connects it; it returns its state
// after the first attempt (or when ctx ends).
func (m *Manager) Add(ctx context.Context, name string, cfg *ServerConfig) (ServerState, error) {
	if cfg == nil {
		return ServerState{}, fmt.Errorf("%w: server %q has no configuration", ErrConfig, name)
	}
	c := cfg.clone()
	if err := c.Validate(name); err != nil {
		return ServerState{}, err
	}
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		return ServerState{}, ErrClosed
	}
	if m.entries[name] != nil {
		m.mu.Unlock()
		return ServerState{}, fmt.Errorf("%w: %q", ErrServerExists, name)
	}
	e := m.newEntry(name, c)
	m.entries[name] = e
	st := e.stateLocked()
	if c.Disabled {
		m.mu.Unlock()
		m.report(&st)
		return st, nil
	}
	m.startLocked(e)
	first := e.first
	m.mu.Unlock()
	m.report(&st)
	select {
	case <-first:
	case <-ctx.Done():
		s, _ := m.Server(name)
		return s, ctx.Err()
	}
	s, _ := m.Server(name)
	return s, nil
}

// Remove disconnects a server and forgets it.
func (m *Manager) Remove(ctx context.Context, name string) error {
	m.mu.Lock()
	e := m.entries[name]
	if e == nil {
		m.mu.Unlock()
		return fmt.Errorf("%w: %q", ErrUnknownServer, name)
	}
	delete(m.entries, name)
	m.mu.Unlock()
	had := m.shut(e)
	if had {
		m.changed(name, ChangeServers)
	}
	return nil
}

// Reconnect starts a server's connection loop again (after it failed, or
// to force a new session) and returns its state after the first attempt.
func (m *Manager) Reconnect(ctx context.Context, name string) (ServerState, error) {
	m.mu.Lock()
	e := m.entries[name]
	if e == nil {
		m.mu.Unlock()
		return ServerState{}, fmt.Errorf("%w: %q", ErrUnknownServer, name)
	}
	if m.closed {
		m.mu.Unlock()
		return ServerState{}, ErrClosed
	}
	if e.stop != nil {
		e.stop()
	}
	sess := m.dropLocked(e)
	m.startLocked(e)
	first := e.first
	m.mu.Unlock()
	if sess != nil {
		_ = sess.Close()
		m.changed(name, ChangeServers)
	}
	select {
	case <-first:
	case <-ctx.Done():
		s, _ := m.Server(name)
		return s, ctx.Err()
	}
	s, _ := m.Server(name)
	return s, nil
}

// Close disconnects every server (stdio servers are ended) and waits for
// the manager's goroutines. The manager cannot be used afterwards.
func (m *Manager) Close() error {
	m.mu.Lock()
	m.closed = true
	all := m.sortedLocked()
	m.mu.Unlock()
	var wg sync.WaitGroup
	for _, e := range all {
		wg.Add(1)
		go func() {
			defer wg.Done()
			m.shut(e)
		}()
	}
	wg.Wait()
	m.wg.Wait()
	return nil
}

// shut stops e's loop, closes its session and marks it closed; it reports
// whether e had contributed to the aggregate.
func (m *Manager) shut(e *entry) bool {
	m.mu.Lock()
	if e.stop != nil {
		e.stop()
	}
	had := e.session != nil
	sess := m.dropLocked(e)
	st := m.setStatusLocked(e, StatusClosed, nil)
	m.mu.Unlock()
	if sess != nil {
		_ = sess.Close()
	}
	m.report(st)
	return had
}

// dropLocked detaches e's session and lists; the caller closes the
// returned session after unlocking.
func (m *Manager) dropLocked(e *entry) *core.Session {
	s := e.session
	e.session = nil
	if s != nil {
		e.lists = lists{}
		m.agg = nil
	}
	return s
}

// startLocked starts e's connection loop.
func (m *Manager) startLocked(e *entry) {
	ctx, cancel := context.WithCancel(context.Background())
	e.stopCtx, e.stop = ctx, cancel
	e.running = true
	first := make(chan struct{})
	e.first = first
	m.wg.Add(1)
	go m.loop(e, ctx, first)
}

// loop makes e's connection attempts with exponential backoff, at most
// Reconnect.Attempts of them, then marks it failed.
func (m *Manager) loop(e *entry, ctx context.Context, first chan struct{}) {
	defer m.wg.Done()
	var once sync.Once
	settle := func() { once.Do(func() { close(first) }) }
	defer settle()
	defer func() {
		m.mu.Lock()
		if e.stopCtx == ctx {
			e.running = false
		}
		m.mu.Unlock()
	}()
	r := m.reconnect
	for attempt := 0; ; attempt++ {
		if ctx.Err() != nil {
			return
		}
		m.mu.Lock()
		st := StatusReconnecting
		if attempt == 0 && !e.everConnected {
			st = StatusConnecting
		}
		rep := m.setStatusLocked(e, st, e.err)
		m.mu.Unlock()
		m.report(rep)
		err := m.open(ctx, e)
		if err == nil {
			return
		}
		if ctx.Err() != nil {
			return
		}
		m.mu.Lock()
		if attempt+1 >= r.Attempts {
			rep = m.setStatusLocked(e, StatusFailed, err)
			m.mu.Unlock()
			m.report(rep)
			return
		}
		rep = m.setStatusLocked(e, StatusReconnecting, err)
		m.mu.Unlock()
		m.report(rep)
		settle()
		d := r.Delay << min(attempt, 30)
		if d > r.MaxDelay || d <= 0 {
			d = r.MaxDelay
		}
		d = time.Duration(float64(d) * (0.8 + 0.4*rand.Float64()))
		t := time.NewTimer(d)
		select {
		case <-ctx.Done():
			t.Stop()
			return
		case <-t.C:
		}
	}
}

// transport makes e's transport.
func (m *Manager) transport(e *entry) (core.Transport, error) {
	if m.opts.NewTransport != nil {
		return m.opts.NewTransport(e.name, e.cfg.clone())
	}
	c := e.cfg
	switch c.Transport {
	case TransportStdio:
		env := make([]string, 0, len(c.Env))
		for k, v := range c.Env {
			env = append(env, k+"="+v)
		}
		slices.Sort(env)
		o := &stdio.Options{Args: c.Args, Env: env, Dir: c.Cwd}
		if m.opts.Stderr != nil {
			o.Stderr = &lineWriter{emit: func(line string) { m.opts.Stderr(e.name, line) }}
		}
		return stdio.New(c.Command, o)
	case TransportWebSocket:
		return ws.New(c.URL, &ws.Options{Header: c.Headers})
	default:
		return fetch.New(c.URL, &fetch.Options{Mode: c.Transport, Header: c.Headers, HTTP: m.opts.HTTP})
	}
}

// eraVersions narrows the protocol versions to cfg's era.
func (m *Manager) eraVersions(era string) []string {
	var base []string
	if co := m.opts.ClientOptions; co != nil && len(co.ProtocolVersions) > 0 {
		base = co.ProtocolVersions
	} else {
		base = core.SupportedVersions()
	}
	switch era {
	case "modern":
		return slices.DeleteFunc(slices.Clone(base), func(v string) bool { return !core.IsModernVersion(v) })
	case "legacy":
		return slices.DeleteFunc(slices.Clone(base), core.IsModernVersion)
	}
	return nil
}

// open makes one connection attempt: a session, its lists fetched; e is
// connected afterwards, or the error says why not.
func (m *Manager) open(ctx context.Context, e *entry) error {
	tr, err := m.transport(e)
	if err != nil {
		return err
	}
	var co *core.ConnectOptions
	if v := m.eraVersions(e.cfg.Era); v != nil {
		co = &core.ConnectOptions{ProtocolVersions: v}
	}
	sess, err := e.client.Connect(ctx, tr, co)
	if err != nil {
		return err
	}
	m.mu.Lock()
	e.opening, e.pending = sess, map[ChangeKind]bool{}
	m.mu.Unlock()
	l, err := fetchLists(ctx, sess)
	if err != nil {
		m.mu.Lock()
		e.opening, e.pending = nil, nil
		m.mu.Unlock()
		_ = sess.Close()
		return err
	}
	m.mu.Lock()
	if ctx.Err() != nil || m.entries[e.name] != e {
		e.opening, e.pending = nil, nil
		m.mu.Unlock()
		_ = sess.Close()
		return ErrClosed
	}
	e.session, e.info, e.lists, e.everConnected = sess, sess.ServerInfo(), l, true
	e.stdio, _ = tr.(*stdio.Transport)
	e.running = false // the loop ends with this attempt: a loss may start the next
	m.agg = nil
	rep := m.setStatusLocked(e, StatusConnected, nil)
	pending := e.pending
	e.opening, e.pending = nil, nil
	m.wg.Add(1)
	m.mu.Unlock()
	m.report(rep)
	m.changed(e.name, ChangeServers)
	go m.watch(e, ctx, sess) // after the events: a loss is reported after the connection
	// a list that changed while the first lists were fetched is fetched again
	for _, kind := range []ChangeKind{ChangeTools, ChangeResources, ChangePrompts} {
		if pending[kind] {
			m.refresh(e, sess, kind)
		}
	}
	return nil
}

// fetchLists fetches every list the server offers. A list the server
// refuses (a JSON-RPC error) is empty; anything else fails the attempt.
func fetchLists(ctx context.Context, s *core.Session) (lists, error) {
	caps := s.ServerCapabilities()
	var l lists
	var err error
	soft := func(e error) error {
		var rpc *core.RPCError
		if errors.As(e, &rpc) {
			return nil
		}
		return e
	}
	if caps != nil && caps.Tools != nil {
		if l.tools, err = s.AllTools(ctx); soft(err) != nil {
			return l, err
		}
	}
	if caps != nil && caps.Resources != nil {
		if l.resources, err = s.AllResources(ctx); soft(err) != nil {
			return l, err
		}
		if l.templates, err = s.AllResourceTemplates(ctx); soft(err) != nil {
			return l, err
		}
	}
	if caps != nil && caps.Prompts != nil {
		if l.prompts, err = s.AllPrompts(ctx); soft(err) != nil {
			return l, err
		}
	}
	return l, nil
}

// watch follows a connected session: its end, or a failed health check,
// starts e's reconnection.
func (m *Manager) watch(e *entry, ctx context.Context, sess *core.Session) {
	defer m.wg.Done()
	var tick <-chan time.Time
	if d := m.opts.HealthCheck; d > 0 {
		t := time.NewTicker(d)
		defer t.Stop()
		tick = t.C
	}
	for {
		select {
		case <-ctx.Done():
			return
		case <-sess.Done():
			err := sess.Err()
			if err == nil {
				err = fmt.Errorf("%w: the server ended the session", core.ErrClosed)
			}
			m.lost(e, sess, err)
			return
		case <-tick:
			pctx, cancel := context.WithTimeout(ctx, m.opts.HealthCheck)
			err := sess.Ping(pctx)
			cancel()
			if err != nil && ctx.Err() == nil && !isRPC(err) {
				m.lost(e, sess, err)
				return
			}
		}
	}
}

func isRPC(err error) bool {
	var rpc *core.RPCError
	return errors.As(err, &rpc)
}

// isLost reports whether err means the connection is gone (not that one
// request failed).
func isLost(err error) bool {
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return false // the caller gave up
	}
	var (
		ce *ws.CloseError
		oe *net.OpError
	)
	return errors.Is(err, core.ErrClosed) || errors.Is(err, fetch.ErrNetwork) || errors.As(err, &oe) ||
		errors.Is(err, ws.ErrConnectionLost) || errors.As(err, &ce) || errors.Is(err, stdio.ErrProcessExited)
}

// lost takes a server whose connection broke back to reconnecting.
func (m *Manager) lost(e *entry, sess *core.Session, err error) {
	m.mu.Lock()
	if e.session != sess || m.entries[e.name] != e || m.closed {
		m.mu.Unlock()
		return
	}
	m.dropLocked(e)
	rep := m.setStatusLocked(e, StatusReconnecting, err)
	if !e.running {
		e.stop() // the old watcher and refreshes
		m.startLocked(e)
	}
	m.mu.Unlock()
	_ = sess.Close()
	m.report(rep)
	m.changed(e.name, ChangeServers)
}

// clientOptions are the core options of e's client: the user's, with the
// manager's handlers carrying e's name.
func (m *Manager) clientOptions(e *entry) *core.ClientOptions {
	var o core.ClientOptions
	if m.opts.ClientOptions != nil {
		o = *m.opts.ClientOptions
	}
	name := e.name
	if h := m.opts.SamplingHandler; h != nil {
		o.SamplingHandler = func(ctx context.Context, r *core.CreateMessageRequest) (*core.CreateMessageResult, error) {
			return h(ctx, name, r)
		}
	}
	if h := m.opts.ElicitationHandler; h != nil {
		o.ElicitationHandler = func(ctx context.Context, r *core.ElicitRequest) (*core.ElicitResult, error) {
			return h(ctx, name, r)
		}
	}
	if h := m.opts.RootsHandler; h != nil {
		o.RootsHandler = func(ctx context.Context, r *core.ListRootsRequest) (*core.ListRootsResult, error) {
			return h(ctx, name, r)
		}
	} else if m.opts.Roots != nil {
		o.Roots = m.opts.Roots
	}
	if h := m.opts.LoggingHandler; h != nil {
		user := o.LoggingHandler
		o.LoggingHandler = func(ctx context.Context, s *core.Session, p *core.LoggingMessageParams) {
			if user != nil {
				user(ctx, s, p)
			}
			h(ctx, name, p)
		}
	}
	if h := m.opts.ProgressHandler; h != nil {
		user := o.ProgressHandler
		o.ProgressHandler = func(ctx context.Context, s *core.Session, p *core.ProgressParams) {
			if user != nil {
				user(ctx, s, p)
			}
			h(ctx, name, p)
		}
	}
	refresh := func(kind ChangeKind, user func(context.Context, *core.Session)) func(context.Context, *core.Session) {
		return func(ctx context.Context, s *core.Session) {
			if user != nil {
				user(ctx, s)
			}
			m.refresh(e, s, kind)
		}
	}
	o.ToolListChangedHandler = refresh(ChangeTools, o.ToolListChangedHandler)
	o.PromptListChangedHandler = refresh(ChangePrompts, o.PromptListChangedHandler)
	o.ResourceListChangedHandler = refresh(ChangeResources, o.ResourceListChangedHandler)
	return &o
}

// refresh refetches one list of e after its list-changed notification, on
// a goroutine of its own (not the session's notification goroutine); a
// notification arriving meanwhile causes one more fetch. OnChange is
// called when the list differs.
func (m *Manager) refresh(e *entry, sess *core.Session, kind ChangeKind) {
	m.mu.Lock()
	if e.opening == sess && e.pending != nil {
		e.pending[kind] = true // still connecting: once connected
		m.mu.Unlock()
		return
	}
	if e.session != sess || m.closed {
		m.mu.Unlock()
		return
	}
	r := e.refreshing[kind]
	if r == nil {
		r = &refreshState{}
		e.refreshing[kind] = r
	}
	if r.running {
		r.again = true
		m.mu.Unlock()
		return
	}
	r.running = true
	ctx := e.stopCtx
	m.wg.Add(1)
	m.mu.Unlock()
	go func() {
		defer m.wg.Done()
		for {
			m.mu.Lock()
			r.again = false
			m.mu.Unlock()
			changed, err := m.refetch(ctx, e, sess, kind)
			if err != nil && isLost(err) {
				m.lost(e, sess, err)
			}
			if changed {
				m.changed(e.name, kind)
			}
			m.mu.Lock()
			if !r.again || err != nil || e.session != sess {
				r.running = false
				m.mu.Unlock()
				return
			}
			m.mu.Unlock()
		}
	}()
}

// refetch fetches one list and stores it; it reports whether it changed.
func (m *Manager) refetch(ctx context.Context, e *entry, sess *core.Session, kind ChangeKind) (bool, error) {
	var (
		tools     []*core.Tool
		prompts   []*core.Prompt
		resources []*core.Resource
		templates []*core.ResourceTemplate
		err       error
	)
	switch kind {
	case ChangeTools:
		tools, err = sess.AllTools(ctx)
	case ChangePrompts:
		prompts, err = sess.AllPrompts(ctx)
	case ChangeResources:
		resources, err = sess.AllResources(ctx)
		if err == nil {
			templates, err = sess.AllResourceTemplates(ctx)
			if isRPC(err) {
				templates, err = nil, nil
			}
		}
	}
	if err != nil {
		return false, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if e.session != sess {
		return false, nil
	}
	var same bool
	switch kind {
	case ChangeTools:
		same = equalJSON(e.lists.tools, tools)
		e.lists.tools = tools
	case ChangePrompts:
		same = equalJSON(e.lists.prompts, prompts)
		e.lists.prompts = prompts
	case ChangeResources:
		same = equalJSON(e.lists.resources, resources) && equalJSON(e.lists.templates, templates)
		e.lists.resources, e.lists.templates = resources, templates
	}
	if !same {
		m.agg = nil
	}
	return !same, nil
}

// ---------------------------------------------------------------- the aggregate

type aggregate struct {
	tools     []Tool
	prompts   []Prompt
	resources []Resource
	templates []ResourceTemplate
	toolIdx   map[string]int
	promptIdx map[string]int
}

// aggregateLocked returns the aggregate, rebuilt if stale: connected
// servers in name order (the order that decides collisions, whatever the
// order they connected in), each one's items in the order it lists them.
func (m *Manager) aggregateLocked() *aggregate {
	if m.agg != nil {
		return m.agg
	}
	a := &aggregate{toolIdx: map[string]int{}, promptIdx: map[string]int{}}
	toolNames, promptNames := map[string]bool{}, map[string]bool{}
	for _, e := range m.sortedLocked() {
		if e.status != StatusConnected || e.session == nil {
			continue
		}
		for _, t := range e.lists.tools {
			if t == nil || (e.cfg.AllowTools != nil && !slices.Contains(e.cfg.AllowTools, t.Name)) || slices.Contains(e.cfg.DenyTools, t.Name) {
				continue
			}
			name := uniqueName(NamespacedName(e.name, t.Name, m.opts.Separator), toolNames)
			toolNames[name] = true
			mt := Tool{Tool: *t, Server: e.name, ToolName: t.Name}
			mt.Name = name
			a.toolIdx[name] = len(a.tools)
			a.tools = append(a.tools, mt)
		}
		for _, p := range e.lists.prompts {
			if p == nil {
				continue
			}
			name := uniqueName(NamespacedName(e.name, p.Name, m.opts.Separator), promptNames)
			promptNames[name] = true
			mp := Prompt{Prompt: *p, Server: e.name, PromptName: p.Name}
			mp.Name = name
			a.promptIdx[name] = len(a.prompts)
			a.prompts = append(a.prompts, mp)
		}
		for _, r := range e.lists.resources {
			if r != nil {
				a.resources = append(a.resources, Resource{Resource: *r, Server: e.name})
			}
		}
		for _, r := range e.lists.templates {
			if r != nil {
				a.templates = append(a.templates, ResourceTemplate{ResourceTemplate: *r, Server: e.name})
			}
		}
	}
	m.agg = a
	return a
}

// Tools returns the tools of every connected server (filters applied),
// namespaced, servers in name order.
func (m *Manager) Tools() []Tool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return slices.Clone(m.aggregateLocked().tools)
}

// Tool returns the aggregate's tool of a namespaced name.
func (m *Manager) Tool(name string) (Tool, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	a := m.aggregateLocked()
	i, ok := a.toolIdx[name]
	if !ok {
		return Tool{}, false
	}
	return a.tools[i], true
}

// Prompts returns the prompts of every connected server, namespaced.
func (m *Manager) Prompts() []Prompt {
	m.mu.Lock()
	defer m.mu.Unlock()
	return slices.Clone(m.aggregateLocked().prompts)
}

// Resources returns the resources of every connected server.
func (m *Manager) Resources() []Resource {
	m.mu.Lock()
	defer m.mu.Unlock()
	return slices.Clone(m.aggregateLocked().resources)
}

// ResourceTemplates returns the resource templates of every connected
// server.
func (m *Manager) ResourceTemplates() []ResourceTemplate {
	m.mu.Lock()
	defer m.mu.Unlock()
	return slices.Clone(m.aggregateLocked().templates)
}

// ---------------------------------------------------------------- calls

// liveLocked returns the session of a connected server.
func (m *Manager) liveLocked(server string) (*entry, *core.Session, error) {
	e := m.entries[server]
	if e == nil {
		return nil, nil, fmt.Errorf("%w: %q", ErrUnknownServer, server)
	}
	if e.status != StatusConnected || e.session == nil {
		return nil, nil, &NotConnectedError{Server: server, Status: e.status, Cause: e.err}
	}
	return e, e.session, nil
}

// unknownLocked is the error for a name the aggregate lacks: a
// NotConnectedError when the name is in the namespace of a server that is
// not connected (its tools left the aggregate), else notFound.
func (m *Manager) unknownLocked(name string, notFound error) error {
	for _, e := range m.sortedLocked() {
		if e.status != StatusConnected && strings.HasPrefix(name, sanitize(e.name)+m.opts.Separator) {
			return &NotConnectedError{Server: e.name, Status: e.status, Cause: e.err}
		}
	}
	return fmt.Errorf("%w: %q", notFound, name)
}

// target finds a namespaced name in the aggregate (pick returns the
// owning server's name, and whether the name is there) and that server's
// live session: an unknown name is notFound, or a NotConnectedError when
// the name belongs to a server that is down.
func (m *Manager) target(name string, notFound error, pick func(*aggregate) (server string, ok bool)) (*entry, *core.Session, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	server, ok := pick(m.aggregateLocked())
	if !ok {
		return nil, nil, m.unknownLocked(name, notFound)
	}
	return m.liveLocked(server)
}

// routed runs a call on a server's session; a broken connection starts
// the server's reconnection.
func routed[T any](m *Manager, e *entry, sess *core.Session, call func(*core.Session) (T, error)) (T, error) {
	r, err := call(sess)
	if err != nil && isLost(err) {
		m.lost(e, sess, err)
	}
	return r, err
}

// CallTool calls a tool by its namespaced name on the server that owns it
// (params.Name is replaced by the server's own name on the wire). An
// unknown or filtered name is ErrUnknownTool; a server that is not
// connected is a NotConnectedError.
func (m *Manager) CallTool(ctx context.Context, params *core.CallToolParams, opts *core.CallOptions) (*core.CallToolResult, error) {
	if params == nil {
		return nil, fmt.Errorf("%w: no params", ErrUnknownTool)
	}
	var t Tool
	e, sess, err := m.target(params.Name, ErrUnknownTool, func(a *aggregate) (string, bool) {
		i, ok := a.toolIdx[params.Name]
		if ok {
			t = a.tools[i]
		}
		return t.Server, ok
	})
	if err != nil {
		return nil, err
	}
	p := *params
	p.Name = t.ToolName
	return routed(m, e, sess, func(s *core.Session) (*core.CallToolResult, error) { return s.CallTool(ctx, &p, opts) })
}

// GetPrompt gets a prompt by its namespaced name from its server.
func (m *Manager) GetPrompt(ctx context.Context, params *core.GetPromptParams, opts *core.CallOptions) (*core.GetPromptResult, error) {
	if params == nil {
		return nil, fmt.Errorf("%w: no params", ErrUnknownPrompt)
	}
	var pr Prompt
	e, sess, err := m.target(params.Name, ErrUnknownPrompt, func(a *aggregate) (string, bool) {
		i, ok := a.promptIdx[params.Name]
		if ok {
			pr = a.prompts[i]
		}
		return pr.Server, ok
	})
	if err != nil {
		return nil, err
	}
	p := *params
	p.Name = pr.PromptName
	return routed(m, e, sess, func(s *core.Session) (*core.GetPromptResult, error) { return s.GetPrompt(ctx, &p, opts) })
}

// ReadResource reads a resource from server, or (server "") from the
// first server by name that lists its URI.
func (m *Manager) ReadResource(ctx context.Context, server string, params *core.ReadResourceParams, opts *core.CallOptions) (*core.ReadResourceResult, error) {
	if params == nil {
		return nil, fmt.Errorf("%w: no params", ErrUnknownResource)
	}
	m.mu.Lock()
	if server == "" {
		for _, r := range m.aggregateLocked().resources {
			if r.URI == params.URI {
				server = r.Server
				break
			}
		}
		if server == "" {
			m.mu.Unlock()
			return nil, fmt.Errorf("%w: %s (give the server's name)", ErrUnknownResource, params.URI)
		}
	}
	e, sess, err := m.liveLocked(server)
	m.mu.Unlock()
	if err != nil {
		return nil, err
	}
	return routed(m, e, sess, func(s *core.Session) (*core.ReadResourceResult, error) { return s.ReadResource(ctx, params, opts) })
}
