// Package jsws wraps the JavaScript WebSocket class for Go code under
// GOOS=js. [Dialer] is transport/ws's Dialer on it, which wasm/js passes
// to ws.Options.Dialer (transport/ws never imports syscall/js and has no
// JavaScript default).
//
// Events are turned into Go values without blocking inside a callback:
// "message" events are copied and queued (the queue is unbounded, as the
// WebSocket API offers no back-pressure; a message above the size limit
// closes the socket with status 1009 instead of being queued), "close"
// ends the socket with its code and reason, and "error" is remembered as
// the cause when the socket closes before it opened. binaryType is
// "arraybuffer" so binary frames can be copied synchronously. Every js.Func
// is removed from the socket and released when the socket has closed.
package jsws
