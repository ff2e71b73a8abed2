//go:build js

package main

// A transport implemented in JavaScript: a "message port" that hands whole
// JSON-RPC messages to Go and takes whole messages from it. mcpwasm/node
// uses it for stdio servers (it spawns the process and splits its output
// into lines); any other message channel (a worker, an extension port)
// fits the same shape. connect(url, {transport: "port", port}) passes the
// port object in place of the fetch function.
//
// The port is an object with three functions:
//
//	start(onMessage, onEnd)  called once, by Connect: the port calls
//	                         onMessage(json string) for every incoming
//	                         message and onEnd(error?) once when the
//	                         channel ended (no error: an orderly end)
//	send(json string)        one outgoing message; may throw
//	close()                  the client is done: end the channel; the port
//	                         calls neither function afterwards
//
// Incoming messages are queued without blocking inside the callback; the
// queue is bounded (maxPortQueue messages waiting for the session): beyond
// it the connection fails instead of growing without end.

import (
	"context"
	"errors"
	"io"
	"sync"
	"syscall/js"

	"github.com/mcpwasm/mcpwasm/core"
	"github.com/mcpwasm/mcpwasm/internal/errf"
	"github.com/mcpwasm/mcpwasm/internal/js/bridge"
	"github.com/mcpwasm/mcpwasm/jsonrpc"
)

const (
	maxPortQueue   = 4096
	maxPortMessage = 32 << 20
)

var (
	errPortUsed     = errors.New("mcpwasm: this port was connected already (a port carries one connection)")
	errPortOverflow = errf.Errorf("mcpwasm: more than %d messages from the port waiting: the connection is given up", maxPortQueue)
)

// portTransport connects once, over the port.
type portTransport struct {
	port js.Value
	mu   sync.Mutex
	used bool
}

// newPortTransport checks the port object connect was given.
func newPortTransport(port js.Value) (core.Transport, error) {
	if port.Type() != js.TypeObject {
		return nil, errors.New(`mcpwasm: transport "port" needs the port object (connect option "port")`)
	}
	for _, f := range []string{"start", "send", "close"} {
		if port.Get(f).Type() != js.TypeFunction {
			return nil, errf.Errorf("mcpwasm: the port has no %s function", f)
		}
	}
	return &portTransport{port: port}, nil
}

func (t *portTransport) Connect(ctx context.Context) (core.Conn, error) {
	t.mu.Lock()
	if t.used {
		t.mu.Unlock()
		return nil, errPortUsed
	}
	t.used = true
	t.mu.Unlock()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	c := &portConn{port: t.port, notify: make(chan struct{}, 1), done: make(chan struct{})}
	c.onMessage = js.FuncOf(func(_ js.Value, args []js.Value) any {
		if len(args) > 0 {
			c.receive(args[0])
		}
		return nil
	})
	c.onEnd = js.FuncOf(func(_ js.Value, args []js.Value) any {
		var err error = io.EOF
		if len(args) > 0 && args[0].Truthy() {
			err = jsbridge.ErrorFrom(args[0])
		}
		c.finish(err)
		return nil
	})
	if err := jsbridge.Call(func() { t.port.Call("start", c.onMessage, c.onEnd) }); err != nil {
		c.release()
		return nil, err
	}
	return c, nil
}

// portConn is the connection over a port.
type portConn struct {
	port      js.Value
	onMessage js.Func
	onEnd     js.Func
	notify    chan struct{} // buffered 1: the queue grew
	done      chan struct{} // closed when the channel ended

	mu       sync.Mutex
	queue    []jsonrpc.Message
	err      error // why it ended (io.EOF: orderly); set before done is closed
	closed   bool
	released bool
}

// receive runs inside onMessage: decode, queue, never block.
func (c *portConn) receive(v js.Value) {
	var msgs []jsonrpc.Message
	var bad error // a message the session gets as a transport error
	if v.Type() != js.TypeString {
		bad = errf.Errorf("mcpwasm: the port sent a %s, not a JSON string", v.Type())
	} else if s := v.String(); len(s) > maxPortMessage {
		bad = errf.Errorf("mcpwasm: a message of %d bytes from the port (the limit is %d)", len(s), maxPortMessage)
	} else if m, err := jsonrpc.DecodeMessages([]byte(s)); err != nil {
		shown := s
		if len(shown) > 200 {
			shown = shown[:200]
		}
		bad = errf.Errorf("mcpwasm: malformed message from the port: %w: %q", err, shown)
	} else {
		msgs = m
	}
	if bad != nil {
		msgs = []jsonrpc.Message{&jsonrpc.Response{TransportErr: bad}}
	}
	c.mu.Lock()
	if c.err != nil {
		c.mu.Unlock()
		return
	}
	if len(c.queue)+len(msgs) > maxPortQueue {
		c.mu.Unlock()
		c.finish(errPortOverflow)
		return
	}
	c.queue = append(c.queue, msgs...)
	c.mu.Unlock()
	select {
	case c.notify <- struct{}{}:
	default:
	}
}

// finish ends the connection with err (the first reason wins).
func (c *portConn) finish(err error) {
	c.mu.Lock()
	if c.err == nil {
		c.err = err
		close(c.done)
	}
	c.mu.Unlock()
}

func (c *portConn) Send(ctx context.Context, msg jsonrpc.Message, _ *core.SendOptions) error {
	b, err := jsonrpc.EncodeMessage(msg)
	if err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	c.mu.Lock()
	closed, ended := c.closed, c.err
	c.mu.Unlock()
	switch {
	case closed:
		return core.ErrClosed
	case ended != nil && ended != io.EOF:
		return ended
	case ended != nil:
		return core.ErrClosed
	}
	return jsbridge.Call(func() { c.port.Call("send", string(b)) })
}

func (c *portConn) Recv(ctx context.Context) (jsonrpc.Message, error) {
	for {
		c.mu.Lock()
		if len(c.queue) > 0 {
			m := c.queue[0]
			c.queue[0] = nil
			c.queue = c.queue[1:]
			if len(c.queue) == 0 {
				c.queue = nil
			}
			c.mu.Unlock()
			return m, nil
		}
		err := c.err
		c.mu.Unlock()
		if err != nil {
			return nil, err
		}
		select {
		case <-c.notify:
		case <-c.done:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

// Close tells the port the client is done and releases the callbacks.
func (c *portConn) Close() error {
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return nil
	}
	c.closed = true
	c.mu.Unlock()
	err := jsbridge.Call(func() { c.port.Call("close") })
	c.finish(io.EOF)
	c.release()
	return err
}

func (c *portConn) release() {
	c.mu.Lock()
	released := c.released
	c.released = true
	c.mu.Unlock()
	if !released {
		c.onMessage.Release()
		c.onEnd.Release()
	}
}
