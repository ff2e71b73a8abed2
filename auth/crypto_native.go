//go:build !js

package auth

import (
	"crypto/rand"
	"crypto/sha256"
	"io"
)

// The GOOS=js twin, crypto_js.go, has no defaults: that build links no Go
// crypto (its FIPS module, DRBG and tables would add some 50 KB gzip to
// the WebAssembly module), and the caller passes the runtime's.

// defaultRandom is Options.Random's default.
func defaultRandom() io.Reader { return rand.Reader }

// defaultSHA256 is Options.SHA256's default.
func defaultSHA256() func([]byte) [32]byte { return sha256.Sum256 }
