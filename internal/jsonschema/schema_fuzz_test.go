package jsonschema

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/require"
)

// FuzzCompileValidate: a tool's outputSchema and a structuredContent from
// the server. Compiling and validating never panic (nor run away: the
// evaluation bounds and the linear pattern engine hold); an error from
// Compile wraps ErrInvalidSchema; validation is deterministic and reports
// nil or a *ValidationError with 1 to 20 causes.
func FuzzCompileValidate(f *testing.F) {
	for _, s := range [][2]string{
		{`{"type":"object","properties":{"a":{"type":"integer","minimum":0}},"required":["a"]}`, `{"a":-1}`},
		{`{"$defs":{"n":{"anyOf":[{"type":"null"},{"$ref":"#/$defs/n"}]}},"$ref":"#/$defs/n"}`, `null`},
		{`{"patternProperties":{"^(a+)+$":{"const":1}},"additionalProperties":false}`, `{"aaaaaaaaaaaaaaaaaaaaaaaa!":1}`},
		{`{"items":{"multipleOf":0.0001},"uniqueItems":true}`, `[0.0075,7.5e-3]`},
		{`{"$dynamicAnchor":"x","unevaluatedProperties":{"$dynamicRef":"#x"}}`, `{"k":{"k":{}}}`},
		{`{"$schema":"http://json-schema.org/draft-04/schema#","exclusiveMinimum":true,"minimum":1}`, `1`},
		{`true`, `"x"`}, {`{"pattern":"\\p{L}+","maxLength":2}`, `"éé"`},
	} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, schema, instance string) {
		s, err := Compile([]byte(schema))
		if err != nil {
			require.ErrorIs(t, err, ErrInvalidSchema)
			return
		}
		err1 := s.ValidateJSON([]byte(instance))
		err2 := s.ValidateJSON([]byte(instance))
		require.Equal(t, err1 == nil, err2 == nil, "validation is deterministic")
		var ve *ValidationError
		if err1 != nil && errors.As(err1, &ve) {
			require.NotEmpty(t, ve.Causes)
			require.LessOrEqual(t, len(ve.Causes), 20)
			require.Equal(t, err1.Error(), err2.Error())
		}
	})
}
