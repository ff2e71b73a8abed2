// Package jsonscan is the JSON scanning the wire codec (package jsonrpc)
// and core share: a validator without reflection ([Valid], several times
// the speed of encoding/json's scanner inside WebAssembly, and giving the
// same answers — a fuzz target compares them), the top-level members of an
// object split by a plain scan ([SplitMembers]), and raw string helpers.
// It is internal because its API serves the hot path, not users.
package jsonscan
