// The struct types the table-driven decoder (wiredec.go) knows: for each
// member, its name, how it decodes, and the offset of its field. They are
// static data (no init code) and never modified.

package core

import (
	"unsafe"

	"github.com/mcpwasm/mcpwasm/jsonrpc"
)

var iconT = structType{typ: "core.Icon", short: "Icon",
	fields: []field{
		{name: "src", kind: kString, off: unsafe.Offsetof(Icon{}.Src)},
		{name: "mimeType", kind: kString, off: unsafe.Offsetof(Icon{}.MimeType)},
		{name: "sizes", kind: kStrings, off: unsafe.Offsetof(Icon{}.Sizes)},
		{name: "theme", kind: kString, off: unsafe.Offsetof(Icon{}.Theme)},
	},
}

var implT = structType{typ: "core.Implementation", short: "Implementation",
	alloc: func() unsafe.Pointer { return unsafe.Pointer(new(Implementation)) },
	fields: []field{
		{name: "name", kind: kString, off: unsafe.Offsetof(Implementation{}.Name)},
		{name: "title", kind: kString, off: unsafe.Offsetof(Implementation{}.Title)},
		{name: "version", kind: kString, off: unsafe.Offsetof(Implementation{}.Version)},
		{name: "description", kind: kString, off: unsafe.Offsetof(Implementation{}.Description)},
		{name: "websiteUrl", kind: kString, off: unsafe.Offsetof(Implementation{}.WebsiteURL)},
		{name: "icons", kind: kIcons, off: unsafe.Offsetof(Implementation{}.Icons)},
	},
}

var listChangedT = structType{typ: "core.ListChangedCapability", short: "ListChangedCapability",
	alloc: func() unsafe.Pointer { return unsafe.Pointer(new(ListChangedCapability)) },
	fields: []field{
		{name: "listChanged", kind: kBool, off: unsafe.Offsetof(ListChangedCapability{}.ListChanged)},
	},
}

var resourcesCapT = structType{typ: "core.ResourcesCapability", short: "ResourcesCapability",
	alloc: func() unsafe.Pointer { return unsafe.Pointer(new(ResourcesCapability)) },
	fields: []field{
		{name: "subscribe", kind: kBool, off: unsafe.Offsetof(ResourcesCapability{}.Subscribe)},
		{name: "listChanged", kind: kBool, off: unsafe.Offsetof(ResourcesCapability{}.ListChanged)},
	},
}

var serverCapsT = structType{typ: "core.ServerCapabilities", short: "ServerCapabilities",
	alloc: func() unsafe.Pointer { return unsafe.Pointer(new(ServerCapabilities)) },
	fields: []field{
		{name: "experimental", kind: kMap, off: unsafe.Offsetof(ServerCapabilities{}.Experimental)},
		{name: "extensions", kind: kMap, off: unsafe.Offsetof(ServerCapabilities{}.Extensions)},
		{name: "logging", kind: kEmpty, off: unsafe.Offsetof(ServerCapabilities{}.Logging)},
		{name: "completions", kind: kEmpty, off: unsafe.Offsetof(ServerCapabilities{}.Completions)},
		{name: "prompts", kind: kPtr, off: unsafe.Offsetof(ServerCapabilities{}.Prompts), sub: &listChangedT},
		{name: "resources", kind: kPtr, off: unsafe.Offsetof(ServerCapabilities{}.Resources), sub: &resourcesCapT},
		{name: "tools", kind: kPtr, off: unsafe.Offsetof(ServerCapabilities{}.Tools), sub: &listChangedT},
		{name: "tasks", kind: kRaw, off: unsafe.Offsetof(ServerCapabilities{}.Tasks)},
	},
}

var initResultT = structType{typ: "core.InitializeResult", short: "InitializeResult",
	fields: []field{
		{name: "_meta", kind: kMeta, off: unsafe.Offsetof(InitializeResult{}.ResultInfo) + unsafe.Offsetof(ResultInfo{}.Meta), via: "ResultInfo"},
		{name: "resultType", kind: kString, off: unsafe.Offsetof(InitializeResult{}.ResultInfo) + unsafe.Offsetof(ResultInfo{}.ResultType), via: "ResultInfo"},
		{name: "protocolVersion", kind: kString, off: unsafe.Offsetof(InitializeResult{}.ProtocolVersion)},
		{name: "capabilities", kind: kPtr, off: unsafe.Offsetof(InitializeResult{}.Capabilities), sub: &serverCapsT},
		{name: "serverInfo", kind: kPtr, off: unsafe.Offsetof(InitializeResult{}.ServerInfo), sub: &implT},
		{name: "instructions", kind: kString, off: unsafe.Offsetof(InitializeResult{}.Instructions)},
	},
}

var discoverT = structType{typ: "core.DiscoverResult", short: "DiscoverResult",
	fields: []field{
		{name: "_meta", kind: kMeta, off: unsafe.Offsetof(DiscoverResult{}.ResultInfo) + unsafe.Offsetof(ResultInfo{}.Meta), via: "ResultInfo"},
		{name: "resultType", kind: kString, off: unsafe.Offsetof(DiscoverResult{}.ResultInfo) + unsafe.Offsetof(ResultInfo{}.ResultType), via: "ResultInfo"},
		{name: "ttlMs", kind: kInt64Ptr, off: unsafe.Offsetof(DiscoverResult{}.CacheHints) + unsafe.Offsetof(CacheHints{}.TTLMs), via: "CacheHints"},
		{name: "cacheScope", kind: kString, off: unsafe.Offsetof(DiscoverResult{}.CacheHints) + unsafe.Offsetof(CacheHints{}.CacheScope), via: "CacheHints"},
		{name: "supportedVersions", kind: kStrings, off: unsafe.Offsetof(DiscoverResult{}.SupportedVersions)},
		{name: "capabilities", kind: kPtr, off: unsafe.Offsetof(DiscoverResult{}.Capabilities), sub: &serverCapsT},
		{name: "serverInfo", kind: kPtr, off: unsafe.Offsetof(DiscoverResult{}.ServerInfo), sub: &implT},
		{name: "instructions", kind: kString, off: unsafe.Offsetof(DiscoverResult{}.Instructions)},
	},
}

var toolAnnT = structType{typ: "core.ToolAnnotations", short: "ToolAnnotations",
	alloc: func() unsafe.Pointer { return unsafe.Pointer(new(ToolAnnotations)) },
	fields: []field{
		{name: "title", kind: kString, off: unsafe.Offsetof(ToolAnnotations{}.Title)},
		{name: "readOnlyHint", kind: kBoolPtr, off: unsafe.Offsetof(ToolAnnotations{}.ReadOnlyHint)},
		{name: "destructiveHint", kind: kBoolPtr, off: unsafe.Offsetof(ToolAnnotations{}.DestructiveHint)},
		{name: "idempotentHint", kind: kBoolPtr, off: unsafe.Offsetof(ToolAnnotations{}.IdempotentHint)},
		{name: "openWorldHint", kind: kBoolPtr, off: unsafe.Offsetof(ToolAnnotations{}.OpenWorldHint)},
	},
}

var toolT = structType{typ: "core.Tool", short: "Tool",
	alloc: func() unsafe.Pointer { return unsafe.Pointer(new(Tool)) },
	fields: []field{
		{name: "name", kind: kString, off: unsafe.Offsetof(Tool{}.Name)},
		{name: "title", kind: kString, off: unsafe.Offsetof(Tool{}.Title)},
		{name: "description", kind: kString, off: unsafe.Offsetof(Tool{}.Description)},
		{name: "inputSchema", kind: kRaw, off: unsafe.Offsetof(Tool{}.InputSchema)},
		{name: "outputSchema", kind: kRaw, off: unsafe.Offsetof(Tool{}.OutputSchema)},
		{name: "annotations", kind: kPtr, off: unsafe.Offsetof(Tool{}.Annotations), sub: &toolAnnT},
		{name: "execution", kind: kRaw, off: unsafe.Offsetof(Tool{}.Execution)},
		{name: "icons", kind: kIcons, off: unsafe.Offsetof(Tool{}.Icons)},
		{name: "_meta", kind: kMeta, off: unsafe.Offsetof(Tool{}.Meta)},
	},
}

var listToolsT = structType{typ: "core.ListToolsResult", short: "ListToolsResult",
	fields: []field{
		{name: "_meta", kind: kMeta, off: unsafe.Offsetof(ListToolsResult{}.ResultInfo) + unsafe.Offsetof(ResultInfo{}.Meta), via: "ResultInfo"},
		{name: "resultType", kind: kString, off: unsafe.Offsetof(ListToolsResult{}.ResultInfo) + unsafe.Offsetof(ResultInfo{}.ResultType), via: "ResultInfo"},
		{name: "ttlMs", kind: kInt64Ptr, off: unsafe.Offsetof(ListToolsResult{}.CacheHints) + unsafe.Offsetof(CacheHints{}.TTLMs), via: "CacheHints"},
		{name: "cacheScope", kind: kString, off: unsafe.Offsetof(ListToolsResult{}.CacheHints) + unsafe.Offsetof(CacheHints{}.CacheScope), via: "CacheHints"},
		{name: "tools", kind: kPtrs, off: unsafe.Offsetof(ListToolsResult{}.Tools), sub: &toolT, styp: "[]*core.Tool"},
		{name: "nextCursor", kind: kString, off: unsafe.Offsetof(ListToolsResult{}.NextCursor)},
	},
}

var annotationsT = structType{typ: "core.Annotations", short: "Annotations",
	alloc: func() unsafe.Pointer { return unsafe.Pointer(new(Annotations)) },
	fields: []field{
		{name: "audience", kind: kStrings, off: unsafe.Offsetof(Annotations{}.Audience)},
		{name: "priority", kind: kFloatPtr, off: unsafe.Offsetof(Annotations{}.Priority)},
		{name: "lastModified", kind: kString, off: unsafe.Offsetof(Annotations{}.LastModified)},
	},
}

var resContentsT = structType{typ: "core.ResourceContents", short: "ResourceContents",
	alloc: func() unsafe.Pointer { return unsafe.Pointer(new(ResourceContents)) },
	fields: []field{
		{name: "uri", kind: kString, off: unsafe.Offsetof(ResourceContents{}.URI)},
		{name: "mimeType", kind: kString, off: unsafe.Offsetof(ResourceContents{}.MimeType)},
		{name: "text", kind: kString, off: unsafe.Offsetof(ResourceContents{}.Text)},
		{name: "blob", kind: kString, off: unsafe.Offsetof(ResourceContents{}.Blob)},
		{name: "_meta", kind: kMeta, off: unsafe.Offsetof(ResourceContents{}.Meta)},
	},
}

var contentT = structType{typ: "core.Content", short: "Content",
	alloc: func() unsafe.Pointer { return unsafe.Pointer(new(Content)) },
	fields: []field{
		{name: "type", kind: kString, off: unsafe.Offsetof(Content{}.Type)},
		{name: "text", kind: kString, off: unsafe.Offsetof(Content{}.Text)},
		{name: "data", kind: kString, off: unsafe.Offsetof(Content{}.Data)},
		{name: "mimeType", kind: kString, off: unsafe.Offsetof(Content{}.MimeType)},
		{name: "resource", kind: kPtr, off: unsafe.Offsetof(Content{}.Resource), sub: &resContentsT},
		{name: "uri", kind: kString, off: unsafe.Offsetof(Content{}.URI)},
		{name: "name", kind: kString, off: unsafe.Offsetof(Content{}.Name)},
		{name: "title", kind: kString, off: unsafe.Offsetof(Content{}.Title)},
		{name: "description", kind: kString, off: unsafe.Offsetof(Content{}.Description)},
		{name: "size", kind: kInt64Ptr, off: unsafe.Offsetof(Content{}.Size)},
		{name: "icons", kind: kIcons, off: unsafe.Offsetof(Content{}.Icons)},
		{name: "id", kind: kString, off: unsafe.Offsetof(Content{}.ID)},
		{name: "input", kind: kRaw, off: unsafe.Offsetof(Content{}.Input)},
		{name: "toolUseId", kind: kString, off: unsafe.Offsetof(Content{}.ToolUseID)},
		{name: "content", kind: kContents, off: unsafe.Offsetof(Content{}.Content), styp: "[]*core.Content"},
		{name: "structuredContent", kind: kRaw, off: unsafe.Offsetof(Content{}.StructuredContent)},
		{name: "isError", kind: kBool, off: unsafe.Offsetof(Content{}.IsError)},
		{name: "annotations", kind: kPtr, off: unsafe.Offsetof(Content{}.Annotations), sub: &annotationsT},
		{name: "_meta", kind: kMeta, off: unsafe.Offsetof(Content{}.Meta)},
	},
}

var callResultT = structType{typ: "core.CallToolResult", short: "CallToolResult",
	fields: []field{
		{name: "_meta", kind: kMeta, off: unsafe.Offsetof(CallToolResult{}.ResultInfo) + unsafe.Offsetof(ResultInfo{}.Meta), via: "ResultInfo"},
		{name: "resultType", kind: kString, off: unsafe.Offsetof(CallToolResult{}.ResultInfo) + unsafe.Offsetof(ResultInfo{}.ResultType), via: "ResultInfo"},
		{name: "content", kind: kContents, off: unsafe.Offsetof(CallToolResult{}.Content), styp: "[]*core.Content"},
		{name: "structuredContent", kind: kRaw, off: unsafe.Offsetof(CallToolResult{}.StructuredContent)},
		{name: "isError", kind: kBool, off: unsafe.Offsetof(CallToolResult{}.IsError)},
	},
}

var rpcErrorT = structType{typ: "jsonrpc.Error", short: "Error",
	alloc: func() unsafe.Pointer { return unsafe.Pointer(new(jsonrpc.Error)) },
	fields: []field{
		{name: "code", kind: kInt64, off: unsafe.Offsetof(jsonrpc.Error{}.Code)},
		{name: "message", kind: kString, off: unsafe.Offsetof(jsonrpc.Error{}.Message)},
		{name: "data", kind: kRaw, off: unsafe.Offsetof(jsonrpc.Error{}.Data)},
	},
}

var inputReqT = structType{typ: "core.InputRequest", short: "InputRequest",
	fields: []field{
		{name: "method", kind: kString, off: unsafe.Offsetof(InputRequest{}.Method)},
		{name: "params", kind: kRaw, off: unsafe.Offsetof(InputRequest{}.Params)},
	},
}

var wireTaskT = structType{typ: "core.wireTask", short: "wireTask",
	alloc: func() unsafe.Pointer { return unsafe.Pointer(new(wireTask)) },
	fields: []field{
		{name: "taskId", kind: kString, off: unsafe.Offsetof(wireTask{}.TaskID)},
		{name: "status", kind: kString, off: unsafe.Offsetof(wireTask{}.Status)},
		{name: "statusMessage", kind: kString, off: unsafe.Offsetof(wireTask{}.StatusMessage)},
		{name: "createdAt", kind: kString, off: unsafe.Offsetof(wireTask{}.CreatedAt)},
		{name: "lastUpdatedAt", kind: kString, off: unsafe.Offsetof(wireTask{}.LastUpdatedAt)},
		{name: "ttl", kind: kInt64Ptr, off: unsafe.Offsetof(wireTask{}.TTL)},
		{name: "ttlMs", kind: kInt64Ptr, off: unsafe.Offsetof(wireTask{}.TTLMs)},
		{name: "pollInterval", kind: kInt64Ptr, off: unsafe.Offsetof(wireTask{}.PollInterval)},
		{name: "pollIntervalMs", kind: kInt64Ptr, off: unsafe.Offsetof(wireTask{}.PollIntervalMs)},
		{name: "inputRequests", kind: kInputRequests, off: unsafe.Offsetof(wireTask{}.InputRequests)},
		{name: "result", kind: kRaw, off: unsafe.Offsetof(wireTask{}.Result)},
		{name: "error", kind: kPtr, off: unsafe.Offsetof(wireTask{}.Error), sub: &rpcErrorT},
	},
}

var inputRequiredT = structType{typ: "core.inputRequiredResult", short: "inputRequiredResult",
	fields: []field{
		{name: "resultType", kind: kString, off: unsafe.Offsetof(inputRequiredResult{}.ResultType)},
		{name: "inputRequests", kind: kInputRequests, off: unsafe.Offsetof(inputRequiredResult{}.InputRequests)},
		{name: "requestState", kind: kRaw, off: unsafe.Offsetof(inputRequiredResult{}.RequestState)},
	},
}

var elicitParamsT = structType{typ: "core.ElicitParams", short: "ElicitParams",
	alloc: func() unsafe.Pointer { return unsafe.Pointer(new(ElicitParams)) },
	fields: []field{
		{name: "_meta", kind: kMeta, off: unsafe.Offsetof(ElicitParams{}.Meta)},
		{name: "mode", kind: kString, off: unsafe.Offsetof(ElicitParams{}.Mode)},
		{name: "message", kind: kString, off: unsafe.Offsetof(ElicitParams{}.Message)},
		{name: "requestedSchema", kind: kRaw, off: unsafe.Offsetof(ElicitParams{}.RequestedSchema)},
		{name: "url", kind: kString, off: unsafe.Offsetof(ElicitParams{}.URL)},
		{name: "elicitationId", kind: kString, off: unsafe.Offsetof(ElicitParams{}.ElicitationID)},
	},
}

var samplingMsgT = structType{typ: "core.SamplingMessage", short: "SamplingMessage",
	alloc: func() unsafe.Pointer { return unsafe.Pointer(new(SamplingMessage)) },
	fields: []field{
		{name: "role", kind: kString, off: unsafe.Offsetof(SamplingMessage{}.Role)},
		{name: "content", kind: kContentList, off: unsafe.Offsetof(SamplingMessage{}.Content)},
		{name: "_meta", kind: kMeta, off: unsafe.Offsetof(SamplingMessage{}.Meta)},
	},
}

var modelHintT = structType{typ: "core.ModelHint", short: "ModelHint",
	alloc: func() unsafe.Pointer { return unsafe.Pointer(new(ModelHint)) },
	fields: []field{
		{name: "name", kind: kString, off: unsafe.Offsetof(ModelHint{}.Name)},
	},
}

var modelPrefsT = structType{typ: "core.ModelPreferences", short: "ModelPreferences",
	alloc: func() unsafe.Pointer { return unsafe.Pointer(new(ModelPreferences)) },
	fields: []field{
		{name: "hints", kind: kPtrs, off: unsafe.Offsetof(ModelPreferences{}.Hints), sub: &modelHintT, styp: "[]*core.ModelHint"},
		{name: "costPriority", kind: kFloatPtr, off: unsafe.Offsetof(ModelPreferences{}.CostPriority)},
		{name: "speedPriority", kind: kFloatPtr, off: unsafe.Offsetof(ModelPreferences{}.SpeedPriority)},
		{name: "intelligencePriority", kind: kFloatPtr, off: unsafe.Offsetof(ModelPreferences{}.IntelligencePriority)},
	},
}

var toolChoiceT = structType{typ: "core.ToolChoice", short: "ToolChoice",
	alloc: func() unsafe.Pointer { return unsafe.Pointer(new(ToolChoice)) },
	fields: []field{
		{name: "mode", kind: kString, off: unsafe.Offsetof(ToolChoice{}.Mode)},
	},
}

var createMsgT = structType{typ: "core.CreateMessageParams", short: "CreateMessageParams",
	fields: []field{
		{name: "_meta", kind: kMeta, off: unsafe.Offsetof(CreateMessageParams{}.Meta)},
		{name: "messages", kind: kPtrs, off: unsafe.Offsetof(CreateMessageParams{}.Messages), sub: &samplingMsgT, styp: "[]*core.SamplingMessage"},
		{name: "modelPreferences", kind: kPtr, off: unsafe.Offsetof(CreateMessageParams{}.ModelPreferences), sub: &modelPrefsT},
		{name: "systemPrompt", kind: kString, off: unsafe.Offsetof(CreateMessageParams{}.SystemPrompt)},
		{name: "includeContext", kind: kString, off: unsafe.Offsetof(CreateMessageParams{}.IncludeContext)},
		{name: "temperature", kind: kFloatPtr, off: unsafe.Offsetof(CreateMessageParams{}.Temperature)},
		{name: "maxTokens", kind: kInt64, off: unsafe.Offsetof(CreateMessageParams{}.MaxTokens)},
		{name: "stopSequences", kind: kStrings, off: unsafe.Offsetof(CreateMessageParams{}.StopSequences)},
		{name: "metadata", kind: kRaw, off: unsafe.Offsetof(CreateMessageParams{}.Metadata)},
		{name: "tools", kind: kPtrs, off: unsafe.Offsetof(CreateMessageParams{}.Tools), sub: &toolT, styp: "[]*core.Tool"},
		{name: "toolChoice", kind: kPtr, off: unsafe.Offsetof(CreateMessageParams{}.ToolChoice), sub: &toolChoiceT},
	},
}

var listRootsT = structType{typ: "core.ListRootsParams", short: "ListRootsParams",
	fields: []field{
		{name: "_meta", kind: kMeta, off: unsafe.Offsetof(ListRootsParams{}.Meta)},
	},
}

var progressT = structType{typ: "core.ProgressParams", short: "ProgressParams",
	fields: []field{
		{name: "_meta", kind: kMeta, off: unsafe.Offsetof(ProgressParams{}.Meta)},
		{name: "progressToken", kind: kAny, off: unsafe.Offsetof(ProgressParams{}.ProgressToken)},
		{name: "progress", kind: kFloat, off: unsafe.Offsetof(ProgressParams{}.Progress)},
		{name: "total", kind: kFloatPtr, off: unsafe.Offsetof(ProgressParams{}.Total)},
		{name: "message", kind: kString, off: unsafe.Offsetof(ProgressParams{}.Message)},
	},
}

var cancelledT = structType{typ: "core.CancelledParams", short: "CancelledParams",
	fields: []field{
		{name: "_meta", kind: kMeta, off: unsafe.Offsetof(CancelledParams{}.Meta)},
		{name: "requestId", kind: kID, off: unsafe.Offsetof(CancelledParams{}.RequestID)},
		{name: "reason", kind: kString, off: unsafe.Offsetof(CancelledParams{}.Reason)},
	},
}

var filterT = structType{typ: "core.SubscriptionFilter", short: "SubscriptionFilter",
	alloc: func() unsafe.Pointer { return unsafe.Pointer(new(SubscriptionFilter)) },
	fields: []field{
		{name: "toolsListChanged", kind: kBool, off: unsafe.Offsetof(SubscriptionFilter{}.ToolsListChanged)},
		{name: "promptsListChanged", kind: kBool, off: unsafe.Offsetof(SubscriptionFilter{}.PromptsListChanged)},
		{name: "resourcesListChanged", kind: kBool, off: unsafe.Offsetof(SubscriptionFilter{}.ResourcesListChanged)},
		{name: "resourceSubscriptions", kind: kStrings, off: unsafe.Offsetof(SubscriptionFilter{}.ResourceSubscriptions)},
		{name: "taskIds", kind: kStrings, off: unsafe.Offsetof(SubscriptionFilter{}.TaskIDs)},
	},
}

var ackT = structType{typ: "core.AcknowledgedParams", short: "AcknowledgedParams",
	fields: []field{
		{name: "_meta", kind: kMeta, off: unsafe.Offsetof(AcknowledgedParams{}.Meta)},
		{name: "notifications", kind: kPtr, off: unsafe.Offsetof(AcknowledgedParams{}.Notifications), sub: &filterT},
	},
}

var resUpdatedT = structType{typ: "core.ResourceUpdatedParams", short: "ResourceUpdatedParams",
	fields: []field{
		{name: "_meta", kind: kMeta, off: unsafe.Offsetof(ResourceUpdatedParams{}.Meta)},
		{name: "uri", kind: kString, off: unsafe.Offsetof(ResourceUpdatedParams{}.URI)},
	},
}

var loggingT = structType{typ: "core.LoggingMessageParams", short: "LoggingMessageParams",
	fields: []field{
		{name: "_meta", kind: kMeta, off: unsafe.Offsetof(LoggingMessageParams{}.Meta)},
		{name: "level", kind: kString, off: unsafe.Offsetof(LoggingMessageParams{}.Level)},
		{name: "logger", kind: kString, off: unsafe.Offsetof(LoggingMessageParams{}.Logger)},
		{name: "data", kind: kRaw, off: unsafe.Offsetof(LoggingMessageParams{}.Data)},
	},
}

var elicitCompleteT = structType{typ: "core.ElicitationCompleteParams", short: "ElicitationCompleteParams",
	fields: []field{
		{name: "_meta", kind: kMeta, off: unsafe.Offsetof(ElicitationCompleteParams{}.Meta)},
		{name: "elicitationId", kind: kString, off: unsafe.Offsetof(ElicitationCompleteParams{}.ElicitationID)},
	},
}

var envT = structType{typ: "core.notificationEnvelope", short: "notificationEnvelope",
	fields: []field{
		{name: "_meta", kind: kStruct, off: unsafe.Offsetof(notificationEnvelope{}.Meta), sub: &envMetaT},
	},
}

var resourceT = structType{typ: "core.Resource", short: "Resource",
	alloc: func() unsafe.Pointer { return unsafe.Pointer(new(Resource)) },
	fields: []field{
		{name: "uri", kind: kString, off: unsafe.Offsetof(Resource{}.URI)},
		{name: "name", kind: kString, off: unsafe.Offsetof(Resource{}.Name)},
		{name: "title", kind: kString, off: unsafe.Offsetof(Resource{}.Title)},
		{name: "description", kind: kString, off: unsafe.Offsetof(Resource{}.Description)},
		{name: "mimeType", kind: kString, off: unsafe.Offsetof(Resource{}.MimeType)},
		{name: "size", kind: kInt64Ptr, off: unsafe.Offsetof(Resource{}.Size)},
		{name: "annotations", kind: kPtr, off: unsafe.Offsetof(Resource{}.Annotations), sub: &annotationsT},
		{name: "icons", kind: kIcons, off: unsafe.Offsetof(Resource{}.Icons)},
		{name: "_meta", kind: kMeta, off: unsafe.Offsetof(Resource{}.Meta)},
	},
}

var templateT = structType{typ: "core.ResourceTemplate", short: "ResourceTemplate",
	alloc: func() unsafe.Pointer { return unsafe.Pointer(new(ResourceTemplate)) },
	fields: []field{
		{name: "uriTemplate", kind: kString, off: unsafe.Offsetof(ResourceTemplate{}.URITemplate)},
		{name: "name", kind: kString, off: unsafe.Offsetof(ResourceTemplate{}.Name)},
		{name: "title", kind: kString, off: unsafe.Offsetof(ResourceTemplate{}.Title)},
		{name: "description", kind: kString, off: unsafe.Offsetof(ResourceTemplate{}.Description)},
		{name: "mimeType", kind: kString, off: unsafe.Offsetof(ResourceTemplate{}.MimeType)},
		{name: "annotations", kind: kPtr, off: unsafe.Offsetof(ResourceTemplate{}.Annotations), sub: &annotationsT},
		{name: "icons", kind: kIcons, off: unsafe.Offsetof(ResourceTemplate{}.Icons)},
		{name: "_meta", kind: kMeta, off: unsafe.Offsetof(ResourceTemplate{}.Meta)},
	},
}

var listResT = structType{typ: "core.ListResourcesResult", short: "ListResourcesResult",
	fields: []field{
		{name: "_meta", kind: kMeta, off: unsafe.Offsetof(ListResourcesResult{}.ResultInfo) + unsafe.Offsetof(ResultInfo{}.Meta), via: "ResultInfo"},
		{name: "resultType", kind: kString, off: unsafe.Offsetof(ListResourcesResult{}.ResultInfo) + unsafe.Offsetof(ResultInfo{}.ResultType), via: "ResultInfo"},
		{name: "ttlMs", kind: kInt64Ptr, off: unsafe.Offsetof(ListResourcesResult{}.CacheHints) + unsafe.Offsetof(CacheHints{}.TTLMs), via: "CacheHints"},
		{name: "cacheScope", kind: kString, off: unsafe.Offsetof(ListResourcesResult{}.CacheHints) + unsafe.Offsetof(CacheHints{}.CacheScope), via: "CacheHints"},
		{name: "resources", kind: kPtrs, off: unsafe.Offsetof(ListResourcesResult{}.Resources), sub: &resourceT, styp: "[]*core.Resource"},
		{name: "nextCursor", kind: kString, off: unsafe.Offsetof(ListResourcesResult{}.NextCursor)},
	},
}

var listTmplT = structType{typ: "core.ListResourceTemplatesResult", short: "ListResourceTemplatesResult",
	fields: []field{
		{name: "_meta", kind: kMeta, off: unsafe.Offsetof(ListResourceTemplatesResult{}.ResultInfo) + unsafe.Offsetof(ResultInfo{}.Meta), via: "ResultInfo"},
		{name: "resultType", kind: kString, off: unsafe.Offsetof(ListResourceTemplatesResult{}.ResultInfo) + unsafe.Offsetof(ResultInfo{}.ResultType), via: "ResultInfo"},
		{name: "ttlMs", kind: kInt64Ptr, off: unsafe.Offsetof(ListResourceTemplatesResult{}.CacheHints) + unsafe.Offsetof(CacheHints{}.TTLMs), via: "CacheHints"},
		{name: "cacheScope", kind: kString, off: unsafe.Offsetof(ListResourceTemplatesResult{}.CacheHints) + unsafe.Offsetof(CacheHints{}.CacheScope), via: "CacheHints"},
		{name: "resourceTemplates", kind: kPtrs, off: unsafe.Offsetof(ListResourceTemplatesResult{}.ResourceTemplates), sub: &templateT, styp: "[]*core.ResourceTemplate"},
		{name: "nextCursor", kind: kString, off: unsafe.Offsetof(ListResourceTemplatesResult{}.NextCursor)},
	},
}

var readResT = structType{typ: "core.ReadResourceResult", short: "ReadResourceResult",
	fields: []field{
		{name: "_meta", kind: kMeta, off: unsafe.Offsetof(ReadResourceResult{}.ResultInfo) + unsafe.Offsetof(ResultInfo{}.Meta), via: "ResultInfo"},
		{name: "resultType", kind: kString, off: unsafe.Offsetof(ReadResourceResult{}.ResultInfo) + unsafe.Offsetof(ResultInfo{}.ResultType), via: "ResultInfo"},
		{name: "ttlMs", kind: kInt64Ptr, off: unsafe.Offsetof(ReadResourceResult{}.CacheHints) + unsafe.Offsetof(CacheHints{}.TTLMs), via: "CacheHints"},
		{name: "cacheScope", kind: kString, off: unsafe.Offsetof(ReadResourceResult{}.CacheHints) + unsafe.Offsetof(CacheHints{}.CacheScope), via: "CacheHints"},
		{name: "contents", kind: kPtrs, off: unsafe.Offsetof(ReadResourceResult{}.Contents), sub: &resContentsT, styp: "[]*core.ResourceContents"},
	},
}

var promptArgT = structType{typ: "core.PromptArgument", short: "PromptArgument",
	alloc: func() unsafe.Pointer { return unsafe.Pointer(new(PromptArgument)) },
	fields: []field{
		{name: "name", kind: kString, off: unsafe.Offsetof(PromptArgument{}.Name)},
		{name: "title", kind: kString, off: unsafe.Offsetof(PromptArgument{}.Title)},
		{name: "description", kind: kString, off: unsafe.Offsetof(PromptArgument{}.Description)},
		{name: "required", kind: kBool, off: unsafe.Offsetof(PromptArgument{}.Required)},
	},
}

var promptT = structType{typ: "core.Prompt", short: "Prompt",
	alloc: func() unsafe.Pointer { return unsafe.Pointer(new(Prompt)) },
	fields: []field{
		{name: "name", kind: kString, off: unsafe.Offsetof(Prompt{}.Name)},
		{name: "title", kind: kString, off: unsafe.Offsetof(Prompt{}.Title)},
		{name: "description", kind: kString, off: unsafe.Offsetof(Prompt{}.Description)},
		{name: "arguments", kind: kPtrs, off: unsafe.Offsetof(Prompt{}.Arguments), sub: &promptArgT, styp: "[]*core.PromptArgument"},
		{name: "icons", kind: kIcons, off: unsafe.Offsetof(Prompt{}.Icons)},
		{name: "_meta", kind: kMeta, off: unsafe.Offsetof(Prompt{}.Meta)},
	},
}

var listPromptsT = structType{typ: "core.ListPromptsResult", short: "ListPromptsResult",
	fields: []field{
		{name: "_meta", kind: kMeta, off: unsafe.Offsetof(ListPromptsResult{}.ResultInfo) + unsafe.Offsetof(ResultInfo{}.Meta), via: "ResultInfo"},
		{name: "resultType", kind: kString, off: unsafe.Offsetof(ListPromptsResult{}.ResultInfo) + unsafe.Offsetof(ResultInfo{}.ResultType), via: "ResultInfo"},
		{name: "ttlMs", kind: kInt64Ptr, off: unsafe.Offsetof(ListPromptsResult{}.CacheHints) + unsafe.Offsetof(CacheHints{}.TTLMs), via: "CacheHints"},
		{name: "cacheScope", kind: kString, off: unsafe.Offsetof(ListPromptsResult{}.CacheHints) + unsafe.Offsetof(CacheHints{}.CacheScope), via: "CacheHints"},
		{name: "prompts", kind: kPtrs, off: unsafe.Offsetof(ListPromptsResult{}.Prompts), sub: &promptT, styp: "[]*core.Prompt"},
		{name: "nextCursor", kind: kString, off: unsafe.Offsetof(ListPromptsResult{}.NextCursor)},
	},
}

var promptMsgT = structType{typ: "core.PromptMessage", short: "PromptMessage",
	alloc: func() unsafe.Pointer { return unsafe.Pointer(new(PromptMessage)) },
	fields: []field{
		{name: "role", kind: kString, off: unsafe.Offsetof(PromptMessage{}.Role)},
		{name: "content", kind: kPtr, off: unsafe.Offsetof(PromptMessage{}.Content), sub: &contentT},
	},
}

var getPromptT = structType{typ: "core.GetPromptResult", short: "GetPromptResult",
	fields: []field{
		{name: "_meta", kind: kMeta, off: unsafe.Offsetof(GetPromptResult{}.ResultInfo) + unsafe.Offsetof(ResultInfo{}.Meta), via: "ResultInfo"},
		{name: "resultType", kind: kString, off: unsafe.Offsetof(GetPromptResult{}.ResultInfo) + unsafe.Offsetof(ResultInfo{}.ResultType), via: "ResultInfo"},
		{name: "description", kind: kString, off: unsafe.Offsetof(GetPromptResult{}.Description)},
		{name: "messages", kind: kPtrs, off: unsafe.Offsetof(GetPromptResult{}.Messages), sub: &promptMsgT, styp: "[]*core.PromptMessage"},
	},
}

var completionT = structType{typ: "core.Completion", short: "Completion",
	fields: []field{
		{name: "values", kind: kStrings, off: unsafe.Offsetof(Completion{}.Values)},
		{name: "total", kind: kInt64Ptr, off: unsafe.Offsetof(Completion{}.Total)},
		{name: "hasMore", kind: kBool, off: unsafe.Offsetof(Completion{}.HasMore)},
	},
}

var completeT = structType{typ: "core.CompleteResult", short: "CompleteResult",
	fields: []field{
		{name: "_meta", kind: kMeta, off: unsafe.Offsetof(CompleteResult{}.ResultInfo) + unsafe.Offsetof(ResultInfo{}.Meta), via: "ResultInfo"},
		{name: "resultType", kind: kString, off: unsafe.Offsetof(CompleteResult{}.ResultInfo) + unsafe.Offsetof(ResultInfo{}.ResultType), via: "ResultInfo"},
		{name: "completion", kind: kStruct, off: unsafe.Offsetof(CompleteResult{}.Completion), sub: &completionT},
	},
}

var toolHintsT = structType{typ: `struct { ReadOnlyHint bool "json:\"readOnlyHint\""; IdempotentHint bool "json:\"idempotentHint\"" }`, short: "",
	alloc: func() unsafe.Pointer { return unsafe.Pointer(new(toolHints)) },
	fields: []field{
		{name: "readOnlyHint", kind: kBool, off: unsafe.Offsetof(toolHints{}.ReadOnlyHint)},
		{name: "idempotentHint", kind: kBool, off: unsafe.Offsetof(toolHints{}.IdempotentHint)},
	},
}

var toolEntryT = structType{typ: `struct { Name string "json:\"name\""; InputSchema json.RawMessage "json:\"inputSchema\""; OutputSchema json.RawMessage "json:\"outputSchema\""; Annotations *struct { ReadOnlyHint bool "json:\"readOnlyHint\""; IdempotentHint bool "json:\"idempotentHint\"" } "json:\"annotations\""; Execution json.RawMessage "json:\"execution\"" }`, short: "",
	fields: []field{
		{name: "name", kind: kString, off: unsafe.Offsetof(toolEntry{}.Name)},
		{name: "inputSchema", kind: kRaw, off: unsafe.Offsetof(toolEntry{}.InputSchema)},
		{name: "outputSchema", kind: kRaw, off: unsafe.Offsetof(toolEntry{}.OutputSchema)},
		{name: "annotations", kind: kPtr, off: unsafe.Offsetof(toolEntry{}.Annotations), sub: &toolHintsT},
		{name: "execution", kind: kRaw, off: unsafe.Offsetof(toolEntry{}.Execution)},
	},
}

var taskCreatedT = structType{typ: `struct { Task *core.wireTask "json:\"task\""; Content json.RawMessage "json:\"content\"" }`, short: "",
	fields: []field{
		{name: "task", kind: kPtr, off: unsafe.Offsetof(taskCreatedWire{}.Task), sub: &wireTaskT},
		{name: "content", kind: kRaw, off: unsafe.Offsetof(taskCreatedWire{}.Content)},
	},
}

var listTasksT = structType{typ: `struct { Tasks []*core.wireTask "json:\"tasks\""; NextCursor string "json:\"nextCursor\"" }`, short: "",
	fields: []field{
		{name: "tasks", kind: kPtrs, off: unsafe.Offsetof(listTasksWire{}.Tasks), sub: &wireTaskT, styp: "[]*core.wireTask"},
		{name: "nextCursor", kind: kString, off: unsafe.Offsetof(listTasksWire{}.NextCursor)},
	},
}

var urlElicitT = structType{typ: `struct { Elicitations []*core.ElicitParams "json:\"elicitations\"" }`, short: "",
	fields: []field{
		{name: "elicitations", kind: kPtrs, off: unsafe.Offsetof(urlElicitationData{}.Elicitations), sub: &elicitParamsT, styp: "[]*core.ElicitParams"},
	},
}

// envMetaT is the _meta of notificationEnvelope.
var envMetaT = structType{typ: `struct { SubscriptionID *jsonrpc.ID "json:\"io.modelcontextprotocol/subscriptionId\"" }`,
	fields: []field{
		{name: MetaSubscriptionID, kind: kIDPtr, off: unsafe.Offsetof(notificationEnvelope{}.Meta.SubscriptionID) - unsafe.Offsetof(notificationEnvelope{}.Meta)},
	},
}

// Small shapes read by the session, each as json.Unmarshal into a struct
// of that shape would.

// serverInfoMeta is _meta["io.modelcontextprotocol/serverInfo"] of a
// server/discover result.
type serverInfoMeta struct {
	Meta struct {
		ServerInfo *Implementation
	}
}

var serverInfoMetaInnerT = structType{typ: "struct", fields: []field{
	{name: MetaServerInfo, kind: kPtr, off: unsafe.Offsetof(serverInfoMeta{}.Meta.ServerInfo) - unsafe.Offsetof(serverInfoMeta{}.Meta), sub: &implT},
}}

var serverInfoMetaT = structType{typ: "struct", fields: []field{
	{name: "_meta", kind: kStruct, off: unsafe.Offsetof(serverInfoMeta{}.Meta), sub: &serverInfoMetaInnerT},
}}

// outputCheck is what validateOutput reads of a tools/call result.
type outputCheck struct {
	IsError           bool
	StructuredContent []byte // aliases the result
}

var outputCheckT = structType{typ: `struct { IsError bool "json:\"isError\""; StructuredContent json.RawMessage "json:\"structuredContent\"" }`, fields: []field{
	{name: "isError", kind: kBool, off: unsafe.Offsetof(outputCheck{}.IsError)},
	{name: "structuredContent", kind: kRawAlias, off: unsafe.Offsetof(outputCheck{}.StructuredContent)},
}}

// taskSupport is a tool's execution member (2025-11-25).
type taskSupport struct{ TaskSupport string }

var taskSupportT = structType{typ: "struct", fields: []field{
	{name: "taskSupport", kind: kString, off: unsafe.Offsetof(taskSupport{}.TaskSupport)},
}}

// tasksList is capabilities.tasks.list; tasksToolCall is
// capabilities.tasks.requests.tools.call (2025-11-25).
type tasksList struct{ List RawMessage }

type tasksToolCall struct {
	Requests struct {
		Tools struct {
			Call RawMessage
		}
	}
}

var tasksListT = structType{typ: "struct", fields: []field{
	{name: "list", kind: kRaw, off: unsafe.Offsetof(tasksList{}.List)},
}}

var tasksCallT = structType{typ: "struct", fields: []field{
	{name: "call", kind: kRaw, off: 0},
}}

var tasksToolsT = structType{typ: "struct", fields: []field{
	{name: "tools", kind: kStruct, off: 0, sub: &tasksCallT},
}}

var tasksToolCallT = structType{typ: "struct", fields: []field{
	{name: "requests", kind: kStruct, off: unsafe.Offsetof(tasksToolCall{}.Requests), sub: &tasksToolsT},
}}

// supportedVersions is the data of an UnsupportedProtocolVersionError.
type supportedVersions struct{ Supported []string }

var supportedT = structType{typ: "struct", fields: []field{
	{name: "supported", kind: kStrings, off: unsafe.Offsetof(supportedVersions{}.Supported)},
}}

// schemaDefaults is properties.*.default of a JSON Schema.
type schemaDefaultsWire struct {
	Properties map[string]RawMessage
}

var schemaDefaultsT = structType{typ: "struct", fields: []field{
	{name: "properties", kind: kDefaults, off: unsafe.Offsetof(schemaDefaultsWire{}.Properties)},
}}

// propertyT is one property of schemaDefaultsWire, a fresh value per key.
var propertyT = structType{typ: `struct { Default json.RawMessage "json:\"default\"" }`, fields: []field{
	{name: "default", kind: kRaw, off: 0},
}}
