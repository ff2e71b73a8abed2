package b64

import (
	"encoding/base64"
	"testing"

	"github.com/stretchr/testify/assert"
)

// check holds Decode to encoding/base64 for one input: the same bytes, or
// an error from both.
func check(t *testing.T, in []byte) {
	t.Helper()
	want, werr := base64.StdEncoding.DecodeString(string(in))
	got, gerr := DecodeStd(in)
	if (werr == nil) != (gerr == nil) || (werr == nil && string(want) != string(got)) {
		t.Fatalf("DecodeStd(%q) = %q, %v; encoding/base64: %q, %v", in, got, gerr, want, werr)
	}
	want, werr = base64.RawURLEncoding.DecodeString(string(in))
	got, gerr = DecodeRawURL(string(in))
	if (werr == nil) != (gerr == nil) || (werr == nil && string(want) != string(got)) {
		t.Fatalf("DecodeRawURL(%q) = %q, %v; encoding/base64: %q, %v", in, got, gerr, want, werr)
	}
}

// TestEncodeAsBase64 checks both encoders against encoding/base64 for every
// length mod 3 and every byte value.
func TestEncodeAsBase64(t *testing.T) {
	var all []byte
	for i := 0; i < 256; i++ {
		all = append(all, byte(i))
	}
	for n := 0; n <= len(all); n++ {
		b := all[:n]
		assert.Equal(t, base64.StdEncoding.EncodeToString(b), StdString(b))
		assert.Equal(t, base64.RawURLEncoding.EncodeToString(b), RawURLString(b))
		check(t, []byte(base64.StdEncoding.EncodeToString(b)))
		check(t, []byte(base64.RawURLEncoding.EncodeToString(b)))
	}
}

// TestDecodeEdges checks the padding, line-break and alphabet cases.
func TestDecodeEdges(t *testing.T) {
	for _, in := range []string{
		"", "=", "==", "A", "AA", "AA=", "AA==", "AA===", "AAA", "AAA=", "AAA==", "AAAA", "AAAA=",
		"AA\n==", "AA=\n=", "AA==\n", "AA==\r\n", "AA==A", "AAA=\nA", "\n", "\r\nAAAA\r\n",
		"AB+/", "AB-_", "AB/=", "QQ==", "QR==", "QUJD", "QUI=", "QUJ=", " AAA", "AA A", "AAAA\x00",
		"ZZZZ=", "Zg", "Zh", "Zm9v", "Zm9vYg", "Zm9vYg=", "Zm9vYg==",
	} {
		t.Run(in, func(t *testing.T) { check(t, []byte(in)) })
	}
}

// FuzzDecode holds Decode to encoding/base64 on arbitrary input.
func FuzzDecode(f *testing.F) {
	for _, s := range []string{"", "QUJD", "QUI=", "QQ==", "AA\n==", "AB-_", "AB+/", "Zm9vYg"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) { check(t, in) })
}
