//go:build js

package jsbridge

import (
	"context"
	"errors"
	"syscall/js"

	"github.com/mcpwasm/mcpwasm/internal/errf"
)

// Error is a JavaScript exception or Promise rejection seen from Go.
// Value is the thrown value. Error values are safe to share; Value must only
// be used from Go code running under GOOS=js.
type Error struct {
	Name    string
	Message string
	Value   js.Value
}

func (e *Error) Error() string {
	if e.Name != "" && e.Name != "Error" {
		return "js: " + e.Name + ": " + e.Message
	}
	return "js: " + e.Message
}

// ErrorFrom converts a thrown JavaScript value to an error.
func ErrorFrom(v js.Value) error {
	e := &Error{Value: v}
	switch v.Type() {
	case js.TypeObject:
		if n := v.Get("name"); n.Type() == js.TypeString {
			e.Name = n.String()
		}
		if m := v.Get("message"); m.Type() == js.TypeString {
			e.Message = m.String()
		} else {
			e.Message = safeString(v)
		}
	case js.TypeUndefined, js.TypeNull:
		e.Message = v.Type().String()
	default:
		e.Message = safeString(v)
	}
	return e
}

func safeString(v js.Value) (s string) {
	defer func() {
		if recover() != nil {
			s = "<unprintable value>"
		}
	}()
	return js.Global().Get("String").Invoke(v).String()
}

type settled struct {
	v   js.Value
	err error
}

// Await waits until the Promise p settles or ctx is done, and returns its
// value or its rejection as an *Error. A non-Promise value is returned as
// is. Await blocks its goroutine (the JavaScript event loop keeps running);
// it must not be called inside a js.FuncOf callback. When ctx ends first,
// the callbacks stay registered until the Promise settles and are released
// then.
func Await(ctx context.Context, p js.Value) (js.Value, error) {
	if p.Type() != js.TypeObject || p.Get("then").Type() != js.TypeFunction {
		return p, nil
	}
	ch := make(chan settled, 1)
	onFulfilled := js.FuncOf(func(_ js.Value, args []js.Value) any {
		v := js.Undefined()
		if len(args) > 0 {
			v = args[0]
		}
		ch <- settled{v: v}
		return nil
	})
	onRejected := js.FuncOf(func(_ js.Value, args []js.Value) any {
		v := js.Undefined()
		if len(args) > 0 {
			v = args[0]
		}
		ch <- settled{err: ErrorFrom(v)}
		return nil
	})
	release := func() {
		onFulfilled.Release()
		onRejected.Release()
	}
	if err := Call(func() { p.Call("then", onFulfilled, onRejected) }); err != nil {
		release()
		return js.Undefined(), err
	}
	select {
	case r := <-ch:
		release()
		return r.v, r.err
	case <-ctx.Done():
		go func() {
			<-ch
			release()
		}()
		return js.Undefined(), ctx.Err()
	}
}

// Call runs f, turning a JavaScript exception (a panic with a js.Error) or
// any other panic into an error.
func Call(f func()) (err error) {
	defer Recover(&err)
	f()
	return nil
}

// Recover is deferred by goroutines and functions that touch JavaScript
// values: it turns a panic into *err (a thrown JavaScript value becomes an
// *Error).
func Recover(err *error) {
	r := recover()
	if r == nil {
		return
	}
	switch v := r.(type) {
	case js.Error:
		*err = ErrorFrom(v.Value)
	case error:
		*err = errf.Errorf("jsbridge: panic: %w", v)
	default:
		*err = errf.Errorf("jsbridge: panic: %v", v)
	}
}

// BytesToJS copies b into a new Uint8Array.
func BytesToJS(b []byte) js.Value {
	a := js.Global().Get("Uint8Array").New(len(b))
	js.CopyBytesToJS(a, b)
	return a
}

// BytesFromJS copies a Uint8Array (or an ArrayBuffer) into a new slice.
func BytesFromJS(v js.Value) []byte {
	if v.InstanceOf(js.Global().Get("ArrayBuffer")) {
		v = js.Global().Get("Uint8Array").New(v)
	}
	b := make([]byte, v.Get("byteLength").Int())
	js.CopyBytesToGo(b, v)
	return b
}

// ErrNoAbortController means the runtime has no AbortController.
var ErrNoAbortController = errors.New("jsbridge: AbortController is not available")

// AbortSignal returns an AbortSignal that aborts when ctx is done, and a
// stop function that must be called when the signal is no longer needed
// (it detaches from ctx; the signal is not aborted by stop).
func AbortSignal(ctx context.Context) (signal js.Value, stop func(), err error) {
	ctor := js.Global().Get("AbortController")
	if ctor.Type() != js.TypeFunction {
		return js.Undefined(), func() {}, ErrNoAbortController
	}
	ac := ctor.New()
	if ctx.Err() != nil {
		ac.Call("abort")
		return ac.Get("signal"), func() {}, nil
	}
	detach := context.AfterFunc(ctx, func() {
		defer func() { _ = recover() }()
		ac.Call("abort")
	})
	return ac.Get("signal"), func() { detach() }, nil
}

// ContextFromSignal returns a context cancelled when the JavaScript
// AbortSignal aborts (or at once if it already has). The returned cancel
// releases the listener; it must be called.
func ContextFromSignal(parent context.Context, signal js.Value) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancelCause(parent)
	if signal.Type() != js.TypeObject {
		return ctx, func() { cancel(nil) }
	}
	if signal.Get("aborted").Truthy() {
		cancel(abortReason(signal))
		return ctx, func() {}
	}
	var onAbort js.Func
	onAbort = js.FuncOf(func(js.Value, []js.Value) any {
		cancel(abortReason(signal))
		return js.Undefined() // an event listener returns nothing (workerd warns about null)
	})
	signal.Call("addEventListener", "abort", onAbort)
	return ctx, func() {
		signal.Call("removeEventListener", "abort", onAbort)
		onAbort.Release()
		cancel(nil)
	}
}

// ErrAborted is the cancellation cause of a context whose AbortSignal
// aborted without a reason.
var ErrAborted = errors.New("jsbridge: aborted")

func abortReason(signal js.Value) error {
	r := signal.Get("reason")
	if r.Type() == js.TypeUndefined {
		return ErrAborted
	}
	return errf.Errorf("%w: %w", ErrAborted, ErrorFrom(r))
}
