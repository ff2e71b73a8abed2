//go:build js

package auth

import "io"

// Under GOOS=js the package links no Go crypto (its FIPS module, DRBG and
// tables would add some 50 KB gzip to the WebAssembly module): there is no
// default random source or hash, and no signer of its own. mcpwasm's
// module passes WebCrypto's (internal/js/crypto) in Options.Random,
// Options.SHA256, Options.DPoP and Client.Signer.

// defaultRandom is Options.Random's default: none.
func defaultRandom() io.Reader { return nil }

// defaultSHA256 is Options.SHA256's default: none.
func defaultSHA256() func([]byte) [32]byte { return nil }

// ParseSigner fails with ErrNoCrypto under GOOS=js, which links no Go
// crypto; pass a Signer whose key lives in the runtime (WebCrypto)
// instead. Natively it parses a PEM-encoded private key.
func ParseSigner(pemData []byte) (Signer, error) { return nil, ErrNoCrypto }

// GenerateSigner fails with ErrNoCrypto under GOOS=js (see ParseSigner).
func GenerateSigner() (Signer, error) { return nil, ErrNoCrypto }
