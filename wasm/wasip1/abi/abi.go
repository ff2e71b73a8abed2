package abi

import (
	"encoding/json"
	"fmt"
)

// Version is the ABI version returned by the mcpwasm_abi_version export.
// It changes whenever an export, an import or a message changes
// incompatibly; a host must refuse a module whose version it does not know.
//
// Version 2 added OAuth (ConnectRequest.Auth, the "authorize", "auth_store"
// and "log" events, error kind "auth") and the noRedirect member of the
// HTTP request head, which a host must honour. A configuration without
// auth behaves as in version 1.
const Version = 2

// ImportModule is the module name of the host functions the guest imports
// (besides wasi_snapshot_preview1).
const ImportModule = "mcpwasm"

// Names of the guest's exports (besides _initialize, which the host calls
// once before anything else, and the memory export "memory").
const (
	ExportABIVersion   = "mcpwasm_abi_version"
	ExportAlloc        = "mcpwasm_alloc"
	ExportFree         = "mcpwasm_free"
	ExportLastError    = "mcpwasm_last_error"
	ExportClientNew    = "mcpwasm_client_new"
	ExportClientFree   = "mcpwasm_client_free"
	ExportSetRoots     = "mcpwasm_set_roots"
	ExportConnect      = "mcpwasm_connect"
	ExportRequest      = "mcpwasm_request"
	ExportCancel       = "mcpwasm_cancel"
	ExportAnswer       = "mcpwasm_answer"
	ExportClose        = "mcpwasm_close"
	ExportPoll         = "mcpwasm_poll"
	ExportHTTPResponse = "mcpwasm_http_response"
	ExportHTTPBody     = "mcpwasm_http_body"
	ExportHTTPEnd      = "mcpwasm_http_end"
	ExportDebugTrap    = "mcpwasm_debug_trap"
)

// Exports lists every mcpwasm_* export, in the order docs/wasi-abi.md
// documents them.
var Exports = []string{
	ExportABIVersion, ExportAlloc, ExportFree, ExportLastError,
	ExportClientNew, ExportClientFree, ExportSetRoots,
	ExportConnect, ExportRequest, ExportCancel, ExportAnswer, ExportClose,
	ExportPoll, ExportHTTPResponse, ExportHTTPBody, ExportHTTPEnd,
	ExportDebugTrap,
}

// Names of the host functions the guest imports from ImportModule.
const (
	ImportHTTPRequest = "http_request"
	ImportHTTPRead    = "http_read"
	ImportHTTPClose   = "http_close"
)

// Imports lists every host function of ImportModule.
var Imports = []string{ImportHTTPRequest, ImportHTTPRead, ImportHTTPClose}

// Status codes returned (as i32) by exports. Positive values are ids; 0 is
// success without an id; negative values are failures whose message
// mcpwasm_last_error returns.
const (
	StatusOK int32 = 0
	// StatusInvalid: a malformed argument (bad JSON, unknown option, a
	// buffer that was not allocated with mcpwasm_alloc).
	StatusInvalid int32 = -1
	// StatusNotFound: the id is unknown (never issued, already finished or
	// released). For the HTTP deliveries and mcpwasm_answer this is the
	// normal outcome of a race with cancellation and may be ignored.
	StatusNotFound int32 = -2
	// StatusClosed: the client or session is closed.
	StatusClosed int32 = -3
	// StatusInternal: the guest recovered from an internal failure while
	// serving the call; the instance remains usable.
	StatusInternal int32 = -4
)

// StatusText names a status code for messages.
func StatusText(code int32) string {
	switch code {
	case StatusOK:
		return "ok"
	case StatusInvalid:
		return "invalid argument"
	case StatusNotFound:
		return "not found"
	case StatusClosed:
		return "closed"
	case StatusInternal:
		return "internal error"
	}
	if code > 0 {
		return "ok"
	}
	return fmt.Sprintf("status %d", code)
}

// Debug trap kinds of mcpwasm_debug_trap.
const (
	// TrapPanic makes a guest goroutine panic without recovery: the Go
	// runtime exits the instance (proc_exit 2).
	TrapPanic = 1
	// TrapDeadlock blocks the export on a channel nothing will ever send
	// to; with no other goroutine able to run, the Go runtime reports a
	// deadlock and exits the instance.
	TrapDeadlock = 2
)

// Pack combines a guest pointer and length into the u64 returned by
// exports that return a guest-owned buffer: ptr<<32 | len.
func Pack(ptr, n uint32) uint64 { return uint64(ptr)<<32 | uint64(n) }

// Unpack splits a value made by Pack.
func Unpack(v uint64) (ptr, n uint32) { return uint32(v >> 32), uint32(v) }

// Methods of the server→client requests a host answers ("request"
// events).
const (
	MethodCreateMessage = "sampling/createMessage"
	MethodElicit        = "elicitation/create"
	MethodListRoots     = "roots/list"
)

// Handlers says which server→client requests the host answers (through
// "request" events and mcpwasm_answer). Setting one declares the matching
// client capability.
type Handlers struct {
	Sampling    bool `json:"sampling,omitempty"`
	Elicitation bool `json:"elicitation,omitempty"`
	Roots       bool `json:"roots,omitempty"`
}

// ClientConfig is the JSON argument of mcpwasm_client_new. Unknown
// members are rejected. Durations are milliseconds; 0 means the default.
type ClientConfig struct {
	// ClientInfo is the client's MCP Implementation object; "name" and
	// "version" are required.
	ClientInfo json.RawMessage `json:"clientInfo"`
	// ProtocolVersions lists the accepted protocol versions in order of
	// preference (default: every version the client supports, 2026-07-28
	// first).
	ProtocolVersions []string `json:"protocolVersions,omitempty"`
	// Capabilities are declared in addition to those implied by Handlers
	// and Roots (a ClientCapabilities object).
	Capabilities json.RawMessage `json:"capabilities,omitempty"`
	// Handlers lists the requests the host answers.
	Handlers Handlers `json:"handlers"`
	// SamplingTools declares sampling.tools.
	SamplingTools bool `json:"samplingTools,omitempty"`
	// ElicitationModes are the declared elicitation modes (default
	// ["form"]).
	ElicitationModes []string `json:"elicitationModes,omitempty"`
	// NoElicitationDefaults stops the guest from filling in schema
	// defaults of accepted form elicitations.
	NoElicitationDefaults bool `json:"noElicitationDefaults,omitempty"`
	// Roots is a static root list ([{"uri","name"}]) the guest answers
	// roots/list with when Handlers.Roots is false; it declares roots.
	Roots json.RawMessage `json:"roots,omitempty"`
	// LogLevel is the initial minimum log level.
	LogLevel string `json:"logLevel,omitempty"`
	// ListChanged names the list-changed notifications the host wants
	// ("tools", "prompts", "resources"); on modern servers the guest opens
	// a subscriptions/listen stream for them.
	ListChanged []string `json:"listChanged,omitempty"`
	// RequestTimeoutMs is the default request timeout (default 60000;
	// negative: none).
	RequestTimeoutMs int64 `json:"requestTimeoutMs,omitempty"`
	// MaxTotalTimeoutMs is the default hard limit of a request (default
	// none).
	MaxTotalTimeoutMs int64 `json:"maxTotalTimeoutMs,omitempty"`
	// ProbeTimeoutMs bounds the modern-era probe (default 15000).
	ProbeTimeoutMs int64 `json:"probeTimeoutMs,omitempty"`
	// MaxInputRounds bounds input_required rounds per call (default 16).
	MaxInputRounds int `json:"maxInputRounds,omitempty"`
	// DisableCache turns off the ttlMs result cache.
	DisableCache bool `json:"disableCache,omitempty"`
	// DisableOutputValidation turns off structuredContent validation.
	DisableOutputValidation bool `json:"disableOutputValidation,omitempty"`
	// Retry, when present, retries requests that failed with HTTP 429,
	// 502, 503 or 504 where repeating them is safe (see core.RetryPolicy).
	Retry *RetryPolicy `json:"retry,omitempty"`
	// KeepAliveMs, when positive, pings the server at this interval.
	KeepAliveMs int64 `json:"keepAliveMs,omitempty"`
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

// RetryPolicy is ClientConfig.Retry; zero members mean the defaults.
type RetryPolicy struct {
	// Attempts is the maximum number of attempts, the first included
	// (default 3).
	Attempts int `json:"attempts,omitempty"`
	// DelayMs is the first backoff delay (default 500).
	DelayMs int64 `json:"delayMs,omitempty"`
	// MaxDelayMs caps one delay, Retry-After included (default 10000).
	MaxDelayMs int64 `json:"maxDelayMs,omitempty"`
}

// ConnectRequest is the JSON argument of mcpwasm_connect.
type ConnectRequest struct {
	// URL is the MCP endpoint (http or https).
	URL string `json:"url"`
	// ProtocolVersions overrides ClientConfig.ProtocolVersions.
	ProtocolVersions []string `json:"protocolVersions,omitempty"`
	// Mode is "auto" (default), "streamable-http" or "sse".
	Mode string `json:"mode,omitempty"`
	// Headers are sent with every HTTP request of the session.
	Headers map[string]string `json:"headers,omitempty"`
	// MaxMessageSize bounds one JSON body or SSE event (default 32 MiB).
	MaxMessageSize int `json:"maxMessageSize,omitempty"`
	// RetryMs is the SSE reconnection delay when the server sent none
	// (default 1000).
	RetryMs int64 `json:"retryMs,omitempty"`
	// MaxReconnects bounds consecutive failed stream resumptions
	// (default 5).
	MaxReconnects int `json:"maxReconnects,omitempty"`
	// Auth, when set, authorizes the session's HTTP requests with OAuth
	// 2.1 inside the guest (absent: requests are sent as they are).
	Auth *AuthConfig `json:"auth,omitempty"`
}

// Grants of AuthConfig.Grant.
const (
	GrantAuthorizationCode = "authorization_code"
	GrantClientCredentials = "client_credentials"
	GrantJWTBearer         = "jwt_bearer"
)

// User agents of AuthConfig.UserAgent.
const (
	// UserAgentHost: the host opens the authorization URL ("authorize"
	// event) and answers with the callback URL.
	UserAgentHost = "host"
	// UserAgentHeadless: the guest requests the authorization URL itself
	// without following redirects and reads the redirect to the redirect
	// URI (authorization servers that need no user: test servers, the
	// conformance suite's).
	UserAgentHeadless = "headless"
)

// AuthConfig configures OAuth for a session (ConnectRequest.Auth). The
// guest runs the whole authorization (discovery, registration, PKCE, token
// requests, refresh, step-up, DPoP); the host only performs HTTP and, with
// UserAgentHost, shows the authorization URL to the user.
type AuthConfig struct {
	// Grant is GrantAuthorizationCode (default), GrantClientCredentials or
	// GrantJWTBearer.
	Grant string `json:"grant,omitempty"`
	// UserAgent performs the user's part of the authorization code grant:
	// UserAgentHost (default) or UserAgentHeadless.
	UserAgent string `json:"userAgent,omitempty"`
	// RedirectURI is the redirect URI of authorization requests. Required
	// with UserAgentHost; default http://127.0.0.1/callback with
	// UserAgentHeadless.
	RedirectURI string `json:"redirectUri,omitempty"`
	// ClientID, ClientSecret, AuthMethod and Issuer are pre-registered
	// client credentials (required for the client credentials and JWT
	// bearer grants). AuthMethod is the token endpoint authentication
	// method (default: chosen from what the server supports); Issuer binds
	// the credentials to one authorization server (default: the first one
	// they are used with).
	ClientID     string `json:"clientId,omitempty"`
	ClientSecret string `json:"clientSecret,omitempty"`
	AuthMethod   string `json:"authMethod,omitempty"`
	Issuer       string `json:"issuer,omitempty"`
	// PrivateKeyPEM is the client's private key (PKCS #8, SEC 1 or PKCS #1
	// PEM) for private_key_jwt client authentication.
	PrivateKeyPEM string `json:"privateKeyPem,omitempty"`
	// ClientMetadataURL is the client's Client ID Metadata Document URL.
	ClientMetadataURL string `json:"clientMetadataUrl,omitempty"`
	// ClientName is the client_name of dynamic registrations.
	ClientName string `json:"clientName,omitempty"`
	// ApplicationType is the application_type of dynamic registrations
	// ("native" or "web"; default from the redirect URI).
	ApplicationType string `json:"applicationType,omitempty"`
	// Scopes are requested in addition to those the server asks for.
	Scopes []string `json:"scopes,omitempty"`
	// NoOfflineAccess stops the guest from adding offline_access.
	NoOfflineAccess bool `json:"noOfflineAccess,omitempty"`
	// DPoP asks for sender-constrained tokens (RFC 9449) with DPoPKeyPEM,
	// or a P-256 key generated for the session.
	DPoP bool `json:"dpop,omitempty"`
	// DPoPKeyPEM is the DPoP private key (PEM); it implies DPoP.
	DPoPKeyPEM string `json:"dpopKeyPem,omitempty"`
	// Assertion is the assertion of the JWT bearer grant (a workload
	// identity token).
	Assertion string `json:"assertion,omitempty"`
	// IDJAG makes the JWT bearer grant's assertion an identity assertion
	// grant obtained from the user's identity provider for each token
	// request (enterprise-managed authorization).
	IDJAG *IDJAGConfig `json:"idjag,omitempty"`
	// MaxAuthorizations bounds consecutive refusals of fresh tokens
	// (default 3).
	MaxAuthorizations int `json:"maxAuthorizations,omitempty"`
	// AuthorizationTimeoutMs bounds one authorization, the user's sign-in
	// included (default 600000).
	AuthorizationTimeoutMs int64 `json:"authorizationTimeoutMs,omitempty"`
	// AllowInsecureHTTP accepts plain-HTTP URLs from servers on any host
	// (default: HTTPS only, plain HTTP only on loopback for a loopback
	// resource). Never in production.
	AllowInsecureHTTP bool `json:"allowInsecureHttp,omitempty"`
	// AllowPrivateAddresses lets servers name loopback, private and
	// link-local URLs whatever the protected resource's address (default:
	// only in the resource's own class of network). Tests and development.
	AllowPrivateAddresses bool `json:"allowPrivateAddresses,omitempty"`
	// Store is the initial token store: a state from an "auth_store"
	// event (default: empty).
	Store json.RawMessage `json:"store,omitempty"`
	// Persist makes the guest report its token store in an "auth_store"
	// event after every change.
	Persist bool `json:"persist,omitempty"`
	// Log makes the guest report each authorization step in a "log" event.
	Log bool `json:"log,omitempty"`
}

// IDJAGConfig configures the identity assertion grant exchange (RFC 8693
// token exchange at the identity provider) of AuthConfig.IDJAG.
type IDJAGConfig struct {
	// TokenEndpoint is the identity provider's token endpoint (required).
	TokenEndpoint string `json:"tokenEndpoint"`
	// ClientID is the client's identifier at the identity provider.
	ClientID string `json:"clientId,omitempty"`
	// ClientSecret authenticates the client at the identity provider.
	ClientSecret string `json:"clientSecret,omitempty"`
	// SubjectToken is the user's identity assertion (an ID token;
	// required).
	SubjectToken string `json:"subjectToken"`
	// SubjectTokenType is its token type URI (default the ID token type).
	SubjectTokenType string `json:"subjectTokenType,omitempty"`
}

// AuthorizeResult is the result of an answer to an "authorize" event.
type AuthorizeResult struct {
	// CallbackURL is the URL the authorization server redirected the user
	// agent to: the redirect URI with the code, state and iss parameters
	// (or an error).
	CallbackURL string `json:"callbackUrl"`
}

// ConnectResult is the result of a connect operation.
type ConnectResult struct {
	// Session is the id of the new session.
	Session uint32 `json:"session"`
	// Era is "modern" or "legacy".
	Era string `json:"era"`
	// ProtocolVersion is the negotiated version.
	ProtocolVersion string `json:"protocolVersion"`
	// SessionID is the legacy Mcp-Session-Id ("" if none).
	SessionID string `json:"sessionId,omitempty"`
	// ServerInfo is the server's Implementation object.
	ServerInfo json.RawMessage `json:"serverInfo,omitempty"`
	// ServerCapabilities is the server's capabilities object.
	ServerCapabilities json.RawMessage `json:"serverCapabilities,omitempty"`
	// Instructions are the server's instructions.
	Instructions string `json:"instructions,omitempty"`
}

// CallRequest is the JSON argument of mcpwasm_request.
type CallRequest struct {
	// Method is any client request method. resources/subscribe,
	// resources/unsubscribe, logging/setLevel and ping are served in both
	// eras (on modern servers through subscriptions/listen, per-request
	// log level and server/discover).
	Method string `json:"method"`
	// Params is the params object (absent or null for none).
	Params json.RawMessage `json:"params,omitempty"`
	// TimeoutMs is the idle timeout (0: the client default; negative:
	// none).
	TimeoutMs int64 `json:"timeoutMs,omitempty"`
	// ResetTimeoutOnProgress restarts the timeout on each progress
	// notification.
	ResetTimeoutOnProgress bool `json:"resetTimeoutOnProgress,omitempty"`
	// MaxTotalTimeoutMs is a hard limit (0: the client default; negative:
	// none).
	MaxTotalTimeoutMs int64 `json:"maxTotalTimeoutMs,omitempty"`
	// Progress asks for a progress token; the request's progress
	// notifications then also arrive as "progress" events of the op.
	Progress bool `json:"progress,omitempty"`
	// NoTaskWait makes tools/call fail with kind "task" (Data: the task's
	// id and state) when the server answers with a task, instead of
	// waiting for it.
	NoTaskWait bool `json:"noTaskWait,omitempty"`
	// NoCache skips the ttlMs cache.
	NoCache bool `json:"noCache,omitempty"`
	// Meta members are added to the request's _meta.
	Meta map[string]any `json:"meta,omitempty"`
}

// Event types of mcpwasm_poll.
const (
	// EventResult ends an operation: Op, and Result or Error (both for an
	// output_schema error).
	EventResult = "result"
	// EventProgress is a progress notification of operation Op (Params).
	EventProgress = "progress"
	// EventNotification is a server notification (Client, Session,
	// Method, Params).
	EventNotification = "notification"
	// EventRequest is a server→client request the host answers with
	// mcpwasm_answer(ID, …) (Client, Session, ID, Method, Params).
	EventRequest = "request"
	// EventCancel withdraws request ID: its answer is no longer needed.
	EventCancel = "cancel"
	// EventClosed reports that a session ended (Session; Error unless it
	// was closed by mcpwasm_close).
	EventClosed = "closed"
	// EventWarning is a non-fatal problem (Client, Session, Message).
	EventWarning = "warning"
	// EventAuthorize asks the host to send the user to URL and answer
	// mcpwasm_answer(ID, …) with an AuthorizeResult (Client, Session).
	EventAuthorize = "authorize"
	// EventAuthStore reports a session's token store after a change
	// (Client, Session, Store), with AuthConfig.Persist.
	EventAuthStore = "auth_store"
	// EventLog is a step of an authorization (Client, Session, Message),
	// with AuthConfig.Log.
	EventLog = "log"
)

// Event is one element of the JSON array returned by mcpwasm_poll.
type Event struct {
	Type    string          `json:"type"`
	Op      uint32          `json:"op,omitempty"`
	ID      uint32          `json:"id,omitempty"`
	Client  uint32          `json:"client,omitempty"`
	Session uint32          `json:"session,omitempty"`
	Method  string          `json:"method,omitempty"`
	Params  json.RawMessage `json:"params,omitempty"`
	Result  json.RawMessage `json:"result,omitempty"`
	Error   *Error          `json:"error,omitempty"`
	Message string          `json:"message,omitempty"`
	URL     string          `json:"url,omitempty"`
	Store   json.RawMessage `json:"store,omitempty"`
}

// Error kinds of an operation's error.
const (
	KindInvalid            = "invalid"             // malformed request
	KindRPC                = "rpc"                 // JSON-RPC error from the server (Code, Data)
	KindTimeout            = "timeout"             // the request timed out
	KindCancelled          = "cancelled"           // mcpwasm_cancel
	KindClosed             = "closed"              // the session is closed
	KindInput              = "input"               // a host answer to an input request failed the call
	KindOutputSchema       = "output_schema"       // structuredContent does not match the output schema (Result set)
	KindNotSupported       = "not_supported"       // not available in this era or server
	KindUnsupportedVersion = "unsupported_version" // no common protocol version
	KindTransport          = "transport"           // HTTP failed (Code is the HTTP status if any)
	KindAuth               = "auth"                // OAuth authorization failed
	KindInternal           = "internal"            // the guest recovered from a panic
	KindTask               = "task"                // tools/call with noTaskWait got a task (Data: {"taskId", "state"})
	KindTaskCancelled      = "task_cancelled"      // the awaited task ended cancelled
	KindError              = "error"               // anything else
)

// Error is an operation's error, or (as an answer) a host handler's
// JSON-RPC error.
type Error struct {
	Kind    string          `json:"kind,omitempty"`
	Code    int64           `json:"code,omitempty"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data,omitempty"`
}

// Answer is the JSON argument of mcpwasm_answer: exactly one of Result
// (the MCP result object) or Error (Code and Message; Data optional).
type Answer struct {
	Result json.RawMessage `json:"result,omitempty"`
	Error  *Error          `json:"error,omitempty"`
}

// HTTPRequestHead is the head of an http_request import call; the body is
// passed separately as raw bytes.
type HTTPRequestHead struct {
	Method  string              `json:"method"`
	URL     string              `json:"url"`
	Headers map[string][]string `json:"headers,omitempty"`
	// NoRedirect asks the host not to follow a redirect: a 3xx response
	// is delivered as it is, with its Location header.
	NoRedirect bool `json:"noRedirect,omitempty"`
}

// HTTPResponseHead is the JSON argument of mcpwasm_http_response. Header
// names are lower case.
type HTTPResponseHead struct {
	Status  int                 `json:"status"`
	Headers map[string][]string `json:"headers,omitempty"`
	// Hidden lists response headers the host could not read (a browser-like
	// host that obeys CORS exposure rules); usually absent.
	Hidden []string `json:"hidden,omitempty"`
}

// Operations of the tasks API, sent as the Method of a CallRequest (the
// "mcpwasm/" prefix is reserved for the guest's own operations; they never
// reach the server as such). Each one's params and result:
//
//   - MethodTaskCall: CallToolParams ({"name", "arguments"}, plus
//     "ttlMs" for the retention asked of a 2025-11-25 server) → TaskHandle.
//     A server that answered directly gives a completed handle with an
//     empty id and the result.
//   - MethodTaskGet: {"taskId"} → TaskHandle (tasks/get; a task resumed by
//     id, in this session or another).
//   - MethodTaskWait: {"taskId", "maxPollIntervalMs"?} → the final
//     CallToolResult; the task's input requests arrive as "request" events
//     as for any server request. Errors: kind "rpc" (the task failed),
//     "task_cancelled".
//   - MethodTaskCancel: {"taskId"} → TaskState.
//   - MethodTaskList: {"cursor"?} → {"tasks": [TaskState], "nextCursor"?}
//     (2025-11-25 servers; "not_supported" otherwise).
//
// tools/call itself waits for a task the server insists on, unless the
// CallRequest sets NoTaskWait (then error kind "task").
const (
	MethodTaskCall   = "mcpwasm/tasks/call"
	MethodTaskGet    = "mcpwasm/tasks/get"
	MethodTaskWait   = "mcpwasm/tasks/wait"
	MethodTaskCancel = "mcpwasm/tasks/cancel"
	MethodTaskList   = "mcpwasm/tasks/list"
)

// TaskState is a task as the server last described it. Times are
// milliseconds; TTLMs is null when unlimited.
type TaskState struct {
	ID             string `json:"id"`
	Status         string `json:"status"`
	StatusMessage  string `json:"statusMessage,omitempty"`
	CreatedAt      string `json:"createdAt,omitempty"`
	LastUpdatedAt  string `json:"lastUpdatedAt,omitempty"`
	TTLMs          *int64 `json:"ttlMs"`
	PollIntervalMs int64  `json:"pollIntervalMs"`
}

// TaskHandle is the result of MethodTaskCall and MethodTaskGet.
type TaskHandle struct {
	State TaskState `json:"state"`
	// Result is the final result of a call the server answered directly.
	Result json.RawMessage `json:"result,omitempty"`
}
