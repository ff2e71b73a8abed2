//go:build js

package main

import (
	"context"
	"errors"
	"syscall/js"

	"github.com/mcpwasm/mcpwasm/auth"
	"github.com/mcpwasm/mcpwasm/internal/authjson"
	schema "github.com/mcpwasm/mcpwasm/internal/bridge"
	"github.com/mcpwasm/mcpwasm/internal/errf"
	"github.com/mcpwasm/mcpwasm/internal/js/bridge"
	"github.com/mcpwasm/mcpwasm/internal/jsonscan"
	"github.com/mcpwasm/mcpwasm/internal/urlx"
	"github.com/mcpwasm/mcpwasm/transport/fetch"
)

// authDoer wraps the transport's Doer with OAuth as connect's auth option
// says (the bridge's AuthConfig; js/src/auth.js splits the page's option
// into it and the hooks object, whose functions are the AuthHooks here):
//
//	{onAuthorizationUrl(url, info) → string | null | Promise,
//	 storage: {load(key), save(key, value), remove?(key)},
//	 assertion(request) → string | Promise, subjectToken() → string | Promise,
//	 log(line)}
//
// It runs on a connect goroutine (the signers await WebCrypto).
func authDoer(inner fetch.Doer, cfg *schema.AuthConfig, hooks js.Value) (fetch.Doer, error) {
	fn := func(name string) js.Value {
		if hooks.Type() != js.TypeObject {
			return js.Undefined()
		}
		if f := hooks.Get(name); f.Type() == js.TypeFunction {
			return f
		}
		return js.Undefined()
	}
	h := &schema.AuthHooks{Crypto: platformAuthCrypto()}
	resumable := false
	if hooks.Type() == js.TypeObject {
		if storage := hooks.Get("storage"); storage.Type() == js.TypeObject {
			h.Store = &jsStore{hooks: storage}
			resumable = true
		}
	}
	if f := fn("onAuthorizationUrl"); f.Type() == js.TypeFunction {
		h.UserAgent = &jsUserAgent{fn: f, redirect: cfg.RedirectURI, resumable: resumable}
	}
	if f := fn("log"); f.Type() == js.TypeFunction {
		h.Logf = func(format string, args ...any) {
			defer func() { _ = recover() }()
			f.Invoke(errf.Sprintf(format, args...))
		}
	}
	if f := fn("subjectToken"); f.Type() == js.TypeFunction {
		h.SubjectToken = func(ctx context.Context) (string, error) {
			return callString(ctx, f, "subjectToken")
		}
	}
	if f := fn("assertion"); f.Type() == js.TypeFunction {
		h.Assertion = func(ctx context.Context, req *auth.AssertionRequest) (string, error) {
			scopes := req.Scopes
			if scopes == nil {
				scopes = []string{}
			}
			list, _ := jsonscan.AppendStrings(nil, scopes)
			w := jsonscan.NewObjectWriter(nil) // members in encoding/json's order of a map
			w.String("issuer", req.Issuer)
			w.String("resource", req.Resource)
			w.Raw("scopes", list)
			w.String("tokenEndpoint", req.TokenEndpoint)
			b := w.Bytes()
			return callString(ctx, f, "assertion", js.Global().Get("JSON").Call("parse", string(b)))
		}
	}
	return schema.AuthDoer(inner, cfg, h)
}

// callString calls a hook and awaits the string it returns.
func callString(ctx context.Context, f js.Value, name string, args ...any) (s string, err error) {
	defer jsbridge.Recover(&err)
	v, err := await(ctx, func() js.Value { return f.Invoke(args...) })
	if err != nil {
		return "", errf.Errorf("mcpwasm: auth: %s: %w", name, err)
	}
	if v.Type() != js.TypeString || v.String() == "" {
		return "", errf.Errorf("mcpwasm: auth: %s must return a non-empty string, got %s", name, v.Type())
	}
	return v.String(), nil
}

// await calls a hook and awaits its result; a synchronous throw is an
// error like a rejection.
func await(ctx context.Context, call func() js.Value) (js.Value, error) {
	var p js.Value
	if err := jsbridge.Call(func() { p = call() }); err != nil {
		return js.Undefined(), err
	}
	return jsbridge.Await(ctx, p)
}

// jsUserAgent is the page's user-agent step: onAuthorizationUrl(url,
// {redirectUri, state, resumable, signal}) resolves with the URL the
// authorization server redirected back to, or with null after sending the
// whole page there (a full-page redirect; resumable says whether the
// storage hooks can keep the pending authorization meanwhile). It is safe
// for concurrent use.
type jsUserAgent struct {
	fn        js.Value
	redirect  string
	resumable bool
}

func (a *jsUserAgent) RedirectURI() string { return a.redirect }

func (a *jsUserAgent) Authorize(ctx context.Context, authURL string) (cb string, err error) {
	defer jsbridge.Recover(&err)
	state := ""
	if u, err := urlx.Parse(authURL); err == nil {
		state = u.Query().Get("state")
	}
	signal, stop, err := jsbridge.AbortSignal(ctx)
	if err != nil {
		signal = js.Undefined()
	}
	defer stop()
	info := js.Global().Get("Object").New()
	info.Set("redirectUri", a.redirect)
	info.Set("state", state)
	info.Set("resumable", a.resumable)
	info.Set("signal", signal)
	v, err := await(ctx, func() js.Value { return a.fn.Invoke(authURL, info) })
	if err != nil {
		return "", errf.Errorf("auth: onAuthorizationUrl: %w", err)
	}
	switch v.Type() {
	case js.TypeString:
		return v.String(), nil
	case js.TypeNull:
		return "", errf.Errorf("auth: onAuthorizationUrl resolved with null: %w", auth.ErrRedirected)
	}
	return "", errf.Errorf("auth: onAuthorizationUrl must resolve with the callback URL (a string), or null after sending the page to the authorization server; got %s", v.Type())
}

// jsStore is an auth.Store (and auth.PendingStore) on the page's storage
// hooks {load(key) → string | null, save(key, value), remove?(key)}, each
// of which may return a Promise. Values are JSON; keys are
// "registration <issuer>", "token <issuer> <resource>" and
// "pending <issuer> <resource>" (URLs contain no spaces). It is safe for
// concurrent use (every JavaScript call runs on the one wasm thread).
type jsStore struct{ hooks js.Value }

// load reads the JSON value stored under key into v (an *auth.Registration,
// *auth.Token or *auth.Pending); found is false when there is none.
func (s *jsStore) load(ctx context.Context, key string, v any) (found bool, err error) {
	defer jsbridge.Recover(&err)
	f := s.hooks.Get("load")
	if f.Type() != js.TypeFunction {
		return false, errors.New("mcpwasm: auth: storage.load is not a function")
	}
	r, err := await(ctx, func() js.Value { return s.hooks.Call("load", key) })
	if err != nil {
		return false, errf.Errorf("mcpwasm: auth: storage.load: %w", err)
	}
	switch r.Type() {
	case js.TypeNull, js.TypeUndefined:
		return false, nil
	case js.TypeString:
	default:
		return false, errf.Errorf("mcpwasm: auth: storage.load must return a string or null, got %s", r.Type())
	}
	raw := r.String()
	if raw == "" || raw == "null" {
		return false, nil
	}
	b := []byte(raw)
	switch v := v.(type) {
	case *auth.Registration:
		err = authjson.DecodeRegistration(b, v)
	case *auth.Token:
		err = authjson.DecodeToken(b, v)
	case *auth.Pending:
		err = authjson.DecodePending(b, v)
	}
	if err != nil {
		return false, errf.Errorf("mcpwasm: auth: storage.load(%q) returned invalid JSON: %w", key, err)
	}
	return true, nil
}

// save stores v (an *auth.Registration, *auth.Token or *auth.Pending) as
// JSON under key, or deletes key.
func (s *jsStore) save(ctx context.Context, key string, v any, del bool) (err error) {
	defer jsbridge.Recover(&err)
	method, args := "save", []any{key, "null"}
	switch {
	case del && s.hooks.Get("remove").Type() == js.TypeFunction:
		method, args = "remove", []any{key}
	case s.hooks.Get("save").Type() != js.TypeFunction:
		return errors.New("mcpwasm: auth: storage.save is not a function")
	case !del:
		var b []byte
		switch v := v.(type) {
		case *auth.Registration:
			b, err = authjson.AppendRegistration(nil, v)
		case *auth.Token:
			b, err = authjson.AppendToken(nil, v)
		case *auth.Pending:
			b, err = authjson.AppendPending(nil, v)
		}
		if err != nil {
			return err
		}
		args[1] = string(b)
	}
	if _, err := await(ctx, func() js.Value { return s.hooks.Call(method, args...) }); err != nil {
		return errf.Errorf("mcpwasm: auth: storage.%s: %w", method, err)
	}
	return nil
}

func (s *jsStore) Registration(ctx context.Context, issuer string) (*auth.Registration, error) {
	r := new(auth.Registration)
	if ok, err := s.load(ctx, "registration "+issuer, r); !ok || err != nil {
		return nil, err
	}
	return r, nil
}

func (s *jsStore) SetRegistration(ctx context.Context, issuer string, r *auth.Registration) error {
	return s.save(ctx, "registration "+issuer, r, r == nil)
}

func (s *jsStore) Token(ctx context.Context, resource, issuer string) (*auth.Token, error) {
	t := new(auth.Token)
	if ok, err := s.load(ctx, "token "+issuer+" "+resource, t); !ok || err != nil {
		return nil, err
	}
	return t, nil
}

func (s *jsStore) SetToken(ctx context.Context, resource, issuer string, t *auth.Token) error {
	return s.save(ctx, "token "+issuer+" "+resource, t, t == nil)
}

func (s *jsStore) Pending(ctx context.Context, resource, issuer string) (*auth.Pending, error) {
	p := new(auth.Pending)
	if ok, err := s.load(ctx, "pending "+issuer+" "+resource, p); !ok || err != nil {
		return nil, err
	}
	return p, nil
}

func (s *jsStore) SetPending(ctx context.Context, resource, issuer string, p *auth.Pending) error {
	return s.save(ctx, "pending "+issuer+" "+resource, p, p == nil)
}
