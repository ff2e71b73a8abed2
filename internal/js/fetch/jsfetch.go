//go:build js

package jsfetch

import (
	"context"
	"errors"
	"io"
	"strings"
	"sync"
	"syscall/js"

	"github.com/mcpwasm/mcpwasm/internal/errf"
	"github.com/mcpwasm/mcpwasm/internal/js/bridge"
	"github.com/mcpwasm/mcpwasm/internal/nozero"
	"github.com/mcpwasm/mcpwasm/internal/order"
	"github.com/mcpwasm/mcpwasm/transport/fetch"
)

// Errors of a Fetcher.
var (
	// ErrNoFetch means the runtime has no fetch function (and none was
	// given).
	ErrNoFetch = errors.New("jsfetch: this runtime has no fetch function")
	// ErrNetwork means fetch rejected with a TypeError: the request did not
	// reach the server or its answer could not be read. Browsers report a
	// refused CORS request (a preflight the server did not answer, or a
	// response without Access-Control-Allow-Origin) the same way, and tell
	// only the developer console which it was.
	ErrNetwork = errors.New("jsfetch: network error")
	// ErrNotResponse means the fetch function resolved to something that is
	// not a Response.
	ErrNotResponse = errors.New("jsfetch: the fetch function did not resolve to a Response")
	// ErrBodyClosed is returned by Read after the body was closed.
	ErrBodyClosed = errors.New("jsfetch: response body closed")
)

// Hook carries JavaScript values from mcpwasm's GOOS=js entry points into
// transport/fetch: a user-supplied fetch function and extra RequestInit
// members. The zero value adds nothing. A Hook is read, never modified, so
// it may be shared.
type Hook struct {
	// Fetch is a JavaScript function with fetch's signature (input, init)
	// → Promise<Response>. Undefined or null means globalThis.fetch.
	Fetch js.Value
	// Init is an object whose own enumerable members are copied onto every
	// request's RequestInit before the Fetcher sets its own (method,
	// headers, body, signal, redirect and the Options strings win).
	// Undefined or null means none.
	Init js.Value
	// Host, when set, performs the exchanges through a JavaScript helper
	// (see HostLink): the same behaviour with far fewer boundary crossings.
	Host *HostLink
}

// Options configure a Fetcher; nil means every default. New copies them.
// The strings are
// RequestInit members; "" leaves the runtime's default (credentials
// "same-origin", mode "cors"). CheckInit documents the accepted values.
type Options struct {
	Credentials    string
	Mode           string
	Cache          string
	ReferrerPolicy string
	// Hook supplies a fetch function and extra RequestInit members.
	Hook Hook
}

// Fetcher performs HTTP requests with a JavaScript fetch function. It is
// safe for concurrent use by goroutines (all JavaScript calls happen on the
// single wasm thread).
type Fetcher struct {
	fn   js.Value // user fetch, or undefined for globalThis.fetch
	init js.Value // extra RequestInit members, or undefined
	strs [4][2]string
	// hostInit is strs as the host helper takes them (see HostLink), or
	// undefined when none is set.
	hostInit any
	host     *HostLink
	// hostConfig is the helper's number for this configuration (0 until
	// registered; guarded by host.mu).
	hostConfig int
}

// New returns a Fetcher. It fails with ErrBadOption for an invalid option
// and when Hook.Fetch is set but is not a function. It is safe for
// concurrent use.
func New(opts *Options) (*Fetcher, error) {
	f := &Fetcher{fn: js.Undefined(), init: js.Undefined(), hostInit: js.Undefined()}
	if opts == nil {
		return f, nil
	}
	if err := CheckInit(opts.Credentials, opts.Mode, opts.Cache, opts.ReferrerPolicy); err != nil {
		return nil, err
	}
	f.strs = [4][2]string{
		{"credentials", opts.Credentials},
		{"mode", opts.Mode},
		{"cache", opts.Cache},
		{"referrerPolicy", opts.ReferrerPolicy},
	}
	if opts.Credentials != "" || opts.Mode != "" || opts.Cache != "" || opts.ReferrerPolicy != "" {
		f.hostInit = opts.Credentials + "\n" + opts.Mode + "\n" + opts.Cache + "\n" + opts.ReferrerPolicy
	}
	f.host = opts.Hook.Host
	switch t := opts.Hook.Fetch.Type(); t {
	case js.TypeUndefined, js.TypeNull:
	case js.TypeFunction:
		f.fn = opts.Hook.Fetch
	default:
		return nil, errf.Errorf("%w: fetch must be a function, got %s", ErrBadOption, t)
	}
	switch t := opts.Hook.Init.Type(); t {
	case js.TypeUndefined, js.TypeNull:
	case js.TypeObject:
		f.init = opts.Hook.Init
	default:
		return nil, errf.Errorf("%w: requestInit must be an object, got %s", ErrBadOption, t)
	}
	return f, nil
}

// Request is one HTTP request, transport/fetch's: Do does not modify it
// (nor keep it past the exchange). Header names may be in any case; Body
// is sent as a Uint8Array (nil sends none); NoRedirect sets redirect:
// "manual": a redirect is returned, not followed. Browsers return it as an
// "opaqueredirect" response with status 0 and no readable headers; Node
// returns the 3xx response. (One type for both packages: the Doer passes
// the transport's request through as it is.)
type Request = fetch.Request

// Response is one HTTP response. Its fields must not be modified; Body must
// be closed. Hidden is safe for concurrent use; Body follows io.Reader's
// rule (one reader at a time), and its Close may be called from any
// goroutine, also during a Read.
type Response struct {
	// Status is the HTTP status (0 for opaque responses).
	Status int
	// Type is Response.type: "basic", "cors", "default", "opaque",
	// "opaqueredirect" or "error".
	Type string
	// Header holds the readable headers, lower-case names. Like fetch's
	// Headers, repeated headers come joined by ", " in one value.
	Header map[string][]string
	// Body streams the response body.
	Body io.ReadCloser
}

// Hidden reports whether the absent or present header name may have been
// hidden from the script by CORS (see HiddenByCORS).
func (r *Response) Hidden(name string) bool {
	_, present := r.Header[strings.ToLower(name)]
	return HiddenByCORS(r.Type, name, present)
}

// Do sends req and returns once the response headers arrived; the body is
// read as the caller reads Body. ctx bounds the whole exchange: when it
// ends, the request is aborted (a body being read fails). Do is safe for
// concurrent use.
func (f *Fetcher) Do(ctx context.Context, req *Request) (resp *Response, err error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if f.host != nil {
		return f.doHost(ctx, f.host, req)
	}
	var (
		ac       js.Value
		stop     = func() bool { return false }
		p        js.Value
		setupErr error
	)
	abort := func() { abortFetch(ac) }
	err = jsbridge.Call(func() {
		global := js.Global()
		fn, this := f.fn, js.Undefined()
		if fn.IsUndefined() {
			fn, this = global.Get("fetch"), global
		}
		if fn.Type() != js.TypeFunction {
			setupErr = ErrNoFetch
			return
		}
		acCtor := global.Get("AbortController")
		if acCtor.Type() != js.TypeFunction {
			setupErr = jsbridge.ErrNoAbortController
			return
		}
		ac = acCtor.New()
		object := global.Get("Object")
		init := object.New()
		if f.init.Type() == js.TypeObject {
			object.Call("assign", init, f.init)
		}
		init.Set("method", req.Method)
		pairs := make([]any, 0, len(req.Header))
		for k, vs := range req.Header {
			for _, v := range vs {
				pairs = append(pairs, []any{k, v})
			}
		}
		init.Set("headers", pairs)
		if req.Body != nil {
			init.Set("body", jsbridge.BytesToJS(req.Body))
		} else {
			init.Delete("body")
		}
		init.Set("signal", ac.Get("signal"))
		for _, kv := range f.strs {
			if kv[1] != "" {
				init.Set(kv[0], kv[1])
			}
		}
		if req.NoRedirect {
			init.Set("redirect", "manual")
		}
		stop = context.AfterFunc(ctx, abort)
		p = global.Get("Reflect").Call("apply", fn, this, []any{req.URL, init})
	})
	if err == nil {
		err = setupErr
	}
	if err != nil {
		stop()
		return nil, fetchError(err, req)
	}
	v, err := jsbridge.Await(ctx, p)
	if err != nil {
		stop()
		abortFetch(ac)
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, fetchError(err, req)
	}
	resp, err = newResponse(v, ac, stop)
	if err != nil {
		stop()
		abortFetch(ac)
		return nil, err
	}
	return resp, nil
}

// abortFetch aborts the request of AbortController ac.
func abortFetch(ac js.Value) {
	_ = jsbridge.Call(func() { ac.Call("abort") })
}

// swallow, deferred, recovers a panic (a JavaScript exception) and drops
// it: the function returns its zero results.
func swallow() { recover() }

// fetchError classifies a rejection of fetch. A TypeError is how fetch
// reports both a network failure and a refused CORS request (a browser
// hides which), so the error names what a CORS policy must allow for req.
func fetchError(err error, req *Request) error {
	var je *jsbridge.Error
	if !errf.As(err, &je) {
		return err
	}
	cause := ""
	if c := causeOf(je.Value); c != "" {
		cause = " (" + c + ")"
	}
	if je.Name == "TypeError" {
		if !inBrowser() {
			// Node, Deno, Bun and edge runtimes enforce no CORS.
			return errf.Errorf("%w: %w%s", ErrNetwork, err, cause)
		}
		return errf.Errorf("%w (a browser reports a refused CORS request this way too%s): %w%s", ErrNetwork, corsHint(req), err, cause)
	}
	return errf.Errorf("jsfetch: fetch rejected: %w%s", err, cause)
}

// inBrowser reports whether the module runs in a browser page or Web
// Worker, the only places that enforce CORS: a page has a document, a
// worker a WorkerGlobalScope with importScripts (edge runtimes and Deno
// have neither both).
func inBrowser() bool {
	defer swallow()
	g := js.Global()
	if g.Get("document").Type() == js.TypeObject {
		return true
	}
	return g.Get("WorkerGlobalScope").Type() == js.TypeFunction && g.Get("importScripts").Type() == js.TypeFunction
}

// corsHint says what a server on another origin must allow for req: its
// method and the request headers that are not CORS-safelisted.
func corsHint(req *Request) string {
	if req == nil {
		return ""
	}
	var names []string
	for k := range req.Header {
		switch strings.ToLower(k) {
		case "accept", "accept-language", "content-language":
			continue
		}
		names = append(names, k)
	}
	if len(names) == 0 {
		return ""
	}
	order.Strings(names)
	return errf.Sprintf("; a server on another origin must allow this %s with Access-Control-Allow-Origin and the request headers %s with Access-Control-Allow-Headers",
		req.Method, strings.Join(names, ", "))
}

// causeOf returns the message of an Error's cause (Node's undici puts the
// socket error there), or "".
func causeOf(v js.Value) string {
	defer swallow()
	if v.Type() != js.TypeObject {
		return ""
	}
	c := v.Get("cause")
	switch c.Type() {
	case js.TypeObject:
		if m := c.Get("message"); m.Type() == js.TypeString {
			msg := m.String()
			if code := c.Get("code"); code.Type() == js.TypeString && !strings.Contains(msg, code.String()) {
				msg = code.String() + ": " + msg
			}
			return msg
		}
	case js.TypeString:
		return c.String()
	}
	return ""
}

// newResponse reads status, type and headers of a JavaScript Response.
func newResponse(v js.Value, ac js.Value, stop func() bool) (r *Response, err error) {
	defer jsbridge.Recover(&err)
	if v.Type() != js.TypeObject {
		return nil, errf.Errorf("%w (got %s)", ErrNotResponse, v.Type())
	}
	status, headers := v.Get("status"), v.Get("headers")
	if status.Type() != js.TypeNumber || headers.Type() != js.TypeObject {
		return nil, errf.Errorf("%w (got %s)", ErrNotResponse, v.Type())
	}
	r = &Response{Status: status.Int()}
	if t := v.Get("type"); t.Type() == js.TypeString {
		r.Type = t.String()
	} else {
		r.Type = TypeDefault
	}
	// One crossing for all headers: names and values joined by "\n",
	// which fetch's Headers never contain (they reject CR, LF and NUL).
	flat := js.Global().Get("Array").Call("from", headers).Call("flat")
	parts := strings.Split(flat.Call("join", "\n").String(), "\n")
	if len(parts) != flat.Length() {
		// Not a real Headers object: take the entries one by one.
		parts = parts[:0]
		for i, n := 0, flat.Length(); i < n; i++ {
			parts = append(parts, flat.Index(i).String())
		}
	}
	r.Header = headerPairs(parts)
	b := &body{ac: ac, stop: stop, ch: make(chan chunk, 1), closedCh: make(chan struct{}), rest: js.Undefined(), reader: js.Undefined()}
	if s := v.Get("body"); s.Type() == js.TypeObject {
		b.reader = s.Call("getReader")
		b.onOK = js.FuncOf(func(_ js.Value, args []js.Value) any {
			c := chunk{done: true}
			if len(args) > 0 && args[0].Type() == js.TypeObject {
				c.done = args[0].Get("done").Truthy()
				c.v = args[0].Get("value")
			}
			b.ch <- c
			return nil
		})
		b.onErr = js.FuncOf(func(_ js.Value, args []js.Value) any {
			v := js.Undefined()
			if len(args) > 0 {
				v = args[0]
			}
			b.ch <- chunk{err: jsbridge.ErrorFrom(v)}
			return nil
		})
		b.funcs = true
	} else {
		b.err = io.EOF
	}
	r.Body = b
	return r, nil
}

type chunk struct {
	v    js.Value
	done bool
	err  error
}

// body streams a ReadableStream through a default reader. Read must not be
// called concurrently with itself (io.Reader's contract); Close may be
// called at any time, from any goroutine.
type body struct {
	reader   js.Value
	ac       js.Value
	stop     func() bool
	onOK     js.Func
	onErr    js.Func
	ch       chan chunk // the settled read(); at most one read is in flight
	closedCh chan struct{}
	rest     js.Value // unread part of the last chunk (Uint8Array)

	mu       sync.Mutex
	funcs    bool // onOK/onErr are allocated and not yet released
	inflight bool
	closed   bool
	err      error // sticky: io.EOF or the failure
}

func (b *body) Read(p []byte) (n int, err error) {
	defer jsbridge.Recover(&err)
	if len(p) == 0 {
		return 0, nil
	}
	if err := b.next(); err != nil {
		return 0, err
	}
	n = js.CopyBytesToGo(p, b.rest)
	if n < b.rest.Length() {
		b.rest = b.rest.Call("subarray", n)
	} else {
		b.rest = js.Undefined()
	}
	return n, nil
}

// Chunk returns the next chunk of the stream whole, copied into a buffer
// of its own that the caller may keep; it blocks as Read does and returns
// io.EOF at the end. The SSE reader (internal/sse) parses event streams
// from it in place.
func (b *body) Chunk() (c []byte, err error) {
	defer jsbridge.Recover(&err)
	if err := b.next(); err != nil {
		return nil, err
	}
	c = nozero.Bytes(b.rest.Length()) // filled whole by the copy
	js.CopyBytesToGo(c, b.rest)
	b.rest = js.Undefined()
	return c, nil
}

// next waits until b.rest holds unread bytes, or the body ended.
func (b *body) next() error {
	for {
		b.mu.Lock()
		closed := b.closed
		b.mu.Unlock()
		if closed {
			return ErrBodyClosed
		}
		if b.rest.Type() == js.TypeObject {
			return nil
		}
		b.mu.Lock()
		if b.closed {
			b.mu.Unlock()
			return ErrBodyClosed
		}
		if b.err != nil {
			err := b.err
			b.mu.Unlock()
			return err
		}
		b.inflight = true
		b.mu.Unlock()
		if err := jsbridge.Call(func() { b.reader.Call("read").Call("then", b.onOK, b.onErr) }); err != nil {
			b.mu.Lock()
			b.inflight = false
			b.err = errf.Errorf("jsfetch: reading the response body: %w", err)
			b.releaseLocked()
			b.mu.Unlock()
			return err
		}
		var c chunk
		select {
		case c = <-b.ch:
		case <-b.closedCh:
			// Close cancelled the reader: the pending read settles soon;
			// release the callbacks once it has.
			go func() {
				<-b.ch
				b.mu.Lock()
				b.inflight = false
				b.releaseLocked()
				b.mu.Unlock()
			}()
			return ErrBodyClosed
		}
		b.mu.Lock()
		b.inflight = false
		switch {
		case b.closed:
			b.releaseLocked()
			b.mu.Unlock()
			return ErrBodyClosed
		case c.err != nil:
			b.err = errf.Errorf("jsfetch: reading the response body: %w", c.err)
			b.releaseLocked()
			err := b.err
			b.mu.Unlock()
			return err
		case c.done:
			b.err = io.EOF
			b.releaseLocked()
			b.mu.Unlock()
			return io.EOF
		}
		b.mu.Unlock()
		if c.v.Type() == js.TypeObject && c.v.Length() > 0 {
			b.rest = c.v
		}
	}
}

// releaseLocked frees the callbacks once no read can call them.
func (b *body) releaseLocked() {
	if b.funcs && !b.inflight && (b.closed || b.err != nil) {
		b.funcs = false
		b.onOK.Release()
		b.onErr.Release()
	}
}

// Close cancels the stream and aborts the request (closing the HTTP
// response stream); it is safe to call more than once and concurrently
// with Read.
func (b *body) Close() error {
	b.mu.Lock()
	if b.closed {
		b.mu.Unlock()
		return nil
	}
	b.closed = true
	close(b.closedCh)
	finished := b.err == io.EOF
	b.mu.Unlock()
	b.stop()
	if !finished {
		_ = jsbridge.Call(func() {
			if b.reader.Type() == js.TypeObject {
				// cancel() settles a pending read with done; its own
				// Promise must not reject unhandled (Node would crash).
				b.reader.Call("cancel").Call("catch", js.Global().Get("Function").Get("prototype"))
			}
			b.ac.Call("abort")
		})
	}
	b.mu.Lock()
	b.releaseLocked()
	b.mu.Unlock()
	return nil
}
