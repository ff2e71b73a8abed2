// Package demoserver is a dual-era MCP server built on the official Go SDK
// (github.com/modelcontextprotocol/go-sdk v1.8.0). It is the in-process peer
// of mcpwasm's Go integration tests and the embedded demo server behind
// `make demo`. Its tools, resources and prompts follow the shared test-peer
// contract (notes/peer-toolset.md) that the TypeScript test server also
// implements, so one client test table can run against both.
//
// # Endpoints
//
// [Server.Handler] serves two paths; mount it at the root of a mux:
//
//   - [MCPPath] "/mcp": Streamable HTTP. Legacy revisions (2024-11-05 ..
//     2025-11-25: initialize, Mcp-Session-Id, GET stream, DELETE) always;
//     2026-07-28 too when [Options.Modern] is set.
//   - [SSEPath] "/sse": the deprecated 2024-11-05 HTTP+SSE transport (GET
//     opens the stream, whose "endpoint" event names "/sse?sessionid=…" for
//     POSTs). Legacy only: the SDK's SSE transport does not offer 2026-07-28.
//
// # How the SDK serves the two eras
//
// In SDK v1.8.0 the 2026-07-28 protocol (SEP-2575 per-request _meta,
// server/discover, SEP-2322 MRTR, subscriptions/listen) is always compiled
// in and negotiated per request by mcp.ServerSession, but the Streamable
// HTTP transport serves it only when StreamableHTTPOptions.Stateless is true
// (StreamableServerTransport.SupportsProtocolVersion). A stateless handler,
// however, cannot send server->client requests, so legacy elicitation,
// sampling and roots would break. A stateful handler (the default) answers
// server/discover with legacy versions only and rejects other modern
// requests with UnsupportedProtocolVersionError (-32022).
//
// With Modern set, the "/mcp" handler is therefore a router in front of two
// SDK handlers sharing one mcp.Server (so list_changed and resource updates
// cross eras): a request whose MCP-Protocol-Version header is 2026-07-28 or
// later, or which has no such header but whose body carries
// _meta["io.modelcontextprotocol/protocolVersion"] >= 2026-07-28, goes to a
// Stateless handler (with PropagateRequestCancellation, so closing the
// response stream cancels the handler); everything else goes to a stateful
// handler. This is the spec's "dual-era server: a request carrying modern
// _meta is served statelessly, initialize selects legacy semantics".
// Consequences: GET and DELETE announcing 2026-07-28 get 405; modern
// responses never carry Mcp-Session-Id; legacy sessions work as usual.
//
// # Tools in the two eras
//
// Tools that need client input (elicit, elicit_url, sample, sample_tools,
// roots, multi_input) are written once in the MRTR style (return
// CallToolResult.InputRequests and RequestState; read
// Params.InputResponses). For a modern request the SDK sends that as
// resultType "input_required" and the client retries. For a legacy request
// the tool runs its rounds in-process, answering every input request with a
// real server->client JSON-RPC request on the session, one at a time in key
// order (multi_input: elicitation/create, roots/list, then
// sampling/createMessage). multi_input's requestState is HMAC-signed with a
// per-process key; a tampered state is rejected with -32602.
//
// Other behaviour follows the contract: progress sends notifications on the
// request's stream; log emits at the requested level and at debug; slow
// counts cancellations (legacy: notifications/cancelled; modern: the closed
// HTTP response); change_tools adds extra_<n> and the SDK debounces and
// sends notifications/tools/list_changed (legacy sessions always, modern
// clients on a subscriptions/listen stream); touch calls
// mcp.Server.ResourceUpdated (legacy resources/subscribe sessions, modern
// listen streams with resourceSubscriptions); whoami reports the
// negotiated version, clientInfo and capabilities from initialize (legacy)
// or from the request's _meta (modern, as sent).
//
// # SDK limitations and workarounds
//
//   - Modern requires Stateless, stateless forbids server->client requests:
//     solved by the era router described above.
//   - bad_output: mcp.AddTool validates structured output against the
//     output schema and refuses to send invalid output, so bad_output is
//     registered with the raw mcp.Server.AddTool, which does not validate.
//   - header_echo: no middleware is needed; the SDK hands the HTTP request
//     headers to tool handlers in CallToolRequest.Extra.Header, so the raw
//     Mcp-Param-Region / Mcp-Param-Priority values (Base64 sentinel form
//     included) are echoed. The SDK itself validates Mcp-Method, Mcp-Name
//     and Mcp-Param-* against the body for 2026-07-28 requests (HTTP 400,
//     -32020; integers compare numerically, so "2.0" matches 2). Over the
//     HTTP+SSE transport Extra is nil and the tool returns "|".
//   - The SDK's legacy MRTR shim (an internal receiving middleware that
//     answers InputRequests for old clients) re-invokes a handler only once
//     and fulfils a round's requests concurrently; it cannot do multi_input's
//     second round. The tools therefore never return InputRequests to a
//     legacy client (see above), and the shim stays idle.
//   - Logging: the Go SDK sends no notifications/message on a legacy session
//     until the client calls logging/setLevel; the TypeScript SDK sends
//     everything. A receiving middleware sets a legacy session's level to
//     "debug" right after initialize so both peers behave alike;
//     logging/setLevel still overrides it. Modern requests follow the spec:
//     no log notifications unless _meta["io.modelcontextprotocol/logLevel"]
//     is present.
//   - JSONResponse: the SDK moves request-scoped notifications (progress,
//     logs) and legacy server->client requests to the standalone GET stream.
//     Modern requests have no GET stream, so with JSONResponse their
//     progress and log notifications are dropped (MRTR still works).
//   - The negotiated legacy version is not exported by the SDK
//     (InitializeParams holds the version the client asked for); whoami and
//     elicit_url mirror the SDK's negotiation rule.
//   - Elicitation results: a legacy ServerSession.Elicit validates accepted
//     content against requestedSchema and fills in schema defaults on the
//     server side; modern inputResponses reach the tool as sent. Clients
//     that apply defaults themselves (the Go SDK does) see no difference.
//   - An input_required CallToolResult is serialized by the SDK with
//     "content": null next to resultType/inputRequests; this is left as is
//     (clients must tolerate it against real Go SDK servers).
//
// # Other wire facts worth knowing (SDK v1.8.0)
//
// Modern results carry resultType "complete" (or "input_required") and
// _meta["io.modelcontextprotocol/serverInfo"]; legacy results carry no
// resultType. List results and server/discover carry ttlMs (0) and
// cacheScope ("public") in both eras. Modern error mapping: -32601 is HTTP
// 404; -32602, -32020, -32021, -32022 are HTTP 400; other errors are HTTP
// 200. Legacy stateful sessions get Mcp-Session-Id on the initialize
// response only; DELETE answers 204 and the id then 404s. DNS-rebinding
// protection (a loopback listener refuses non-loopback Host headers) is on.
//
// # Concurrency
//
// A [Server] is safe for concurrent use by any number of clients of both
// eras. State shared by all clients (extra_<n> tools, the slow-cancellation
// counter, resource subscriptions) lives in the one mcp.Server.
package demoserver
