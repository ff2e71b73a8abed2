package core

import (
	"context"

	"github.com/mcpwasm/mcpwasm/jsonrpc"
)

// Transport opens connections to one MCP server. Implementations must be
// safe for concurrent use; Connect may be called more than once (a session
// that re-initializes, or several sessions of one Client).
type Transport interface {
	Connect(ctx context.Context) (Conn, error)
}

// Conn is one connection: it carries whole JSON-RPC messages. Send and Recv
// may be called concurrently with each other and Send concurrently with
// itself; Recv is called from one goroutine at a time.
type Conn interface {
	// Send transmits one message. For request-per-stream transports (HTTP)
	// Send returns no sooner than the server has accepted the request (the
	// response status is known), and may keep reading the request's
	// response stream before it returns: a rejection is returned as an
	// error, while the response itself arrives through Recv (or the
	// DirectConn deliver function). The session calls Send for a request on
	// the caller's goroutine and waits for the answer once Send returned,
	// so Send should not outlast the response's stream by long; ctx ends
	// when the call fails (timeout, cancellation), and Send then gives up
	// the request and its stream. Long-lived requests (subscriptions/listen)
	// are sent on a goroutine of their own. A transport rejects a
	// modern request with an error wrapping ErrNotModern when the server's
	// answer shows it is a legacy server, and a legacy request with an error
	// wrapping ErrSessionExpired when the server forgot the session. A
	// JSON-RPC error body the transport received instead of a stream is
	// delivered through Recv like any response.
	//
	// On transports where closing a request's stream is its cancellation
	// (Streamable HTTP, 2026-07-28), sending notifications/cancelled for a
	// request closes that stream instead of transmitting the notification.
	Send(ctx context.Context, msg jsonrpc.Message, opts *SendOptions) error
	// Recv returns the next incoming message. A transport fails a single
	// pending request by returning a *Response with TransportErr set. Recv
	// returns an error (io.EOF for an orderly end) when the connection is
	// finished; the session then closes.
	Recv(ctx context.Context) (jsonrpc.Message, error)
	// Close ends the connection (a legacy HTTP session is deleted). It is
	// safe to call more than once.
	Close() error
}

// A DirectConn hands the messages it reads to the session as it reads them
// instead of queueing them for Recv: the session calls SetDeliver once,
// before its first Send, and from then on the connection calls deliver for
// every incoming message — from any of its goroutines, in order within one
// stream — while Recv only reports the end of the connection. deliver
// returns quickly (handlers run on the session's own goroutines). Inside
// WebAssembly every goroutine switch unwinds and rewinds the whole stack,
// and this saves one per message.
type DirectConn interface {
	SetDeliver(deliver func(jsonrpc.Message))
}

// SendOptions are per-message hints from the session to the transport.
// Transports that have no use for a hint ignore it.
type SendOptions struct {
	// ProtocolVersion is the protocol version the message belongs to ("" in
	// a legacy session before initialization). HTTP sends it as the
	// MCP-Protocol-Version header; its era selects the transport's
	// behaviour (sessions and GET streams are legacy only).
	ProtocolVersion string
	// Headers are extra request headers to mirror from the message
	// (Mcp-Method, Mcp-Name, Mcp-Param-*), values already encoded.
	Headers []Header
	// LongLived marks a request whose response stream stays open
	// indefinitely (subscriptions/listen).
	LongLived bool
	// Abort, when set, ends the ctx Send was given, with a cause. The
	// session sets it to the End of the request's own context (the
	// caller's, which the request's timeouts end too; internal/callctx),
	// so that a transport that must be able to end the request itself
	// (its connection closed, the request cancelled, an answered stream
	// left open) uses ctx as it is instead of deriving a context of its
	// own per request. A transport may call it at any time, from any
	// goroutine; the session takes the outcome from what Send returned
	// and the answer it got, not from ctx's end.
	Abort context.CancelCauseFunc
}

// Header is one HTTP header name and value.
type Header struct {
	Name, Value string
}

// HeaderMirroring is implemented by connections that mirror request fields
// into HTTP headers (Streamable HTTP). On such connections the session
// drops tools with invalid x-mcp-header annotations from tools/list and
// computes Mcp-Param-* headers for tools/call.
type HeaderMirroring interface {
	MirrorsHeaders() bool
}

// EraKeyer is implemented by transports whose era verdict can be cached:
// EraKey returns the cache key (for HTTP, the server's origin).
type EraKeyer interface {
	EraKey() string
}

// SessionIDer is implemented by connections that have a server-assigned
// session id (legacy Streamable HTTP).
type SessionIDer interface {
	SessionID() string
}
