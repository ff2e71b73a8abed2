// Package core is the transport-agnostic heart of mcpwasm: a Model Context
// Protocol client that speaks both protocol eras.
//
// A [Client] holds an identity, handlers and options ([ClientOptions]);
// [Client.Connect] opens a [Session] over a [Transport]. The session determines the server's era the way
// the 2026-07-28 versioning and transport pages prescribe — a modern request
// (server/discover with per-request _meta) first, then the legacy initialize
// handshake — negotiates the protocol version, and hides the difference:
//
//   - modern servers (2026-07-28 and later) get per-request _meta, the
//     Mcp-Method/Mcp-Name/Mcp-Param-* header hints, multi round-trip
//     requests (an input_required result is answered by the same handlers
//     that answer legacy server→client requests and the request is retried
//     with inputResponses and the byte-exact requestState under a new id),
//     subscriptions/listen streams, and a ttlMs result cache;
//   - legacy servers (2025-11-25 back to 2024-11-05) get initialize,
//     server→client requests, logging/setLevel, resources/subscribe,
//     notifications/roots/list_changed and session re-initialization.
//
// Calls are methods of the session: [Session.CallTool] (and
// [Session.CallToolAsTask] for a [Task] handle), [Session.ListTools] and
// the [Session.AllTools] iterator, [Session.ReadResource],
// [Session.GetPrompt], [Session.Listen] for a [Subscription], and
// [Session.Request] for any method.
//
// The package has no I/O of its own and no platform code: transports live in
// transport/fetch (Streamable HTTP and HTTP+SSE), transport/ws (WebSocket)
// and [NewInMemoryTransports]; the messages they carry are package
// jsonrpc's ([jsonrpc.Message]). Every blocking call takes a context;
// requests have per-session and per-call timeouts, reset on progress and a
// hard maximum; cancelling a context cancels the request on the wire.
package core
