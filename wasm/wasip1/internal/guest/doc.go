// Package guest is the inside of mcpwasm's wasip1 reactor: the
// platform-independent engine behind the module's exports. It owns the
// clients, sessions, operations, server→client questions and HTTP handles of
// one instance, turns everything the host must see into JSON events, and
// implements fetch.Doer on top of three host calls (Host), so that core and
// transport/fetch run unchanged inside the guest while the network stays
// outside. A session with an auth config wraps that Doer in package auth's
// OAuth Doer, whose user agent is either headless (inside the guest) or
// the host ("authorize" events).
//
// # The pump
//
// A WASI reactor's goroutines only run while the host is inside an export
// call, and an export that blocks with no goroutine able to wake it traps
// the instance. No method of Guest therefore ever waits for the host:
// operations (connect, request, close, set roots) start goroutines and
// return an id at once, deliveries from the host (HTTP heads, body chunks,
// answers) are handed over without blocking, and Poll runs the scheduler
// (runtime.Gosched) until the goroutines wait on the host again, then
// returns the queued events. The host calls Poll after every delivery and
// periodically, since guest timers (request timeouts, SSE retry delays)
// only advance during export calls.
//
// The package has no build tags and no wasm-specific code: the same engine
// is tested natively (with the race detector) and under GOOS=wasip1 (with
// the real single-threaded scheduler). wasm/wasip1 binds it to
// //go:wasmexport and //go:wasmimport functions.
//
// A Guest is safe for concurrent use.
package guest
