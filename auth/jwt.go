package auth

import (
	"github.com/mcpwasm/mcpwasm/internal/errf"

	"context"
	"encoding/base64"
	"errors"
	"github.com/mcpwasm/mcpwasm/internal/jsonscan"
	"github.com/mcpwasm/mcpwasm/internal/urlx"
	"time"
)

// Signer signs JSON Web Tokens: DPoP proofs (Options.DPoP) and
// private_key_jwt client assertions (Client.Signer). Implementations must
// be safe for concurrent use.
//
// Natively ParseSigner and GenerateSigner return signers built on
// crypto/ecdsa and crypto/rsa; under GOOS=js, on WebCrypto (crypto.subtle,
// signer_js.go), so that the wasm module links neither.
type Signer interface {
	// Algorithm is the JWS algorithm ("ES256", "ES384" or "RS256").
	Algorithm() string
	// PublicJWK is the public key as a JSON Web Key (RFC 7517) with only
	// the public members ("kty", "crv", "x", "y" or "kty", "n", "e").
	PublicJWK() map[string]string
	// Sign returns the JWS signature of signingInput (for ECDSA the fixed
	// width R||S form of RFC 7518 §3.4).
	Sign(ctx context.Context, signingInput []byte) ([]byte, error)
}

var b64 = base64.RawURLEncoding

// signJWT builds a compact JWS of claims with header (alg is added).
func signJWT(ctx context.Context, s Signer, header, claims map[string]any) (string, error) {
	header["alg"] = s.Algorithm()
	h, err := jsonscan.Marshal(header)
	if err != nil {
		return "", err
	}
	c, err := jsonscan.Marshal(claims)
	if err != nil {
		return "", err
	}
	input := b64.EncodeToString(h) + "." + b64.EncodeToString(c)
	sig, err := s.Sign(ctx, []byte(input))
	if err != nil {
		return "", errf.Errorf("auth: signing a JWT: %w", err)
	}
	return input + "." + b64.EncodeToString(sig), nil
}

// randomString returns n random bytes from Options.Random,
// base64url-encoded.
func (c *config) randomString(n int) (string, error) {
	b := make([]byte, n)
	for i := 0; i < n; {
		k, err := c.Random.Read(b[i:])
		if err != nil {
			return "", errf.Errorf("auth: random source: %w", err)
		}
		if k == 0 {
			return "", errors.New("auth: random source: no bytes")
		}
		i += k
	}
	return b64.EncodeToString(b), nil
}

// constantTimeEqual compares secrets without leaking where they differ
// (their lengths are not secret).
func constantTimeEqual(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	var v byte
	for i := 0; i < len(a); i++ {
		v |= a[i] ^ b[i]
	}
	return v == 0
}

// thumbprint is the RFC 7638 JWK SHA-256 thumbprint of a public key.
func (c *config) thumbprint(jwk map[string]string) string {
	var members []string
	switch jwk["kty"] {
	case "EC":
		members = []string{"crv", "kty", "x", "y"}
	case "RSA":
		members = []string{"e", "kty", "n"}
	case "OKP":
		members = []string{"crv", "kty", "x"}
	default:
		return ""
	}
	// Lexicographic order, no whitespace: build it by hand.
	buf := []byte{'{'}
	for i, m := range members {
		if i > 0 {
			buf = append(buf, ',')
		}
		buf = jsonscan.AppendString(buf, m)
		buf = append(buf, ':')
		buf = jsonscan.AppendString(buf, jwk[m])
	}
	buf = append(buf, '}')
	sum := c.SHA256(buf)
	return b64.EncodeToString(sum[:])
}

// dpopProof builds a DPoP proof (RFC 9449 §4) for a request; accessToken
// and nonce are optional.
func (c *config) dpopProof(ctx context.Context, s Signer, method, target, accessToken, nonce string, now time.Time) (string, error) {
	u, err := urlx.Parse(target)
	if err != nil {
		return "", err
	}
	u.RawQuery, u.Fragment, u.RawFragment, u.ForceQuery = "", "", "", false
	jwk := map[string]any{}
	for k, v := range s.PublicJWK() {
		jwk[k] = v
	}
	jti, err := c.randomString(16)
	if err != nil {
		return "", err
	}
	claims := map[string]any{
		"jti": jti,
		"htm": method,
		"htu": u.String(),
		"iat": now.Unix(),
	}
	if accessToken != "" {
		sum := c.SHA256([]byte(accessToken))
		claims["ath"] = b64.EncodeToString(sum[:])
	}
	if nonce != "" {
		claims["nonce"] = nonce
	}
	return signJWT(ctx, s, map[string]any{"typ": "dpop+jwt", "jwk": jwk}, claims)
}

// clientAssertion builds a private_key_jwt client assertion (RFC 7523
// §2.2): issued by and about the client, for the authorization server.
func (c *config) clientAssertion(ctx context.Context, s Signer, clientID, audience string, now time.Time) (string, error) {
	jti, err := c.randomString(16)
	if err != nil {
		return "", err
	}
	return signJWT(ctx, s, map[string]any{"typ": "JWT"}, map[string]any{
		"iss": clientID,
		"sub": clientID,
		"aud": audience,
		"iat": now.Unix(),
		"exp": now.Add(5 * time.Minute).Unix(),
		"jti": jti,
	})
}
