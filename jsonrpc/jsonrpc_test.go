package jsonrpc

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpwasm/mcpwasm/internal/rawjson"
)

func TestDecodeMessage(t *testing.T) {
	cases := []struct {
		name string
		in   string
		want Message
		err  bool
	}{
		{"request", `{"jsonrpc":"2.0","id":7,"method":"tools/list","params":{"cursor":"c"}}`,
			&Request{ID: Int64ID(7), Method: "tools/list", Params: rawjson.RawMessage(`{"cursor":"c"}`)}, false},
		{"string id and escapes", `{"params":{},"method":"a\/b\u00e9","id":"x\"y","jsonrpc":"2.0"}`,
			&Request{ID: StringID(`x"y`), Method: "a/bé", Params: rawjson.RawMessage(`{}`)}, false},
		{"notification", ` {"jsonrpc":"2.0","method":"notifications/initialized"} `,
			&Request{Method: "notifications/initialized"}, false},
		{"result", `{"jsonrpc":"2.0","id":1,"result":{"tools":[]}}`,
			&Response{ID: Int64ID(1), Result: rawjson.RawMessage(`{"tools":[]}`)}, false},
		{"null result", `{"jsonrpc":"2.0","id":1,"result":null}`,
			&Response{ID: Int64ID(1), Result: rawjson.RawMessage(`null`)}, false},
		{"error", `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"bad","data":{"x":1}}}`,
			&Response{Error: &Error{Code: -32600, Message: "bad", Data: rawjson.RawMessage(`{"x":1}`)}}, false},
		{"integral float id", `{"jsonrpc":"2.0","id":3.0,"result":{}}`,
			&Response{ID: Int64ID(3), Result: rawjson.RawMessage(`{}`)}, false},
		{"wrong version", `{"jsonrpc":"1.0","id":1,"result":{}}`, nil, true},
		{"no version", `{"id":1,"result":{}}`, nil, true},
		{"method and result", `{"jsonrpc":"2.0","id":1,"method":"x","result":{}}`, nil, true},
		{"numeric method", `{"jsonrpc":"2.0","id":1,"method":5}`, nil, true},
		{"result without id", `{"jsonrpc":"2.0","result":{}}`, nil, true},
		{"empty object", `{}`, nil, true},
		{"array", `[]`, nil, true},
		{"truncated", `{"jsonrpc":"2.0","id":1,"result":{`, nil, true},
		{"garbage", `not json`, nil, true},
		{"fractional id", `{"jsonrpc":"2.0","id":1.5,"result":{}}`, nil, true},
		{"bad error member", `{"jsonrpc":"2.0","id":1,"error":"oops"}`, nil, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := DecodeMessage([]byte(tc.in))
			if tc.err {
				require.ErrorIs(t, err, ErrInvalidMessage)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.want, got)
		})
	}
}

func FuzzDecodeMessage(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"m","params":{"a":[1,"]"]}}`,
		`{"jsonrpc":"2.0","id":"s","result":null}`,
		`{"jsonrpc":"2.0","error":{"code":1,"message":"m"}}`,
		`{"jsonrpc":"2.0","method":"n"}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		m, err := DecodeMessage(in)
		if err != nil {
			return
		}
		// What decodes re-encodes to an equivalent message.
		b, err := EncodeMessage(m)
		require.NoError(t, err)
		m2, err := DecodeMessage(b)
		require.NoError(t, err, "%s", b)
		b2, err := EncodeMessage(m2)
		require.NoError(t, err)
		assert.JSONEq(t, string(b), string(b2))
	})
}

func TestResultMember(t *testing.T) {
	big := strings.Repeat("x", recordResultAt)
	cases := []struct {
		name, msg string
		member    string
		want      string // "" absent
		known     bool
	}{
		{"small result: not recorded", `{"jsonrpc":"2.0","id":1,"result":{"content":[],"resultType":"complete"}}`, "resultType", "", false},
		{"large result: after the content", `{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"` + big + `"}],"resultType":"task"}}`, "resultType", `"task"`, true},
		{"large result: absent", `{"jsonrpc":"2.0","id":1,"result":{"content":"` + big + `"}}`, "resultType", "", true},
		{"large result: the first of a repeated name", `{"jsonrpc":"2.0","id":1,"result":{"a":1,"pad":"` + big + `","a":2}}`, "a", "1", true},
		{"large result: an escaped name", `{"jsonrpc":"2.0","id":1,"result":{"pad":"` + big + `","result\u0054ype":"complete"}}`, "resultType", `"complete"`, true},
		{"a repeated result: the kept one is not an object", `{"jsonrpc":"2.0","id":1,"result":{"pad":"` + big + `"},"result":"` + big + `"}`, "pad", "", false},
		{"a repeated result: the kept one is the second", `{"jsonrpc":"2.0","id":1,"result":{"a":1},"result":{"b":"` + big + `"}}`, "a", "", true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m, err := DecodeMessage([]byte(c.msg))
			require.NoError(t, err)
			r := m.(*Response)
			v, known := r.ResultMember(c.member)
			assert.Equal(t, c.known, known)
			assert.Equal(t, c.want, string(v))
		})
	}
	t.Run("a batch is not recorded", func(t *testing.T) {
		ms, err := DecodeMessages([]byte(`[{"jsonrpc":"2.0","id":1,"result":{"pad":"` + big + `","resultType":"complete"}}]`))
		require.NoError(t, err)
		_, known := ms[0].(*Response).ResultMember("resultType")
		assert.False(t, known)
	})
}

func TestResultMemberOfAReplacedResult(t *testing.T) {
	big := strings.Repeat("x", recordResultAt)
	m, err := DecodeMessage([]byte(`{"jsonrpc":"2.0","id":1,"result":{"pad":"` + big + `","resultType":"task"}}`))
	require.NoError(t, err)
	r := m.(*Response)
	v, known := r.ResultMember("resultType")
	require.True(t, known)
	assert.Equal(t, `"task"`, string(v))
	r.Result = rawjson.RawMessage(`{"pad":"` + big + `","resultType":"complete"}`)
	_, known = r.ResultMember("resultType")
	assert.False(t, known, "the members recorded belong to the result decoded, not to its replacement")
	copied := *r
	copied.Result = r.Result[:len(r.Result)-1]
	_, known = copied.ResultMember("resultType")
	assert.False(t, known)
}

func TestResultStrings(t *testing.T) {
	long := strings.Repeat("x", LongString)
	pad := strings.Repeat("p", LongMessage)
	cases := []struct {
		name, msg string
		want      []string // the recorded strings, quotes included
		known     bool
	}{
		{"small message: not recorded", `{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"` + long + `"}]}}`, nil, false},
		{"plain and escaped", `{"jsonrpc":"2.0","id":1,"result":{"a":"` + long + `","b":["` + long + `\n"],"pad":"` + pad + `"}}`,
			[]string{`"` + long + `"`, `"` + long + `\n"`, `"` + pad + `"`}, true},
		{"none long enough", `{"jsonrpc":"2.0","id":1,"result":{"a":[` + strings.Repeat(`"xxxx",`, LongMessage/7) + `1]}}`, []string{}, true},
		{"an id outside the result", `{"jsonrpc":"2.0","id":"` + pad + `","result":{"a":"` + long + `"}}`, []string{`"` + long + `"`}, true},
		{"a result that is not an object", `{"jsonrpc":"2.0","id":1,"result":"` + pad + `"}`, nil, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m, err := DecodeMessage([]byte(c.msg))
			require.NoError(t, err)
			r := m.(*Response)
			spans, known := r.ResultStrings()
			assert.Equal(t, c.known, known)
			var got []string
			if spans != nil {
				got = []string{}
			}
			for _, s := range spans {
				got = append(got, string(r.Result[s.Start:s.End]))
				assert.Equal(t, !strings.Contains(got[len(got)-1], `\`), s.Plain)
			}
			assert.Equal(t, c.want, got)
		})
	}
	t.Run("a replaced result", func(t *testing.T) {
		m, err := DecodeMessage([]byte(`{"jsonrpc":"2.0","id":1,"result":{"pad":"` + pad + `"}}`))
		require.NoError(t, err)
		r := m.(*Response)
		_, known := r.ResultStrings()
		require.True(t, known)
		r.Result = r.Result[:len(r.Result)-1]
		_, known = r.ResultStrings()
		assert.False(t, known)
	})
}

func TestAppendMessages(t *testing.T) {
	first := &Request{Method: "before"}
	tests := []struct {
		name    string
		in      string
		methods []string // of the messages appended after first
		wantErr bool
	}{
		{"one message", ` {"jsonrpc":"2.0","method":"a"}`, []string{"a"}, false},
		{"a batch", "\n[{\"jsonrpc\":\"2.0\",\"method\":\"a\"},{\"jsonrpc\":\"2.0\",\"method\":\"b\"}]", []string{"a", "b"}, false},
		{"an empty batch", `[]`, nil, false},
		{"a bad message", `{"jsonrpc":"2.0","method":`, nil, true},
		{"a bad batch member", `[{"jsonrpc":"2.0","method":"a"},5]`, nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dst := []Message{first}
			got, err := AppendMessages(dst, []byte(tt.in))
			if tt.wantErr {
				require.Error(t, err)
				assert.Equal(t, dst, got, "dst as it was")
				_, derr := DecodeMessages([]byte(tt.in))
				assert.Equal(t, derr.Error(), err.Error(), "DecodeMessages's error")
				return
			}
			require.NoError(t, err)
			require.Len(t, got, 1+len(tt.methods))
			assert.Same(t, first, got[0])
			for i, m := range tt.methods {
				assert.Equal(t, m, got[1+i].(*Request).Method)
			}
		})
	}
	t.Run("room for one message allocates no slice", func(t *testing.T) {
		in := []byte(`{"jsonrpc":"2.0","id":1,"result":{}}`)
		var one [1]Message
		withRoom := testing.AllocsPerRun(50, func() { _, _ = AppendMessages(one[:0], in) })
		without := testing.AllocsPerRun(50, func() { _, _ = DecodeMessages(in) })
		assert.Equal(t, without-1, withRoom)
	})
}
