package jscrypto

import (
	"bytes"
	"encoding/pem"
	"testing"
)

var pemSeeds = []string{
	"",
	"-----BEGIN PRIVATE KEY-----\nAAEC\n-----END PRIVATE KEY-----\n",
	"-----BEGIN PRIVATE KEY-----\r\nAAEC\r\n-----END PRIVATE KEY-----",
	"junk\n-----BEGIN EC PRIVATE KEY-----\n AA EC \t\n-----END EC PRIVATE KEY-----  \nmore",
	"-----BEGIN RSA PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\nDEK-Info: AES-128-CBC,00\n\nAAEC\n-----END RSA PRIVATE KEY-----\n",
	"-----BEGIN X-----\n-----END X-----\n",
	"-----BEGIN X-----\n-----END Y-----\n-----BEGIN Z-----\nAAEC\n-----END Z-----\n",
	"-----BEGIN X-----\n!!!\n-----END X-----\n-----BEGIN Z-----\nAAEC\n-----END Z-----\n",
	"-----BEGIN X-----\nAAEC\n-----END X----- trailing\n",
	"-----BEGIN X----\nAAEC\n-----END X-----\n",
	"-----BEGIN X-----\nkey: value",
	"-----BEGIN X-----",
	"-----BEGIN X-----\nAAE=\n-----END X-----",
	"-----BEGIN X-----\nAAE\n-----END X-----",
}

func checkPEM(t *testing.T, in []byte) {
	typ, der, ok := pemDecode(in)
	b, _ := pem.Decode(in)
	if ok != (b != nil) {
		t.Fatalf("%q: ok %v, encoding/pem found a block: %v", in, ok, b != nil)
	}
	if b != nil && (typ != b.Type || !bytes.Equal(der, b.Bytes)) {
		t.Fatalf("%q: got %q %x, encoding/pem %q %x", in, typ, der, b.Type, b.Bytes)
	}
}

func TestPEMDecodeMatchesEncodingPEM(t *testing.T) {
	for _, s := range pemSeeds {
		checkPEM(t, []byte(s))
	}
}

func FuzzPEMDecode(f *testing.F) {
	for _, s := range pemSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) { checkPEM(t, in) })
}
