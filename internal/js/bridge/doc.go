// Package jsbridge holds the small syscall/js helpers shared by mcpwasm's
// GOOS=js code (the fetch and WebSocket transports and the wasm/js entry
// point): awaiting a JavaScript Promise from a goroutine, errors from
// JavaScript values, byte copies between Go and Uint8Array, and an
// AbortSignal tied to a context.
//
// Rules these helpers follow and their callers must too: never block inside
// a js.FuncOf callback (Await must be called from an ordinary goroutine);
// release every js.Func only after it can no longer be called; recover
// panics in goroutines that touch JavaScript values (Recover).
package jsbridge
