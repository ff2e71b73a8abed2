package core

import (
	"github.com/mcpwasm/mcpwasm/internal/errf"
	"github.com/mcpwasm/mcpwasm/internal/jsonscan"

	"context"
	"errors"
	"sync"
	"time"

	"github.com/mcpwasm/mcpwasm/jsonrpc"
)

// This file answers what a server asks of the client: legacy server→client
// JSON-RPC requests and modern input_required entries go through the same
// fulfil function, so one set of handlers serves both eras.

// serveRequest answers a legacy server→client request.
func (s *Session) serveRequest(m *jsonrpc.Request) {
	// No deferred calls (see dispatchLoop): one way out.
	ctx, cancel := context.WithCancel(s.ctx)
	s.mu.Lock()
	s.incoming[m.ID] = cancel
	version := s.version
	s.mu.Unlock()

	resp := &jsonrpc.Response{ID: m.ID}
	result, err := s.fulfil(ctx, m.Method, m.Params)
	switch {
	case err == nil:
		resp.Result = result
	case ctx.Err() != nil:
		// The session ended, or the server cancelled its request: no
		// response is expected.
		resp = nil
	default:
		resp.Error = wireErrorFor(err)
	}
	if resp != nil {
		sendCtx, stop := context.WithTimeout(s.ctx, 30*time.Second)
		if err := s.send(sendCtx, resp, &SendOptions{ProtocolVersion: version}); err != nil && s.ctx.Err() == nil {
			s.warn(strErr("core: answering %s: %w", m.Method, err))
		}
		stop()
	}
	s.mu.Lock()
	delete(s.incoming, m.ID)
	s.serving--
	s.mu.Unlock()
	cancel()
	s.wg.Done()
}

// wireErrorFor turns a handler error into a JSON-RPC error object.
func wireErrorFor(err error) *jsonrpc.Error {
	var rpc *RPCError
	if errf.As(err, &rpc) {
		return &jsonrpc.Error{Code: rpc.Code, Message: rpc.Message, Data: rpc.Data}
	}
	if errors.Is(err, errUnknownMethod) {
		return &jsonrpc.Error{Code: CodeMethodNotFound, Message: err.Error()}
	}
	if errors.Is(err, errBadParams) {
		return &jsonrpc.Error{Code: CodeInvalidParams, Message: err.Error()}
	}
	return &jsonrpc.Error{Code: CodeInternalError, Message: err.Error()}
}

var (
	errUnknownMethod = errors.New("method not found")
	errBadParams     = errors.New("invalid params")
)

// fulfil runs the handler for one server request and returns its encoded
// result. Panics in handlers become errors.
func (s *Session) fulfil(ctx context.Context, method string, params RawMessage) (result RawMessage, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = errf.Errorf("core: %s handler panicked: %v", method, r)
		}
	}()
	// One return here: a deferred call is expanded at every return of its
	// function.
	return s.runHandlerFor(ctx, method, params)
}

// noHandlerFor is the error of a server request no handler answers.
//
//go:noinline
func noHandlerFor(what string) error {
	return errf.Errorf("%w: %w (%s)", errUnknownMethod, ErrNoHandler, what)
}

// runHandlerFor is fulfil without the recovery.
func (s *Session) runHandlerFor(ctx context.Context, method string, params RawMessage) (result RawMessage, err error) {
	opts := &s.client.opts
	var out any
	switch method {
	case MethodPing:
		return RawMessage("{}"), nil
	case MethodCreateMessage:
		if opts.SamplingHandler == nil {
			return nil, noHandlerFor("sampling")
		}
		var p CreateMessageParams
		if err := unmarshalParams(params, &p); err != nil {
			return nil, err
		}
		r, err := opts.SamplingHandler(ctx, &CreateMessageRequest{Session: s, Params: &p})
		if err != nil {
			return nil, err
		}
		if r == nil {
			return nil, errors.New("core: sampling handler returned no result")
		}
		out = r
	case MethodElicit:
		if opts.ElicitationHandler == nil {
			return nil, noHandlerFor("elicitation")
		}
		var p ElicitParams
		if err := unmarshalParams(params, &p); err != nil {
			return nil, err
		}
		r, err := opts.ElicitationHandler(ctx, &ElicitRequest{Session: s, Params: &p})
		if err != nil {
			return nil, err
		}
		if r == nil {
			return nil, errors.New("core: elicitation handler returned no result")
		}
		if r.Action == ActionAccept && p.Mode != ElicitModeURL && !opts.NoElicitationDefaults {
			applyElicitationDefaults(r, p.RequestedSchema)
		}
		if err := s.checkElicitation(&p, r); err != nil {
			return nil, err
		}
		out = r
	case MethodListRoots:
		if opts.RootsHandler != nil {
			r, err := opts.RootsHandler(ctx, &ListRootsRequest{Session: s, Params: &ListRootsParams{}})
			if err != nil {
				return nil, err
			}
			if r == nil {
				r = &ListRootsResult{}
			}
			r.Roots = nonNilRoots(r.Roots)
			out = r
		} else if roots := s.client.Roots(); roots != nil {
			out = &ListRootsResult{Roots: roots}
		} else {
			return nil, noHandlerFor("roots")
		}
	default:
		return nil, errStr("%w: %s", errUnknownMethod, method)
	}
	var b []byte
	switch r := out.(type) {
	case *ElicitResult:
		b, err = marshalElicitResult(r)
	case *CreateMessageResult:
		b, err = marshalCreateMessageResult(r)
	case *ListRootsResult:
		b, err = marshalListRootsResult(r)
	}
	if err != nil {
		return nil, strErr("core: encoding %s result: %w", method, err)
	}
	return b, nil
}

func nonNilRoots(r []*Root) []*Root {
	if r == nil {
		return []*Root{}
	}
	return r
}

func unmarshalParams(params RawMessage, v any) error {
	if len(params) == 0 {
		return nil
	}
	if err := decodeParamsOf(params, v); err != nil {
		return wrap(errBadParams, err)
	}
	return nil
}

// applyElicitationDefaults fills fields missing from an accepted form with
// the defaults of the requested schema (SEP-1034).
func applyElicitationDefaults(r *ElicitResult, schema RawMessage) {
	if len(schema) == 0 {
		return
	}
	defaults, err := schemaDefaults(schema)
	if err != nil {
		return
	}
	for name, def := range defaults {
		if len(def) == 0 || string(def) == "null" {
			continue
		}
		if _, ok := r.Content[name]; ok {
			continue
		}
		v, err := jsonscan.DecodeWith(def, &jsonscan.DecodeOptions{UseNumber: true})
		if err != nil {
			continue
		}
		if r.Content == nil {
			r.Content = map[string]any{}
		}
		r.Content[name] = withJSONNumbers(v)
	}
}

// fulfilInputs answers every entry of an input_required result, in
// parallel, and returns the inputResponses object.
func (s *Session) fulfilInputs(ctx context.Context, reqs map[string]*InputRequest) (RawMessage, error) {
	type answer struct {
		key string
		raw RawMessage
		err error
	}
	if max := s.client.opts.MaxServerRequests; len(reqs) > max {
		// Each is answered on a goroutine of its own, by the application's
		// handlers: a server may not ask for more at once than it could
		// as legacy server→client requests.
		return nil, errf.Errorf("%w: input_required asks for %d inputs at once, more than %d (ClientOptions.MaxServerRequests)", ErrInvalidResult, len(reqs), max)
	}
	for key, req := range reqs {
		if req == nil {
			return nil, errStr("%w: input request %q is empty", ErrInvalidResult, key)
		}
	}
	answers := make(chan answer, len(reqs))
	var wg sync.WaitGroup
	ctx, cancel := context.WithCancel(ctx)
	for key, req := range reqs {
		wg.Add(1)
		go func() {
			raw, err := s.fulfil(ctx, req.Method, req.Params)
			if err != nil {
				err = &InputError{Key: key, Method: req.Method, Err: err}
				cancel()
			}
			answers <- answer{key, raw, err}
			wg.Done()
		}()
	}
	wg.Wait()
	cancel()
	close(answers)
	out := make(map[string]RawMessage, len(reqs))
	var firstErr error
	for a := range answers {
		if a.err != nil {
			if firstErr == nil || !errors.Is(a.err, context.Canceled) {
				firstErr = a.err
			}
			continue
		}
		out[a.key] = a.raw
	}
	if firstErr != nil {
		return nil, firstErr
	}
	return marshalResponses(out)
}

// marshalResponses is json.Marshal of the inputResponses object.
func marshalResponses(out map[string]RawMessage) (RawMessage, error) {
	m := make(map[string]any, len(out))
	for k, v := range out {
		m[k] = v
	}
	return appendAny(nil, m)
}

// schemaDefaults reads properties.*.default of a JSON Schema as
// json.Unmarshal into struct{ Properties map[string]struct{ Default
// json.RawMessage } } would.
func schemaDefaults(schema []byte) (map[string]RawMessage, error) {
	var w schemaDefaultsWire
	err := decodeShape(schema, &w)
	return w.Properties, err
}

// withJSONNumbers turns the jsonscan.Numbers of a decoded value into
// json.Numbers, what a json.Decoder with UseNumber gives (the type
// applications see in ElicitResult.Content).
func withJSONNumbers(v any) any {
	switch x := v.(type) {
	case jsonscan.Number:
		return Number(x)
	case map[string]any:
		for k, e := range x {
			x[k] = withJSONNumbers(e)
		}
	case []any:
		for i, e := range x {
			x[i] = withJSONNumbers(e)
		}
	}
	return v
}
