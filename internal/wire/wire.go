// Package wire holds what core and the two transports (transport/fetch,
// transport/ws) share about the MCP wire beyond JSON-RPC itself: the
// checks of configured HTTP headers, the encoding of mirrored header
// values, and reading the request id a notifications/cancelled message
// cancels. It is internal so that core's API stays the client's, not a
// toolkit for transports.
package wire

import (
	"strings"

	"github.com/mcpwasm/mcpwasm/internal/b64"
	"github.com/mcpwasm/mcpwasm/internal/jsonscan"
	"github.com/mcpwasm/mcpwasm/jsonrpc"
)

// ValidHeader reports whether name is a valid HTTP header field name and
// value holds no CR, LF or NUL: what a transport checks of the headers a
// user configures. It is safe for concurrent use.
func ValidHeader(name, value string) bool {
	return IsToken(name) && !strings.ContainsAny(value, "\r\n\x00")
}

// IsToken reports whether s is an RFC 9110 token (1*tchar): a valid HTTP
// header field name (or method). It takes the bytes of a field line as
// they were read as well as a string. It is safe for concurrent use.
func IsToken[T string | []byte](s T) bool {
	if len(s) == 0 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9':
		case strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0:
		default:
			return false
		}
	}
	return true
}

// EncodeHeaderValue encodes a value for an Mcp-Name or Mcp-Param-* header:
// as-is when it is plain visible ASCII without leading or trailing
// whitespace, otherwise (and for values that look like the sentinel) as
// "=?base64?<base64 of the UTF-8 bytes>?=".
func EncodeHeaderValue(v string) string {
	safe := !(strings.HasPrefix(v, "=?base64?") && strings.HasSuffix(v, "?="))
	for i := 0; safe && i < len(v); i++ {
		if c := v[i]; c < 0x20 || c >= 0x7f {
			safe = false
		}
	}
	if safe && v != "" && (v[0] == ' ' || v[len(v)-1] == ' ') {
		safe = false
	}
	if safe {
		return v
	}
	return "=?base64?" + b64.StdString([]byte(v)) + "?="
}

// CancelledRequestID returns the id of the request a
// notifications/cancelled message m cancels, when m is one and the id is
// one this client issues (a number). Transports use it to stop the
// request's stream or tracking. It is safe for concurrent use.
func CancelledRequestID(m *jsonrpc.Request) (int64, bool) {
	if m.Method != "notifications/cancelled" {
		return 0, false
	}
	o, err := jsonscan.ParseObject(m.Params)
	if err != nil {
		return 0, false
	}
	// The member as encoding/json matches a field: exact name, else
	// case-insensitive; the last one wins.
	var raw []byte
	for _, mb := range o {
		if mb.Key == "requestId" || strings.EqualFold(mb.Key, "requestId") {
			raw = mb.Val
		}
	}
	var id jsonrpc.ID
	if len(raw) > 0 && id.UnmarshalJSON(raw) != nil {
		return 0, false
	}
	return id.Int64()
}
