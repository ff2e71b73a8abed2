//go:build js

package main

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/mcpwasm/mcpwasm/core"
	"github.com/mcpwasm/mcpwasm/internal/js/bridge"
	"github.com/mcpwasm/mcpwasm/transport/fetch"
)

// Error codes the glue's McpError uses for failures that are not JSON-RPC
// errors from the server (the TypeScript SDK uses the same two).
const (
	codeConnectionClosed = -32000
	codeRequestTimeout   = -32001
)

// jsError is the JSON description of an error handed to the glue, which
// turns it into an McpError (or, for kind "abort", the signal's reason).
type jsError struct {
	Kind    string          `json:"kind"`
	Code    int64           `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data,omitempty"`
	Status  int             `json:"status,omitempty"`
}

// resultError carries the raw result that came with an error (a tool
// result whose structuredContent failed validation).
type resultError struct {
	err    error
	result json.RawMessage
}

func (e *resultError) Error() string { return e.err.Error() }
func (e *resultError) Unwrap() error { return e.err }

func withResult(err error, raw json.RawMessage) error {
	if raw == nil {
		return err
	}
	return &resultError{err: err, result: raw}
}

// errorJSON describes err for the glue.
func errorJSON(err error) string {
	e := jsError{Kind: "internal", Code: core.CodeInternalError, Message: err.Error()}
	var (
		rpc     *core.RPCError
		timeout *core.TimeoutError
		schema  *core.OutputSchemaError
		input   *core.InputError
		status  *fetch.StatusError
		jserr   *jsbridge.Error
		withRes *resultError

		urlElicit *core.URLElicitationError
		toolErr   *core.ToolError
		created   *core.TaskCreatedError
	)
	switch {
	case isAuthError(err): // authorization (wasm/js/auth.go), before cors: a hidden WWW-Authenticate
		e.Kind, e.Code, e.Data, e.Status = "auth", codeConnectionClosed, authErrorData(err), authErrorStatus(err)
	case errors.Is(err, fetch.ErrHiddenHeader):
		e.Kind, e.Code = "cors", codeConnectionClosed
	case errors.As(err, &urlElicit) && urlElicit.RPC != nil:
		// data as the server sent it (data.elicitations); the message says
		// why the call was not retried.
		e.Kind, e.Code, e.Data = "url-elicitation", urlElicit.RPC.Code, urlElicit.RPC.Data
	case errors.As(err, &rpc):
		e.Kind, e.Code, e.Message, e.Data = "rpc", rpc.Code, rpc.Message, rpc.Data
	case errors.As(err, &created): // callTool with noTaskWait: the task's id in data
		e.Kind, e.Data = "task", mustJSON(map[string]any{"taskId": created.Task.ID(), "state": stateJSON(created.Task.State())})
	case errors.Is(err, core.ErrTaskCancelled):
		e.Kind = "task-cancelled"
	case errors.As(err, &timeout):
		e.Kind, e.Code = "timeout", codeRequestTimeout
	case errors.Is(err, context.Canceled), errors.Is(err, jsbridge.ErrAborted), errors.Is(err, context.DeadlineExceeded):
		e.Kind, e.Code = "abort", codeRequestTimeout
	case errors.As(err, &toolErr):
		e.Kind, e.Code = "tool", core.CodeToolError
	case errors.As(err, &schema):
		e.Kind, e.Code = "output-schema", core.CodeInvalidParams
	case errors.As(err, &input):
		e.Kind = "input"
	case errors.Is(err, core.ErrClosed):
		e.Kind, e.Code = "closed", codeConnectionClosed
	case errors.Is(err, core.ErrUnsupportedVersion):
		e.Kind = "unsupported-version"
	case errors.As(err, &status):
		e.Kind, e.Code, e.Status = "http", codeConnectionClosed, status.StatusCode
	case errors.Is(err, fetch.ErrNetwork):
		e.Kind, e.Code = "transport", codeConnectionClosed
	case errors.As(err, &jserr):
		e.Kind, e.Code = "transport", codeConnectionClosed
	case errors.Is(err, core.ErrNotSupported), errors.Is(err, core.ErrInvalidResult), errors.Is(err, core.ErrTooManyRounds), errors.Is(err, core.ErrRepeatedCursor):
		e.Kind = "protocol"
	}
	if errors.As(err, &withRes) && e.Data == nil {
		b, _ := json.Marshal(map[string]json.RawMessage{"result": withRes.result})
		e.Data = b
	}
	b, _ := json.Marshal(&e)
	return string(b)
}

func mustJSON(v any) json.RawMessage {
	b, _ := json.Marshal(v)
	return b
}
