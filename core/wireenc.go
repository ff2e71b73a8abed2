package core

import (
	"errors"
	"strconv"
	"strings"
	"unsafe"

	"github.com/mcpwasm/mcpwasm/internal/errf"
	"github.com/mcpwasm/mcpwasm/internal/jsonscan"
)

// The wire types the client sends are encoded by one table-driven encoder
// (the encoding tables are at the end of this file): the same bytes as
// json.Marshal (members in field order, omitempty, HTML-safe strings, raw
// JSON compacted), without reflection and without code per field.

var errUnsupportedValue = errors.New("core: cannot encode a value of this Go type without encoding/json (use JSON-shaped values: maps, slices, strings, numbers, booleans, json.RawMessage)")

// appendAny appends v as JSON: the values encoding/json decodes into an
// interface (and json.Number), json.RawMessage, Meta, and maps and slices
// of those, and what jsonscan.AppendValue encodes. Other Go types are an
// error (errUnsupportedValue).
func appendAny(dst []byte, v any) ([]byte, error) {
	switch x := v.(type) {
	case RawMessage:
		if x == nil {
			return append(dst, "null"...), nil
		}
		return appendRawJSON(dst, x)
	case Number:
		v = jsonscan.Number(x)
	case Meta:
		v = map[string]any(x)
	case struct{}:
		return append(dst, "{}"...), nil
	case int8:
		v = int64(x)
	case int16:
		v = int64(x)
	case uint8:
		v = uint64(x)
	case uint16:
		v = uint64(x)
	}
	switch x := v.(type) {
	case map[string]any:
		return jsonscan.AppendSortedMap(dst, x, appendAny)
	case []any:
		return jsonscan.AppendArray(dst, x, appendAny)
	}
	b, err := jsonscan.AppendValue(dst, v)
	if err != nil {
		if msg := err.Error(); strings.HasPrefix(msg, "jsonscan: unsupported value: ") {
			return dst, errors.New("json: " + strings.TrimPrefix(msg, "jsonscan: "))
		}
		if m, ok := v.(interface{ MarshalJSON() ([]byte, error) }); ok {
			return appendMarshaler(dst, m)
		}
		return dst, errUnsupportedValue
	}
	return b, nil
}

// appendMarshaler appends what m.MarshalJSON returns, checked and
// compacted (HTML-safe) as json.Marshal does with a json.Marshaler: the
// one kind of Go type beyond JSON-shaped values the encoder takes without
// reflection (the GOOS=js build has no other; elsewhere a failure here
// falls back on encoding/json, see native.go).
func appendMarshaler(dst []byte, m interface{ MarshalJSON() ([]byte, error) }) ([]byte, error) {
	raw, err := m.MarshalJSON()
	if err != nil {
		return dst, errf.Errorf("json: error calling MarshalJSON: %w", err)
	}
	out, err := jsonscan.AppendCompact(dst, raw, true)
	if err != nil {
		return dst, errors.New("json: error calling MarshalJSON: " + err.Error())
	}
	return out, nil
}

// appendRawJSON appends raw JSON as json.Marshal writes a json.RawMessage:
// compacted, HTML-safe, and an error when it is not valid JSON.
func appendRawJSON(dst, raw []byte) ([]byte, error) {
	out, err := jsonscan.AppendCompact(dst, raw, true)
	if err != nil {
		return dst, errors.New("json: error calling MarshalJSON for type json.RawMessage: " + err.Error())
	}
	return out, nil
}

// enc is the state of one encoding; the first error sticks.
type enc struct {
	b   []byte
	err error
}

func (e *enc) fail(err error) {
	if e.err == nil {
		e.err = err
	}
}

func (e *enc) null() { e.lit("null") }

// lit appends s: one call instead of an append expanded at each place.
//
//go:noinline
func (e *enc) lit(s string) { e.b = append(e.b, s...) }

// encodeStruct appends the struct of type st at p as a JSON object.
func (e *enc) encodeStruct(st *structType, p unsafe.Pointer) {
	e.lit("{")
	n := 0
	for i := range st.fields {
		f := &st.fields[i]
		q := unsafe.Add(p, f.off)
		if f.omit && isEmpty(f.kind, q) {
			continue
		}
		if n > 0 {
			e.lit(",")
		}
		n++
		e.b = jsonscan.AppendString(e.b, f.name)
		e.lit(":")
		e.value(f, q)
	}
	e.lit("}")
}

// isEmpty is encoding/json's test for omitempty, for the field kinds.
func isEmpty(k kind, q unsafe.Pointer) bool {
	switch k {
	case kString:
		return *(*string)(q) == ""
	case kBool:
		return !*(*bool)(q)
	case kInt64:
		return *(*int64)(q) == 0
	case kFloat:
		return *(*float64)(q) == 0
	case kRaw, kStrings, kPtrs, kContents, kIcons, kContentList:
		return len(*(*[]byte)(q)) == 0 // the length of any slice
	case kMeta, kMap:
		return len(*(*map[string]any)(q)) == 0
	case kStringMap:
		return len(*(*map[string]string)(q)) == 0
	case kAny:
		return *(*any)(q) == nil
	}
	return *(*unsafe.Pointer)(q) == nil // the pointer kinds
}

// value appends the field f at q.
func (e *enc) value(f *field, q unsafe.Pointer) {
	switch f.kind {
	case kBoolPtr, kInt64Ptr, kFloatPtr, kRaw, kEmpty, kPtr, kResource, kIcons:
		// The kinds whose nil is null: a pointer, or a slice whose array
		// pointer (its first word, nil exactly when the slice is) is nil.
		if *(*unsafe.Pointer)(q) == nil {
			e.null()
			return
		}
	}
	switch f.kind {
	case kString:
		e.b = jsonscan.AppendString(e.b, *(*string)(q))
	case kBoolPtr:
		q = *(*unsafe.Pointer)(q)
		fallthrough
	case kBool:
		if *(*bool)(q) {
			e.lit("true")
		} else {
			e.lit("false")
		}
	case kInt64Ptr:
		q = *(*unsafe.Pointer)(q)
		fallthrough
	case kInt64:
		e.b = strconv.AppendInt(e.b, *(*int64)(q), 10)
	case kFloatPtr:
		q = *(*unsafe.Pointer)(q)
		fallthrough
	case kFloat:
		e.any(*(*float64)(q))
	case kRaw:
		var err error
		if e.b, err = appendRawJSON(e.b, *(*RawMessage)(q)); err != nil {
			e.fail(err)
		}
	case kMeta, kMap:
		e.any(*(*map[string]any)(q))
	case kAny:
		e.any(*(*any)(q))
	case kStrings:
		e.b, _ = jsonscan.AppendValue(e.b, *(*[]string)(q))
	case kStringMap:
		e.b, _ = jsonscan.AppendValue(e.b, *(*map[string]string)(q))
	case kEmpty:
		e.lit("{}")
	case kPtr:
		q = *(*unsafe.Pointer)(q)
		fallthrough
	case kStruct:
		e.encodeStruct(f.sub, q)
	case kResource:
		e.resource(*(**ResourceContents)(q))
	case kPtrs:
		e.ptrs(*(*[]unsafe.Pointer)(q), f.sub)
	case kContents:
		e.ptrs(*(*[]unsafe.Pointer)(q), &contentEncT)
	case kContentList:
		e.contentList(*(*ContentList)(q))
	case kIcons:
		icons := *(*[]Icon)(q)
		e.lit("[")
		for i := range icons {
			if i > 0 {
				e.lit(",")
			}
			e.encodeStruct(&iconEncT, unsafe.Pointer(&icons[i]))
		}
		e.lit("]")
	}
}

func (e *enc) any(v any) {
	var err error
	if e.b, err = appendAny(e.b, v); err != nil {
		e.fail(err)
	}
}

// ptrs appends a []*T (as []unsafe.Pointer, the same layout) of the
// struct type st.
func (e *enc) ptrs(list []unsafe.Pointer, st *structType) {
	if list == nil {
		e.null()
		return
	}
	e.lit("[")
	for i, p := range list {
		if i > 0 {
			e.lit(",")
		}
		if p == nil {
			e.null()
		} else {
			e.encodeStruct(st, p)
		}
	}
	e.lit("]")
}

// resource is ResourceContents.MarshalJSON: text, or blob without text.
func (e *enc) resource(r *ResourceContents) {
	if r.Blob != "" {
		e.encodeStruct(&resBlobEncT, unsafe.Pointer(r))
	} else {
		e.encodeStruct(&resTextEncT, unsafe.Pointer(r))
	}
}

// contentList is ContentList.MarshalJSON: one block as an object,
// otherwise an array.
func (e *enc) contentList(c ContentList) {
	if len(c) == 1 {
		if c[0] == nil {
			e.null()
		} else {
			e.encodeStruct(&contentEncT, unsafe.Pointer(c[0]))
		}
		return
	}
	e.ptrs(*(*[]unsafe.Pointer)(unsafe.Pointer(&c)), &contentEncT)
}

// marshalStruct is json.Marshal of the struct of type st at p.
func marshalStruct(st *structType, p unsafe.Pointer) ([]byte, error) {
	// Room for a typical request's params: growing from nothing took
	// three allocations per tools/call.
	e := &enc{b: make([]byte, 0, 128)}
	e.encodeStruct(st, p)
	return e.b, e.err
}

// marshalImplementation is json.Marshal of an *Implementation.
func marshalImplementation(p *Implementation) ([]byte, error) {
	return marshalStruct(&implEncT, unsafe.Pointer(p))
}

// marshalClientCaps is json.Marshal of a *ClientCapabilities.
func marshalClientCaps(c *ClientCapabilities) ([]byte, error) {
	return marshalStruct(&clientCapsEncT, unsafe.Pointer(c))
}

// marshalInitializeParams is json.Marshal of an *InitializeParams.
func marshalInitializeParams(p *InitializeParams) ([]byte, error) {
	return marshalStruct(&initParamsEncT, unsafe.Pointer(p))
}

// marshalElicitResult is json.Marshal of an *ElicitResult.
func marshalElicitResult(r *ElicitResult) ([]byte, error) {
	return marshalStruct(&elicitResultEncT, unsafe.Pointer(r))
}

// marshalCreateMessageResult is json.Marshal of a *CreateMessageResult.
func marshalCreateMessageResult(r *CreateMessageResult) ([]byte, error) {
	return marshalStruct(&createResultEncT, unsafe.Pointer(r))
}

// marshalListRootsResult is json.Marshal of a *ListRootsResult.
func marshalListRootsResult(r *ListRootsResult) ([]byte, error) {
	return marshalStruct(&listRootsResultEncT, unsafe.Pointer(r))
}

// marshalListenParams encodes the params of subscriptions/listen.
func marshalListenParams(f *SubscriptionFilter) RawMessage {
	b, _ := marshalStruct(&listenEncT, unsafe.Pointer(&ListenParams{Notifications: f}))
	return b
}

// marshalPaginated is json.Marshal of a *PaginatedParams (its _meta values
// JSON-shaped, see appendAny).
func marshalPaginated(p *PaginatedParams) ([]byte, error) {
	return marshalStruct(&paginatedEncT, unsafe.Pointer(p))
}

// marshalTyped encodes the params of the library's own request methods
// that have a table (tools/call, the list methods, resources/read,
// subscribe and unsubscribe, prompts/get, completion/complete,
// logging/setLevel) without reflection: ok is false for other values, and
// for values of theirs the tables cannot write (a _meta or arguments
// value of a caller's own Go type: reflection's, see native.go). A typed
// nil is nil params.
func marshalTyped(params any) (b []byte, ok bool, err error) {
	var st *structType
	var q unsafe.Pointer
	switch p := params.(type) {
	case *CallToolParams:
		st, q = &callToolEncT, unsafe.Pointer(p)
	case *PaginatedParams:
		st, q = &paginatedEncT, unsafe.Pointer(p)
	case *ReadResourceParams:
		st, q = &readResourceEncT, unsafe.Pointer(p)
	case *SubscribeParams:
		st, q = &subscribeEncT, unsafe.Pointer(p)
	case *GetPromptParams:
		st, q = &getPromptEncT, unsafe.Pointer(p)
	case *CompleteParams:
		st, q = &completeEncT, unsafe.Pointer(p)
	case *SetLevelParams:
		st, q = &setLevelEncT, unsafe.Pointer(p)
	default:
		return nil, false, nil
	}
	if q == nil {
		return nil, true, nil
	}
	b, err = marshalStruct(st, q)
	if errors.Is(err, errUnsupportedValue) {
		return nil, false, nil
	}
	return b, true, err
}

// appendContent is json.Marshal of a *Content (null for nil).
func appendContent(dst []byte, c *Content) ([]byte, error) {
	e := &enc{b: dst}
	if c == nil {
		e.null()
	} else {
		e.encodeStruct(&contentEncT, unsafe.Pointer(c))
	}
	return e.b, e.err
}

// The encoding tables: each struct's fields in declaration order, with
// omit for the omitempty ones.

var iconEncT = structType{fields: []field{
	{name: "src", kind: kString, off: unsafe.Offsetof(Icon{}.Src)},
	{name: "mimeType", kind: kString, off: unsafe.Offsetof(Icon{}.MimeType), omit: true},
	{name: "sizes", kind: kStrings, off: unsafe.Offsetof(Icon{}.Sizes), omit: true},
	{name: "theme", kind: kString, off: unsafe.Offsetof(Icon{}.Theme), omit: true},
}}

var implEncT = structType{fields: []field{
	{name: "name", kind: kString, off: unsafe.Offsetof(Implementation{}.Name)},
	{name: "title", kind: kString, off: unsafe.Offsetof(Implementation{}.Title), omit: true},
	{name: "version", kind: kString, off: unsafe.Offsetof(Implementation{}.Version)},
	{name: "description", kind: kString, off: unsafe.Offsetof(Implementation{}.Description), omit: true},
	{name: "websiteUrl", kind: kString, off: unsafe.Offsetof(Implementation{}.WebsiteURL), omit: true},
	{name: "icons", kind: kIcons, off: unsafe.Offsetof(Implementation{}.Icons), omit: true},
}}

var rootsCapEncT = structType{fields: []field{
	{name: "listChanged", kind: kBool, off: unsafe.Offsetof(RootsCapability{}.ListChanged), omit: true},
}}

var samplingCapEncT = structType{fields: []field{
	{name: "context", kind: kEmpty, off: unsafe.Offsetof(SamplingCapability{}.Context), omit: true},
	{name: "tools", kind: kEmpty, off: unsafe.Offsetof(SamplingCapability{}.Tools), omit: true},
}}

var formCapEncT = structType{fields: []field{
	{name: "applyDefaults", kind: kBool, off: unsafe.Offsetof(FormElicitationCapability{}.ApplyDefaults), omit: true},
}}

var elicitCapEncT = structType{fields: []field{
	{name: "form", kind: kPtr, off: unsafe.Offsetof(ElicitationCapability{}.Form), sub: &formCapEncT, omit: true},
	{name: "url", kind: kEmpty, off: unsafe.Offsetof(ElicitationCapability{}.URL), omit: true},
}}

var clientCapsEncT = structType{fields: []field{
	{name: "experimental", kind: kMap, off: unsafe.Offsetof(ClientCapabilities{}.Experimental), omit: true},
	{name: "extensions", kind: kMap, off: unsafe.Offsetof(ClientCapabilities{}.Extensions), omit: true},
	{name: "roots", kind: kPtr, off: unsafe.Offsetof(ClientCapabilities{}.Roots), sub: &rootsCapEncT, omit: true},
	{name: "sampling", kind: kPtr, off: unsafe.Offsetof(ClientCapabilities{}.Sampling), sub: &samplingCapEncT, omit: true},
	{name: "elicitation", kind: kPtr, off: unsafe.Offsetof(ClientCapabilities{}.Elicitation), sub: &elicitCapEncT, omit: true},
	{name: "tasks", kind: kRaw, off: unsafe.Offsetof(ClientCapabilities{}.Tasks), omit: true},
}}

var initParamsEncT = structType{fields: []field{
	{name: "_meta", kind: kMeta, off: unsafe.Offsetof(InitializeParams{}.Meta), omit: true},
	{name: "protocolVersion", kind: kString, off: unsafe.Offsetof(InitializeParams{}.ProtocolVersion)},
	{name: "capabilities", kind: kPtr, off: unsafe.Offsetof(InitializeParams{}.Capabilities), sub: &clientCapsEncT},
	{name: "clientInfo", kind: kPtr, off: unsafe.Offsetof(InitializeParams{}.ClientInfo), sub: &implEncT},
}}

var annotationsEncT = structType{fields: []field{
	{name: "audience", kind: kStrings, off: unsafe.Offsetof(Annotations{}.Audience), omit: true},
	{name: "priority", kind: kFloatPtr, off: unsafe.Offsetof(Annotations{}.Priority), omit: true},
	{name: "lastModified", kind: kString, off: unsafe.Offsetof(Annotations{}.LastModified), omit: true},
}}

var resTextEncT = structType{fields: []field{
	{name: "uri", kind: kString, off: unsafe.Offsetof(ResourceContents{}.URI)},
	{name: "mimeType", kind: kString, off: unsafe.Offsetof(ResourceContents{}.MimeType), omit: true},
	{name: "text", kind: kString, off: unsafe.Offsetof(ResourceContents{}.Text)},
	{name: "_meta", kind: kMeta, off: unsafe.Offsetof(ResourceContents{}.Meta), omit: true},
}}

var resBlobEncT = structType{fields: []field{
	{name: "uri", kind: kString, off: unsafe.Offsetof(ResourceContents{}.URI)},
	{name: "mimeType", kind: kString, off: unsafe.Offsetof(ResourceContents{}.MimeType), omit: true},
	{name: "blob", kind: kString, off: unsafe.Offsetof(ResourceContents{}.Blob)},
	{name: "_meta", kind: kMeta, off: unsafe.Offsetof(ResourceContents{}.Meta), omit: true},
}}

var contentEncT = structType{fields: []field{
	{name: "type", kind: kString, off: unsafe.Offsetof(Content{}.Type)},
	{name: "text", kind: kString, off: unsafe.Offsetof(Content{}.Text), omit: true},
	{name: "data", kind: kString, off: unsafe.Offsetof(Content{}.Data), omit: true},
	{name: "mimeType", kind: kString, off: unsafe.Offsetof(Content{}.MimeType), omit: true},
	{name: "resource", kind: kResource, off: unsafe.Offsetof(Content{}.Resource), omit: true},
	{name: "uri", kind: kString, off: unsafe.Offsetof(Content{}.URI), omit: true},
	{name: "name", kind: kString, off: unsafe.Offsetof(Content{}.Name), omit: true},
	{name: "title", kind: kString, off: unsafe.Offsetof(Content{}.Title), omit: true},
	{name: "description", kind: kString, off: unsafe.Offsetof(Content{}.Description), omit: true},
	{name: "size", kind: kInt64Ptr, off: unsafe.Offsetof(Content{}.Size), omit: true},
	{name: "icons", kind: kIcons, off: unsafe.Offsetof(Content{}.Icons), omit: true},
	{name: "id", kind: kString, off: unsafe.Offsetof(Content{}.ID), omit: true},
	{name: "input", kind: kRaw, off: unsafe.Offsetof(Content{}.Input), omit: true},
	{name: "toolUseId", kind: kString, off: unsafe.Offsetof(Content{}.ToolUseID), omit: true},
	{name: "content", kind: kContents, off: unsafe.Offsetof(Content{}.Content), omit: true},
	{name: "structuredContent", kind: kRaw, off: unsafe.Offsetof(Content{}.StructuredContent), omit: true},
	{name: "isError", kind: kBool, off: unsafe.Offsetof(Content{}.IsError), omit: true},
	{name: "annotations", kind: kPtr, off: unsafe.Offsetof(Content{}.Annotations), sub: &annotationsEncT, omit: true},
	{name: "_meta", kind: kMeta, off: unsafe.Offsetof(Content{}.Meta), omit: true},
}}

var elicitResultEncT = structType{fields: []field{
	{name: "_meta", kind: kMeta, off: unsafe.Offsetof(ElicitResult{}.Meta), omit: true},
	{name: "action", kind: kString, off: unsafe.Offsetof(ElicitResult{}.Action)},
	{name: "content", kind: kMap, off: unsafe.Offsetof(ElicitResult{}.Content), omit: true},
}}

var createResultEncT = structType{fields: []field{
	{name: "_meta", kind: kMeta, off: unsafe.Offsetof(CreateMessageResult{}.Meta), omit: true},
	{name: "role", kind: kString, off: unsafe.Offsetof(CreateMessageResult{}.Role)},
	{name: "content", kind: kContentList, off: unsafe.Offsetof(CreateMessageResult{}.Content)},
	{name: "model", kind: kString, off: unsafe.Offsetof(CreateMessageResult{}.Model)},
	{name: "stopReason", kind: kString, off: unsafe.Offsetof(CreateMessageResult{}.StopReason), omit: true},
}}

var rootEncT = structType{fields: []field{
	{name: "uri", kind: kString, off: unsafe.Offsetof(Root{}.URI)},
	{name: "name", kind: kString, off: unsafe.Offsetof(Root{}.Name), omit: true},
	{name: "_meta", kind: kMeta, off: unsafe.Offsetof(Root{}.Meta), omit: true},
}}

var listRootsResultEncT = structType{fields: []field{
	{name: "_meta", kind: kMeta, off: unsafe.Offsetof(ListRootsResult{}.Meta), omit: true},
	{name: "roots", kind: kPtrs, off: unsafe.Offsetof(ListRootsResult{}.Roots), sub: &rootEncT},
}}

var filterEncT = structType{fields: []field{
	{name: "toolsListChanged", kind: kBool, off: unsafe.Offsetof(SubscriptionFilter{}.ToolsListChanged), omit: true},
	{name: "promptsListChanged", kind: kBool, off: unsafe.Offsetof(SubscriptionFilter{}.PromptsListChanged), omit: true},
	{name: "resourcesListChanged", kind: kBool, off: unsafe.Offsetof(SubscriptionFilter{}.ResourcesListChanged), omit: true},
	{name: "resourceSubscriptions", kind: kStrings, off: unsafe.Offsetof(SubscriptionFilter{}.ResourceSubscriptions), omit: true},
	{name: "taskIds", kind: kStrings, off: unsafe.Offsetof(SubscriptionFilter{}.TaskIDs), omit: true},
}}

var listenEncT = structType{fields: []field{
	{name: "_meta", kind: kMeta, off: unsafe.Offsetof(ListenParams{}.Meta), omit: true},
	{name: "notifications", kind: kPtr, off: unsafe.Offsetof(ListenParams{}.Notifications), sub: &filterEncT},
}}

var paginatedEncT = structType{fields: []field{
	{name: "_meta", kind: kMeta, off: unsafe.Offsetof(PaginatedParams{}.Meta), omit: true},
	{name: "cursor", kind: kString, off: unsafe.Offsetof(PaginatedParams{}.Cursor), omit: true},
}}

var readResourceEncT = structType{fields: []field{
	{name: "_meta", kind: kMeta, off: unsafe.Offsetof(ReadResourceParams{}.Meta), omit: true},
	{name: "uri", kind: kString, off: unsafe.Offsetof(ReadResourceParams{}.URI)},
}}

var subscribeEncT = structType{fields: []field{
	{name: "_meta", kind: kMeta, off: unsafe.Offsetof(SubscribeParams{}.Meta), omit: true},
	{name: "uri", kind: kString, off: unsafe.Offsetof(SubscribeParams{}.URI)},
}}

var setLevelEncT = structType{fields: []field{
	{name: "_meta", kind: kMeta, off: unsafe.Offsetof(SetLevelParams{}.Meta), omit: true},
	{name: "level", kind: kString, off: unsafe.Offsetof(SetLevelParams{}.Level)},
}}

var getPromptEncT = structType{fields: []field{
	{name: "_meta", kind: kMeta, off: unsafe.Offsetof(GetPromptParams{}.Meta), omit: true},
	{name: "name", kind: kString, off: unsafe.Offsetof(GetPromptParams{}.Name)},
	{name: "arguments", kind: kStringMap, off: unsafe.Offsetof(GetPromptParams{}.Arguments), omit: true},
}}

var completeRefEncT = structType{fields: []field{
	{name: "type", kind: kString, off: unsafe.Offsetof(CompleteReference{}.Type)},
	{name: "name", kind: kString, off: unsafe.Offsetof(CompleteReference{}.Name), omit: true},
	{name: "uri", kind: kString, off: unsafe.Offsetof(CompleteReference{}.URI), omit: true},
}}

var completeArgEncT = structType{fields: []field{
	{name: "name", kind: kString, off: unsafe.Offsetof(CompleteArgument{}.Name)},
	{name: "value", kind: kString, off: unsafe.Offsetof(CompleteArgument{}.Value)},
}}

var completeCtxEncT = structType{fields: []field{
	{name: "arguments", kind: kStringMap, off: unsafe.Offsetof(CompleteContext{}.Arguments), omit: true},
}}

var completeEncT = structType{fields: []field{
	{name: "_meta", kind: kMeta, off: unsafe.Offsetof(CompleteParams{}.Meta), omit: true},
	{name: "ref", kind: kStruct, off: unsafe.Offsetof(CompleteParams{}.Ref), sub: &completeRefEncT},
	{name: "argument", kind: kStruct, off: unsafe.Offsetof(CompleteParams{}.Argument), sub: &completeArgEncT},
	{name: "context", kind: kPtr, off: unsafe.Offsetof(CompleteParams{}.Context), sub: &completeCtxEncT, omit: true},
}}

var callToolEncT = structType{fields: []field{
	{name: "_meta", kind: kMeta, off: unsafe.Offsetof(CallToolParams{}.Meta), omit: true},
	{name: "name", kind: kString, off: unsafe.Offsetof(CallToolParams{}.Name)},
	{name: "arguments", kind: kAny, off: unsafe.Offsetof(CallToolParams{}.Arguments), omit: true},
}}
