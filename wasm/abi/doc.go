// Package abi defines the host ABI of mcpwasm's wasip1 reactor
// (wasm/wasip1): the version, the names of the exports and imports, the
// status codes and the JSON messages that cross the boundary. The guest and
// Go hosts (wasm/wasihost) share these definitions; docs/wasi-abi.md is the
// normative description for hosts written in other languages. It sits
// outside the reactor's tree because both sides import it.
//
// The configuration messages ([ClientConfig], [ConnectRequest],
// [AuthConfig], the options of a [CallRequest]) and [Error] are the
// bridge's types (aliases of internal/bridge's): the GOOS=js module reads
// the same schema, so an option means the same in every host
// (docs/configuration.md).
//
// The package is plain data: no build tags, no I/O, safe for concurrent use.
package abi
