package jsonschema

import (
	"bytes"
	"encoding/json"
	"io"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpwasm/mcpwasm/internal/jsonscan"
	"github.com/mcpwasm/mcpwasm/internal/rawjson"
)

// jsonDecode is how decodeJSON decoded before it used jsonscan.
func jsonDecode(raw []byte) (any, error) {
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil, err
	}
	if _, err := d.Token(); err != io.EOF {
		return nil, errTrailing
	}
	return v, nil
}

// TestDecodeJSONParity: schemas and instances decode as json.Decoder with
// UseNumber decoded them (numbers exact), and bad ones fail with its text.
func TestDecodeJSONParity(t *testing.T) {
	for _, in := range []string{
		`{"type":"object","properties":{"n":{"type":"number","maximum":9007199254740993}},"enum":[1.0,2e3,-0]}`,
		`true`, ` [1, "x", null, {"a": [] }] `, `1e400`, `""`, ``, `  `, `{`, `{"a":tru}`, `[1,]`, `{} x`, `{}{}`, `5 5`, `"abc`, `-`, `[1.]`, `nope`,
	} {
		want, werr := jsonDecode([]byte(in))
		got, gerr := decodeJSON([]byte(in))
		if werr != nil {
			if assert.Error(t, gerr, in) {
				assert.Equal(t, werr.Error(), gerr.Error(), in)
			}
			continue
		}
		require.NoError(t, gerr, in)
		assert.Equal(t, toScan(want), got, in)
	}
}

// toScan turns json.Number into jsonscan.Number throughout v.
func toScan(v any) any {
	switch x := v.(type) {
	case rawjson.Number:
		return jsonscan.Number(x)
	case []any:
		for i := range x {
			x[i] = toScan(x[i])
		}
	case map[string]any:
		for k := range x {
			x[k] = toScan(x[k])
		}
	}
	return v
}
