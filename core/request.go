package core

import (
	"context"
	"errors"
	"time"

	"github.com/mcpwasm/mcpwasm/internal/errf"
	"github.com/mcpwasm/mcpwasm/internal/jsonscan"
	"github.com/mcpwasm/mcpwasm/jsonrpc"
)

// CallOptions tune one request; nil means the session defaults.
type CallOptions struct {
	// Timeout is the idle timeout of the request. 0 means
	// ClientOptions.RequestTimeout; negative means none.
	Timeout time.Duration
	// ResetTimeoutOnProgress restarts the idle timeout whenever a progress
	// notification for the request arrives.
	ResetTimeoutOnProgress bool
	// MaxTotalTimeout is a hard limit regardless of progress. 0 means
	// ClientOptions.MaxTotalTimeout; negative means none.
	MaxTotalTimeout time.Duration
	// OnProgress receives the request's progress notifications; setting it
	// sends a progress token. It is called on the session's notification
	// goroutine, in order; the progress that arrived before the response
	// has been handed to it when the request returns.
	OnProgress func(*ProgressParams)
	// NoCache skips the ttlMs cache for this request (the fresh result is
	// still stored).
	NoCache bool
	// Meta members added to the request's _meta.
	Meta Meta
	// NoTaskWait makes CallTool return a *TaskCreatedError (with the task's
	// handle) when the server answers with a task, instead of waiting for
	// the task and returning its result (the default).
	NoTaskWait bool
	// OnResponse, when set, is called with each JSON-RPC response without
	// an error that the request receives (one per round of an
	// input_required exchange), on the calling goroutine, before the
	// result is processed; not for a result from the cache. A host that
	// hands results on uses it to read what the decoder recorded of a big
	// result ([jsonrpc.Response.ResultStrings]) when the result returned is
	// still that response's Result.
	OnResponse func(*jsonrpc.Response)

	sub *Subscription // set by Listen: a long-lived subscriptions/listen
	// encode, when set, encodes the Meta values appendAny cannot (set by
	// the generic entry points, see nativeOpts).
	encode func(any) ([]byte, error)
}

// noCallOptions stands for nil CallOptions: the pipeline only reads them.
var noCallOptions CallOptions

// callEra pins the era and version of a request made during the handshake.
type callEra struct {
	era     Era
	version string
}

// Request sends any client request through the session's full pipeline
// (per-request metadata, header mirroring, input_required rounds, version
// renegotiation, session re-initialization, caching, tools/list filtering
// and output-schema validation) and returns the raw result. params is any
// value that encodes as a JSON object, a json.RawMessage, or nil.
func (s *Session) Request(ctx context.Context, method string, params any, opts *CallOptions) (RawMessage, error) {
	raw, err := marshalParams(params)
	if err != nil {
		return nil, err
	}
	return s.call(ctx, method, raw, nativeOpts(opts), nil)
}

// RequestRaw is Request with the params encoded already (a JSON object, or
// nil for none): the path of the JavaScript and WASI hosts. Values in
// opts.Meta must be JSON-shaped (maps, slices, strings, numbers, booleans,
// nil, json.RawMessage), as the hosts' decoded JSON is.
func (s *Session) RequestRaw(ctx context.Context, method string, params RawMessage, opts *CallOptions) (RawMessage, error) {
	return s.call(ctx, method, params, opts, nil)
}

// call is the request pipeline. pin is non-nil during the handshake and
// while restoreLegacyState restores a re-initialized session: such a call
// is never retried, renegotiated or re-initialized.
func (s *Session) call(ctx context.Context, method string, params RawMessage, opts *CallOptions, pin *callEra) (RawMessage, error) {
	return s.callProbe(ctx, method, params, opts, pin, nil)
}

// taskProbe is what the pipeline found out about a tools/call result —
// whether it is a task handle, and the handle — so that CallToolRaw need
// not walk a (possibly multi-megabyte) result a second time.
type taskProbe struct {
	_    [0]func() // not comparable: no generated equality function
	set  bool      // the pipeline checked this result (not a cached one)
	task *wireTask
	ok   bool
	err  error
}

// callProbe is call that, for tools/call, records in probe (when non-nil)
// what it found out about the result.
func (s *Session) callProbe(ctx context.Context, method string, params RawMessage, opts *CallOptions, pin *callEra, probe *taskProbe) (RawMessage, error) {
	if opts == nil {
		opts = &noCallOptions
	}
	user, err := objectMembers(params)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	if s.closed {
		err := s.closedErrLocked()
		s.mu.Unlock()
		return nil, err
	}
	era, version := s.era, s.version
	s.mu.Unlock()
	if pin != nil {
		era, version = pin.era, pin.version
	}

	cacheKey := ""
	if era == EraModern && isCacheable(method) && !s.client.opts.DisableCache {
		cacheKey = method + "\x00" + cacheKeyParams(user)
		if !opts.NoCache {
			if raw, ok := s.cache.get(cacheKey); ok {
				return raw, nil
			}
		}
	}

	spec := &callSpec{method: method, onProg: opts.OnProgress, reset: opts.ResetTimeoutOnProgress, sub: opts.sub}
	spec.timeout = opts.Timeout
	if spec.timeout == 0 {
		spec.timeout = s.client.opts.RequestTimeout
	}
	spec.total = opts.MaxTotalTimeout
	if spec.total == 0 {
		spec.total = s.client.opts.MaxTotalTimeout
	}
	if opts.OnProgress != nil {
		spec.token = jsonrpc.Int64ID(s.nextToken.Add(1))
	}

	var started time.Time // only the maximum total time needs it
	if spec.total > 0 {
		started = s.client.clock.Now()
	}
	var (
		extras        []jsonscan.Member // inputResponses, requestState of an MRTR retry
		rounds        int
		renegotiated  bool
		relisted      bool
		reinitialized bool
		reissued      bool
		attempts      = 1 // for ClientOptions.Retry
	)
	for {
		gen := s.generation()
		if pin == nil {
			s.mu.Lock()
			era, version = s.era, s.version
			s.mu.Unlock()
		}
		wire, err := s.wireParams(era, version, user, opts, spec.token, extras)
		if err != nil {
			return nil, err
		}
		spec.params = wire
		spec.send = SendOptions{ProtocolVersion: version, LongLived: spec.sub != nil}
		if era == EraModern && s.mirrors {
			spec.send.Headers, err = s.mirroredHeaders(method, user)
			if err != nil {
				return nil, err
			}
		}
		resp, err := s.roundTrip(ctx, spec)
		if err != nil {
			if errors.Is(err, ErrSessionExpired) && era == EraLegacy && pin == nil && !reinitialized {
				reinitialized = true
				if rerr := s.reinitialize(ctx, gen); rerr != nil {
					return nil, rerr
				}
				continue
			}
			if errors.Is(err, ErrResponseLost) && era == EraModern && !reissued && ctx.Err() == nil {
				reissued = true // a new request with a new id, once
				if spec.sub != nil {
					s.removeSub(spec.sub) // it is registered again under the new id
				}
				continue
			}
			if d, ok := s.retryDelay(err, method, user, attempts); ok && pin == nil {
				if werr := s.waitRetry(ctx, spec, started, d, err); werr != nil {
					return nil, werr
				}
				attempts++
				continue
			}
			return nil, err
		}
		if resp.Error != nil {
			rpc := rpcErrorFrom(resp.Error)
			switch {
			case rpc.Code == CodeUnsupportedProtocolVersion && era == EraModern && pin == nil && !renegotiated:
				renegotiated = true
				if s.renegotiate(version, rpc.Supported()) {
					continue
				}
			case rpc.Code == CodeHeaderMismatch && method == MethodCallTool && era == EraModern && !relisted:
				// The tool's x-mcp-header annotations may have changed.
				relisted = true
				if _, lerr := s.allTools(ctx); lerr == nil {
					continue
				}
			case rpc.Code == CodeURLElicitationRequired && era == EraLegacy && rounds < s.client.opts.MaxInputRounds:
				rounds++
				if herr := s.completeURLElicitations(ctx, spec, started, rpc); herr != nil {
					return nil, herr
				}
				continue
			}
			return nil, rpc
		}
		result := resp.Result
		if opts.OnResponse != nil {
			opts.OnResponse(resp)
		}
		if err := requireResult(method, result); err != nil {
			return nil, err
		}
		// A modern result's resultType: recorded by the decoder for a large
		// result, else found in one walk of its top-level names.
		var resultType RawMessage
		if era == EraModern {
			resultType = resultMember(resp, result, "resultType")
		}
		if jsonscan.RawStringIs(resultType, ResultTypeInputRequired) {
			if !supportsInputRequired(method) {
				return nil, errStr("%w: %s answered input_required, which it may not", ErrInvalidResult, method)
			}
			if rounds >= s.client.opts.MaxInputRounds {
				return nil, errf.Errorf("%w (%d) for %s", ErrTooManyRounds, rounds, method)
			}
			rounds++
			extras, err = s.answerInputRequired(ctx, result)
			if err != nil {
				return nil, err
			}
			continue
		}
		if method == MethodCallTool {
			w, ok, terr := taskResult(era, result, resultType)
			if probe != nil {
				*probe = taskProbe{set: true, task: w, ok: ok, err: terr}
			}
			if ok {
				return result, nil // a task handle: see tasks.go
			}
		}
		result, err = s.postProcess(method, user, result)
		if err != nil {
			return result, err
		}
		if cacheKey != "" && extras == nil {
			var ttl RawMessage
			if era == EraModern {
				ttl = resultMember(resp, result, "ttlMs")
			}
			s.cache.put(cacheKey, method, stringMember(user, "uri"), result, ttl)
		}
		return result, nil
	}
}

// wireParams assembles the params sent on the wire.
func (s *Session) wireParams(era Era, version string, user []jsonscan.Member, opts *CallOptions, token jsonrpc.ID, extras []jsonscan.Member) (RawMessage, error) {
	var meta []jsonscan.Member
	if era == EraModern {
		s.mu.Lock()
		base, baseJSON, cur := s.metaMembers, s.metaJSON, s.version
		s.mu.Unlock()
		if baseJSON != nil && cur == version && !token.IsValid() && len(opts.Meta) == 0 && memberIndex(user, "_meta") < 0 {
			// The session's _meta as it is: encoded once, not per request.
			ms := make([]jsonscan.Member, len(user), len(user)+len(extras)+1)
			copy(ms, user)
			ms = append(ms, jsonscan.Member{Key: "_meta", Val: baseJSON})
			return appendObject(nil, setMembers(ms, extras...)), nil
		}
		if base == nil || cur != version {
			// During the handshake the session has no committed version.
			base = s.modernMeta(version, "")
		}
		meta = append(make([]jsonscan.Member, 0, len(base)+2), base...)
	}
	if token.IsValid() {
		meta = append(meta, jsonscan.Member{Key: MetaProgressToken, Val: token.AppendJSON(nil)})
	}
	for k, v := range opts.Meta {
		b, err := appendAny(nil, v)
		if err != nil && opts.encode != nil {
			b, err = opts.encode(v)
		}
		if err != nil {
			return nil, strErr("core: encoding _meta[%q]: %w", k, err)
		}
		meta = append(meta, jsonscan.Member{Key: k, Val: b})
	}
	ms := make([]jsonscan.Member, len(user), len(user)+len(extras)+1) // room for _meta and extras
	copy(ms, user)
	return buildParams(ms, meta, extras...)
}

// renegotiate switches to a mutually supported modern version after an
// UnsupportedProtocolVersionError; it reports whether a retry makes sense.
func (s *Session) renegotiate(current string, supported []string) bool {
	modern, _ := splitVersions(s.versions)
	next, ok := pickVersion(modern, supported)
	if !ok {
		return false
	}
	s.mu.Lock()
	if s.version == current {
		s.setVersionLocked(next)
	}
	s.mu.Unlock()
	return true
}

// answerInputRequired fulfils an input_required result and returns the
// members to add to the retry.
func (s *Session) answerInputRequired(ctx context.Context, result RawMessage) ([]jsonscan.Member, error) {
	var ir inputRequiredResult
	if err := decodeInputRequired(result, &ir); err != nil {
		return nil, wrapWhat(ErrInvalidResult, "input_required", err)
	}
	if len(ir.InputRequests) == 0 && len(ir.RequestState) == 0 {
		return nil, wrap(ErrInvalidResult, "input_required result has neither inputRequests nor requestState")
	}
	// Each retry carries exactly what this round asked for: responses to
	// this round's requests and this round's state, or none.
	extras := []jsonscan.Member{{Key: "inputResponses", Val: nil}, {Key: "requestState", Val: nil}}
	if len(ir.InputRequests) > 0 {
		responses, err := s.fulfilInputs(ctx, ir.InputRequests)
		if err != nil {
			return nil, err
		}
		extras[0].Val = responses
	}
	if len(ir.RequestState) > 0 && string(ir.RequestState) != "null" {
		extras[1].Val = ir.RequestState
	}
	return extras, nil
}

// postProcess applies method-specific rules to a complete result.
func (s *Session) postProcess(method string, user []jsonscan.Member, result RawMessage) (RawMessage, error) {
	switch method {
	case MethodListTools:
		return s.registerTools(result)
	case MethodCallTool:
		if s.client.opts.DisableOutputValidation {
			return result, nil
		}
		return result, s.validateOutput(stringMember(user, "name"), result)
	}
	return result, nil
}

// decodeResult decodes a raw result into v (a result type of the typed
// methods).
func decodeResult(method string, raw RawMessage, v any) error {
	if err := decodeTypedResult(raw, v); err != nil {
		return wrapWhat(ErrInvalidResult, method, err)
	}
	return nil
}

// typed runs a request and decodes its result.
func typed[R any](ctx context.Context, s *Session, method string, params any, opts *CallOptions) (*R, error) {
	raw, err := s.Request(ctx, method, params, opts)
	if err != nil && raw == nil {
		return nil, err
	}
	var r R
	if derr := decodeResult(method, raw, &r); derr != nil {
		return nil, derr
	}
	return &r, err
}

// Ping checks that the server is alive: ping on legacy servers,
// server/discover (bypassing the cache) on modern ones, which have no ping.
func (s *Session) Ping(ctx context.Context) error {
	if s.Era() == EraModern {
		_, err := s.call(ctx, MethodDiscover, nil, &CallOptions{NoCache: true}, nil)
		return err
	}
	_, err := s.call(ctx, MethodPing, nil, nil, nil)
	return err
}

// Discover calls server/discover (modern servers only) and returns the
// result, served from the cache while fresh.
func (s *Session) Discover(ctx context.Context, opts *CallOptions) (*DiscoverResult, error) {
	if s.Era() != EraModern {
		return nil, wrap(ErrNotSupported, "server/discover on a legacy server")
	}
	return typed[DiscoverResult](ctx, s, MethodDiscover, nil, opts)
}

// ListTools returns one page of tools (params may be nil). On HTTP
// transports, tools with invalid x-mcp-header annotations are left out and
// reported to ClientOptions.OnWarning.
func (s *Session) ListTools(ctx context.Context, params *PaginatedParams) (*ListToolsResult, error) {
	raw, err := marshalParams(params)
	if err != nil {
		return nil, err
	}
	return s.listTools(ctx, raw)
}

// listTools is ListTools with the params encoded.
func (s *Session) listTools(ctx context.Context, params RawMessage) (*ListToolsResult, error) {
	raw, err := s.call(ctx, MethodListTools, params, nil, nil)
	if err != nil && raw == nil {
		return nil, err
	}
	var r ListToolsResult
	if derr := decodeListToolsResult(raw, &r); derr != nil {
		return nil, wrapWhat(ErrInvalidResult, MethodListTools, derr)
	}
	return &r, err
}

// CallTool calls a tool. A result with isError set is returned without an
// error (use CallToolResult.Err to turn it into one). When the tool
// declared an outputSchema, structuredContent is validated: a mismatch
// returns the result together with an *OutputSchemaError. A server that
// answers with a task (or, on 2026-07-28, insists on the tasks extension;
// on 2025-11-25, lists the tool with taskSupport "required") is waited for
// (see Task.Wait) and the task's result returned; CallOptions.NoTaskWait
// returns its handle in a *TaskCreatedError instead.
func (s *Session) CallTool(ctx context.Context, params *CallToolParams, opts *CallOptions) (*CallToolResult, error) {
	if params == nil || params.Name == "" {
		return nil, wrap(errBadParams, "CallTool needs a tool name")
	}
	return s.callToolTask(ctx, params, opts)
}

// ListResources returns one page of resources.
func (s *Session) ListResources(ctx context.Context, params *PaginatedParams) (*ListResourcesResult, error) {
	return typed[ListResourcesResult](ctx, s, MethodListResources, params, nil)
}

// ListResourceTemplates returns one page of resource templates.
func (s *Session) ListResourceTemplates(ctx context.Context, params *PaginatedParams) (*ListResourceTemplatesResult, error) {
	return typed[ListResourceTemplatesResult](ctx, s, MethodListResourceTemplates, params, nil)
}

// ReadResource reads a resource.
func (s *Session) ReadResource(ctx context.Context, params *ReadResourceParams, opts *CallOptions) (*ReadResourceResult, error) {
	return typed[ReadResourceResult](ctx, s, MethodReadResource, params, opts)
}

// ListPrompts returns one page of prompts.
func (s *Session) ListPrompts(ctx context.Context, params *PaginatedParams) (*ListPromptsResult, error) {
	return typed[ListPromptsResult](ctx, s, MethodListPrompts, params, nil)
}

// GetPrompt gets a prompt.
func (s *Session) GetPrompt(ctx context.Context, params *GetPromptParams, opts *CallOptions) (*GetPromptResult, error) {
	return typed[GetPromptResult](ctx, s, MethodGetPrompt, params, opts)
}

// Complete asks for argument completions.
func (s *Session) Complete(ctx context.Context, params *CompleteParams) (*CompleteResult, error) {
	return typed[CompleteResult](ctx, s, MethodComplete, params, nil)
}

// SetLogLevel sets the minimum level of log messages the server sends:
// logging/setLevel on legacy servers; on modern servers the level is sent
// with every later request.
func (s *Session) SetLogLevel(ctx context.Context, level string) error {
	if s.Era() == EraModern {
		s.mu.Lock()
		s.logLevel = level
		s.rebuildMetaLocked()
		s.mu.Unlock()
		return nil
	}
	if _, err := s.call(ctx, MethodSetLevel, stringParams("level", level), nil, nil); err != nil {
		return err
	}
	s.mu.Lock()
	s.logLevel = level
	s.mu.Unlock()
	return nil
}

// NotifyRootsChanged tells a legacy server that the roots changed
// (notifications/roots/list_changed). Modern servers ask for roots when
// they need them; for them this is a no-op.
func (s *Session) NotifyRootsChanged(ctx context.Context) error {
	if s.Era() != EraLegacy || s.client.Capabilities().Roots == nil {
		return nil
	}
	return s.NotifyRaw(ctx, NotificationRootsChanged, nil)
}
