package core

import (
	"context"
	"slices"
	"sync"
	"time"

	"github.com/mcpwasm/mcpwasm/jsonrpc"
)

// Defaults of ClientOptions.
const (
	DefaultRequestTimeout = 60 * time.Second
	DefaultMaxInputRounds = 16
	DefaultProbeTimeout   = 15 * time.Second
	// DefaultMaxQueuedNotifications bounds the notification handlers
	// waiting to run.
	DefaultMaxQueuedNotifications = 4096
	// DefaultMaxServerRequests bounds the legacy server→client requests
	// handled at once.
	DefaultMaxServerRequests = 32
)

// Direction says which way a message travelled, for ClientOptions.OnMessage.
type Direction int

// Message directions.
const (
	Outgoing Direction = iota
	Incoming
)

func (d Direction) String() string {
	if d == Incoming {
		return "in"
	}
	return "out"
}

// CreateMessageRequest is a server's sampling request, delivered to
// ClientOptions.SamplingHandler whether it came as a legacy server→client
// request or as an entry of a modern input_required result.
type CreateMessageRequest struct {
	Session *Session
	Params  *CreateMessageParams
}

// ElicitRequest is a server's elicitation request (form or URL mode).
type ElicitRequest struct {
	Session *Session
	Params  *ElicitParams
}

// ListRootsRequest is a server's roots request.
type ListRootsRequest struct {
	Session *Session
	Params  *ListRootsParams
}

// ClientOptions configure a Client. The zero value is usable; every field
// documents its default. Handlers are called from goroutines of the session
// and may be called concurrently with each other; a handler must return
// when its context is done.
type ClientOptions struct {
	// ProtocolVersions lists the protocol versions the client accepts, in
	// order of preference. Default: [SupportedVersions] (2026-07-28 first,
	// then the legacy revisions). A list with only legacy versions never
	// probes for a modern server; one with only modern versions never falls
	// back.
	ProtocolVersions []string

	// Capabilities are declared in addition to those derived from the
	// handlers below (sampling, elicitation, roots).
	Capabilities *ClientCapabilities

	// SamplingHandler answers sampling/createMessage. Setting it declares
	// the sampling capability.
	SamplingHandler func(context.Context, *CreateMessageRequest) (*CreateMessageResult, error)
	// SamplingTools declares sampling.tools: the handler accepts requests
	// with tools and toolChoice.
	SamplingTools bool

	// ElicitationHandler answers elicitation/create. Setting it declares the
	// elicitation capability for the modes in ElicitationModes.
	ElicitationHandler func(context.Context, *ElicitRequest) (*ElicitResult, error)
	// ElicitationModes are the declared modes. Default: ["form"]; add "url"
	// when the handler can send the user to a URL.
	ElicitationModes []string
	// NoElicitationDefaults disables filling in schema defaults for fields
	// an accepted form elicitation left out (SEP-1034). Default: defaults
	// are applied, and form.applyDefaults is declared.
	NoElicitationDefaults bool

	// RootsHandler answers roots/list. If nil, the roots set with
	// Client.SetRoots (initially Roots) are returned. Roots are declared
	// when RootsHandler or Roots is non-nil.
	RootsHandler func(context.Context, *ListRootsRequest) (*ListRootsResult, error)
	// Roots are the initial roots.
	Roots []*Root

	// LoggingHandler receives notifications/message.
	LoggingHandler func(context.Context, *Session, *LoggingMessageParams)
	// LogLevel is the initial minimum log level. On legacy servers it is set
	// with logging/setLevel after connecting; on modern servers it is sent
	// with every request. Default: none (modern servers send no logs;
	// legacy servers use their own default).
	LogLevel string
	// ProgressHandler receives every notifications/progress, in addition to
	// the per-call CallOptions.OnProgress.
	ProgressHandler func(context.Context, *Session, *ProgressParams)
	// ToolListChangedHandler, PromptListChangedHandler and
	// ResourceListChangedHandler receive list-changed notifications. On
	// modern servers setting one opens the session's own (managed)
	// subscriptions/listen stream for it when the server advertises
	// listChanged; the same stream carries the resource updates asked for
	// with Session.Subscribe. It is re-opened with backoff when it ends and
	// replaced (new stream acknowledged first) when its filter changes. A
	// change the server also sends on a stream the application opened with
	// Session.Listen calls these handlers once, for the managed copy.
	ToolListChangedHandler     func(context.Context, *Session)
	PromptListChangedHandler   func(context.Context, *Session)
	ResourceListChangedHandler func(context.Context, *Session)
	// ResourceUpdatedHandler receives notifications/resources/updated for
	// resources subscribed with Session.Subscribe.
	ResourceUpdatedHandler func(context.Context, *Session, *ResourceUpdatedParams)
	// ElicitationCompleteHandler receives the legacy
	// notifications/elicitation/complete.
	ElicitationCompleteHandler func(context.Context, *Session, *ElicitationCompleteParams)
	// OnMessage sees every message sent and received (a tee for logging and
	// debugging). It must not retain or modify msg. It may be called from
	// several goroutines at once (each request's stream is read on its
	// own), in order within one stream.
	OnMessage func(s *Session, dir Direction, msg jsonrpc.Message)
	// Pattern compiles the ECMA-262 regular expressions (pattern,
	// patternProperties) of the output schemas and elicitation schemas the
	// client validates against, into a predicate that reports whether a
	// string contains a match. It must be safe for concurrent use and should
	// run in linear time (the patterns come from the server). A pattern it
	// refuses is skipped (it accepts every string). Default: Go's regexp
	// (RE2) natively; under GOOS=js a linear-time engine of the package's
	// own that refuses Unicode property escapes (\p{…}) — mcpwasm's
	// JavaScript module passes one that answers them from the JavaScript
	// engine's tables.
	Pattern func(src string) (match func(s string) bool, err error)
	// OnWarning receives non-fatal problems: a tool dropped for an invalid
	// x-mcp-header annotation, a malformed message from the server, a
	// subscription that could not be re-opened.
	OnWarning func(s *Session, err error)

	// RequestTimeout is the default per-request timeout. Default
	// DefaultRequestTimeout; negative means none.
	RequestTimeout time.Duration
	// MaxTotalTimeout is the default hard limit of a request even when
	// progress resets its timeout. Default: none.
	MaxTotalTimeout time.Duration
	// ProbeTimeout bounds the modern-era probe when connecting over
	// transports where a legacy server may ignore the probe (anything but
	// HTTP, where the status answers it). Default DefaultProbeTimeout.
	ProbeTimeout time.Duration
	// MaxInputRounds bounds the input_required rounds of one call. Default
	// DefaultMaxInputRounds.
	MaxInputRounds int
	// MaxQueuedNotifications bounds the notification handlers waiting to
	// run (handlers run one at a time, in order, so a slow one makes them
	// wait). Beyond it, and beyond 64 MiB of queued notification params,
	// notifications are dropped and OnWarning is told (an error wrapping
	// ErrNotificationsDropped when dropping starts, and one with the count
	// when the queue has drained). Default DefaultMaxQueuedNotifications.
	MaxQueuedNotifications int
	// MaxServerRequests bounds the legacy server→client requests
	// (sampling, elicitation, roots, ping) handled at once; further ones are
	// answered with an error at once. A modern input_required result that
	// asks for more inputs than this at once fails the call with
	// ErrInvalidResult. Default DefaultMaxServerRequests.
	MaxServerRequests int
	// Retry, when set, repeats requests that failed for a transient reason
	// (HTTP 429, 502, 503, 504) where repeating them is safe; see
	// RetryPolicy. Default: nil, no retries.
	Retry *RetryPolicy
	// KeepAlive, when positive, pings the server at this interval while
	// the session is open (ping on legacy servers, server/discover on
	// modern ones); a failed ping is reported to OnWarning with an error
	// wrapping ErrKeepAlive. Default: 0, no pings.
	KeepAlive time.Duration
	// DisableCache turns off the ttlMs result cache.
	DisableCache bool
	// DisableOutputValidation turns off validation of structuredContent
	// against tool output schemas.
	DisableOutputValidation bool

	// Tasks declares the 2026-07-28 tasks extension
	// (io.modelcontextprotocol/tasks) with every modern request, letting
	// the server answer any tools/call with a task. Default off: the
	// extension is declared only on the requests of the tasks API
	// (Session.CallToolAsTask, GetTask, Task methods) and on a CallTool
	// retried after the server said it requires it. 2025-11-25 servers
	// need no client capability to run a tool as a task.
	Tasks bool
}

// Client is an MCP client: an identity, handlers and options from which
// sessions are made with Connect. A Client is safe for concurrent use and
// may hold many sessions (to one server or several).
type Client struct {
	impl Implementation
	opts ClientOptions
	// clock times requests and retries: realClock, or a test's fake clock
	// set before Connect.
	clock clock

	mu       sync.Mutex
	eras     map[string]Era // era verdict per EraKey (origin)
	roots    []*Root
	sessions map[*Session]struct{}
}

// NewClient returns a client with the given identity. impl must not be nil;
// opts may be nil.
func NewClient(impl *Implementation, opts *ClientOptions) *Client {
	if impl == nil {
		panic("core: NewClient with nil Implementation")
	}
	c := &Client{impl: *impl, clock: realClock{}, eras: map[string]Era{}, sessions: map[*Session]struct{}{}}
	if opts != nil {
		c.opts = *opts
	}
	if len(c.opts.ProtocolVersions) == 0 {
		c.opts.ProtocolVersions = SupportedVersions()
	} else {
		// The client keeps its own copy: a caller that reuses its slice
		// does not change a running client.
		c.opts.ProtocolVersions = slices.Clone(c.opts.ProtocolVersions)
	}
	if c.opts.RequestTimeout == 0 {
		c.opts.RequestTimeout = DefaultRequestTimeout
	}
	if c.opts.ProbeTimeout <= 0 {
		c.opts.ProbeTimeout = DefaultProbeTimeout
	}
	if c.opts.MaxQueuedNotifications <= 0 {
		c.opts.MaxQueuedNotifications = DefaultMaxQueuedNotifications
	}
	if c.opts.MaxServerRequests <= 0 {
		c.opts.MaxServerRequests = DefaultMaxServerRequests
	}
	if c.opts.MaxInputRounds <= 0 {
		c.opts.MaxInputRounds = DefaultMaxInputRounds
	}
	if c.opts.Roots != nil {
		c.roots = slices.Clone(c.opts.Roots)
	}
	return c
}

// Options returns a copy of the client's options with the defaults filled
// in.
func (c *Client) Options() ClientOptions {
	o := c.opts
	if o.Retry != nil {
		r := *o.Retry
		o.Retry = &r
	}
	return o
}

// Implementation returns the client's identity.
func (c *Client) Implementation() Implementation { return c.impl }

// Capabilities returns the capabilities the client declares: the explicit
// ones merged with those implied by its handlers.
func (c *Client) Capabilities() *ClientCapabilities {
	caps := &ClientCapabilities{}
	if c.opts.Capabilities != nil {
		*caps = *c.opts.Capabilities
	}
	if c.opts.SamplingHandler != nil && caps.Sampling == nil {
		caps.Sampling = &SamplingCapability{}
		if c.opts.SamplingTools {
			caps.Sampling.Tools = &struct{}{}
		}
	}
	if c.opts.ElicitationHandler != nil && caps.Elicitation == nil {
		caps.Elicitation = &ElicitationCapability{}
		modes := c.opts.ElicitationModes
		if len(modes) == 0 {
			modes = []string{ElicitModeForm}
		}
		for _, m := range modes {
			switch m {
			case ElicitModeForm:
				caps.Elicitation.Form = &FormElicitationCapability{ApplyDefaults: !c.opts.NoElicitationDefaults}
			case ElicitModeURL:
				caps.Elicitation.URL = &struct{}{}
			}
		}
	}
	if (c.opts.RootsHandler != nil || c.opts.Roots != nil) && caps.Roots == nil {
		caps.Roots = &RootsCapability{ListChanged: true}
	}
	return caps
}

// SetRoots replaces the client's roots and tells every connected legacy
// session (notifications/roots/list_changed). Modern servers ask for roots
// on each request that needs them, so nothing is sent to them.
func (c *Client) SetRoots(ctx context.Context, roots []*Root) {
	c.mu.Lock()
	c.roots = slices.Clone(roots)
	if c.roots == nil {
		c.roots = []*Root{}
	}
	sessions := make([]*Session, 0, len(c.sessions))
	for s := range c.sessions {
		sessions = append(sessions, s)
	}
	c.mu.Unlock()
	for _, s := range sessions {
		_ = s.NotifyRootsChanged(ctx)
	}
}

// Roots returns the roots set with SetRoots.
func (c *Client) Roots() []*Root {
	c.mu.Lock()
	v := slices.Clone(c.roots)
	c.mu.Unlock()
	return v
}

func (c *Client) cachedEra(key string) Era {
	if key == "" {
		return EraUnknown
	}
	c.mu.Lock()
	v := c.eras[key]
	c.mu.Unlock()
	return v
}

func (c *Client) setEra(key string, e Era) {
	if key == "" {
		return
	}
	c.mu.Lock()
	if e == EraUnknown {
		delete(c.eras, key)
	} else {
		c.eras[key] = e
	}
	c.mu.Unlock()
}

// ConnectOptions configure one Connect call; nil is allowed.
type ConnectOptions struct {
	// ProtocolVersions overrides ClientOptions.ProtocolVersions for this
	// session.
	ProtocolVersions []string
}

// Connect opens a session: it connects the transport, determines the
// server's era exactly as the 2026-07-28 versioning and transport pages
// prescribe (a modern request first; then initialize), negotiates the
// protocol version and returns the ready session. The era verdict is cached
// per transport EraKey (the HTTP origin). ctx bounds the handshake only.
func (c *Client) Connect(ctx context.Context, t Transport, opts *ConnectOptions) (*Session, error) {
	versions := c.opts.ProtocolVersions
	if opts != nil && len(opts.ProtocolVersions) > 0 {
		versions = opts.ProtocolVersions
	}
	key := ""
	if k, ok := t.(EraKeyer); ok {
		key = k.EraKey()
	}
	s := newSession(c, t, versions, key)
	if err := s.start(ctx); err != nil {
		s.Close()
		return nil, err
	}
	c.mu.Lock()
	c.sessions[s] = struct{}{}
	c.mu.Unlock()
	s.afterConnect(ctx)
	s.startKeepAlive()
	return s, nil
}

func (c *Client) forget(s *Session) {
	c.mu.Lock()
	delete(c.sessions, s)
	c.mu.Unlock()
}

// marshalCapabilities is computed once per session.
func (c *Client) marshalCapabilities() RawMessage {
	caps := c.Capabilities()
	if c.opts.Tasks {
		ext := make(map[string]any, len(caps.Extensions)+1)
		for k, v := range caps.Extensions {
			ext[k] = v
		}
		ext[ExtensionTasks] = struct{}{}
		caps.Extensions = ext
	}
	b, err := marshalClientCaps(caps)
	if err != nil {
		return nil
	}
	return b
}
