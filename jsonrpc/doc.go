// Package jsonrpc is the JSON-RPC 2.0 wire of MCP: the message types
// ([Message], [Request] — a notification when it has no [ID] —,
// [Response] and the error object [Error]), request ids ([ID], [Int64ID],
// [StringID]) and the codec ([EncodeMessage], [AppendMessage],
// [DecodeMessage], [DecodeMessages] for the batches of the 2025-03-26
// revision, and [AppendMessages], which decodes into a caller's slice).
//
// Transports (package transport/fetch, transport/ws, or a caller's own
// core.Conn) carry these values; the client engine (package core) gives
// them their MCP meaning. The package is separate from core so that the
// codec can be read, tested and fuzzed on its own and so that core's API is
// the client's.
//
// Decoding runs for every message and is written for WebAssembly, where
// reflection is slow: [DecodeMessage] validates the JSON once, without
// reflection, and splits the envelope by hand, leaving params and result
// raw (they alias the input) until a typed value is asked for. Malformed
// input still reports encoding/json's syntax error text, wrapped in
// [ErrInvalidMessage].
package jsonrpc
