package core

import (
	"sync"

	"github.com/mcpwasm/mcpwasm/internal/errf"
	"github.com/mcpwasm/mcpwasm/jsonrpc"
)

// notificationQueue runs notification handlers in arrival order on one
// goroutine, so a slow handler never stalls the connection's reader. It is
// bounded (ClientOptions.MaxQueuedNotifications handlers and
// maxQueuedNotificationBytes of their params): beyond that notifications
// are dropped with a warning, never queued without limit. Backpressure is
// not an option: a handler that makes a request waits for a response that
// the same reader delivers.
type notificationQueue struct {
	mu      sync.Mutex
	items   []func()
	sizes   []int
	bytes   int
	limit   int
	dropped int // in the current overflow episode
	onDrop  func(queued, dropped int, over bool)
	wake    chan struct{}
	closed  bool
}

// maxQueuedNotificationBytes bounds the params held by queued handlers.
const maxQueuedNotificationBytes = 64 << 20

func (q *notificationQueue) init(limit int, onDrop func(queued, dropped int, over bool)) {
	q.wake = make(chan struct{}, 1)
	q.limit = limit
	q.onDrop = onDrop
}

// push queues f, whose notification had size bytes of params; it reports
// false when the queue is full and f was dropped.
func (q *notificationQueue) push(f func(), size int) bool {
	q.mu.Lock()
	if q.closed {
		q.mu.Unlock()
		return false
	}
	if len(q.items) >= q.limit || (q.bytes+size > maxQueuedNotificationBytes && len(q.items) > 0) {
		q.dropped++
		first, n := q.dropped == 1, len(q.items)
		q.mu.Unlock()
		if first && q.onDrop != nil {
			q.onDrop(n, 0, false)
		}
		return false
	}
	q.items = append(q.items, f)
	q.sizes = append(q.sizes, size)
	q.bytes += size
	q.mu.Unlock()
	select {
	case q.wake <- struct{}{}:
	default:
	}
	return true
}

// pushBarrier queues f whatever the bounds: a barrier a call waits on
// (drainNotes), never dropped; there is at most one per call in flight.
func (q *notificationQueue) pushBarrier(f func()) {
	q.mu.Lock()
	if q.closed {
		q.mu.Unlock()
		return
	}
	q.items = append(q.items, f)
	q.sizes = append(q.sizes, 0)
	q.mu.Unlock()
	select {
	case q.wake <- struct{}{}:
	default:
	}
}

// len returns the number of queued handlers.
func (q *notificationQueue) len() int {
	q.mu.Lock()
	v := len(q.items)
	q.mu.Unlock()
	return v
}

func (q *notificationQueue) close() {
	q.mu.Lock()
	q.closed = true
	q.items, q.sizes, q.bytes = nil, nil, 0
	q.mu.Unlock()
	select {
	case q.wake <- struct{}{}:
	default:
	}
}

// next blocks until an item is available; ok is false once closed.
func (q *notificationQueue) next() (f func(), ok bool) {
	for {
		q.mu.Lock()
		if q.closed {
			q.mu.Unlock()
			return nil, false
		}
		if len(q.items) > 0 {
			f = q.items[0]
			q.items[0] = nil
			q.items = q.items[1:]
			q.bytes -= q.sizes[0]
			q.sizes = q.sizes[1:]
			if len(q.items) == 0 {
				q.items, q.sizes = nil, nil
			}
			q.mu.Unlock()
			return f, true
		}
		dropped := q.dropped
		q.dropped = 0
		q.mu.Unlock()
		if dropped > 0 && q.onDrop != nil {
			q.onDrop(0, dropped, true)
		}
		<-q.wake
	}
}

func (s *Session) dispatchLoop() {
	// No deferred calls in the goroutines' functions: a panic there ends
	// the program anyway, and each deferred call is a wrapper function
	// plus its expansion at every return.
	for {
		f, ok := s.notes.next()
		if !ok {
			break
		}
		s.runHandler(f)
	}
	s.wg.Done()
}

// runHandler runs user code, turning a panic into a warning.
func (s *Session) runHandler(f func()) {
	defer func() {
		if r := recover(); r != nil {
			s.warn(errf.Errorf("core: notification handler panicked: %v", r))
		}
	}()
	f()
}

// notificationEnvelope extracts the subscription id of a notification.
type notificationEnvelope struct {
	Meta struct {
		SubscriptionID *jsonrpc.ID `json:"io.modelcontextprotocol/subscriptionId"`
	} `json:"_meta"`
}

// onNotification handles a notification on the reader goroutine: protocol
// bookkeeping happens here, user handlers are queued.
func (s *Session) onNotification(m *jsonrpc.Request) {
	opts := &s.client.opts
	ctx := s.ctx
	sub, ok := s.notificationSub(m)
	if !ok {
		return
	}

	// The params of the notifications that have them, decoded at one
	// place.
	var params any
	switch m.Method {
	case NotificationProgress:
		params = new(ProgressParams)
	case NotificationCancelled:
		params = new(CancelledParams)
	case NotificationAcknowledged:
		params = new(AcknowledgedParams)
	case NotificationResourceUpdated:
		params = new(ResourceUpdatedParams)
	case NotificationMessage:
		params = new(LoggingMessageParams)
	case NotificationElicitComplete:
		params = new(ElicitationCompleteParams)
	}
	if params != nil && !s.decodeNote(m, params) {
		return
	}

	switch p := params.(type) {
	case *ProgressParams:
		s.onProgress(p, len(m.Params))
		return

	case *CancelledParams:
		s.mu.Lock()
		cancel := s.incoming[p.RequestID]
		s.mu.Unlock()
		if cancel != nil {
			cancel()
		}
		if n, ok := p.RequestID.Int64(); ok {
			if sb := s.subscription(n); sb != nil {
				sb.finish(errStr("%w: server cancelled the subscription: %s", ErrClosed, p.Reason))
				s.cancelRequest(n, "")
			}
		}
		return

	case *AcknowledgedParams:
		if sub != nil {
			sub.acknowledge(p.Notifications)
		} else {
			s.warn(wrap(ErrInvalidResult, "acknowledgement for unknown subscription"))
		}
		return

	case *ResourceUpdatedParams:
		s.cache.invalidateResource(p.URI)
		if h := opts.ResourceUpdatedHandler; h != nil && !s.managed.duplicate(sub, m.Method, p.URI) {
			s.notes.push(func() { h(ctx, s, p) }, len(m.Params))
		}
	case *LoggingMessageParams:
		if h := opts.LoggingHandler; h != nil {
			s.notes.push(func() { h(ctx, s, p) }, len(m.Params))
		}
	case *ElicitationCompleteParams:
		s.elicits.complete(p.ElicitationID)
		if h := opts.ElicitationCompleteHandler; h != nil {
			s.notes.push(func() { h(ctx, s, p) }, len(m.Params))
		}
	}

	switch m.Method {
	case NotificationToolsChanged, NotificationPromptsChanged, NotificationResourcesChanged:
		// One path for the three list_changed notifications: the cached
		// lists they invalidate, and their handler.
		h := opts.ResourceListChangedHandler
		switch m.Method {
		case NotificationToolsChanged:
			s.cache.invalidateMethod(MethodListTools)
			h = opts.ToolListChangedHandler
		case NotificationPromptsChanged:
			s.cache.invalidateMethod(MethodListPrompts)
			h = opts.PromptListChangedHandler
		default:
			s.cache.invalidateMethod(MethodListResources)
			s.cache.invalidateMethod(MethodListResourceTemplates)
		}
		if h != nil && !s.managed.duplicate(sub, m.Method, "") {
			s.notes.push(func() { h(ctx, s) }, len(m.Params))
		}
	case NotificationTaskStatus, NotificationTasks:
		s.deliverTaskStatus(m.Params)
	}
	if sub != nil && sub.handler != nil {
		h, method, params := sub.handler, m.Method, m.Params
		s.notes.push(func() { h(ctx, method, params) }, len(m.Params))
	}
}

// onProgress routes a progress notification to its call and to
// ClientOptions.ProgressHandler.
func (s *Session) onProgress(p *ProgressParams, size int) {
	var tok jsonrpc.ID
	if b, err := appendAny(nil, p.ProgressToken); err == nil {
		_ = tok.UnmarshalJSON(b)
	}
	s.mu.Lock()
	call := s.progress[tok]
	var onTouch func()
	if call != nil {
		onTouch = call.onTouch
	}
	s.mu.Unlock()
	var onProg func(*ProgressParams)
	if call != nil {
		select {
		case call.touch <- struct{}{}:
		default:
		}
		if onTouch != nil {
			onTouch()
		}
		onProg = call.onProg
		if onProg != nil {
			call.progressed.Store(true)
		}
	}
	opts, ctx := &s.client.opts, s.ctx
	if onProg == nil && opts.ProgressHandler == nil {
		return
	}
	s.notes.push(func() {
		if onProg != nil {
			onProg(p)
		}
		if opts.ProgressHandler != nil {
			opts.ProgressHandler(ctx, s, p)
		}
	}, size)
}

// notificationSub returns the subscription a notification is routed to by
// its _meta subscription id, or nil. ok is false, after a warning, when the
// params are malformed.
func (s *Session) notificationSub(m *jsonrpc.Request) (sub *Subscription, ok bool) {
	if len(m.Params) == 0 || m.Params[0] == '{' && !mayHaveKey(m.Params, `"_meta"`) {
		// Nothing to route by: spare decoding the params twice (the
		// message was validated as a whole when it was decoded).
		return nil, true
	}
	var env notificationEnvelope
	if !s.decodeNote(m, &env) {
		return nil, false
	}
	if id := env.Meta.SubscriptionID; id != nil {
		if n, ok := id.Int64(); ok {
			sub = s.subscription(n)
		}
	}
	return sub, true
}

func (s *Session) decodeNote(m *jsonrpc.Request, v any) bool {
	if err := decodeParamsOf(m.Params, v); err != nil {
		s.warn(errf.Errorf("%w: %s params: %v", ErrInvalidResult, m.Method, err))
		return false
	}
	return true
}

// elicitWaiters lets a call wait for notifications/elicitation/complete.
type elicitWaiters struct {
	mu      sync.Mutex
	waiting map[string]chan struct{}
	done    map[string]bool
}

func (w *elicitWaiters) init() {
	w.waiting = map[string]chan struct{}{}
	w.done = map[string]bool{}
}

func (w *elicitWaiters) channel(id string) chan struct{} {
	w.mu.Lock()
	ch := w.waiting[id]
	if ch == nil {
		ch = make(chan struct{})
		w.waiting[id] = ch
		if w.done[id] {
			close(ch)
		}
	}
	w.mu.Unlock()
	return ch
}

// maxUnclaimedElicitations bounds the completions remembered for
// elicitations nobody waits for yet (a completion may arrive before the
// call that waits for it): beyond it arbitrary ones are forgotten, so a
// server cannot grow the session's memory with made-up ids.
const maxUnclaimedElicitations = 64

func (w *elicitWaiters) complete(id string) {
	w.mu.Lock()
	if ch := w.waiting[id]; w.done[id] {
		// completed already
	} else if ch != nil {
		w.done[id] = true
		close(ch)
	} else {
		for old := range w.done {
			if len(w.done) < maxUnclaimedElicitations {
				break
			}
			if w.waiting[old] == nil {
				delete(w.done, old)
			}
		}
		w.done[id] = true
	}
	w.mu.Unlock()
}

func (w *elicitWaiters) forget(id string) {
	w.mu.Lock()
	delete(w.waiting, id)
	delete(w.done, id)
	w.mu.Unlock()
}
