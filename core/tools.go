package core

import (
	"bytes"
	"errors"
	"math"
	"strconv"
	"strings"
	"sync"

	"github.com/mcpwasm/mcpwasm/internal/errf"
	"github.com/mcpwasm/mcpwasm/internal/jsonscan"
	"github.com/mcpwasm/mcpwasm/internal/jsonschema"
	"github.com/mcpwasm/mcpwasm/internal/order"
	"github.com/mcpwasm/mcpwasm/internal/wire"
)

// toolInfo is what the session remembers of a listed tool.
type toolInfo struct {
	headers      []headerSpec
	repeatable   bool // annotations say readOnlyHint or idempotentHint (RetryPolicy)
	outputSchema RawMessage
	taskRequired bool // execution.taskSupport "required" (2025-11-25)

	once     sync.Once
	compiled *jsonschema.Schema
	err      error
}

func (t *toolInfo) schema(s *Session) (*jsonschema.Schema, error) {
	t.once.Do(func() { t.compiled, t.err = jsonschema.CompileWith(t.outputSchema, s.schemaOptions()) })
	return t.compiled, t.err
}

// headerSpec is one x-mcp-header annotation: the property path and the
// header name suffix.
type headerSpec struct {
	path []string
	name string
}

func (s *Session) toolInfo(name string) *toolInfo {
	s.mu.Lock()
	v := s.tools[name]
	s.mu.Unlock()
	return v
}

// registerTools remembers the tools of a tools/list page and, on header
// mirroring transports, drops tools with invalid x-mcp-header annotations.
func (s *Session) registerTools(result RawMessage) (RawMessage, error) {
	ms, err := objectMembers(result)
	if err != nil {
		return nil, wrapWhat(ErrInvalidResult, "tools/list", err)
	}
	list, err := toolList(getMember(ms, "tools"))
	if err != nil {
		return nil, wrapWhat(ErrInvalidResult, "tools/list: tools is not an array", err)
	}
	kept := make([][]byte, 0, len(list))
	infos := make(map[string]*toolInfo, len(list))
	for _, raw := range list {
		t, err := decodeToolEntry(raw)
		if err != nil || t.Name == "" {
			s.warn(errf.Errorf("%w: tools/list: dropping a malformed tool definition %.60s", ErrInvalidResult, string(raw)))
			continue
		}
		info := &toolInfo{outputSchema: t.OutputSchema, taskRequired: taskSupportRequired(t.Execution)}
		if a := t.Annotations; a != nil {
			info.repeatable = a.ReadOnlyHint || a.IdempotentHint
		}
		if s.mirrors {
			info.headers, err = headerSpecs(t.InputSchema)
			if err != nil {
				s.warn(&HeaderError{Tool: t.Name, Reason: err.Error()})
				continue
			}
		}
		infos[t.Name] = info
		kept = append(kept, raw)
	}
	s.mu.Lock()
	for name, info := range infos {
		s.tools[name] = info
	}
	s.mu.Unlock()
	if len(kept) == len(list) {
		return result, nil
	}
	var arr bytes.Buffer
	arr.WriteByte('[')
	for i, raw := range kept {
		if i > 0 {
			arr.WriteByte(',')
		}
		arr.Write(raw)
	}
	arr.WriteByte(']')
	ms = setMembers(ms, jsonscan.Member{Key: "tools", Val: arr.Bytes()})
	return appendObject(nil, ms), nil
}

// schemaKeywords are the keywords whose values are subschemas (or maps or
// arrays of them). Anything else is data and is not searched.
var (
	schemaValued = []string{"items", "additionalProperties", "not", "if", "then", "else", "contains", "propertyNames", "unevaluatedItems", "unevaluatedProperties", "additionalItems"}
	schemaMaps   = []string{"patternProperties", "$defs", "definitions", "dependentSchemas", "dependencies"}
	schemaArrays = []string{"allOf", "anyOf", "oneOf", "prefixItems", "items"}
)

// headerSpecs validates the x-mcp-header annotations of an inputSchema
// (2026-07-28 Streamable HTTP) and returns them.
func headerSpecs(schema RawMessage) ([]headerSpec, error) {
	if len(schema) == 0 || !bytes.Contains(schema, []byte("x-mcp-header")) {
		return nil, nil
	}
	root, err := jsonscan.Decode(schema)
	if err != nil {
		return nil, errf.Errorf("inputSchema is not JSON: %v", err)
	}
	var specs []headerSpec
	var walk func(node any, path []string, static bool) error
	walk = func(node any, path []string, static bool) error {
		obj, ok := node.(map[string]any)
		if !ok {
			return nil
		}
		if v, ok := obj["x-mcp-header"]; ok {
			name, isStr := v.(string)
			switch {
			case !static || len(path) == 0:
				return errf.Errorf("x-mcp-header at %q is not on a property reachable through properties alone", "/"+strings.Join(path, "/"))
			case !isStr:
				return errf.Errorf("x-mcp-header of %q is not a string", strings.Join(path, "."))
			case name == "":
				return errf.Errorf("x-mcp-header of %q is empty", strings.Join(path, "."))
			case !wire.IsToken(name):
				return errf.Errorf("x-mcp-header %q is not a valid header field name", name)
			}
			typ, _ := obj["type"].(string)
			if typ != "string" && typ != "integer" && typ != "boolean" {
				return errf.Errorf("x-mcp-header %q is on a property of type %v; only string, integer and boolean are allowed", name, obj["type"])
			}
			for _, sp := range specs {
				if strings.EqualFold(sp.name, name) {
					return errf.Errorf("x-mcp-header %q is used twice (names are case-insensitive)", name)
				}
			}
			specs = append(specs, headerSpec{path: append([]string(nil), path...), name: name})
		}
		if props, ok := obj["properties"].(map[string]any); ok {
			keys := make([]string, 0, len(props))
			for k := range props {
				keys = append(keys, k)
			}
			order.Strings(keys)
			for _, k := range keys {
				if err := walk(props[k], append(path, k), static); err != nil {
					return err
				}
			}
		}
		for _, k := range schemaValued {
			if err := walk(obj[k], path, false); err != nil {
				return err
			}
		}
		for _, k := range schemaMaps {
			if m, ok := obj[k].(map[string]any); ok {
				for _, sub := range m {
					if err := walk(sub, path, false); err != nil {
						return err
					}
				}
			}
		}
		for _, k := range schemaArrays {
			if arr, ok := obj[k].([]any); ok {
				for _, sub := range arr {
					if err := walk(sub, path, false); err != nil {
						return err
					}
				}
			}
		}
		return nil
	}
	if err := walk(root, nil, true); err != nil {
		return nil, err
	}
	return specs, nil
}

// mirroredHeaders computes the Mcp-Method, Mcp-Name and Mcp-Param-*
// headers of a modern HTTP request.
func (s *Session) mirroredHeaders(method string, user []jsonscan.Member) ([]Header, error) {
	hs := make([]Header, 1, 2)
	hs[0] = Header{"Mcp-Method", method}
	var name string
	switch method {
	case MethodCallTool, MethodGetPrompt:
		name = stringMember(user, "name")
	case MethodReadResource:
		name = stringMember(user, "uri")
	case MethodGetTask, MethodUpdateTask, MethodCancelTask:
		name = stringMember(user, "taskId")
	default:
		return hs, nil
	}
	hs = append(hs, Header{"Mcp-Name", wire.EncodeHeaderValue(name)})
	if method != MethodCallTool {
		return hs, nil
	}
	info := s.toolInfo(name)
	if info == nil || len(info.headers) == 0 {
		return hs, nil
	}
	args := getMember(user, "arguments")
	if len(args) == 0 {
		return hs, nil
	}
	root, err := jsonscan.DecodeWith(args, &jsonscan.DecodeOptions{UseNumber: true})
	if err != nil {
		return nil, wrapWhat(errBadParams, "tools/call arguments", err)
	}
	for _, sp := range info.headers {
		v, ok := lookupPath(root, sp.path)
		if !ok {
			continue
		}
		text, ok := headerText(v)
		if !ok {
			continue
		}
		hs = append(hs, Header{"Mcp-Param-" + sp.name, wire.EncodeHeaderValue(text)})
	}
	return hs, nil
}

func lookupPath(v any, path []string) (any, bool) {
	for _, k := range path {
		obj, ok := v.(map[string]any)
		if !ok {
			return nil, false
		}
		if v, ok = obj[k]; !ok {
			return nil, false
		}
	}
	return v, v != nil
}

// headerText converts a primitive argument to its header representation.
func headerText(v any) (string, bool) {
	switch v := v.(type) {
	case string:
		return v, true
	case bool:
		return strconv.FormatBool(v), true
	case jsonscan.Number:
		if i, err := v.Int64(); err == nil {
			return strconv.FormatInt(i, 10), true
		}
		f, err := v.Float64()
		if err != nil || math.IsInf(f, 0) {
			return "", false
		}
		if f == math.Trunc(f) && math.Abs(f) <= 1<<53-1 {
			return strconv.FormatInt(int64(f), 10), true
		}
		return v.String(), true
	}
	return "", false
}

// validateOutput checks structuredContent against the tool's outputSchema.
func (s *Session) validateOutput(tool string, result RawMessage) error {
	info := s.toolInfo(tool)
	if info == nil || len(info.outputSchema) == 0 || string(info.outputSchema) == "null" {
		return nil
	}
	var r outputCheck
	err := decodeShape(result, &r)
	if err != nil {
		return wrapWhat(ErrInvalidResult, "tools/call", err)
	}
	if r.IsError {
		return nil
	}
	if len(r.StructuredContent) == 0 {
		return &OutputSchemaError{Tool: tool, Err: errors.New("the tool declares an outputSchema but returned no structuredContent")}
	}
	sch, err := info.schema(s)
	if err != nil {
		s.warn(strErr("core: tool %q has an unusable outputSchema, not validating: %w", tool, err))
		return nil
	}
	if err := sch.ValidateJSON(r.StructuredContent); err != nil {
		return &OutputSchemaError{Tool: tool, Err: err}
	}
	return nil
}

// toolList splits the tools member of a tools/list result as json.Unmarshal
// into a []json.RawMessage would: absent is an error, null no tools.
func toolList(v []byte) ([][]byte, error) {
	v = jsonscan.TrimSpace(v)
	switch {
	case len(v) == 0:
		return nil, jsonscan.ErrEmpty
	case jsonscan.IsNullLiteral(v):
		return nil, nil
	case v[0] != '[':
		return nil, errors.New("json: cannot unmarshal " + jsonscan.KindName(v) + " into Go value of type []json.RawMessage")
	}
	return jsonscan.Elements(v)
}
