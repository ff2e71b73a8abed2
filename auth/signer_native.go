//go:build !js

// The GOOS=js twin, crypto_js.go, fails with ErrNoCrypto: that build links
// no Go crypto, and internal/js/crypto makes signers on WebCrypto.

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
	"encoding/pem"
	"errors"
	"math/big"

	"github.com/mcpwasm/mcpwasm/internal/b64"
	"github.com/mcpwasm/mcpwasm/internal/errf"
)

// ParseSigner returns a Signer for a PEM-encoded private key: PKCS #8
// ("PRIVATE KEY"), SEC 1 ("EC PRIVATE KEY") or PKCS #1 ("RSA PRIVATE
// KEY"). P-256 keys sign with ES256, P-384 keys with ES384, RSA keys (2048
// bits or more) with RS256. The Signer is safe for concurrent use.
func ParseSigner(pemData []byte) (Signer, error) {
	block, _ := pem.Decode(pemData)
	if block == nil {
		return nil, errors.New("auth: no PEM block in the private key")
	}
	var key any
	var err error
	switch block.Type {
	case "PRIVATE KEY":
		key, err = parsePKCS8(block.Bytes)
	case "EC PRIVATE KEY":
		key, err = parseSEC1(block.Bytes, nil)
	case "RSA PRIVATE KEY":
		key, err = parsePKCS1(block.Bytes)
	default:
		return nil, errf.Errorf("auth: unsupported PEM block %q", block.Type)
	}
	if err != nil {
		return nil, errf.Errorf("auth: parsing the private key: %w", err)
	}
	switch k := key.(type) {
	case *ecdsa.PrivateKey:
		return newECSigner(k)
	case *rsa.PrivateKey:
		if k.N.BitLen() < 2048 {
			return nil, errors.New("auth: RSA keys must have at least 2048 bits")
		}
		return &rsaSigner{key: k}, nil
	}
	return nil, errors.New("auth: unsupported private key type (want an ECDSA P-256 or RSA key)")
}

// GenerateSigner returns a Signer with a new ES256 (P-256) key: a DPoP key
// for Options.DPoP. The Signer is safe for concurrent use.
func GenerateSigner() (Signer, error) {
	k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, err
	}
	return newECSigner(k)
}

type ecSigner struct {
	key  *ecdsa.PrivateKey
	alg  string
	size int
	hash crypto.Hash
	jwk  map[string]string
}

func newECSigner(k *ecdsa.PrivateKey) (*ecSigner, error) {
	s := &ecSigner{key: k}
	switch k.Curve {
	case elliptic.P256():
		s.alg, s.size, s.hash = "ES256", 32, crypto.SHA256
	case elliptic.P384():
		s.alg, s.size, s.hash = "ES384", 48, crypto.SHA384
	default:
		return nil, errors.New("auth: unsupported elliptic curve (P-256 and P-384 are)")
	}
	pub, err := k.PublicKey.Bytes() // 0x04 || X || Y
	if err != nil {
		return nil, err
	}
	s.jwk = map[string]string{
		"kty": "EC",
		"crv": k.Curve.Params().Name,
		"x":   b64.RawURLString(pub[1 : 1+s.size]),
		"y":   b64.RawURLString(pub[1+s.size:]),
	}
	return s, nil
}

func (s *ecSigner) Algorithm() string { return s.alg }

func (s *ecSigner) PublicJWK() map[string]string {
	out := make(map[string]string, len(s.jwk))
	for k, v := range s.jwk {
		out[k] = v
	}
	return out
}

func (s *ecSigner) Sign(_ context.Context, input []byte) ([]byte, error) {
	var digest []byte
	if s.hash == crypto.SHA256 {
		d := sha256.Sum256(input)
		digest = d[:]
	} else {
		d := sha512.Sum384(input)
		digest = d[:]
	}
	r, ss, err := ecdsa.Sign(rand.Reader, s.key, digest)
	if err != nil {
		return nil, err
	}
	out := make([]byte, 2*s.size)
	r.FillBytes(out[:s.size])
	ss.FillBytes(out[s.size:])
	return out, nil
}

type rsaSigner struct{ key *rsa.PrivateKey }

func (s *rsaSigner) Algorithm() string { return "RS256" }

func (s *rsaSigner) PublicJWK() map[string]string {
	return map[string]string{
		"kty": "RSA",
		"n":   b64.RawURLString(s.key.N.Bytes()),
		"e":   b64.RawURLString(big.NewInt(int64(s.key.E)).Bytes()),
	}
}

func (s *rsaSigner) Sign(_ context.Context, input []byte) ([]byte, error) {
	d := sha256.Sum256(input)
	return rsa.SignPKCS1v15(rand.Reader, s.key, crypto.SHA256, d[:])
}
