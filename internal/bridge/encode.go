package bridge

import (
	"errors"

	"github.com/mcpwasm/mcpwasm/core"
	"github.com/mcpwasm/mcpwasm/internal/jsonscan"
)

// AppendJSON appends info as encoding/json encodes it.
func (info *SessionInfo) AppendJSON(dst []byte) []byte {
	w := jsonscan.NewObjectWriter(dst)
	w.IntOmit("session", int64(info.Session))
	w.String("era", info.Era)
	w.String("protocolVersion", info.ProtocolVersion)
	w.StringOmit("sessionId", info.SessionID)
	w.Raw("serverInfo", AppendImplementation(nil, info.ServerInfo))
	w.Raw("serverCapabilities", appendServerCapabilities(nil, info.ServerCapabilities))
	w.StringOmit("instructions", info.Instructions)
	w.StringOmit("backgroundStreamError", info.BackgroundStreamError)
	return w.Bytes()
}

// AppendImplementation appends impl as encoding/json encodes a
// *core.Implementation (null when nil).
func AppendImplementation(dst []byte, impl *core.Implementation) []byte {
	if impl == nil {
		return append(dst, "null"...)
	}
	w := jsonscan.NewObjectWriter(dst)
	w.String("name", impl.Name)
	w.StringOmit("title", impl.Title)
	w.String("version", impl.Version)
	w.StringOmit("description", impl.Description)
	w.StringOmit("websiteUrl", impl.WebsiteURL)
	if len(impl.Icons) > 0 {
		b := append([]byte(nil), '[')
		for i, ic := range impl.Icons {
			if i > 0 {
				b = append(b, ',')
			}
			iw := jsonscan.NewObjectWriter(b)
			iw.String("src", ic.Src)
			iw.StringOmit("mimeType", ic.MimeType)
			if len(ic.Sizes) > 0 {
				_ = iw.Value("sizes", ic.Sizes)
			}
			iw.StringOmit("theme", ic.Theme)
			b = iw.Bytes()
		}
		w.Raw("icons", append(b, ']'))
	}
	return w.Bytes()
}

// appendServerCapabilities appends c as encoding/json encodes a
// *core.ServerCapabilities (null when nil).
func appendServerCapabilities(dst []byte, c *core.ServerCapabilities) []byte {
	if c == nil {
		return append(dst, "null"...)
	}
	w := jsonscan.NewObjectWriter(dst)
	if len(c.Experimental) > 0 {
		_ = w.Value("experimental", c.Experimental)
	}
	if len(c.Extensions) > 0 {
		_ = w.Value("extensions", c.Extensions)
	}
	if c.Logging != nil {
		w.Raw("logging", []byte("{}"))
	}
	if c.Completions != nil {
		w.Raw("completions", []byte("{}"))
	}
	listChanged := func(k string, lc *core.ListChangedCapability) {
		if lc == nil {
			return
		}
		o := jsonscan.NewObjectWriter(nil)
		o.BoolOmit("listChanged", lc.ListChanged)
		w.Raw(k, o.Bytes())
	}
	listChanged("prompts", c.Prompts)
	if r := c.Resources; r != nil {
		o := jsonscan.NewObjectWriter(nil)
		o.BoolOmit("subscribe", r.Subscribe)
		o.BoolOmit("listChanged", r.ListChanged)
		w.Raw("resources", o.Bytes())
	}
	listChanged("tools", c.Tools)
	if len(c.Tasks) > 0 {
		w.Raw("tasks", CompactRaw(c.Tasks))
	}
	return w.Bytes()
}

// AppendSubscriptionFilter appends f as encoding/json encodes a
// *core.SubscriptionFilter (null when nil).
func AppendSubscriptionFilter(dst []byte, f *core.SubscriptionFilter) []byte {
	if f == nil {
		return append(dst, "null"...)
	}
	w := jsonscan.NewObjectWriter(dst)
	w.BoolOmit("toolsListChanged", f.ToolsListChanged)
	w.BoolOmit("promptsListChanged", f.PromptsListChanged)
	w.BoolOmit("resourcesListChanged", f.ResourcesListChanged)
	if len(f.ResourceSubscriptions) > 0 {
		_ = w.Value("resourceSubscriptions", f.ResourceSubscriptions)
	}
	if len(f.TaskIDs) > 0 {
		_ = w.Value("taskIds", f.TaskIDs)
	}
	return w.Bytes()
}

// appendNotification appends the params of a notification the client
// hands the host (ClientConfig.Notifications) as encoding/json encodes
// them.
func appendNotification(dst []byte, params any) ([]byte, error) {
	w := jsonscan.NewObjectWriter(dst)
	meta := func(m core.Meta) error {
		if len(m) == 0 {
			return nil
		}
		return w.Value("_meta", map[string]any(m))
	}
	switch p := params.(type) {
	case *core.LoggingMessageParams:
		if err := meta(p.Meta); err != nil {
			return dst, err
		}
		w.String("level", p.Level)
		w.StringOmit("logger", p.Logger)
		if len(p.Data) > 0 && !jsonscan.Valid(p.Data) {
			return dst, errInvalidRaw
		}
		w.Raw("data", CompactRaw(p.Data))
	case *core.ProgressParams:
		if err := meta(p.Meta); err != nil {
			return dst, err
		}
		if err := w.Value("progressToken", p.ProgressToken); err != nil {
			return dst, err
		}
		if err := w.Value("progress", p.Progress); err != nil {
			return dst, err
		}
		if p.Total != nil {
			if err := w.Value("total", *p.Total); err != nil {
				return dst, err
			}
		}
		w.StringOmit("message", p.Message)
	case *core.ResourceUpdatedParams:
		if err := meta(p.Meta); err != nil {
			return dst, err
		}
		w.String("uri", p.URI)
	case *core.ElicitationCompleteParams:
		if err := meta(p.Meta); err != nil {
			return dst, err
		}
		w.String("elicitationId", p.ElicitationID)
	default:
		return dst, errors.New("mcpwasm: cannot encode this notification")
	}
	return w.Bytes(), nil
}

// errInvalidRaw is a raw JSON member that is not valid JSON (which
// encoding/json refused to encode).
var errInvalidRaw = errors.New("mcpwasm: invalid raw JSON")

// CompactRaw returns raw as encoding/json writes a json.RawMessage
// (compacted, '<', '>' and '&' escaped in strings; null when empty).
// Invalid JSON, which encoding/json refused to write, is null.
func CompactRaw(raw []byte) []byte {
	if len(raw) == 0 {
		return []byte("null")
	}
	b, err := jsonscan.AppendCompact(nil, raw, true)
	if err != nil {
		return []byte("null")
	}
	return b
}

// AppendProgress appends p as encoding/json encodes a
// *core.ProgressParams.
func AppendProgress(dst []byte, p *core.ProgressParams) ([]byte, error) {
	return appendNotification(dst, p)
}
