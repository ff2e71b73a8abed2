package wasihost

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/mcpwasm/mcpwasm/wasm/wasip1/abi"
)

// Sentinel errors. Match them with errors.Is.
var (
	// ErrTrapped means the wasm instance trapped (a guest panic, a deadlock,
	// running out of memory): it was closed and every pending call failed.
	// The Host cannot be used any more; make a new one.
	ErrTrapped = errors.New("wasihost: the wasm instance trapped and was closed")
	// ErrClosed means the Host or the Session is closed.
	ErrClosed = errors.New("wasihost: closed")
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
	// ErrTimeout means the request timed out inside the guest.
	ErrTimeout = errors.New("wasihost: request timed out")
	// ErrInput means a handler's answer (sampling, elicitation, roots) made
	// the request fail.
	ErrInput = errors.New("wasihost: input request failed")
	// ErrOutputSchema means a tool's structuredContent does not match its
	// output schema; the result is returned with the error.
	ErrOutputSchema = errors.New("wasihost: structured content does not match the tool's output schema")
	// ErrNotSupported means the operation does not exist in the server's
	// protocol era or the server lacks the capability.
	ErrNotSupported = errors.New("wasihost: not supported by this server or protocol version")
	// ErrUnsupportedVersion means client and server share no protocol
	// version.
	ErrUnsupportedVersion = errors.New("wasihost: no mutually supported protocol version")
	// ErrTransport means HTTP failed (the GuestError's Code is the HTTP
	// status when there was one).
	ErrTransport = errors.New("wasihost: HTTP transport failure")
	// ErrAuth means the OAuth authorization of a request failed (the
	// GuestError's Code is the authorization server's HTTP status and
	// Data its OAuth error when it answered with one).
	ErrAuth = errors.New("wasihost: authorization failed")
	// ErrTaskCreated means tools/call with RequestOptions.NoTaskWait got a
	// task (the GuestError's Data is {"taskId", "state"}).
	ErrTaskCreated = errors.New("wasihost: the server answered with a task")
	// ErrTaskCancelled means the awaited task ended cancelled.
	ErrTaskCancelled = errors.New("wasihost: task was cancelled")
)

// RPCError is a JSON-RPC error the server answered a request with. Match it
// with errors.As.
type RPCError struct {
	Code    int64
	Message string
	Data    json.RawMessage
}

func (e *RPCError) Error() string {
	return fmt.Sprintf("wasihost: server error %d: %s", e.Code, e.Message)
}

// GuestError is the failure of a request inside the guest other than a
// JSON-RPC error. It unwraps to the sentinel of its Kind (ErrTimeout,
// ErrClosed, ErrInput, ErrOutputSchema, …). Match it with errors.As.
type GuestError struct {
	// Kind is the ABI error kind ("timeout", "closed", "transport", …).
	Kind string
	// Message is the guest's description.
	Message string
	// Code is the HTTP status for Kind "transport" and "auth" (0 if
	// none).
	Code int64
	// Data is the error's data: for Kind "auth", the authorization
	// server's OAuth error ({"error", "error_description", "endpoint"}) if
	// it answered with one.
	Data json.RawMessage
}

func (e *GuestError) Error() string { return "wasihost: guest: " + e.Message }

// Unwrap returns the sentinel error of the kind.
func (e *GuestError) Unwrap() error {
	switch e.Kind {
	case abi.KindInvalid:
		return ErrInvalid
	case abi.KindTimeout:
		return ErrTimeout
	case abi.KindCancelled:
		return context.Canceled
	case abi.KindClosed:
		return ErrClosed
	case abi.KindInput:
		return ErrInput
	case abi.KindOutputSchema:
		return ErrOutputSchema
	case abi.KindNotSupported:
		return ErrNotSupported
	case abi.KindUnsupportedVersion:
		return ErrUnsupportedVersion
	case abi.KindTransport:
		return ErrTransport
	case abi.KindAuth:
		return ErrAuth
	case abi.KindInternal:
		return ErrInternal
	case abi.KindTask:
		return ErrTaskCreated
	case abi.KindTaskCancelled:
		return ErrTaskCancelled
	}
	return nil
}

// opError converts an operation's ABI error.
func opError(e *abi.Error) error {
	if e.Kind == abi.KindRPC {
		return &RPCError{Code: e.Code, Message: e.Message, Data: e.Data}
	}
	return &GuestError{Kind: e.Kind, Message: e.Message, Code: e.Code, Data: e.Data}
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
		sentinel = ErrClosed
	default:
		sentinel = ErrInternal
	}
	return fmt.Errorf("%w: %s", sentinel, msg)
}
