//go:build wasip1

// Command wasip1 is mcpwasm's WASI reactor: the MCP client (core and
// transport/fetch) built with
//
//	GOOS=wasip1 GOARCH=wasm go build -buildmode=c-shared
//
// for WASI hosts that run modules without JavaScript or sockets (wazero,
// wasmtime, Spin-style runtimes). The protocol runs inside; the network
// stays outside: the host performs the HTTP requests the guest asks for
// (imports of module "mcpwasm") and streams the response bytes back
// (exports). docs/wasi-abi.md documents the ABI; package wasm/abi holds its names
// and messages; package guest is the engine behind the exports;
// wasm/wasihost runs the module under wazero.
//
// OAuth runs inside too (package auth, configured by the connect
// request's "auth" member): the host performs its HTTP requests and, when
// a user must sign in, opens the authorization URL ("authorize" events).
//
// The host calls the exports one at a time. None of them blocks: an
// operation returns an id at once and its result arrives as an event of
// mcpwasm_poll, which runs the guest's goroutines until they wait on the
// host again. net/http is not linked (transport/fetch's wasip1 DefaultDoer
// has no network of its own).
package main
