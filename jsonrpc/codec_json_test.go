package jsonrpc

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpwasm/mcpwasm/internal/rawjson"
)

// The error object is read and written by hand; these tests hold it to
// what encoding/json does with the Error struct.

func TestErrorMemberMatchesEncodingJSON(t *testing.T) {
	for _, errJSON := range []string{
		`{"code":-32601,"message":"Method not found"}`,
		`{"code":-32602,"message":"bad","data":{"supported":["2025-06-18"]}}`,
		`{"code":1,"message":"m","data":null}`,
		`{}`, `{"code":null,"message":null}`,
		`{"Code":5,"MESSAGE":"upper","Data":[1]}`, `{"code":1,"code":2,"message":"a","message":"b"}`,
		`{"code":"1","message":"m"}`, `{"code":1.5}`, `{"code":1e3}`, `{"code":99999999999999999999}`,
		`{"message":5,"code":true}`, `{"code":{},"message":[]}`, `[]`, `"x"`, `7`, `true`,
		`{"code":1,"unknown":{"deep":[1,2,3]},"message":"é\u00e9 <x>"}`,
	} {
		t.Run(errJSON, func(t *testing.T) {
			var want Error
			werr := json.Unmarshal([]byte(errJSON), &want)
			m, err := DecodeMessage([]byte(`{"jsonrpc":"2.0","id":1,"error":` + errJSON + `}`))
			if werr != nil {
				require.Error(t, err)
				assert.ErrorIs(t, err, ErrInvalidMessage)
				assert.Equal(t, "jsonrpc: invalid message: error member: "+werr.Error(), err.Error())
				return
			}
			require.NoError(t, err)
			got := m.(*Response).Error
			require.NotNil(t, got)
			assert.Equal(t, want.Code, got.Code)
			assert.Equal(t, want.Message, got.Message)
			assert.Equal(t, string(want.Data), string(got.Data))
		})
	}
}

func TestAppendErrorMatchesEncodingJSON(t *testing.T) {
	for _, e := range []*Error{
		{Code: -32601, Message: "Method not found"},
		{Code: 0, Message: ""},
		{Code: -32000, Message: "a <b> & \u2028 \xff", Data: rawjson.RawMessage(" { \"k\" : [1, \"<x>\"] } ")},
		{Code: 7, Message: "m", Data: rawjson.RawMessage(`null`)},
	} {
		want, err := json.Marshal(e)
		require.NoError(t, err)
		got, err := EncodeMessage(&Response{ID: Int64ID(3), Error: e})
		require.NoError(t, err)
		assert.Equal(t, `{"jsonrpc":"2.0","id":3,"error":`+string(want)+`}`, string(got))
	}
	_, jerr := json.Marshal(&Error{Data: rawjson.RawMessage(`{"a":`)})
	require.Error(t, jerr)
	_, err := EncodeMessage(&Response{ID: Int64ID(3), Error: &Error{Data: rawjson.RawMessage(`{"a":`)}})
	require.Error(t, err, "invalid data is refused, as encoding/json does")
}

func TestDecodeBatch(t *testing.T) {
	cases := []struct {
		name string
		in   string
		want []Message
		err  string
	}{
		{"two", `[{"jsonrpc":"2.0","id":1,"result":{}}, {"jsonrpc":"2.0","method":"n","params":{"a":1}}]`,
			[]Message{&Response{ID: Int64ID(1), Result: rawjson.RawMessage(`{}`)}, &Request{Method: "n", Params: rawjson.RawMessage(`{"a":1}`)}}, ""},
		{"empty", `[]`, []Message{}, ""},
		{"error response", `[{"jsonrpc":"2.0","id":"a","error":{"code":-1,"message":"x"}}]`,
			[]Message{&Response{ID: StringID("a"), Error: &Error{Code: -1, Message: "x"}}}, ""},
		{"null element", `[null]`, nil, `jsonrpc: invalid message: jsonrpc member is "", want "2.0"`},
		{"number element", `[1]`, nil, "jsonrpc: invalid message: json: cannot unmarshal number into Go value of type jsonrpc.wireMessage"},
		{"bad error member", `[{"jsonrpc":"2.0","id":1,"error":{"code":"x"}}]`, nil, "jsonrpc: invalid message: error member: json: cannot unmarshal string into Go struct field Error.code of type int64"},
		{"syntax", `[{"jsonrpc":"2.0"`, nil, "jsonrpc: invalid message"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := DecodeMessages([]byte(c.in))
			if c.err != "" {
				require.Error(t, err)
				assert.ErrorIs(t, err, ErrInvalidMessage)
				assert.Contains(t, err.Error(), c.err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, c.want, got)
		})
	}
}

func TestIDUnmarshalString(t *testing.T) {
	for _, in := range []string{`"a"`, `"\u00e9\n"`, `""`, `"x\"y"`} {
		var want string
		require.NoError(t, json.Unmarshal([]byte(in), &want))
		var id ID
		require.NoError(t, id.UnmarshalJSON([]byte(in)))
		assert.Equal(t, StringID(want), id)
	}
	var id ID
	assert.Error(t, id.UnmarshalJSON([]byte(`"unterminated`)))
}
