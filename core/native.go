package core

import (
	"errors"

	"github.com/mcpwasm/mcpwasm/internal/errf"
	"github.com/mcpwasm/mcpwasm/internal/jsonscan"
	"github.com/mcpwasm/mcpwasm/internal/rawjson"
)

// This file holds package core's only reflection-based encoding: the
// generic entry points that take the caller's arbitrary Go values
// (Session.Request, Notify, CallTool, CallToolAsTask and the typed list
// methods' params; CallOptions.Meta values; CallToolResult.DecodeStructured)
// fall back on rawjson.Marshal and Unmarshal — encoding/json's — for values
// the hand-written encoders do not know (structs, named types). Everything
// else, and everything the JavaScript and WASI hosts call (RequestRaw,
// NotifyRaw, CallToolRaw, CallToolAsTaskRaw), encodes and decodes without
// reflection. In the GOOS=js build, which does not import encoding/json
// (internal/rawjson, docs/size.md), the fallback takes values with
// MarshalJSON or UnmarshalJSON methods and JSON-shaped values (maps,
// slices, strings, numbers, booleans, nil), and reports other Go types as
// unsupported (an error wrapping rawjson.ErrUnsupported).

// jsonMarshal is json.Marshal, for the generic entry points only (see the
// file comment for GOOS=js).
func jsonMarshal(v any) ([]byte, error) {
	if rawjson.Reflection {
		return rawjson.Marshal(v)
	}
	// GOOS=js: the hand-written encoder's own cases (JSON-shaped values,
	// RawMessage, a json.Marshaler) are all there is.
	b, err := appendAny(nil, v)
	if errors.Is(err, errUnsupportedValue) {
		return nil, errf.Errorf("core: encoding a value of this Go type: %w", rawjson.ErrUnsupported)
	}
	return b, err
}

// jsonUnmarshal is json.Unmarshal, for DecodeStructured only (see the file
// comment for GOOS=js).
func jsonUnmarshal(data []byte, v any) error {
	err := rawjson.Unmarshal(data, v)
	if !errors.Is(err, rawjson.ErrUnsupported) {
		return err
	}
	switch p := v.(type) {
	case *any:
		x, derr := jsonscan.Decode(data)
		if derr == nil {
			*p = x
		}
		return derr
	case *map[string]any:
		x, derr := jsonscan.Decode(data)
		if derr != nil {
			return derr
		}
		m, ok := x.(map[string]any)
		if !ok && x != nil {
			return errf.Errorf("core: decoding into a map: the JSON value is not an object")
		}
		*p = m
		return nil
	}
	return errf.Errorf("core: decoding into a value of this Go type: %w", err)
}

// marshalParams encodes the params of a generic entry point: by hand for
// the common shapes and the typed params of the library's own methods
// (the same bytes as json.Marshal), with encoding/json for anything else.
func marshalParams(params any) (RawMessage, error) {
	switch p := params.(type) {
	case nil:
		return nil, nil
	case RawMessage:
		return p, nil
	case []byte:
		return RawMessage(p), nil
	}
	if b, ok, err := marshalTyped(params); ok {
		if err != nil {
			// A value no encoder writes (NaN, invalid raw JSON):
			// encoding/json fails on it the same way.
			return nil, errf.Errorf("core: encoding params: %w", err)
		}
		return b, nil
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
