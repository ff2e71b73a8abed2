package core

import (
	"github.com/mcpwasm/mcpwasm/internal/jsonscan"
)

// This file decodes the wire types the client reads without reflection
// (package encoding/json is not linked into the WebAssembly modules; see
// docs/size.md). The decoders follow encoding/json's rules for the struct
// shapes of types.go, so that results are the same as json.Unmarshal's:
// member names match exactly or else case-insensitively, a repeated
// member is decoded again into the same value (the last scalar wins,
// objects merge), null leaves a scalar alone and sets a pointer, map,
// slice to nil (a json.RawMessage to "null"), a member of the wrong kind
// is skipped and reported (the first such error, with encoding/json's
// text) while the rest is decoded, and unknown members are ignored.
// The state and the primitives are jsonscan.Decoder's, which the bridge's
// schema decoder shares.

// dec is the state of one decoding: the first error, and the error
// context encoding/json reports (the innermost struct and the field path).
type dec struct {
	jsonscan.Decoder
	memo   *metaMemo   // a session's memo of result _meta objects; nil: none
	memoIn *structType // the struct whose _meta goes through memo
}

func newDec() *dec { return &dec{} }

func containsByte(b []byte, c byte) bool {
	for _, x := range b {
		if x == c {
			return true
		}
	}
	return false
}
