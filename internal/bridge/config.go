package bridge

import (
	"math"
	"slices"
	"time"

	"github.com/mcpwasm/mcpwasm/core"
	"github.com/mcpwasm/mcpwasm/internal/errf"
	"github.com/mcpwasm/mcpwasm/internal/jsonscan"
)

// Millis is a duration in whole milliseconds as the schema carries it. It
// decodes from any JSON number; a fraction is rounded up (away from zero for
// positive values), so that a tiny positive timeout never turns into 0,
// which means "none".
type Millis int64

// UnmarshalJSON accepts any finite JSON number.
func (m *Millis) UnmarshalJSON(b []byte) error {
	f, err := jsonscan.Float64(b)
	if err != nil {
		return errf.Errorf("milliseconds must be a number, got %s", b)
	}
	if math.IsNaN(f) || math.IsInf(f, 0) || math.Abs(f) > float64(math.MaxInt64/int64(time.Millisecond)) {
		return errf.Errorf("milliseconds out of range: %s", b)
	}
	*m = Millis(math.Ceil(f))
	return nil
}

// Ms returns a pointer to d in milliseconds (rounded up), for building a
// configuration in Go: a negative d is -1 (none).
func Ms(d time.Duration) *Millis {
	if d < 0 {
		m := Millis(-1)
		return &m
	}
	m := Millis((d + time.Millisecond - 1) / time.Millisecond)
	return &m
}

// Duration returns m as a duration as it is (0 when m is nil), for
// options that are not timeouts (a task's ttl, a poll interval), whose
// owner says what 0 and negative values mean.
func (m *Millis) Duration() time.Duration {
	if m == nil {
		return 0
	}
	return time.Duration(*m) * time.Millisecond
}

// Timeout converts an optional timeout to core's convention: absent is 0
// (the default), 0 or negative is -1 (none).
func Timeout(m *Millis) time.Duration {
	switch {
	case m == nil:
		return 0
	case *m <= 0:
		return -1
	}
	return time.Duration(*m) * time.Millisecond
}

// bounded converts an optional timeout that must keep a bound: absent is 0
// (the default); 0 and negative values are refused.
func bounded(m *Millis, name string) (time.Duration, error) {
	if m == nil {
		return 0, nil
	}
	if *m <= 0 {
		return 0, invalidf("%s must be positive (this wait cannot be unbounded; leave it out for the default)", name)
	}
	return time.Duration(*m) * time.Millisecond, nil
}

// delay converts an optional delay (not a timeout: a pause): absent and 0
// are 0 (the default); a negative delay is refused.
func delay(m *Millis, name string) (time.Duration, error) {
	if m == nil {
		return 0, nil
	}
	if *m < 0 {
		return 0, invalidf("%s must not be negative (0 or absent: the default)", name)
	}
	return time.Duration(*m) * time.Millisecond, nil
}

// ConfigError is a configuration the bridge refuses (kind "invalid").
// Match it with errors.As.
type ConfigError struct{ Msg string }

func (e *ConfigError) Error() string { return "mcpwasm: " + e.Msg }

// invalidf makes a *ConfigError. It is not inlined: it has many call
// sites, and the GOOS=js module's size counts (docs/configuration.md).
//
//go:noinline
func invalidf(format string, args ...any) error {
	return &ConfigError{Msg: errf.Sprintf(format, args...)}
}

// Handlers says which server→client requests the host answers (through
// [Callbacks.Ask]). Setting one declares the matching client capability.
type Handlers struct {
	Sampling    bool `json:"sampling,omitempty"`
	Elicitation bool `json:"elicitation,omitempty"`
	Roots       bool `json:"roots,omitempty"`
}

// ClientConfig configures a client: the JSON of the GOOS=js module's
// newClient and of the WASI ABI's mcpwasm_client_new. Unknown members are
// refused. Durations are [Millis]; see the package doc for absent, 0 and
// negative timeouts.
type ClientConfig struct {
	// ClientInfo is the client's MCP Implementation object; name and
	// version are required.
	ClientInfo *core.Implementation `json:"clientInfo"`
	// ProtocolVersions lists the accepted protocol versions in order of
	// preference (default: every version the client supports, newest
	// first).
	ProtocolVersions []string `json:"protocolVersions,omitempty"`
	// Capabilities are declared in addition to those implied by Handlers
	// and Roots.
	Capabilities *core.ClientCapabilities `json:"capabilities,omitempty"`
	// Handlers lists the server requests the host answers.
	Handlers Handlers `json:"handlers"`
	// SamplingTools declares sampling.tools.
	SamplingTools bool `json:"samplingTools,omitempty"`
	// ElicitationModes are the declared elicitation modes, "form" and
	// "url" (default ["form"]).
	ElicitationModes []string `json:"elicitationModes,omitempty"`
	// NoElicitationDefaults stops the client from filling in schema
	// defaults of accepted form elicitations.
	NoElicitationDefaults bool `json:"noElicitationDefaults,omitempty"`
	// Roots is a static root list answered when Handlers.Roots is false;
	// present (even empty), it declares the roots capability.
	Roots []*core.Root `json:"roots,omitempty"`
	// Notifications names the server notifications the host wants through
	// [Callbacks.Notify] (core.Notification* methods). The list-changed
	// ones also make the client watch those lists (on modern servers, a
	// subscriptions/listen stream).
	Notifications []string `json:"notifications,omitempty"`
	// Messages makes every JSON-RPC message go to [Callbacks.Message]
	// (a protocol trace).
	Messages bool `json:"messages,omitempty"`
	// LogLevel is the initial minimum log level.
	LogLevel string `json:"logLevel,omitempty"`
	// RequestTimeoutMs is the default idle timeout of a request (default
	// 60000; 0 or negative: none).
	RequestTimeoutMs *Millis `json:"requestTimeoutMs,omitempty"`
	// MaxTotalTimeoutMs is the default hard limit of a request even when
	// progress resets its timeout (default and 0 or negative: none).
	MaxTotalTimeoutMs *Millis `json:"maxTotalTimeoutMs,omitempty"`
	// ProbeTimeoutMs bounds the modern-era probe when connecting (default
	// 15000; must be positive).
	ProbeTimeoutMs *Millis `json:"probeTimeoutMs,omitempty"`
	// MaxInputRounds bounds input_required rounds per call (default 16).
	MaxInputRounds int `json:"maxInputRounds,omitempty"`
	// DisableCache turns off the ttlMs result cache.
	DisableCache bool `json:"disableCache,omitempty"`
	// DisableOutputValidation turns off structuredContent validation.
	DisableOutputValidation bool `json:"disableOutputValidation,omitempty"`
	// Retry, when present, retries requests that failed with HTTP 429,
	// 502, 503 or 504 where repeating them is safe (core.RetryPolicy).
	Retry *RetryConfig `json:"retry,omitempty"`
	// KeepAliveMs pings the server at this interval while connected
	// (default, 0 or negative: no pings).
	KeepAliveMs *Millis `json:"keepAliveMs,omitempty"`
	// MaxQueuedNotifications bounds the notifications waiting for their
	// handler (default 4096); more are dropped with a warning.
	MaxQueuedNotifications int `json:"maxQueuedNotifications,omitempty"`
	// MaxServerRequests bounds the server→client requests handled at once
	// (default 32).
	MaxServerRequests int `json:"maxServerRequests,omitempty"`
	// Tasks declares the 2026-07-28 tasks extension with every modern
	// request (core.ClientOptions.Tasks).
	Tasks bool `json:"tasks,omitempty"`
}

// RetryConfig is ClientConfig.Retry; absent members mean the defaults.
type RetryConfig struct {
	// Attempts is the maximum number of attempts, the first included
	// (default 3).
	Attempts int `json:"attempts,omitempty"`
	// DelayMs is the first backoff delay (absent or 0: the default, 500).
	DelayMs *Millis `json:"delayMs,omitempty"`
	// MaxDelayMs caps one delay, Retry-After included (absent or 0: the
	// default, 10000).
	MaxDelayMs *Millis `json:"maxDelayMs,omitempty"`
}

// Transports of ConnectConfig.Transport.
const (
	TransportAuto           = "auto"
	TransportStreamableHTTP = "streamable-http"
	TransportSSE            = "sse"
	TransportWebSocket      = "websocket"
	// TransportPort is a transport written in the host's language that
	// carries whole messages (the GOOS=js module's MessagePort-like
	// objects: stdio servers in Node, for example).
	TransportPort = "port"
)

// Host says which of the optional transports a host has.
type Host struct {
	WebSocket bool
	Port      bool
}

// ConnectConfig configures one connection: the JSON of the GOOS=js
// module's connect and of the WASI ABI's mcpwasm_connect.
type ConnectConfig struct {
	// URL is the MCP endpoint (the GOOS=js module takes it as an argument
	// of its own).
	URL string `json:"url,omitempty"`
	// Transport is "auto" (default: Streamable HTTP, then HTTP+SSE),
	// "streamable-http", "sse", "websocket" (hosts with WebSocket only) or
	// "port" (a transport the host implements; the GOOS=js module only).
	Transport string `json:"transport,omitempty"`
	// ProtocolVersions overrides ClientConfig.ProtocolVersions for this
	// connection.
	ProtocolVersions []string `json:"protocolVersions,omitempty"`
	// Headers are sent with every HTTP request (or the WebSocket
	// handshake) of the session.
	Headers map[string]string `json:"headers,omitempty"`
	// MaxMessageSize bounds one JSON body, SSE event or WebSocket message
	// (default 32 MiB).
	MaxMessageSize int `json:"maxMessageSize,omitempty"`
	// RetryMs is the SSE reconnection delay when the server sent none
	// (absent or 0: the default, 1000).
	RetryMs *Millis `json:"retryMs,omitempty"`
	// MaxReconnects bounds consecutive failed stream resumptions (default
	// 5).
	MaxReconnects int `json:"maxReconnects,omitempty"`
	// Credentials and FetchMode are the JavaScript fetch's credentials and
	// mode (GOOS=js only).
	Credentials string `json:"credentials,omitempty"`
	FetchMode   string `json:"fetchMode,omitempty"`
	// Auth, when set, authorizes the session's HTTP requests with OAuth
	// 2.1 inside the module ([AuthDoer]).
	Auth *AuthConfig `json:"auth,omitempty"`
}

// CheckVersions refuses protocol versions the client does not speak.
func CheckVersions(vs []string, what string) error {
	for _, v := range vs {
		if !slices.Contains(core.SupportedVersions(), v) {
			return invalidf("%s: unsupported protocol version %q (supported: %v)", what, v, core.SupportedVersions())
		}
	}
	return nil
}

// Check validates the configuration, for a host with the optional
// transports h names, without building anything.
func (c *ConnectConfig) Check(h Host) error {
	switch c.Transport {
	case "", TransportAuto, TransportStreamableHTTP, TransportSSE:
	case TransportWebSocket, TransportPort:
		if (c.Transport == TransportWebSocket && !h.WebSocket) || (c.Transport == TransportPort && !h.Port) {
			return invalidf("connect: transport %q is not available in this host", c.Transport)
		}
	default:
		return invalidf("connect: unknown transport %q (auto, streamable-http, sse, websocket, port)", c.Transport)
	}
	if c.Auth != nil && (c.Transport == TransportWebSocket || c.Transport == TransportPort) {
		return invalidf("connect: auth applies to the HTTP transports, not %s", c.Transport)
	}
	if c.MaxMessageSize < 0 || c.MaxReconnects < 0 {
		return invalidf("connect: maxMessageSize and maxReconnects must not be negative")
	}
	if _, err := delay(c.RetryMs, "connect: retryMs"); err != nil {
		return err
	}
	return CheckVersions(c.ProtocolVersions, "connect")
}

// FetchMode returns the transport/fetch mode of Transport.
func (c *ConnectConfig) FetchTransportMode() string {
	if c.Transport == "" {
		return TransportAuto
	}
	return c.Transport
}

// SSERetry returns RetryMs as a duration (0: the default).
func (c *ConnectConfig) SSERetry() time.Duration {
	d, _ := delay(c.RetryMs, "")
	return d
}

// CallOptions are the options of one request: the JSON of the GOOS=js
// module's request options and the options part of the WASI ABI's
// mcpwasm_request.
type CallOptions struct {
	// TimeoutMs is the idle timeout (default: the client's; 0 or negative:
	// none).
	TimeoutMs *Millis `json:"timeoutMs,omitempty"`
	// MaxTotalTimeoutMs is a hard limit (default: the client's; 0 or
	// negative: none).
	MaxTotalTimeoutMs *Millis `json:"maxTotalTimeoutMs,omitempty"`
	// ResetTimeoutOnProgress restarts the timeout on each progress
	// notification.
	ResetTimeoutOnProgress bool `json:"resetTimeoutOnProgress,omitempty"`
	// NoCache skips the ttlMs cache.
	NoCache bool `json:"noCache,omitempty"`
	// Meta members are added to the request's _meta.
	Meta core.Meta `json:"meta,omitempty"`
	// NoTaskWait makes tools/call fail with kind "task" when the server
	// answers with a task, instead of waiting for it.
	NoTaskWait bool `json:"noTaskWait,omitempty"`
	// Progress asks for a progress token; the request's progress
	// notifications go to the host (WASI ABI: "progress" events; the
	// GOOS=js module says so with a flag of its own).
	Progress bool `json:"progress,omitempty"`
}

// Core returns the core options of o (nil: all defaults).
func (o *CallOptions) Core() *core.CallOptions {
	if o == nil {
		return &core.CallOptions{}
	}
	return &core.CallOptions{
		Timeout:                Timeout(o.TimeoutMs),
		MaxTotalTimeout:        Timeout(o.MaxTotalTimeoutMs),
		ResetTimeoutOnProgress: o.ResetTimeoutOnProgress,
		NoCache:                o.NoCache,
		Meta:                   o.Meta,
		NoTaskWait:             o.NoTaskWait,
	}
}

var errNoClientInfo = &ConfigError{Msg: "client options: clientInfo needs a name and a version"}

// check validates c.
func (c *ClientConfig) check() error {
	if c.ClientInfo == nil || c.ClientInfo.Name == "" || c.ClientInfo.Version == "" {
		return errNoClientInfo
	}
	if err := CheckVersions(c.ProtocolVersions, "client options"); err != nil {
		return err
	}
	for _, m := range c.ElicitationModes {
		if m != core.ElicitModeForm && m != core.ElicitModeURL {
			return invalidf("client options: unknown elicitation mode %q (form, url)", m)
		}
	}
	for _, n := range c.Notifications {
		if !slices.Contains(notificationMethods, n) {
			return invalidf("client options: unknown notification %q (known: %v)", n, notificationMethods)
		}
	}
	for _, r := range c.Roots {
		if r == nil || r.URI == "" {
			return invalidf("client options: every root needs a uri")
		}
	}
	if c.MaxInputRounds < 0 || c.MaxQueuedNotifications < 0 || c.MaxServerRequests < 0 {
		return invalidf("client options: maxInputRounds, maxQueuedNotifications and maxServerRequests must not be negative")
	}
	if r := c.Retry; r != nil && r.Attempts < 0 {
		return invalidf("client options: retry.attempts must not be negative")
	}
	return nil
}

// notificationMethods are the notifications a host may ask for.
var notificationMethods = []string{
	core.NotificationMessage, core.NotificationProgress,
	core.NotificationToolsChanged, core.NotificationPromptsChanged, core.NotificationResourcesChanged,
	core.NotificationResourceUpdated, core.NotificationElicitComplete,
}
