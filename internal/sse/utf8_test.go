package sse

import (
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// specUTF8Decode is a literal transcription of the WHATWG Encoding
// standard's UTF-8 decoder (with error mode "replacement"), used as an
// independent reference for appendValidUTF8.
func specUTF8Decode(in []byte) []byte {
	var (
		out          = []byte{}
		cp           rune
		needed, seen int
		lower, upper = byte(0x80), byte(0xBF)
	)
	for i := 0; ; {
		if i == len(in) {
			if needed != 0 {
				out = append(out, "\uFFFD"...)
			}
			return out
		}
		b := in[i]
		i++
		if needed == 0 {
			switch {
			case b <= 0x7F:
				out = append(out, b)
			case b >= 0xC2 && b <= 0xDF:
				needed, cp = 1, rune(b&0x1F)
			case b >= 0xE0 && b <= 0xEF:
				if b == 0xE0 {
					lower = 0xA0
				}
				if b == 0xED {
					upper = 0x9F
				}
				needed, cp = 2, rune(b&0xF)
			case b >= 0xF0 && b <= 0xF4:
				if b == 0xF0 {
					lower = 0x90
				}
				if b == 0xF4 {
					upper = 0x8F
				}
				needed, cp = 3, rune(b&0x7)
			default:
				out = append(out, "\uFFFD"...)
			}
			continue
		}
		if b < lower || b > upper {
			cp, needed, seen = 0, 0, 0
			lower, upper = 0x80, 0xBF
			i-- // prepend b to the stream
			out = append(out, "\uFFFD"...)
			continue
		}
		lower, upper = 0x80, 0xBF
		cp = cp<<6 | rune(b&0x3F)
		seen++
		if seen == needed {
			out = utf8.AppendRune(out, cp)
			cp, needed, seen = 0, 0, 0
		}
	}
}

func TestAppendValidUTF8(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"empty", "", ""},
		{"ASCII", "hello", "hello"},
		{"valid multibyte", "é世😀", "é世😀"},
		{"lone continuation", "\x80", "\uFFFD"},
		{"invalid lead bytes", "\xC0\xC1\xF5\xFF", "\uFFFD\uFFFD\uFFFD\uFFFD"},
		{"truncated 3-byte then ASCII", "\xE2\x82A", "\uFFFDA"},
		{"truncated 4-byte at end", "\xF0\x9F\x98", "\uFFFD"},
		{"truncated 2-byte at end", "a\xC3", "a\uFFFD"},
		{"overlong 2-byte", "\xC0\xAF", "\uFFFD\uFFFD"},
		{"overlong 3-byte", "\xE0\x80\xAF", "\uFFFD\uFFFD\uFFFD"},
		{"overlong 4-byte", "\xF0\x80\x80\xAF", "\uFFFD\uFFFD\uFFFD\uFFFD"},
		{"surrogate", "\xED\xA0\x80", "\uFFFD\uFFFD\uFFFD"},
		{"above U+10FFFF", "\xF4\x90\x80\x80", "\uFFFD\uFFFD\uFFFD\uFFFD"},
		{"max code point", "\xF4\x8F\xBF\xBF", "\U0010FFFF"},
		{"truncated then lead", "\xE2\x82\xE2\x82\xAC", "\uFFFD€"},
		{"replacement char itself", "\uFFFD", "\uFFFD"},
		// Unicode's "U+FFFD substitution of maximal subparts" example.
		{"unicode table 3-11", "\x61\xF1\x80\x80\xE1\x80\xC2\x62\x80\x63\x80\xBF\x64", "a\uFFFD\uFFFD\uFFFDb\uFFFDc\uFFFD\uFFFDd"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := appendValidUTF8(nil, []byte(tc.in))
			assert.Equal(t, tc.want, string(got))
			assert.Equal(t, tc.want, string(specUTF8Decode([]byte(tc.in))), "reference decoder")
		})
	}
	t.Run("appends to dst", func(t *testing.T) {
		assert.Equal(t, "pre\uFFFD", string(appendValidUTF8([]byte("pre"), []byte{0xFF})))
	})
}

func FuzzAppendValidUTF8(f *testing.F) {
	for _, s := range []string{"", "a", "\xE2\x82A", "\xF0\x9F\x98\x80", "\xED\xA0\x80", "\x61\xF1\x80\x80\xE1\x80\xC2\x62\x80\x63\x80\xBF\x64"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		got := appendValidUTF8([]byte{}, in)
		require.Equal(t, specUTF8Decode(in), got)
		require.True(t, utf8.Valid(got))
		if utf8.Valid(in) {
			require.Equal(t, in, got)
		}
	})
}
