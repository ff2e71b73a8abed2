package guest

import (
	"errors"

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

var callRequestNames = append([]string{"method", "params"}, bridge.CallOptionsNames...)

// DecodeSchema implements bridge.Decodable.
func (r *callRequest) DecodeSchema(d *bridge.Decoder, val []byte) error {
	ptrs := append(make([]any, 0, len(callRequestNames)), &r.Method, &r.Params)
	for _, p := range r.CallOptions.FieldPtrs() {
		ptrs = append(ptrs, bridge.Embedded{Field: "CallOptions", Ptr: p})
	}
	return d.Fields(val, "CallRequest", "abi.CallRequest", callRequestNames, ptrs...)
}

// answerJSON decodes an abi.Answer strictly.
type answerJSON abi.Answer

var answerNames = []string{"result", "error"}

// DecodeSchema implements bridge.Decodable.
func (a *answerJSON) DecodeSchema(d *bridge.Decoder, val []byte) error {
	return d.Fields(val, "Answer", "abi.Answer", answerNames, &a.Result,
		bridge.Member(func(d *bridge.Decoder, v []byte) error { return bridge.DecodeError(d, v, &a.Error) }))
}

// authorizeResult decodes an abi.AuthorizeResult leniently.
type authorizeResult abi.AuthorizeResult

var authorizeResultNames = []string{"callbackUrl"}

// DecodeSchema implements bridge.Decodable.
func (r *authorizeResult) DecodeSchema(d *bridge.Decoder, val []byte) error {
	return d.Fields(val, "AuthorizeResult", "abi.AuthorizeResult", authorizeResultNames, &r.CallbackURL)
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

var httpResponseHeadNames = []string{"status", "headers", "hidden"}

// DecodeSchema implements bridge.Decodable.
func (h *httpResponseHead) DecodeSchema(d *bridge.Decoder, val []byte) error {
	return d.Fields(val, "HTTPResponseHead", "abi.HTTPResponseHead", httpResponseHeadNames, &h.Status, &h.Headers, &h.Hidden)
}

// appendTaskState appends st as encoding/json encodes an abi.TaskState.
func appendTaskState(dst []byte, st *abi.TaskState) []byte {
	hs := bridge.HostTaskState{ID: st.ID, Status: st.Status, StatusMessage: st.StatusMessage,
		CreatedAt: st.CreatedAt, LastUpdatedAt: st.LastUpdatedAt, TTL: st.TTLMs, PollInterval: st.PollIntervalMs}
	return hs.Append(dst, bridge.TaskStateWASI)
}

// stateJSON is an abi.TaskState that encodes itself (ErrorInfo's task
// data).
type stateJSON abi.TaskState

// AppendJSON implements jsonscan.JSONAppender.
func (st stateJSON) AppendJSON(dst []byte) []byte {
	return appendTaskState(dst, (*abi.TaskState)(&st))
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

var taskParamsNames = []string{"_meta", "name", "arguments", "ttlMs", "taskId", "maxPollIntervalMs", "cursor"}

// taskParamsType is the Go type encoding/json named in its messages (the
// params were an anonymous struct).
const taskParamsType = "struct { core.CallToolParams; TTLMs int64 \"json:\\\"ttlMs\\\"\"; TaskID string \"json:\\\"taskId\\\"\"; MaxPollIntervalMs int64 \"json:\\\"maxPollIntervalMs\\\"\"; Cursor string \"json:\\\"cursor\\\"\" }"

// DecodeSchema implements bridge.Decodable (leniently, with
// bridge.Unmarshal).
func (p *taskParams) DecodeSchema(d *bridge.Decoder, val []byte) error {
	return d.Fields(val, "", taskParamsType, taskParamsNames,
		bridge.Embedded{Field: "CallToolParams", Ptr: &p.Meta}, bridge.Embedded{Field: "CallToolParams", Ptr: &p.Name},
		bridge.Embedded{Field: "CallToolParams", Ptr: &p.Arguments},
		&p.TTLMs, &p.TaskID, &p.MaxPollIntervalMs, &p.Cursor)
}

// The auth store's state: strict, as encoding/json's Decoder with
// DisallowUnknownFields read it (inside the tokens and registrations
// too); written as json.Marshal wrote it.

var storeNames = []string{"v", "registrations", "tokens"}

// DecodeSchema implements bridge.Decodable.
func (st *storeState) DecodeSchema(d *bridge.Decoder, val []byte) error {
	return d.Fields(val, "storeState", "guest.storeState", storeNames, &st.V,
		bridge.Member(func(d *bridge.Decoder, v []byte) error { return decodeRegistrations(d, v, &st.Registrations) }),
		bridge.Member(func(d *bridge.Decoder, v []byte) error { return decodeStoredTokens(d, v, &st.Tokens) }))
}

var registrationNames = []string{"client_id", "client_secret", "client_secret_expires_at", "token_endpoint_auth_method", "redirect_uris"}

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
		err := d.Fields(v, "Registration", "auth.Registration", registrationNames,
			&r.ClientID, &r.ClientSecret, &r.SecretExpiresAt, &r.AuthMethod, &r.RedirectURIs)
		if err != nil {
			return err
		}
		if v[0] == '{' {
			(*p)[m.Key] = r
		}
	}
	return nil
}

var (
	storedTokenNames = []string{"resource", "issuer", "token"}
	tokenNames       = []string{"access_token", "token_type", "refresh_token", "expiry", "scope", "granted_scope", "jkt"}
)

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
		st := &out[i]
		err := d.Fields(jsonscan.TrimSpace(it), "storedToken", "guest.storedToken", storedTokenNames, &st.Resource, &st.Issuer,
			bridge.Member(func(d *bridge.Decoder, v []byte) error {
				t := jsonscan.Ptr(v, &st.Token)
				if t == nil {
					return nil
				}
				return d.Fields(v, "Token", "auth.Token", tokenNames,
					&t.AccessToken, &t.Type, &t.RefreshToken, &t.Expiry, &t.Scope, &t.GrantedScope, &t.JKT)
			}))
		if err != nil {
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
