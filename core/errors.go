package core

import (
	"errors"
	"time"

	"github.com/mcpwasm/mcpwasm/internal/errf"
	"github.com/mcpwasm/mcpwasm/jsonrpc"
)

// JSON-RPC and MCP error codes.
const (
	CodeParseError     = -32700
	CodeInvalidRequest = -32600
	CodeMethodNotFound = -32601
	CodeInvalidParams  = -32602
	CodeInternalError  = -32603
	// CodeResourceNotFound is returned by servers for an unknown resource URI.
	CodeResourceNotFound = -32002
	// CodeHeaderMismatch (2026-07-28): HTTP headers do not match the body.
	CodeHeaderMismatch = -32020
	// CodeMissingRequiredClientCapability (2026-07-28).
	CodeMissingRequiredClientCapability = -32021
	// CodeUnsupportedProtocolVersion (2026-07-28): data.supported lists the
	// versions the server accepts.
	CodeUnsupportedProtocolVersion = -32022
	// CodeURLElicitationRequired (2025-11-25): the server needs URL-mode
	// elicitations completed first; data.elicitations lists them.
	CodeURLElicitationRequired = -32042
	// CodeRequestTimeout is used for MCP-level request timeouts.
	CodeRequestTimeout = -32001
	// CodeToolError is mcpwasm's own code for a tool result with isError
	// when it is reported as an error (*ToolError across the JS and WASI
	// bridges): the tool ran and failed, which is not a JSON-RPC error.
	// Servers do not send it.
	CodeToolError = -32099
)

// Sentinel errors. Match them with errors.Is.
var (
	// ErrClosed is returned by calls on a closed session.
	ErrClosed = errors.New("core: session closed")
	// ErrNotModern is wrapped by transports when the server answered a
	// modern (2026-07-28 and later) request in a way only a legacy server
	// would: an HTTP 4xx without a recognised modern JSON-RPC error.
	ErrNotModern = errors.New("core: server is not a modern MCP server")
	// ErrSessionExpired is wrapped by transports when a legacy server no
	// longer knows the session (over HTTP: 404, or 400 naming the session
	// as TypeScript SDK v1 servers answer, to a request with an
	// Mcp-Session-Id). The session re-initializes and retries the request
	// once.
	ErrSessionExpired = errors.New("core: server session expired")
	// ErrResponseLost is wrapped by transports when a modern (2026-07-28)
	// request's response stream ended before its response: there is no
	// resumption in that revision, so the session re-issues the request
	// once as a new request with a new id, as the specification asks.
	ErrResponseLost = errors.New("core: the response was lost with its stream")
	// ErrNotificationsDropped is wrapped by the warnings about notifications
	// dropped because the handler queue was full
	// (ClientOptions.MaxQueuedNotifications).
	ErrNotificationsDropped = errors.New("core: notifications dropped")
	// ErrTooManyServerRequests is what a legacy server→client request beyond
	// ClientOptions.MaxServerRequests is answered with.
	ErrTooManyServerRequests = errors.New("core: too many concurrent server requests")
	// ErrUnsupportedVersion means client and server share no protocol version.
	ErrUnsupportedVersion = errors.New("core: no mutually supported protocol version")
	// ErrTimeout is wrapped by *TimeoutError.
	ErrTimeout = errors.New("core: request timed out")
	// ErrTooManyRounds means a multi round-trip request asked for input more
	// often than ClientOptions.MaxInputRounds allows.
	ErrTooManyRounds = errors.New("core: too many input_required rounds")
	// ErrRepeatedCursor means a server returned a pagination cursor twice.
	ErrRepeatedCursor = errors.New("core: server repeated a pagination cursor")
	// ErrNotSupported means the operation does not exist in the negotiated
	// protocol era or the server did not advertise the capability.
	ErrNotSupported = errors.New("core: not supported by this server or protocol version")
	// ErrNoHandler means the server asked for something (sampling,
	// elicitation, roots) the client has no handler for.
	ErrNoHandler = errors.New("core: no handler for server request")
	// ErrToolNotFound is returned when header mirroring needs a tool
	// definition the server does not list.
	ErrToolNotFound = errors.New("core: tool not found")
	// ErrInvalidResult means a server result could not be decoded or broke
	// a protocol rule.
	ErrInvalidResult = errors.New("core: invalid result from server")
	// ErrOutputSchema is wrapped by *OutputSchemaError.
	ErrOutputSchema = errors.New("core: structured content does not match the tool's output schema")
	// ErrToolError is wrapped by *ToolError.
	ErrToolError = errors.New("core: tool reported an error")
)

// RPCError is a JSON-RPC error response from the server. Match it with
// errors.As.
type RPCError struct {
	Code    int64
	Message string
	Data    RawMessage
}

func (e *RPCError) Error() string {
	return errf.Sprintf("core: server error %d: %s", e.Code, e.Message)
}

// Supported returns data.supported of an UnsupportedProtocolVersionError.
func (e *RPCError) Supported() []string {
	if e.Code != CodeUnsupportedProtocolVersion || len(e.Data) == 0 {
		return nil
	}
	var d supportedVersions
	_ = decodeShape(e.Data, &d)
	return d.Supported
}

// IsModernError reports whether code is one of the errors only a modern
// (2026-07-28 and later) server returns: the signal that tells a dual-era
// client not to fall back to the legacy era.
func IsModernError(code int64) bool {
	switch code {
	case CodeHeaderMismatch, CodeMissingRequiredClientCapability, CodeUnsupportedProtocolVersion:
		return true
	}
	return false
}

func rpcErrorFrom(w *jsonrpc.Error) *RPCError {
	return &RPCError{Code: w.Code, Message: w.Message, Data: w.Data}
}

// TimeoutError is returned when a request exceeded its timeout; the request
// has been cancelled on the wire. errors.Is(err, ErrTimeout) holds.
type TimeoutError struct {
	Method  string
	Timeout time.Duration
	// Total is true when the hard maximum (MaxTotalTimeout) expired rather
	// than the idle timeout.
	Total bool
}

func (e *TimeoutError) Error() string {
	kind := "timeout"
	if e.Total {
		kind = "maximum total timeout"
	}
	return errf.Sprintf("core: %s timed out after %v (%s)", e.Method, e.Timeout, kind)
}

// Unwrap returns ErrTimeout.
func (e *TimeoutError) Unwrap() error { return ErrTimeout }

// InputError reports that the client could not fulfil a server's request for
// input (a legacy server→client request or a modern inputRequests entry).
type InputError struct {
	Key    string // the inputRequests key (modern), "" for legacy requests
	Method string
	Err    error
}

func (e *InputError) Error() string {
	if e.Key != "" {
		return errf.Sprintf("core: input request %q (%s): %v", e.Key, e.Method, e.Err)
	}
	return errf.Sprintf("core: %s: %v", e.Method, e.Err)
}

// Unwrap returns the handler's error.
func (e *InputError) Unwrap() error { return e.Err }

// OutputSchemaError reports structuredContent that does not validate
// against the tool's outputSchema. The result is still available.
type OutputSchemaError struct {
	Tool   string
	Err    error // a *jsonschema.ValidationError or a decoding error
	Result *CallToolResult
}

func (e *OutputSchemaError) Error() string {
	return errf.Sprintf("core: tool %q: structured content does not match its output schema: %v", e.Tool, e.Err)
}

// Unwrap returns ErrOutputSchema and the validation error.
func (e *OutputSchemaError) Unwrap() []error { return []error{ErrOutputSchema, e.Err} }

// ToolError is returned by CallToolResult.Err for a result with isError set.
type ToolError struct {
	Tool   string
	Result *CallToolResult
}

func (e *ToolError) Error() string {
	b := errf.Appendf(nil, "core: tool %q failed", e.Tool)
	if e.Result != nil {
		for _, c := range e.Result.Content {
			if c != nil && c.Type == "text" && c.Text != "" {
				b = errf.Appendf(b, ": %s", c.Text)
				break
			}
		}
	}
	return string(b)
}

// Unwrap returns ErrToolError.
func (e *ToolError) Unwrap() error { return ErrToolError }

// HeaderError reports an invalid x-mcp-header annotation on a tool
// definition; such tools are dropped from tools/list on HTTP transports.
type HeaderError struct {
	Tool   string
	Reason string
}

func (e *HeaderError) Error() string {
	return errf.Sprintf("core: tool %q has an invalid x-mcp-header annotation: %s", e.Tool, e.Reason)
}

// wrap is the one constructor of the "sentinel: cause" errors (cause an
// error or a text).
//
//go:noinline
func wrap(sentinel error, cause any) error {
	return errf.Errorf("%w: %v", sentinel, cause)
}

// errStr and strErr are errf.Errorf for the formats with a sentinel and a
// string, or a string and an error: one call each, where errf.Errorf boxes
// the string at every call site.
//
//go:noinline
func errStr(format string, sentinel error, s string) error {
	return errf.Errorf(format, sentinel, s)
}

//go:noinline
func strErr(format, s string, err error) error {
	return errf.Errorf(format, s, err)
}

// wrapWhat is the one constructor of the "sentinel: what: cause" errors
// (ErrInvalidResult and errBadParams mostly): a shared call instead of an
// errf.Errorf call site, with its boxed arguments, at each place.
//
//go:noinline
func wrapWhat(sentinel error, what string, cause any) error {
	return errf.Errorf("%w: %s: %v", sentinel, what, cause)
}
