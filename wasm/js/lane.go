//go:build js

package main

// The fast lane: the hot path between the JavaScript glue and the module
// (requests and their results, and the HTTP exchanges of the fetch helper)
// crosses the boundary as WebAssembly exports and imports that take only
// numbers, with bytes copied through the module's memory, instead of
// js.FuncOf callbacks and syscall/js values. A js.FuncOf call costs an event
// object, a fresh goroutine and a finalizer for every JavaScript value that
// crosses (this, the arguments, each string); an export costs a function
// call. See docs/architecture.md ("The fast lane").
//
// Rules the glue (js/src/lane.js) keeps:
//   - it calls an export only when Go is not running (from a microtask or a
//     later task, never from inside an import or a js.FuncOf callback), and
//     then calls go._resume() once so the goroutines the exports woke run;
//   - mcpwasm_alloc(n) returns a fresh buffer of n bytes that the very next
//     export call takes over: the glue writes into it (through a view made
//     after the call: the memory may have grown) and passes the lengths
//     (the buffer is not zeroed: the export reads only what they cover);
//   - imports never throw into Go (the glue catches everything).

import (
	"context"
	"errors"
	"strconv"
	"sync"
	"unsafe"

	"github.com/mcpwasm/mcpwasm/core"
	schema "github.com/mcpwasm/mcpwasm/internal/bridge"
	"github.com/mcpwasm/mcpwasm/internal/errf"
	"github.com/mcpwasm/mcpwasm/internal/gopool"
	"github.com/mcpwasm/mcpwasm/internal/js/bridge"
	"github.com/mcpwasm/mcpwasm/internal/js/fetch"
	"github.com/mcpwasm/mcpwasm/internal/jsonscan"
	"github.com/mcpwasm/mcpwasm/internal/nozero"
	"github.com/mcpwasm/mcpwasm/internal/rawjson"
	"github.com/mcpwasm/mcpwasm/jsonrpc"
)

// settle(call, ok, ptr, len): the result JSON (ok=1) or the error JSON
// (ok=0) of call.
//
//go:wasmimport mcpwasm settle
func importSettle(call int32, ok int32, p unsafe.Pointer, n int32)

// settleLong(call, base, ptr, skelLen, tabLen): the result JSON of call
// with its long strings left out: the memory at ptr holds the skeleton
// (the result with each such string replaced by 0) and then the table, a
// JSON array of [start, length, path] per string, whose bytes are at
// base+start (see settleCall).
//
//go:wasmimport mcpwasm settleLong
func importSettleLong(call int32, base unsafe.Pointer, p unsafe.Pointer, skelLen int32, tabLen int32)

// progress(call, progress, total, hasTotal, msgPtr, msgLen): a progress
// notification for call.
//
//go:wasmimport mcpwasm progress
func importProgress(call int32, progress float64, total float64, hasTotal int32, p unsafe.Pointer, n int32)

// fetch(id, config, ptr, headLen, bodyLen, flags, maxBody): start HTTP
// exchange id with the fetch configuration config; the memory at ptr holds
// the head (method, URL and header lines joined by "\n") and then the body;
// flags: 1 has a body, 2 redirect "manual"; a body the helper reads whole
// is read up to maxBody+1 bytes.
//
//go:wasmimport mcpwasm fetch
func importFetch(id int32, config int32, p unsafe.Pointer, headLen int32, bodyLen int32, flags int32, maxBody int32)

// abort(id): abort HTTP exchange id.
//
//go:wasmimport mcpwasm abort
func importAbort(id int32)

// lane is the module's side of the fast lane. Its fields are touched only
// on the single wasm thread; mu guards what goroutines share.
type lane struct {
	b     *bridge
	alloc []byte // the buffer the next export takes over

	mu    sync.Mutex
	calls map[int32]context.CancelCauseFunc // requests in flight, by the glue's call number
	pool  *gopool.Pool                      // the goroutines calls run on
}

// theLane is the instance's lane: exports are plain functions, so the state
// they reach lives here (set once by main before the glue can call).
var theLane *lane

// take returns the buffer the glue filled and forgets it.
func (l *lane) take(n int32) []byte {
	b := l.alloc
	l.alloc = nil
	if int(n) > len(b) || n < 0 {
		return nil
	}
	return b[:n]
}

// mcpwasm_alloc(n) → pointer to a fresh buffer of n bytes for the next export.
//
//go:wasmexport mcpwasm_alloc
func exportAlloc(n int32) unsafe.Pointer {
	if n <= 0 {
		n = 1
	}
	// Not zeroed: the glue writes every byte the export then reads (the
	// lengths it passes), and a 1 MB body's zeroing was a pass of its own.
	theLane.alloc = nozero.Bytes(int(n))
	return unsafe.Pointer(&theLane.alloc[0])
}

// mcpwasm_request(call, handle, methodLen, paramsLen, optsLen, flags): the
// buffer holds the method, the params JSON ("" for none) and the options
// JSON ("" for none); flags: 1 the caller wants progress, 2 the caller has
// an AbortSignal (mcpwasm_cancel may follow).
//
//go:wasmexport mcpwasm_request
func exportRequest(call, handle, methodLen, paramsLen, optsLen, flags int32) {
	l := theLane
	buf := l.take(methodLen + paramsLen + optsLen)
	if buf == nil {
		l.fail(call, errors.New("mcpwasm: request arguments lost"))
		return
	}
	method := string(buf[:methodLen])
	var params, opts rawjson.RawMessage
	if paramsLen > 0 {
		params = buf[methodLen : methodLen+paramsLen]
	}
	if optsLen > 0 {
		opts = buf[methodLen+paramsLen:]
	}
	l.request(call, handle, method, params, opts, flags&1 != 0, flags&2 != 0)
}

// mcpwasm_cancel(call): the caller's AbortSignal fired.
//
//go:wasmexport mcpwasm_cancel
func exportCancel(call int32) {
	l := theLane
	l.mu.Lock()
	cancel := l.calls[call]
	l.mu.Unlock()
	if cancel != nil {
		cancel(jsbridge.ErrAborted) // the glue rejects with the signal's reason
	}
}

// mcpwasm_deliver(id, kind, status, typeLen, headLen, bodyLen): the fetch
// helper reports on exchange id (kinds as in jsfetch.HostLink.Deliver); the
// buffer holds the response type, the header lines and the body bytes.
//
//go:wasmexport mcpwasm_deliver
func exportDeliver(id, kind, status, typeLen, headLen, bodyLen int32) {
	l := theLane
	buf := l.take(typeLen + headLen + bodyLen)
	if buf == nil && typeLen+headLen+bodyLen > 0 {
		return
	}
	host := l.b.hostLink()
	if host == nil {
		return
	}
	typ := string(buf[:typeLen])
	lines := string(buf[typeLen : typeLen+headLen])
	body := buf[typeLen+headLen:]
	host.Deliver(int(id), int(kind), int(status), typ, lines, body)
}

// fail settles call with err at once.
func (l *lane) fail(call int32, err error) {
	settleCall(call, nil, err, nil)
}

// settleCall hands the outcome of call to the glue; from is the response
// the result came from, when the pipeline saw one.
func settleCall(call int32, raw rawjson.RawMessage, err error, from *jsonrpc.Response) {
	if err != nil {
		s := errorJSON(err)
		importSettle(call, 0, unsafe.Pointer(unsafe.StringData(s)), int32(len(s)))
		return
	}
	if len(raw) == 0 {
		importSettle(call, 1, nil, 0)
		return
	}
	if len(raw) >= longResult {
		// The decoder recorded the long strings of a big result as it
		// validated it: when raw is still that result, its walk here skips
		// them, and a result without any needs no walk.
		var known []jsonscan.StringSpan
		if from != nil && len(from.Result) == len(raw) && &from.Result[0] == &raw[0] {
			known, _ = from.ResultStrings()
		}
		if known == nil || len(known) > 0 {
			if ls := jsonscan.LongStrings(raw, longString, known); ls != nil {
				settleLong(call, raw, ls)
				return
			}
		}
	}
	importSettle(call, 1, unsafe.Pointer(&raw[0]), int32(len(raw)))
}

// settleLong hands the result raw to the glue with the strings ls left
// out: the skeleton, then the table of [start, length, path] per string.
func settleLong(call int32, raw rawjson.RawMessage, ls []jsonscan.LongString) {
	n := len(raw) + 2
	for _, s := range ls {
		n += 24 + len(s.Path) - (s.End - s.Start)
	}
	buf := jsonscan.AppendSkeleton(make([]byte, 0, n), raw, ls)
	skel := len(buf)
	buf = append(buf, '[')
	for k, s := range ls {
		if k > 0 {
			buf = append(buf, ',')
		}
		buf = append(buf, '[')
		buf = strconv.AppendInt(buf, int64(s.Start), 10)
		buf = append(buf, ',')
		buf = strconv.AppendInt(buf, int64(s.End-s.Start), 10)
		buf = append(buf, ',')
		buf = append(buf, s.Path...)
		buf = append(buf, ']')
	}
	buf = append(buf, ']')
	importSettleLong(call, unsafe.Pointer(&raw[0]), unsafe.Pointer(&buf[0]), int32(skel), int32(len(buf)-skel))
}

// Results of at least longResult bytes are handed to the glue with their
// strings of at least longString bytes (that hold no escape) left out of
// the JSON text: the glue decodes each such string straight from the
// module's memory and puts it in place, so JSON.parse does not scan it and
// no second copy of it is made (see docs/architecture.md, "Long strings").
// They are the sizes from which the decoder records a result's long
// strings.
const (
	longResult = jsonrpc.LongMessage
	longString = jsonrpc.LongString
)

// request starts a call on a pooled goroutine.
func (l *lane) request(call, handle int32, method string, params, optsJSON rawjson.RawMessage, progress, cancellable bool) {
	b := l.b
	c, err := b.entryByHandle(int(handle))
	if err != nil {
		l.fail(call, err)
		return
	}
	var o *schema.CallOptions
	if optsJSON != nil {
		o = new(schema.CallOptions)
		if err := schema.Decode(optsJSON, o, "call options"); err != nil {
			l.fail(call, err)
			return
		}
	}
	ctx, cancel := context.Background(), context.CancelCauseFunc(nil)
	if cancellable {
		ctx, cancel = context.WithCancelCause(ctx)
		l.mu.Lock()
		l.calls[call] = cancel
		l.mu.Unlock()
	}
	b.mu.Lock()
	b.calls++
	b.mu.Unlock()
	l.pool.Go(func() {
		var (
			raw  rawjson.RawMessage
			err  error
			from *jsonrpc.Response
		)
		func() {
			defer func() {
				if r := recover(); r != nil {
					err = errf.Errorf("mcpwasm: internal error: %v", r)
				}
			}()
			raw, err = c.request(ctx, method, params, o, progress, call, &from)
		}()
		if cancel != nil {
			cancel(nil)
			l.mu.Lock()
			delete(l.calls, call)
			l.mu.Unlock()
		}
		b.mu.Lock()
		b.calls--
		b.mu.Unlock()
		if err != nil {
			err = schema.WithResult(err, raw)
		}
		settleCall(call, raw, err, from)
	})
}

// request runs one call on the connected session; *from receives the
// response its result came from (see settleCall).
func (c *clientEntry) request(ctx context.Context, method string, params rawjson.RawMessage, o *schema.CallOptions, progress bool, call int32, from **jsonrpc.Response) (rawjson.RawMessage, error) {
	s, err := c.sess()
	if err != nil {
		return nil, err
	}
	opts := o.Core()
	opts.OnResponse = func(r *jsonrpc.Response) { *from = r }
	if progress {
		opts.OnProgress = func(p *core.ProgressParams) {
			total, has := 0.0, int32(0)
			if p.Total != nil {
				total, has = *p.Total, 1
			}
			importProgress(call, p.Progress, total, has, unsafe.Pointer(unsafe.StringData(p.Message)), int32(len(p.Message)))
		}
	}
	return schema.Call(ctx, s, method, params, opts) // the bridge's method table
}

// lanePort is jsfetch.Port over the fast lane's imports.
type lanePort struct{}

func (lanePort) Start(id, config int, head string, body []byte, noRedirect bool, maxBody int) {
	// One buffer: the head, then the body (a copy: the import reads it at once).
	buf := make([]byte, 0, len(head)+len(body))
	buf = append(buf, head...)
	buf = append(buf, body...)
	flags := int32(0)
	if body != nil {
		flags |= 1
	}
	if noRedirect {
		flags |= 2
	}
	var p unsafe.Pointer
	if len(buf) > 0 {
		p = unsafe.Pointer(&buf[0])
	}
	importFetch(int32(id), int32(config), p, int32(len(head)), int32(len(body)), flags, int32(min(maxBody, 1<<31-2)))
}

func (lanePort) Abort(id int) { importAbort(int32(id)) }

var _ jsfetch.Port = lanePort{}
