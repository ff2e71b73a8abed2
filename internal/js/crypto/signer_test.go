//go:build js

package jscrypto

import (
	"context"
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/sha512"
	"crypto/x509"
	"encoding/json"
	"encoding/pem"
	"math/big"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpwasm/mcpwasm/auth"
	"github.com/mcpwasm/mcpwasm/internal/b64"
)

// The WebCrypto signer's output is checked with Go's own crypto/ecdsa and
// crypto/rsa (linked into this test only): two independent
// implementations must agree on every signature and public key.

// checkJWS verifies a compact JWS with pub and returns its header and
// claims.
func checkJWS(t *testing.T, jws string, pub crypto.PublicKey) (header, claims map[string]any) {
	t.Helper()
	parts := strings.Split(jws, ".")
	require.Len(t, parts, 3)
	hb, err := b64.DecodeRawURL(parts[0])
	require.NoError(t, err)
	cb, err := b64.DecodeRawURL(parts[1])
	require.NoError(t, err)
	sig, err := b64.DecodeRawURL(parts[2])
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(hb, &header))
	require.NoError(t, json.Unmarshal(cb, &claims))
	input := []byte(parts[0] + "." + parts[1])
	switch k := pub.(type) {
	case *ecdsa.PublicKey:
		size := (k.Curve.Params().BitSize + 7) / 8
		require.Len(t, sig, 2*size, "R||S of fixed width")
		var digest []byte
		if size == 32 {
			d := sha256.Sum256(input)
			digest = d[:]
		} else {
			d := sha512.Sum384(input)
			digest = d[:]
		}
		r, s := new(big.Int).SetBytes(sig[:size]), new(big.Int).SetBytes(sig[size:])
		require.True(t, ecdsa.Verify(k, digest, r, s), "ECDSA signature")
	case *rsa.PublicKey:
		d := sha256.Sum256(input)
		require.NoError(t, rsa.VerifyPKCS1v15(k, crypto.SHA256, d[:], sig))
	default:
		t.Fatalf("key %T", pub)
	}
	return header, claims
}

// signJWS signs a compact JWS with s, as auth does for client assertions
// and DPoP proofs.
func signJWS(t *testing.T, s auth.Signer, header, claims map[string]any) string {
	t.Helper()
	header["alg"] = s.Algorithm()
	h, err := json.Marshal(header)
	require.NoError(t, err)
	c, err := json.Marshal(claims)
	require.NoError(t, err)
	input := b64.RawURLString(h) + "." + b64.RawURLString(c)
	sig, err := s.Sign(context.Background(), []byte(input))
	require.NoError(t, err)
	return input + "." + b64.RawURLString(sig)
}

// jwkKey turns a public JWK back into a Go public key.
func jwkKey(t *testing.T, jwk map[string]string) crypto.PublicKey {
	t.Helper()
	num := func(name string) *big.Int {
		b, err := b64.DecodeRawURL(jwk[name])
		require.NoError(t, err, name)
		return new(big.Int).SetBytes(b)
	}
	switch jwk["kty"] {
	case "EC":
		curve := map[string]elliptic.Curve{"P-256": elliptic.P256(), "P-384": elliptic.P384()}[jwk["crv"]]
		require.NotNil(t, curve, "crv %q", jwk["crv"])
		return &ecdsa.PublicKey{Curve: curve, X: num("x"), Y: num("y")}
	case "RSA":
		return &rsa.PublicKey{N: num("n"), E: int(num("e").Int64())}
	}
	t.Fatalf("kty %q", jwk["kty"])
	return nil
}

func TestWebCryptoParseSigner(t *testing.T) {
	ec256, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	require.NoError(t, err)
	ec384, err := ecdsa.GenerateKey(elliptic.P384(), rand.Reader)
	require.NoError(t, err)
	rsaKey, err := rsa.GenerateKey(rand.Reader, 2048)
	require.NoError(t, err)
	pkcs8 := func(k any) []byte {
		b, err := x509.MarshalPKCS8PrivateKey(k)
		require.NoError(t, err)
		return pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: b})
	}
	sec1 := func(k *ecdsa.PrivateKey) []byte {
		b, err := x509.MarshalECPrivateKey(k)
		require.NoError(t, err)
		return pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: b})
	}
	// A minimal ECPrivateKey: version and private key only (the curve
	// follows from the key's length).
	noParams := func(k *ecdsa.PrivateKey) []byte {
		d := k.D.FillBytes(make([]byte, 32))
		return pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: derSeq([]byte{tagInteger, 1, 1}, der(tagOctetString, d))})
	}
	tests := []struct {
		name string
		pem  []byte
		pub  crypto.PublicKey
		alg  string
	}{
		{"P-256 PKCS #8", pkcs8(ec256), &ec256.PublicKey, "ES256"},
		{"P-256 SEC 1", sec1(ec256), &ec256.PublicKey, "ES256"},
		{"P-384 PKCS #8", pkcs8(ec384), &ec384.PublicKey, "ES384"},
		{"P-384 SEC 1", sec1(ec384), &ec384.PublicKey, "ES384"},
		{"P-256 SEC 1 without parameters or public key", noParams(ec256), &ec256.PublicKey, "ES256"},
		{"RSA PKCS #8", pkcs8(rsaKey), &rsaKey.PublicKey, "RS256"},
		{"RSA PKCS #1", pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(rsaKey)}), &rsaKey.PublicKey, "RS256"},
	}
	now := time.Unix(1800000000, 0)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := ParseSigner(tt.pem)
			require.NoError(t, err)
			assert.Equal(t, tt.alg, s.Algorithm())
			assert.Equal(t, tt.pub, jwkKey(t, s.PublicJWK()), "the public JWK is the key's")
			for _, private := range []string{"d", "p", "q", "dp", "dq", "qi"} {
				assert.NotContains(t, s.PublicJWK(), private)
			}
			a := signJWS(t, s, map[string]any{"typ": "JWT"}, map[string]any{"iss": "client-1", "aud": "https://as.example", "iat": now.Unix()})
			h, c := checkJWS(t, a, tt.pub)
			assert.Equal(t, tt.alg, h["alg"])
			assert.Equal(t, "client-1", c["iss"])
			assert.Equal(t, "https://as.example", c["aud"])
		})
	}
}

func TestWebCryptoParseSignerErrors(t *testing.T) {
	small, err := rsa.GenerateKey(rand.Reader, 1024)
	require.NoError(t, err)
	smallDER, err := x509.MarshalPKCS8PrivateKey(small)
	require.NoError(t, err)
	p521, err := ecdsa.GenerateKey(elliptic.P521(), rand.Reader)
	require.NoError(t, err)
	p521DER, err := x509.MarshalPKCS8PrivateKey(p521)
	require.NoError(t, err)
	p521SEC1, err := x509.MarshalECPrivateKey(p521)
	require.NoError(t, err)
	tests := []struct {
		name, pem, want string
	}{
		{"not PEM", "not a key", "no PEM block"},
		{"certificate", string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: []byte{1}})), "unsupported PEM block"},
		{"RSA 1024", string(pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: smallDER})), "at least 2048 bits"},
		{"P-521 PKCS #8", string(pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: p521DER})), "unsupported private key"},
		{"P-521 SEC 1", string(pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: p521SEC1})), "unsupported private key"},
		{"truncated DER", string(pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: smallDER[:20]})), "malformed DER"},
		{"garbage PKCS #1", string(pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: []byte{0x30, 0x03, 0x02, 0x01, 0x00}})), "importing the private key"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseSigner([]byte(tt.pem))
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.want)
		})
	}
}

func TestWebCryptoGenerateSigner(t *testing.T) {
	s, err := GenerateSigner()
	require.NoError(t, err)
	assert.Equal(t, "ES256", s.Algorithm())
	jwk := s.PublicJWK()
	assert.Equal(t, []string{"crv", "kty", "x", "y"}, sortedKeys(jwk), "public members only")
	pub := jwkKey(t, jwk)
	now := time.Unix(1800000000, 0)
	p1 := signJWS(t, s, map[string]any{"typ": "dpop+jwt"}, map[string]any{"htm": "POST", "htu": "https://rs.example/mcp", "iat": now.Unix()})
	h, c := checkJWS(t, p1, pub)
	assert.Equal(t, "dpop+jwt", h["typ"])
	assert.Equal(t, "ES256", h["alg"])
	assert.Equal(t, "https://rs.example/mcp", c["htu"])

	other, err := GenerateSigner()
	require.NoError(t, err)
	assert.NotEqual(t, jwk["x"], other.PublicJWK()["x"], "a new key each time")

	// Concurrent signing (the Doer signs from several goroutines).
	errs := make(chan error, 8)
	for i := 0; i < 8; i++ {
		go func() {
			_, err := s.Sign(context.Background(), []byte("GET https://rs.example/mcp"))
			errs <- err
		}()
	}
	for i := 0; i < 8; i++ {
		require.NoError(t, <-errs)
	}
}

func sortedKeys(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
