// Package peerlife bounds the life of the servers mcpwasm's tests start as
// child processes (internal/demoserver/demoserve, internal/authserve,
// example-web): they stop by themselves when their parent goes away.
package peerlife
