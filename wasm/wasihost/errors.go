package wasihost

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/mcpwasm/mcpwasm/core"
	"github.com/mcpwasm/mcpwasm/wasm/abi"
)

// The package speaks core's error vocabulary: a JSON-RPC error from the
// server is a *core.RPCError, and a *GuestError unwraps to core's sentinel
// of its kind (core.ErrTimeout, core.ErrClosed, core.ErrOutputSchema,
// core.ErrNotSupported, core.ErrUnsupportedVersion, core.ErrTaskCreated,
// core.ErrTaskCancelled, core.ErrToolError, context.Canceled), so that
// errors.As and errors.Is work as they do with core. A closed Host or
// Session is core.ErrClosed too. The sentinels below name what only a
// host can see. Match them with errors.Is.
var (
	// ErrTrapped means the wasm instance trapped (a guest panic, a deadlock,
	// running out of memory): it was closed and every pending call failed.
	// The Host cannot be used any more; make a new one.
	ErrTrapped = errors.New("wasihost: the wasm instance trapped and was closed")
	// ErrABIVersion means the module speaks an ABI version this package
	// does not know, or lacks an export of it.
	ErrABIVersion = errors.New("wasihost: unsupported module ABI")
	// ErrInvalid means the guest refused an argument (bad option, malformed
	// JSON).
	ErrInvalid = errors.New("wasihost: invalid argument")
	// ErrNotFound means the guest did not know an id (a finished operation,
	// a closed session).
	ErrNotFound = errors.New("wasihost: unknown id")
	// ErrInternal means the guest recovered from an internal failure.
	ErrInternal = errors.New("wasihost: internal guest error")
	// ErrInput means a handler's answer (sampling, elicitation, roots) made
	// the request fail.
	ErrInput = errors.New("wasihost: input request failed")
	// ErrProtocol means the server broke the protocol (an invalid result,
	// too many input rounds, a repeated cursor).
	ErrProtocol = errors.New("wasihost: protocol violation")
	// ErrTransport means HTTP failed (the GuestError's Status is the HTTP
	// status when there was one).
	ErrTransport = errors.New("wasihost: HTTP transport failure")
	// ErrAuth means the OAuth authorization of a request failed (the
	// GuestError's Status is the authorization server's HTTP status and
	// Data its OAuth error when it answered with one).
	ErrAuth = errors.New("wasihost: authorization failed")
)

// GuestError is the failure of a request inside the guest other than a
// JSON-RPC error. It unwraps to the sentinel of its Kind. Match it with
// errors.As.
type GuestError struct {
	// Kind is the error kind ("timeout", "closed", "http", …; the
	// bridge's vocabulary, docs/wasi-abi.md).
	Kind string
	// Message is the guest's description.
	Message string
	// Code is the JSON-RPC error code the guest chose (-32000 connection
	// closed, -32001 timeout, -32601 not supported, …).
	Code int64
	// Status is the HTTP status of kinds "http" and "auth" (0 if none).
	Status int
	// Data is the error's data: for Kind "auth", the authorization
	// server's OAuth error ({"error", "errorDescription", "endpoint"}) if
	// it answered with one; for Kind "task", {"taskId", "state"}.
	Data json.RawMessage
}

func (e *GuestError) Error() string { return "wasihost: guest: " + e.Message }

// Unwrap returns the sentinel error of the kind.
func (e *GuestError) Unwrap() error {
	switch e.Kind {
	case abi.KindInvalid:
		return ErrInvalid
	case abi.KindTimeout:
		return core.ErrTimeout
	case abi.KindAbort:
		return context.Canceled
	case abi.KindClosed:
		return core.ErrClosed
	case abi.KindInput:
		return ErrInput
	case abi.KindOutputSchema:
		return core.ErrOutputSchema
	case abi.KindTool:
		return core.ErrToolError
	case abi.KindProtocol:
		if e.Code == core.CodeMethodNotFound {
			return core.ErrNotSupported
		}
		return ErrProtocol
	case abi.KindUnsupportedVersion:
		return core.ErrUnsupportedVersion
	case abi.KindHTTP, abi.KindTransport, abi.KindCORS:
		return ErrTransport
	case abi.KindAuth:
		return ErrAuth
	case abi.KindInternal:
		return ErrInternal
	case abi.KindTask:
		return core.ErrTaskCreated
	case abi.KindTaskCancelled:
		return core.ErrTaskCancelled
	}
	return nil
}

// opError converts an operation's ABI error.
func opError(e *abi.Error) error {
	switch e.Kind {
	case abi.KindRPC, abi.KindURLElicitation:
		return &core.RPCError{Code: e.Code, Message: e.Message, Data: e.Data}
	}
	return &GuestError{Kind: e.Kind, Message: e.Message, Code: e.Code, Status: e.Status, Data: e.Data}
}

// statusError converts a negative export status and its message.
func statusError(code int32, msg string) error {
	var sentinel error
	switch code {
	case abi.StatusInvalid:
		sentinel = ErrInvalid
	case abi.StatusNotFound:
		sentinel = ErrNotFound
	case abi.StatusClosed:
		sentinel = core.ErrClosed
	default:
		sentinel = ErrInternal
	}
	return fmt.Errorf("%w: %s", sentinel, msg)
}
