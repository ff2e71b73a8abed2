package jsonscan

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// from a json.Decoder (one value).
func TestStdError(t *testing.T) {
	for _, in := range []string{
		`nope`, `tru`, `{"a":fals}`, "\"\\u12", "[\"a\\", `"\x"`, "[\"a\tb\"]", `{"a\u00g0":1}`, `[nul`, `{"a":1`, `{"a" 1}`, `[1,]`, `"abc`, `{"a":1}}`, `01`, `-`, `[1e]`, `{"a":tx}`, `-x`, `1.`, `1.e5`, `[1e+]`, `-01`, `1ex`, `{"a":-}`, `[2.5e-]`, `0.1.2`, `{"a":[{}]}` + strings.Repeat("]", 3), strings.Repeat("{\"a\":", 10001), strings.Repeat("[", 10001),
	} {
		t.Run(in[:min(len(in), 20)], func(t *testing.T) {
			_, err := Decode([]byte(in))
			require.Error(t, err)
			var v any
			want := json.Unmarshal([]byte(in), &v)
			assert.Equal(t, want.Error(), StdError([]byte(in), err, false).Error(), "Unmarshal")
			if want := json.NewDecoder(strings.NewReader(in)).Decode(&v); want != nil && !strings.Contains(in, "}}") {
				assert.Equal(t, want.Error(), StdError([]byte(in), err, true).Error(), "Decoder")
			}
		})
	}
}

// FuzzStdError compares StdError's text with json.Unmarshal's on invalid
// JSON.
func FuzzStdError(f *testing.F) {
	for _, s := range []string{`{"a":[1,2.5e-3,tru]}`, `-`, `[nul`, `{"a"`, `"a"`, "\"\\u12\"", "[\"a\nb\"]", `{"a\q":1}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		var v any
		want := json.Unmarshal([]byte(in), &v)
		var se *json.SyntaxError
		if !errors.As(want, &se) {
			return // valid, or a number out of range
		}
		_, err := Decode([]byte(in))
		require.Error(t, err)
		if e, ok := err.(*Error); !ok || strings.HasSuffix(e.Msg, " out of range") {
			return // a number out of range found before the syntax error
		}
		assert.Equal(t, want.Error(), StdError([]byte(in), err, false).Error())
	})
}
