package bridge

import (
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
// *core.Implementation (null when nil), with core's wire encoder.
func AppendImplementation(dst []byte, impl *core.Implementation) []byte {
	return appendWire(dst, impl)
}

// appendServerCapabilities appends c as encoding/json encodes a
// *core.ServerCapabilities (null when nil).
func appendServerCapabilities(dst []byte, c *core.ServerCapabilities) []byte {
	return appendWire(dst, c)
}

// AppendSubscriptionFilter appends f as encoding/json encodes a
// *core.SubscriptionFilter (null when nil).
func AppendSubscriptionFilter(dst []byte, f *core.SubscriptionFilter) []byte {
	return appendWire(dst, f)
}

// appendWire appends v with core.AppendWireJSON; null where encoding/json
// would have failed (raw JSON that is not valid, which values read from a
// peer never hold).
func appendWire(dst []byte, v any) []byte {
	b, err := core.AppendWireJSON(dst, v)
	if err != nil {
		return append(dst, "null"...)
	}
	return b
}

// appendNotification appends the params of a notification the client
// hands the host (ClientConfig.Notifications: *core.LoggingMessageParams,
// *core.ProgressParams, *core.ResourceUpdatedParams,
// *core.ElicitationCompleteParams) as encoding/json encodes them, with
// core's wire encoder.
func appendNotification(dst []byte, params any) ([]byte, error) {
	return core.AppendWireJSON(dst, params)
}

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
