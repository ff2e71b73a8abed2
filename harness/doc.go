// Package harness is the root of mcpwasm's test harness module
// (github.com/mcpwasm/mcpwasm/harness, harness/go.mod), kept apart from the
// library so that the library's go.mod requires only what the library and
// its unit tests need — not the official Go SDK, which the harness's
// servers are built on. The module replaces the library with the
// repository root (../), so it always builds and tests the working tree.
//
// Its packages:
//
//   - testpeers: real peers as processes (the TypeScript SDK v2 server,
//     server-everything, the tasks-extension server, the Node WebSocket
//     bridge) and the Node scripts behind them (testpeers/node);
//   - demoserver (+ demoserver/demoserve): the official Go SDK server with
//     the shared test tool set, in process or as a command;
//   - authserve, wsserver, peerlife: an OAuth-protected Go SDK server with
//     an observable authorization server, the Go SDK server over
//     WebSocket with fault injection, and the life-cycle rules of the
//     server commands;
//   - integration, wstest: the library's sessions against those servers
//     (core with transport/fetch and transport/ws);
//   - jstest: starts the servers and runs the library's GOOS=js tests
//     (tests/gojs, internal/js/*, internal/jsonschema) under Node 22;
//   - conformance/{client,wasip1,scenario,report}: the native and wasip1
//     runners of the official conformance suite and its report
//     (conformance/run.sh drives them);
//   - exampleweb: the example web app's server (make demo);
//   - fakellm (a Node script, fakellm.mjs): an OpenAI-compatible Chat
//     Completions endpoint that answers scripted tool calls and checks the
//     requests, for the example app's model loop (no real model is
//     reachable in tests);
//   - gobench: the Go side of make bench.
//
// The library's own tests and runnable examples that need a real server
// start the commands of this module as processes through tests/peerproc
// (the library cannot import it; demoserve's -auth-* and -ws flags exist
// for them). scripts/test.sh runs `go test ./...` in both modules.
package harness
