package guest

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/mcpwasm/mcpwasm/core"
	"github.com/mcpwasm/mcpwasm/internal/bridge"
	"github.com/mcpwasm/mcpwasm/internal/errf"
	"github.com/mcpwasm/mcpwasm/jsonrpc"
	"github.com/mcpwasm/mcpwasm/transport/fetch"
	"github.com/mcpwasm/mcpwasm/wasm/abi"
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

// guestCallbacks is the bridge's way to the host: server requests become
// "request" events, warnings "warning" events. Notifications need nothing
// here: every incoming notification becomes a "notification" event (the
// client's OnMessage hook), those named in the configuration only make the
// client watch the lists.
type guestCallbacks struct {
	g  *Guest
	id uint32
}

func (cb guestCallbacks) Ask(ctx context.Context, s *core.Session, method string, params json.RawMessage) (json.RawMessage, error) {
	a, err := cb.g.ask(ctx, &abi.Event{Type: abi.EventRequest, Client: cb.id, Session: cb.g.sessionOf(s), Method: method, Params: params})
	if err != nil {
		return nil, err
	}
	if a.Error != nil {
		return nil, &core.RPCError{Code: a.Error.Code, Message: a.Error.Message, Data: a.Error.Data}
	}
	return a.Result, nil
}

func (guestCallbacks) Notify(*core.Session, string, json.RawMessage) {}

func (cb guestCallbacks) Warn(s *core.Session, err error) {
	cb.g.emit(&abi.Event{Type: abi.EventWarning, Client: cb.id, Session: cb.g.sessionOf(s), Message: err.Error()})
}

func (guestCallbacks) Message(*core.Session, core.Direction, jsonrpc.Message) {}

// invalid turns the bridge's configuration errors into StatusInvalid.
func invalid(err error) error {
	var ce *bridge.ConfigError
	if errf.As(err, &ce) {
		return &Error{Status: abi.StatusInvalid, Msg: strings.TrimPrefix(ce.Error(), "mcpwasm: ")}
	}
	return err
}

// NewClient creates a client from a JSON abi.ClientConfig and returns its
// id.
func (g *Guest) NewClient(config []byte) (uint32, error) {
	cfg, err := bridge.DecodeClientConfig(config)
	if err != nil {
		return 0, invalid(err)
	}
	if cfg.Messages {
		return 0, errorf(abi.StatusInvalid, "client config: messages: the WASI ABI has no message trace")
	}
	g.mu.Lock()
	id := g.newIDLocked()
	g.clients[id] = &client{id: id} // reserve the id; c is set below
	g.mu.Unlock()
	impl, opts, err := cfg.Options(guestCallbacks{g: g, id: id})
	if err != nil {
		g.mu.Lock()
		delete(g.clients, id)
		g.mu.Unlock()
		return 0, invalid(err)
	}
	opts.OnMessage = func(s *core.Session, dir core.Direction, m jsonrpc.Message) {
		if dir != core.Incoming {
			return
		}
		if r, ok := m.(*jsonrpc.Request); ok && r.IsNotification() {
			g.emit(&abi.Event{Type: abi.EventNotification, Client: id, Session: g.sessionOf(s), Method: r.Method, Params: r.Params})
		}
	}
	c := core.NewClient(impl, opts)
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
	if err := bridge.Decode(request, &req, "connect request"); err != nil {
		return 0, invalid(err)
	}
	if err := req.Check(bridge.Host{}); err != nil {
		return 0, invalid(err)
	}
	cn := newConn(clientID)
	var doer fetch.Doer = g.doer
	if req.Auth != nil {
		if doer, err = g.authDoer(req.Auth, cn); err != nil {
			cn.end()
			return 0, invalid(err)
		}
	}
	t, err := fetch.New(req.URL, &fetch.Options{
		Mode:           req.FetchTransportMode(),
		Header:         req.Headers,
		HTTP:           doer,
		MaxMessageSize: req.MaxMessageSize,
		Retry:          req.SSERetry(),
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
		res := bridge.Info(s)
		res.Session = id
		return res.AppendJSON(nil), nil
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
	if err := bridge.Decode(request, (*callRequest)(&req), "request"); err != nil {
		return 0, invalid(err)
	}
	if req.Method == "" {
		return 0, errorf(abi.StatusInvalid, "request: method is required")
	}
	params, err := bridge.Params(req.Params)
	if err != nil {
		return 0, invalid(err)
	}
	select {
	case <-s.s.Done():
		return 0, errorf(abi.StatusClosed, "session %d is closed", sessionID)
	default:
	}
	op, ctx := g.newOp()
	opts := req.CallOptions.Core()
	if req.Progress {
		g.mu.Lock()
		g.progress[op] = true
		g.mu.Unlock()
		opts.OnProgress = func(p *core.ProgressParams) {
			raw, err := bridge.AppendProgress(nil, p)
			if err == nil {
				g.emit(&abi.Event{Type: abi.EventProgress, Op: op, Params: raw})
			}
		}
	}
	g.run(op, ctx, func(ctx context.Context) (json.RawMessage, error) {
		if strings.HasPrefix(req.Method, "mcpwasm/tasks/") {
			return s.taskOp(ctx, req.Method, params, opts) // tasks.go
		}
		return bridge.Call(ctx, s.s, req.Method, params, opts)
	})
	return op, nil
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
	list, err := bridge.UnmarshalRoots(roots)
	if err != nil {
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
	if err := bridge.Decode(answer, (*answerJSON)(&a), "answer"); err != nil {
		return invalid(err)
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
	if errf.As(err, &e) {
		return e.Msg
	}
	return err.Error()
}
