package core

import (
	"encoding/json"
	"errors"
	"slices"
	"strconv"
	"strings"

	"github.com/mcpwasm/mcpwasm/internal/jsonscan"
)

// Hand-written encoders of the wire types the client sends: the same bytes
// as json.Marshal (members in field order, omitempty, HTML-safe strings,
// raw JSON compacted), without reflection (see jsondec.go).

var errUnsupportedValue = errors.New("core: cannot encode a value of this Go type without encoding/json (use JSON-shaped values: maps, slices, strings, numbers, booleans, json.RawMessage)")

// appendAny appends v as JSON: the values encoding/json decodes into an
// interface (and json.Number, jsonscan.Number), json.RawMessage, Meta,
// maps and slices of those, and any jsonscan.JSONAppender. Other Go types
// are an error.
func appendAny(dst []byte, v any) ([]byte, error) {
	switch x := v.(type) {
	case json.RawMessage:
		if x == nil {
			return append(dst, "null"...), nil
		}
		return appendRawJSON(dst, x)
	case json.Number:
		return jsonscan.AppendValue(dst, jsonscan.Number(x))
	case Meta:
		return appendAny(dst, map[string]any(x))
	case map[string]any:
		if x == nil {
			return append(dst, "null"...), nil
		}
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		dst = append(dst, '{')
		for i, k := range keys {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = jsonscan.AppendString(dst, k)
			dst = append(dst, ':')
			var err error
			if dst, err = appendAny(dst, x[k]); err != nil {
				return dst, err
			}
		}
		return append(dst, '}'), nil
	case map[string]json.RawMessage:
		if x == nil {
			return append(dst, "null"...), nil
		}
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		dst = append(dst, '{')
		for i, k := range keys {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = jsonscan.AppendString(dst, k)
			dst = append(dst, ':')
			var err error
			if dst, err = appendAny(dst, x[k]); err != nil {
				return dst, err
			}
		}
		return append(dst, '}'), nil
	case []any:
		if x == nil {
			return append(dst, "null"...), nil
		}
		dst = append(dst, '[')
		for i, e := range x {
			if i > 0 {
				dst = append(dst, ',')
			}
			var err error
			if dst, err = appendAny(dst, e); err != nil {
				return dst, err
			}
		}
		return append(dst, ']'), nil
	case []map[string]any:
		if x == nil {
			return append(dst, "null"...), nil
		}
		dst = append(dst, '[')
		for i, e := range x {
			if i > 0 {
				dst = append(dst, ',')
			}
			var err error
			if dst, err = appendAny(dst, e); err != nil {
				return dst, err
			}
		}
		return append(dst, ']'), nil
	case struct{}:
		return append(dst, "{}"...), nil
	case *struct{}:
		if x == nil {
			return append(dst, "null"...), nil
		}
		return append(dst, "{}"...), nil
	case int8:
		return strconv.AppendInt(dst, int64(x), 10), nil
	case int16:
		return strconv.AppendInt(dst, int64(x), 10), nil
	case uint8:
		return strconv.AppendUint(dst, uint64(x), 10), nil
	case uint16:
		return strconv.AppendUint(dst, uint64(x), 10), nil
	}
	b, err := jsonscan.AppendValue(dst, v)
	if err != nil {
		if msg := err.Error(); strings.HasPrefix(msg, "jsonscan: unsupported value: ") {
			return dst, errors.New("json: " + strings.TrimPrefix(msg, "jsonscan: "))
		}
		return dst, errUnsupportedValue
	}
	return b, nil
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

// enc builds one object; the first error sticks.
type enc struct {
	b   []byte
	n   int // members written
	err error
}

func (e *enc) key(k string) {
	if e.n > 0 {
		e.b = append(e.b, ',')
	}
	e.n++
	e.b = jsonscan.AppendString(e.b, k)
	e.b = append(e.b, ':')
}

func (e *enc) str(k, v string) { e.key(k); e.b = jsonscan.AppendString(e.b, v) }

func (e *enc) strOmit(k, v string) {
	if v != "" {
		e.str(k, v)
	}
}

func (e *enc) boolOmit(k string, v bool) {
	if v {
		e.key(k)
		e.b = append(e.b, "true"...)
	}
}

func (e *enc) intv(k string, v int64) { e.key(k); e.b = strconv.AppendInt(e.b, v, 10) }

func (e *enc) rawv(k string, v json.RawMessage) {
	e.key(k)
	if v == nil {
		e.b = append(e.b, "null"...)
		return
	}
	var err error
	if e.b, err = appendRawJSON(e.b, v); err != nil && e.err == nil {
		e.err = err
	}
}

func (e *enc) rawOmit(k string, v json.RawMessage) {
	if len(v) > 0 {
		e.rawv(k, v)
	}
}

func (e *enc) value(k string, v any) {
	e.key(k)
	var err error
	if e.b, err = appendAny(e.b, v); err != nil && e.err == nil {
		e.err = err
	}
}

func (e *enc) mapOmit(k string, m map[string]any) {
	if len(m) > 0 {
		e.value(k, m)
	}
}

func (e *enc) emptyOmit(k string, p *struct{}) {
	if p != nil {
		e.key(k)
		e.b = append(e.b, "{}"...)
	}
}

func (e *enc) strsOmit(k string, v []string) {
	if len(v) > 0 {
		e.key(k)
		e.b, _ = jsonscan.AppendValue(e.b, v)
	}
}

// object runs f to write the members of an object appended to e.b.
func (e *enc) object(f func(e *enc)) {
	outer := e.n
	e.n = 0
	e.b = append(e.b, '{')
	f(e)
	e.b = append(e.b, '}')
	e.n = outer
}

func appendIcons(e *enc, icons []Icon) {
	e.b = append(e.b, '[')
	for i := range icons {
		if i > 0 {
			e.b = append(e.b, ',')
		}
		ic := &icons[i]
		e.object(func(e *enc) {
			e.str("src", ic.Src)
			e.strOmit("mimeType", ic.MimeType)
			e.strsOmit("sizes", ic.Sizes)
			e.strOmit("theme", ic.Theme)
		})
	}
	e.b = append(e.b, ']')
}

func appendImplementation(e *enc, p *Implementation) {
	if p == nil {
		e.b = append(e.b, "null"...)
		return
	}
	e.object(func(e *enc) {
		e.str("name", p.Name)
		e.strOmit("title", p.Title)
		e.str("version", p.Version)
		e.strOmit("description", p.Description)
		e.strOmit("websiteUrl", p.WebsiteURL)
		if len(p.Icons) > 0 {
			e.key("icons")
			appendIcons(e, p.Icons)
		}
	})
}

func appendClientCaps(e *enc, c *ClientCapabilities) {
	if c == nil {
		e.b = append(e.b, "null"...)
		return
	}
	e.object(func(e *enc) {
		e.mapOmit("experimental", c.Experimental)
		e.mapOmit("extensions", c.Extensions)
		if c.Roots != nil {
			e.key("roots")
			e.object(func(e *enc) { e.boolOmit("listChanged", c.Roots.ListChanged) })
		}
		if c.Sampling != nil {
			e.key("sampling")
			e.object(func(e *enc) {
				e.emptyOmit("context", c.Sampling.Context)
				e.emptyOmit("tools", c.Sampling.Tools)
			})
		}
		if c.Elicitation != nil {
			e.key("elicitation")
			e.object(func(e *enc) {
				if f := c.Elicitation.Form; f != nil {
					e.key("form")
					e.object(func(e *enc) { e.boolOmit("applyDefaults", f.ApplyDefaults) })
				}
				e.emptyOmit("url", c.Elicitation.URL)
			})
		}
		e.rawOmit("tasks", c.Tasks)
	})
}

// marshalImplementation is json.Marshal of an *Implementation.
func marshalImplementation(p *Implementation) ([]byte, error) {
	e := &enc{}
	appendImplementation(e, p)
	return e.b, e.err
}

// marshalClientCaps is json.Marshal of a *ClientCapabilities.
func marshalClientCaps(c *ClientCapabilities) ([]byte, error) {
	e := &enc{}
	appendClientCaps(e, c)
	return e.b, e.err
}

// marshalObject builds one JSON object with f.
func marshalObject(f func(e *enc)) ([]byte, error) {
	e := &enc{}
	e.object(f)
	return e.b, e.err
}

func appendMetaOmit(e *enc, m Meta) {
	if len(m) > 0 {
		e.value("_meta", map[string]any(m))
	}
}

func appendAnnotations(e *enc, a *Annotations) {
	e.object(func(e *enc) {
		e.strsOmit("audience", a.Audience)
		if a.Priority != nil {
			e.value("priority", *a.Priority)
		}
		e.strOmit("lastModified", a.LastModified)
	})
}

// appendResourceContents is ResourceContents.MarshalJSON.
func appendResourceContents(e *enc, r *ResourceContents) {
	if r == nil {
		e.b = append(e.b, "null"...)
		return
	}
	e.object(func(e *enc) {
		e.str("uri", r.URI)
		e.strOmit("mimeType", r.MimeType)
		if r.Blob != "" {
			e.str("blob", r.Blob)
		} else {
			e.str("text", r.Text)
		}
		appendMetaOmit(e, r.Meta)
	})
}

// appendContent is json.Marshal of a *Content.
func appendContent(e *enc, c *Content) {
	if c == nil {
		e.b = append(e.b, "null"...)
		return
	}
	e.object(func(e *enc) {
		e.str("type", c.Type)
		e.strOmit("text", c.Text)
		e.strOmit("data", c.Data)
		e.strOmit("mimeType", c.MimeType)
		if c.Resource != nil {
			e.key("resource")
			appendResourceContents(e, c.Resource)
		}
		e.strOmit("uri", c.URI)
		e.strOmit("name", c.Name)
		e.strOmit("title", c.Title)
		e.strOmit("description", c.Description)
		if c.Size != nil {
			e.intv("size", *c.Size)
		}
		if len(c.Icons) > 0 {
			e.key("icons")
			appendIcons(e, c.Icons)
		}
		e.strOmit("id", c.ID)
		e.rawOmit("input", c.Input)
		e.strOmit("toolUseId", c.ToolUseID)
		if len(c.Content) > 0 {
			e.key("content")
			appendContents(e, c.Content)
		}
		e.rawOmit("structuredContent", c.StructuredContent)
		e.boolOmit("isError", c.IsError)
		if c.Annotations != nil {
			e.key("annotations")
			appendAnnotations(e, c.Annotations)
		}
		appendMetaOmit(e, c.Meta)
	})
}

func appendContents(e *enc, cs []*Content) {
	if cs == nil {
		e.b = append(e.b, "null"...)
		return
	}
	e.b = append(e.b, '[')
	for i, c := range cs {
		if i > 0 {
			e.b = append(e.b, ',')
		}
		appendContent(e, c)
	}
	e.b = append(e.b, ']')
}

// appendContentList is ContentList.MarshalJSON.
func appendContentList(e *enc, c ContentList) {
	if len(c) == 1 {
		appendContent(e, c[0])
		return
	}
	appendContents(e, c)
}

// marshalElicitResult is json.Marshal of an *ElicitResult.
func marshalElicitResult(r *ElicitResult) ([]byte, error) {
	return marshalObject(func(e *enc) {
		appendMetaOmit(e, r.Meta)
		e.str("action", r.Action)
		e.mapOmit("content", r.Content)
	})
}

// marshalCreateMessageResult is json.Marshal of a *CreateMessageResult.
func marshalCreateMessageResult(r *CreateMessageResult) ([]byte, error) {
	return marshalObject(func(e *enc) {
		appendMetaOmit(e, r.Meta)
		e.str("role", r.Role)
		e.key("content")
		appendContentList(e, r.Content)
		e.str("model", r.Model)
		e.strOmit("stopReason", r.StopReason)
	})
}

// marshalListRootsResult is json.Marshal of a *ListRootsResult.
func marshalListRootsResult(r *ListRootsResult) ([]byte, error) {
	return marshalObject(func(e *enc) {
		appendMetaOmit(e, r.Meta)
		e.key("roots")
		if r.Roots == nil {
			e.b = append(e.b, "null"...)
			return
		}
		e.b = append(e.b, '[')
		for i, root := range r.Roots {
			if i > 0 {
				e.b = append(e.b, ',')
			}
			if root == nil {
				e.b = append(e.b, "null"...)
				continue
			}
			e.object(func(e *enc) {
				e.str("uri", root.URI)
				e.strOmit("name", root.Name)
				appendMetaOmit(e, root.Meta)
			})
		}
		e.b = append(e.b, ']')
	})
}

// appendFilter is json.Marshal of a *SubscriptionFilter.
func appendFilter(e *enc, f *SubscriptionFilter) {
	if f == nil {
		e.b = append(e.b, "null"...)
		return
	}
	e.object(func(e *enc) {
		e.boolOmit("toolsListChanged", f.ToolsListChanged)
		e.boolOmit("promptsListChanged", f.PromptsListChanged)
		e.boolOmit("resourcesListChanged", f.ResourcesListChanged)
		e.strsOmit("resourceSubscriptions", f.ResourceSubscriptions)
		e.strsOmit("taskIds", f.TaskIDs)
	})
}

// marshalListenParams encodes the params of subscriptions/listen.
func marshalListenParams(f *SubscriptionFilter) json.RawMessage {
	b, _ := marshalObject(func(e *enc) {
		e.key("notifications")
		appendFilter(e, f)
	})
	return b
}

// marshalPaginated is json.Marshal of a *PaginatedParams (its _meta values
// JSON-shaped, see appendAny).
func marshalPaginated(p *PaginatedParams) ([]byte, error) {
	return marshalObject(func(e *enc) {
		appendMetaOmit(e, p.Meta)
		e.strOmit("cursor", p.Cursor)
	})
}

// marshalCallTool is json.Marshal of a *CallToolParams whose _meta and
// arguments are JSON-shaped (appendAny); otherwise an error.
func marshalCallTool(p *CallToolParams) ([]byte, error) {
	return marshalObject(func(e *enc) {
		appendMetaOmit(e, p.Meta)
		e.str("name", p.Name)
		if p.Arguments != nil {
			e.value("arguments", p.Arguments)
		}
	})
}
