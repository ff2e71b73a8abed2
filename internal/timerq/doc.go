// Package timerq runs many timeouts of one duration on one clock timer:
// a request's idle timeout, a stream's grace period. Arming and stopping a
// runtime timer per request cost ≈ 8 µs of a native call's ≈ 110 (a timer
// earlier than the network poller's sleep wakes the poller with a
// syscall) and ≈ 6 µs in WebAssembly; a Queue's Add and Stop take a lock
// and touch a slice.
package timerq
