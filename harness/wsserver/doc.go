// Package wsserver serves an MCP server of the official Go SDK
// (github.com/modelcontextprotocol/go-sdk) over WebSocket — subprotocol
// "mcp", one JSON-RPC message per text frame — for mcpwasm's tests of
// transport/ws (natively and, from the GOOS=js harness, under Node). The
// SDK has no WebSocket transport; this package is only the framing, every
// MCP behaviour is the SDK's.
//
// Paths: any path serves MCP and selects the "mcp" subprotocol, except a
// path ending in "/no-subprotocol", which accepts the WebSocket without
// selecting one (to test the client's refusal).
//
// # Faults
//
// With Options.Faults, the handler also answers a control request that no
// real server sends, so tests can make it misbehave in ways real servers
// do not, in a deterministic order. The request is intercepted before the
// SDK sees it:
//
//	{"jsonrpc":"2.0","id":N,"method":"wstest/inject","params":{
//	   "delayMs": 0,                       // wait first
//	   "frames": [{"text":"…"}, {"binary":"<base64>"}],  // then send these
//	   "respond": "ok" | "malformed" | "none",           // then answer (default ok)
//	   "close": {"code": 1001, "reason": "bye"}          // then close the socket
//	}}
//
// "ok" answers {"connection": <1-based number of this socket>,
// "cancelled": <notifications/cancelled received on all sockets>,
// "replies": [<client responses to injected requests whose id starts with
// "wstest-">]}; "malformed" answers with a JSON-RPC version of "1.0". The
// client's responses to injected requests with "wstest-" ids are recorded
// rather than passed to the SDK.
package wsserver
