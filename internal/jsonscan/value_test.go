package jsonscan

import (
	"bytes"
	"encoding/json"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var valueSeeds = []string{
	`null`, `true`, `false`, `0`, `-1.5e-7`, `1e21`, `123456789012345678901234567890`, `0.000001`, `1e-6`, `3.0`,
	`"plain"`, `"esc \" \\ \/ \b \f \n \r \t \u00e9 \ud83d\ude00 \ud800 x"`, `"<a & b>"`, "\"\u2028\u2029\"", "\"bad \xff utf8\"",
	`{}`, `[]`, `{"a":1,"b":[true,null,{"c":"d"}],"a":2}`, ` [ 1 , 2 ] `, `{"k":"v"}`,
	`{`, `[1,]`, `{"a" 1}`, `"unterminated`, `01`, `1.`, `-`, `tru`, `[1] x`, `{"a":1,}`, "\"ctl \x01\"", ``,
}

// TestDecodeLikeEncodingJSON: Decode accepts what encoding/json accepts
// and yields the same tree; AppendValue writes what json.Marshal writes.
func TestDecodeLikeEncodingJSON(t *testing.T) {
	for _, s := range valueSeeds {
		t.Run(s, func(t *testing.T) { checkAgainstEncodingJSON(t, []byte(s)) })
	}
}

func FuzzDecodeLikeEncodingJSON(f *testing.F) {
	for _, s := range valueSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) { checkAgainstEncodingJSON(t, data) })
}

func checkAgainstEncodingJSON(t *testing.T, data []byte) {
	t.Helper()
	var want any
	wantErr := json.Unmarshal(data, &want)
	got, err := Decode(data)
	if wantErr != nil {
		require.Error(t, err, "encoding/json refused %q: %v", data, wantErr)
		var se *Error
		if !errors.As(err, &se) && !errors.Is(err, ErrDepth) {
			t.Fatalf("error %v is not a *Error", err)
		}
		if !Valid(data) { // out-of-range numbers are valid JSON
			assert.Error(t, SyntaxError(data))
		}
		return
	}
	require.NoError(t, err, "%q", data)
	require.Equal(t, want, got)
	wantOut, wantMErr := json.Marshal(want)
	gotOut, gotMErr := Marshal(got)
	require.Equal(t, wantMErr == nil, gotMErr == nil)
	assert.Equal(t, string(wantOut), string(gotOut))
	if s, ok := want.(string); ok {
		u, err := Unquote(trimSpace(data))
		require.NoError(t, err)
		assert.Equal(t, s, u)
		assert.Equal(t, string(wantOut), string(AppendString(nil, s)))
	}
	var wantNum any
	dec := json.NewDecoder(bytesReader(data))
	dec.UseNumber()
	require.NoError(t, dec.Decode(&wantNum))
	gotNum, err := DecodeWith(data, &DecodeOptions{UseNumber: true})
	require.NoError(t, err)
	wantOut, _ = json.Marshal(wantNum)
	gotOut, err = Marshal(gotNum)
	require.NoError(t, err)
	assert.Equal(t, string(wantOut), string(gotOut))
}

func TestAccessors(t *testing.T) {
	o, err := ParseObject([]byte(`{"s":"x","b":true,"n":42,"f":1.5,"z":null,"a":["p","q"],"o":{"k":1},"s":"last"}`))
	require.NoError(t, err)
	s, err := String(o.Get("s"))
	require.NoError(t, err)
	assert.Equal(t, "last", s)
	b, err := Bool(o.Get("b"))
	require.NoError(t, err)
	assert.True(t, b)
	n, err := Int64(o.Get("n"))
	require.NoError(t, err)
	assert.EqualValues(t, 42, n)
	_, err = Int64(o.Get("f"))
	var te *TypeError
	require.ErrorAs(t, err, &te)
	fl, err := Float64(o.Get("f"))
	require.NoError(t, err)
	assert.Equal(t, 1.5, fl)
	z, err := String(o.Get("z"))
	require.NoError(t, err)
	assert.Empty(t, z)
	assert.True(t, o.Has("z"))
	assert.False(t, o.Has("missing"))
	strs, err := Strings(o.Get("a"))
	require.NoError(t, err)
	assert.Equal(t, []string{"p", "q"}, strs)
	_, err = String(o.Get("n"))
	require.ErrorAs(t, err, &te)
	assert.Equal(t, "JSON: want string, got number", err.Error())
	_, err = ParseObject([]byte(`[1]`))
	require.ErrorAs(t, err, &te)
	_, err = ParseObject([]byte(`{"a":`))
	var se *Error
	require.ErrorAs(t, err, &se)
	empty, err := ParseObject(nil)
	require.NoError(t, err)
	assert.Empty(t, empty)
}

func TestObjectWriter(t *testing.T) {
	var w ObjectWriter
	w.String("a", "<x>")
	w.StringOmit("skip", "")
	w.Bool("b", false)
	w.BoolOmit("skip2", false)
	w.Int("n", -3)
	w.IntOmit("skip3", 0)
	w.Raw("r", []byte(`[1,2]`))
	w.RawOmit("skip4", nil)
	require.NoError(t, w.Value("v", map[string]any{"z": 1.0, "a": []any{"s", nil}}))
	assert.Equal(t, `{"a":"\u003cx\u003e","b":false,"n":-3,"r":[1,2],"v":{"a":["s",null],"z":1}}`, string(w.Bytes()))
	var empty ObjectWriter
	assert.Equal(t, `{}`, string(empty.Bytes()))
	w2 := NewObjectWriter([]byte("pre:"))
	w2.String("k", "v")
	assert.Equal(t, `pre:{"k":"v"}`, string(w2.Bytes()))
	_, err := Marshal(struct{}{})
	assert.Error(t, err)
}

func bytesReader(b []byte) *bytes.Reader { return bytes.NewReader(b) }

// TestMarshalGoShapes checks the Go-built shapes Marshal takes beyond
// decoded JSON against json.Marshal.
func TestMarshalGoShapes(t *testing.T) {
	for _, v := range []any{
		[]map[string]any{{"b": 1, "a": "x<"}, nil, {}},
		[]map[string]any(nil),
		map[string]any{"frames": []map[string]any{{"text": "{not json"}}},
		map[string]string{"k": "v"},
		[]string{"a", "b"},
	} {
		want, err := json.Marshal(v)
		require.NoError(t, err)
		got, err := Marshal(v)
		require.NoError(t, err)
		assert.Equal(t, string(want), string(got))
	}
}
