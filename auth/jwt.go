package auth

import (
	"context"
	"errors"
	"time"

	"github.com/mcpwasm/mcpwasm/internal/b64"
	"github.com/mcpwasm/mcpwasm/internal/jsonscan"
	"github.com/mcpwasm/mcpwasm/internal/order"
	"github.com/mcpwasm/mcpwasm/internal/urlx"
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

// signJWT builds a compact JWS of the encoded header and claims.
func signJWT(ctx context.Context, s Signer, header, claims []byte) (string, error) {
	input := b64.RawURLString(header) + "." + b64.RawURLString(claims)
	sig, err := s.Sign(ctx, []byte(input))
	if err != nil {
		return "", wrapErr("auth: signing a JWT", err)
	}
	return input + "." + b64.RawURLString(sig), nil
}

// The JWTs' JSON is written member by member in the order of their names
// (the bytes encoding/json wrote for the maps they were built from before;
// jsondoc_test.go compares them).

// jwtHeader is the JOSE header of a JWT of type typ signed by s, with s's
// public key when withKey (a DPoP proof).
func jwtHeader(s Signer, typ string, withKey bool) []byte {
	w := jsonscan.NewObjectWriter(nil)
	w.String("alg", s.Algorithm())
	if withKey {
		w.Raw("jwk", jwkJSON(s.PublicJWK()))
	}
	w.String("typ", typ)
	return w.Bytes()
}

// jwkJSON encodes a JSON Web Key, members sorted.
func jwkJSON(jwk map[string]string) []byte {
	keys := make([]string, 0, len(jwk))
	for k := range jwk {
		keys = append(keys, k)
	}
	order.Strings(keys)
	w := jsonscan.NewObjectWriter(nil)
	for _, k := range keys {
		w.String(k, jwk[k])
	}
	return w.Bytes()
}

// dpopClaims are a DPoP proof's claims; ath and nonce are optional.
func dpopClaims(ath, htm, htu string, iat int64, jti, nonce string) []byte {
	w := jsonscan.NewObjectWriter(nil)
	w.StringOmit("ath", ath)
	w.String("htm", htm)
	w.String("htu", htu)
	w.Int("iat", iat)
	w.String("jti", jti)
	w.StringOmit("nonce", nonce)
	return w.Bytes()
}

// assertionClaims are a private_key_jwt client assertion's claims.
func assertionClaims(aud string, exp, iat int64, clientID, jti string) []byte {
	w := jsonscan.NewObjectWriter(nil)
	w.String("aud", aud)
	w.Int("exp", exp)
	w.Int("iat", iat)
	w.String("iss", clientID)
	w.String("jti", jti)
	w.String("sub", clientID)
	return w.Bytes()
}

// randomString returns n random bytes from Options.Random,
// base64url-encoded.
func (c *config) randomString(n int) (string, error) {
	b := make([]byte, n)
	for i := 0; i < n; {
		k, err := c.Random.Read(b[i:])
		if err != nil {
			return "", wrapErr("auth: random source", err)
		}
		if k == 0 {
			return "", errors.New("auth: random source: no bytes")
		}
		i += k
	}
	return b64.RawURLString(b), nil
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
	return c.s256(string(append(buf, '}')))
}

// dpopProof builds a DPoP proof (RFC 9449 §4) for a request; accessToken
// and nonce are optional.
func (c *config) dpopProof(ctx context.Context, s Signer, method, target, accessToken, nonce string, now time.Time) (string, error) {
	u, err := urlx.Parse(target)
	if err != nil {
		return "", err
	}
	u.RawQuery, u.Fragment, u.RawFragment, u.ForceQuery = "", "", "", false
	jti, err := c.randomString(16)
	if err != nil {
		return "", err
	}
	ath := ""
	if accessToken != "" {
		ath = c.s256(accessToken)
	}
	return signJWT(ctx, s, jwtHeader(s, "dpop+jwt", true), dpopClaims(ath, method, u.String(), now.Unix(), jti, nonce))
}

// clientAssertion builds a private_key_jwt client assertion (RFC 7523
// §2.2): issued by and about the client, for the authorization server.
func (c *config) clientAssertion(ctx context.Context, s Signer, clientID, audience string, now time.Time) (string, error) {
	jti, err := c.randomString(16)
	if err != nil {
		return "", err
	}
	return signJWT(ctx, s, jwtHeader(s, "JWT", false), assertionClaims(audience, now.Add(5*time.Minute).Unix(), now.Unix(), clientID, jti))
}
