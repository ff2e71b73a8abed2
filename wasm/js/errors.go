//go:build js

package main

import (
	"errors"

	schema "github.com/mcpwasm/mcpwasm/internal/bridge"
	"github.com/mcpwasm/mcpwasm/internal/errf"
	"github.com/mcpwasm/mcpwasm/internal/js/bridge"
)

// errorJSON describes err for the glue, which turns it into an McpError
// (or, for kind "abort", the signal's reason): the bridge's classification
// (internal/bridge.ErrorInfo), after the two failures only this host has —
// the caller's AbortSignal and a JavaScript exception (a rejected fetch).
func errorJSON(err error) string {
	var e *schema.Error
	var jserr *jsbridge.Error
	switch {
	case errors.Is(err, jsbridge.ErrAborted):
		e = &schema.Error{Kind: schema.KindAbort, Code: schema.CodeRequestTimeout, Message: err.Error()}
	default:
		e = schema.ErrorInfo(err, schema.TaskStateJS)
		if e.Kind == schema.KindInternal && errf.As(err, &jserr) {
			e.Kind, e.Code = schema.KindTransport, schema.CodeConnectionClosed
		}
	}
	return string(e.AppendJSON(nil))
}
