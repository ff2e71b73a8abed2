// Package abi defines the host ABI of mcpwasm's wasip1 reactor
// (wasm/wasip1): the version, the names of the exports and imports, the
// status codes and the JSON messages that cross the boundary. The guest and
// Go hosts (wasm/wasihost) share these definitions; docs/wasi-abi.md is the
// normative description for hosts written in other languages.
//
// The package is plain data: no build tags, no I/O, safe for concurrent use.
package abi
