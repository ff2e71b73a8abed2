// Package rawsock reads and writes a connected TCP socket with raw system
// calls on Linux, waiting for it through the runtime's network poller as
// net.Conn does, deadlines and closing included: net.Conn makes each read
// and write a blocking-kind system call, and the scheduler's bookkeeping
// around it wakes the runtime's monitor thread whenever the process was
// idle, which in a sequential request loop it is at every call
// (docs/architecture.md, "Socket reads and writes"). Other systems, and
// race-detector builds, use the net.Conn itself.
//
// transport/fetch's HTTP/1.1 connections read and write through it, and so
// does the bench's raw socket floor (harness/gobench), so that the floor
// moves bytes exactly as the library does.
package rawsock
