package guest

import (
	"errors"
	"time"
	"unsafe"

	"github.com/mcpwasm/mcpwasm/auth"
	"github.com/mcpwasm/mcpwasm/core"
	"github.com/mcpwasm/mcpwasm/internal/authjson"
	"github.com/mcpwasm/mcpwasm/internal/bridge"
	"github.com/mcpwasm/mcpwasm/internal/jsonscan"
	"github.com/mcpwasm/mcpwasm/wasm/abi"
)

// The ABI's JSON, written and read without encoding/json (the reactor
// links neither it nor reflection's heavy parts): the same bytes and the
// same messages as encoding/json gave (tests compare the two).

// appendRaw adds a raw member as encoding/json writes a json.RawMessage
// (compacted), refusing invalid JSON as it did.
func appendRaw(w *jsonscan.ObjectWriter, k string, raw []byte) error {
	if err := rawError(raw); err != nil {
		return err
	}
	c, _ := jsonscan.AppendCompact(nil, raw, true) // validated above
	w.Raw(k, c)
	return nil
}

// rawError is encoding/json's error for encoding the raw JSON raw.
func rawError(raw []byte) error {
	if len(raw) == 0 {
		return nil
	}
	if err := jsonscan.SyntaxError(raw); err != nil {
		return errors.New("json: error calling MarshalJSON for type json.RawMessage: " + jsonscan.StdError(raw, err, false).Error())
	}
	return nil
}

// appendEvent appends ev as encoding/json encodes an abi.Event.
func appendEvent(dst []byte, ev *abi.Event) ([]byte, error) {
	w := jsonscan.NewObjectWriter(dst)
	w.String("type", ev.Type)
	w.IntOmit("op", int64(ev.Op))
	w.IntOmit("id", int64(ev.ID))
	w.IntOmit("client", int64(ev.Client))
	w.IntOmit("session", int64(ev.Session))
	w.StringOmit("method", ev.Method)
	if len(ev.Params) > 0 {
		if err := appendRaw(&w, "params", ev.Params); err != nil {
			return dst, err
		}
	}
	if len(ev.Result) > 0 {
		if err := appendRaw(&w, "result", ev.Result); err != nil {
			return dst, err
		}
	}
	if ev.Error != nil {
		if err := rawError(ev.Error.Data); err != nil {
			return dst, err
		}
		w.Raw("error", ev.Error.AppendJSON(nil))
	}
	w.StringOmit("message", ev.Message)
	w.StringOmit("url", ev.URL)
	if len(ev.Store) > 0 {
		if err := appendRaw(&w, "store", ev.Store); err != nil {
			return dst, err
		}
	}
	return w.Bytes(), nil
}

// callRequest decodes an abi.CallRequest strictly.
type callRequest abi.CallRequest

const callOptionsOff = unsafe.Offsetof(abi.CallRequest{}.CallOptions)

// The embedded structs (their field names, in messages) and the members
// decoded by functions of the guest's own.
var (
	embeddedCallOptions    = bridge.Object{Struct: "CallOptions"}
	embeddedCallToolParams = bridge.Object{Struct: "CallToolParams"}
	stringsMapObj          = bridge.Object{Decode: decodeStringsMap}
	timeObj                = bridge.Object{Decode: decodeTime}
)

var callRequestObj = bridge.Object{Struct: "CallRequest", Type: "abi.CallRequest", Members: []bridge.ObjectMember{
	{Name: "method", Kind: bridge.KString, Off: unsafe.Offsetof(abi.CallRequest{}.Method)},
	{Name: "params", Kind: bridge.KRaw, Off: unsafe.Offsetof(abi.CallRequest{}.Params)},
	{Name: "timeoutMs", Kind: bridge.KMillis | bridge.KEmbedded, Off: callOptionsOff + unsafe.Offsetof(bridge.CallOptions{}.TimeoutMs), Sub: &embeddedCallOptions},
	{Name: "maxTotalTimeoutMs", Kind: bridge.KMillis | bridge.KEmbedded, Off: callOptionsOff + unsafe.Offsetof(bridge.CallOptions{}.MaxTotalTimeoutMs), Sub: &embeddedCallOptions},
	{Name: "resetTimeoutOnProgress", Kind: bridge.KBool | bridge.KEmbedded, Off: callOptionsOff + unsafe.Offsetof(bridge.CallOptions{}.ResetTimeoutOnProgress), Sub: &embeddedCallOptions},
	{Name: "noCache", Kind: bridge.KBool | bridge.KEmbedded, Off: callOptionsOff + unsafe.Offsetof(bridge.CallOptions{}.NoCache), Sub: &embeddedCallOptions},
	{Name: "meta", Kind: bridge.KMeta | bridge.KEmbedded, Off: callOptionsOff + unsafe.Offsetof(bridge.CallOptions{}.Meta), Sub: &embeddedCallOptions},
	{Name: "noTaskWait", Kind: bridge.KBool | bridge.KEmbedded, Off: callOptionsOff + unsafe.Offsetof(bridge.CallOptions{}.NoTaskWait), Sub: &embeddedCallOptions},
	{Name: "progress", Kind: bridge.KBool | bridge.KEmbedded, Off: callOptionsOff + unsafe.Offsetof(bridge.CallOptions{}.Progress), Sub: &embeddedCallOptions},
}}

// DecodeSchema implements bridge.Decodable.
func (r *callRequest) DecodeSchema(d *bridge.Decoder, val []byte) error {
	return d.DecodeObject(val, &callRequestObj, unsafe.Pointer(r))
}

// answerJSON decodes an abi.Answer strictly.
type answerJSON abi.Answer

var answerObj = bridge.Object{Struct: "Answer", Type: "abi.Answer", Members: []bridge.ObjectMember{
	{Name: "result", Kind: bridge.KRaw, Off: unsafe.Offsetof(abi.Answer{}.Result)},
	{Name: "error", Kind: bridge.KPtr, Off: unsafe.Offsetof(abi.Answer{}.Error), Sub: &bridge.ErrorObject},
}}

// DecodeSchema implements bridge.Decodable.
func (a *answerJSON) DecodeSchema(d *bridge.Decoder, val []byte) error {
	return d.DecodeObject(val, &answerObj, unsafe.Pointer(a))
}

// authorizeResult decodes an abi.AuthorizeResult leniently.
type authorizeResult abi.AuthorizeResult

var authorizeResultObj = bridge.Object{Struct: "AuthorizeResult", Type: "abi.AuthorizeResult", Members: []bridge.ObjectMember{
	{Name: "callbackUrl", Kind: bridge.KString, Off: unsafe.Offsetof(abi.AuthorizeResult{}.CallbackURL)},
}}

// DecodeSchema implements bridge.Decodable.
func (r *authorizeResult) DecodeSchema(d *bridge.Decoder, val []byte) error {
	return d.DecodeObject(val, &authorizeResultObj, unsafe.Pointer(r))
}

// appendHTTPRequestHead appends h as encoding/json encodes it.
func appendHTTPRequestHead(dst []byte, h *abi.HTTPRequestHead) []byte {
	w := jsonscan.NewObjectWriter(dst)
	w.String("method", h.Method)
	w.String("url", h.URL)
	if len(h.Headers) > 0 {
		b, _ := jsonscan.AppendSortedMap(nil, h.Headers, jsonscan.AppendStrings)
		w.Raw("headers", b)
	}
	w.BoolOmit("noRedirect", h.NoRedirect)
	return w.Bytes()
}

// httpResponseHead decodes an abi.HTTPResponseHead strictly.
type httpResponseHead abi.HTTPResponseHead

var httpResponseHeadObj = bridge.Object{Struct: "HTTPResponseHead", Type: "abi.HTTPResponseHead", Members: []bridge.ObjectMember{
	{Name: "status", Kind: bridge.KInt, Off: unsafe.Offsetof(abi.HTTPResponseHead{}.Status)},
	{Name: "headers", Kind: bridge.KCustom, Off: unsafe.Offsetof(abi.HTTPResponseHead{}.Headers), Sub: &stringsMapObj},
	{Name: "hidden", Kind: bridge.KStrings, Off: unsafe.Offsetof(abi.HTTPResponseHead{}.Hidden)},
}}

// decodeStringsMap decodes a map[string][]string member (HTTP headers).
func decodeStringsMap(d *bridge.Decoder, v []byte, q unsafe.Pointer) error {
	return d.StringsMap(v, (*map[string][]string)(q))
}

// decodeTime decodes a time.Time member: encoding/json called time's
// UnmarshalJSON, null included.
func decodeTime(_ *bridge.Decoder, v []byte, q unsafe.Pointer) error {
	return jsonscan.UnmarshalTime(v, (*time.Time)(q))
}

// DecodeSchema implements bridge.Decodable.
func (h *httpResponseHead) DecodeSchema(d *bridge.Decoder, val []byte) error {
	return d.DecodeObject(val, &httpResponseHeadObj, unsafe.Pointer(h))
}

// appendTaskState appends st as encoding/json encodes an abi.TaskState.
func appendTaskState(dst []byte, st *abi.TaskState) []byte {
	hs := bridge.HostTaskState{ID: st.ID, Status: st.Status, StatusMessage: st.StatusMessage,
		CreatedAt: st.CreatedAt, LastUpdatedAt: st.LastUpdatedAt, TTL: st.TTLMs, PollInterval: st.PollIntervalMs}
	return hs.Append(dst, bridge.TaskStateWASI)
}

// appendTaskHandle appends h as encoding/json encodes an abi.TaskHandle.
func appendTaskHandle(dst []byte, h *abi.TaskHandle) ([]byte, error) {
	w := jsonscan.NewObjectWriter(dst)
	w.Raw("state", appendTaskState(nil, &h.State))
	if len(h.Result) > 0 {
		if err := appendRaw(&w, "result", h.Result); err != nil {
			return dst, err
		}
	}
	return w.Bytes(), nil
}

// taskParams are the params of the abi.MethodTask* operations.
type taskParams struct {
	core.CallToolParams
	TTLMs             int64  `json:"ttlMs"`
	TaskID            string `json:"taskId"`
	MaxPollIntervalMs int64  `json:"maxPollIntervalMs"`
	Cursor            string `json:"cursor"`
}

// taskParamsType is the Go type encoding/json named in its messages (the
// params were an anonymous struct).
const taskParamsType = "struct { core.CallToolParams; TTLMs int64 \"json:\\\"ttlMs\\\"\"; TaskID string \"json:\\\"taskId\\\"\"; MaxPollIntervalMs int64 \"json:\\\"maxPollIntervalMs\\\"\"; Cursor string \"json:\\\"cursor\\\"\" }"

var taskParamsObj = bridge.Object{Type: taskParamsType, Members: []bridge.ObjectMember{
	{Name: "_meta", Kind: bridge.KMeta | bridge.KEmbedded, Off: unsafe.Offsetof(taskParams{}.Meta), Sub: &embeddedCallToolParams},
	{Name: "name", Kind: bridge.KString | bridge.KEmbedded, Off: unsafe.Offsetof(taskParams{}.Name), Sub: &embeddedCallToolParams},
	{Name: "arguments", Kind: bridge.KAny | bridge.KEmbedded, Off: unsafe.Offsetof(taskParams{}.Arguments), Sub: &embeddedCallToolParams},
	{Name: "ttlMs", Kind: bridge.KInt64, Off: unsafe.Offsetof(taskParams{}.TTLMs)},
	{Name: "taskId", Kind: bridge.KString, Off: unsafe.Offsetof(taskParams{}.TaskID)},
	{Name: "maxPollIntervalMs", Kind: bridge.KInt64, Off: unsafe.Offsetof(taskParams{}.MaxPollIntervalMs)},
	{Name: "cursor", Kind: bridge.KString, Off: unsafe.Offsetof(taskParams{}.Cursor)},
}}

// DecodeSchema implements bridge.Decodable (leniently, with
// bridge.Unmarshal).
func (p *taskParams) DecodeSchema(d *bridge.Decoder, val []byte) error {
	return d.DecodeObject(val, &taskParamsObj, unsafe.Pointer(p))
}

// The auth store's state: strict, as encoding/json's Decoder with
// DisallowUnknownFields read it (inside the tokens and registrations
// too); written as json.Marshal wrote it.

var storeObj = bridge.Object{Struct: "storeState", Type: "guest.storeState", Members: []bridge.ObjectMember{
	{Name: "v", Kind: bridge.KInt, Off: unsafe.Offsetof(storeState{}.V)},
	{Name: "registrations", Kind: bridge.KCustom, Off: unsafe.Offsetof(storeState{}.Registrations), Sub: &bridge.Object{Decode: func(d *bridge.Decoder, v []byte, q unsafe.Pointer) error {
		return decodeRegistrations(d, v, (*map[string]*auth.Registration)(q))
	}}},
	{Name: "tokens", Kind: bridge.KCustom, Off: unsafe.Offsetof(storeState{}.Tokens), Sub: &bridge.Object{Decode: func(d *bridge.Decoder, v []byte, q unsafe.Pointer) error {
		return decodeStoredTokens(d, v, (*[]storedToken)(q))
	}}},
}}

// DecodeSchema implements bridge.Decodable.
func (st *storeState) DecodeSchema(d *bridge.Decoder, val []byte) error {
	return d.DecodeObject(val, &storeObj, unsafe.Pointer(st))
}

var registrationObj = bridge.Object{Struct: "Registration", Type: "auth.Registration", Members: []bridge.ObjectMember{
	{Name: "client_id", Kind: bridge.KString, Off: unsafe.Offsetof(auth.Registration{}.ClientID)},
	{Name: "client_secret", Kind: bridge.KString, Off: unsafe.Offsetof(auth.Registration{}.ClientSecret)},
	{Name: "client_secret_expires_at", Kind: bridge.KCustom, Off: unsafe.Offsetof(auth.Registration{}.SecretExpiresAt), Sub: &timeObj},
	{Name: "token_endpoint_auth_method", Kind: bridge.KString, Off: unsafe.Offsetof(auth.Registration{}.AuthMethod)},
	{Name: "redirect_uris", Kind: bridge.KStrings, Off: unsafe.Offsetof(auth.Registration{}.RedirectURIs)},
}}

func decodeRegistrations(d *bridge.Decoder, val []byte, p *map[string]*auth.Registration) error {
	if jsonscan.IsNullLiteral(val) {
		*p = nil
		return nil
	}
	ms, ok, err := d.Object(val, "map[string]*auth.Registration")
	if !ok {
		return err
	}
	if *p == nil {
		*p = make(map[string]*auth.Registration, len(ms))
	}
	for _, m := range ms {
		v := jsonscan.TrimSpace(m.Val)
		if jsonscan.IsNullLiteral(v) {
			(*p)[m.Key] = nil
			continue
		}
		r := new(auth.Registration) // encoding/json does not merge map elements
		if err := d.DecodeObject(v, &registrationObj, unsafe.Pointer(r)); err != nil {
			return err
		}
		if v[0] == '{' {
			(*p)[m.Key] = r
		}
	}
	return nil
}

var storedTokenObj = bridge.Object{Struct: "storedToken", Type: "guest.storedToken", Members: []bridge.ObjectMember{
	{Name: "resource", Kind: bridge.KString, Off: unsafe.Offsetof(storedToken{}.Resource)},
	{Name: "issuer", Kind: bridge.KString, Off: unsafe.Offsetof(storedToken{}.Issuer)},
	{Name: "token", Kind: bridge.KPtr, Off: unsafe.Offsetof(storedToken{}.Token), Sub: &tokenObj},
}}

var tokenObj = bridge.Object{Struct: "Token", Type: "auth.Token", Alloc: func() unsafe.Pointer { return unsafe.Pointer(new(auth.Token)) }, Members: []bridge.ObjectMember{
	{Name: "access_token", Kind: bridge.KString, Off: unsafe.Offsetof(auth.Token{}.AccessToken)},
	{Name: "token_type", Kind: bridge.KString, Off: unsafe.Offsetof(auth.Token{}.Type)},
	{Name: "refresh_token", Kind: bridge.KString, Off: unsafe.Offsetof(auth.Token{}.RefreshToken)},
	{Name: "expiry", Kind: bridge.KCustom, Off: unsafe.Offsetof(auth.Token{}.Expiry), Sub: &timeObj},
	{Name: "scope", Kind: bridge.KString, Off: unsafe.Offsetof(auth.Token{}.Scope)},
	{Name: "granted_scope", Kind: bridge.KString, Off: unsafe.Offsetof(auth.Token{}.GrantedScope)},
	{Name: "jkt", Kind: bridge.KString, Off: unsafe.Offsetof(auth.Token{}.JKT)},
}}

func decodeStoredTokens(d *bridge.Decoder, val []byte, p *[]storedToken) error {
	if jsonscan.IsNullLiteral(val) {
		*p = nil
		return nil
	}
	if val[0] != '[' {
		d.Wrong(val, "[]guest.storedToken")
		return nil
	}
	items, _ := jsonscan.Elements(val)
	out := make([]storedToken, len(items))
	for i, it := range items {
		if err := d.DecodeObject(jsonscan.TrimSpace(it), &storedTokenObj, unsafe.Pointer(&out[i])); err != nil {
			return err
		}
	}
	*p = out
	return nil
}

// appendStore appends st as encoding/json encodes a storeState.
func appendStore(dst []byte, st *storeState) ([]byte, error) {
	w := jsonscan.NewObjectWriter(dst)
	w.Int("v", int64(st.V))
	if len(st.Registrations) > 0 {
		b, err := jsonscan.AppendSortedMap(nil, st.Registrations, authjson.AppendRegistration)
		if err != nil {
			return dst, err
		}
		w.Raw("registrations", b)
	}
	if len(st.Tokens) > 0 {
		b := []byte{'['}
		for i := range st.Tokens {
			if i > 0 {
				b = append(b, ',')
			}
			t := &st.Tokens[i]
			tw := jsonscan.NewObjectWriter(b)
			tw.String("resource", t.Resource)
			tw.String("issuer", t.Issuer)
			tb, err := authjson.AppendToken(nil, t.Token)
			if err != nil {
				return dst, err
			}
			tw.Raw("token", tb)
			b = tw.Bytes()
		}
		w.Raw("tokens", append(b, ']'))
	}
	return w.Bytes(), nil
}
