package guest

import (
	"bytes"
	"encoding/json"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpwasm/mcpwasm/auth"
	"github.com/mcpwasm/mcpwasm/core"
	"github.com/mcpwasm/mcpwasm/internal/bridge"
	"github.com/mcpwasm/mcpwasm/wasm/abi"
)

// strictJSON is the strict decoding the ABI had with encoding/json.
func strictJSON(b []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if _, err := dec.Token(); err != io.EOF {
		return bridge.ErrTrailing
	}
	return nil
}

// oldDecode is bridge.Decode as it was, with encoding/json.
func oldDecode(what string) func([]byte, any) error {
	return func(b []byte, v any) error {
		err := strictJSON(b, v)
		switch {
		case err == bridge.ErrTrailing:
			return &bridge.ConfigError{Msg: what + ": trailing data after the JSON object"}
		case err != nil:
			return &bridge.ConfigError{Msg: what + ": " + err.Error()}
		}
		return nil
	}
}

// decodeParity decodes each input with encoding/json (old) and with the
// guest's decoder (new) into fresh Ts and asserts the same outcome.
func decodeParity[T any](t *testing.T, ins []string, old func([]byte, *T) error, dec func([]byte, *T) error) {
	t.Helper()
	for _, in := range ins {
		var want, got T
		werr := old([]byte(in), &want)
		gerr := dec([]byte(in), &got)
		if werr != nil {
			if assert.Error(t, gerr, in) {
				if w, _, ok := strings.Cut(werr.Error(), "\" as \"2006-01-02T15:04:05Z07:00\""); ok {
					// time.Parse says which layout element failed; the
					// hand-written RFC 3339 reader names the value only.
					assert.Equal(t, w+"\": not an RFC 3339 date-time", gerr.Error(), in)
					continue
				}
				assert.Equal(t, werr.Error(), gerr.Error(), in)
			}
			continue
		}
		require.NoError(t, gerr, in)
		assert.Equal(t, want, got, in)
	}
}

// mutations returns doc with each named member's value replaced by values
// of every kind, and renamed.
func mutations(doc string, names ...string) []string {
	out := []string{doc, ``, `null`, `[]`, `{}`, `{} {}`, `{"zz":1}`, `{`, `tru`}
	for _, n := range names {
		key := `"` + n + `":`
		i := strings.Index(doc, key)
		if i < 0 {
			continue
		}
		start := i + len(key)
		var raw json.RawMessage
		d := json.NewDecoder(strings.NewReader(doc[start:]))
		if err := d.Decode(&raw); err != nil {
			panic(err)
		}
		end := start + int(d.InputOffset())
		for _, v := range []string{`"x"`, `1`, `1.5`, `true`, `null`, `[]`, `{}`, `["a"]`, `[1]`, `{"a":["b"]}`, `{"a":1}`, `{"a":null}`} {
			out = append(out, doc[:start]+v+doc[end:])
		}
		out = append(out, doc[:i]+`"`+strings.ToUpper(n)+`":`+doc[start:], doc[:i]+`"`+n+`x":`+doc[start:])
	}
	return out
}

// TestABIDecodeParity: the ABI's objects decode as encoding/json decoded
// them, messages included.
func TestABIDecodeParity(t *testing.T) {
	t.Run("CallRequest", func(t *testing.T) {
		decodeParity(t, mutations(`{"method":"tools/call","params":{"name":"x"},"timeoutMs":5,"maxTotalTimeoutMs":6,"resetTimeoutOnProgress":true,"noCache":true,"meta":{"a":1},"noTaskWait":true,"progress":true}`,
			"method", "params", "timeoutMs", "resetTimeoutOnProgress", "meta", "progress"),
			func(b []byte, r *abi.CallRequest) error { return oldDecode("request")(b, r) },
			func(b []byte, r *abi.CallRequest) error { return bridge.Decode(b, (*callRequest)(r), "request") })
	})
	t.Run("Answer", func(t *testing.T) {
		decodeParity(t, append(mutations(`{"result":{"a":[1, 2]},"error":{"kind":"rpc","code":-32000,"message":"m","data":{"x":1},"status":0}}`,
			"result", "error", "kind", "code", "message", "data", "status"), `{"error":{"code":1.5}}`, `{"error":{"code":99999999999999999999}}`),
			func(b []byte, a *abi.Answer) error { return oldDecode("answer")(b, a) },
			func(b []byte, a *abi.Answer) error { return bridge.Decode(b, (*answerJSON)(a), "answer") })
	})
	t.Run("HTTPResponseHead", func(t *testing.T) {
		decodeParity(t, append(mutations(`{"status":200,"headers":{"content-type":["text/event-stream"],"x":["a","b"]},"hidden":["www-authenticate"]}`,
			"status", "headers", "hidden", "x"), `{"headers":{"a":[null,"b"]}}`, `{"headers":{"a":null}}`),
			func(b []byte, h *abi.HTTPResponseHead) error { return strictJSON(b, h) },
			func(b []byte, h *abi.HTTPResponseHead) error { return bridge.DecodeStrict(b, (*httpResponseHead)(h)) })
	})
	t.Run("AuthorizeResult", func(t *testing.T) {
		decodeParity(t, mutations(`{"callbackUrl":"http://127.0.0.1/cb?code=1","other":1}`, "callbackUrl"),
			func(b []byte, r *abi.AuthorizeResult) error { return json.Unmarshal(b, r) },
			func(b []byte, r *abi.AuthorizeResult) error { return bridge.Unmarshal(b, (*authorizeResult)(r)) })
	})
	t.Run("taskParams", func(t *testing.T) {
		decodeParity(t, mutations(`{"name":"t","arguments":{"a":[1,{}]},"_meta":{"k":"v"},"ttlMs":1000,"taskId":"x","maxPollIntervalMs":5,"cursor":"c","other":true}`,
			"name", "arguments", "_meta", "ttlMs", "taskId", "maxPollIntervalMs", "cursor"),
			func(b []byte, p *taskParams) error {
				var anon struct {
					core.CallToolParams
					TTLMs             int64  `json:"ttlMs"`
					TaskID            string `json:"taskId"`
					MaxPollIntervalMs int64  `json:"maxPollIntervalMs"`
					Cursor            string `json:"cursor"`
				}
				err := json.Unmarshal(b, &anon)
				*p = taskParams{CallToolParams: anon.CallToolParams, TTLMs: anon.TTLMs, TaskID: anon.TaskID, MaxPollIntervalMs: anon.MaxPollIntervalMs, Cursor: anon.Cursor}
				return err
			},
			func(b []byte, p *taskParams) error { return bridge.Unmarshal(b, p) })
	})
}

// TestABIEncodeParity: the ABI's objects are written as encoding/json
// wrote them.
func TestABIEncodeParity(t *testing.T) {
	ttl := int64(60000)
	events := []*abi.Event{
		{Type: abi.EventWarning, Message: "w <&>"},
		{Type: abi.EventResult, Op: 3, Result: json.RawMessage(` {"content" : [ {"type":"text","text":"a<b"} ] } `)},
		{Type: abi.EventResult, Op: 4, Error: &abi.Error{Kind: "rpc", Code: -32602, Message: "bad", Data: json.RawMessage(`{"a": 1}`), Status: 0}},
		{Type: abi.EventRequest, ID: 5, Client: 1, Session: 2, Method: "sampling/createMessage", Params: json.RawMessage(`{}`)},
		{Type: abi.EventAuthorize, ID: 6, URL: "https://as.example/authorize?a=1&b=2"},
		{Type: abi.EventAuthStore, Session: 2, Store: json.RawMessage(`{"v":1}`)},
		{Type: abi.EventResult, Op: 7, Result: json.RawMessage(`{nope`)},
		{Type: abi.EventResult, Op: 8, Error: &abi.Error{Data: json.RawMessage(`[1,`)}},
	}
	for _, ev := range events {
		want, werr := json.Marshal(ev)
		got, gerr := appendEvent(nil, ev)
		if werr != nil {
			if assert.Error(t, gerr) {
				assert.Equal(t, werr.Error(), gerr.Error())
			}
			continue
		}
		require.NoError(t, gerr)
		assert.Equal(t, string(want), string(got))
	}
	for _, h := range []*abi.HTTPRequestHead{
		{Method: "GET", URL: "http://127.0.0.1/"},
		{Method: "POST", URL: "http://127.0.0.1/mcp?a=<b>", Headers: map[string][]string{"b": {"1", "2"}, "a": {"x&y"}, "c": nil, "d": {}}, NoRedirect: true},
	} {
		want, err := json.Marshal(h)
		require.NoError(t, err)
		assert.Equal(t, string(want), string(appendHTTPRequestHead(nil, h)))
	}
	for _, st := range []abi.TaskState{
		{ID: "t", Status: "working"},
		{ID: "t", Status: "completed", StatusMessage: "done", CreatedAt: "2026-01-01T00:00:00Z", LastUpdatedAt: "x", TTLMs: &ttl, PollIntervalMs: 500},
	} {
		want, err := json.Marshal(st)
		require.NoError(t, err)
		assert.Equal(t, string(want), string(appendTaskState(nil, &st)))
		h := &abi.TaskHandle{State: st, Result: json.RawMessage(` {"a" : 1} `)}
		want, err = json.Marshal(h)
		require.NoError(t, err)
		got, err := appendTaskHandle(nil, h)
		require.NoError(t, err)
		assert.Equal(t, string(want), string(got))
	}
}

// TestStoreParity: the auth store's state is read strictly and written as
// encoding/json read and wrote it.
func TestStoreParity(t *testing.T) {
	exp := time.Date(2026, 12, 2, 7, 0, 0, 123456789, time.UTC)
	full := storeState{V: 1,
		Registrations: map[string]*auth.Registration{
			"https://as.example":  {ClientID: "c<1>", ClientSecret: "s", SecretExpiresAt: exp, AuthMethod: "client_secret_post", RedirectURIs: []string{"http://127.0.0.1/cb"}},
			"https://b.example":   {ClientID: "c2"},
			"https://nil.example": nil,
		},
		Tokens: []storedToken{
			{Resource: "https://mcp.example/mcp", Issuer: "https://as.example", Token: &auth.Token{AccessToken: "at", Type: "Bearer", RefreshToken: "rt", Expiry: exp, Scope: "a b", GrantedScope: "a", JKT: "k"}},
			{Resource: "r", Issuer: "i", Token: &auth.Token{AccessToken: "x", Type: "DPoP"}},
			{Resource: "r2", Issuer: "i2"},
		},
	}
	for _, st := range []*storeState{&full, {V: 1}, {V: 1, Registrations: map[string]*auth.Registration{}}} {
		want, err := json.Marshal(st)
		require.NoError(t, err)
		got, err := appendStore(nil, st)
		require.NoError(t, err)
		assert.Equal(t, string(want), string(got))
	}
	doc, err := json.Marshal(&full)
	require.NoError(t, err)
	ins := append(mutations(string(doc), "v", "registrations", "https://as.example", "client_id", "client_secret_expires_at", "redirect_uris",
		"tokens", "resource", "token", "access_token", "expiry", "jkt"),
		`{"v":1,"tokens":[null,{"token":null}]}`, `{"v":1,"registrations":{"a":{"client_id":"1"},"a":{"client_secret":"2"}}}`,
		`{"v":1,"tokens":[{"token":{"expiry":"yesterday"}}]}`, `{"v":1,"tokens":[{"token":{"expiry":5}}]}`, `{"v":1.5}`)
	decodeParity(t, ins,
		func(b []byte, st *storeState) error { return oldDecode("auth store")(b, st) },
		func(b []byte, st *storeState) error { return bridge.Decode(b, st, "auth store") })
}
