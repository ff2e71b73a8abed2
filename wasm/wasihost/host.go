package wasihost

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/imports/wasi_snapshot_preview1"

	"github.com/mcpwasm/mcpwasm/core"
	"github.com/mcpwasm/mcpwasm/wasm/abi"
)

// Defaults of Options.
const (
	// DefaultMemoryLimitPages caps the instance's linear memory at 1 GiB
	// (64 KiB pages).
	DefaultMemoryLimitPages = 16384
	// DefaultPumpInterval is how often the host pumps the guest while it
	// has work in flight, so that guest timers (request timeouts, SSE
	// retry delays) advance.
	DefaultPumpInterval = 10 * time.Millisecond
)

// Options configure a Host; nil means all defaults.
type Options struct {
	// HTTP performs the guest's HTTP requests. Default: a client of the
	// Host's own (its idle connections are closed with the Host).
	HTTP *http.Client
	// CompilationCache shares compiled code between Hosts (see
	// wazero.NewCompilationCache and NewCompilationCacheWithDir). Default:
	// none — every New compiles the module.
	CompilationCache wazero.CompilationCache
	// MemoryLimitPages caps the linear memory. Default
	// DefaultMemoryLimitPages.
	MemoryLimitPages uint32
	// PumpInterval is the pump period while work is in flight. Default
	// DefaultPumpInterval.
	PumpInterval time.Duration
	// Stderr receives what the guest writes to stdout and stderr (a Go
	// panic's report). Default: discarded; the last lines are kept for
	// trap errors either way.
	Stderr io.Writer
}

// Host runs one instance of the wasip1 module under wazero and drives its
// sessions. All methods are safe for concurrent use: the instance is owned
// by one goroutine (the pump), which performs every call into the guest.
// A trap closes the instance (see ErrTrapped); Close releases it.
type Host struct {
	opts      Options
	http      *http.Client
	ownHTTP   bool
	rt        wazero.Runtime
	mod       api.Module
	mem       api.Memory
	fn        map[string]api.Function
	stderr    *outputWriter
	ctx       context.Context // ends with Close: aborts HTTP and guest calls
	cancel    context.CancelFunc
	work      chan func()
	closing   chan struct{}
	done      chan struct{} // closed when the pump has stopped
	closeOnce sync.Once
	wg        sync.WaitGroup // HTTP goroutines, handler goroutines, session queues

	errMu sync.Mutex
	err   error // why the instance ended (ErrTrapped…, or core.ErrClosed)

	// Owned by the pump goroutine.
	dead      bool
	ops       map[uint32]*pendingOp
	clients   map[uint32]*Session // routing of notifications and requests
	sessions  map[uint32]*Session
	questions map[uint32]context.CancelFunc
	handles   map[uint32]*httpCall
}

// pendingOp is an operation waiting for its result event.
type pendingOp struct {
	session *Session
	done    chan opResult // buffered, 1
	// progress queues the op's progress params for the caller of Request
	// (nil: the caller wants none).
	progress *progressQueue
	// finish runs on the pump goroutine before the result is delivered.
	finish func(*abi.Event)
}

type opResult struct {
	result json.RawMessage
	err    error
}

// New compiles (or loads from the cache) and instantiates the module,
// checks its ABI version and starts pumping it. ctx bounds compilation and
// instantiation only.
func New(ctx context.Context, wasm []byte, opts *Options) (*Host, error) {
	h := &Host{
		work:      make(chan func(), 64),
		closing:   make(chan struct{}),
		done:      make(chan struct{}),
		fn:        map[string]api.Function{},
		ops:       map[uint32]*pendingOp{},
		clients:   map[uint32]*Session{},
		sessions:  map[uint32]*Session{},
		questions: map[uint32]context.CancelFunc{},
		handles:   map[uint32]*httpCall{},
	}
	if opts != nil {
		h.opts = *opts
	}
	if h.opts.MemoryLimitPages == 0 {
		h.opts.MemoryLimitPages = DefaultMemoryLimitPages
	}
	if h.opts.PumpInterval <= 0 {
		h.opts.PumpInterval = DefaultPumpInterval
	}
	h.http = h.opts.HTTP
	if h.http == nil {
		h.http = &http.Client{Transport: http.DefaultTransport.(*http.Transport).Clone()}
		h.ownHTTP = true
	}
	h.stderr = &outputWriter{max: 2 << 10, tee: h.opts.Stderr}
	h.ctx, h.cancel = context.WithCancel(context.Background())

	cfg := wazero.NewRuntimeConfig().
		WithCloseOnContextDone(true).
		WithMemoryLimitPages(h.opts.MemoryLimitPages)
	if h.opts.CompilationCache != nil {
		cfg = cfg.WithCompilationCache(h.opts.CompilationCache)
	}
	h.rt = wazero.NewRuntimeWithConfig(ctx, cfg)
	if err := h.instantiate(ctx, wasm); err != nil {
		_ = h.rt.Close(context.Background())
		h.cancel()
		return nil, err
	}
	go h.loop()
	return h, nil
}

func (h *Host) instantiate(ctx context.Context, wasm []byte) error {
	if _, err := wasi_snapshot_preview1.Instantiate(ctx, h.rt); err != nil {
		return fmt.Errorf("wasihost: WASI: %w", err)
	}
	i32 := api.ValueTypeI32
	b := h.rt.NewHostModuleBuilder(abi.ImportModule)
	b.NewFunctionBuilder().WithGoModuleFunction(api.GoModuleFunc(h.importHTTPRequest), []api.ValueType{i32, i32, i32, i32, i32}, nil).Export(abi.ImportHTTPRequest)
	b.NewFunctionBuilder().WithGoModuleFunction(api.GoModuleFunc(h.importHTTPRead), []api.ValueType{i32}, nil).Export(abi.ImportHTTPRead)
	b.NewFunctionBuilder().WithGoModuleFunction(api.GoModuleFunc(h.importHTTPClose), []api.ValueType{i32}, nil).Export(abi.ImportHTTPClose)
	if _, err := b.Instantiate(ctx); err != nil {
		return fmt.Errorf("wasihost: host module: %w", err)
	}
	compiled, err := h.rt.CompileModule(ctx, wasm)
	if err != nil {
		return fmt.Errorf("wasihost: compiling the module: %w", err)
	}
	exports := compiled.ExportedFunctions()
	if _, ok := exports["_initialize"]; !ok {
		return fmt.Errorf("%w: no _initialize export (build with -buildmode=c-shared)", ErrABIVersion)
	}
	for _, name := range abi.Exports {
		if _, ok := exports[name]; !ok {
			return fmt.Errorf("%w: missing export %s", ErrABIVersion, name)
		}
	}
	mc := wazero.NewModuleConfig().
		WithName("").
		WithStartFunctions("_initialize").
		WithSysWalltime().
		WithSysNanotime().
		WithSysNanosleep().
		WithRandSource(rand.Reader).
		WithStdout(h.stderr).
		WithStderr(h.stderr)
	mod, err := h.rt.InstantiateModule(ctx, compiled, mc)
	if err != nil {
		return fmt.Errorf("wasihost: instantiating the module: %w%s", err, h.stderr.suffix())
	}
	h.mod = mod
	h.mem = mod.Memory()
	for _, name := range abi.Exports {
		h.fn[name] = mod.ExportedFunction(name)
	}
	if f := mod.ExportedFunction(abi.ExportDebugTrap); f != nil { // debug builds only
		h.fn[abi.ExportDebugTrap] = f
	}
	res, err := h.fn[abi.ExportABIVersion].Call(ctx)
	if err != nil {
		return fmt.Errorf("wasihost: %s: %w", abi.ExportABIVersion, err)
	}
	if v := uint32(res[0]); v != abi.Version {
		return fmt.Errorf("%w: the module speaks ABI version %d, this host version %d", ErrABIVersion, v, abi.Version)
	}
	return nil
}

// ABIVersion returns the ABI version the module and this package speak.
func (h *Host) ABIVersion() uint32 { return abi.Version }

// Done is closed when the instance has ended (Close or a trap).
func (h *Host) Done() <-chan struct{} { return h.done }

// Err returns why the instance ended: nil while it runs, an error wrapping
// ErrTrapped after a trap, core.ErrClosed after Close.
func (h *Host) Err() error {
	h.errMu.Lock()
	defer h.errMu.Unlock()
	return h.err
}

func (h *Host) endErr() error {
	if err := h.Err(); err != nil {
		return err
	}
	return core.ErrClosed
}

// Close ends every session without waiting for the servers, closes the
// instance and waits for the host's goroutines, including running handlers
// and notification callbacks (which must return when their context ends),
// so it must not be called from a handler or callback. It is safe to call
// more than once.
func (h *Host) Close() error {
	h.closeOnce.Do(func() { close(h.closing) })
	<-h.done
	h.wg.Wait()
	if h.ownHTTP {
		h.http.CloseIdleConnections()
	}
	return nil
}

// loop is the pump: the only goroutine that calls into the guest.
func (h *Host) loop() {
	defer close(h.done)
	ticker := time.NewTicker(h.opts.PumpInterval)
	defer ticker.Stop()
	for {
		var tick <-chan time.Time
		if len(h.ops) > 0 || len(h.sessions) > 0 || len(h.handles) > 0 || len(h.questions) > 0 {
			tick = ticker.C
		}
		select {
		case f := <-h.work:
			f()
			for n := 0; n < 256 && !h.dead; n++ {
				select {
				case f := <-h.work:
					f()
					continue
				default:
				}
				break
			}
		case <-tick:
		case <-h.closing:
			h.shutdown(core.ErrClosed)
			return
		}
		if !h.dead {
			h.pump()
		}
		if h.dead {
			return
		}
	}
}

// submit runs f on the pump goroutine; it fails once the instance ended.
func (h *Host) submit(f func()) error {
	select {
	case h.work <- f:
		return nil
	case <-h.done:
		return h.endErr()
	}
}

// do runs f on the pump goroutine and returns its error.
func (h *Host) do(f func() error) error {
	ch := make(chan error, 1)
	if err := h.submit(func() {
		if h.dead {
			ch <- h.endErr()
			return
		}
		ch <- f()
	}); err != nil {
		return err
	}
	select {
	case err := <-ch:
		return err
	case <-h.done:
		select {
		case err := <-ch:
			return err
		default:
			return h.endErr()
		}
	}
}

// call calls an export; a failure of the call itself is a trap.
func (h *Host) call(name string, args ...uint64) (uint64, error) {
	if h.dead {
		return 0, h.endErr()
	}
	res, err := h.fn[name].Call(h.ctx, args...)
	if err != nil {
		h.trap(fmt.Errorf("%s: %w", name, err))
		return 0, h.endErr()
	}
	if len(res) == 0 {
		return 0, nil
	}
	return res[0], nil
}

// callStatus calls an export returning an i32 status.
func (h *Host) callStatus(name string, args ...uint64) (uint32, error) {
	v, err := h.call(name, args...)
	if err != nil {
		return 0, err
	}
	code := int32(uint32(v))
	if code < 0 {
		msg, err := h.lastError()
		if err != nil {
			return 0, err
		}
		return 0, statusError(code, fmt.Sprintf("%s: %s", name, msg))
	}
	return uint32(code), nil
}

// callInput passes data (consumed by the guest) as the last (ptr, len)
// arguments of an export returning a status.
func (h *Host) callInput(name string, data []byte, args ...uint64) (uint32, error) {
	var ptr uint32
	if len(data) > 0 {
		p, err := h.call(abi.ExportAlloc, uint64(len(data)))
		if err != nil {
			return 0, err
		}
		ptr = uint32(p)
		if ptr == 0 || !h.mem.Write(ptr, data) {
			h.trap(fmt.Errorf("%s returned an invalid buffer %#x for %d bytes", abi.ExportAlloc, ptr, len(data)))
			return 0, h.endErr()
		}
	}
	return h.callStatus(name, append(args, uint64(ptr), uint64(len(data)))...)
}

// readOut returns a guest-owned buffer returned as ptr<<32|len: a view of
// the guest's memory, valid until the next guest call (its callers decode
// it at once, which copies what they keep).
func (h *Host) readOut(v uint64) ([]byte, error) {
	ptr, n := abi.Unpack(v)
	if n == 0 {
		return nil, nil
	}
	b, ok := h.mem.Read(ptr, n)
	if !ok {
		h.trap(fmt.Errorf("the guest returned an out-of-range buffer %#x+%d", ptr, n))
		return nil, h.endErr()
	}
	return b, nil
}

func (h *Host) lastError() (string, error) {
	v, err := h.call(abi.ExportLastError)
	if err != nil {
		return "", err
	}
	b, err := h.readOut(v)
	return string(b), err
}

// pump runs the guest until it waits on the host and dispatches its
// events.
func (h *Host) pump() {
	for i := 0; i < 64 && !h.dead; i++ {
		v, err := h.call(abi.ExportPoll)
		if err != nil {
			return
		}
		b, err := h.readOut(v)
		if err != nil {
			return
		}
		if len(b) == 0 {
			return
		}
		var events []abi.Event
		if err := json.Unmarshal(b, &events); err != nil {
			h.trap(fmt.Errorf("malformed events from %s: %v", abi.ExportPoll, err))
			return
		}
		for i := range events {
			h.dispatch(&events[i])
		}
	}
}

// dispatch handles one event on the pump goroutine.
func (h *Host) dispatch(ev *abi.Event) {
	switch ev.Type {
	case abi.EventResult:
		op := h.ops[ev.Op]
		if op == nil {
			return
		}
		delete(h.ops, ev.Op)
		if op.finish != nil {
			op.finish(ev)
		}
		r := opResult{result: ev.Result}
		if ev.Error != nil {
			r.err = opError(ev.Error)
		}
		// The guest sends an operation's progress events before its result,
		// so they are queued before the result is handed over.
		op.done <- r
	case abi.EventProgress:
		if op := h.ops[ev.Op]; op != nil && op.progress != nil {
			op.progress.push(ev.Params)
		}
	case abi.EventNotification:
		if s := h.clients[ev.Client]; s != nil && s.opts.OnNotification != nil {
			f, method, params := s.opts.OnNotification, ev.Method, ev.Params
			s.queue.push(func() { f(method, params) })
		}
	case abi.EventWarning:
		if s := h.clients[ev.Client]; s != nil && s.opts.OnWarning != nil {
			f, msg := s.opts.OnWarning, ev.Message
			s.queue.push(func() { f(msg) })
		}
	case abi.EventRequest:
		h.serveRequest(ev)
	case abi.EventAuthorize:
		h.serveAuthorize(ev)
	case abi.EventAuthStore:
		if s := h.clients[ev.Client]; s != nil && s.opts.Auth != nil && s.opts.Auth.OnStore != nil {
			f, state := s.opts.Auth.OnStore, ev.Store
			s.queue.push(func() { f(state) })
		}
	case abi.EventLog:
		if s := h.clients[ev.Client]; s != nil && s.opts.Auth != nil && s.opts.Auth.OnLog != nil {
			f, msg := s.opts.Auth.OnLog, ev.Message
			s.queue.push(func() { f(msg) })
		}
	case abi.EventCancel:
		if cancel := h.questions[ev.ID]; cancel != nil {
			delete(h.questions, ev.ID)
			cancel()
		}
	case abi.EventClosed:
		if s := h.sessions[ev.Session]; s != nil {
			var err error
			if ev.Error != nil {
				err = fmt.Errorf("%w: %s", core.ErrClosed, ev.Error.Message)
			}
			h.forgetSession(s, err)
		}
	}
}

// forgetSession ends a session on the pump goroutine and frees its guest
// client.
func (h *Host) forgetSession(s *Session, err error) {
	delete(h.sessions, s.id)
	if h.clients[s.client] == s {
		h.freeClient(s.client)
	}
	s.end(err)
}

// freeClient forgets a guest client and frees it in the guest.
func (h *Host) freeClient(id uint32) {
	delete(h.clients, id)
	_, _ = h.callStatus(abi.ExportClientFree, uint64(id))
}

// serveRequest runs the host handler of a server→client request.
func (h *Host) serveRequest(ev *abi.Event) {
	s := h.clients[ev.Client]
	var handler HandlerFunc
	if s != nil {
		switch ev.Method {
		case abi.MethodCreateMessage:
			handler = s.opts.Handlers.Sampling
		case abi.MethodElicit:
			handler = s.opts.Handlers.Elicitation
		case abi.MethodListRoots:
			handler = s.opts.Handlers.Roots
		}
	}
	if handler == nil {
		h.answer(ev.ID, nil, &core.RPCError{Code: -32601, Message: "no handler for " + ev.Method})
		return
	}
	params := ev.Params
	h.serve(s, ev.ID, "handler", func(ctx context.Context) (json.RawMessage, error) {
		return handler(ctx, params)
	})
}

// serveAuthorize runs the session's AuthOptions.Authorize for an
// "authorize" event.
func (h *Host) serveAuthorize(ev *abi.Event) {
	s := h.clients[ev.Client]
	if s == nil || s.opts.Auth == nil || s.opts.Auth.Authorize == nil {
		h.answer(ev.ID, nil, errors.New("wasihost: no AuthOptions.Authorize for this session"))
		return
	}
	authorize, authURL := s.opts.Auth.Authorize, ev.URL
	h.serve(s, ev.ID, "Authorize", func(ctx context.Context) (json.RawMessage, error) {
		cb, err := authorize(ctx, authURL)
		if err != nil {
			return nil, err
		}
		return json.Marshal(&abi.AuthorizeResult{CallbackURL: cb})
	})
}

// serve answers question id of session s with f's outcome, computed on
// its own goroutine; f's context ends when the guest withdraws the
// question or the session ends. A panic of f (the application's code,
// named by what) is its failure.
func (h *Host) serve(s *Session, id uint32, what string, f func(ctx context.Context) (json.RawMessage, error)) {
	ctx, cancel := context.WithCancel(s.ctx)
	h.questions[id] = cancel
	h.wg.Add(1)
	go func() {
		defer h.wg.Done()
		result, err := recovered(ctx, what, f)
		_ = h.submit(func() {
			if h.questions[id] == nil {
				return // withdrawn
			}
			delete(h.questions, id)
			cancel()
			h.answer(id, result, err)
		})
	}()
}

// recovered runs f, turning a panic into an error.
func recovered(ctx context.Context, what string, f func(ctx context.Context) (json.RawMessage, error)) (result json.RawMessage, err error) {
	defer func() {
		if r := recover(); r != nil {
			result, err = nil, fmt.Errorf("wasihost: %s panicked: %v", what, r)
		}
	}()
	return f(ctx)
}

// answer sends a handler's outcome to the guest.
func (h *Host) answer(id uint32, result json.RawMessage, err error) {
	var a abi.Answer
	if err != nil {
		var rpc *core.RPCError
		if errors.As(err, &rpc) {
			a.Error = &abi.Error{Code: rpc.Code, Message: rpc.Message, Data: rpc.Data}
		} else {
			a.Error = &abi.Error{Code: -32603, Message: err.Error()}
		}
	} else {
		a.Result = result
	}
	b, merr := json.Marshal(&a)
	if merr != nil || (err == nil && (len(result) == 0 || result[0] != '{')) {
		b, _ = json.Marshal(&abi.Answer{Error: &abi.Error{Code: -32603, Message: "wasihost: the handler returned a result that is not a JSON object"}})
	}
	if _, err := h.callInput(abi.ExportAnswer, b, uint64(id)); err != nil && !errors.Is(err, ErrNotFound) && !h.dead {
		// The guest refused the answer: tell it the handler failed instead.
		fallback, _ := json.Marshal(&abi.Answer{Error: &abi.Error{Code: -32603, Message: err.Error()}})
		_, _ = h.callInput(abi.ExportAnswer, fallback, uint64(id))
	}
}

// trap records a failed guest call and ends the instance.
func (h *Host) trap(cause error) {
	if h.dead {
		return
	}
	h.shutdown(fmt.Errorf("%w: %v%s", ErrTrapped, cause, h.stderr.suffix()))
}

// shutdown ends the instance: every pending call fails with err.
func (h *Host) shutdown(err error) {
	if h.dead {
		return
	}
	h.dead = true
	h.errMu.Lock()
	h.err = err
	h.errMu.Unlock()
	h.cancel() // aborts HTTP requests
	_ = h.rt.Close(context.Background())
	for id, op := range h.ops {
		delete(h.ops, id)
		op.done <- opResult{err: err}
	}
	for id, cancel := range h.questions {
		delete(h.questions, id)
		cancel()
	}
	for id := range h.handles {
		delete(h.handles, id)
	}
	for id, s := range h.sessions {
		delete(h.sessions, id)
		s.end(err)
	}
	for id, s := range h.clients {
		delete(h.clients, id)
		s.end(err)
	}
}

// outputWriter keeps what the guest writes for trap messages: the first
// bytes (a crash report starts with its cause) and the last ones.
type outputWriter struct {
	mu        sync.Mutex
	max       int
	head      []byte
	tail      []byte
	truncated bool
	tee       io.Writer
}

func (w *outputWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	rest := p
	if n := min(w.max-len(w.head), len(rest)); n > 0 {
		w.head = append(w.head, rest[:n]...)
		rest = rest[n:]
	}
	if len(rest) > 0 {
		w.tail = append(w.tail, rest...)
		if len(w.tail) > w.max {
			w.tail = append(w.tail[:0], w.tail[len(w.tail)-w.max:]...)
			w.truncated = true
		}
	}
	tee := w.tee
	w.mu.Unlock()
	if tee != nil {
		_, _ = tee.Write(p)
	}
	return len(p), nil
}

// suffix returns the guest's output for an error message.
func (w *outputWriter) suffix() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	s := string(w.head)
	if len(w.tail) > 0 {
		if w.truncated {
			s += "\n…\n"
		}
		s += string(w.tail)
	}
	s = strings.TrimSpace(s)
	if s == "" {
		return ""
	}
	return "\nguest output:\n" + s
}

// Precompile compiles the module into cache (typically a
// wazero.NewCompilationCacheWithDir cache) without instantiating it, so that
// later Hosts using the same cache start without compiling: for example at
// deployment time, or from a process without the race detector, which makes
// compilation many times slower.
func Precompile(ctx context.Context, wasm []byte, cache wazero.CompilationCache) error {
	rt := wazero.NewRuntimeWithConfig(ctx, wazero.NewRuntimeConfig().WithCloseOnContextDone(true).WithCompilationCache(cache))
	defer rt.Close(context.Background())
	if _, err := rt.CompileModule(ctx, wasm); err != nil {
		return fmt.Errorf("wasihost: compiling the module: %w", err)
	}
	return nil
}

// progressQueue hands an operation's progress params from the pump to the
// goroutine waiting in Request.
type progressQueue struct {
	mu    sync.Mutex
	items []json.RawMessage
	wake  chan struct{} // buffered, 1
}

func newProgressQueue() *progressQueue {
	return &progressQueue{wake: make(chan struct{}, 1)}
}

func (q *progressQueue) push(params json.RawMessage) {
	q.mu.Lock()
	q.items = append(q.items, params)
	q.mu.Unlock()
	select {
	case q.wake <- struct{}{}:
	default:
	}
}

// drain calls f for every queued item, in order.
func (q *progressQueue) drain(f func(json.RawMessage)) {
	q.mu.Lock()
	items := q.items
	q.items = nil
	q.mu.Unlock()
	for _, p := range items {
		f(p)
	}
}
