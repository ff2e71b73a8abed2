package core

import (
	"errors"
	"unsafe"

	"github.com/mcpwasm/mcpwasm/internal/jsonscan"
)

// This file lets the JavaScript and WASI hosts move core's wire types to
// and from JSON without encoding/json (which they keep out of their
// modules, see docs/size.md), with the bytes and values json.Marshal and
// json.Unmarshal give.

// ErrNotWireType is returned by AppendWireJSON and DecodeWireJSON for a
// value of a type they do not handle.
var ErrNotWireType = errors.New("core: not a wire type AppendWireJSON or DecodeWireJSON handles")

// AppendWireJSON appends the JSON encoding of v, a pointer to one of
// Implementation, ServerCapabilities, SubscriptionFilter, LoggingMessageParams,
// ProgressParams, ResourceUpdatedParams, ElicitationCompleteParams,
// CreateMessageParams, ElicitParams, ListRootsParams, CreateMessageResult,
// ElicitResult, ListRootsResult, CallToolResult or CallToolParams, to dst: what
// json.Marshal(v) gives (a nil pointer is null). Values of interface type
// inside (Meta, arguments, progress tokens) must be JSON-shaped: maps,
// slices, strings, numbers, booleans, nil, json.RawMessage, json.Number.
// It is safe for concurrent use.
func AppendWireJSON(dst []byte, v any) ([]byte, error) {
	var st *structType
	var p unsafe.Pointer
	switch x := v.(type) {
	case *Implementation:
		st, p = &implEncT, unsafe.Pointer(x)
	case *ServerCapabilities:
		st, p = &serverCapsEncT, unsafe.Pointer(x)
	case *SubscriptionFilter:
		st, p = &filterEncT, unsafe.Pointer(x)
	case *LoggingMessageParams:
		st, p = &loggingEncT, unsafe.Pointer(x)
	case *ProgressParams:
		st, p = &progressEncT, unsafe.Pointer(x)
	case *ResourceUpdatedParams:
		st, p = &resUpdatedEncT, unsafe.Pointer(x)
	case *ElicitationCompleteParams:
		st, p = &elicitCompleteEncT, unsafe.Pointer(x)
	case *CreateMessageParams:
		st, p = &createParamsEncT, unsafe.Pointer(x)
	case *ElicitParams:
		st, p = &elicitParamsEncT, unsafe.Pointer(x)
	case *ListRootsParams:
		st, p = &listRootsParamsEncT, unsafe.Pointer(x)
	case *CreateMessageResult:
		st, p = &createResultEncT, unsafe.Pointer(x)
	case *ElicitResult:
		st, p = &elicitResultEncT, unsafe.Pointer(x)
	case *ListRootsResult:
		st, p = &listRootsResultEncT, unsafe.Pointer(x)
	case *CallToolResult:
		st, p = &callResultEncT, unsafe.Pointer(x)
	case *CallToolParams:
		st, p = &callToolEncT, unsafe.Pointer(x)
	default:
		return dst, ErrNotWireType
	}
	if p == nil {
		return append(dst, "null"...), nil
	}
	e := &enc{b: dst}
	e.encodeStruct(st, p)
	return e.b, e.err
}

// DecodeWireJSON decodes data into v, a pointer to one of Implementation,
// SubscriptionFilter, PaginatedParams, CallToolParams, CreateMessageResult,
// ElicitResult, ListRootsResult, Root or []*Root, as json.Unmarshal(data, v)
// does: the same values, and the same error texts for members of the wrong
// kind. It is safe for concurrent use.
func DecodeWireJSON(data []byte, v any) error {
	var st *structType
	var p unsafe.Pointer
	switch x := v.(type) {
	case *Implementation:
		st, p = &implT, unsafe.Pointer(x)
	case *SubscriptionFilter:
		st, p = &filterT, unsafe.Pointer(x)
	case *PaginatedParams:
		st, p = &paginatedT, unsafe.Pointer(x)
	case *CallToolParams:
		st, p = &callToolT, unsafe.Pointer(x)
	case *CreateMessageResult:
		st, p = &createResultT, unsafe.Pointer(x)
	case *ElicitResult:
		st, p = &elicitResultT, unsafe.Pointer(x)
	case *ListRootsResult:
		st, p = &listRootsResultT, unsafe.Pointer(x)
	case *Root:
		st, p = &rootT, unsafe.Pointer(x)
	case *[]*Root:
		if err := jsonscan.CheckDocument(data); err != nil {
			return err
		}
		d := newDec()
		d.ptrs((*[]unsafe.Pointer)(unsafe.Pointer(x)), jsonscan.TrimSpace(data), &rootT, "[]*core.Root")
		return d.Err
	default:
		return ErrNotWireType
	}
	return decodeAs(data, st, p)
}

var serverCapsEncT = structType{fields: []field{
	{name: "experimental", kind: kMap, off: unsafe.Offsetof(ServerCapabilities{}.Experimental), omit: true},
	{name: "extensions", kind: kMap, off: unsafe.Offsetof(ServerCapabilities{}.Extensions), omit: true},
	{name: "logging", kind: kEmpty, off: unsafe.Offsetof(ServerCapabilities{}.Logging), omit: true},
	{name: "completions", kind: kEmpty, off: unsafe.Offsetof(ServerCapabilities{}.Completions), omit: true},
	{name: "prompts", kind: kPtr, off: unsafe.Offsetof(ServerCapabilities{}.Prompts), sub: &listChangedEncT, omit: true},
	{name: "resources", kind: kPtr, off: unsafe.Offsetof(ServerCapabilities{}.Resources), sub: &resourcesCapEncT, omit: true},
	{name: "tools", kind: kPtr, off: unsafe.Offsetof(ServerCapabilities{}.Tools), sub: &listChangedEncT, omit: true},
	{name: "tasks", kind: kRaw, off: unsafe.Offsetof(ServerCapabilities{}.Tasks), omit: true},
}}

var listChangedEncT = structType{fields: []field{
	{name: "listChanged", kind: kBool, off: unsafe.Offsetof(ListChangedCapability{}.ListChanged), omit: true},
}}

var resourcesCapEncT = structType{fields: []field{
	{name: "subscribe", kind: kBool, off: unsafe.Offsetof(ResourcesCapability{}.Subscribe), omit: true},
	{name: "listChanged", kind: kBool, off: unsafe.Offsetof(ResourcesCapability{}.ListChanged), omit: true},
}}

var loggingEncT = structType{fields: []field{
	{name: "_meta", kind: kMeta, off: unsafe.Offsetof(LoggingMessageParams{}.Meta), omit: true},
	{name: "level", kind: kString, off: unsafe.Offsetof(LoggingMessageParams{}.Level)},
	{name: "logger", kind: kString, off: unsafe.Offsetof(LoggingMessageParams{}.Logger), omit: true},
	{name: "data", kind: kRaw, off: unsafe.Offsetof(LoggingMessageParams{}.Data)},
}}

var progressEncT = structType{fields: []field{
	{name: "_meta", kind: kMeta, off: unsafe.Offsetof(ProgressParams{}.Meta), omit: true},
	{name: "progressToken", kind: kAny, off: unsafe.Offsetof(ProgressParams{}.ProgressToken)},
	{name: "progress", kind: kFloat, off: unsafe.Offsetof(ProgressParams{}.Progress)},
	{name: "total", kind: kFloatPtr, off: unsafe.Offsetof(ProgressParams{}.Total), omit: true},
	{name: "message", kind: kString, off: unsafe.Offsetof(ProgressParams{}.Message), omit: true},
}}

var resUpdatedEncT = structType{fields: []field{
	{name: "_meta", kind: kMeta, off: unsafe.Offsetof(ResourceUpdatedParams{}.Meta), omit: true},
	{name: "uri", kind: kString, off: unsafe.Offsetof(ResourceUpdatedParams{}.URI)},
}}

var elicitCompleteEncT = structType{fields: []field{
	{name: "_meta", kind: kMeta, off: unsafe.Offsetof(ElicitationCompleteParams{}.Meta), omit: true},
	{name: "elicitationId", kind: kString, off: unsafe.Offsetof(ElicitationCompleteParams{}.ElicitationID)},
}}

var toolAnnEncT = structType{fields: []field{
	{name: "title", kind: kString, off: unsafe.Offsetof(ToolAnnotations{}.Title), omit: true},
	{name: "readOnlyHint", kind: kBoolPtr, off: unsafe.Offsetof(ToolAnnotations{}.ReadOnlyHint), omit: true},
	{name: "destructiveHint", kind: kBoolPtr, off: unsafe.Offsetof(ToolAnnotations{}.DestructiveHint), omit: true},
	{name: "idempotentHint", kind: kBoolPtr, off: unsafe.Offsetof(ToolAnnotations{}.IdempotentHint), omit: true},
	{name: "openWorldHint", kind: kBoolPtr, off: unsafe.Offsetof(ToolAnnotations{}.OpenWorldHint), omit: true},
}}

var toolEncT = structType{fields: []field{
	{name: "name", kind: kString, off: unsafe.Offsetof(Tool{}.Name)},
	{name: "title", kind: kString, off: unsafe.Offsetof(Tool{}.Title), omit: true},
	{name: "description", kind: kString, off: unsafe.Offsetof(Tool{}.Description), omit: true},
	{name: "inputSchema", kind: kRaw, off: unsafe.Offsetof(Tool{}.InputSchema)},
	{name: "outputSchema", kind: kRaw, off: unsafe.Offsetof(Tool{}.OutputSchema), omit: true},
	{name: "annotations", kind: kPtr, off: unsafe.Offsetof(Tool{}.Annotations), sub: &toolAnnEncT, omit: true},
	{name: "execution", kind: kRaw, off: unsafe.Offsetof(Tool{}.Execution), omit: true},
	{name: "icons", kind: kIcons, off: unsafe.Offsetof(Tool{}.Icons), omit: true},
	{name: "_meta", kind: kMeta, off: unsafe.Offsetof(Tool{}.Meta), omit: true},
}}

var samplingMsgEncT = structType{fields: []field{
	{name: "role", kind: kString, off: unsafe.Offsetof(SamplingMessage{}.Role)},
	{name: "content", kind: kContentList, off: unsafe.Offsetof(SamplingMessage{}.Content)},
	{name: "_meta", kind: kMeta, off: unsafe.Offsetof(SamplingMessage{}.Meta), omit: true},
}}

var modelHintEncT = structType{fields: []field{
	{name: "name", kind: kString, off: unsafe.Offsetof(ModelHint{}.Name), omit: true},
}}

var modelPrefsEncT = structType{fields: []field{
	{name: "hints", kind: kPtrs, off: unsafe.Offsetof(ModelPreferences{}.Hints), sub: &modelHintEncT, omit: true},
	{name: "costPriority", kind: kFloatPtr, off: unsafe.Offsetof(ModelPreferences{}.CostPriority), omit: true},
	{name: "speedPriority", kind: kFloatPtr, off: unsafe.Offsetof(ModelPreferences{}.SpeedPriority), omit: true},
	{name: "intelligencePriority", kind: kFloatPtr, off: unsafe.Offsetof(ModelPreferences{}.IntelligencePriority), omit: true},
}}

var toolChoiceEncT = structType{fields: []field{
	{name: "mode", kind: kString, off: unsafe.Offsetof(ToolChoice{}.Mode), omit: true},
}}

var createParamsEncT = structType{fields: []field{
	{name: "_meta", kind: kMeta, off: unsafe.Offsetof(CreateMessageParams{}.Meta), omit: true},
	{name: "messages", kind: kPtrs, off: unsafe.Offsetof(CreateMessageParams{}.Messages), sub: &samplingMsgEncT},
	{name: "modelPreferences", kind: kPtr, off: unsafe.Offsetof(CreateMessageParams{}.ModelPreferences), sub: &modelPrefsEncT, omit: true},
	{name: "systemPrompt", kind: kString, off: unsafe.Offsetof(CreateMessageParams{}.SystemPrompt), omit: true},
	{name: "includeContext", kind: kString, off: unsafe.Offsetof(CreateMessageParams{}.IncludeContext), omit: true},
	{name: "temperature", kind: kFloatPtr, off: unsafe.Offsetof(CreateMessageParams{}.Temperature), omit: true},
	{name: "maxTokens", kind: kInt64, off: unsafe.Offsetof(CreateMessageParams{}.MaxTokens)},
	{name: "stopSequences", kind: kStrings, off: unsafe.Offsetof(CreateMessageParams{}.StopSequences), omit: true},
	{name: "metadata", kind: kRaw, off: unsafe.Offsetof(CreateMessageParams{}.Metadata), omit: true},
	{name: "tools", kind: kPtrs, off: unsafe.Offsetof(CreateMessageParams{}.Tools), sub: &toolEncT, omit: true},
	{name: "toolChoice", kind: kPtr, off: unsafe.Offsetof(CreateMessageParams{}.ToolChoice), sub: &toolChoiceEncT, omit: true},
}}

var elicitParamsEncT = structType{fields: []field{
	{name: "_meta", kind: kMeta, off: unsafe.Offsetof(ElicitParams{}.Meta), omit: true},
	{name: "mode", kind: kString, off: unsafe.Offsetof(ElicitParams{}.Mode), omit: true},
	{name: "message", kind: kString, off: unsafe.Offsetof(ElicitParams{}.Message)},
	{name: "requestedSchema", kind: kRaw, off: unsafe.Offsetof(ElicitParams{}.RequestedSchema), omit: true},
	{name: "url", kind: kString, off: unsafe.Offsetof(ElicitParams{}.URL), omit: true},
	{name: "elicitationId", kind: kString, off: unsafe.Offsetof(ElicitParams{}.ElicitationID), omit: true},
}}

var listRootsParamsEncT = structType{fields: []field{
	{name: "_meta", kind: kMeta, off: unsafe.Offsetof(ListRootsParams{}.Meta), omit: true},
}}

var callResultEncT = structType{fields: []field{
	{name: "_meta", kind: kMeta, off: unsafe.Offsetof(CallToolResult{}.Meta), omit: true},
	{name: "resultType", kind: kString, off: unsafe.Offsetof(CallToolResult{}.ResultType), omit: true},
	{name: "content", kind: kContents, off: unsafe.Offsetof(CallToolResult{}.Content)},
	{name: "structuredContent", kind: kRaw, off: unsafe.Offsetof(CallToolResult{}.StructuredContent), omit: true},
	{name: "isError", kind: kBool, off: unsafe.Offsetof(CallToolResult{}.IsError), omit: true},
}}

// Decoding tables of the types only the hosts read.

var paginatedT = structType{typ: "core.PaginatedParams", short: "PaginatedParams", fields: []field{
	{name: "_meta", kind: kMeta, off: unsafe.Offsetof(PaginatedParams{}.Meta)},
	{name: "cursor", kind: kString, off: unsafe.Offsetof(PaginatedParams{}.Cursor)},
}}

var callToolT = structType{typ: "core.CallToolParams", short: "CallToolParams", fields: []field{
	{name: "_meta", kind: kMeta, off: unsafe.Offsetof(CallToolParams{}.Meta)},
	{name: "name", kind: kString, off: unsafe.Offsetof(CallToolParams{}.Name)},
	{name: "arguments", kind: kAny, off: unsafe.Offsetof(CallToolParams{}.Arguments)},
}}

var createResultT = structType{typ: "core.CreateMessageResult", short: "CreateMessageResult", fields: []field{
	{name: "_meta", kind: kMeta, off: unsafe.Offsetof(CreateMessageResult{}.Meta)},
	{name: "role", kind: kString, off: unsafe.Offsetof(CreateMessageResult{}.Role)},
	{name: "content", kind: kContentList, off: unsafe.Offsetof(CreateMessageResult{}.Content)},
	{name: "model", kind: kString, off: unsafe.Offsetof(CreateMessageResult{}.Model)},
	{name: "stopReason", kind: kString, off: unsafe.Offsetof(CreateMessageResult{}.StopReason)},
}}

var elicitResultT = structType{typ: "core.ElicitResult", short: "ElicitResult", fields: []field{
	{name: "_meta", kind: kMeta, off: unsafe.Offsetof(ElicitResult{}.Meta)},
	{name: "action", kind: kString, off: unsafe.Offsetof(ElicitResult{}.Action)},
	{name: "content", kind: kMap, off: unsafe.Offsetof(ElicitResult{}.Content)},
}}

var rootT = structType{typ: "core.Root", short: "Root", alloc: func() unsafe.Pointer { return unsafe.Pointer(new(Root)) }, fields: []field{
	{name: "uri", kind: kString, off: unsafe.Offsetof(Root{}.URI)},
	{name: "name", kind: kString, off: unsafe.Offsetof(Root{}.Name)},
	{name: "_meta", kind: kMeta, off: unsafe.Offsetof(Root{}.Meta)},
}}

var listRootsResultT = structType{typ: "core.ListRootsResult", short: "ListRootsResult", fields: []field{
	{name: "_meta", kind: kMeta, off: unsafe.Offsetof(ListRootsResult{}.Meta)},
	{name: "roots", kind: kPtrs, off: unsafe.Offsetof(ListRootsResult{}.Roots), sub: &rootT, styp: "[]*core.Root"},
}}
