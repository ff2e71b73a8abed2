//go:build !js

package auth

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/pem"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

type pkcsKey interface{ Equal(crypto.PrivateKey) bool }

// pkcsFixtures returns DER private keys in the three containers, made by
// crypto/x509, with the PEM type each goes in.
func pkcsFixtures(t testing.TB) map[string]struct {
	typ string
	der []byte
} {
	t.Helper()
	p256, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	require.NoError(t, err)
	p384, err := ecdsa.GenerateKey(elliptic.P384(), rand.Reader)
	require.NoError(t, err)
	r, err := rsa.GenerateKey(rand.Reader, 2048)
	require.NoError(t, err)
	out := map[string]struct {
		typ string
		der []byte
	}{}
	add := func(name, typ string, der []byte, err error) {
		require.NoError(t, err, name)
		out[name] = struct {
			typ string
			der []byte
		}{typ, der}
	}
	b, err := x509.MarshalPKCS8PrivateKey(p256)
	add("pkcs8 P-256", "PRIVATE KEY", b, err)
	b, err = x509.MarshalPKCS8PrivateKey(p384)
	add("pkcs8 P-384", "PRIVATE KEY", b, err)
	b, err = x509.MarshalPKCS8PrivateKey(r)
	add("pkcs8 RSA", "PRIVATE KEY", b, err)
	b, err = x509.MarshalECPrivateKey(p256)
	add("sec1 P-256", "EC PRIVATE KEY", b, err)
	b, err = x509.MarshalECPrivateKey(p384)
	add("sec1 P-384", "EC PRIVATE KEY", b, err)
	add("pkcs1 RSA", "RSA PRIVATE KEY", x509.MarshalPKCS1PrivateKey(r), nil)
	return out
}

// parseByType reads der as ParseSigner does for the PEM type.
func parseByType(typ string, der []byte) (any, error) {
	switch typ {
	case "PRIVATE KEY":
		return parsePKCS8(der)
	case "EC PRIVATE KEY":
		return parseSEC1(der, nil)
	}
	return parsePKCS1(der)
}

func x509ByType(typ string, der []byte) (any, error) {
	switch typ {
	case "PRIVATE KEY":
		return x509.ParsePKCS8PrivateKey(der)
	case "EC PRIVATE KEY":
		return x509.ParseECPrivateKey(der)
	}
	return x509.ParsePKCS1PrivateKey(der)
}

// TestPrivateKeysLikeX509: every container x509 writes is read to the
// same key; ParseSigner signs with it.
func TestPrivateKeysLikeX509(t *testing.T) {
	for name, f := range pkcsFixtures(t) {
		t.Run(name, func(t *testing.T) {
			want, err := x509ByType(f.typ, f.der)
			require.NoError(t, err)
			got, err := parseByType(f.typ, f.der)
			require.NoError(t, err)
			assert.True(t, want.(pkcsKey).Equal(got))
			s, err := ParseSigner(pem.EncodeToMemory(&pem.Block{Type: f.typ, Bytes: f.der}))
			require.NoError(t, err)
			assert.NotEmpty(t, s.Algorithm())
		})
	}
}

// TestPrivateKeysRefused: what the hand-written reader refuses, with the
// reason a user can act on where there is one.
func TestPrivateKeysRefused(t *testing.T) {
	fx := pkcsFixtures(t)
	_, edKey, err := ed25519.GenerateKey(rand.Reader)
	require.NoError(t, err)
	ed, err := x509.MarshalPKCS8PrivateKey(edKey)
	require.NoError(t, err)
	p224, err := ecdsa.GenerateKey(elliptic.P224(), rand.Reader)
	require.NoError(t, err)
	sec224, err := x509.MarshalECPrivateKey(p224)
	require.NoError(t, err)
	good := fx["pkcs8 P-256"].der
	tests := []struct {
		name, typ string
		der       []byte
		msg       string
	}{
		{"ed25519 in pkcs8", "PRIVATE KEY", ed, "unsupported private key algorithm"},
		{"P-224", "EC PRIVATE KEY", sec224, "unsupported elliptic curve"},
		{"truncated", "PRIVATE KEY", good[:len(good)-1], "malformed"},
		{"trailing byte", "PRIVATE KEY", append(append([]byte{}, good...), 0), "malformed"},
		{"empty", "PRIVATE KEY", nil, "malformed"},
		{"indefinite length", "PRIVATE KEY", append([]byte{0x30, 0x80}, good[2:]...), "malformed"},
		{"pkcs1 as sec1", "EC PRIVATE KEY", fx["pkcs1 RSA"].der, "malformed"},
		{"sec1 as pkcs1 (version 1: multi-prime)", "RSA PRIVATE KEY", fx["sec1 P-256"].der, "unsupported RSA private key"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := parseByType(tt.typ, tt.der)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.msg)
		})
	}
}

// FuzzPrivateKeyDER: whatever the reader accepts, x509 accepts too and
// reads as the same key.
func FuzzPrivateKeyDER(f *testing.F) {
	types := []string{"PRIVATE KEY", "EC PRIVATE KEY", "RSA PRIVATE KEY"}
	for _, fx := range pkcsFixtures(f) {
		for i, typ := range types {
			if typ == fx.typ {
				f.Add(uint8(i), fx.der)
			}
		}
	}
	f.Fuzz(func(t *testing.T, which uint8, der []byte) {
		typ := types[int(which)%len(types)]
		got, err := parseByType(typ, der)
		if err != nil {
			return
		}
		want, err := x509ByType(typ, der)
		require.NoError(t, err, "accepted what x509 refuses")
		assert.True(t, want.(pkcsKey).Equal(got))
	})
}
