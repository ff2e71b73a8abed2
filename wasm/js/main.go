//go:build js

// Command js is mcpwasm's GOOS=js entry point: the WebAssembly module the
// npm package mcpwasm loads. It exposes a small low-level API object to the
// package's JavaScript glue (js/src), which builds the Promise-based Client
// on top of it. The glue defines globalThis.__mcpwasmRegister before running
// the module; main calls it with the API object and then waits forever.
//
// Requests and their results, and the fetch helper's HTTP exchanges, take
// the fast lane instead (lane.go): WebAssembly exports and imports that
// carry numbers and bytes, no syscall/js values.
//
// Conventions of the API object: JavaScript creates every Promise and passes
// its resolve and reject functions in (cheaper than a Go-made Promise);
// structured values cross as JSON strings (JSON.parse/stringify are fast in
// JavaScript); no exported function blocks — work runs on goroutines.
package main

import (
	"context"
	"errors"
	"runtime"
	"sync"
	"syscall/js"
	"time"

	"github.com/mcpwasm/mcpwasm/core"
	schema "github.com/mcpwasm/mcpwasm/internal/bridge"
	"github.com/mcpwasm/mcpwasm/internal/errf"
	"github.com/mcpwasm/mcpwasm/internal/gopool"
	"github.com/mcpwasm/mcpwasm/internal/js/bridge"
	"github.com/mcpwasm/mcpwasm/internal/js/fetch"
	"github.com/mcpwasm/mcpwasm/internal/jsonscan"
	"github.com/mcpwasm/mcpwasm/internal/rawjson"
	"github.com/mcpwasm/mcpwasm/internal/wire"
	"github.com/mcpwasm/mcpwasm/jsonrpc"
)

// Version is the module's API version, checked by the JavaScript glue.
const Version = "mcpwasm-abi-3"

func main() {
	// The instance's GC settings (GOGC 300, a 64 MiB soft limit) come from
	// the environment the glue gives the runtime (js/src/loader.js), not
	// from runtime/debug, which would link os and fmt (docs/size.md).
	b := &bridge{clients: map[int]*clientEntry{}, subs: map[int]*core.Subscription{}}
	theLane = &lane{b: b, calls: map[int32]context.CancelCauseFunc{}, pool: gopool.New(64)}
	api := js.Global().Get("Object").New()
	api.Set("version", Version)
	for i := range apiFuncs {
		e := &apiFuncs[i]
		api.Set(e.name, js.FuncOf(func(_ js.Value, args []js.Value) any { return b.call(e, args) }))
	}
	register := js.Global().Get("__mcpwasmRegister")
	if register.Type() != js.TypeFunction {
		js.Global().Get("console").Call("error", "mcpwasm: load the module through the mcpwasm package (globalThis.__mcpwasmRegister is missing)")
		return
	}
	register.Invoke(api)
	select {} // the API functions live as long as the instance
}

// apiFunc is a function of the API object. One table describes them all
// and one dispatcher (bridge.call) runs them: the lookups of the handle in
// args[0], the goroutine, the context and the settling of the Promise are
// written once, and each entry's handler is a method expression (static
// data, no closure per function).
type apiFunc struct {
	name string
	f    func(*bridge, *op) (any, error)
	// at is the index of the resolve function (reject follows it) of an
	// asynchronous function: 0 for a synchronous one, whose error comes
	// back as a JavaScript Error.
	at   int8
	need uint8 // what args[0] names (async functions only)
	// signal: the context is the AbortSignal's at args[at-1]; otherwise
	// it times out after timeout (0: never).
	signal  bool
	timeout time.Duration
}

// What args[0] of an asynchronous function names.
const (
	needNone        = iota
	needClient      // a client handle
	needClientQuiet // a client handle; an unknown one resolves with nothing
	needSession     // a client handle with a connected session
	needTask        // a task ref
)

// op is one call of an API function.
type op struct {
	args []js.Value
	ctx  context.Context // asynchronous functions
	c    *clientEntry
	s    *core.Session
	t    *core.Task
}

// arg returns the call's argument i or undefined.
func (o *op) arg(i int) js.Value { return arg(o.args, i) }

var apiFuncs = [...]apiFunc{
	{name: "newClient", f: (*bridge).newClient},
	{name: "freeClient", f: (*bridge).freeClient},
	{name: "connect", f: (*bridge).connect, at: 5, need: needClient, signal: true},
	{name: "info", f: (*bridge).info},
	{name: "notify", f: (*bridge).notify, at: 3, need: needSession},
	{name: "close", f: (*bridge).close, at: 1, need: needClientQuiet},
	{name: "setRoots", f: (*bridge).setRoots, at: 2, need: needClient, timeout: 30 * time.Second},
	{name: "listen", f: (*bridge).listen, at: 4, need: needSession, timeout: 2 * time.Minute},
	{name: "closeListen", f: (*bridge).closeListen, at: 1},
	{name: "encodeHeader", f: (*bridge).encodeHeader},
	{name: "stats", f: (*bridge).stats},
	{name: "setHost", f: (*bridge).setHost},
	{name: "ended", f: (*bridge).ended, at: 1, need: needClientQuiet}, // state.go
	// tasks.go
	{name: "callToolAsTask", f: (*bridge).callToolAsTask, at: 4, need: needSession, signal: true},
	{name: "getTask", f: (*bridge).getTask, at: 3, need: needSession, signal: true},
	{name: "listTasks", f: (*bridge).listTasks, at: 3, need: needSession, signal: true},
	{name: "taskWait", f: (*bridge).taskWait, at: 4, need: needTask, signal: true},
	{name: "taskRefresh", f: (*bridge).taskRefresh, at: 2, need: needTask, signal: true},
	{name: "taskCancel", f: (*bridge).taskCancel, at: 2, need: needTask, signal: true},
	{name: "taskState", f: (*bridge).taskState},
	{name: "taskFree", f: (*bridge).taskFree},
}

// call runs API function e. A panic becomes a returned JavaScript Error (a
// js.FuncOf function cannot throw), so a bad call never kills the
// instance; the glue throws it, or rejects the call's Promise with it. An
// asynchronous function finds its client or task at once (the handle is
// looked up when the call is made) and runs on a goroutine.
func (b *bridge) call(e *apiFunc, args []js.Value) (out any) {
	defer func() {
		if r := recover(); r != nil {
			var err error
			if jerr, ok := r.(js.Error); ok {
				err = jsbridge.ErrorFrom(jerr.Value)
			} else {
				err = errf.Errorf("mcpwasm: internal error: %v", r)
			}
			out = jsError(err)
		}
	}()
	o := &op{args: args}
	if e.at == 0 {
		v, err := e.f(b, o)
		if err != nil {
			return jsError(err)
		}
		return v
	}
	var err error
	switch e.need {
	case needClient, needClientQuiet, needSession:
		o.c, err = b.entry(o.arg(0))
	case needTask:
		o.t, err = b.tasks.get(o.arg(0))
	}
	at := int(e.at)
	settle(o.arg(at), o.arg(at+1), func() (any, error) {
		if err != nil {
			if e.need == needClientQuiet {
				return nil, nil // closing a freed client is fine; it has no session
			}
			return nil, err
		}
		if e.need == needSession {
			if o.s, err = o.c.sess(); err != nil {
				return nil, err
			}
		}
		ctx, cancel := context.Background(), context.CancelFunc(nil)
		if e.signal {
			ctx, cancel = jsbridge.ContextFromSignal(ctx, o.arg(at-1))
		} else if e.timeout > 0 {
			ctx, cancel = context.WithTimeout(ctx, e.timeout)
		}
		if cancel != nil {
			defer cancel()
		}
		o.ctx = ctx
		return e.f(b, o)
	})
	return nil
}

// jsError is err as a JavaScript Error.
func jsError(err error) js.Value { return js.Global().Get("Error").New(err.Error()) }

// bridge holds the clients and subscriptions of this instance.
type bridge struct {
	mu      sync.Mutex
	next    int
	clients map[int]*clientEntry
	subs    map[int]*core.Subscription
	calls   int64 // requests in flight, for stats
	host    *jsfetch.HostLink
	tasks   taskTable // tasks.go
}

// setHost(helper): the glue's HTTP helper (js/src/host.js), used by every
// fetch transport made afterwards.
func (b *bridge) setHost(o *op) (any, error) {
	h := o.arg(0)
	if h.Type() != js.TypeObject {
		panic(errors.New("mcpwasm: setHost needs an object"))
	}
	b.mu.Lock()
	if b.host == nil {
		b.host = jsfetch.NewHostLink(h, lanePort{})
	}
	b.mu.Unlock()
	return nil, nil
}

func (b *bridge) hostLink() *jsfetch.HostLink {
	b.mu.Lock()
	h := b.host
	b.mu.Unlock()
	return h
}

type clientEntry struct {
	client    *core.Client
	callbacks js.Value // {handle(method, paramsJSON, signal) → Promise<string>, notify(method, paramsJSON), warn(message)}

	mu      sync.Mutex
	session *core.Session
	// closing ends the connects in progress when close is called (made by
	// the first connect after a close).
	closing    context.Context
	endConnect context.CancelCauseFunc
}

// errClosedConnecting is why a connect in progress ends when its client is
// closed.
var errClosedConnecting = errf.Errorf("%w: the client was closed while connecting", core.ErrClosed)

func (b *bridge) add(c *clientEntry) int {
	b.mu.Lock()
	b.next++
	h := b.next
	b.clients[h] = c
	b.mu.Unlock()
	return h
}

// entry returns the client of handle v. It does not panic on a value that
// is no handle, so an API function rejects instead of never settling.
func (b *bridge) entry(v js.Value) (*clientEntry, error) {
	if v.Type() != js.TypeNumber {
		return nil, errUnknownClient
	}
	return b.entryByHandle(v.Int())
}

var errUnknownClient = errors.New("mcpwasm: unknown or freed client")

// entryByHandle returns the client of handle h.
func (b *bridge) entryByHandle(h int) (*clientEntry, error) {
	b.mu.Lock()
	c := b.clients[h]
	b.mu.Unlock()
	if c == nil {
		return nil, errUnknownClient
	}
	return c, nil
}

func (c *clientEntry) sess() (*core.Session, error) {
	c.mu.Lock()
	s := c.session
	c.mu.Unlock()
	if s == nil {
		return nil, errf.Errorf("%w: not connected", core.ErrClosed)
	}
	return s, nil
}

// arg returns args[i] or undefined.
func arg(args []js.Value, i int) js.Value {
	if i < len(args) {
		return args[i]
	}
	return js.Undefined()
}

// jsonArg returns a JSON argument the glue passes as a string, or nil when
// it passed "" or no string. The string crosses the boundary once.
func jsonArg(v js.Value) rawjson.RawMessage {
	if v.Type() != js.TypeString {
		return nil
	}
	if s := v.String(); s != "" {
		return rawjson.RawMessage(s)
	}
	return nil
}

// settle runs f on a goroutine and settles the JavaScript Promise whose
// resolve and reject functions were passed in: a string result resolves,
// an error rejects with its JSON description (see errorJSON).
func settle(resolve, reject js.Value, f func() (any, error)) {
	go func() {
		var (
			out any
			err error
		)
		func() {
			defer jsbridge.Recover(&err)
			out, err = f()
		}()
		defer func() { _ = recover() }() // the page may have torn the functions down
		if err != nil {
			reject.Invoke(errorJSON(err))
			return
		}
		switch v := out.(type) {
		case rawjson.RawMessage:
			resolve.Invoke(string(v))
		case nil:
			resolve.Invoke()
		default:
			resolve.Invoke(v)
		}
	}()
}

// newClient(configJSON, callbacks) → handle: configJSON is the bridge's
// ClientConfig (internal/bridge, docs/configuration.md).
func (b *bridge) newClient(o *op) (any, error) {
	// A refused configuration comes back as an Error (the glue throws a
	// TypeError with its message).
	cfg, err := schema.DecodeClientConfig([]byte(o.arg(0).String()))
	if err != nil {
		return nil, err
	}
	ce := &clientEntry{callbacks: o.arg(1)}
	impl, opts, err := cfg.Options(ce)
	if err != nil {
		return nil, err
	}
	ce.client = core.NewClient(impl, opts)
	return b.add(ce), nil
}

// The client entry is the bridge's way to the page (its Callbacks): the
// glue's callbacks object.

// Ask forwards a server request to the page's handler.
func (c *clientEntry) Ask(ctx context.Context, _ *core.Session, method string, params rawjson.RawMessage) (rawjson.RawMessage, error) {
	return c.ask(ctx, method, params)
}

// Notify hands a notification to the page.
func (c *clientEntry) Notify(_ *core.Session, method string, params rawjson.RawMessage) {
	c.call("notify", method, string(params))
}

// Warn hands a warning to the page.
func (c *clientEntry) Warn(_ *core.Session, err error) { c.call("warn", err.Error()) }

// Message hands a message of the session to the page.
func (c *clientEntry) Message(_ *core.Session, dir core.Direction, m jsonrpc.Message) {
	if b, err := jsonrpc.EncodeMessage(m); err == nil {
		c.call("message", dir.String(), string(b))
	}
}

// call invokes a JavaScript callback, ignoring exceptions (the glue
// already catches errors of user callbacks).
func (c *clientEntry) call(name string, args ...any) {
	defer func() { _ = recover() }()
	f := c.callbacks.Get(name)
	if f.Type() == js.TypeFunction {
		f.Invoke(args...)
	}
}

// ask forwards a server request to the page's handler and returns its
// answer. The handler's Promise rejection becomes a JSON-RPC error.
func (c *clientEntry) ask(ctx context.Context, method string, params rawjson.RawMessage) (_ rawjson.RawMessage, err error) {
	defer jsbridge.Recover(&err)
	signal, stop, err := jsbridge.AbortSignal(ctx)
	if err != nil {
		signal = js.Undefined()
	}
	defer stop()
	p := c.callbacks.Call("handle", method, string(params), signal)
	v, err := jsbridge.Await(ctx, p)
	if err != nil {
		var jerr *jsbridge.Error
		if errf.As(err, &jerr) {
			return nil, handlerError(jerr)
		}
		return nil, err
	}
	if v.Type() != js.TypeString {
		return nil, errf.Errorf("mcpwasm: %s handler returned no result", method)
	}
	return rawjson.RawMessage(v.String()), nil
}

// handlerError keeps the code and data of an McpError thrown by a handler.
func handlerError(e *jsbridge.Error) error {
	v := e.Value
	if v.Type() == js.TypeObject && v.Get("code").Type() == js.TypeNumber {
		rpc := &core.RPCError{Code: int64(v.Get("code").Int()), Message: e.Message}
		if d := v.Get("data"); d.Type() != js.TypeUndefined {
			if s := js.Global().Get("JSON").Call("stringify", d); s.Type() == js.TypeString {
				rpc.Data = rawjson.RawMessage(s.String())
			}
		}
		return rpc
	}
	return e
}

func (b *bridge) freeClient(o *op) (any, error) {
	h := o.arg(0).Int()
	b.mu.Lock()
	c := b.clients[h]
	delete(b.clients, h)
	b.mu.Unlock()
	if c != nil {
		if s, err := c.sess(); err == nil {
			go s.Close()
		}
	}
	return nil, nil
}

// connect(handle, url, optionsJSON, fetchFn, signal, resolve, reject, authHooks)
func (b *bridge) connect(op *op) (any, error) {
	var o schema.ConnectConfig
	if err := schema.Decode([]byte(op.arg(2).String()), &o, "connect options"); err != nil {
		return nil, err
	}
	if err := o.Check(schema.Host{WebSocket: true, Port: true}); err != nil {
		return nil, err
	}
	t, err := newTransport(op.arg(1).String(), &o, op.arg(3), op.arg(7), b.hostLink())
	if err != nil {
		return nil, err
	}
	c := op.c
	c.mu.Lock()
	if c.closing == nil {
		c.closing, c.endConnect = context.WithCancelCause(context.Background())
	}
	closing := c.closing
	c.mu.Unlock()
	ctx, cancel := context.WithCancelCause(op.ctx)
	defer cancel(nil)
	defer context.AfterFunc(closing, func() { cancel(errClosedConnecting) })()
	s, err := c.client.Connect(ctx, t, &core.ConnectOptions{ProtocolVersions: o.ProtocolVersions})
	if err != nil {
		if context.Cause(ctx) == errClosedConnecting {
			return nil, errClosedConnecting
		}
		return nil, err
	}
	c.mu.Lock()
	old := c.session
	c.session = s
	c.mu.Unlock()
	if old != nil {
		go old.Close()
	}
	if !b.live(c) || closing.Err() != nil { // state.go: freed, or closed while connecting
		go s.Close()
		return nil, errClosedConnecting
	}
	return sessionInfo(s), nil
}

func sessionInfo(s *core.Session) rawjson.RawMessage {
	return schema.Info(s).AppendJSON(nil)
}

// info(handle) → JSON string (sync)
func (b *bridge) info(o *op) (any, error) {
	c, err := b.entry(o.arg(0))
	if err != nil {
		return js.Null(), nil
	}
	s, err := c.sess()
	if err != nil {
		return js.Null(), nil
	}
	return string(sessionInfo(s)), nil
}

// notify(handle, method, paramsJSON, resolve, reject)
func (b *bridge) notify(o *op) (any, error) {
	return nil, o.s.NotifyRaw(context.Background(), o.arg(1).String(), jsonArg(o.arg(2)))
}

// close(handle, resolve, reject)
func (b *bridge) close(o *op) (any, error) {
	c := o.c
	c.mu.Lock()
	s := c.session
	c.session = nil
	if c.endConnect != nil {
		c.endConnect(errClosedConnecting)
		c.closing, c.endConnect = nil, nil
	}
	c.mu.Unlock()
	if s != nil {
		return nil, s.Close()
	}
	return nil, nil
}

// setRoots(handle, rootsJSON, resolve, reject)
func (b *bridge) setRoots(o *op) (any, error) {
	roots, err := schema.UnmarshalRoots([]byte(o.arg(1).String()))
	if err != nil {
		return nil, errf.Errorf("mcpwasm: roots: %w", err)
	}
	o.c.client.SetRoots(o.ctx, roots)
	return nil, nil
}

// listen(handle, filterJSON, onNotification, onEnd, resolve, reject):
// resolves with JSON {id, acknowledged}; onNotification(method, paramsJSON)
// receives the subscription's notifications; onEnd(errorJSON|undefined) is
// called once when it ends.
func (b *bridge) listen(o *op) (any, error) {
	onNote, onEnd := o.arg(2), o.arg(3)
	var f core.SubscriptionFilter
	if err := schema.UnmarshalSubscriptionFilter([]byte(o.arg(1).String()), &f); err != nil {
		return nil, errf.Errorf("mcpwasm: subscription filter: %w", err)
	}
	sub, err := o.s.Listen(o.ctx, &f, &core.ListenOptions{
		Handler: func(_ context.Context, method string, params rawjson.RawMessage) {
			defer func() { _ = recover() }()
			onNote.Invoke(method, string(params))
		},
	})
	if err != nil {
		return nil, err
	}
	b.mu.Lock()
	b.next++
	id := b.next
	b.subs[id] = sub
	b.mu.Unlock()
	go func() {
		<-sub.Done()
		b.mu.Lock()
		delete(b.subs, id)
		b.mu.Unlock()
		defer func() { _ = recover() }()
		if err := sub.Err(); err != nil {
			onEnd.Invoke(errorJSON(err))
		} else {
			onEnd.Invoke()
		}
	}()
	w := jsonscan.NewObjectWriter(nil)
	w.Raw("acknowledged", schema.AppendSubscriptionFilter(nil, sub.Acknowledged()))
	w.Int("id", int64(id))
	return rawjson.RawMessage(w.Bytes()), nil
}

// closeListen(id, resolve, reject)
func (b *bridge) closeListen(o *op) (any, error) {
	id := o.arg(0).Int()
	b.mu.Lock()
	sub := b.subs[id]
	b.mu.Unlock()
	if sub != nil {
		return nil, sub.Close()
	}
	return nil, nil
}

// encodeHeader(value) → the Mcp-Param header encoding (sync; for tests and
// for pages that build their own requests).
func (b *bridge) encodeHeader(o *op) (any, error) {
	return wire.EncodeHeaderValue(o.arg(0).String()), nil
}

// stats() → JSON {allocBytes, calls, clients, gcCycles, goHeap, goroutines, mallocs,
// subscriptions}: for
// leak checks and benchmarks.
func (b *bridge) stats(*op) (any, error) {
	var ms runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&ms)
	b.mu.Lock()
	calls, clients, subs := b.calls, len(b.clients), len(b.subs)
	b.mu.Unlock()
	w := jsonscan.NewObjectWriter(nil) // members in encoding/json's order of a map
	w.Int("allocBytes", int64(ms.TotalAlloc))
	w.Int("calls", calls)
	w.Int("clients", int64(clients))
	w.Int("gcCycles", int64(ms.NumGC))
	w.Int("goHeap", int64(ms.HeapAlloc))
	w.Int("goroutines", int64(runtime.NumGoroutine()))
	w.Int("mallocs", int64(ms.Mallocs))
	w.Int("subscriptions", int64(subs))
	out := w.Bytes()
	return string(out), nil
}
