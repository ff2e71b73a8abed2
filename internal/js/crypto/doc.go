// Package jscrypto is the GOOS=js build's cryptography on the runtime's
// WebCrypto: a random source (Reader), SHA-256 without Go's crypto
// packages (Sum256), and signers whose keys live in crypto.subtle
// (ParseSigner, GenerateSigner). The auth package takes them through
// [auth.Options] (Random, SHA256, DPoP, Client.Signer); wasm/js passes
// them, so the module links neither Go's crypto packages nor syscall/js
// outside internal/js.
package jscrypto
