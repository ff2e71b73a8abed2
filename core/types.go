package core

import (
	"github.com/mcpwasm/mcpwasm/internal/jsonscan"
	"github.com/mcpwasm/mcpwasm/jsonrpc"
)

// This file holds the MCP wire types the client sends and receives, the
// union of the fields of every supported revision (see the schemas in the
// specification). Values of these types are plain data: safe to share
// between goroutines once no one writes to them.

// Meta is a _meta object.
type Meta map[string]any

// Implementation identifies a client or server.
type Implementation struct {
	Name        string `json:"name"`
	Title       string `json:"title,omitempty"`
	Version     string `json:"version"`
	Description string `json:"description,omitempty"`
	WebsiteURL  string `json:"websiteUrl,omitempty"`
	Icons       []Icon `json:"icons,omitempty"`
}

// Icon is an icon for display.
type Icon struct {
	Src      string   `json:"src"`
	MimeType string   `json:"mimeType,omitempty"`
	Sizes    []string `json:"sizes,omitempty"`
	Theme    string   `json:"theme,omitempty"`
}

// ClientCapabilities are the capabilities a client declares.
type ClientCapabilities struct {
	Experimental map[string]any         `json:"experimental,omitempty"`
	Extensions   map[string]any         `json:"extensions,omitempty"`
	Roots        *RootsCapability       `json:"roots,omitempty"`
	Sampling     *SamplingCapability    `json:"sampling,omitempty"`
	Elicitation  *ElicitationCapability `json:"elicitation,omitempty"`
	Tasks        RawMessage             `json:"tasks,omitempty"`
}

// RootsCapability declares roots support.
type RootsCapability struct {
	// ListChanged is a legacy-era flag: the client sends
	// notifications/roots/list_changed.
	ListChanged bool `json:"listChanged,omitempty"`
}

// SamplingCapability declares sampling support.
type SamplingCapability struct {
	Context *struct{} `json:"context,omitempty"`
	Tools   *struct{} `json:"tools,omitempty"`
}

// ElicitationCapability declares elicitation support.
type ElicitationCapability struct {
	Form *FormElicitationCapability `json:"form,omitempty"`
	URL  *struct{}                  `json:"url,omitempty"`
}

// FormElicitationCapability declares form-mode elicitation.
type FormElicitationCapability struct {
	// ApplyDefaults tells the server the client fills in schema defaults
	// for fields the user left out (SEP-1034).
	ApplyDefaults bool `json:"applyDefaults,omitempty"`
}

// ServerCapabilities are the capabilities a server advertises.
type ServerCapabilities struct {
	Experimental map[string]any         `json:"experimental,omitempty"`
	Extensions   map[string]any         `json:"extensions,omitempty"`
	Logging      *struct{}              `json:"logging,omitempty"`
	Completions  *struct{}              `json:"completions,omitempty"`
	Prompts      *ListChangedCapability `json:"prompts,omitempty"`
	Resources    *ResourcesCapability   `json:"resources,omitempty"`
	Tools        *ListChangedCapability `json:"tools,omitempty"`
	Tasks        RawMessage             `json:"tasks,omitempty"`
}

// ListChangedCapability is a server capability with a listChanged flag.
type ListChangedCapability struct {
	ListChanged bool `json:"listChanged,omitempty"`
}

// ResourcesCapability is the server's resources capability.
type ResourcesCapability struct {
	Subscribe   bool `json:"subscribe,omitempty"`
	ListChanged bool `json:"listChanged,omitempty"`
}

// ResultInfo holds the members every result may carry.
type ResultInfo struct {
	Meta Meta `json:"_meta,omitempty"`
	// ResultType is "complete" or "input_required" (2026-07-28); empty
	// means complete.
	ResultType string `json:"resultType,omitempty"`
}

// CacheHints are the caching members of cacheable results (2026-07-28).
type CacheHints struct {
	// TTLMs is how long the result stays fresh; nil when absent.
	TTLMs *int64 `json:"ttlMs,omitempty"`
	// CacheScope is "public" or "private".
	CacheScope string `json:"cacheScope,omitempty"`
}

// Annotations are display hints on content and resources.
type Annotations struct {
	Audience     []string `json:"audience,omitempty"`
	Priority     *float64 `json:"priority,omitempty"`
	LastModified string   `json:"lastModified,omitempty"`
}

// Content is one content block: text, image, audio, resource (embedded),
// resource_link, and inside sampling messages tool_use and tool_result. Type
// says which fields are meaningful; unknown types keep their fields in Raw.
type Content struct {
	Type string `json:"type"`
	// text
	Text string `json:"text,omitempty"`
	// image, audio: base64 data
	Data     string `json:"data,omitempty"`
	MimeType string `json:"mimeType,omitempty"`
	// resource (embedded)
	Resource *ResourceContents `json:"resource,omitempty"`
	// resource_link
	URI         string `json:"uri,omitempty"`
	Name        string `json:"name,omitempty"` // resource_link and tool_use
	Title       string `json:"title,omitempty"`
	Description string `json:"description,omitempty"`
	Size        *int64 `json:"size,omitempty"`
	Icons       []Icon `json:"icons,omitempty"`
	// tool_use
	ID    string     `json:"id,omitempty"`
	Input RawMessage `json:"input,omitempty"`
	// tool_result
	ToolUseID         string     `json:"toolUseId,omitempty"`
	Content           []*Content `json:"content,omitempty"`
	StructuredContent RawMessage `json:"structuredContent,omitempty"`
	IsError           bool       `json:"isError,omitempty"`

	Annotations *Annotations `json:"annotations,omitempty"`
	Meta        Meta         `json:"_meta,omitempty"`
}

// TextContent returns a text content block.
func TextContent(text string) *Content { return &Content{Type: "text", Text: text} }

// ContentList is the content of a sampling message or result: one block or
// an array of blocks on the wire. It encodes a single block as an object.
type ContentList []*Content

// UnmarshalJSON accepts an object or an array.
func (c *ContentList) UnmarshalJSON(b []byte) error {
	if err := jsonscan.CheckDocument(b); err != nil {
		return err
	}
	d := newDec()
	decodeContentList(d, jsonscan.TrimSpace(b), c)
	return d.Err
}

// MarshalJSON encodes one block as an object, otherwise an array.
func (c ContentList) MarshalJSON() ([]byte, error) {
	e := &enc{}
	e.contentList(c)
	return e.b, e.err
}

// ResourceContents is the content of a resource: Text for text resources,
// Blob (base64) for binary ones.
type ResourceContents struct {
	URI      string `json:"uri"`
	MimeType string `json:"mimeType,omitempty"`
	Text     string `json:"text"`
	Blob     string `json:"blob,omitempty"`
	Meta     Meta   `json:"_meta,omitempty"`
}

// MarshalJSON omits text for blob contents.
func (r *ResourceContents) MarshalJSON() ([]byte, error) {
	if r == nil {
		return []byte("null"), nil
	}
	e := &enc{}
	e.resource(r)
	return e.b, e.err
}

// Tool is a tool definition.
type Tool struct {
	Name         string           `json:"name"`
	Title        string           `json:"title,omitempty"`
	Description  string           `json:"description,omitempty"`
	InputSchema  RawMessage       `json:"inputSchema"`
	OutputSchema RawMessage       `json:"outputSchema,omitempty"`
	Annotations  *ToolAnnotations `json:"annotations,omitempty"`
	Execution    RawMessage       `json:"execution,omitempty"`
	Icons        []Icon           `json:"icons,omitempty"`
	Meta         Meta             `json:"_meta,omitempty"`
}

// ToolAnnotations are hints about a tool's behaviour.
type ToolAnnotations struct {
	Title           string `json:"title,omitempty"`
	ReadOnlyHint    *bool  `json:"readOnlyHint,omitempty"`
	DestructiveHint *bool  `json:"destructiveHint,omitempty"`
	IdempotentHint  *bool  `json:"idempotentHint,omitempty"`
	OpenWorldHint   *bool  `json:"openWorldHint,omitempty"`
}

// PaginatedParams are the parameters of list requests.
type PaginatedParams struct {
	Meta   Meta   `json:"_meta,omitempty"`
	Cursor string `json:"cursor,omitempty"`
}

// ListToolsResult is one page of tools.
type ListToolsResult struct {
	ResultInfo
	CacheHints
	Tools      []*Tool `json:"tools"`
	NextCursor string  `json:"nextCursor,omitempty"`
}

// CallToolParams are the parameters of tools/call. Arguments is any value
// that encodes as a JSON object (a map or a struct), or nil.
type CallToolParams struct {
	Meta      Meta   `json:"_meta,omitempty"`
	Name      string `json:"name"`
	Arguments any    `json:"arguments,omitempty"`
}

// CallToolResult is the result of tools/call.
type CallToolResult struct {
	ResultInfo
	Content []*Content `json:"content"`
	// StructuredContent is the raw structured result, when present.
	StructuredContent RawMessage `json:"structuredContent,omitempty"`
	IsError           bool       `json:"isError,omitempty"`
}

// Err returns a *ToolError when the tool reported an error (isError), else
// nil: the "raise on isError" style of calling tools.
func (r *CallToolResult) Err(tool string) error {
	if r == nil || !r.IsError {
		return nil
	}
	return &ToolError{Tool: tool, Result: r}
}

// Resource is a resource the server offers.
type Resource struct {
	URI         string       `json:"uri"`
	Name        string       `json:"name"`
	Title       string       `json:"title,omitempty"`
	Description string       `json:"description,omitempty"`
	MimeType    string       `json:"mimeType,omitempty"`
	Size        *int64       `json:"size,omitempty"`
	Annotations *Annotations `json:"annotations,omitempty"`
	Icons       []Icon       `json:"icons,omitempty"`
	Meta        Meta         `json:"_meta,omitempty"`
}

// ResourceTemplate is a parameterised resource (RFC 6570 URI template).
type ResourceTemplate struct {
	URITemplate string       `json:"uriTemplate"`
	Name        string       `json:"name"`
	Title       string       `json:"title,omitempty"`
	Description string       `json:"description,omitempty"`
	MimeType    string       `json:"mimeType,omitempty"`
	Annotations *Annotations `json:"annotations,omitempty"`
	Icons       []Icon       `json:"icons,omitempty"`
	Meta        Meta         `json:"_meta,omitempty"`
}

// ListResourcesResult is one page of resources.
type ListResourcesResult struct {
	ResultInfo
	CacheHints
	Resources  []*Resource `json:"resources"`
	NextCursor string      `json:"nextCursor,omitempty"`
}

// ListResourceTemplatesResult is one page of resource templates.
type ListResourceTemplatesResult struct {
	ResultInfo
	CacheHints
	ResourceTemplates []*ResourceTemplate `json:"resourceTemplates"`
	NextCursor        string              `json:"nextCursor,omitempty"`
}

// ReadResourceParams are the parameters of resources/read.
type ReadResourceParams struct {
	Meta Meta   `json:"_meta,omitempty"`
	URI  string `json:"uri"`
}

// ReadResourceResult is the result of resources/read.
type ReadResourceResult struct {
	ResultInfo
	CacheHints
	Contents []*ResourceContents `json:"contents"`
}

// SubscribeParams are the parameters of the legacy resources/subscribe and
// resources/unsubscribe requests.
type SubscribeParams struct {
	Meta Meta   `json:"_meta,omitempty"`
	URI  string `json:"uri"`
}

// Prompt is a prompt template.
type Prompt struct {
	Name        string            `json:"name"`
	Title       string            `json:"title,omitempty"`
	Description string            `json:"description,omitempty"`
	Arguments   []*PromptArgument `json:"arguments,omitempty"`
	Icons       []Icon            `json:"icons,omitempty"`
	Meta        Meta              `json:"_meta,omitempty"`
}

// PromptArgument describes a prompt argument.
type PromptArgument struct {
	Name        string `json:"name"`
	Title       string `json:"title,omitempty"`
	Description string `json:"description,omitempty"`
	Required    bool   `json:"required,omitempty"`
}

// ListPromptsResult is one page of prompts.
type ListPromptsResult struct {
	ResultInfo
	CacheHints
	Prompts    []*Prompt `json:"prompts"`
	NextCursor string    `json:"nextCursor,omitempty"`
}

// GetPromptParams are the parameters of prompts/get.
type GetPromptParams struct {
	Meta      Meta              `json:"_meta,omitempty"`
	Name      string            `json:"name"`
	Arguments map[string]string `json:"arguments,omitempty"`
}

// PromptMessage is one message of a prompt.
type PromptMessage struct {
	Role    string   `json:"role"`
	Content *Content `json:"content"`
}

// GetPromptResult is the result of prompts/get.
type GetPromptResult struct {
	ResultInfo
	Description string           `json:"description,omitempty"`
	Messages    []*PromptMessage `json:"messages"`
}

// CompleteReference names what is being completed: a prompt
// (Type "ref/prompt", Name) or a resource template (Type "ref/resource", URI).
type CompleteReference struct {
	Type string `json:"type"`
	Name string `json:"name,omitempty"`
	URI  string `json:"uri,omitempty"`
}

// CompleteArgument is the argument being completed.
type CompleteArgument struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// CompleteContext carries already-resolved arguments.
type CompleteContext struct {
	Arguments map[string]string `json:"arguments,omitempty"`
}

// CompleteParams are the parameters of completion/complete.
type CompleteParams struct {
	Meta     Meta              `json:"_meta,omitempty"`
	Ref      CompleteReference `json:"ref"`
	Argument CompleteArgument  `json:"argument"`
	Context  *CompleteContext  `json:"context,omitempty"`
}

// Completion holds completion values.
type Completion struct {
	Values  []string `json:"values"`
	Total   *int64   `json:"total,omitempty"`
	HasMore bool     `json:"hasMore,omitempty"`
}

// CompleteResult is the result of completion/complete.
type CompleteResult struct {
	ResultInfo
	Completion Completion `json:"completion"`
}

// Logging levels (RFC 5424 severities).
const (
	LevelDebug     = "debug"
	LevelInfo      = "info"
	LevelNotice    = "notice"
	LevelWarning   = "warning"
	LevelError     = "error"
	LevelCritical  = "critical"
	LevelAlert     = "alert"
	LevelEmergency = "emergency"
)

// SetLevelParams are the parameters of the legacy logging/setLevel.
type SetLevelParams struct {
	Meta  Meta   `json:"_meta,omitempty"`
	Level string `json:"level"`
}

// LoggingMessageParams are the parameters of notifications/message.
type LoggingMessageParams struct {
	Meta   Meta       `json:"_meta,omitempty"`
	Level  string     `json:"level"`
	Logger string     `json:"logger,omitempty"`
	Data   RawMessage `json:"data"`
}

// ProgressParams are the parameters of notifications/progress.
type ProgressParams struct {
	Meta          Meta     `json:"_meta,omitempty"`
	ProgressToken any      `json:"progressToken"`
	Progress      float64  `json:"progress"`
	Total         *float64 `json:"total,omitempty"`
	Message       string   `json:"message,omitempty"`
}

// CancelledParams are the parameters of notifications/cancelled.
type CancelledParams struct {
	Meta      Meta       `json:"_meta,omitempty"`
	RequestID jsonrpc.ID `json:"requestId"`
	Reason    string     `json:"reason,omitempty"`
}

// ResourceUpdatedParams are the parameters of notifications/resources/updated.
type ResourceUpdatedParams struct {
	Meta Meta   `json:"_meta,omitempty"`
	URI  string `json:"uri"`
}

// ElicitationCompleteParams are the parameters of the legacy
// notifications/elicitation/complete.
type ElicitationCompleteParams struct {
	Meta          Meta   `json:"_meta,omitempty"`
	ElicitationID string `json:"elicitationId"`
}

// Root is a root the client exposes.
type Root struct {
	URI  string `json:"uri"`
	Name string `json:"name,omitempty"`
	Meta Meta   `json:"_meta,omitempty"`
}

// ListRootsParams are the parameters of roots/list.
type ListRootsParams struct {
	Meta Meta `json:"_meta,omitempty"`
}

// ListRootsResult is the client's answer to roots/list.
type ListRootsResult struct {
	Meta  Meta    `json:"_meta,omitempty"`
	Roots []*Root `json:"roots"`
}

// ModelHint is a model name hint.
type ModelHint struct {
	Name string `json:"name,omitempty"`
}

// ModelPreferences are the server's model preferences for sampling.
type ModelPreferences struct {
	Hints                []*ModelHint `json:"hints,omitempty"`
	CostPriority         *float64     `json:"costPriority,omitempty"`
	SpeedPriority        *float64     `json:"speedPriority,omitempty"`
	IntelligencePriority *float64     `json:"intelligencePriority,omitempty"`
}

// SamplingMessage is one message of a sampling request.
type SamplingMessage struct {
	Role    string      `json:"role"`
	Content ContentList `json:"content"`
	Meta    Meta        `json:"_meta,omitempty"`
}

// ToolChoice controls tool use in sampling.
type ToolChoice struct {
	Mode string `json:"mode,omitempty"`
}

// CreateMessageParams are the parameters of sampling/createMessage.
type CreateMessageParams struct {
	Meta             Meta               `json:"_meta,omitempty"`
	Messages         []*SamplingMessage `json:"messages"`
	ModelPreferences *ModelPreferences  `json:"modelPreferences,omitempty"`
	SystemPrompt     string             `json:"systemPrompt,omitempty"`
	IncludeContext   string             `json:"includeContext,omitempty"`
	Temperature      *float64           `json:"temperature,omitempty"`
	MaxTokens        int64              `json:"maxTokens"`
	StopSequences    []string           `json:"stopSequences,omitempty"`
	Metadata         RawMessage         `json:"metadata,omitempty"`
	Tools            []*Tool            `json:"tools,omitempty"`
	ToolChoice       *ToolChoice        `json:"toolChoice,omitempty"`
}

// CreateMessageResult is the client's answer to sampling/createMessage.
type CreateMessageResult struct {
	Meta       Meta        `json:"_meta,omitempty"`
	Role       string      `json:"role"`
	Content    ContentList `json:"content"`
	Model      string      `json:"model"`
	StopReason string      `json:"stopReason,omitempty"`
}

// Elicitation modes and actions.
const (
	ElicitModeForm = "form"
	ElicitModeURL  = "url"
	ActionAccept   = "accept"
	ActionDecline  = "decline"
	ActionCancel   = "cancel"
)

// ElicitParams are the parameters of elicitation/create, form or URL mode.
type ElicitParams struct {
	Meta Meta `json:"_meta,omitempty"`
	// Mode is "form" (the default when empty) or "url".
	Mode            string     `json:"mode,omitempty"`
	Message         string     `json:"message"`
	RequestedSchema RawMessage `json:"requestedSchema,omitempty"`
	URL             string     `json:"url,omitempty"`
	// ElicitationID identifies a legacy (2025-11-25) URL elicitation.
	ElicitationID string `json:"elicitationId,omitempty"`
}

// ElicitResult is the client's answer to elicitation/create.
type ElicitResult struct {
	Meta    Meta           `json:"_meta,omitempty"`
	Action  string         `json:"action"`
	Content map[string]any `json:"content,omitempty"`
	// Completed is not sent. For a URL-mode elicitation a request depends
	// on (a legacy -32042 error), it says the user has already finished
	// the flow at the URL: the request is retried at once instead of
	// waiting for notifications/elicitation/complete, which servers need
	// not send.
	Completed bool `json:"-"`
}

// InitializeParams are the parameters of the legacy initialize request.
type InitializeParams struct {
	Meta            Meta                `json:"_meta,omitempty"`
	ProtocolVersion string              `json:"protocolVersion"`
	Capabilities    *ClientCapabilities `json:"capabilities"`
	ClientInfo      *Implementation     `json:"clientInfo"`
}

// InitializeResult is the server's answer to initialize.
type InitializeResult struct {
	ResultInfo
	ProtocolVersion string              `json:"protocolVersion"`
	Capabilities    *ServerCapabilities `json:"capabilities"`
	ServerInfo      *Implementation     `json:"serverInfo"`
	Instructions    string              `json:"instructions,omitempty"`
}

// DiscoverResult is the server's answer to server/discover (2026-07-28).
type DiscoverResult struct {
	ResultInfo
	CacheHints
	SupportedVersions []string            `json:"supportedVersions"`
	Capabilities      *ServerCapabilities `json:"capabilities"`
	// ServerInfo is read from _meta["io.modelcontextprotocol/serverInfo"],
	// or from a serverInfo member some servers still send.
	ServerInfo   *Implementation `json:"serverInfo,omitempty"`
	Instructions string          `json:"instructions,omitempty"`
}

// SubscriptionFilter selects the notifications of a subscriptions/listen
// stream (2026-07-28).
type SubscriptionFilter struct {
	ToolsListChanged      bool     `json:"toolsListChanged,omitempty"`
	PromptsListChanged    bool     `json:"promptsListChanged,omitempty"`
	ResourcesListChanged  bool     `json:"resourcesListChanged,omitempty"`
	ResourceSubscriptions []string `json:"resourceSubscriptions,omitempty"`
	// TaskIDs asks for notifications/tasks of these tasks (the 2026-07-28
	// tasks extension).
	TaskIDs []string `json:"taskIds,omitempty"`
}

// ListenParams are the parameters of subscriptions/listen.
type ListenParams struct {
	Meta          Meta                `json:"_meta,omitempty"`
	Notifications *SubscriptionFilter `json:"notifications"`
}

// AcknowledgedParams are the parameters of
// notifications/subscriptions/acknowledged.
type AcknowledgedParams struct {
	Meta          Meta                `json:"_meta,omitempty"`
	Notifications *SubscriptionFilter `json:"notifications"`
}

// InputRequest is one entry of an input_required result's inputRequests.
type InputRequest struct {
	Method string     `json:"method"`
	Params RawMessage `json:"params,omitempty"`
}

// inputRequiredResult is an input_required result (2026-07-28 MRTR).
type inputRequiredResult struct {
	ResultType    string                   `json:"resultType"`
	InputRequests map[string]*InputRequest `json:"inputRequests,omitempty"`
	// RequestState is kept as the raw JSON token so the retry echoes the
	// server's bytes exactly.
	RequestState RawMessage `json:"requestState,omitempty"`
}
