package core

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fuzzSame checks that dec and json.Unmarshal agree on in: the same value,
// or both an error (with the same text unless it is a syntax error, whose
// wording differs).
func fuzzSame[T any](t *testing.T, in []byte, dec func([]byte, *T) error) {
	t.Helper()
	var want, got T
	werr := json.Unmarshal(in, &want)
	gerr := dec(in, &got)
	if werr != nil {
		require.Error(t, gerr, "encoding/json: %v", werr)
		var se *json.SyntaxError
		if !errors.As(werr, &se) {
			assert.Equal(t, werr.Error(), gerr.Error())
		}
		return
	}
	require.NoError(t, gerr)
	assert.Equal(t, want, got)
}

// FuzzDecodersLikeEncodingJSON: the table-driven decoder reads any input
// as json.Unmarshal does into the same types.
func FuzzDecodersLikeEncodingJSON(f *testing.F) {
	for _, s := range []string{
		`{"protocolVersion":"2025-06-18","capabilities":{"tools":{"listChanged":true},"logging":{}},"serverInfo":{"name":"s","version":"1","icons":[{"src":"a"}]}}`,
		`{"content":[{"type":"text","text":"hi"},{"type":"resource","resource":{"uri":"u","blob":"AA=="}}],"structuredContent":{"a":1},"isError":false}`,
		`{"tools":[{"name":"t","inputSchema":{},"annotations":{"readOnlyHint":true}}],"nextCursor":"c","ttlMs":5}`,
		`{"taskId":"t","status":"working","ttl":1,"inputRequests":{"a":{"method":"m"}},"error":{"code":1,"message":"m"}}`,
		`{"messages":[{"role":"user","content":{"type":"text","text":"x"}}],"maxTokens":3}`,
		`{"CONTENT":[null],"isError":"x"}`, `[]`, `null`, `{"a":1e400}`, `{"content":{"text":1}}`, `{`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		fuzzSame(t, in, decodeInitializeResult)
		if json.Valid(in) {
			// Its contract: a result taken from a decoded message, so
			// valid JSON (it skips decodeAs's syntax pass).
			fuzzSame(t, in, decodeToolResultPlain)
			fuzzSame(t, in, decodeToolResultMemo)
		}
		fuzzSame(t, in, decodeListToolsResult)
		fuzzSame(t, in, decodeWireTaskJSON)
		fuzzSame(t, in, func(b []byte, p *CreateMessageParams) error { return decodeParamsOf(b, p) })
		fuzzSame(t, in, func(b []byte, p *GetPromptResult) error { return decodeTypedResult(b, p) })
	})
}
