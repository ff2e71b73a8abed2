package bridge

import (
	"bytes"
	"context"
	"unsafe"

	"github.com/mcpwasm/mcpwasm/core"
	"github.com/mcpwasm/mcpwasm/internal/errf"
	"github.com/mcpwasm/mcpwasm/internal/rawjson"
)

// Call runs one client request on s: the method table every host shares.
// A few methods are mapped onto the session's era-independent methods —
// resources/subscribe and resources/unsubscribe (modern servers:
// subscriptions/listen), logging/setLevel (modern: the per-request level),
// ping (modern: server/discover) — and tools/call waits for a task the
// server insists on unless opts.NoTaskWait; every other method goes
// through [core.Session.RequestRaw], pipeline included (MRTR, caching,
// pagination cursors as given). params is a JSON object or nil.
func Call(ctx context.Context, s *core.Session, method string, params rawjson.RawMessage, opts *core.CallOptions) (rawjson.RawMessage, error) {
	switch method {
	case core.MethodCallTool:
		return s.CallToolRaw(ctx, params, opts)
	case core.MethodSubscribe, core.MethodUnsubscribe, core.MethodSetLevel, core.MethodPing:
	default:
		return s.RequestRaw(ctx, method, params, opts)
	}
	var p uriLevel
	if len(params) > 0 {
		if err := Unmarshal(params, &p); err != nil {
			return nil, invalidf("%s params: %v", method, err)
		}
	}
	var err error
	switch method {
	case core.MethodSubscribe:
		err = s.Subscribe(ctx, p.URI)
	case core.MethodUnsubscribe:
		err = s.Unsubscribe(ctx, p.URI)
	case core.MethodSetLevel:
		err = s.SetLogLevel(ctx, p.Level)
	default:
		err = s.Ping(ctx)
	}
	if err != nil {
		return nil, err
	}
	return rawjson.RawMessage(`{}`), nil
}

// uriLevel is the params of the methods Call maps.
type uriLevel struct {
	_     noCompare
	URI   string `json:"uri"`
	Level string `json:"level"`
}

var uriLevelObj = Object{Type: "struct { URI string \"json:\\\"uri\\\"\"; Level string \"json:\\\"level\\\"\" }", Members: []ObjectMember{
	{Name: "uri", Kind: KString, Off: unsafe.Offsetof(uriLevel{}.URI)},
	{Name: "level", Kind: KString, Off: unsafe.Offsetof(uriLevel{}.Level)},
}}

// DecodeSchema decodes p.
func (p *uriLevel) DecodeSchema(d *Decoder, val []byte) error {
	return d.DecodeObject(val, &uriLevelObj, unsafe.Pointer(p))
}

// SessionInfo describes a connected session to the host: the result of
// connect in every bridge.
type SessionInfo struct {
	_ noCompare
	// Session is the host's id of the session (WASI ABI; 0 elsewhere).
	Session uint32 `json:"session,omitempty"`
	// Era is "modern" or "legacy".
	Era string `json:"era"`
	// ProtocolVersion is the negotiated version.
	ProtocolVersion string `json:"protocolVersion"`
	// SessionID is the legacy Mcp-Session-Id ("" if none).
	SessionID string `json:"sessionId,omitempty"`
	// ServerInfo is the server's Implementation.
	ServerInfo *core.Implementation `json:"serverInfo"`
	// ServerCapabilities are the server's capabilities.
	ServerCapabilities *core.ServerCapabilities `json:"serverCapabilities"`
	// Instructions are the server's instructions.
	Instructions string `json:"instructions,omitempty"`
	// BackgroundStreamError says why the legacy GET stream was given up.
	BackgroundStreamError string `json:"backgroundStreamError,omitempty"`
}

// Info describes s.
func Info(s *core.Session) *SessionInfo {
	info := &SessionInfo{
		Era:                s.Era().String(),
		ProtocolVersion:    s.ProtocolVersion(),
		SessionID:          s.ID(),
		ServerInfo:         s.ServerInfo(),
		ServerCapabilities: s.ServerCapabilities(),
		Instructions:       s.Instructions(),
	}
	if err := s.BackgroundStreamErr(); err != nil {
		info.BackgroundStreamError = err.Error()
	}
	return info
}

// Params checks a request's params: absent, null or a JSON object.
func Params(params rawjson.RawMessage) (rawjson.RawMessage, error) {
	t := bytes.TrimLeft(params, " \t\r\n")
	if len(t) == 0 || string(bytes.TrimSpace(t)) == "null" {
		return nil, nil
	}
	if t[0] != '{' {
		return nil, invalidf("request: params must be a JSON object, got %s", errf.Sprintf("%.20s", string(params)))
	}
	return params, nil
}
