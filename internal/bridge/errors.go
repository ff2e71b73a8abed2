package bridge

import (
	"context"
	"errors"
	"time"

	"github.com/mcpwasm/mcpwasm/auth"
	"github.com/mcpwasm/mcpwasm/core"
	"github.com/mcpwasm/mcpwasm/internal/errf"
	"github.com/mcpwasm/mcpwasm/internal/jsonscan"
	"github.com/mcpwasm/mcpwasm/internal/rawjson"
	"github.com/mcpwasm/mcpwasm/transport/fetch"
)

// Error kinds: what failed, in the words of the JavaScript McpError.kind
// (js/index.d.ts), which every host uses.
const (
	KindRPC              = "rpc"                 // a JSON-RPC error from the server (Code, Data as sent)
	KindTimeout          = "timeout"             // the request timed out
	KindAbort            = "abort"               // the caller cancelled (AbortSignal, mcpwasm_cancel)
	KindClosed           = "closed"              // the session is closed
	KindHTTP             = "http"                // an HTTP error status (Status)
	KindCORS             = "cors"                // the browser hid a response header
	KindTransport        = "transport"           // the network or the stream failed
	KindInput            = "input"               // answering an input request failed the call
	KindOutputSchema     = "output-schema"       // structuredContent does not match the output schema (data.result)
	KindTool             = "tool"                // a tool result with isError
	KindProtocol         = "protocol"            // the server broke the protocol, or lacks the feature (Code -32601)
	KindUnsupportedVer   = "unsupported-version" // no common protocol version
	KindAuth             = "auth"                // OAuth authorization failed (Status, Data)
	KindURLElicitation   = "url-elicitation"     // the server needs URL elicitations (Data as sent)
	KindTask             = "task"                // tools/call with noTaskWait got a task (Data: taskId, state)
	KindTaskCancelled    = "task-cancelled"      // the awaited task ended cancelled
	KindInvalid          = "invalid"             // the host passed a bad argument or configuration
	KindInternal         = "internal"            // anything else, a recovered panic included
	CodeConnectionClosed = -32000                // Code of failures that are not the server's JSON-RPC errors
	CodeRequestTimeout   = -32001                // Code of timeouts and aborts
)

// Error describes a failure to a host: the JSON of a rejected call in
// every bridge (McpError in JavaScript, the error of a WASI ABI result
// event).
type Error struct {
	Kind    string             `json:"kind,omitempty"`
	Code    int64              `json:"code"`
	Message string             `json:"message"`
	Data    rawjson.RawMessage `json:"data,omitempty"`
	// Status is the HTTP status of kinds "http" and "auth" (0: none).
	Status int `json:"status,omitempty"`
}

// ResultError carries the raw result that came with an error (a tool
// result whose structuredContent failed validation): ErrorInfo puts it in
// data.result.
type ResultError struct {
	Err    error
	Result rawjson.RawMessage
}

func (e *ResultError) Error() string { return e.Err.Error() }

// Unwrap returns the error.
func (e *ResultError) Unwrap() error { return e.Err }

// WithResult attaches raw to err (err when raw is nil).
func WithResult(err error, raw rawjson.RawMessage) error {
	if err == nil || raw == nil {
		return err
	}
	return &ResultError{Err: err, Result: raw}
}

// ErrorInfo classifies err. state is the format of the task state in the
// data of kind "task" (the host's, as it describes tasks elsewhere). A
// host checks its own error types first (a JavaScript exception, a guest
// status) where they mean more.
func ErrorInfo(err error, state TaskStateFormat) *Error {
	e := &Error{Kind: KindInternal, Code: core.CodeInternalError, Message: err.Error()}
	var (
		rpc       *core.RPCError
		timeout   *core.TimeoutError
		input     *core.InputError
		status    *fetch.StatusError
		cfg       *ConfigError
		authErr   *AuthError
		urlElicit *core.URLElicitationError
		toolErr   *core.ToolError
		created   *core.TaskCreatedError
		withRes   *ResultError
	)
	switch {
	case errf.As(err, &cfg):
		e.Kind, e.Code, e.Message = KindInvalid, core.CodeInvalidParams, cfg.Error()
	case errf.As(err, &authErr): // before cors: a hidden WWW-Authenticate is an auth failure
		e.Kind, e.Code, e.Data, e.Status = KindAuth, CodeConnectionClosed, authData(err), authStatus(err)
	case errors.Is(err, fetch.ErrHiddenHeader):
		e.Kind, e.Code = KindCORS, CodeConnectionClosed
	case errf.As(err, &urlElicit) && urlElicit.RPC != nil:
		// data as the server sent it (data.elicitations); the message says
		// why the call was not retried.
		e.Kind, e.Code, e.Data = KindURLElicitation, urlElicit.RPC.Code, urlElicit.RPC.Data
	case errf.As(err, &input): // before rpc: a handler's error (often an RPCError) failed the call
		e.Kind = KindInput
	case errf.As(err, &rpc):
		e.Kind, e.Code, e.Message, e.Data = KindRPC, rpc.Code, rpc.Message, rpc.Data
	case errf.As(err, &created):
		e.Kind, e.Data = KindTask, taskData(created.Task, state)
	case errors.Is(err, core.ErrTaskCancelled):
		e.Kind = KindTaskCancelled
	case errf.As(err, &timeout), errors.Is(err, core.ErrTimeout):
		e.Kind, e.Code = KindTimeout, CodeRequestTimeout
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		e.Kind, e.Code = KindAbort, CodeRequestTimeout
	case errf.As(err, &toolErr):
		e.Kind, e.Code = KindTool, core.CodeToolError
	case errors.Is(err, core.ErrOutputSchema):
		e.Kind, e.Code = KindOutputSchema, core.CodeInvalidParams
	case errors.Is(err, core.ErrClosed):
		e.Kind, e.Code = KindClosed, CodeConnectionClosed
	case errors.Is(err, core.ErrUnsupportedVersion):
		e.Kind = KindUnsupportedVer
	case errf.As(err, &status):
		e.Kind, e.Code, e.Status = KindHTTP, CodeConnectionClosed, status.StatusCode
	case errors.Is(err, fetch.ErrNetwork), errors.Is(err, fetch.ErrStreamEnded), errors.Is(err, fetch.ErrTooLarge), errors.Is(err, fetch.ErrNoEndpoint):
		e.Kind, e.Code = KindTransport, CodeConnectionClosed
	case errors.Is(err, core.ErrNotSupported):
		e.Kind, e.Code = KindProtocol, core.CodeMethodNotFound
	case errors.Is(err, core.ErrInvalidResult), errors.Is(err, core.ErrTooManyRounds), errors.Is(err, core.ErrRepeatedCursor):
		e.Kind = KindProtocol
	}
	if errf.As(err, &withRes) && e.Data == nil {
		w := jsonscan.NewObjectWriter(nil)
		w.Raw("result", CompactRaw(withRes.Result))
		e.Data = w.Bytes()
	}
	return e
}

// taskData is the data of kind "task": {"state", "taskId"}.
func taskData(t *core.Task, state TaskStateFormat) rawjson.RawMessage {
	s := NewHostTaskState(t.State(), time.Millisecond)
	w := jsonscan.NewObjectWriter(nil)
	w.Raw("state", s.Append(nil, state))
	w.String("taskId", t.ID())
	return w.Bytes()
}

// authData is the data of kind "auth": the authorization server's OAuth
// error, and whether the page was redirected or a header hidden (members
// in encoding/json's order of a map).
func authData(err error) rawjson.RawMessage {
	w := jsonscan.NewObjectWriter(nil)
	var oe *auth.Error
	if errf.As(err, &oe) {
		w.String("endpoint", oe.Endpoint)
		w.String("error", oe.Code)
		w.StringOmit("errorDescription", oe.Description)
	}
	if errors.Is(err, fetch.ErrHiddenHeader) {
		w.String("hiddenHeader", "WWW-Authenticate")
	}
	if errors.Is(err, auth.ErrRedirected) {
		w.Raw("redirected", []byte("true"))
	}
	if b := w.Bytes(); len(b) > 2 {
		return b
	}
	return nil
}

func authStatus(err error) int {
	var oe *auth.Error
	if errf.As(err, &oe) {
		return oe.StatusCode
	}
	return 0
}

// AppendJSON appends e as encoding/json encodes it: data compacted (and
// '<', '>', '&' escaped in its strings), empty members left out.
func (e *Error) AppendJSON(dst []byte) []byte {
	w := jsonscan.NewObjectWriter(dst)
	w.StringOmit("kind", e.Kind)
	w.Int("code", e.Code)
	w.String("message", e.Message)
	if len(e.Data) > 0 {
		w.Raw("data", CompactRaw(e.Data))
	}
	w.IntOmit("status", int64(e.Status))
	return w.Bytes()
}
