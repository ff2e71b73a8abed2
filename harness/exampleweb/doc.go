// Command example-web serves mcpwasm's example browser chat client
// (example-web/static) together with the mcpwasm npm package (js/) and an
// embedded demo MCP server (harness/demoserver, the official Go SDK), so
// that `make demo` works with nothing else running.
//
// # Usage
//
//	go run -C harness ./exampleweb -dir "$PWD" [flags]   (from the repository root; make demo builds it)
//
// It listens on 127.0.0.1 only. The port is -port, else $PORT, else 8080 or
// the first free port after it (up to 8099), else any free port; -port 0
// picks any free port. Once listening it prints one line
//
//	LISTENING http://127.0.0.1:<port>/
//
// (the test harness reads it) and a short guide. It stops cleanly on
// Ctrl-C/SIGTERM, when its standard input is a pipe that closes (a parent
// test process went away), or after -max-life.
//
// # Paths
//
//	/                  example-web/static (the page: plain ES modules, no build step)
//	/mcpwasm/src/…     js/src        (the package's ES modules)
//	/mcpwasm/dist/…    js/dist       (mcpwasm.wasm and wasm_exec.js; scripts/build-wasm.sh)
//	/mcpwasm/index.d.ts, /mcpwasm/package.json
//	/vendor/…          build/example-web (the MCP Apps host bundle, example-web/build-apps.mjs)
//	/apps-sandbox.html the MCP Apps sandbox proxy page (written by the same script)
//	/mcp               demo MCP server, Streamable HTTP, dual-era (2026-07-28 and legacy),
//	                   with the MCP App tool greeting_app (demoserver Options.Apps)
//	/sse               the same server over the 2024-11-05 HTTP+SSE transport (legacy)
//	/legacy/mcp        a second demo server, legacy era only (2025-11-25 and older)
//
// Static files are sent with an explicit Content-Type (application/wasm for
// .wasm, so browsers compile it while it streams), X-Content-Type-Options:
// nosniff, "Cache-Control: no-cache" with an ETag and Last-Modified (a
// rebuilt module is picked up on reload, an unchanged one costs a 304), and
// the page gets a Content-Security-Policy that allows scripts only from this
// origin (plus 'wasm-unsafe-eval' for WebAssembly), images and audio from
// data: URLs, connections to any origin (any MCP server), and frames only
// from the MCP Apps sandbox: /apps-sandbox.html, the extension's sandbox
// proxy, which the page loads from this server under the other loopback
// name (localhost for a page at 127.0.0.1 and the other way round), a
// second origin, so apps never run on the page's origin nor under its
// policy (see appsSandboxOrigins).
//
// The demo servers answer CORS for the origins in -cors (default "*": any
// page on any origin may use the demo server; it holds no secrets and
// listens on loopback only): preflights allow the request headers a browser
// MCP client sends (Content-Type, Accept, Authorization,
// MCP-Protocol-Version, Mcp-Session-Id, Last-Event-ID, Mcp-Method,
// Mcp-Name, Mcp-Param-*) and responses expose Mcp-Session-Id,
// WWW-Authenticate and MCP-Protocol-Version.
package main
