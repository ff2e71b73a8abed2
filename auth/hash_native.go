//go:build !js

package auth

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
)

// sum256 is SHA-256 (PKCE challenges, JWK thumbprints, DPoP ath).
func sum256(b []byte) [32]byte { return sha256.Sum256(b) }

// randomBytes fills b from the platform's cryptographic random source.
func randomBytes(b []byte) { _, _ = rand.Read(b) } // crypto/rand panics rather than fail

// constantTimeEqual compares secrets without leaking where they differ.
func constantTimeEqual(a, b string) bool {
	return subtle.ConstantTimeCompare([]byte(a), []byte(b)) == 1
}
