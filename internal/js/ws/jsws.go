//go:build js

package jsws

import (
	"context"
	"errors"
	"sync"
	"syscall/js"
	"time"

	"github.com/mcpwasm/mcpwasm/internal/errf"
	"github.com/mcpwasm/mcpwasm/internal/js/bridge"
)

// Errors of the package.
var (
	// ErrNoWebSocket means globalThis.WebSocket is not a constructor.
	ErrNoWebSocket = errors.New("jsws: this runtime has no WebSocket")
	// ErrTooLarge means a message exceeded the size limit.
	ErrTooLarge = errors.New("jsws: message too large")
	// ErrNotOpen means Send was called on a socket that is not open.
	ErrNotOpen = errors.New("jsws: the WebSocket is not open")
)

// CloseError is a "close" event: the socket closed with Code and Reason
// (1006 and the runtime's message, if any, when it failed without a close
// frame). It is an immutable value once returned.
type CloseError struct {
	_        [0]func() // not comparable: no generated equality function
	Code     int
	Reason   string
	WasClean bool
	// BeforeOpen is set when the socket closed before it opened after an
	// "error" event: the server may be down or may have refused the
	// handshake or the subprotocol (only a browser's console says which).
	BeforeOpen bool
}

func (e *CloseError) Error() string {
	return errf.Sprintf("jsws: closed with status %d %q", e.Code, e.Reason)
}

// Available reports whether the runtime has a WebSocket class. It is safe
// for concurrent use.
func Available() bool {
	return js.Global().Get("WebSocket").Type() == js.TypeFunction
}

// Message is one received message; the receiver owns Data.
type Message struct {
	Text bool
	Data []byte
}

// Socket is one JavaScript WebSocket. Its methods are safe for concurrent
// use, except that Read must be called from one goroutine at a time.
type Socket struct {
	ws       js.Value
	max      int
	funcs    [4]js.Func // open, message, error, close
	events   [4]string
	opened   chan struct{}
	done     chan struct{} // closed after the close event (or Abort)
	notify   chan struct{} // buffered 1: the queue grew
	protocol string

	mu       sync.Mutex
	queue    []Message
	err      error // why the socket ended; set before done is closed
	sawError bool
	released bool
}

// Dial opens a WebSocket to url offering protocols and waits until it is
// open, it fails, or ctx ends (then the attempt is abandoned). max bounds
// one incoming message in bytes (0: no bound). It is safe for concurrent
// use; it must not be called inside a js.FuncOf callback.
func Dial(ctx context.Context, url string, protocols []string, max int) (s *Socket, err error) {
	defer jsbridge.Recover(&err)
	ctor := js.Global().Get("WebSocket")
	if ctor.Type() != js.TypeFunction {
		return nil, ErrNoWebSocket
	}
	s = &Socket{
		max:    max,
		opened: make(chan struct{}),
		done:   make(chan struct{}),
		notify: make(chan struct{}, 1),
		events: [4]string{"open", "message", "error", "close"},
	}
	ps := make([]any, len(protocols))
	for i, p := range protocols {
		ps[i] = p
	}
	s.ws = ctor.New(url, ps)
	s.ws.Set("binaryType", "arraybuffer")
	s.funcs[0] = js.FuncOf(func(js.Value, []js.Value) any {
		if p := s.ws.Get("protocol"); p.Type() == js.TypeString {
			s.protocol = p.String()
		}
		close(s.opened)
		return js.Undefined()
	})
	s.funcs[1] = js.FuncOf(func(_ js.Value, args []js.Value) any {
		if len(args) > 0 {
			s.onMessage(args[0].Get("data"))
		}
		return js.Undefined()
	})
	s.funcs[2] = js.FuncOf(func(_ js.Value, args []js.Value) any {
		msg := ""
		if len(args) > 0 && args[0].Type() == js.TypeObject {
			if m := args[0].Get("message"); m.Type() == js.TypeString {
				msg = m.String()
			}
		}
		s.mu.Lock()
		s.sawError = true
		s.mu.Unlock()
		// Browsers follow "error" with "close" (code 1006); Node's undici
		// does not when the connection fails before it opened, and may not
		// after. Finish now before open, after a grace period otherwise
		// (a close event arriving first wins: finish is idempotent).
		ce := &CloseError{Code: 1006, Reason: msg}
		if !isOpen(s.opened) {
			s.finish(ce)
		} else {
			time.AfterFunc(time.Second, func() { s.finish(ce) })
		}
		return js.Undefined()
	})
	s.funcs[3] = js.FuncOf(func(_ js.Value, args []js.Value) any {
		ce := &CloseError{Code: 1006}
		if len(args) > 0 && args[0].Type() == js.TypeObject {
			ev := args[0]
			if c := ev.Get("code"); c.Type() == js.TypeNumber {
				ce.Code = c.Int()
			}
			if r := ev.Get("reason"); r.Type() == js.TypeString {
				ce.Reason = r.String()
			}
			ce.WasClean = ev.Get("wasClean").Truthy()
		}
		s.finish(ce)
		return js.Undefined()
	})
	for i, name := range s.events {
		s.ws.Call("addEventListener", name, s.funcs[i])
	}
	select {
	case <-s.opened:
		return s, nil
	case <-s.done:
		return nil, s.err
	case <-ctx.Done():
		s.Abort()
		return nil, ctx.Err()
	}
}

// onMessage runs inside the message callback: copy, check, queue.
func (s *Socket) onMessage(data js.Value) {
	var m Message
	switch data.Type() {
	case js.TypeString:
		m = Message{Text: true, Data: []byte(data.String())}
	case js.TypeObject:
		if data.InstanceOf(js.Global().Get("ArrayBuffer")) {
			m = Message{Data: jsbridge.BytesFromJS(data)}
		} else {
			// A Blob (binaryType was changed by someone else): unreadable
			// synchronously; report its size only.
			m = Message{Data: make([]byte, 0)}
		}
	default:
		return
	}
	if s.max > 0 && len(m.Data) > s.max {
		err := errf.Errorf("%w: %d bytes, the limit is %d", ErrTooLarge, len(m.Data), s.max)
		_ = jsbridge.Call(func() { s.ws.Call("close", closeCode(1009), "message too big") })
		s.finish(err)
		return
	}
	s.mu.Lock()
	if s.err == nil {
		s.queue = append(s.queue, m)
	}
	s.mu.Unlock()
	select {
	case s.notify <- struct{}{}:
	default:
	}
}

// finish ends the socket with err (the first cause wins) and releases the
// callbacks. It never blocks.
func (s *Socket) finish(err error) {
	s.mu.Lock()
	if s.err != nil {
		s.mu.Unlock()
		return
	}
	if ce, ok := err.(*CloseError); ok && s.sawError && !isOpen(s.opened) {
		ce.BeforeOpen = true
	}
	s.err = err
	s.mu.Unlock()
	close(s.done)
	select {
	case s.notify <- struct{}{}:
	default:
	}
	s.release()
}

func isOpen(ch chan struct{}) bool {
	select {
	case <-ch:
		return true
	default:
		return false
	}
}

// release removes and frees the callbacks; once removed they cannot be
// called, so freeing them at once is safe.
func (s *Socket) release() {
	s.mu.Lock()
	if s.released {
		s.mu.Unlock()
		return
	}
	s.released = true
	s.mu.Unlock()
	_ = jsbridge.Call(func() {
		for i, name := range s.events {
			s.ws.Call("removeEventListener", name, s.funcs[i])
		}
	})
	for _, f := range s.funcs {
		f.Release()
	}
}

// Protocol returns the subprotocol the server selected ("" for none).
func (s *Socket) Protocol() string { return s.protocol }

// Read returns the next message; after the socket ended and the queue is
// drained it returns why (a *CloseError for a close event).
func (s *Socket) Read(ctx context.Context) (Message, error) {
	for {
		s.mu.Lock()
		if len(s.queue) > 0 {
			m := s.queue[0]
			s.queue[0] = Message{}
			s.queue = s.queue[1:]
			s.mu.Unlock()
			return m, nil
		}
		err := s.err
		s.mu.Unlock()
		if err != nil {
			return Message{}, err
		}
		select {
		case <-s.notify:
		case <-ctx.Done():
			return Message{}, ctx.Err()
		}
	}
}

// SendText sends data as one text frame.
func (s *Socket) SendText(data []byte) (err error) {
	defer jsbridge.Recover(&err)
	s.mu.Lock()
	ended := s.err
	s.mu.Unlock()
	if ended != nil {
		return errf.Errorf("%w: %w", ErrNotOpen, ended)
	}
	if readyState(s.ws) != 1 {
		return ErrNotOpen
	}
	s.ws.Call("send", string(data))
	return nil
}

// BufferedAmount returns the bytes queued by SendText and not yet sent.
func (s *Socket) BufferedAmount() int {
	v := 0
	_ = jsbridge.Call(func() { v = prop(s.ws, "bufferedAmount").Int() })
	return v
}

// Close starts the closing handshake with code and reason and waits until
// the close event or ctx ends; then the socket is released either way.
func (s *Socket) Close(ctx context.Context, code int, reason string) error {
	err := jsbridge.Call(func() {
		if st := readyState(s.ws); st < 2 {
			s.ws.Call("close", closeCode(code), closeReason(reason))
		}
	})
	select {
	case <-s.done:
	case <-ctx.Done():
		s.Abort()
	}
	return err
}

// prop reads v[name] through Reflect.get: a call, so a getter that throws
// (workerd throws when a WebSocket made while handling one request is used
// while handling another) panics with a js.Error that Recover and
// jsbridge.Call see. A plain Value.Get would throw through the Go stack,
// past every recover, and strand the goroutine and the call waiting on it.
func prop(v js.Value, name string) js.Value {
	return js.Global().Get("Reflect").Call("get", v, name)
}

func readyState(ws js.Value) int { return prop(ws, "readyState").Int() }

// closeCode maps a close code to one a script may send: browsers accept
// only 1000 and 3000-4999 from WebSocket.close.
func closeCode(code int) int {
	if code == 1000 || (code >= 3000 && code <= 4999) {
		return code
	}
	return 1000
}

// closeReason truncates reason to the 123 bytes a close frame allows,
// at a rune boundary.
func closeReason(reason string) string {
	if len(reason) <= 123 {
		return reason
	}
	r := []rune(reason)
	for len(string(r)) > 123 {
		r = r[:len(r)-1]
	}
	return string(r)
}

// Abort closes the socket without waiting and releases it; Read then
// returns a *CloseError with code 1006 if nothing else ended it first.
func (s *Socket) Abort() {
	_ = jsbridge.Call(func() {
		if st := readyState(s.ws); st < 2 {
			s.ws.Call("close", 1000)
		}
	})
	s.finish(&CloseError{Code: 1006, Reason: "closed by the client"})
}
