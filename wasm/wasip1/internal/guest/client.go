package guest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/mcpwasm/mcpwasm/core"
	"github.com/mcpwasm/mcpwasm/jsonrpc"
	"github.com/mcpwasm/mcpwasm/transport/fetch"
	"github.com/mcpwasm/mcpwasm/wasm/wasip1/abi"
)

// client is an ABI client: one core.Client.
type client struct {
	id uint32
	c  *core.Client
}

// session is an ABI session: one core.Session.
type session struct {
	id     uint32
	client uint32
	s      *core.Session
	tasks  taskTable // tasks.go
}

// question is a server→client request waiting for the host's answer.
type question struct {
	id     uint32
	answer chan *abi.Answer // buffered, 1
}

// checkVersions refuses protocol versions the client does not speak.
func checkVersions(vs []string, what string) error {
	for _, v := range vs {
		if !slices.Contains(core.SupportedVersions(), v) {
			return errorf(abi.StatusInvalid, "%s: unsupported protocol version %q (supported: %v)", what, v, core.SupportedVersions())
		}
	}
	return nil
}

func ms(v int64) time.Duration {
	if v < 0 {
		return -1
	}
	return time.Duration(v) * time.Millisecond
}

// NewClient creates a client from a JSON abi.ClientConfig and returns its
// id.
func (g *Guest) NewClient(config []byte) (uint32, error) {
	var cfg abi.ClientConfig
	if err := decodeStrict(config, &cfg, "client config"); err != nil {
		return 0, err
	}
	var impl core.Implementation
	if len(cfg.ClientInfo) == 0 {
		return 0, errorf(abi.StatusInvalid, "client config: clientInfo is required")
	}
	if err := json.Unmarshal(cfg.ClientInfo, &impl); err != nil {
		return 0, errorf(abi.StatusInvalid, "client config: clientInfo: %v", err)
	}
	if impl.Name == "" || impl.Version == "" {
		return 0, errorf(abi.StatusInvalid, "client config: clientInfo needs a name and a version")
	}
	opts := &core.ClientOptions{
		ProtocolVersions:        cfg.ProtocolVersions,
		SamplingTools:           cfg.SamplingTools,
		ElicitationModes:        cfg.ElicitationModes,
		NoElicitationDefaults:   cfg.NoElicitationDefaults,
		LogLevel:                cfg.LogLevel,
		RequestTimeout:          ms(cfg.RequestTimeoutMs),
		MaxTotalTimeout:         ms(cfg.MaxTotalTimeoutMs),
		ProbeTimeout:            ms(cfg.ProbeTimeoutMs),
		MaxInputRounds:          cfg.MaxInputRounds,
		DisableCache:            cfg.DisableCache,
		DisableOutputValidation: cfg.DisableOutputValidation,
		KeepAlive:               ms(cfg.KeepAliveMs),
		MaxQueuedNotifications:  cfg.MaxQueuedNotifications,
		MaxServerRequests:       cfg.MaxServerRequests,
		Tasks:                   cfg.Tasks,
	}
	if r := cfg.Retry; r != nil {
		opts.Retry = &core.RetryPolicy{Attempts: r.Attempts, Delay: ms(r.DelayMs), MaxDelay: ms(r.MaxDelayMs)}
	}
	if err := checkVersions(cfg.ProtocolVersions, "client config"); err != nil {
		return 0, err
	}
	for _, m := range cfg.ElicitationModes {
		if m != core.ElicitModeForm && m != core.ElicitModeURL {
			return 0, errorf(abi.StatusInvalid, "client config: unknown elicitation mode %q", m)
		}
	}
	if len(cfg.Capabilities) > 0 {
		opts.Capabilities = &core.ClientCapabilities{}
		if err := json.Unmarshal(cfg.Capabilities, opts.Capabilities); err != nil {
			return 0, errorf(abi.StatusInvalid, "client config: capabilities: %v", err)
		}
	}
	if len(cfg.Roots) > 0 {
		if err := json.Unmarshal(cfg.Roots, &opts.Roots); err != nil {
			return 0, errorf(abi.StatusInvalid, "client config: roots: %v", err)
		}
		if opts.Roots == nil {
			opts.Roots = []*core.Root{}
		}
	}
	for _, name := range cfg.ListChanged {
		noop := func(context.Context, *core.Session) {}
		switch name {
		case "tools":
			opts.ToolListChangedHandler = noop
		case "prompts":
			opts.PromptListChangedHandler = noop
		case "resources":
			opts.ResourceListChangedHandler = noop
		default:
			return 0, errorf(abi.StatusInvalid, "client config: unknown listChanged kind %q (want tools, prompts or resources)", name)
		}
	}

	g.mu.Lock()
	id := g.newIDLocked()
	g.clients[id] = &client{id: id} // reserve the id; c is set below
	g.mu.Unlock()

	if cfg.Handlers.Sampling {
		opts.SamplingHandler = func(ctx context.Context, req *core.CreateMessageRequest) (*core.CreateMessageResult, error) {
			var r core.CreateMessageResult
			return &r, g.askMCP(ctx, id, req.Session, core.MethodCreateMessage, req.Params, &r)
		}
	}
	if cfg.Handlers.Elicitation {
		opts.ElicitationHandler = func(ctx context.Context, req *core.ElicitRequest) (*core.ElicitResult, error) {
			var r core.ElicitResult
			return &r, g.askMCP(ctx, id, req.Session, core.MethodElicit, req.Params, &r)
		}
	}
	if cfg.Handlers.Roots {
		opts.RootsHandler = func(ctx context.Context, req *core.ListRootsRequest) (*core.ListRootsResult, error) {
			var r core.ListRootsResult
			return &r, g.askMCP(ctx, id, req.Session, core.MethodListRoots, req.Params, &r)
		}
	}
	opts.OnMessage = func(s *core.Session, dir core.Direction, m jsonrpc.Message) {
		if dir != core.Incoming {
			return
		}
		if r, ok := m.(*jsonrpc.Request); ok && r.IsNotification() {
			g.emit(&abi.Event{Type: abi.EventNotification, Client: id, Session: g.sessionOf(s), Method: r.Method, Params: r.Params})
		}
	}
	opts.OnWarning = func(s *core.Session, err error) {
		g.emit(&abi.Event{Type: abi.EventWarning, Client: id, Session: g.sessionOf(s), Message: err.Error()})
	}
	c := core.NewClient(&impl, opts)
	g.mu.Lock()
	g.clients[id].c = c
	g.mu.Unlock()
	return id, nil
}

// FreeClient forgets a client. Its sessions stay open.
func (g *Guest) FreeClient(id uint32) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.clients[id] == nil {
		return errorf(abi.StatusNotFound, "no client %d", id)
	}
	delete(g.clients, id)
	return nil
}

func (g *Guest) sessionOf(s *core.Session) uint32 {
	if s == nil {
		return 0
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.bySession[s]
}

func (g *Guest) client(id uint32) (*client, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	c := g.clients[id]
	if c == nil || c.c == nil {
		return nil, errorf(abi.StatusNotFound, "no client %d", id)
	}
	return c, nil
}

func (g *Guest) session(id uint32) (*session, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	s := g.sessions[id]
	if s == nil {
		return nil, errorf(abi.StatusNotFound, "no session %d", id)
	}
	return s, nil
}

// Connect starts connecting a client to a server (JSON abi.ConnectRequest)
// and returns the operation id. The result is an abi.ConnectResult.
func (g *Guest) Connect(clientID uint32, request []byte) (uint32, error) {
	c, err := g.client(clientID)
	if err != nil {
		return 0, err
	}
	var req abi.ConnectRequest
	if err := decodeStrict(request, &req, "connect request"); err != nil {
		return 0, err
	}
	if err := checkVersions(req.ProtocolVersions, "connect request"); err != nil {
		return 0, err
	}
	cn := newConn(clientID)
	var doer fetch.Doer = g.doer
	if req.Auth != nil {
		if doer, err = g.authDoer(req.Auth, cn); err != nil {
			cn.end()
			return 0, err
		}
	}
	t, err := fetch.New(req.URL, &fetch.Options{
		Mode:           req.Mode,
		Header:         req.Headers,
		HTTP:           doer,
		MaxMessageSize: req.MaxMessageSize,
		Retry:          ms(req.RetryMs),
		MaxReconnects:  req.MaxReconnects,
	})
	if err != nil {
		cn.end()
		return 0, errorf(abi.StatusInvalid, "connect request: %v", err)
	}
	op, ctx := g.newOp()
	g.run(op, ctx, func(ctx context.Context) (json.RawMessage, error) {
		connected := false
		defer func() {
			if !connected {
				cn.end() // also when Connect panics
			}
		}()
		s, err := c.c.Connect(ctx, t, &core.ConnectOptions{ProtocolVersions: req.ProtocolVersions})
		if err != nil {
			return nil, err
		}
		connected = true
		g.mu.Lock()
		id := g.newIDLocked()
		g.sessions[id] = &session{id: id, client: clientID, s: s}
		g.bySession[s] = id
		g.mu.Unlock()
		cn.id.Store(id)
		go g.watch(id, s, cn.end)
		res := &abi.ConnectResult{
			Session:         id,
			Era:             s.Era().String(),
			ProtocolVersion: s.ProtocolVersion(),
			SessionID:       s.ID(),
			Instructions:    s.Instructions(),
		}
		if info := s.ServerInfo(); info != nil {
			res.ServerInfo, _ = json.Marshal(info)
		}
		res.ServerCapabilities, _ = json.Marshal(s.ServerCapabilities())
		return json.Marshal(res)
	})
	return op, nil
}

// watch reports the end of a session, and ends what belongs to it.
func (g *Guest) watch(id uint32, s *core.Session, end func()) {
	<-s.Done()
	end()
	g.mu.Lock()
	delete(g.sessions, id)
	delete(g.bySession, s)
	g.mu.Unlock()
	ev := &abi.Event{Type: abi.EventClosed, Session: id}
	if err := s.Err(); err != nil {
		ev.Error = &abi.Error{Kind: abi.KindClosed, Message: err.Error()}
	}
	g.emit(ev)
}

// Request starts a client request (JSON abi.CallRequest) on a session and
// returns the operation id. The result is the raw MCP result.
func (g *Guest) Request(sessionID uint32, request []byte) (uint32, error) {
	s, err := g.session(sessionID)
	if err != nil {
		return 0, err
	}
	var req abi.CallRequest
	if err := decodeStrict(request, &req, "request"); err != nil {
		return 0, err
	}
	if req.Method == "" {
		return 0, errorf(abi.StatusInvalid, "request: method is required")
	}
	params := req.Params
	if string(params) == "null" {
		params = nil
	}
	if len(params) > 0 && params[0] != '{' {
		return 0, errorf(abi.StatusInvalid, "request: params must be a JSON object")
	}
	select {
	case <-s.s.Done():
		return 0, errorf(abi.StatusClosed, "session %d is closed", sessionID)
	default:
	}
	op, ctx := g.newOp()
	opts := &core.CallOptions{
		Timeout:                ms(req.TimeoutMs),
		ResetTimeoutOnProgress: req.ResetTimeoutOnProgress,
		MaxTotalTimeout:        ms(req.MaxTotalTimeoutMs),
		NoCache:                req.NoCache,
		Meta:                   req.Meta,
		NoTaskWait:             req.NoTaskWait,
	}
	if req.Progress {
		g.mu.Lock()
		g.progress[op] = true
		g.mu.Unlock()
		opts.OnProgress = func(p *core.ProgressParams) {
			raw, err := json.Marshal(p)
			if err == nil {
				g.emit(&abi.Event{Type: abi.EventProgress, Op: op, Params: raw})
			}
		}
	}
	g.run(op, ctx, func(ctx context.Context) (json.RawMessage, error) {
		if strings.HasPrefix(req.Method, "mcpwasm/tasks/") {
			return s.taskOp(ctx, req.Method, params, opts) // tasks.go
		}
		return call(ctx, s.s, req.Method, params, opts)
	})
	return op, nil
}

// call runs one request; a few methods are mapped to their era-independent
// session methods.
func call(ctx context.Context, s *core.Session, method string, params json.RawMessage, opts *core.CallOptions) (json.RawMessage, error) {
	var p struct {
		URI   string `json:"uri"`
		Level string `json:"level"`
	}
	switch method {
	case core.MethodSubscribe, core.MethodUnsubscribe, core.MethodSetLevel:
		if err := json.Unmarshal(params, &p); err != nil {
			return nil, errorf(abi.StatusInvalid, "%s params: %v", method, err)
		}
	}
	var err error
	switch method {
	case core.MethodSubscribe:
		err = s.Subscribe(ctx, p.URI)
	case core.MethodUnsubscribe:
		err = s.Unsubscribe(ctx, p.URI)
	case core.MethodSetLevel:
		err = s.SetLogLevel(ctx, p.Level)
	case core.MethodPing:
		err = s.Ping(ctx)
	case core.MethodCallTool:
		return s.CallToolRaw(ctx, params, opts) // waits for a task the server insists on
	default:
		return s.Request(ctx, method, params, opts)
	}
	return nil, err
}

// Close starts closing a session and returns the operation id; a legacy
// HTTP session is deleted on the server. The session's "closed" event
// follows.
func (g *Guest) Close(sessionID uint32) (uint32, error) {
	s, err := g.session(sessionID)
	if err != nil {
		return 0, err
	}
	op, ctx := g.newOp()
	g.run(op, ctx, func(context.Context) (json.RawMessage, error) {
		return nil, s.s.Close()
	})
	return op, nil
}

// SetRoots replaces a client's static roots (a JSON array of Root objects)
// and notifies its legacy sessions; it returns the operation id.
func (g *Guest) SetRoots(clientID uint32, roots []byte) (uint32, error) {
	c, err := g.client(clientID)
	if err != nil {
		return 0, err
	}
	var list []*core.Root
	if err := json.Unmarshal(roots, &list); err != nil {
		return 0, errorf(abi.StatusInvalid, "roots: %v", err)
	}
	for _, r := range list {
		if r == nil || r.URI == "" {
			return 0, errorf(abi.StatusInvalid, "roots: every root needs a uri")
		}
	}
	op, ctx := g.newOp()
	g.run(op, ctx, func(ctx context.Context) (json.RawMessage, error) {
		c.c.SetRoots(ctx, list)
		return nil, nil
	})
	return op, nil
}

// askMCP emits a server→client request and waits for the host's answer,
// which it decodes into out.
func (g *Guest) askMCP(ctx context.Context, clientID uint32, s *core.Session, method string, params any, out any) error {
	raw, err := json.Marshal(params)
	if err != nil {
		return fmt.Errorf("mcpwasm: encoding %s params: %w", method, err)
	}
	a, err := g.ask(ctx, &abi.Event{Type: abi.EventRequest, Client: clientID, Session: g.sessionOf(s), Method: method, Params: raw})
	if err != nil {
		return err
	}
	if a.Error != nil {
		return &core.RPCError{Code: a.Error.Code, Message: a.Error.Message, Data: a.Error.Data}
	}
	if err := json.Unmarshal(a.Result, out); err != nil {
		return &core.RPCError{Code: core.CodeInternalError, Message: fmt.Sprintf("the client's %s answer is malformed: %v", method, err)}
	}
	return nil
}

// ask emits ev (a "request" or "authorize" event) under a new question id
// and waits for the host's answer; when ctx ends first the question is
// withdrawn with a "cancel" event.
func (g *Guest) ask(ctx context.Context, ev *abi.Event) (*abi.Answer, error) {
	q := &question{answer: make(chan *abi.Answer, 1)}
	g.mu.Lock()
	q.id = g.newIDLocked()
	g.questions[q.id] = q
	g.mu.Unlock()
	ev.ID = q.id
	g.emit(ev)
	select {
	case a := <-q.answer:
		return a, nil
	case <-ctx.Done():
		g.mu.Lock()
		_, waiting := g.questions[q.id]
		delete(g.questions, q.id)
		g.mu.Unlock()
		if waiting {
			g.emit(&abi.Event{Type: abi.EventCancel, ID: q.id})
		}
		return nil, ctx.Err()
	}
}

// Answer delivers the host's answer (JSON abi.Answer) to question id. A
// malformed answer is refused and the question stays open.
func (g *Guest) Answer(id uint32, answer []byte) error {
	var a abi.Answer
	if err := decodeStrict(answer, &a, "answer"); err != nil {
		return err
	}
	if (a.Error == nil) == (len(a.Result) == 0 || string(a.Result) == "null") {
		return errorf(abi.StatusInvalid, "answer: exactly one of result and error is required")
	}
	if a.Error != nil && a.Error.Code == 0 {
		a.Error.Code = core.CodeInternalError
	}
	if len(a.Result) > 0 && a.Result[0] != '{' {
		return errorf(abi.StatusInvalid, "answer: result must be a JSON object")
	}
	g.mu.Lock()
	q := g.questions[id]
	delete(g.questions, id)
	g.mu.Unlock()
	if q == nil {
		return errorf(abi.StatusNotFound, "no open request %d (answered, cancelled or never asked)", id)
	}
	q.answer <- &a // buffered; the only send
	return nil
}

// ErrorMessage returns err's message for mcpwasm_last_error.
func ErrorMessage(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.Msg
	}
	return err.Error()
}
