package jsonscan

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestFieldsLikeEncodingJSON decodes documents into a struct both ways.
func TestFieldsLikeEncodingJSON(t *testing.T) {
	type doc struct {
		Name  string   `json:"name"`
		Flag  bool     `json:"flag"`
		N     int64    `json:"n"`
		Items []string `json:"items"`
	}
	decode := func(data []byte) (doc, error) {
		var d doc
		err := Fields(data, []string{"name", "flag", "n", "items"}, func(i int, v []byte) (err error) {
			if IsNull(v) {
				return nil
			}
			switch i {
			case 0:
				d.Name, err = String(v)
			case 1:
				d.Flag, err = Bool(v)
			case 2:
				d.N, err = Int64(v)
			case 3:
				d.Items, err = StringSlice(v)
			}
			return err
		})
		return d, err
	}
	decodeInto := func(data []byte) (doc, error) {
		var d doc
		err := FieldsInto(data, []string{"name", "flag", "n", "items"}, []any{&d.Name, &d.Flag, &d.N, &d.Items})
		return d, err
	}
	for _, in := range []string{
		`{"name":"a","flag":true,"n":3,"items":["x","y"],"other":{"deep":[1,2]}}`,
		`{"NAME":"a","Name":"b"}`,
		`{"name":"a","name":null}`,
		`{"items":["x",null,"z"]}`,
		`{"items":[]}`,
		`null`,
		``,
		`  `,
		` {"n":-0} `,
		`{"n":1.5}`,
		`{"n":1e3}`,
		`{"n":99999999999999999999}`,
		`{"name":1}`,
		`{"flag":"true"}`,
		`{"items":"x"}`,
		`{"items":[1]}`,
		`[]`,
		`"x"`,
		`{"name":"a",}`,
		`{"name":"a"} x`,
		`{"name":"\u00e9\ud800"}`,
		`{"ſtuff":1,"naMe":"k"}`,
	} {
		t.Run(in, func(t *testing.T) {
			var want doc
			werr := json.Unmarshal([]byte(in), &want)
			got, err := decode([]byte(in))
			require.Equal(t, werr == nil, err == nil, "errors: %v, encoding/json %v", err, werr)
			if err == nil {
				assert.Equal(t, want, got)
			}
			got, err = decodeInto([]byte(in))
			require.Equal(t, werr == nil, err == nil, "FieldsInto errors: %v, encoding/json %v", err, werr)
			if err == nil {
				assert.Equal(t, want, got)
			}
		})
	}
	_, err := decode([]byte(`{"name":1}`))
	var fe *FieldError
	require.True(t, errors.As(err, &fe))
	assert.EqualError(t, err, `member "name": JSON: want string, got number`)
}

func TestRawStringIs(t *testing.T) {
	for _, tt := range []struct {
		raw, s string
		want   bool
	}{
		{`"task"`, "task", true},
		{`"task"`, "tasks", false},
		{`"input_required"`, "input_required", true},
		{`"input\u005frequired"`, "input_required", true},
		{`"caf\u00e9"`, "café", true},
		{`"café"`, "café", true},
		{`"caf\u00e9"`, "cafe", false},
		{`""`, "", true},
		{`5`, "", true},
		{`null`, "null", false},
		{``, "", true},
		{`"x`, "x", false},
	} {
		t.Run(tt.raw+"/"+tt.s, func(t *testing.T) {
			assert.Equal(t, tt.want, RawStringIs([]byte(tt.raw), tt.s))
			assert.Equal(t, RawString([]byte(tt.raw)) == tt.s, RawStringIs([]byte(tt.raw), tt.s), "as RawString compares")
		})
	}
	assert.Zero(t, testing.AllocsPerRun(10, func() { RawStringIs([]byte(`"complete"`), "input_required") }))
}
