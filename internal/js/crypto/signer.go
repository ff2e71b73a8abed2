//go:build js

// ParseSigner and GenerateSigner on the runtime's WebCrypto
// (crypto.subtle), so that the wasm module links neither crypto/ecdsa nor
// crypto/rsa. The PEM is decoded here and, when it is SEC 1 or PKCS #1,
// wrapped into PKCS #8 (the only private key format crypto.subtle.importKey
// reads) with a few lines of DER.

package jscrypto

import (
	"context"
	"errors"
	"syscall/js"

	"github.com/mcpwasm/mcpwasm/auth"
	"github.com/mcpwasm/mcpwasm/internal/b64"
	"github.com/mcpwasm/mcpwasm/internal/errf"
	"github.com/mcpwasm/mcpwasm/internal/js/bridge"
)

// b64 is the base64url encoding of JWK members.

// errNoWebCrypto means the JavaScript runtime has no crypto.subtle (a page
// that is not a secure context: neither https nor localhost).
var errNoWebCrypto = errors.New("auth: WebCrypto (crypto.subtle) is not available; pages need a secure context (https or localhost)")

// ParseSigner returns a Signer for a PEM-encoded private key: PKCS #8
// ("PRIVATE KEY"), SEC 1 ("EC PRIVATE KEY") or PKCS #1 ("RSA PRIVATE
// KEY"). P-256 keys sign with ES256, P-384 keys with ES384, RSA keys (2048
// bits or more) with RS256. Under GOOS=js the key lives in WebCrypto
// (imported non-extractable) and ParseSigner waits for crypto.subtle's
// Promises: call it from a goroutine, never inside a js.FuncOf callback.
// The Signer is safe for concurrent use.
func ParseSigner(pemData []byte) (auth.Signer, error) {
	typ, blockBytes, ok := pemDecode(pemData)
	if !ok {
		return nil, errors.New("auth: no PEM block in the private key")
	}
	var (
		pkcs8 []byte
		kind  keyKind
		err   error
	)
	switch typ {
	case "PRIVATE KEY":
		pkcs8 = blockBytes
		kind, err = pkcs8Kind(blockBytes)
	case "EC PRIVATE KEY":
		var curve []byte
		if curve, err = sec1Curve(blockBytes); err == nil {
			kind = curveKind(curve)
			pkcs8 = derSeq([]byte(derInt0), derSeq(derOID([]byte(oidECPublicKey)), derOID(curve)), der(tagOctetString, blockBytes))
		}
	case "RSA PRIVATE KEY":
		kind = kindRSA
		pkcs8 = derSeq([]byte(derInt0), derSeq(derOID([]byte(oidRSAEncryption)), []byte(derNull)), der(tagOctetString, blockBytes))
	default:
		return nil, errf.Errorf("auth: unsupported PEM block %q", typ)
	}
	if err != nil {
		return nil, errf.Errorf("auth: parsing the private key: %w", err)
	}
	if kind == kindNone {
		return nil, errors.New("auth: unsupported private key (P-256, P-384 and RSA keys are)")
	}
	return importSigner(context.Background(), pkcs8, kind)
}

// GenerateSigner returns a Signer with a new ES256 (P-256) key: a DPoP key
// for auth.Options.DPoP. Under GOOS=js the key is made by WebCrypto and cannot
// be extracted; GenerateSigner waits for crypto.subtle's Promises: call it
// from a goroutine, never inside a js.FuncOf callback. The Signer is safe
// for concurrent use.
func GenerateSigner() (s auth.Signer, err error) {
	defer jsbridge.Recover(&err)
	ctx := context.Background()
	subtle, err := subtleCrypto()
	if err != nil {
		return nil, err
	}
	pair, err := jsbridge.Await(ctx, subtle.Call("generateKey", kindES256.importParams(), false, js.ValueOf([]any{"sign"})))
	if err != nil {
		return nil, errf.Errorf("auth: generating a key: %w", err)
	}
	jwk, err := exportJWK(ctx, subtle, pair.Get("publicKey"))
	if err != nil {
		return nil, err
	}
	return &webCryptoSigner{key: pair.Get("privateKey"), kind: kindES256, jwk: publicMembers(jwk, kindES256)}, nil
}

// keyKind is what a key signs with.
type keyKind int

const (
	kindNone keyKind = iota
	kindES256
	kindES384
	kindRSA
)

func (k keyKind) alg() string {
	return [...]string{"", "ES256", "ES384", "RS256"}[k]
}

// The WebCrypto algorithms of each kind, as JSON: importKey's and
// generateKey's, then sign's.
var algorithms = [...][2]string{
	kindES256: {`{"name":"ECDSA","namedCurve":"P-256"}`, `{"name":"ECDSA","hash":"SHA-256"}`},
	kindES384: {`{"name":"ECDSA","namedCurve":"P-384"}`, `{"name":"ECDSA","hash":"SHA-384"}`},
	kindRSA:   {`{"name":"RSASSA-PKCS1-v1_5","hash":"SHA-256"}`, `{"name":"RSASSA-PKCS1-v1_5"}`},
}

// importParams is the WebCrypto algorithm of importKey and generateKey.
func (k keyKind) importParams() js.Value { return k.algorithm(0) }

// signParams is the WebCrypto algorithm of sign.
func (k keyKind) signParams() js.Value { return k.algorithm(1) }

func (k keyKind) algorithm(i int) js.Value {
	if k == kindNone {
		k = kindRSA
	}
	return js.Global().Get("JSON").Call("parse", algorithms[k][i])
}

func subtleCrypto() (js.Value, error) {
	c := js.Global().Get("crypto")
	if c.Type() != js.TypeObject {
		return js.Value{}, errNoWebCrypto
	}
	s := c.Get("subtle")
	if s.Type() != js.TypeObject {
		return js.Value{}, errNoWebCrypto
	}
	return s, nil
}

// importSigner imports a PKCS #8 key twice: extractable, to read its
// public members, and non-extractable, to sign with.
func importSigner(ctx context.Context, pkcs8 []byte, kind keyKind) (s auth.Signer, err error) {
	defer jsbridge.Recover(&err)
	subtle, err := subtleCrypto()
	if err != nil {
		return nil, err
	}
	usages := js.ValueOf([]any{"sign"})
	readable, err := jsbridge.Await(ctx, subtle.Call("importKey", "pkcs8", jsbridge.BytesToJS(pkcs8), kind.importParams(), true, usages))
	if err != nil {
		return nil, errf.Errorf("auth: importing the private key: %w", err)
	}
	jwk, err := exportJWK(ctx, subtle, readable)
	if err != nil {
		return nil, err
	}
	pub := publicMembers(jwk, kind)
	if kind == kindRSA {
		n, err := b64.DecodeRawURL(pub["n"])
		if err != nil || len(n) == 0 {
			return nil, errors.New("auth: the RSA key has no readable modulus")
		}
		for len(n) > 0 && n[0] == 0 {
			n = n[1:]
		}
		if bits := 8*len(n) - leadingZeros(n[0]); bits < 2048 {
			return nil, errors.New("auth: RSA keys must have at least 2048 bits")
		}
	}
	key, err := jsbridge.Await(ctx, subtle.Call("importKey", "pkcs8", jsbridge.BytesToJS(pkcs8), kind.importParams(), false, usages))
	if err != nil {
		return nil, errf.Errorf("auth: importing the private key: %w", err)
	}
	return &webCryptoSigner{key: key, kind: kind, jwk: pub}, nil
}

func leadingZeros(b byte) int {
	n := 0
	for mask := byte(0x80); mask != 0 && b&mask == 0; mask >>= 1 {
		n++
	}
	return n
}

// exportJWK exports a key as a JWK and returns its string members.
func exportJWK(ctx context.Context, subtle, key js.Value) (map[string]string, error) {
	v, err := jsbridge.Await(ctx, subtle.Call("exportKey", "jwk", key))
	if err != nil {
		return nil, errf.Errorf("auth: exporting the public key: %w", err)
	}
	out := map[string]string{}
	for _, m := range []string{"kty", "crv", "x", "y", "n", "e"} {
		if f := v.Get(m); f.Type() == js.TypeString {
			out[m] = f.String()
		}
	}
	return out, nil
}

// publicMembers keeps the public members of a JWK.
func publicMembers(jwk map[string]string, kind keyKind) map[string]string {
	names := []string{"kty", "crv", "x", "y"}
	if kind == kindRSA {
		names = []string{"kty", "n", "e"}
	}
	out := make(map[string]string, len(names))
	for _, n := range names {
		out[n] = jwk[n]
	}
	return out
}

// webCryptoSigner signs with a non-extractable WebCrypto private key.
type webCryptoSigner struct {
	key  js.Value // CryptoKey
	kind keyKind
	jwk  map[string]string
}

func (s *webCryptoSigner) Algorithm() string { return s.kind.alg() }

func (s *webCryptoSigner) PublicJWK() map[string]string {
	out := make(map[string]string, len(s.jwk))
	for k, v := range s.jwk {
		out[k] = v
	}
	return out
}

// Sign signs with crypto.subtle.sign, whose ECDSA signatures are already
// the fixed-width R||S form JWS uses.
func (s *webCryptoSigner) Sign(ctx context.Context, input []byte) (sig []byte, err error) {
	defer jsbridge.Recover(&err)
	subtle, err := subtleCrypto()
	if err != nil {
		return nil, err
	}
	v, err := jsbridge.Await(ctx, subtle.Call("sign", s.kind.signParams(), s.key, jsbridge.BytesToJS(input)))
	if err != nil {
		return nil, errf.Errorf("auth: WebCrypto sign: %w", err)
	}
	return jsbridge.BytesFromJS(v), nil
}

// ---------------------------------------------------------------- DER

// DER tags and the encodings of the object identifiers used here.
const (
	tagInteger     = 0x02
	tagOctetString = 0x04
	tagNull        = 0x05
	tagOID         = 0x06
	tagSequence    = 0x30
	tagContext0    = 0xa0
)

const (
	oidRSAEncryption = "\x2a\x86\x48\x86\xf7\x0d\x01\x01\x01" // 1.2.840.113549.1.1.1
	oidECPublicKey   = "\x2a\x86\x48\xce\x3d\x02\x01"         // 1.2.840.10045.2.1
	oidP256          = "\x2a\x86\x48\xce\x3d\x03\x01\x07"     // 1.2.840.10045.3.1.7
	oidP384          = "\x2b\x81\x04\x00\x22"                 // 1.3.132.0.34

	derInt0 = "\x02\x01\x00" // INTEGER 0
	derNull = "\x05\x00"     // NULL
)

// curveKind is the signing kind of a named curve's OID.
func curveKind(oid []byte) keyKind {
	switch string(oid) {
	case oidP256:
		return kindES256
	case oidP384:
		return kindES384
	}
	return kindNone
}

var errDER = errors.New("auth: malformed DER")

// der encodes one element.
func der(tag byte, content []byte) []byte {
	n := len(content)
	out := []byte{tag}
	switch {
	case n < 0x80:
		out = append(out, byte(n))
	case n < 0x100:
		out = append(out, 0x81, byte(n))
	case n < 0x10000:
		out = append(out, 0x82, byte(n>>8), byte(n))
	default:
		out = append(out, 0x83, byte(n>>16), byte(n>>8), byte(n))
	}
	return append(out, content...)
}

func derSeq(parts ...[]byte) []byte {
	var c []byte
	for _, p := range parts {
		c = append(c, p...)
	}
	return der(tagSequence, c)
}

func derOID(oid []byte) []byte { return der(tagOID, oid) }

// derNext reads one element of b.
func derNext(b []byte) (tag byte, content, rest []byte, err error) {
	if len(b) < 2 {
		return 0, nil, nil, errDER
	}
	tag, n, i := b[0], int(b[1]), 2
	if n >= 0x80 {
		k := n & 0x7f
		if k == 0 || k > 3 || len(b) < 2+k {
			return 0, nil, nil, errDER
		}
		n = 0
		for _, c := range b[2 : 2+k] {
			n = n<<8 | int(c)
		}
		i += k
	}
	if len(b)-i < n {
		return 0, nil, nil, errDER
	}
	return tag, b[i : i+n], b[i+n:], nil
}

// derExpect reads one element with the given tag.
func derExpect(b []byte, want byte) (content, rest []byte, err error) {
	tag, content, rest, err := derNext(b)
	if err != nil {
		return nil, nil, err
	}
	if tag != want {
		return nil, nil, errf.Errorf("%w: tag 0x%02x, expected 0x%02x", errDER, tag, want)
	}
	return content, rest, nil
}

// pkcs8Kind reads the algorithm of a PKCS #8 PrivateKeyInfo.
func pkcs8Kind(b []byte) (keyKind, error) {
	info, _, err := derExpect(b, tagSequence)
	if err != nil {
		return kindNone, err
	}
	_, rest, err := derExpect(info, tagInteger) // version
	if err != nil {
		return kindNone, err
	}
	algID, rest, err := derExpect(rest, tagSequence)
	if err != nil {
		return kindNone, err
	}
	oid, params, err := derExpect(algID, tagOID)
	if err != nil {
		return kindNone, err
	}
	switch string(oid) {
	case oidRSAEncryption:
		return kindRSA, nil
	case oidECPublicKey:
		if curve, _, err := derExpect(params, tagOID); err == nil {
			return curveKind(curve), nil
		}
		// No named curve in the algorithm: the ECPrivateKey may name it.
		inner, _, err := derExpect(rest, tagOctetString)
		if err != nil {
			return kindNone, err
		}
		curve, err := sec1Curve(inner)
		if err != nil {
			return kindNone, err
		}
		return curveKind(curve), nil
	}
	return kindNone, nil
}

// sec1Curve returns the named curve of a SEC 1 ECPrivateKey: its
// parameters, else the one its private key's length implies.
func sec1Curve(b []byte) ([]byte, error) {
	key, _, err := derExpect(b, tagSequence)
	if err != nil {
		return nil, err
	}
	_, rest, err := derExpect(key, tagInteger) // version
	if err != nil {
		return nil, err
	}
	priv, rest, err := derExpect(rest, tagOctetString)
	if err != nil {
		return nil, err
	}
	if params, _, err := derExpect(rest, tagContext0); err == nil {
		if oid, _, err := derExpect(params, tagOID); err == nil {
			return oid, nil
		}
	}
	switch len(priv) {
	case 32:
		return []byte(oidP256), nil
	case 48:
		return []byte(oidP384), nil
	}
	return nil, errors.New("unsupported elliptic curve (P-256 and P-384 are)")
}
