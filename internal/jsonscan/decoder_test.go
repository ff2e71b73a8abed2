package jsonscan

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpwasm/mcpwasm/internal/rawjson"
)

// prims is a struct of every kind Decoder's primitives fill.
type prims struct {
	S  string             `json:"s"`
	B  bool               `json:"b"`
	I  int                `json:"i"`
	I6 int64              `json:"i6"`
	F  float64            `json:"f"`
	SS []string           `json:"ss"`
	A  any                `json:"a"`
	M  map[string]any     `json:"m"`
	R  rawjson.RawMessage `json:"r"`
	P  *int64             `json:"p"`
}

// decodePrims decodes data into p with Decoder's primitives, as core's
// and the bridge's decoders do.
func decodePrims(data []byte, p *prims) error {
	if err := CheckDocument(data); err != nil {
		return err
	}
	d := &Decoder{}
	val := TrimSpace(data)
	ms, ok, err := d.Object(val, "jsonscan.prims")
	if err != nil || !ok {
		if err == nil {
			err = d.Err
		}
		return err
	}
	names := []string{"s", "b", "i", "i6", "f", "ss", "a", "m", "r", "p"}
	for _, m := range ms {
		for k, n := range names {
			if !strings.EqualFold(m.Key, n) {
				continue
			}
			outer, depth := d.Enter("prims", "", n)
			v := TrimSpace(m.Val)
			switch k {
			case 0:
				d.String(v, &p.S)
			case 1:
				d.Bool(v, &p.B)
			case 2:
				d.Int(v, &p.I)
			case 3:
				d.Int64(v, &p.I6)
			case 4:
				d.Float64(v, &p.F)
			case 5:
				d.Strings(v, &p.SS)
			case 6:
				d.Any(v, &p.A)
			case 7:
				d.AnyMap(v, &p.M, "map[string]interface {}")
			case 8:
				d.Raw(v, (*[]byte)(&p.R))
			case 9:
				if x := Ptr(v, &p.P); x != nil {
					d.Int64(v, x)
				}
			}
			d.Leave(outer, depth)
			break
		}
	}
	return d.Err
}

// TestDecoderMatchesEncodingJSON: the shared primitives give
// json.Unmarshal's values and first error, messages included.
func TestDecoderMatchesEncodingJSON(t *testing.T) {
	for _, in := range []string{
		`{"s":"a\u00e9","b":true,"i":-3,"i6":9007199254740993,"f":1.5e3,"ss":["x",null,"y"],"a":{"k":[1,"2",null,true]},"m":{"a":1,"b":{"c":[]}},"r":  {"x" : 1},"p":7}`,
		`{"s":null,"b":null,"i":null,"i6":null,"f":null,"ss":null,"a":null,"m":null,"r":null,"p":null}`,
		`{"s":1,"b":"x"}`, `{"b":"x","s":1}`, `{"i":1.5}`, `{"i6":9223372036854775808}`, `{"f":"1"}`, `{"f":1e999}`,
		`{"ss":"x"}`, `{"ss":[1,"a"]}`, `{"a":1e999}`, `{"a":[1e999]}`, `{"m":[]}`, `{"m":{"a":1e999},"s":2}`,
		`{"p":"x"}`, `{"p":1.5}`, `{"M":{"a":1},"m":{"b":2}}`, `{"SS":["a"],"ss":["b","c"]}`, `[]`, `null`, `"x"`, ``, `  `,
	} {
		var want, got prims
		werr := json.Unmarshal([]byte(in), &want)
		gerr := decodePrims([]byte(in), &got)
		if werr != nil {
			if assert.Error(t, gerr, in) {
				assert.Equal(t, werr.Error(), gerr.Error(), in)
			}
			continue
		}
		require.NoError(t, gerr, in)
		assert.Equal(t, want, got, in)
	}
}

func TestKindName(t *testing.T) {
	for in, want := range map[string]string{`{}`: "object", `[]`: "array", `""`: "string", `true`: "bool", `false`: "bool", `null`: "null", `-1`: "number", ``: "nothing"} {
		assert.Equal(t, want, KindName([]byte(in)), in)
	}
}

func TestAppendCollections(t *testing.T) {
	m := map[string][]string{"b": {"1", "<"}, "a": nil, "c": {}}
	got, err := AppendSortedMap(nil, m, AppendStrings)
	require.NoError(t, err)
	want, _ := json.Marshal(m)
	assert.Equal(t, string(want), string(got))
	got, err = AppendSortedMap[string](nil, nil, appendStringValue)
	require.NoError(t, err)
	assert.Equal(t, "null", string(got))
	_, err = AppendArray(nil, []any{1, make(chan int)}, AppendValue)
	assert.Error(t, err)
}
