// Package jsfetch calls a JavaScript fetch function from Go under GOOS=js
// (browsers, Web Workers, Node 18+, Deno, Bun, edge isolates). [NewDoer]
// makes transport/fetch's Doer of it, which wasm/js passes to
// fetch.Options.HTTP; transport/fetch itself never imports syscall/js and
// has no JavaScript default.
//
// A Fetcher sends one HTTP request per Do: the headers as a list of pairs,
// the body as a Uint8Array, an AbortSignal from an AbortController of its
// own (one per request, aborted when the request's context ends or the body
// is closed; never AbortSignal.any), and the configured RequestInit members
// (credentials, mode, cache, referrerPolicy, plus any extra members a Hook
// carries). The response body is streamed: each Read takes the next chunk
// from a ReadableStream reader, and Close cancels the reader and aborts the
// request, which closes the HTTP stream — the cancellation signal of the
// 2026-07-28 Streamable HTTP transport.
//
// # Headers a browser hides
//
// A cross-origin ("cors") response only shows the CORS-safelisted response
// headers plus those the server lists in Access-Control-Expose-Headers.
// Response.Hidden reports, for a header that is absent, whether it may have
// been hidden that way, so the transport can say "the server did not expose
// Mcp-Session-Id" instead of failing obscurely. The decision
// (HiddenByCORS) is plain Go and needs no JavaScript.
//
// # Injecting a fetch function
//
// Hook.Fetch is a JavaScript function with fetch's signature (a page's
// instrumented fetch, a Workers service binding's fetch, a test double); by
// default globalThis.fetch is looked up at every request, so a runtime that
// installs or patches fetch later is honoured. mcpwasm's own entry point
// (wasm/js) passes such a function; code outside this module cannot reach
// this package and passes a Doer of its own to transport/fetch.
//
// Every function that touches JavaScript values is GOOS=js only; the
// option validation and the CORS decision are portable.
package jsfetch
