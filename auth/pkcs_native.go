//go:build !js

package auth

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rsa"
	"errors"
	"math/big"
)

// The private keys ParseSigner reads are decoded here by hand rather than
// with crypto/x509: x509's parsers stand on encoding/asn1, whose
// reflection and formatting were most of what the wasip1 module linked
// beyond the library itself (≈146 KB of gzip; docs/size.md). The DER
// subset is small — definite lengths, INTEGER, OCTET STRING, BIT STRING,
// OBJECT IDENTIFIER, NULL, SEQUENCE and two context tags — and only three
// structures use it: PKCS #8 PrivateKeyInfo (RFC 5208), SEC 1
// ECPrivateKey (RFC 5915) and PKCS #1 RSAPrivateKey (RFC 8017 A.1.2). The
// tests check every key it accepts against x509's reading of the same
// bytes.

var errDER = errors.New("auth: malformed private key (DER)")

// Object identifiers, as their DER content bytes.
var (
	oidRSA       = []byte{0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x01} // 1.2.840.113549.1.1.1
	oidECPublic  = []byte{0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01}             // 1.2.840.10045.2.1
	oidP256      = []byte{0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03, 0x01, 0x07}       // 1.2.840.10045.3.1.7
	oidP384      = []byte{0x2b, 0x81, 0x04, 0x00, 0x22}                         // 1.3.132.0.34
	tagInteger   = byte(0x02)
	tagBitString = byte(0x03)
	tagOctets    = byte(0x04)
	tagNull      = byte(0x05)
	tagOID       = byte(0x06)
	tagSequence  = byte(0x30)
)

// der reads DER elements one after another.
type der []byte

// next reads one element of the given tag and returns its content.
func (d *der) next(tag byte) ([]byte, error) {
	b := *d
	if len(b) < 2 || b[0] != tag {
		return nil, errDER
	}
	n, hdr := int(b[1]), 2
	if n >= 0x80 {
		k := n & 0x7f
		if k == 0 || k > 3 || len(b) < 2+k || b[2] == 0 {
			return nil, errDER // indefinite, too long, or not minimal
		}
		n = 0
		for _, c := range b[2 : 2+k] {
			n = n<<8 | int(c)
		}
		if n < 0x80 {
			return nil, errDER // the short form was due
		}
		hdr += k
	}
	if len(b)-hdr < n {
		return nil, errDER
	}
	*d = b[hdr+n:]
	return b[hdr : hdr+n], nil
}

// peek reports whether the next element has the tag.
func (d der) peek(tag byte) bool { return len(d) > 0 && d[0] == tag }

// integer reads a non-negative INTEGER in its minimal encoding.
func (d *der) integer() (*big.Int, error) {
	c, err := d.next(tagInteger)
	if err != nil || len(c) == 0 || c[0]&0x80 != 0 || (len(c) > 1 && c[0] == 0 && c[1]&0x80 == 0) {
		return nil, errDER
	}
	return new(big.Int).SetBytes(c), nil
}

// small reads an INTEGER that must equal want (a version number).
func (d *der) small(want int64) error {
	n, err := d.integer()
	if err != nil || !n.IsInt64() || n.Int64() != want {
		return errDER
	}
	return nil
}

// parsePKCS8 reads a PrivateKeyInfo holding an RSA or an EC key.
func parsePKCS8(b []byte) (any, error) {
	outer := der(b)
	body, err := outer.next(tagSequence)
	if err != nil || len(outer) != 0 {
		return nil, errDER
	}
	seq := der(body)
	if v, err := seq.integer(); err != nil || v.BitLen() > 1 { // 0: v1, 1: v2 (RFC 5958)
		return nil, errDER
	}
	algBytes, err := seq.next(tagSequence)
	if err != nil {
		return nil, err
	}
	key, err := seq.next(tagOctets)
	if err != nil {
		return nil, err
	}
	// Attributes ([0]) and a public key ([1], version 2) may follow.
	alg := der(algBytes)
	oid, err := alg.next(tagOID)
	if err != nil {
		return nil, err
	}
	switch {
	case string(oid) == string(oidRSA):
		if len(alg) > 0 {
			if p, err := alg.next(tagNull); err != nil || len(p) != 0 || len(alg) != 0 {
				return nil, errDER
			}
		}
		return parsePKCS1(key)
	case string(oid) == string(oidECPublic):
		curveOID, err := alg.next(tagOID)
		if err != nil || len(alg) != 0 {
			return nil, errDER
		}
		curve, err := curveOf(curveOID)
		if err != nil {
			return nil, err
		}
		return parseSEC1(key, curve)
	}
	return nil, errors.New("auth: unsupported private key algorithm (want an ECDSA P-256 or RSA key)")
}

func curveOf(oid []byte) (elliptic.Curve, error) {
	switch string(oid) {
	case string(oidP256):
		return elliptic.P256(), nil
	case string(oidP384):
		return elliptic.P384(), nil
	}
	return nil, errors.New("auth: unsupported elliptic curve (P-256 and P-384 are)")
}

// parseSEC1 reads an ECPrivateKey. curve is the curve named outside it
// (PKCS #8), or nil when the key must name it itself.
func parseSEC1(b []byte, curve elliptic.Curve) (*ecdsa.PrivateKey, error) {
	outer := der(b)
	body, err := outer.next(tagSequence)
	if err != nil || len(outer) != 0 {
		return nil, errDER
	}
	seq := der(body)
	if err := seq.small(1); err != nil {
		return nil, err
	}
	d, err := seq.next(tagOctets)
	if err != nil {
		return nil, err
	}
	if seq.peek(0xa0) { // [0] ECParameters: a named curve
		params, _ := seq.next(0xa0)
		p := der(params)
		oid, err := p.next(tagOID)
		if err != nil || len(p) != 0 {
			return nil, errDER
		}
		named, err := curveOf(oid)
		if err != nil {
			return nil, err
		}
		if curve != nil && named != curve {
			return nil, errDER
		}
		curve = named
	}
	if seq.peek(0xa1) { // [1] the public key (recomputed from d below): a BIT STRING
		pub, err := seq.next(0xa1)
		if err != nil {
			return nil, err
		}
		p := der(pub)
		bits, err := p.next(tagBitString)
		if err != nil || len(p) != 0 || !validBitString(bits) {
			return nil, errDER
		}
	}
	if len(seq) != 0 {
		return nil, errDER
	}
	if curve == nil {
		return nil, errors.New("auth: the EC private key does not name its curve")
	}
	size := (curve.Params().BitSize + 7) / 8
	if len(d) > size {
		return nil, errDER
	}
	padded := make([]byte, size) // some encoders drop leading zeros
	copy(padded[size-len(d):], d)
	k, err := ecdsa.ParseRawPrivateKey(curve, padded)
	if err != nil {
		return nil, errDER
	}
	return k, nil
}

// validBitString checks a BIT STRING's content: the count of unused bits
// (0 to 7, 0 when empty) and those bits zero.
func validBitString(b []byte) bool {
	if len(b) == 0 || b[0] > 7 || (len(b) == 1 && b[0] != 0) {
		return false
	}
	return b[0] == 0 || b[len(b)-1]&(1<<b[0]-1) == 0
}

// parsePKCS1 reads a two-prime RSAPrivateKey and checks it.
func parsePKCS1(b []byte) (*rsa.PrivateKey, error) {
	outer := der(b)
	body, err := outer.next(tagSequence)
	if err != nil || len(outer) != 0 {
		return nil, errDER
	}
	seq := der(body)
	if err := seq.small(0); err != nil {
		return nil, errors.New("auth: unsupported RSA private key (only two-prime keys are)")
	}
	var v [8]*big.Int // n, e, d, p, q, dp, dq, qinv
	for i := range v {
		if v[i], err = seq.integer(); err != nil {
			return nil, err
		}
	}
	if len(seq) != 0 || !v[1].IsInt64() || v[1].Int64() > 1<<31-1 || v[1].Int64() < 3 {
		return nil, errDER
	}
	k := &rsa.PrivateKey{
		PublicKey: rsa.PublicKey{N: v[0], E: int(v[1].Int64())},
		D:         v[2],
		Primes:    []*big.Int{v[3], v[4]},
	}
	if err := k.Validate(); err != nil {
		return nil, errDER
	}
	k.Precompute()
	// The CRT values must be the key's own (x509 refuses others too).
	if pc := k.Precomputed; pc.Dp == nil || pc.Dp.Cmp(v[5]) != 0 || pc.Dq.Cmp(v[6]) != 0 || pc.Qinv.Cmp(v[7]) != 0 {
		return nil, errDER
	}
	return k, nil
}
