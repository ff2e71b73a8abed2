// Package authjson encodes and decodes auth's stored values — Token,
// Registration, Pending — without reflection, for the hosts' auth stores
// in the WebAssembly modules (wasm/js keeps them in the page's storage,
// the wasip1 guest in its store state). The bytes are those
// encoding/json.Marshal writes for the types (their json tags: members in
// field order, omitempty and omitzero honoured, times as time.Time's
// MarshalJSON writes them), and decoding fills the values as
// encoding/json.Unmarshal does (names matched case-insensitively, the last
// of repeated members wins, null leaves a field alone, unknown members
// ignored, wrong kinds refused); authjson_test.go compares both ways.
package authjson

import (
	"time"

	"github.com/mcpwasm/mcpwasm/auth"
	"github.com/mcpwasm/mcpwasm/internal/jsonscan"
	"github.com/mcpwasm/mcpwasm/internal/urlx"
)

// AppendToken appends t as JSON (null for nil). The error is time's, for
// an Expiry outside the years 0 to 9999.
func AppendToken(dst []byte, t *auth.Token) ([]byte, error) {
	if t == nil {
		return append(dst, "null"...), nil
	}
	w := jsonscan.NewObjectWriter(dst)
	w.String("access_token", t.AccessToken)
	w.String("token_type", t.Type)
	w.StringOmit("refresh_token", t.RefreshToken)
	if err := appendTime(&w, "expiry", t.Expiry, true); err != nil {
		return dst, err
	}
	w.StringOmit("scope", t.Scope)
	w.StringOmit("granted_scope", t.GrantedScope)
	w.StringOmit("jkt", t.JKT)
	return w.Bytes(), nil
}

// AppendRegistration appends r as JSON (null for nil).
func AppendRegistration(dst []byte, r *auth.Registration) ([]byte, error) {
	if r == nil {
		return append(dst, "null"...), nil
	}
	w := jsonscan.NewObjectWriter(dst)
	w.String("client_id", r.ClientID)
	w.StringOmit("client_secret", r.ClientSecret)
	if err := appendTime(&w, "client_secret_expires_at", r.SecretExpiresAt, true); err != nil {
		return dst, err
	}
	w.StringOmit("token_endpoint_auth_method", r.AuthMethod)
	if len(r.RedirectURIs) > 0 {
		b, _ := jsonscan.AppendStrings(nil, r.RedirectURIs)
		w.Raw("redirect_uris", b)
	}
	return w.Bytes(), nil
}

// AppendPending appends p as JSON (null for nil).
func AppendPending(dst []byte, p *auth.Pending) ([]byte, error) {
	if p == nil {
		return append(dst, "null"...), nil
	}
	w := jsonscan.NewObjectWriter(dst)
	w.String("state", p.State)
	w.String("code_verifier", p.Verifier)
	w.String("redirect_uri", p.RedirectURI)
	w.String("client_id", p.ClientID)
	w.StringOmit("scope", p.Scope)
	if err := appendTime(&w, "created", p.Created, false); err != nil {
		return dst, err
	}
	return w.Bytes(), nil
}

// appendTime writes t as time's MarshalJSON does; a zero t is left out
// when omitZero.
func appendTime(w *jsonscan.ObjectWriter, name string, t time.Time, omitZero bool) error {
	if omitZero && t.IsZero() {
		return nil
	}
	b, err := urlx.AppendRFC3339([]byte{'"'}, t, true, "Time.MarshalJSON: ")
	if err != nil {
		return err
	}
	w.Raw(name, append(b, '"'))
	return nil
}

var tokenNames = []string{"access_token", "token_type", "refresh_token", "expiry", "scope", "granted_scope", "jkt"}

// DecodeToken fills t from the JSON object data.
func DecodeToken(data []byte, t *auth.Token) error {
	return jsonscan.FieldsInto(data, tokenNames, []any{&t.AccessToken, &t.Type, &t.RefreshToken, &t.Expiry, &t.Scope, &t.GrantedScope, &t.JKT})
}

var registrationNames = []string{"client_id", "client_secret", "client_secret_expires_at", "token_endpoint_auth_method", "redirect_uris"}

// DecodeRegistration fills r from the JSON object data.
func DecodeRegistration(data []byte, r *auth.Registration) error {
	return jsonscan.FieldsInto(data, registrationNames, []any{&r.ClientID, &r.ClientSecret, &r.SecretExpiresAt, &r.AuthMethod, &r.RedirectURIs})
}

var pendingNames = []string{"state", "code_verifier", "redirect_uri", "client_id", "scope", "created"}

// DecodePending fills p from the JSON object data.
func DecodePending(data []byte, p *auth.Pending) error {
	return jsonscan.FieldsInto(data, pendingNames, []any{&p.State, &p.Verifier, &p.RedirectURI, &p.ClientID, &p.Scope, &p.Created})
}
