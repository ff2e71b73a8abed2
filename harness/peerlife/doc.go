// Package peerlife bounds the life of the servers mcpwasm's tests start as
// child processes (harness/demoserver/demoserve, harness/authserve,
// example-web): they stop by themselves when their parent goes away.
package peerlife
