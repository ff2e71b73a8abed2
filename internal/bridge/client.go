package bridge

import (
	"github.com/mcpwasm/mcpwasm/internal/errf"
	"github.com/mcpwasm/mcpwasm/internal/jsonscan"
	"github.com/mcpwasm/mcpwasm/internal/rawjson"

	"context"

	"github.com/mcpwasm/mcpwasm/core"
	"github.com/mcpwasm/mcpwasm/jsonrpc"
)

// Callbacks is what a host's plumbing implements so that the client can
// reach the application: server→client requests, the notifications the
// configuration asked for, warnings and the protocol trace. Methods may be
// called concurrently, from the session's goroutines.
type Callbacks interface {
	// Ask forwards a server→client request (core.MethodCreateMessage,
	// core.MethodElicit, core.MethodListRoots) with its params JSON and
	// returns the application's result JSON. It must return when ctx ends
	// (the server withdrew the request or the session ended). An error
	// that is (or wraps) a *core.RPCError keeps its code and data.
	Ask(ctx context.Context, s *core.Session, method string, params rawjson.RawMessage) (rawjson.RawMessage, error)
	// Notify delivers a notification named in ClientConfig.Notifications;
	// params is nil for the list-changed ones.
	Notify(s *core.Session, method string, params rawjson.RawMessage)
	// Warn reports a non-fatal problem of the session (core.ClientOptions.OnWarning).
	Warn(s *core.Session, err error)
	// Message receives every JSON-RPC message when ClientConfig.Messages
	// is set.
	Message(s *core.Session, dir core.Direction, m jsonrpc.Message)
}

// DecodeClientConfig decodes and checks a ClientConfig.
func DecodeClientConfig(b []byte) (*ClientConfig, error) {
	var c ClientConfig
	if err := Decode(b, &c, "client options"); err != nil {
		return nil, err
	}
	if err := c.check(); err != nil {
		return nil, err
	}
	return &c, nil
}

// Options assembles the client's identity and core options, with cb as
// the way to the application. Errors are *ConfigError.
func (c *ClientConfig) Options(cb Callbacks) (*core.Implementation, *core.ClientOptions, error) {
	if err := c.check(); err != nil {
		return nil, nil, err
	}
	probe, err := bounded(c.ProbeTimeoutMs, "client options: probeTimeoutMs")
	if err != nil {
		return nil, nil, err
	}
	opts := &core.ClientOptions{
		ProtocolVersions:        c.ProtocolVersions,
		Capabilities:            c.Capabilities,
		SamplingTools:           c.SamplingTools,
		ElicitationModes:        c.ElicitationModes,
		NoElicitationDefaults:   c.NoElicitationDefaults,
		Roots:                   c.Roots,
		LogLevel:                c.LogLevel,
		RequestTimeout:          Timeout(c.RequestTimeoutMs),
		MaxTotalTimeout:         Timeout(c.MaxTotalTimeoutMs),
		ProbeTimeout:            probe,
		MaxInputRounds:          c.MaxInputRounds,
		DisableCache:            c.DisableCache,
		DisableOutputValidation: c.DisableOutputValidation,
		KeepAlive:               max(Timeout(c.KeepAliveMs), 0),
		MaxQueuedNotifications:  c.MaxQueuedNotifications,
		MaxServerRequests:       c.MaxServerRequests,
		Tasks:                   c.Tasks,
		OnWarning:               cb.Warn,
	}
	if r := c.Retry; r != nil {
		d, err := delay(r.DelayMs, "client options: retry.delayMs")
		if err != nil {
			return nil, nil, err
		}
		m, err := delay(r.MaxDelayMs, "client options: retry.maxDelayMs")
		if err != nil {
			return nil, nil, err
		}
		opts.Retry = &core.RetryPolicy{Attempts: r.Attempts, Delay: d, MaxDelay: m}
	}
	if c.Roots != nil && len(c.Roots) == 0 {
		opts.Roots = []*core.Root{}
	}
	if c.Handlers.Sampling {
		opts.SamplingHandler = func(ctx context.Context, req *core.CreateMessageRequest) (*core.CreateMessageResult, error) {
			var r core.CreateMessageResult
			return &r, ask(ctx, cb, req.Session, core.MethodCreateMessage, req.Params, &r, nil)
		}
	}
	if c.Handlers.Elicitation {
		opts.ElicitationHandler = func(ctx context.Context, req *core.ElicitRequest) (*core.ElicitResult, error) {
			// The answer may say "completed" (never sent to the server: see
			// core.ElicitResult.Completed), which the wire type does not read.
			var r core.ElicitResult
			var completed bool
			err := ask(ctx, cb, req.Session, core.MethodElicit, req.Params, &r, func(raw []byte) error {
				return jsonscan.Fields(raw, []string{"completed"}, func(_ int, v []byte) error {
					var err error
					completed, err = jsonscan.Bool(v)
					return err
				})
			})
			r.Completed = completed
			return &r, err
		}
	}
	if c.Handlers.Roots {
		opts.RootsHandler = func(ctx context.Context, req *core.ListRootsRequest) (*core.ListRootsResult, error) {
			var r core.ListRootsResult
			return &r, ask(ctx, cb, req.Session, core.MethodListRoots, req.Params, &r, nil)
		}
	}
	for _, n := range c.Notifications {
		notify := func(s *core.Session, params any) {
			var raw rawjson.RawMessage
			if params != nil {
				b, err := appendNotification(nil, params)
				if err != nil {
					return
				}
				raw = b
			}
			cb.Notify(s, n, raw)
		}
		changed := func(_ context.Context, s *core.Session) { notify(s, nil) }
		switch n {
		case core.NotificationMessage:
			opts.LoggingHandler = func(_ context.Context, s *core.Session, p *core.LoggingMessageParams) { notify(s, p) }
		case core.NotificationProgress:
			opts.ProgressHandler = func(_ context.Context, s *core.Session, p *core.ProgressParams) { notify(s, p) }
		case core.NotificationToolsChanged:
			opts.ToolListChangedHandler = changed
		case core.NotificationPromptsChanged:
			opts.PromptListChangedHandler = changed
		case core.NotificationResourcesChanged:
			opts.ResourceListChangedHandler = changed
		case core.NotificationResourceUpdated:
			opts.ResourceUpdatedHandler = func(_ context.Context, s *core.Session, p *core.ResourceUpdatedParams) { notify(s, p) }
		case core.NotificationElicitComplete:
			opts.ElicitationCompleteHandler = func(_ context.Context, s *core.Session, p *core.ElicitationCompleteParams) { notify(s, p) }
		}
	}
	if c.Messages {
		opts.OnMessage = cb.Message
	}
	impl := *c.ClientInfo
	return &impl, opts, nil
}

// ask forwards a server request through cb and decodes the answer into
// out (and, when extra is non-nil, hands extra the answer too); a
// malformed answer is a JSON-RPC internal error for the server.
func ask(ctx context.Context, cb Callbacks, s *core.Session, method string, params, out any, extra func(raw []byte) error) error {
	b, err := core.AppendWireJSON(nil, params)
	if err != nil {
		return errf.Errorf("mcpwasm: encoding %s params: %w", method, err)
	}
	raw, err := cb.Ask(ctx, s, method, b)
	if err != nil {
		return err
	}
	if len(raw) == 0 || raw[0] != '{' {
		return &core.RPCError{Code: core.CodeInternalError, Message: errf.Sprintf("mcpwasm: the %s handler returned no result object", method)}
	}
	err = core.DecodeWireJSON(raw, out)
	if err == nil && extra != nil {
		err = extra(raw)
	}
	if err != nil {
		return &core.RPCError{Code: core.CodeInternalError, Message: errf.Sprintf("mcpwasm: the %s handler returned an invalid result: %v", method, err)}
	}
	return nil
}
