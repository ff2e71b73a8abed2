// Package fetch is mcpwasm's HTTP transport: Streamable HTTP in both
// protocol eras and the deprecated 2024-11-05 HTTP+SSE transport, behind one
// core.Transport.
//
// Modern (2026-07-28) requests are POSTed with MCP-Protocol-Version and the
// Mcp-Method, Mcp-Name and Mcp-Param-* headers the session computes; each
// response arrives as JSON or as an SSE stream scoped to its request, and
// closing that stream is the request's cancellation. A 4xx answer without a
// recognised modern JSON-RPC error marks the server as legacy
// (core.ErrNotModern), which makes the session fall back to initialize.
//
// Legacy sessions keep the Mcp-Session-Id the server assigned, open the
// standalone GET stream after initialization, resume broken streams with
// GET and Last-Event-ID after the server's retry delay, treat 404 (and a
// 400 whose body names the session, as TypeScript SDK v1 servers answer) as
// an expired session (core.ErrSessionExpired: re-initialized once per call)
// and DELETE the session on Close.
// When an initialize POST is refused with 400, 404 or 405 the transport
// tries the HTTP+SSE transport (GET, endpoint event, POSTs) and remembers
// the verdict; an HTTP+SSE stream that ends is re-opened, and the session
// re-initialized on the new server session.
//
// Reconnection is bounded: the server's retry delay is floored at 250 ms
// and jittered, Options.MaxReconnectsPerMinute caps the attempts, and
// Options.MaxReconnects failures in a row give a stream up (reported to
// the session's OnWarning). Transient HTTP answers (429, 502, 503, 504)
// are *StatusError values implementing core.TransientError, for
// core.RetryPolicy.
//
// All HTTP goes through the small [Doer] interface. Natively the
// [DefaultDoer] speaks HTTP/1.1 on connections of its own for plain-HTTP
// URLs no proxy applies to, on the caller's goroutine, and hands https,
// proxied URLs and redirects to net/http ([NetHTTP] is net/http for
// everything, with the caller's *http.Client); under GOOS=js and GOOS=wasip1 the caller
// passes one in [Options].HTTP (mcpwasm's JavaScript module passes the
// JavaScript fetch function, its WASI reactor the host's HTTP), which keeps
// net/http and syscall/js out of this package in the WebAssembly builds.
package fetch
