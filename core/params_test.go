package core

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpwasm/mcpwasm/internal/jsonscan"
)

func TestObjectMembers(t *testing.T) {
	cases := []struct {
		name string
		in   string
		want []jsonscan.Member
		err  bool
	}{
		{"empty", ``, nil, false},
		{"null", `null`, nil, false},
		{"empty object", ` { } `, nil, false},
		{"simple", `{"a":1,"b":"x"}`, []jsonscan.Member{{Key: "a", Val: RawMessage(`1`)}, {Key: "b", Val: RawMessage(`"x"`)}}, false},
		{"whitespace", "{ \"a\" :\t[1, {\"}\":\"]\"}] ,\n\"b\": true }", []jsonscan.Member{{Key: "a", Val: RawMessage(`[1, {"}":"]"}]`)}, {Key: "b", Val: RawMessage(`true`)}}, false},
		{"escaped key", `{"a\"b":null,"\u00e9":-1.5e3}`, []jsonscan.Member{{Key: `a"b`, Val: RawMessage(`null`)}, {Key: "é", Val: RawMessage(`-1.5e3`)}}, false},
		{"string with escapes", `{"s":"a\\\"b\\\\"}`, []jsonscan.Member{{Key: "s", Val: RawMessage(`"a\\\"b\\\\"`)}}, false},
		{"not an object", `[1]`, nil, true},
		{"truncated", `{"a":`, nil, true},
		{"garbage", `{"a":1}x`, nil, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := objectMembers(RawMessage(tc.in))
			if tc.err {
				require.Error(t, err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.want, got)
		})
	}
}

func TestBuildParams(t *testing.T) {
	ms, err := objectMembers(RawMessage(`{"name":"t","_meta":{"keep":1,"progressToken":"old"}}`))
	require.NoError(t, err)
	out, err := buildParams(ms, []jsonscan.Member{{Key: "progressToken", Val: RawMessage(`7`)}, {Key: "v", Val: RawMessage(`"x"`)}},
		jsonscan.Member{Key: "requestState", Val: RawMessage(`"s\u00e9"`)}, jsonscan.Member{Key: "absent", Val: nil})
	require.NoError(t, err)
	assert.JSONEq(t, `{"name":"t","_meta":{"keep":1,"progressToken":7,"v":"x"},"requestState":"s\u00e9"}`, string(out))
	assert.Contains(t, string(out), `"s\u00e9"`, "values keep their exact bytes")
}

func FuzzObjectMembers(f *testing.F) {
	for _, s := range []string{`{}`, `{"a":1}`, `{"a":{"b":[1,"}"]},"c":"\""}`, `{"\u0041":true}`, `[]`, `{"a"`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		ms, err := objectMembers(RawMessage(in))
		var want map[string]RawMessage
		werr := json.Unmarshal([]byte(in), &want)
		if werr != nil || want == nil {
			if err == nil && len(ms) > 0 {
				t.Fatalf("accepted invalid object %q", in)
			}
			return
		}
		require.NoError(t, err, "%q", in)
		got := map[string]RawMessage{}
		for _, m := range ms {
			got[m.Key] = m.Val
		}
		require.Equal(t, len(want), len(got), "%q", in)
		for k, v := range want {
			assert.JSONEq(t, string(v), string(got[k]), "%q key %q", in, k)
		}
	})
}

func TestMayHaveKey(t *testing.T) {
	tests := []struct {
		raw  string
		want bool
	}{
		{`{"resultType":"input_required"}`, true},
		{` { "a" : 1 , "resultType" : "x" } `, true},
		{`{"content":[{"type":"text","text":"\"resultType\":1"}]}`, false}, // only top-level names count
		{`{"a":{"resultType":1}}`, false},
		{`{"result\u0054ype":1}`, true}, // escaped: may be it
		{`{}`, false},
		{`[1,2]`, false},
		{`{"a":"x\\"}`, false},
		{`{"a":[1,{"b":"}"}],"resultType":2}`, true},
	}
	for _, tc := range tests {
		t.Run(tc.raw, func(t *testing.T) {
			assert.Equal(t, tc.want, mayHaveKey(RawMessage(tc.raw), `"resultType"`))
		})
	}
}

func TestLegacyMayBeTask(t *testing.T) {
	tests := []struct {
		raw  string
		want bool
	}{
		{`{"task":{"taskId":"t1","status":"working"}}`, true},
		{`{"_meta":{},"task":{"taskId":"t1"}}`, true},
		{`{"content":[{"type":"text","text":"x"}]}`, false},
		{`{"content":[{"type":"text","text":"x"}],"task":{"taskId":"t1"}}`, false}, // content: an answer, whatever follows
		{`{"content": [ 1 ],"task":{}}`, false},
		{`{"task":{},"content":[1]}`, true}, // the decoder sees the content
		{`{"content":[],"task":{"taskId":"t1"}}`, true},
		{`{"content":[ ],"task":{}}`, true},
		{`{"content":{},"task":{}}`, true}, // not an array: the decoder decides
		{`{"isError":false,"structuredContent":{"task":1}}`, false},
		{`{"t\u0061sk":{}}`, true}, // escaped: may be it
		{`{"content" 1}`, true},    // malformed: the decoder decides
		{`{}`, false},
		{`[1]`, false},
	}
	for _, tc := range tests {
		t.Run(tc.raw, func(t *testing.T) {
			assert.Equal(t, tc.want, legacyMayBeTask(RawMessage(tc.raw)))
		})
	}
}

func TestTopMember(t *testing.T) {
	tests := []struct {
		raw  string
		want string // "" for absent
	}{
		{`{"resultType":"complete"}`, `"complete"`},
		{` { "a" : 1 , "resultType" : "task" } `, `"task"`},
		{`{"content":[{"type":"text","text":"\"resultType\":1"}],"resultType":"complete"}`, `"complete"`},
		{`{"content":[{"type":"text","text":"\"resultType\":1"}]}`, ""}, // only top-level names count
		{`{"a":{"resultType":1}}`, ""},
		{`{"result\u0054ype":"input_required"}`, `"input_required"`}, // escaped names are compared unescaped
		{`{"resultTypeX":1,"resultType":2}`, `2`},
		{`{"resultType":{"nested":[1,2]},"b":3}`, `{"nested":[1,2]}`},
		{`{}`, ""},
		{`[1,2]`, ""},
		{`"resultType"`, ""},
	}
	for _, tc := range tests {
		t.Run(tc.raw, func(t *testing.T) {
			assert.Equal(t, tc.want, string(topMember(RawMessage(tc.raw), "resultType")))
		})
	}
}
