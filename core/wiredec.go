package core

import (
	"github.com/mcpwasm/mcpwasm/internal/jsonscan"
	"github.com/mcpwasm/mcpwasm/jsonrpc"
)

// Hand-written decoders of the wire types (see jsondec.go for the rules).
// Each decodeX(d, v, p) decodes the JSON value v into *p, which may hold a
// value already (a repeated member merges, as with encoding/json).

var (
	implFields        = []string{"name", "title", "version", "description", "websiteUrl", "icons"}
	iconFields        = []string{"src", "mimeType", "sizes", "theme"}
	serverCapsFields  = []string{"experimental", "extensions", "logging", "completions", "prompts", "resources", "tools", "tasks"}
	listChangedFields = []string{"listChanged"}
	resCapFields      = []string{"subscribe", "listChanged"}
	initResultFields  = []string{"_meta", "resultType", "protocolVersion", "capabilities", "serverInfo", "instructions"}
	discoverFields    = []string{"_meta", "resultType", "ttlMs", "cacheScope", "supportedVersions", "capabilities", "serverInfo", "instructions"}
	toolFields        = []string{"name", "title", "description", "inputSchema", "outputSchema", "annotations", "execution", "icons", "_meta"}
	toolAnnFields     = []string{"title", "readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"}
	listToolsFields   = []string{"_meta", "resultType", "ttlMs", "cacheScope", "tools", "nextCursor"}
	callResultFields  = []string{"_meta", "resultType", "content", "structuredContent", "isError"}
	contentFields     = []string{"type", "text", "data", "mimeType", "resource", "uri", "name", "title", "description", "size", "icons", "id", "input", "toolUseId", "content", "structuredContent", "isError", "annotations", "_meta"}
	resContentsFields = []string{"uri", "mimeType", "text", "blob", "_meta"}
	annotationsFields = []string{"audience", "priority", "lastModified"}
	rpcErrorFields    = []string{"code", "message", "data"}
	wireTaskFields    = []string{"taskId", "status", "statusMessage", "createdAt", "lastUpdatedAt", "ttl", "ttlMs", "pollInterval", "pollIntervalMs", "inputRequests", "result", "error"}
	inputReqFields    = []string{"method", "params"}
	inputReqdFields   = []string{"resultType", "inputRequests", "requestState"}
)

func decodeImplementation(d *dec, v []byte, p *Implementation) {
	d.object(v, "core.Implementation", "Implementation", implFields, func(name string, v []byte) {
		switch name {
		case "name":
			d.str(&p.Name, v)
		case "title":
			d.str(&p.Title, v)
		case "version":
			d.str(&p.Version, v)
		case "description":
			d.str(&p.Description, v)
		case "websiteUrl":
			d.str(&p.WebsiteURL, v)
		case "icons":
			decodeIcons(d, v, &p.Icons)
		}
	})
}

func decodeImplementationPtr(d *dec, v []byte, p **Implementation) {
	if isNullRaw(v) {
		*p = nil
		return
	}
	if *p == nil {
		*p = new(Implementation)
	}
	decodeImplementation(d, v, *p)
}

func decodeIcons(d *dec, v []byte, p *[]Icon) {
	if isNullRaw(v) {
		*p = nil
		return
	}
	out := (*p)[:0]
	if out == nil {
		out = []Icon{}
	}
	if d.array(v, "[]core.Icon", func(e []byte) {
		var ic Icon
		d.object(e, "core.Icon", "Icon", iconFields, func(name string, v []byte) {
			switch name {
			case "src":
				d.str(&ic.Src, v)
			case "mimeType":
				d.str(&ic.MimeType, v)
			case "sizes":
				d.strs(&ic.Sizes, v)
			case "theme":
				d.str(&ic.Theme, v)
			}
		})
		out = append(out, ic)
	}) {
		*p = out
	}
}

// emptyStruct decodes a *struct{} capability member.
func (d *dec) emptyStruct(p **struct{}, v []byte) {
	if isNullRaw(v) {
		*p = nil
		return
	}
	if *p == nil {
		*p = &struct{}{}
	}
	d.object(v, "struct {}", "", nil, func(string, []byte) {})
}

func decodeListChanged(d *dec, v []byte, p **ListChangedCapability) {
	if isNullRaw(v) {
		*p = nil
		return
	}
	if *p == nil {
		*p = new(ListChangedCapability)
	}
	c := *p
	d.object(v, "core.ListChangedCapability", "ListChangedCapability", listChangedFields, func(_ string, v []byte) {
		d.boolean(&c.ListChanged, v)
	})
}

func decodeServerCaps(d *dec, v []byte, p **ServerCapabilities) {
	if isNullRaw(v) {
		*p = nil
		return
	}
	if *p == nil {
		*p = new(ServerCapabilities)
	}
	c := *p
	d.object(v, "core.ServerCapabilities", "ServerCapabilities", serverCapsFields, func(name string, v []byte) {
		switch name {
		case "experimental":
			d.anyMap(&c.Experimental, v, "map[string]interface {}")
		case "extensions":
			d.anyMap(&c.Extensions, v, "map[string]interface {}")
		case "logging":
			d.emptyStruct(&c.Logging, v)
		case "completions":
			d.emptyStruct(&c.Completions, v)
		case "prompts":
			decodeListChanged(d, v, &c.Prompts)
		case "tools":
			decodeListChanged(d, v, &c.Tools)
		case "resources":
			if isNullRaw(v) {
				c.Resources = nil
				return
			}
			if c.Resources == nil {
				c.Resources = new(ResourcesCapability)
			}
			r := c.Resources
			d.object(v, "core.ResourcesCapability", "ResourcesCapability", resCapFields, func(name string, v []byte) {
				if name == "subscribe" {
					d.boolean(&r.Subscribe, v)
				} else {
					d.boolean(&r.ListChanged, v)
				}
			})
		case "tasks":
			raw(&c.Tasks, v)
		}
	})
}

// resultInfo decodes the members of the embedded ResultInfo.
func (d *dec) resultInfo(name string, v []byte, p *ResultInfo) {
	d.embedded("ResultInfo", func() {
		if name == "_meta" {
			d.meta(&p.Meta, v)
		} else {
			d.str(&p.ResultType, v)
		}
	})
}

// cacheHints decodes the members of the embedded CacheHints.
func (d *dec) cacheHints(name string, v []byte, p *CacheHints) {
	d.embedded("CacheHints", func() {
		if name == "ttlMs" {
			d.int64p(&p.TTLMs, v)
		} else {
			d.str(&p.CacheScope, v)
		}
	})
}

// decodeInitializeResult is json.Unmarshal into an InitializeResult.
func decodeInitializeResult(data []byte, r *InitializeResult) error {
	return decodeInto(data, func(d *dec, v []byte) {
		d.object(v, "core.InitializeResult", "InitializeResult", initResultFields, func(name string, v []byte) {
			switch name {
			case "_meta", "resultType":
				d.resultInfo(name, v, &r.ResultInfo)
			case "protocolVersion":
				d.str(&r.ProtocolVersion, v)
			case "capabilities":
				decodeServerCaps(d, v, &r.Capabilities)
			case "serverInfo":
				decodeImplementationPtr(d, v, &r.ServerInfo)
			case "instructions":
				d.str(&r.Instructions, v)
			}
		})
	})
}

// decodeDiscoverResult is json.Unmarshal into a DiscoverResult.
func decodeDiscoverResult(data []byte, r *DiscoverResult) error { return decodeTypedResult(data, r) }

func decodeTool(d *dec, v []byte, t *Tool) {
	d.object(v, "core.Tool", "Tool", toolFields, func(name string, v []byte) {
		switch name {
		case "name":
			d.str(&t.Name, v)
		case "title":
			d.str(&t.Title, v)
		case "description":
			d.str(&t.Description, v)
		case "inputSchema":
			raw(&t.InputSchema, v)
		case "outputSchema":
			raw(&t.OutputSchema, v)
		case "execution":
			raw(&t.Execution, v)
		case "icons":
			decodeIcons(d, v, &t.Icons)
		case "_meta":
			d.meta(&t.Meta, v)
		case "annotations":
			if isNullRaw(v) {
				t.Annotations = nil
				return
			}
			if t.Annotations == nil {
				t.Annotations = new(ToolAnnotations)
			}
			a := t.Annotations
			d.object(v, "core.ToolAnnotations", "ToolAnnotations", toolAnnFields, func(name string, v []byte) {
				switch name {
				case "title":
					d.str(&a.Title, v)
				case "readOnlyHint":
					d.boolp(&a.ReadOnlyHint, v)
				case "destructiveHint":
					d.boolp(&a.DestructiveHint, v)
				case "idempotentHint":
					d.boolp(&a.IdempotentHint, v)
				case "openWorldHint":
					d.boolp(&a.OpenWorldHint, v)
				}
			})
		}
	})
}

func (d *dec) boolp(p **bool, v []byte) {
	if isNullRaw(v) {
		*p = nil
		return
	}
	if *p == nil {
		*p = new(bool)
	}
	d.boolean(*p, v)
}

func decodeTools(d *dec, v []byte, p *[]*Tool) {
	if isNullRaw(v) {
		*p = nil
		return
	}
	out := (*p)[:0]
	if out == nil {
		out = []*Tool{}
	}
	if d.array(v, "[]*core.Tool", func(e []byte) {
		var t *Tool
		if !isNullRaw(e) {
			t = new(Tool)
			decodeTool(d, e, t)
		}
		out = append(out, t)
	}) {
		*p = out
	}
}

// decodeListToolsResult is json.Unmarshal into a ListToolsResult.
func decodeListToolsResult(data []byte, r *ListToolsResult) error {
	return decodeInto(data, func(d *dec, v []byte) {
		d.object(v, "core.ListToolsResult", "ListToolsResult", listToolsFields, func(name string, v []byte) {
			switch name {
			case "_meta", "resultType":
				d.resultInfo(name, v, &r.ResultInfo)
			case "ttlMs", "cacheScope":
				d.cacheHints(name, v, &r.CacheHints)
			case "tools":
				decodeTools(d, v, &r.Tools)
			case "nextCursor":
				d.str(&r.NextCursor, v)
			}
		})
	})
}

func decodeAnnotations(d *dec, v []byte, p **Annotations) {
	if isNullRaw(v) {
		*p = nil
		return
	}
	if *p == nil {
		*p = new(Annotations)
	}
	a := *p
	d.object(v, "core.Annotations", "Annotations", annotationsFields, func(name string, v []byte) {
		switch name {
		case "audience":
			d.strs(&a.Audience, v)
		case "priority":
			d.floatp(&a.Priority, v)
		case "lastModified":
			d.str(&a.LastModified, v)
		}
	})
}

func decodeResourceContents(d *dec, v []byte, p **ResourceContents) {
	if isNullRaw(v) {
		*p = nil
		return
	}
	if *p == nil {
		*p = new(ResourceContents)
	}
	r := *p
	d.object(v, "core.ResourceContents", "ResourceContents", resContentsFields, func(name string, v []byte) {
		switch name {
		case "uri":
			d.str(&r.URI, v)
		case "mimeType":
			d.str(&r.MimeType, v)
		case "text":
			d.str(&r.Text, v)
		case "blob":
			d.str(&r.Blob, v)
		case "_meta":
			d.meta(&r.Meta, v)
		}
	})
}

func decodeContent(d *dec, v []byte, c *Content) {
	d.object(v, "core.Content", "Content", contentFields, func(name string, v []byte) {
		switch name {
		case "type":
			d.str(&c.Type, v)
		case "text":
			d.str(&c.Text, v)
		case "data":
			d.str(&c.Data, v)
		case "mimeType":
			d.str(&c.MimeType, v)
		case "resource":
			decodeResourceContents(d, v, &c.Resource)
		case "uri":
			d.str(&c.URI, v)
		case "name":
			d.str(&c.Name, v)
		case "title":
			d.str(&c.Title, v)
		case "description":
			d.str(&c.Description, v)
		case "size":
			d.int64p(&c.Size, v)
		case "icons":
			decodeIcons(d, v, &c.Icons)
		case "id":
			d.str(&c.ID, v)
		case "input":
			raw(&c.Input, v)
		case "toolUseId":
			d.str(&c.ToolUseID, v)
		case "content":
			decodeContents(d, v, &c.Content)
		case "structuredContent":
			raw(&c.StructuredContent, v)
		case "isError":
			d.boolean(&c.IsError, v)
		case "annotations":
			decodeAnnotations(d, v, &c.Annotations)
		case "_meta":
			d.meta(&c.Meta, v)
		}
	})
}

// decodeContents decodes a []*Content member.
func decodeContents(d *dec, v []byte, p *[]*Content) {
	if isNullRaw(v) {
		*p = nil
		return
	}
	out := (*p)[:0]
	if out == nil {
		out = make([]*Content, 0, 1)
	}
	if d.array(v, "[]*core.Content", func(e []byte) {
		var c *Content
		if !isNullRaw(e) {
			c = new(Content)
			decodeContent(d, e, c)
		}
		out = append(out, c)
	}) {
		*p = out
	}
}

// decodeCallToolResult is json.Unmarshal into a CallToolResult.
func decodeCallToolResult(data []byte, r *CallToolResult) error {
	return decodeInto(data, func(d *dec, v []byte) {
		d.object(v, "core.CallToolResult", "CallToolResult", callResultFields, func(name string, v []byte) {
			switch name {
			case "_meta", "resultType":
				d.resultInfo(name, v, &r.ResultInfo)
			case "content":
				decodeContents(d, v, &r.Content)
			case "structuredContent":
				raw(&r.StructuredContent, v)
			case "isError":
				d.boolean(&r.IsError, v)
			}
		})
	})
}

// decodeRPCError decodes a JSON-RPC error object member.
func decodeRPCError(d *dec, v []byte, p **jsonrpc.Error) {
	if isNullRaw(v) {
		*p = nil
		return
	}
	if *p == nil {
		*p = new(jsonrpc.Error)
	}
	e := *p
	d.object(v, "jsonrpc.Error", "Error", rpcErrorFields, func(name string, v []byte) {
		switch name {
		case "code":
			d.int64v(&e.Code, v)
		case "message":
			d.str(&e.Message, v)
		case "data":
			raw(&e.Data, v)
		}
	})
}

// decodeInputRequests decodes a map[string]*InputRequest member.
func decodeInputRequests(d *dec, v []byte, p *map[string]*InputRequest) {
	if isNullRaw(v) {
		*p = nil
		return
	}
	if len(v) == 0 || v[0] != '{' {
		d.typeErr(kindName(v), "map[string]*core.InputRequest")
		return
	}
	if *p == nil {
		*p = map[string]*InputRequest{}
	}
	m := *p
	eachMember(v, func(key string, e []byte) {
		if isNullRaw(e) {
			m[key] = nil
			return
		}
		r := new(InputRequest) // a map element is decoded fresh
		d.object(e, "core.InputRequest", "InputRequest", inputReqFields, func(name string, v []byte) {
			if name == "method" {
				d.str(&r.Method, v)
			} else {
				raw(&r.Params, v)
			}
		})
		m[key] = r
	})
}

// eachMember calls f with each member of the valid JSON object v.
func eachMember(v []byte, f func(key string, val []byte)) {
	ms, err := jsonscan.SplitMembers(v)
	if err != nil {
		return
	}
	for _, m := range ms {
		f(m.Key, m.Val)
	}
}

func decodeWireTask(d *dec, v []byte, w *wireTask) {
	d.object(v, "core.wireTask", "wireTask", wireTaskFields, func(name string, v []byte) {
		switch name {
		case "taskId":
			d.str(&w.TaskID, v)
		case "status":
			d.str(&w.Status, v)
		case "statusMessage":
			d.str(&w.StatusMessage, v)
		case "createdAt":
			d.str(&w.CreatedAt, v)
		case "lastUpdatedAt":
			d.str(&w.LastUpdatedAt, v)
		case "ttl":
			d.int64p(&w.TTL, v)
		case "ttlMs":
			d.int64p(&w.TTLMs, v)
		case "pollInterval":
			d.int64p(&w.PollInterval, v)
		case "pollIntervalMs":
			d.int64p(&w.PollIntervalMs, v)
		case "inputRequests":
			decodeInputRequests(d, v, &w.InputRequests)
		case "result":
			raw(&w.Result, v)
		case "error":
			decodeRPCError(d, v, &w.Error)
		}
	})
}

// decodeWireTaskJSON is json.Unmarshal into a wireTask.
func decodeWireTaskJSON(data []byte, w *wireTask) error {
	return decodeInto(data, func(d *dec, v []byte) { decodeWireTask(d, v, w) })
}

// decodeInputRequired is json.Unmarshal into an inputRequiredResult.
func decodeInputRequired(data []byte, r *inputRequiredResult) error {
	return decodeInto(data, func(d *dec, v []byte) {
		d.object(v, "core.inputRequiredResult", "inputRequiredResult", inputReqdFields, func(name string, v []byte) {
			switch name {
			case "resultType":
				d.str(&r.ResultType, v)
			case "inputRequests":
				decodeInputRequests(d, v, &r.InputRequests)
			case "requestState":
				raw(&r.RequestState, v)
			}
		})
	})
}

// member returns the raw value of the member name of the JSON object v as
// encoding/json picks a struct field (exact name, else case-insensitive;
// the last one wins), or nil. v must be valid JSON; anything but an object
// gives nil.
func member(v []byte, name string) []byte {
	v = trimJSON(v)
	if len(v) == 0 || v[0] != '{' {
		return nil
	}
	names := [1]string{name}
	var out []byte
	d := dec{}
	d.path = d.buf[:0]
	d.object(v, "", "", names[:], func(_ string, val []byte) { out = val })
	return out
}

// stringOf decodes a JSON string value (anything else: "", false).
func stringOf(v []byte) (string, bool) {
	if len(v) == 0 || v[0] != '"' {
		return "", false
	}
	return jsonscan.RawString(v), true
}

var (
	elicitParamsFields  = []string{"_meta", "mode", "message", "requestedSchema", "url", "elicitationId"}
	createMsgFields     = []string{"_meta", "messages", "modelPreferences", "systemPrompt", "includeContext", "temperature", "maxTokens", "stopSequences", "metadata", "tools", "toolChoice"}
	samplingMsgFields   = []string{"role", "content", "_meta"}
	modelPrefFields     = []string{"hints", "costPriority", "speedPriority", "intelligencePriority"}
	nameFields          = []string{"name"}
	modeFields          = []string{"mode"}
	progressFields      = []string{"_meta", "progressToken", "progress", "total", "message"}
	cancelledFields     = []string{"_meta", "requestId", "reason"}
	ackFields           = []string{"_meta", "notifications"}
	filterFields        = []string{"toolsListChanged", "promptsListChanged", "resourcesListChanged", "resourceSubscriptions", "taskIds"}
	uriMetaFields       = []string{"_meta", "uri"}
	loggingFields       = []string{"_meta", "level", "logger", "data"}
	elicitCompleteField = []string{"_meta", "elicitationId"}
	subscriptionIDField = []string{"io.modelcontextprotocol/subscriptionId"}
)

func decodeElicitParams(d *dec, v []byte, p *ElicitParams) {
	d.object(v, "core.ElicitParams", "ElicitParams", elicitParamsFields, func(name string, v []byte) {
		switch name {
		case "_meta":
			d.meta(&p.Meta, v)
		case "mode":
			d.str(&p.Mode, v)
		case "message":
			d.str(&p.Message, v)
		case "requestedSchema":
			raw(&p.RequestedSchema, v)
		case "url":
			d.str(&p.URL, v)
		case "elicitationId":
			d.str(&p.ElicitationID, v)
		}
	})
}

// decodeContentList is ContentList.UnmarshalJSON: an array of blocks, or
// one block (null: one empty block).
func decodeContentList(d *dec, v []byte, p *ContentList) {
	sub := newDec()
	if len(v) > 0 && v[0] == '[' {
		var list []*Content
		decodeContents(sub, v, &list)
		if sub.err != nil {
			d.failSelf(sub.err)
			return
		}
		*p = list
		return
	}
	one := new(Content)
	decodeContent(sub, v, one)
	if sub.err != nil {
		d.failSelf(sub.err)
		return
	}
	*p = ContentList{one}
}

func decodeSamplingMessage(d *dec, v []byte, m *SamplingMessage) {
	d.object(v, "core.SamplingMessage", "SamplingMessage", samplingMsgFields, func(name string, v []byte) {
		switch name {
		case "role":
			d.str(&m.Role, v)
		case "content":
			decodeContentList(d, v, &m.Content)
		case "_meta":
			d.meta(&m.Meta, v)
		}
	})
}

func decodeCreateMessageParams(d *dec, v []byte, p *CreateMessageParams) {
	d.object(v, "core.CreateMessageParams", "CreateMessageParams", createMsgFields, func(name string, v []byte) {
		switch name {
		case "_meta":
			d.meta(&p.Meta, v)
		case "messages":
			if isNullRaw(v) {
				p.Messages = nil
				return
			}
			out := p.Messages[:0]
			if out == nil {
				out = []*SamplingMessage{}
			}
			if d.array(v, "[]*core.SamplingMessage", func(e []byte) {
				var m *SamplingMessage
				if !isNullRaw(e) {
					m = new(SamplingMessage)
					decodeSamplingMessage(d, e, m)
				}
				out = append(out, m)
			}) {
				p.Messages = out
			}
		case "modelPreferences":
			if isNullRaw(v) {
				p.ModelPreferences = nil
				return
			}
			if p.ModelPreferences == nil {
				p.ModelPreferences = new(ModelPreferences)
			}
			mp := p.ModelPreferences
			d.object(v, "core.ModelPreferences", "ModelPreferences", modelPrefFields, func(name string, v []byte) {
				switch name {
				case "hints":
					if isNullRaw(v) {
						mp.Hints = nil
						return
					}
					out := mp.Hints[:0]
					if out == nil {
						out = []*ModelHint{}
					}
					if d.array(v, "[]*core.ModelHint", func(e []byte) {
						var h *ModelHint
						if !isNullRaw(e) {
							h = new(ModelHint)
							d.object(e, "core.ModelHint", "ModelHint", nameFields, func(_ string, v []byte) { d.str(&h.Name, v) })
						}
						out = append(out, h)
					}) {
						mp.Hints = out
					}
				case "costPriority":
					d.floatp(&mp.CostPriority, v)
				case "speedPriority":
					d.floatp(&mp.SpeedPriority, v)
				case "intelligencePriority":
					d.floatp(&mp.IntelligencePriority, v)
				}
			})
		case "systemPrompt":
			d.str(&p.SystemPrompt, v)
		case "includeContext":
			d.str(&p.IncludeContext, v)
		case "temperature":
			d.floatp(&p.Temperature, v)
		case "maxTokens":
			d.int64v(&p.MaxTokens, v)
		case "stopSequences":
			d.strs(&p.StopSequences, v)
		case "metadata":
			raw(&p.Metadata, v)
		case "tools":
			decodeTools(d, v, &p.Tools)
		case "toolChoice":
			if isNullRaw(v) {
				p.ToolChoice = nil
				return
			}
			if p.ToolChoice == nil {
				p.ToolChoice = new(ToolChoice)
			}
			tc := p.ToolChoice
			d.object(v, "core.ToolChoice", "ToolChoice", modeFields, func(_ string, v []byte) { d.str(&tc.Mode, v) })
		}
	})
}

// decodeParamsOf is json.Unmarshal of a server request's or a
// notification's params into one of the params types the session reads.
func decodeParamsOf(data []byte, v any) error {
	return decodeInto(data, func(d *dec, obj []byte) {
		switch p := v.(type) {
		case *ElicitParams:
			decodeElicitParams(d, obj, p)
		case *CreateMessageParams:
			decodeCreateMessageParams(d, obj, p)
		case *ListRootsParams:
			d.object(obj, "core.ListRootsParams", "ListRootsParams", metaFieldNames, func(_ string, v []byte) { d.meta(&p.Meta, v) })
		case *ProgressParams:
			d.object(obj, "core.ProgressParams", "ProgressParams", progressFields, func(name string, v []byte) {
				switch name {
				case "_meta":
					d.meta(&p.Meta, v)
				case "progressToken":
					d.anyValue(&p.ProgressToken, v)
				case "progress":
					d.float(&p.Progress, v)
				case "total":
					d.floatp(&p.Total, v)
				case "message":
					d.str(&p.Message, v)
				}
			})
		case *CancelledParams:
			d.object(obj, "core.CancelledParams", "CancelledParams", cancelledFields, func(name string, v []byte) {
				switch name {
				case "_meta":
					d.meta(&p.Meta, v)
				case "requestId":
					d.id(&p.RequestID, v)
				case "reason":
					d.str(&p.Reason, v)
				}
			})
		case *AcknowledgedParams:
			d.object(obj, "core.AcknowledgedParams", "AcknowledgedParams", ackFields, func(name string, v []byte) {
				if name == "_meta" {
					d.meta(&p.Meta, v)
					return
				}
				decodeFilter(d, v, &p.Notifications)
			})
		case *ResourceUpdatedParams:
			d.object(obj, "core.ResourceUpdatedParams", "ResourceUpdatedParams", uriMetaFields, func(name string, v []byte) {
				if name == "_meta" {
					d.meta(&p.Meta, v)
				} else {
					d.str(&p.URI, v)
				}
			})
		case *LoggingMessageParams:
			d.object(obj, "core.LoggingMessageParams", "LoggingMessageParams", loggingFields, func(name string, v []byte) {
				switch name {
				case "_meta":
					d.meta(&p.Meta, v)
				case "level":
					d.str(&p.Level, v)
				case "logger":
					d.str(&p.Logger, v)
				case "data":
					raw(&p.Data, v)
				}
			})
		case *ElicitationCompleteParams:
			d.object(obj, "core.ElicitationCompleteParams", "ElicitationCompleteParams", elicitCompleteField, func(name string, v []byte) {
				if name == "_meta" {
					d.meta(&p.Meta, v)
				} else {
					d.str(&p.ElicitationID, v)
				}
			})
		case *notificationEnvelope:
			d.object(obj, "core.notificationEnvelope", "notificationEnvelope", metaFieldNames, func(_ string, v []byte) {
				d.object(v, "struct { SubscriptionID *jsonrpc.ID \"json:\\\"io.modelcontextprotocol/subscriptionId\\\"\" }", "", subscriptionIDField, func(_ string, v []byte) {
					if isNullRaw(v) {
						p.Meta.SubscriptionID = nil
						return
					}
					if p.Meta.SubscriptionID == nil {
						p.Meta.SubscriptionID = new(jsonrpc.ID)
					}
					d.id(p.Meta.SubscriptionID, v)
				})
			})
		default:
			panic("core: decodeParamsOf: unexpected type")
		}
	})
}

// id decodes a jsonrpc.ID member (its UnmarshalJSON).
func (d *dec) id(p *jsonrpc.ID, v []byte) {
	if err := p.UnmarshalJSON(v); err != nil {
		d.failSelf(err)
	}
}

func decodeFilter(d *dec, v []byte, p **SubscriptionFilter) {
	if isNullRaw(v) {
		*p = nil
		return
	}
	if *p == nil {
		*p = new(SubscriptionFilter)
	}
	f := *p
	d.object(v, "core.SubscriptionFilter", "SubscriptionFilter", filterFields, func(name string, v []byte) {
		switch name {
		case "toolsListChanged":
			d.boolean(&f.ToolsListChanged, v)
		case "promptsListChanged":
			d.boolean(&f.PromptsListChanged, v)
		case "resourcesListChanged":
			d.boolean(&f.ResourcesListChanged, v)
		case "resourceSubscriptions":
			d.strs(&f.ResourceSubscriptions, v)
		case "taskIds":
			d.strs(&f.TaskIDs, v)
		}
	})
}

var (
	resourceFields    = []string{"uri", "name", "title", "description", "mimeType", "size", "annotations", "icons", "_meta"}
	templateFields    = []string{"uriTemplate", "name", "title", "description", "mimeType", "annotations", "icons", "_meta"}
	listResFields     = []string{"_meta", "resultType", "ttlMs", "cacheScope", "resources", "nextCursor"}
	listTmplFields    = []string{"_meta", "resultType", "ttlMs", "cacheScope", "resourceTemplates", "nextCursor"}
	readResFields     = []string{"_meta", "resultType", "ttlMs", "cacheScope", "contents"}
	promptFields      = []string{"name", "title", "description", "arguments", "icons", "_meta"}
	promptArgFields   = []string{"name", "title", "description", "required"}
	listPromptsFields = []string{"_meta", "resultType", "ttlMs", "cacheScope", "prompts", "nextCursor"}
	getPromptFields   = []string{"_meta", "resultType", "description", "messages"}
	promptMsgFields   = []string{"role", "content"}
	completeFields    = []string{"_meta", "resultType", "completion"}
	completionFields  = []string{"values", "total", "hasMore"}
)

// ptrList decodes a JSON array of objects into a []*T with each (non-null)
// element decoded by f (typ names the slice type for errors).
func ptrList[T any](d *dec, v []byte, p *[]*T, typ string, f func(d *dec, v []byte, x *T)) {
	if isNullRaw(v) {
		*p = nil
		return
	}
	out := (*p)[:0]
	if out == nil {
		out = []*T{}
	}
	if d.array(v, typ, func(e []byte) {
		var x *T
		if !isNullRaw(e) {
			x = new(T)
			f(d, e, x)
		}
		out = append(out, x)
	}) {
		*p = out
	}
}

func decodeResource(d *dec, v []byte, r *Resource) {
	d.object(v, "core.Resource", "Resource", resourceFields, func(name string, v []byte) {
		switch name {
		case "uri":
			d.str(&r.URI, v)
		case "name":
			d.str(&r.Name, v)
		case "title":
			d.str(&r.Title, v)
		case "description":
			d.str(&r.Description, v)
		case "mimeType":
			d.str(&r.MimeType, v)
		case "size":
			d.int64p(&r.Size, v)
		case "annotations":
			decodeAnnotations(d, v, &r.Annotations)
		case "icons":
			decodeIcons(d, v, &r.Icons)
		case "_meta":
			d.meta(&r.Meta, v)
		}
	})
}

func decodeTemplate(d *dec, v []byte, r *ResourceTemplate) {
	d.object(v, "core.ResourceTemplate", "ResourceTemplate", templateFields, func(name string, v []byte) {
		switch name {
		case "uriTemplate":
			d.str(&r.URITemplate, v)
		case "name":
			d.str(&r.Name, v)
		case "title":
			d.str(&r.Title, v)
		case "description":
			d.str(&r.Description, v)
		case "mimeType":
			d.str(&r.MimeType, v)
		case "annotations":
			decodeAnnotations(d, v, &r.Annotations)
		case "icons":
			decodeIcons(d, v, &r.Icons)
		case "_meta":
			d.meta(&r.Meta, v)
		}
	})
}

func decodePrompt(d *dec, v []byte, p *Prompt) {
	d.object(v, "core.Prompt", "Prompt", promptFields, func(name string, v []byte) {
		switch name {
		case "name":
			d.str(&p.Name, v)
		case "title":
			d.str(&p.Title, v)
		case "description":
			d.str(&p.Description, v)
		case "arguments":
			ptrList(d, v, &p.Arguments, "[]*core.PromptArgument", func(d *dec, v []byte, a *PromptArgument) {
				d.object(v, "core.PromptArgument", "PromptArgument", promptArgFields, func(name string, v []byte) {
					switch name {
					case "name":
						d.str(&a.Name, v)
					case "title":
						d.str(&a.Title, v)
					case "description":
						d.str(&a.Description, v)
					case "required":
						d.boolean(&a.Required, v)
					}
				})
			})
		case "icons":
			decodeIcons(d, v, &p.Icons)
		case "_meta":
			d.meta(&p.Meta, v)
		}
	})
}

// decodeTypedResult is json.Unmarshal of the result of one of the typed
// request methods into *v.
func decodeTypedResult(data []byte, v any) error {
	return decodeInto(data, func(d *dec, obj []byte) {
		switch r := v.(type) {
		case *DiscoverResult:
			d.object(obj, "core.DiscoverResult", "DiscoverResult", discoverFields, func(name string, v []byte) {
				switch name {
				case "_meta", "resultType":
					d.resultInfo(name, v, &r.ResultInfo)
				case "ttlMs", "cacheScope":
					d.cacheHints(name, v, &r.CacheHints)
				case "supportedVersions":
					d.strs(&r.SupportedVersions, v)
				case "capabilities":
					decodeServerCaps(d, v, &r.Capabilities)
				case "serverInfo":
					decodeImplementationPtr(d, v, &r.ServerInfo)
				case "instructions":
					d.str(&r.Instructions, v)
				}
			})
		case *ListResourcesResult:
			d.object(obj, "core.ListResourcesResult", "ListResourcesResult", listResFields, func(name string, v []byte) {
				switch name {
				case "_meta", "resultType":
					d.resultInfo(name, v, &r.ResultInfo)
				case "ttlMs", "cacheScope":
					d.cacheHints(name, v, &r.CacheHints)
				case "resources":
					ptrList(d, v, &r.Resources, "[]*core.Resource", decodeResource)
				case "nextCursor":
					d.str(&r.NextCursor, v)
				}
			})
		case *ListResourceTemplatesResult:
			d.object(obj, "core.ListResourceTemplatesResult", "ListResourceTemplatesResult", listTmplFields, func(name string, v []byte) {
				switch name {
				case "_meta", "resultType":
					d.resultInfo(name, v, &r.ResultInfo)
				case "ttlMs", "cacheScope":
					d.cacheHints(name, v, &r.CacheHints)
				case "resourceTemplates":
					ptrList(d, v, &r.ResourceTemplates, "[]*core.ResourceTemplate", decodeTemplate)
				case "nextCursor":
					d.str(&r.NextCursor, v)
				}
			})
		case *ReadResourceResult:
			d.object(obj, "core.ReadResourceResult", "ReadResourceResult", readResFields, func(name string, v []byte) {
				switch name {
				case "_meta", "resultType":
					d.resultInfo(name, v, &r.ResultInfo)
				case "ttlMs", "cacheScope":
					d.cacheHints(name, v, &r.CacheHints)
				case "contents":
					ptrList(d, v, &r.Contents, "[]*core.ResourceContents", func(d *dec, v []byte, c *ResourceContents) {
						decodeResourceContents(d, v, &c)
					})
				}
			})
		case *ListPromptsResult:
			d.object(obj, "core.ListPromptsResult", "ListPromptsResult", listPromptsFields, func(name string, v []byte) {
				switch name {
				case "_meta", "resultType":
					d.resultInfo(name, v, &r.ResultInfo)
				case "ttlMs", "cacheScope":
					d.cacheHints(name, v, &r.CacheHints)
				case "prompts":
					ptrList(d, v, &r.Prompts, "[]*core.Prompt", decodePrompt)
				case "nextCursor":
					d.str(&r.NextCursor, v)
				}
			})
		case *GetPromptResult:
			d.object(obj, "core.GetPromptResult", "GetPromptResult", getPromptFields, func(name string, v []byte) {
				switch name {
				case "_meta", "resultType":
					d.resultInfo(name, v, &r.ResultInfo)
				case "description":
					d.str(&r.Description, v)
				case "messages":
					ptrList(d, v, &r.Messages, "[]*core.PromptMessage", func(d *dec, v []byte, m *PromptMessage) {
						d.object(v, "core.PromptMessage", "PromptMessage", promptMsgFields, func(name string, v []byte) {
							if name == "role" {
								d.str(&m.Role, v)
								return
							}
							if isNullRaw(v) {
								m.Content = nil
								return
							}
							if m.Content == nil {
								m.Content = new(Content)
							}
							decodeContent(d, v, m.Content)
						})
					})
				}
			})
		case *CompleteResult:
			d.object(obj, "core.CompleteResult", "CompleteResult", completeFields, func(name string, v []byte) {
				switch name {
				case "_meta", "resultType":
					d.resultInfo(name, v, &r.ResultInfo)
				case "completion":
					c := &r.Completion
					d.object(v, "core.Completion", "Completion", completionFields, func(name string, v []byte) {
						switch name {
						case "values":
							d.strs(&c.Values, v)
						case "total":
							d.int64p(&c.Total, v)
						case "hasMore":
							d.boolean(&c.HasMore, v)
						}
					})
				}
			})
		default:
			panic("core: decodeTypedResult: unexpected type")
		}
	})
}
