package bridge

import (
	"bytes"
	"encoding/json"
	"io"
	"reflect"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpwasm/mcpwasm/core"
	"github.com/mcpwasm/mcpwasm/internal/rawjson"
)

// jsonDecode is the decoding the schema had before the hand-written
// decoder: encoding/json's Decoder, strict, then a check for trailing data.
func jsonDecode(b []byte, v any, what string) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return invalidf("%s: %v", what, err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return invalidf("%s: trailing data after the JSON object", what)
	}
	return nil
}

// fullClient, fullConnect and fullCall set every member of the schema.
const (
	fullClient = `{"clientInfo":{"name":"t","title":"T","version":"1","description":"d","websiteUrl":"https://x.example","icons":[{"src":"a.png","mimeType":"image/png","sizes":["48x48"],"theme":"dark"},null]},
"protocolVersions":["2025-06-18"],"capabilities":{"experimental":{"a":{"b":[1,2.5,"c",null,true]}},"extensions":{"io.x/y":{}},"roots":{"listChanged":true},"sampling":{"context":{},"tools":{}},"elicitation":{"form":{"applyDefaults":true},"url":{}},"tasks":{"requests":{"tools":{"call":{}}}}},
"handlers":{"sampling":true,"elicitation":true,"roots":false},"samplingTools":true,"elicitationModes":["form","url"],"noElicitationDefaults":true,
"roots":[{"uri":"file:///a","name":"a","_meta":{"k":1}},null],"notifications":["notifications/message"],"messages":true,"logLevel":"debug",
"requestTimeoutMs":1.5,"maxTotalTimeoutMs":-1,"probeTimeoutMs":100,"maxInputRounds":3,"disableCache":true,"disableOutputValidation":true,
"retry":{"attempts":2,"delayMs":10,"maxDelayMs":20},"keepAliveMs":0,"maxQueuedNotifications":5,"maxServerRequests":6,"tasks":true}`
	fullConnect = `{"url":"http://127.0.0.1:1/mcp","transport":"sse","protocolVersions":["2024-11-05"],"headers":{"a":"b","c":null},"maxMessageSize":100,"retryMs":5,"maxReconnects":2,"credentials":"include","fetchMode":"cors",
"auth":{"grant":"client_credentials","userAgent":"headless","redirectUri":"http://127.0.0.1/cb","callbackUrl":"http://127.0.0.1/cb?code=x","clientId":"id","clientSecret":"s","authMethod":"client_secret_post","issuer":"https://as.example",
"privateKeyPem":"-----","clientMetadataUrl":"https://c.example/m.json","clientName":"n","applicationType":"web","scopes":["a","b"],"noOfflineAccess":true,"dpop":true,"dpopKeyPem":"k","assertion":"jwt",
"idjag":{"tokenEndpoint":"https://idp.example/token","clientId":"i","clientSecret":"s","subjectToken":"t","subjectTokenType":"urn:x"},"maxAuthorizations":2,"authorizationTimeoutMs":1000,"allowInsecureHttp":true,"allowPrivateAddresses":true,
"store":{"tokens":[ 1, 2 ]},"persist":true,"log":true}}`
	fullCall = `{"timeoutMs":0.001,"maxTotalTimeoutMs":5,"resetTimeoutOnProgress":true,"noCache":true,"meta":{"a":"b","n":1e3},"noTaskWait":true,"progress":true}`
)

// variants returns doc with the value of each member (found by name,
// nested ones included) replaced by each of values, and with extra members
// added: the invalid (and a few valid) configurations the parity tests
// feed both decoders.
func variants(doc string, names []string) []string {
	values := []string{`"x"`, `1`, `1.5`, `-3`, `1e400`, `true`, `null`, `[]`, `{}`, `{"zz":1}`, `["a",1]`, `[{"zz":1}]`, `[null]`, `{"a":1}`, `"\u00e9\ud83d\ude00"`}
	var out []string
	for _, n := range names {
		key := `"` + n + `":`
		i := strings.Index(doc, key)
		if i < 0 {
			continue
		}
		start := i + len(key)
		end := start + valueLen(doc[start:])
		for _, v := range values {
			out = append(out, doc[:start]+v+doc[end:])
		}
		// the member's name in another case, and misspelt
		out = append(out, doc[:i]+`"`+strings.ToUpper(n)+`":`+doc[start:])
		out = append(out, doc[:i]+`"`+n+`x":`+doc[start:])
	}
	return out
}

// valueLen returns the length of the JSON value s starts with.
func valueLen(s string) int {
	var raw rawjson.RawMessage
	dec := json.NewDecoder(strings.NewReader(s))
	if err := dec.Decode(&raw); err != nil {
		panic(err)
	}
	return int(dec.InputOffset())
}

// compare decodes in with both decoders into fresh values from mk and
// asserts the same outcome: the same error text, or equal values.
func compare[T any](t *testing.T, in string, what string, dec func(*T) Decodable) {
	t.Helper()
	var want, got T
	werr := jsonDecode([]byte(in), &want, what)
	gerr := Decode([]byte(in), dec(&got), what)
	if werr != nil {
		if assert.Error(t, gerr, "input %s", in) {
			assert.Equal(t, werr.Error(), gerr.Error(), "input %s", in)
		}
		return
	}
	require.NoError(t, gerr, "input %s", in)
	assert.Equal(t, want, got, "input %s", in)
}

// TestDecodeParity: the hand-written decoder accepts what encoding/json
// accepted, with the same values, and refuses what it refused, with the
// same message.
func TestDecodeParity(t *testing.T) {
	common := []string{
		``, ` `, `null`, `{}`, ` {} `, `[]`, `"x"`, `5`, `true`, `nope`, `{"a":tru}`, `{"a":nul`, `{"a":fals }`, `{"a":trux}`, `[nulll]`, `{`, `{"a"`, `{"clientInfo":`, `{} {}`, `{}x`, `{} ]`,
		`{"a":1,"b":2}`, `{"a":1 "b":2}`, `{"\u0061":1}`, `{}}`, "{\"tasks\":\"\xff\"}", `{"a":1,"timeoutMs":"x"}`,
	}
	clientNames := append(objectNames(&clientConfigObj), "name", "version", "title", "icons", "src", "sizes", "experimental", "listChanged",
		"sampling", "context", "elicitation", "form", "applyDefaults", "url", "uri", "_meta", "attempts", "delayMs", "maxDelayMs")
	connectNames := append(objectNames(&connectConfigObj), objectNames(&authConfigObj)...)
	connectNames = append(connectNames, objectNames(&idjagObj)...)

	t.Run("client", func(t *testing.T) {
		ins := append(append([]string{fullClient}, common...), variants(fullClient, clientNames)...)
		ins = append(ins,
			`{"clientInfo":{"name":"a","version":"1"},"clientInfo":{"title":"b"}}`,
			`{"retry":{"attempts":1},"retry":{"delayMs":2}}`,
			`{"messages":"x","requestTimeoutMs":"y"}`,
			`{"bogus":1,"maxInputRounds":1.5}`,
			`{"maxInputRounds":1.5,"bogus":1}`,
			`{"CLIENTINFO":{"NAME":"a","Version":"1"}}`,
			`{"clientInfo":{"name":"t","version":"1"}} {}`,
			`{"capabilities":{"sampling":{"context":{"x":1}}}}`,
			`{"capabilities":{"experimental":{"a":1},"experimental":{"b":2}}}`,
			`{"roots":[{"uri":"a","_meta":{"a":1},"_meta":{"b":2}}]}`,
			`{"maxInputRounds":9223372036854775808}`,
			`{"requestTimeoutMs":9223372036854775807}`,
		)
		for _, in := range ins {
			compare(t, in, "client options", func(c *ClientConfig) Decodable { return c })
		}
	})
	t.Run("connect", func(t *testing.T) {
		ins := append(append([]string{fullConnect}, common...), variants(fullConnect, connectNames)...)
		ins = append(ins, `{"headers":{"a":"b"},"headers":{"c":"d"}}`, `{"auth":{"store":null}}`, `{"auth":{"idjag":{"x":1}}}`)
		for _, in := range ins {
			compare(t, in, "connect options", func(c *ConnectConfig) Decodable { return c })
		}
	})
	t.Run("call", func(t *testing.T) {
		ins := append(append([]string{fullCall}, common...), variants(fullCall, objectNames(&callOptionsObj))...)
		ins = append(ins, `{"meta":{"a":1},"meta":{"b":2}}`, `{"timeoutMs":5,"timeoutMs":null}`, `{"noCache":true,"noCache":null}`)
		for _, in := range ins {
			compare(t, in, "call options", func(c *CallOptions) Decodable { return c })
		}
	})
}

// objectNames returns the member names of o.
func objectNames(o *Object) []string {
	var out []string
	for _, m := range o.Members {
		out = append(out, m.Name)
	}
	return out
}

// TestObjectTables: every table lists exactly its type's JSON members, in
// order, at their fields' offsets, with a kind that fits the field's type.
func TestObjectTables(t *testing.T) {
	kinds := map[Kind]reflect.Type{
		KString: reflect.TypeFor[string](), KBool: reflect.TypeFor[bool](), KInt: reflect.TypeFor[int](),
		KInt64: reflect.TypeFor[int64](), KMillis: reflect.TypeFor[*Millis](), KStrings: reflect.TypeFor[[]string](),
		KStringMap: reflect.TypeFor[map[string]string](), KAnyMap: reflect.TypeFor[map[string]any](),
		KMeta: reflect.TypeFor[core.Meta](), KAny: reflect.TypeFor[any](), KRaw: reflect.TypeFor[rawjson.RawMessage](),
		KEmpty: reflect.TypeFor[*struct{}](), kRoots: reflect.TypeFor[[]*core.Root](), kIcons: reflect.TypeFor[[]core.Icon](),
	}
	var check func(o *Object, typ reflect.Type)
	check = func(o *Object, typ reflect.Type) {
		var want []string
		for i := range typ.NumField() {
			f := typ.Field(i)
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			if name == "" || name == "-" {
				continue
			}
			want = append(want, name)
			m := o.member(name)
			if !assert.NotNil(t, m, "%s.%s", typ, name) {
				continue
			}
			assert.Equal(t, f.Offset, m.Off, "%s.%s", typ, name)
			switch m.Kind {
			case KStruct:
				assert.Equal(t, reflect.Struct, f.Type.Kind(), "%s.%s", typ, name)
				check(m.Sub, f.Type)
			case KPtr:
				if assert.Equal(t, reflect.Pointer, f.Type.Kind(), "%s.%s", typ, name) {
					assert.Equal(t, reflect.ValueOf(m.Sub.Alloc()).Pointer() != 0, true)
					check(m.Sub, f.Type.Elem())
				}
			default:
				assert.Equal(t, kinds[m.Kind], f.Type, "%s.%s", typ, name)
			}
		}
		assert.Equal(t, want, objectNames(o), "%s", typ)
	}
	for _, c := range []struct {
		o   *Object
		typ reflect.Type
	}{
		{&clientConfigObj, reflect.TypeFor[ClientConfig]()},
		{&connectConfigObj, reflect.TypeFor[ConnectConfig]()},
		{&callOptionsObj, reflect.TypeFor[CallOptions]()},
		{&rootObj, reflect.TypeFor[core.Root]()},
		{&iconObj, reflect.TypeFor[core.Icon]()},
		{&callToolParamsObj, reflect.TypeFor[core.CallToolParams]()},
		{&paginatedParamsObj, reflect.TypeFor[core.PaginatedParams]()},
		{&subscriptionFilterObj, reflect.TypeFor[core.SubscriptionFilter]()},
		{&uriLevelObj, reflect.TypeFor[uriLevel]()},
		{&ErrorObject, reflect.TypeFor[Error]()},
	} {
		check(c.o, c.typ)
	}
}

// TestUnmarshalParity: the params Call reads decode as encoding/json's
// Unmarshal decoded them, errors included.
func TestUnmarshalParity(t *testing.T) {
	for _, in := range []string{
		`{}`, `{"uri":"file:///a","level":"debug","x":1}`, `{"uri":1}`, `{"level":[]}`, `{"URI":"a"}`, `[]`, `null`, `{"uri":nul}`, `{"uri":"a"} x`, `{"uri":"a"`,
	} {
		var want struct {
			URI   string `json:"uri"`
			Level string `json:"level"`
		}
		var got uriLevel
		werr := json.Unmarshal([]byte(in), &want)
		gerr := Unmarshal([]byte(in), &got)
		if werr != nil {
			if assert.Error(t, gerr, in) {
				assert.Equal(t, werr.Error(), gerr.Error(), in)
			}
			continue
		}
		require.NoError(t, gerr, in)
		assert.Equal(t, want.URI, got.URI, in)
		assert.Equal(t, want.Level, got.Level, in)
	}
}
