package abi

import (
	"encoding/json"

	"github.com/mcpwasm/mcpwasm/internal/bridge"
	"github.com/mcpwasm/mcpwasm/internal/errf"
)

// Version is the ABI version returned by the mcpwasm_abi_version export.
// It changes whenever an export, an import or a message changes
// incompatibly; a host must refuse a module whose version it does not know.
//
// Version 3 made the configuration the bridge's schema, shared with the
// GOOS=js module (docs/configuration.md): ConnectRequest.mode became
// transport, ClientConfig.listChanged became notifications (method names),
// per-call timeouts of 0 mean none, error kinds are the JavaScript ones
// (cancelled → abort, output_schema → output-schema, not_supported →
// protocol with code -32601, transport with a status → http), Code of a
// non-RPC error is a JSON-RPC code and the HTTP status moved to Status,
// and mcpwasm_debug_trap left the production build.
//
// Version 2 added OAuth (ConnectRequest.Auth, the "authorize", "auth_store"
// and "log" events, error kind "auth") and the noRedirect member of the
// HTTP request head, which a host must honour. A configuration without
// auth behaves as in version 1.
const Version = 3

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
	// ExportDebugTrap exists only in debug builds (build tag
	// mcpwasm_debug), for tests of a host's trap handling.
	ExportDebugTrap = "mcpwasm_debug_trap"
)

// Exports lists every mcpwasm_* export of a production build, in the order docs/wasi-abi.md
// documents them.
var Exports = []string{
	ExportABIVersion, ExportAlloc, ExportFree, ExportLastError,
	ExportClientNew, ExportClientFree, ExportSetRoots,
	ExportConnect, ExportRequest, ExportCancel, ExportAnswer, ExportClose,
	ExportPoll, ExportHTTPResponse, ExportHTTPBody, ExportHTTPEnd,
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
	return errf.Sprintf("status %d", code)
}

// Debug trap kinds of mcpwasm_debug_trap (debug builds only).
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

// The configuration messages are the bridge's schema, shared with the
// GOOS=js module (internal/bridge; docs/configuration.md gives every
// option's meaning): one JSON shape whatever the host.
type (
	// Handlers says which server→client requests the host answers
	// (through "request" events and mcpwasm_answer). Setting one declares
	// the matching client capability.
	Handlers = bridge.Handlers
	// ClientConfig is the JSON argument of mcpwasm_client_new. Unknown
	// members are refused. Durations are milliseconds; absent means the
	// default, 0 or negative means none (bounded waits refuse them).
	ClientConfig = bridge.ClientConfig
	// RetryPolicy is ClientConfig.Retry.
	RetryPolicy = bridge.RetryConfig
	// ConnectRequest is the JSON argument of mcpwasm_connect.
	ConnectRequest = bridge.ConnectConfig
	// AuthConfig configures OAuth for a session (ConnectRequest.Auth).
	AuthConfig = bridge.AuthConfig
	// IDJAGConfig configures the identity assertion grant exchange of
	// AuthConfig.IDJAG.
	IDJAGConfig = bridge.IDJAGConfig
	// Millis is a duration in milliseconds (a fraction is rounded up).
	Millis = bridge.Millis
	// CallOptions are the options of a CallRequest.
	CallOptions = bridge.CallOptions
	// ConnectResult is the result of a connect operation.
	ConnectResult = bridge.SessionInfo
	// Error is an operation's error, or (as an answer) a host handler's
	// JSON-RPC error (Code and Message; Data optional).
	Error = bridge.Error
)

// Grants of AuthConfig.Grant.
const (
	GrantAuthorizationCode = bridge.GrantAuthorizationCode
	GrantClientCredentials = bridge.GrantClientCredentials
	GrantJWTBearer         = bridge.GrantJWTBearer
)

// User agents of AuthConfig.UserAgent.
const (
	// UserAgentHost: the host opens the authorization URL ("authorize"
	// event) and answers with the callback URL. The default.
	UserAgentHost = bridge.UserAgentHost
	// UserAgentHeadless: the guest requests the authorization URL itself
	// without following redirects and reads the redirect to the redirect
	// URI (authorization servers that need no user).
	UserAgentHeadless = bridge.UserAgentHeadless
)

// AuthorizeResult is the result of an answer to an "authorize" event.
type AuthorizeResult struct {
	// CallbackURL is the URL the authorization server redirected the user
	// agent to: the redirect URI with the code, state and iss parameters
	// (or an error).
	CallbackURL string `json:"callbackUrl"`
}

// CallRequest is the JSON argument of mcpwasm_request.
type CallRequest struct {
	// Method is any client request method. resources/subscribe,
	// resources/unsubscribe, logging/setLevel and ping are served in both
	// eras (on modern servers through subscriptions/listen, per-request
	// log level and server/discover); "mcpwasm/tasks/…" are the tasks
	// operations below.
	Method string `json:"method"`
	// Params is the params object (absent or null for none).
	Params json.RawMessage `json:"params,omitempty"`
	// The options: timeoutMs, maxTotalTimeoutMs (absent: the client's;
	// 0 or negative: none), resetTimeoutOnProgress, progress (the
	// request's progress notifications also arrive as "progress" events
	// of the op), noTaskWait, noCache, meta.
	CallOptions
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

// Error kinds of an operation's error: the bridge's vocabulary, the same
// as the JavaScript McpError.kind.
const (
	KindInvalid            = bridge.KindInvalid        // malformed request
	KindRPC                = bridge.KindRPC            // JSON-RPC error from the server (Code, Data)
	KindTimeout            = bridge.KindTimeout        // the request timed out
	KindAbort              = bridge.KindAbort          // mcpwasm_cancel
	KindClosed             = bridge.KindClosed         // the session is closed
	KindInput              = bridge.KindInput          // a host answer to an input request failed the call
	KindOutputSchema       = bridge.KindOutputSchema   // structuredContent does not match the output schema (Result set)
	KindTool               = bridge.KindTool           // a tool result with isError (tasks)
	KindProtocol           = bridge.KindProtocol       // protocol violation; Code -32601: not available in this era or server
	KindUnsupportedVersion = bridge.KindUnsupportedVer // no common protocol version
	KindHTTP               = bridge.KindHTTP           // an HTTP error status (Status)
	KindTransport          = bridge.KindTransport      // HTTP failed
	KindCORS               = bridge.KindCORS           // a response header was hidden
	KindAuth               = bridge.KindAuth           // OAuth authorization failed (Status, Data)
	KindURLElicitation     = bridge.KindURLElicitation // the server needs URL elicitations
	KindInternal           = bridge.KindInternal       // the guest recovered from a panic, or anything else
	KindTask               = bridge.KindTask           // tools/call with noTaskWait got a task (Data: {"taskId", "state"})
	KindTaskCancelled      = bridge.KindTaskCancelled  // the awaited task ended cancelled
)

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
