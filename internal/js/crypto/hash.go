//go:build js

package jscrypto

import (
	"errors"
	"io"
	"math/bits"
	"syscall/js"

	"github.com/mcpwasm/mcpwasm/internal/js/bridge"
)

// The GOOS=js build does its hashing and randomness without Go's crypto
// packages, whose FIPS module, DRBG and AES tables would add some 50 KB
// (gzip) to the WebAssembly build: SHA-256 is a few lines, and the random
// source is the runtime's crypto.getRandomValues, the one WebCrypto itself
// uses. wasm/js passes them to auth.Options (Random, SHA256).

// Sum256 is SHA-256 (FIPS 180-4), for auth.Options.SHA256.
func Sum256(data []byte) [32]byte {
	h := [8]uint32{0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19}
	msg := make([]byte, 0, len(data)+72)
	msg = append(msg, data...)
	msg = append(msg, 0x80)
	for len(msg)%64 != 56 {
		msg = append(msg, 0)
	}
	msg = appendUint64(msg, uint64(len(data))*8)
	var w [64]uint32
	for off := 0; off < len(msg); off += 64 {
		for i := 0; i < 16; i++ {
			w[i] = uint32At(msg[off+4*i:])
		}
		for i := 16; i < 64; i++ {
			s0 := bits.RotateLeft32(w[i-15], -7) ^ bits.RotateLeft32(w[i-15], -18) ^ w[i-15]>>3
			s1 := bits.RotateLeft32(w[i-2], -17) ^ bits.RotateLeft32(w[i-2], -19) ^ w[i-2]>>10
			w[i] = w[i-16] + s0 + w[i-7] + s1
		}
		a, b, c, d, e, f, g, hh := h[0], h[1], h[2], h[3], h[4], h[5], h[6], h[7]
		for i := 0; i < 64; i++ {
			t1 := hh + (bits.RotateLeft32(e, -6) ^ bits.RotateLeft32(e, -11) ^ bits.RotateLeft32(e, -25)) + (e&f ^ ^e&g) + sha256K[i] + w[i]
			t2 := (bits.RotateLeft32(a, -2) ^ bits.RotateLeft32(a, -13) ^ bits.RotateLeft32(a, -22)) + (a&b ^ a&c ^ b&c)
			hh, g, f, e, d, c, b, a = g, f, e, d+t1, c, b, a, t1+t2
		}
		h[0] += a
		h[1] += b
		h[2] += c
		h[3] += d
		h[4] += e
		h[5] += f
		h[6] += g
		h[7] += hh
	}
	var out [32]byte
	for i, v := range h {
		putUint32(out[4*i:], v)
	}
	return out
}

var sha256K = [64]uint32{
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
	0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
	0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
	0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
	0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
	0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
	0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
	0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
}

// Reader is the runtime's cryptographic random source
// (crypto.getRandomValues), for auth.Options.Random. It has no state.
type Reader struct{}

var _ io.Reader = Reader{}

// Read fills the whole of b, 65,536 bytes a call to getRandomValues (the
// Web Crypto limit). It fails only when the runtime has no
// crypto.getRandomValues.
func (Reader) Read(b []byte) (n int, err error) {
	defer jsbridge.Recover(&err)
	c := js.Global().Get("crypto")
	if c.Type() != js.TypeObject || c.Get("getRandomValues").Type() != js.TypeFunction {
		return 0, errNoRandom
	}
	for n < len(b) {
		k := min(len(b)-n, 65536)
		a := js.Global().Get("Uint8Array").New(k)
		c.Call("getRandomValues", a)
		js.CopyBytesToGo(b[n:n+k], a)
		n += k
	}
	return n, nil
}

// errNoRandom means the runtime has no crypto.getRandomValues.
var errNoRandom = errors.New("jscrypto: crypto.getRandomValues is not available")

// appendUint64, uint32At and putUint32 are encoding/binary.BigEndian's
// AppendUint64, Uint32 and PutUint32: encoding/binary imports reflect,
// which the GOOS=js module otherwise leaves out (docs/size.md).
func appendUint64(b []byte, v uint64) []byte {
	return append(b, byte(v>>56), byte(v>>48), byte(v>>40), byte(v>>32), byte(v>>24), byte(v>>16), byte(v>>8), byte(v))
}

func uint32At(b []byte) uint32 {
	_ = b[3]
	return uint32(b[3]) | uint32(b[2])<<8 | uint32(b[1])<<16 | uint32(b[0])<<24
}

func putUint32(b []byte, v uint32) {
	_ = b[3]
	b[0], b[1], b[2], b[3] = byte(v>>24), byte(v>>16), byte(v>>8), byte(v)
}
