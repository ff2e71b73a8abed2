//go:build !js

package auth

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
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpwasm/mcpwasm/internal/b64"
)

// verifyJWT checks a compact JWS with the signer's public key.
func verifyJWT(t *testing.T, jwt string, pub crypto.PublicKey) (header, claims map[string]any) {
	t.Helper()
	parts := strings.Split(jwt, ".")
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
		require.Len(t, sig, 2*size)
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

func TestSigners(t *testing.T) {
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
	sec1, err := x509.MarshalECPrivateKey(ec256)
	require.NoError(t, err)
	tests := []struct {
		name string
		pem  []byte
		pub  crypto.PublicKey
		alg  string
	}{
		{"P-256 PKCS #8", pkcs8(ec256), &ec256.PublicKey, "ES256"},
		{"P-256 SEC 1", pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: sec1}), &ec256.PublicKey, "ES256"},
		{"P-384 PKCS #8", pkcs8(ec384), &ec384.PublicKey, "ES384"},
		{"RSA PKCS #8", pkcs8(rsaKey), &rsaKey.PublicKey, "RS256"},
		{"RSA PKCS #1", pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(rsaKey)}), &rsaKey.PublicKey, "RS256"},
	}
	now := time.Unix(1800000000, 0)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := ParseSigner(tt.pem)
			require.NoError(t, err)
			assert.Equal(t, tt.alg, s.Algorithm())
			a, err := newConfig(nil).clientAssertion(context.Background(), s, "client-1", "https://as.example", now)
			require.NoError(t, err)
			h, c := verifyJWT(t, a, tt.pub)
			assert.Equal(t, tt.alg, h["alg"])
			assert.Equal(t, "client-1", c["iss"])
			assert.Equal(t, "client-1", c["sub"])
			assert.Equal(t, "https://as.example", c["aud"])
			assert.EqualValues(t, now.Add(5*time.Minute).Unix(), c["exp"])
			assert.NotEmpty(t, c["jti"])
		})
	}
	_, err = ParseSigner([]byte("not a key"))
	assert.Error(t, err)
}

func TestDPoPProof(t *testing.T) {
	s, err := GenerateSigner()
	require.NoError(t, err)
	ec := s.(*ecSigner)
	now := time.Unix(1800000000, 0)
	p1, err := newConfig(nil).dpopProof(context.Background(), s, "POST", "https://rs.example/mcp?x=1#f", "tok", "n1", now)
	require.NoError(t, err)
	p2, err := newConfig(nil).dpopProof(context.Background(), s, "POST", "https://rs.example/mcp", "", "", now)
	require.NoError(t, err)
	h, c := verifyJWT(t, p1, &ec.key.PublicKey)
	assert.Equal(t, "dpop+jwt", h["typ"])
	jwk, _ := h["jwk"].(map[string]any)
	assert.Equal(t, "EC", jwk["kty"])
	assert.Nil(t, jwk["d"], "no private key in the proof")
	assert.Equal(t, "https://rs.example/mcp", c["htu"], "no query or fragment")
	assert.Equal(t, "POST", c["htm"])
	assert.Equal(t, newConfig(nil).s256("tok"), c["ath"])
	assert.Equal(t, "n1", c["nonce"])
	_, c2 := verifyJWT(t, p2, &ec.key.PublicKey)
	assert.NotEqual(t, c["jti"], c2["jti"], "fresh jti per proof")
	assert.Nil(t, c2["ath"])
	assert.Nil(t, c2["nonce"])
}
