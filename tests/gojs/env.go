package gojs

// Environment variables through which the harness hands server URLs to the
// GOOS=js tests (constants: safe for concurrent use).
const (
	// EnvEcho is the origin of the raw HTTP server (harness_test.go).
	EnvEcho = "MCPWASM_JS_ECHO"
	// EnvGoLegacy is the origin of the legacy-only Go SDK server (/mcp
	// Streamable HTTP, /sse HTTP+SSE).
	EnvGoLegacy = "MCPWASM_JS_GO_LEGACY"
	// EnvGoModern is the origin of the dual-era Go SDK server (/mcp).
	EnvGoModern = "MCPWASM_JS_GO_MODERN"
	// EnvGoCORS is the origin of a legacy Go SDK server that answers CORS
	// for any origin (/mcp).
	EnvGoCORS = "MCPWASM_JS_GO_CORS"
	// EnvTSCORSNoExpose is the MCP endpoint URL of the TypeScript SDK v2
	// server behind a misconfigured CORS proxy: Access-Control-Allow-Origin
	// "*" but no Access-Control-Expose-Headers.
	EnvTSCORSNoExpose = "MCPWASM_JS_TS_CORS_NO_EXPOSE"
	// EnvClosed is an http origin on 127.0.0.1 where nothing listens.
	EnvClosed = "MCPWASM_JS_CLOSED"
	// EnvTS is the MCP endpoint URL of the TypeScript SDK v2 server
	// (dual-era).
	EnvTS = "MCPWASM_JS_TS"
	// EnvWSGo is the ws:// URL of the Go SDK server over WebSocket with
	// fault injection (harness/wsserver).
	EnvWSGo = "MCPWASM_JS_WS_GO"
	// EnvWSBridge is the ws:// URL of server-everything (stdio) behind the
	// Node WebSocket bridge.
	EnvWSBridge = "MCPWASM_JS_WS_BRIDGE"
)

// WSInjectMethod is the fault-injection control method of the WebSocket
// server behind EnvWSGo (harness/wsserver.InjectMethod; harness/jstest
// checks that they agree).
const WSInjectMethod = "wstest/inject"

// Hint is what a GOOS=js test says when run without the harness.
const Hint = "these GOOS=js tests need servers that a wasm binary cannot start; " +
	"run `go test ./jstest/` natively in the harness module (harness/; make test does): it starts them and runs the GOOS=js tests under Node 22"
