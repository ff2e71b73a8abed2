// Package jsws wraps the JavaScript WebSocket class for Go code under
// GOOS=js: it is the syscall/js half of transport/ws (which never imports
// syscall/js itself).
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
