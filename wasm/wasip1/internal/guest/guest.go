package guest

import (
	"context"
	"encoding/json"
	"errors"
	"runtime"
	"sync"

	"github.com/mcpwasm/mcpwasm/core"
	"github.com/mcpwasm/mcpwasm/internal/bridge"
	"github.com/mcpwasm/mcpwasm/internal/errf"
	"github.com/mcpwasm/mcpwasm/transport/fetch"
	"github.com/mcpwasm/mcpwasm/wasm/abi"
)

// Host is what the guest needs from its host: the three HTTP imports of the
// ABI. The calls must not block and must not call back into the guest;
// results arrive later through Guest.HTTPResponse, HTTPBody and HTTPEnd.
// Implementations are called from the guest's goroutines, possibly
// concurrently when the engine runs natively.
type Host interface {
	// HTTPRequest starts an HTTP request. head is the JSON
	// abi.HTTPRequestHead, body the raw request body; both are only valid
	// during the call.
	HTTPRequest(handle uint32, head, body []byte)
	// HTTPRead asks for the next chunk of the response body.
	HTTPRead(handle uint32)
	// HTTPClose releases the handle: the request is aborted if it is still
	// running and nothing more is delivered for it.
	HTTPClose(handle uint32)
}

// Error is the failure of a Guest method: an ABI status code and a
// message. Match it with errors.As.
type Error struct {
	Status int32
	Msg    string
}

func (e *Error) Error() string { return "mcpwasm: " + e.Msg }

func errorf(status int32, format string, args ...any) *Error {
	return &Error{Status: status, Msg: errf.Sprintf(format, args...)}
}

// errCancelled is the cancellation cause of an operation cancelled by the
// host.
var errCancelled = errors.New("mcpwasm: operation cancelled by the host")

// Guest is one instance's engine. The zero value is not usable; call New.
type Guest struct {
	host Host
	doer *doer

	mu        sync.Mutex
	nextID    uint32
	clients   map[uint32]*client
	sessions  map[uint32]*session
	bySession map[*core.Session]uint32
	ops       map[uint32]context.CancelCauseFunc
	questions map[uint32]*question
	handles   map[uint32]*handle
	events    [][]byte
	// deferred holds result events of operations that report progress:
	// core runs progress callbacks on its own goroutine, possibly after
	// the call returned, so these results are released by Poll once the
	// guest is quiescent, behind every progress event of the operation.
	deferred [][]byte
	progress map[uint32]bool // operations that report progress
	// queued is the size of events and deferred in bytes; dropped counts
	// the events dropped since the last Poll (see queue).
	queued  int
	dropped int
}

// Bounds of the event queue between two polls. Notification, progress,
// log and warning events beyond them are dropped (one warning event in
// the next poll says how many); results, requests, cancellations, closed,
// authorize and auth_store events are never dropped (they are bounded by
// the operations and questions the host has open). See docs/wasi-abi.md.
const (
	maxQueuedEvents = 4096
	maxQueuedBytes  = 16 << 20
)

// droppable reports whether an event of type typ may be dropped when the
// queue is full: those that only inform.
func droppable(typ string) bool {
	switch typ {
	case abi.EventNotification, abi.EventProgress, abi.EventLog, abi.EventWarning:
		return true
	}
	return false
}

// New returns an engine that performs HTTP through host.
func New(host Host) *Guest {
	g := &Guest{
		host:      host,
		clients:   map[uint32]*client{},
		sessions:  map[uint32]*session{},
		bySession: map[*core.Session]uint32{},
		ops:       map[uint32]context.CancelCauseFunc{},
		questions: map[uint32]*question{},
		handles:   map[uint32]*handle{},
		progress:  map[uint32]bool{},
	}
	g.doer = &doer{g: g}
	return g
}

// Doer returns the guest's fetch.Doer (HTTP through the host).
func (g *Guest) Doer() fetch.Doer { return g.doer }

// newIDLocked returns a fresh non-zero id, unique across every kind.
func (g *Guest) newIDLocked() uint32 {
	for {
		g.nextID++
		id := g.nextID
		if id == 0 {
			continue
		}
		if g.clients[id] == nil && g.sessions[id] == nil && g.ops[id] == nil && g.questions[id] == nil && g.handles[id] == nil {
			return id
		}
	}
}

// emit queues an event for the host.
func (g *Guest) emit(ev *abi.Event) { g.queue(ev, false) }

// queue encodes an event into the queue, or the deferred queue.
func (g *Guest) queue(ev *abi.Event, deferred bool) {
	b, err := appendEvent(nil, ev)
	if err != nil {
		// Only a malformed raw member can fail; report the event without it.
		b, _ = appendEvent(nil, &abi.Event{Type: abi.EventWarning, Client: ev.Client, Session: ev.Session,
			Message: errf.Sprintf("mcpwasm: dropped a %s event that could not be encoded: %v", ev.Type, err)})
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if !deferred && droppable(ev.Type) &&
		(len(g.events)+len(g.deferred) >= maxQueuedEvents || g.queued+len(b) > maxQueuedBytes) {
		g.dropped++
		return
	}
	g.queued += len(b)
	if deferred {
		g.deferred = append(g.deferred, b)
	} else {
		g.events = append(g.events, b)
	}
}

func (g *Guest) eventCount() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return len(g.events) + len(g.deferred)
}

// Poll bounds, in scheduling rounds.
const (
	maxPollRounds  = 256
	idlePollRounds = 4
)

// Poll lets the guest's goroutines run until they all wait on the host (a
// few scheduling rounds without a new event) and returns the queued events
// as a JSON array, or nil if there are none. It never blocks. Results of
// operations that report progress are released only once the guest is
// quiescent, after the operation's progress events.
func (g *Guest) Poll() []byte {
	idle := 0
	for round := 0; round < maxPollRounds && idle < idlePollRounds; round++ {
		n := g.eventCount()
		runtime.Gosched()
		if g.eventCount() == n {
			idle++
		} else {
			idle = 0
		}
	}
	g.mu.Lock()
	events := g.events
	g.events = nil
	if idle >= idlePollRounds {
		events = append(events, g.deferred...)
		g.deferred = nil
	}
	g.queued = 0
	for _, e := range g.deferred {
		g.queued += len(e)
	}
	if g.dropped > 0 {
		w, _ := appendEvent(nil, &abi.Event{Type: abi.EventWarning, Message: errf.Sprintf(
			"mcpwasm: dropped %d notification, progress, log or warning events: more than %d events or %d MiB were waiting for mcpwasm_poll (poll more often)",
			g.dropped, maxQueuedEvents, maxQueuedBytes>>20)})
		events = append(events, w)
		g.dropped = 0
	}
	g.mu.Unlock()
	if len(events) == 0 {
		return nil
	}
	size := 1
	for _, e := range events {
		size += len(e) + 1
	}
	out := make([]byte, 0, size)
	sep := byte('[')
	for _, e := range events {
		out = append(append(out, sep), e...)
		sep = ','
	}
	return append(out, ']')
}

// newOp registers an operation and returns its id and context.
func (g *Guest) newOp() (uint32, context.Context) {
	ctx, cancel := context.WithCancelCause(context.Background())
	g.mu.Lock()
	id := g.newIDLocked()
	g.ops[id] = cancel
	g.mu.Unlock()
	return id, ctx
}

// finish ends an operation with its result event.
func (g *Guest) finish(op uint32, ctx context.Context, result json.RawMessage, err error) {
	g.mu.Lock()
	cancel := g.ops[op]
	delete(g.ops, op)
	progress := g.progress[op]
	delete(g.progress, op)
	g.mu.Unlock()
	ev := &abi.Event{Type: abi.EventResult, Op: op}
	if err != nil {
		ev.Error = errorInfo(ctx, err)
		if ev.Error.Kind == abi.KindOutputSchema {
			ev.Result = result
		}
	} else {
		if len(result) == 0 {
			result = json.RawMessage(`{}`)
		}
		ev.Result = result
	}
	g.queue(ev, progress)
	if cancel != nil {
		cancel(nil)
	}
}

// run starts an operation's goroutine; a panic fails the operation.
func (g *Guest) run(op uint32, ctx context.Context, f func(ctx context.Context) (json.RawMessage, error)) {
	go func() {
		var (
			res json.RawMessage
			err error
		)
		func() {
			defer func() {
				if r := recover(); r != nil {
					err = &Error{Status: abi.StatusInternal, Msg: errf.Sprintf("internal error: %v", r)}
				}
			}()
			res, err = f(ctx)
		}()
		g.finish(op, ctx, res, err)
	}()
}

// Cancel cancels a running operation. Its result event still follows,
// with error kind "cancelled" unless it had already finished.
func (g *Guest) Cancel(op uint32) error {
	g.mu.Lock()
	cancel := g.ops[op]
	g.mu.Unlock()
	if cancel == nil {
		return errorf(abi.StatusNotFound, "no running operation %d", op)
	}
	cancel(errCancelled)
	return nil
}

// errorInfo classifies an operation's error: the guest's own failures
// first (a cancellation by the host, a refused argument, an HTTP exchange
// the host failed), then the bridge's classification.
func errorInfo(ctx context.Context, err error) *abi.Error {
	var (
		ge   *Error
		herr *httpError
	)
	switch {
	case context.Cause(ctx) == errCancelled && ctx.Err() != nil:
		return &abi.Error{Kind: abi.KindAbort, Code: bridge.CodeRequestTimeout, Message: errCancelled.Error()}
	case errf.As(err, &ge) && ge.Status != abi.StatusNotFound:
		e := &abi.Error{Kind: abi.KindInternal, Code: core.CodeInternalError, Message: err.Error()}
		switch ge.Status {
		case abi.StatusInvalid:
			e.Kind, e.Code = abi.KindInvalid, core.CodeInvalidParams
		case abi.StatusClosed:
			e.Kind, e.Code = abi.KindClosed, bridge.CodeConnectionClosed
		}
		return e
	}
	e := bridge.ErrorInfo(err, bridge.TaskStateWASI)
	if e.Kind == abi.KindInternal && errf.As(err, &herr) {
		e.Kind, e.Code = abi.KindTransport, bridge.CodeConnectionClosed
	}
	return e
}

// decodeStrict decodes a JSON object, rejecting unknown members and
// trailing data.
func decodeStrict(b []byte, v bridge.Decodable, what string) error {
	if err := bridge.DecodeStrict(b, v); err != nil {
		if err == bridge.ErrTrailing {
			return errorf(abi.StatusInvalid, "%s: trailing data after the JSON object", what)
		}
		return errorf(abi.StatusInvalid, "%s: %v", what, err)
	}
	return nil
}
