// Package gojs holds the GOOS=js tests of sessions through core and the
// transports under Node 22, against real servers, and the names of the
// environment variables that hand those servers' URLs to every GOOS=js test
// of the library (this package's and those under internal/js). It is test support, not part of the library's API.
//
// A GOOS=js test binary runs inside Node (through the Go toolchain's
// lib/wasm/go_js_wasm_exec) and cannot listen on sockets, so the servers
// start outside it: the native TestGOOSJS of the harness module
// (harness/jstest/harness_test.go, run by `go test ./...` in harness/)
// starts
//
//   - the official Go SDK server (harness/demoserver) in process on
//     127.0.0.1 — legacy-only (Streamable HTTP at /mcp and HTTP+SSE at
//     /sse), dual-era (Modern), and legacy with CORS answering;
//   - the TypeScript SDK v2 server (harness/testpeers.StartTSServer);
//   - the Go SDK server over WebSocket with fault injection
//     (harness/wsserver) and server-everything in stdio mode behind the
//     Node WebSocket bridge (harness/testpeers.StartWSBridge);
//   - a small raw HTTP server for the mechanics of the fetch Doer
//     (streaming, aborts, header handling), which no MCP server exposes;
//
// and then runs `go test` with GOOS=js GOARCH=wasm and -exec go_js_wasm_exec
// on the GOOS=js tests of this package (sessions through core and
// transport/fetch or transport/ws, with the JavaScript fetch Doer and
// WebSocket Dialer wired as wasm/js wires them), internal/js/fetch,
// internal/js/ws, internal/js/crypto (the WebCrypto signer, checked against
// crypto/ecdsa and crypto/rsa), internal/js/regex and internal/jsonschema,
// with the servers' URLs in the environment (see env.go) and Node 22 first
// on PATH. Its output is shown when it fails. Run by hand without those
// variables, the GOOS=js tests fail and say how to run them; they never
// skip.
//
// # What Node can test, and what needs a browser
//
// Node's fetch (undici) streams bodies through ReadableStream readers,
// honours AbortController and redirect "manual", and Node 22 has a global
// WebSocket (Node 20 has none: ErrNoWebSocket is tested by removing it),
// so the whole fetch and WebSocket paths run here against real servers.
// Node does not enforce CORS: its responses have type "basic" and hide no
// header, credentials and mode have no effect, and a refused preflight
// cannot happen. The CORS-dependent paths are therefore tested two ways
// here — HiddenByCORS as a pure function, and a user-supplied fetch that
// applies the browser's CORS response filtering (type "cors", only
// safelisted headers plus those named by the real server's
// Access-Control-Expose-Headers) in front of Node's fetch, which also
// exercises the user-supplied-fetch hook — while the real thing (a page on
// another origin in headless Chromium) belongs to the browser tests.
package gojs
