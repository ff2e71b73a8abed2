// Package ws is mcpwasm's WebSocket transport: MCP's JSON-RPC messages over
// one WebSocket connection, one message per text frame, with the
// subprotocol "mcp".
//
// # An extension, not an official MCP transport
//
// The MCP specification defines stdio and Streamable HTTP (and, until
// 2025-03-26, HTTP+SSE). There is no official WebSocket transport; SEP-1288
// proposes one and is a draft. This package implements the obvious mapping
// that such servers use today, which is also how stdio works: the client
// offers the subprotocol "mcp" in the opening handshake and refuses a
// server that does not select it (ErrSubprotocol); every text frame carries
// exactly one JSON-RPC message (a JSON-RPC batch array is tolerated on
// input); cancellation is the notifications/cancelled notification, which
// the session sends itself; both protocol eras work, since the session
// negotiates the era in-band (server/discover first, then initialize).
// Treat the details as subject to change with the SEP.
//
// # Platforms
//
// Sockets come from a [Dialer] ([Options].Dialer). Natively the default
// uses github.com/coder/websocket (the maintained successor of
// nhooyr.io/websocket). Under GOOS=js the package has no default (it
// imports no syscall/js); mcpwasm's JavaScript module passes one on the
// runtime's WebSocket class (browsers, Web Workers, Node 22+, Deno, Bun),
// and a runtime without one (Node 20) fails Connect with
// [ErrNoWebSocket]. The JavaScript WebSocket fails the handshake itself when
// the server does not select "mcp", so there the refusal is an ErrDial
// (with the runtime's reason when it gives one) rather than ErrSubprotocol.
// The browser API cannot send handshake headers
// (Options.Header is refused there) and cannot send pings
// (Options.PingInterval is ignored; browsers answer the server's pings).
//
// # Malformed input
//
// A binary frame, a frame that is not JSON, or JSON that is not a JSON-RPC
// message does not end the connection. When the frame still names a
// request id, the message is treated precisely: a malformed response fails
// that pending request with an error wrapping ErrMalformed, and a malformed
// server request is answered with a JSON-RPC Invalid Request error so the
// server does not wait for ever. Anything else is reported to the session
// as a transport error without a request id (core.ClientOptions.OnWarning
// receives it) and dropped. A message larger than Options.MaxMessageSize
// closes the socket (status 1009).
//
// # When the socket closes
//
// A legacy (2025-era) session lives in the server's memory for the life of
// the socket, so when the socket closes — the server went away, a proxy
// cut it, a ping went unanswered — the connection ends: pending calls fail
// with an error naming the close status and reason (a *CloseError when the
// server closed the socket), and the session closes. Open a new session to
// continue.
//
// A modern (2026-07-28) session has no server-side state, so the transport
// reconnects transparently: the requests that were in flight on the lost
// socket fail with an error wrapping ErrConnectionLost (they may or may not
// have run), the session stays open, and the next message dials a new
// socket (subscriptions/listen streams lost with the socket fail and are
// re-opened by the session). Options.DisableReconnect turns this off.
// The connection counts as legacy from the first initialize request or
// message carrying a legacy protocol version on.
package ws
