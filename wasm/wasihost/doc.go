// Package wasihost runs mcpwasm's wasip1 reactor (wasm/wasip1) under
// github.com/tetratelabs/wazero and lets a Go program drive MCP sessions
// through it: the protocol runs inside the WebAssembly instance, the
// network outside, with net/http performing the requests the guest asks
// for. It is both a usable host and the reference implementation of the
// ABI documented in docs/wasi-abi.md.
//
//	h, err := wasihost.New(ctx, wasmBytes, &wasihost.Options{CompilationCache: cache})
//	sess, err := h.Connect(ctx, "https://example.com/mcp", &wasihost.ConnectOptions{
//		Handlers: wasihost.Handlers{Sampling: sample},
//	})
//	result, err := sess.Request(ctx, "tools/call", map[string]any{"name": "echo"}, nil)
//
// One goroutine per Host (the pump) owns the instance and makes every call
// into it: the exports that start operations and deliver HTTP responses,
// body chunks and handler answers, and mcpwasm_poll, which runs the guest's
// goroutines and returns its events. Guest timers only advance while the
// guest runs, so the pump also polls every Options.PumpInterval while work
// is in flight. A guest call that fails is a trap: the instance is closed,
// every pending call fails with an error wrapping ErrTrapped, and the Host
// is not reused — make a new one (a shared CompilationCache makes that
// cheap).
//
// Handlers (sampling, elicitation, roots) run on their own goroutines with
// a context that ends when the server withdraws the request or the session
// ends; notification and progress callbacks run in order on one goroutine
// per session.
//
// OAuth (ConnectOptions.Auth) runs inside the guest as well: discovery,
// registration, PKCE, the token requests, refresh, step-up and DPoP happen
// in the instance, which asks the host only for HTTP — with redirects not
// followed where the guest says so, so that a token never follows a
// redirect to another resource — and, through AuthOptions.Authorize, for
// the user's sign-in. Without Authorize the guest reads the authorization
// server's redirect itself (servers that need no user).
//
// The package speaks core's vocabulary: ClientInfo, Roots, capabilities and
// server info are [core.Implementation], [core.Root],
// [core.ClientCapabilities] and [core.ServerCapabilities]; a JSON-RPC error
// is a [*core.RPCError] and a [*GuestError] unwraps to core's sentinels
// ([core.ErrTimeout], [core.ErrClosed], …), so errors.As and errors.Is work
// as they do with core. AuthOptions embeds the bridge's auth configuration
// ([abi.AuthConfig]), whose meanings docs/configuration.md gives.
package wasihost
