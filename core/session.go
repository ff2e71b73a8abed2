package core

import (
	"context"
	"errors"
	"io"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mcpwasm/mcpwasm/internal/callctx"
	"github.com/mcpwasm/mcpwasm/internal/errf"
	"github.com/mcpwasm/mcpwasm/internal/gopool"
	"github.com/mcpwasm/mcpwasm/internal/jsonscan"
	"github.com/mcpwasm/mcpwasm/internal/timerq"
	"github.com/mcpwasm/mcpwasm/jsonrpc"
)

// Session is one connection to an MCP server, made by Client.Connect. All
// methods are safe for concurrent use. A session ends when Close is called
// or the connection fails; Done and Err report it.
type Session struct {
	client    *Client
	transport Transport
	conn      Conn
	versions  []string // accepted protocol versions, in preference order
	eraKey    string
	mirrors   bool // conn mirrors request fields into HTTP headers

	ctx    context.Context // cancelled when the session ends
	cancel context.CancelFunc

	timeouts *timerq.Queue // the idle timeouts of inline calls with the default timeout
	metaMemo metaMemo      // the last tools/call result _meta decoded (wiredec.go)

	nextID    atomic.Int64
	nextToken atomic.Int64

	// Lock order. A goroutine that holds one of these locks takes only locks
	// listed after it, never one before it:
	//
	//  1. managed.op serializes the refreshes of the session's own
	//     subscription stream (modern era) and is held across the listen
	//     request, so across everything below it;
	//  2. reinitMu serializes re-initializing an expired legacy session and is
	//     held across the initialize exchange and restoreLegacyState's
	//     requests (pinned, so that they never re-initialize and take it
	//     again), so across everything below it;
	//  3. mu, the session's state;
	//  4. cache.mu and notes.mu, taken under mu (setVersionLocked clears the
	//     cache, Stats counts the queue).
	//
	// Every other lock is a leaf, taken with no other lock held by that code and
	// released before anything else is locked: managed.mu, elicits.mu,
	// taskWatch.mu, each Subscription's and Task's mu, and Client.mu (the
	// client copies its session set under it and calls sessions after
	// releasing it). No lock is held while a handler of the caller's runs or
	// while waiting on the network, except op and reinitMu as said above.
	mu           sync.Mutex // guards the fields below up to closeErr
	era          Era
	version      string
	serverInfo   *Implementation
	serverCaps   *ServerCapabilities
	instructions string
	initResult   *InitializeResult
	discover     *DiscoverResult
	logLevel     string
	metaMembers  []jsonscan.Member // modern _meta members: version, caps, info (and log level); never modified, only replaced
	metaJSON     RawMessage        // metaMembers encoded: the _meta of a request that adds nothing to it
	pending      map[int64]*pendingCall
	progress     map[jsonrpc.ID]*pendingCall
	incoming     map[jsonrpc.ID]context.CancelFunc // legacy server→client requests in flight
	serving      int                               // admitted server→client requests (admitServerRequest)
	refusing     int                               // refusals being sent
	tools        map[string]*toolInfo
	subs         map[int64]*Subscription
	closed       bool
	closeErr     error

	capsJSON RawMessage
	infoJSON RawMessage

	cache    resultCache
	notes    notificationQueue
	managed  managedListen
	reinitMu sync.Mutex   // before mu; held across the network (see the lock order at mu)
	reinitN  atomic.Int64 // generation of the legacy session; bumped by reinitialize

	done    chan struct{}
	wg      sync.WaitGroup // reader, dispatcher, handler goroutines
	sends   *gopool.Pool   // the goroutines that run request sends
	elicits elicitWaiters

	taskWatch taskWatchers // tasks being waited for (tasks.go)
}

type pendingCall struct {
	id    int64
	ch    chan *jsonrpc.Response // buffered, 1
	touch chan struct{}          // buffered, 1: progress arrived (nil for inline calls)
	// progressed is set when a progress notification for the call was
	// queued for its OnProgress: the call then returns only after it ran.
	progressed atomic.Bool
	// onTouch, when set, runs when progress for the call arrives (it
	// restarts an inline call's idle timer). Guarded by Session.mu.
	onTouch func()
	onProg  func(*ProgressParams)
	token   jsonrpc.ID
	version string // the protocol version the request was sent with
	// sendCtx is the context an inline call sends under (roundTripInline):
	// the caller's, ended by the call's timers and its transport too.
	sendCtx callctx.Ctx
	// idle is an inline call's idle timeout on the session's shared queue
	// (the client's default timeout); it fires p.Fire.
	idle timerq.Timer
}

// Fire ends an inline call's send: its idle timeout (on the session's
// shared queue) expired.
func (p *pendingCall) Fire() { p.sendCtx.End(errIdleTimeout) }

// maxIdleSenders bounds the idle goroutines a session keeps for sends.
const maxIdleSenders = 16

func newSession(c *Client, t Transport, versions []string, key string) *Session {
	s := &Session{
		client:    c,
		transport: t,
		versions:  versions,
		eraKey:    key,
		pending:   map[int64]*pendingCall{},
		progress:  map[jsonrpc.ID]*pendingCall{},
		incoming:  map[jsonrpc.ID]context.CancelFunc{},
		tools:     map[string]*toolInfo{},
		subs:      map[int64]*Subscription{},
		done:      make(chan struct{}),
		sends:     gopool.New(maxIdleSenders),
		capsJSON:  c.marshalCapabilities(),
	}
	s.infoJSON, _ = marshalImplementation(&c.impl)
	s.cache.clock = c.clock
	s.timeouts = timerq.New(queueClock{c.clock}, c.opts.RequestTimeout)
	s.ctx, s.cancel = context.WithCancel(context.Background())
	s.notes.init(c.opts.MaxQueuedNotifications, s.notesDropped)
	s.elicits.init()
	return s
}

// start connects the transport, starts the reader and runs the handshake.
func (s *Session) start(ctx context.Context) error {
	conn, err := s.transport.Connect(ctx)
	if err != nil {
		return err
	}
	s.conn = conn
	if w, ok := conn.(Warner); ok {
		w.SetWarn(s.warn)
	}
	if m, ok := conn.(HeaderMirroring); ok {
		s.mirrors = m.MirrorsHeaders()
	}
	if d, ok := conn.(DirectConn); ok {
		d.SetDeliver(s.receive)
	}
	s.wg.Add(2)
	go s.readLoop()
	go s.dispatchLoop()
	return s.handshake(ctx)
}

// Client returns the client that made the session.
func (s *Session) Client() *Client { return s.client }

// Era returns the protocol era of the server.
func (s *Session) Era() Era {
	s.mu.Lock()
	v := s.era
	s.mu.Unlock()
	return v
}

// ProtocolVersion returns the negotiated protocol version.
func (s *Session) ProtocolVersion() string {
	s.mu.Lock()
	v := s.version
	s.mu.Unlock()
	return v
}

// ServerInfo returns the server's identity (nil if it sent none).
func (s *Session) ServerInfo() *Implementation {
	s.mu.Lock()
	v := s.serverInfo
	s.mu.Unlock()
	return v
}

// ServerCapabilities returns the server's capabilities (never nil).
func (s *Session) ServerCapabilities() *ServerCapabilities {
	s.mu.Lock()
	v := s.serverCaps
	s.mu.Unlock()
	if v == nil {
		return &ServerCapabilities{}
	}
	return v
}

// Instructions returns the server's instructions.
func (s *Session) Instructions() string {
	s.mu.Lock()
	v := s.instructions
	s.mu.Unlock()
	return v
}

// InitializeResult returns the legacy initialize result (nil for modern
// servers).
func (s *Session) InitializeResult() *InitializeResult {
	s.mu.Lock()
	v := s.initResult
	s.mu.Unlock()
	return v
}

// DiscoverResult returns the modern server/discover result (nil for legacy
// servers).
func (s *Session) DiscoverResult() *DiscoverResult {
	s.mu.Lock()
	v := s.discover
	s.mu.Unlock()
	return v
}

// ID returns the server-assigned session id of a legacy HTTP session, or "".
func (s *Session) ID() string {
	if c, ok := s.conn.(SessionIDer); ok {
		return c.SessionID()
	}
	return ""
}

// Done is closed when the session has ended.
func (s *Session) Done() <-chan struct{} { return s.done }

// Err returns why the session ended: nil while it runs or after Close, the
// connection error otherwise.
func (s *Session) Err() error {
	s.mu.Lock()
	v := s.closeErr
	s.mu.Unlock()
	return v
}

// Close ends the session: pending calls fail with ErrClosed, subscriptions
// end, the connection closes (a legacy HTTP session is deleted on the
// server). It waits for the session's goroutines, including running
// handlers, to return. It is safe to call more than once.
func (s *Session) Close() error {
	s.shutdown(nil)
	var err error
	if s.conn != nil {
		err = s.conn.Close()
	}
	s.wg.Wait()
	return err
}

// shutdown marks the session closed and fails everything pending.
func (s *Session) shutdown(cause error) {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return
	}
	s.closed = true
	s.closeErr = cause
	pend := s.pending
	s.pending = map[int64]*pendingCall{}
	subs := s.subs
	s.subs = map[int64]*Subscription{}
	s.mu.Unlock()

	s.cancel()
	err := cause
	if err == nil {
		err = ErrClosed
	} else {
		err = errf.Errorf("%w: %w", ErrClosed, cause)
	}
	for _, p := range pend {
		p.ch <- &jsonrpc.Response{TransportErr: err}
	}
	for _, sub := range subs {
		sub.finish(err)
	}
	s.timeouts.Close()
	s.notes.close()
	s.sends.Close()
	close(s.done)
	s.client.forget(s)
}

// warn reports err to ClientOptions.OnWarning. Not inlined: it is called
// from some twenty cold places.
//
//go:noinline
func (s *Session) warn(err error) {
	if f := s.client.opts.OnWarning; f != nil {
		f(s, err)
	}
}

func (s *Session) tee(dir Direction, m jsonrpc.Message) {
	if f := s.client.opts.OnMessage; f != nil {
		f(s, dir, m)
	}
}

// readLoop receives messages until the connection ends.
func (s *Session) readLoop() {
	for {
		msg, err := s.conn.Recv(s.ctx)
		if err != nil {
			if errors.Is(err, io.EOF) || s.ctx.Err() != nil {
				err = nil
			}
			s.shutdown(err)
			break
		}
		s.receive(msg)
	}
	s.wg.Done()
}

// receive routes one incoming message. It runs on the reader goroutine,
// or on a DirectConn's goroutines.
func (s *Session) receive(msg jsonrpc.Message) {
	s.tee(Incoming, msg)
	switch m := msg.(type) {
	case *jsonrpc.Response:
		s.deliver(m)
	case *jsonrpc.Request:
		if m.IsNotification() {
			s.onNotification(m)
		} else if s.admitServerRequest(m) {
			s.wg.Add(1)
			go s.serveRequest(m)
		}
	}
}

// deliver routes a response to its pending call.
func (s *Session) deliver(r *jsonrpc.Response) {
	id, ok := r.ID.Int64()
	if !ok {
		// We only issue integer ids. An error without an id may be a
		// server's reply to an unparseable message: report it.
		switch {
		case r.TransportErr != nil:
			s.warn(r.TransportErr)
		case r.Error != nil:
			s.warn(errf.Errorf("core: server error without a request id: %w", rpcErrorFrom(r.Error)))
		default:
			s.warn(errf.Errorf("%w: response with unknown id %v", ErrInvalidResult, r.ID))
		}
		return
	}
	s.mu.Lock()
	p := s.pending[id]
	if p != nil {
		delete(s.pending, id)
	}
	s.mu.Unlock()
	if p == nil {
		// A late answer to a cancelled or timed-out request.
		return
	}
	select {
	case p.ch <- r:
	default:
	}
}

// register adds a pending call.
func (s *Session) register(p *pendingCall) error {
	s.mu.Lock()
	var err error
	if s.closed {
		err = s.closedErrLocked()
	} else {
		s.pending[p.id] = p
		if p.token.IsValid() {
			s.progress[p.token] = p
		}
	}
	s.mu.Unlock()
	return err
}

//go:noinline
func (s *Session) closedErrLocked() error {
	if s.closeErr != nil {
		return errf.Errorf("%w: %w", ErrClosed, s.closeErr)
	}
	return ErrClosed
}

func (s *Session) unregister(p *pendingCall) {
	s.mu.Lock()
	if s.pending[p.id] == p {
		delete(s.pending, p.id)
	}
	if p.token.IsValid() && s.progress[p.token] == p {
		delete(s.progress, p.token)
	}
	s.mu.Unlock()
}

// send transmits a message and tees it.
func (s *Session) send(ctx context.Context, m jsonrpc.Message, opts *SendOptions) error {
	s.tee(Outgoing, m)
	return s.conn.Send(ctx, m, opts)
}

// callSpec describes one wire request.
type callSpec struct {
	method  string
	params  RawMessage // final params, _meta included
	send    SendOptions
	timeout time.Duration // idle timeout; <0 none
	total   time.Duration // hard maximum; 0 none
	reset   bool          // progress resets the idle timeout
	onProg  func(*ProgressParams)
	token   jsonrpc.ID
	sub     *Subscription // set for subscriptions/listen (a long-lived request)
}

// roundTrip sends one request and waits for its response. It returns the
// response (which may carry a JSON-RPC error) or a Go error for transport
// failures, timeouts and cancellation; on timeout or cancellation the
// request is cancelled on the wire.
func (s *Session) roundTrip(ctx context.Context, c *callSpec) (*jsonrpc.Response, error) {
	id := s.nextID.Add(1)
	p := &pendingCall{
		id:      id,
		ch:      make(chan *jsonrpc.Response, 1),
		onProg:  c.onProg,
		token:   c.token,
		version: c.send.ProtocolVersion,
	}
	if c.sub != nil {
		p.touch = make(chan struct{}, 1) // read by await (set before register publishes p)
		c.sub.id = id
	}
	if err := s.register(p); err != nil {
		return nil, err
	}
	if c.sub != nil {
		s.addSub(c.sub)
	}
	req := &jsonrpc.Request{ID: jsonrpc.Int64ID(id), Method: c.method, Params: c.params}
	var (
		r   *jsonrpc.Response
		err error
	)
	if c.sub != nil {
		r, err = s.roundTripBeside(ctx, p, c, req)
	} else {
		r, err = s.roundTripInline(ctx, p, c, req)
	}
	if err == nil && p.progressed.Load() {
		// Progress callbacks run before the call returns.
		s.drainNotes(ctx)
	}
	s.unregister(p) // not deferred: one way out
	return r, err
}

// roundTripInline sends req on the calling goroutine: an HTTP transport's
// Send lasts until the server answered (and, for a response it reads
// itself, until that response was delivered), and the wait for the answer
// and its timeouts apply to that time too, so they cancel the send. A
// goroutine switch costs a lot inside WebAssembly (the whole stack unwinds
// and rewinds), and this path has none of its own.
func (s *Session) roundTripInline(ctx context.Context, p *pendingCall, c *callSpec, req *jsonrpc.Request) (*jsonrpc.Response, error) {
	// No deferred calls: one way out, where the timers and the send's
	// context stop (each deferred call is expanded at every return).
	sendCtx := &p.sendCtx
	sendCtx.Start(ctx)
	clk := s.client.clock
	var idle, total timer
	shared := false
	if c.timeout > 0 && !c.reset && c.timeout == s.timeouts.Duration() {
		// The client's default timeout: on the session's one timer
		// (internal/timerq), not a runtime timer per call.
		s.timeouts.Start(&p.idle, p)
		shared = true
	} else if c.timeout > 0 {
		idle = clk.AfterFunc(c.timeout, func() { sendCtx.End(errIdleTimeout) })
		if c.reset {
			s.mu.Lock() // onNotification reads it under s.mu
			p.onTouch = func() { idle.Reset(c.timeout) }
			s.mu.Unlock()
		}
	}
	if c.total > 0 {
		total = clk.AfterFunc(c.total, func() { sendCtx.End(errTotalTimeout) })
	}
	c.send.Abort = sendCtx.End
	sendErr := s.send(sendCtx, req, &c.send)
	var r *jsonrpc.Response
	select {
	case r = <-p.ch:
		// Answered: the send's own outcome no longer matters.
	default:
		if sendErr == nil {
			// The answer comes on another stream (a legacy 202, WebSocket).
			select {
			case r = <-p.ch:
			case <-sendCtx.Done():
			}
		}
	}
	var err error
	if r != nil {
		if r.TransportErr != nil {
			r, err = nil, r.TransportErr
		}
	} else {
		switch cause := sendCtx.Cause(); {
		case cause == nil:
			err = sendErr
		case errors.Is(cause, errIdleTimeout):
			s.cancelRequest(p.id, "timeout")
			err = &TimeoutError{Method: c.method, Timeout: c.timeout}
		case errors.Is(cause, errTotalTimeout):
			s.cancelRequest(p.id, "timeout")
			err = &TimeoutError{Method: c.method, Timeout: c.total, Total: true}
		case ctx.Err() != nil:
			s.cancelRequest(p.id, "cancelled")
			err = ctx.Err()
		default:
			// The transport ended the request (SendOptions.Abort): its
			// connection closed, say.
			err = sendErr
			if err == nil {
				err = errf.Errorf("core: %s: the transport ended the request: %w", c.method, cause)
			}
		}
	}
	if total != nil {
		total.Stop()
	}
	if idle != nil {
		idle.Stop()
	}
	if shared {
		p.idle.Stop()
	}
	sendCtx.End(nil)
	return r, err
}

// The causes with which a call's timers stop its inline send.
var (
	errIdleTimeout  = errors.New("core: request timed out")
	errTotalTimeout = errors.New("core: request exceeded its maximum total time")
)

// roundTripBeside runs Send beside the wait, for long-lived requests
// (subscriptions/listen) whose Send lasts as long as their stream. Once
// the answer is in the send is left to finish; a failed wait (timeout,
// cancellation) stops it, the end of the session at the latest.
func (s *Session) roundTripBeside(ctx context.Context, p *pendingCall, c *callSpec, req *jsonrpc.Request) (*jsonrpc.Response, error) {
	sendCtx, stopSend := context.WithCancel(s.ctx)
	s.sends.Go(func() {
		defer stopSend()
		if err := s.send(sendCtx, req, &c.send); err != nil {
			select {
			case p.ch <- &jsonrpc.Response{TransportErr: err}:
			default:
			}
		}
	})
	r, err := s.await(ctx, p, c)
	if err != nil {
		stopSend()
	}
	return r, err
}

// drainNotes waits until the notifications queued so far were handled (or
// ctx or the session ends).
func (s *Session) drainNotes(ctx context.Context) {
	done := make(chan struct{})
	s.notes.pushBarrier(func() { close(done) })
	select {
	case <-done:
	case <-ctx.Done():
	case <-s.done:
	}
}

func (s *Session) await(ctx context.Context, p *pendingCall, c *callSpec) (*jsonrpc.Response, error) {
	// No deferred calls: one way out (see roundTripInline).
	var idle, total <-chan time.Time
	var idleTimer, totalTimer timer
	if c.timeout > 0 {
		idleTimer = s.client.clock.NewTimer(c.timeout)
		idle = idleTimer.C()
	}
	if c.total > 0 {
		totalTimer = s.client.clock.NewTimer(c.total)
		total = totalTimer.C()
	}
	var r *jsonrpc.Response
	var err error
	for r == nil && err == nil {
		select {
		case r = <-p.ch:
			if r.TransportErr != nil {
				r, err = nil, r.TransportErr
			}
		case <-p.touch:
			if c.reset && idleTimer != nil {
				idleTimer.Reset(c.timeout)
			}
		case <-idle:
			s.cancelRequest(p.id, "timeout")
			err = &TimeoutError{Method: c.method, Timeout: c.timeout}
		case <-total:
			s.cancelRequest(p.id, "timeout")
			err = &TimeoutError{Method: c.method, Timeout: c.total, Total: true}
		case <-ctx.Done():
			s.cancelRequest(p.id, "cancelled")
			err = ctx.Err()
		}
	}
	if totalTimer != nil {
		totalTimer.Stop()
	}
	if idleTimer != nil {
		idleTimer.Stop()
	}
	return r, err
}

// cancelRequest abandons a request: the pending entry goes away and the
// server is told (notifications/cancelled; on modern HTTP the transport
// closes the request's stream instead).
func (s *Session) cancelRequest(id int64, reason string) {
	s.mu.Lock()
	p := s.pending[id]
	delete(s.pending, id)
	closed := s.closed
	s.mu.Unlock()
	if closed || p == nil {
		return
	}
	// The cancellation belongs to the request's own protocol version: during
	// the handshake the session has none yet, and on modern HTTP the
	// transport closes the request's stream instead of sending it.
	version := p.version
	params := cancelledParams(id, reason)
	note := &jsonrpc.Request{Method: NotificationCancelled, Params: params}
	ctx, cancel := context.WithTimeout(s.ctx, 5*time.Second)
	err := s.send(ctx, note, &SendOptions{ProtocolVersion: version})
	cancel()
	if err != nil && s.ctx.Err() == nil {
		s.warn(errf.Errorf("core: sending cancellation of request %d: %w", id, err))
	}
}

// Notify sends a notification to the server. Most notifications are sent
// by the session itself; this is the escape hatch.
func (s *Session) Notify(ctx context.Context, method string, params any) error {
	raw, err := marshalParams(params)
	if err != nil {
		return err
	}
	return s.NotifyRaw(ctx, method, raw)
}

// NotifyRaw is Notify with the params encoded already (a JSON object, or
// nil for none): the path of the JavaScript and WASI hosts, which never
// encode a Go value with encoding/json.
func (s *Session) NotifyRaw(ctx context.Context, method string, raw RawMessage) error {
	s.mu.Lock()
	closed, version := s.closed, s.version
	s.mu.Unlock()
	if closed {
		return ErrClosed
	}
	return s.send(ctx, &jsonrpc.Request{Method: method, Params: raw}, &SendOptions{ProtocolVersion: version})
}

// cancelledParams encodes &CancelledParams{RequestID: jsonrpc.Int64ID(id),
// Reason: reason}.
func cancelledParams(id int64, reason string) RawMessage {
	b := strconv.AppendInt([]byte(`{"requestId":`), id, 10)
	if reason != "" {
		b = jsonscan.AppendString(append(b, `,"reason":`...), reason)
	}
	return append(b, '}')
}
