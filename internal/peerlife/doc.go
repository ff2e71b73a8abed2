// Package peerlife bounds the life of the test servers mcpwasm starts as
// child processes (internal/demoserver/demoserve, internal/authserve): they
// stop by themselves when their parent goes away.
package peerlife
