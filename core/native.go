package core

import (
	"encoding/json"

	"github.com/mcpwasm/mcpwasm/internal/errf"
)

// This file holds package core's only calls into encoding/json: the
// generic entry points that take the caller's arbitrary Go values
// (Session.Request, Notify, CallTool, CallToolAsTask and the typed list
// methods' params; CallOptions.Meta values; CallToolResult.DecodeStructured)
// fall back to it for values the hand-written encoders do not know
// (structs, named types). Everything else, and everything the JavaScript
// and WASI hosts call (RequestRaw, NotifyRaw, CallToolRaw,
// CallToolAsTaskRaw), encodes and decodes without reflection, so that
// encoding/json stays out of the WebAssembly modules (docs/size.md).

// jsonMarshal is json.Marshal, for the generic entry points only.
func jsonMarshal(v any) ([]byte, error) { return json.Marshal(v) }

// jsonUnmarshal is json.Unmarshal, for DecodeStructured only.
func jsonUnmarshal(data []byte, v any) error { return json.Unmarshal(data, v) }

// marshalParams encodes the params of a generic entry point: by hand for
// the common shapes (the same bytes as json.Marshal), with encoding/json
// for anything else.
func marshalParams(params any) (json.RawMessage, error) {
	switch p := params.(type) {
	case nil:
		return nil, nil
	case json.RawMessage:
		return p, nil
	case []byte:
		return json.RawMessage(p), nil
	case *CallToolParams:
		if p == nil {
			return nil, nil
		}
		if b, err := marshalCallTool(p); err == nil {
			return b, nil
		}
	case *PaginatedParams:
		if p == nil {
			return nil, nil
		}
		if b, err := marshalPaginated(p); err == nil {
			return b, nil
		}
	}
	b, err := jsonMarshal(params)
	if err != nil {
		return nil, errf.Errorf("core: encoding params: %w", err)
	}
	if string(b) == "null" {
		return nil, nil
	}
	return b, nil
}

// nativeOpts returns opts for a request from a generic entry point: _meta
// values that are not JSON-shaped (structs, named types) are encoded with
// encoding/json, as before (see appendAny).
func nativeOpts(opts *CallOptions) *CallOptions {
	if opts == nil || len(opts.Meta) == 0 || opts.encode != nil {
		return opts
	}
	o := *opts
	o.encode = jsonMarshal
	return &o
}

// DecodeStructured decodes StructuredContent into v.
func (r *CallToolResult) DecodeStructured(v any) error {
	if len(r.StructuredContent) == 0 {
		return ErrInvalidResult
	}
	return jsonUnmarshal(r.StructuredContent, v)
}
