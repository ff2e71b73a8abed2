package core

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/mcpwasm/mcpwasm/internal/errf"
	"github.com/mcpwasm/mcpwasm/internal/order"
)

// ListenOptions configure Session.Listen; nil is allowed.
type ListenOptions struct {
	// Handler receives every notification delivered on this subscription
	// (routed by its subscription id), in order, on the session's
	// notification goroutine. The client-level handlers receive them too,
	// except a list-changed or resource-updated notification the session's
	// own stream also delivers (see ClientOptions.ToolListChangedHandler):
	// one change calls the client-level handler once.
	Handler func(ctx context.Context, method string, params RawMessage)
}

// Subscription is an open subscriptions/listen stream (2026-07-28). It is
// safe for concurrent use.
type Subscription struct {
	s         *Session
	id        int64
	requested SubscriptionFilter
	handler   func(ctx context.Context, method string, params RawMessage)
	ackCh     chan struct{}
	cancel    context.CancelFunc

	mu   sync.Mutex
	ack  *SubscriptionFilter
	done chan struct{}
	err  error
	fin  bool
}

// ID returns the subscription id: the JSON-RPC id of its listen request.
func (sub *Subscription) ID() int64 { return sub.id }

// Requested returns the filter the client asked for.
func (sub *Subscription) Requested() SubscriptionFilter { return sub.requested }

// Acknowledged returns the subset of the filter the server agreed to honour.
func (sub *Subscription) Acknowledged() *SubscriptionFilter {
	sub.mu.Lock()
	v := sub.ack
	sub.mu.Unlock()
	return v
}

// Done is closed when the subscription has ended.
func (sub *Subscription) Done() <-chan struct{} { return sub.done }

// Err returns nil while the subscription is open or after a graceful end
// (Close, or the server's completion result), and the cause otherwise.
func (sub *Subscription) Err() error {
	sub.mu.Lock()
	v := sub.err
	sub.mu.Unlock()
	return v
}

// Close ends the subscription (the listen stream is closed, which is the
// cancellation on HTTP). It is safe to call more than once.
func (sub *Subscription) Close() error {
	sub.cancel()
	<-sub.done
	return nil
}

func (sub *Subscription) acknowledge(f *SubscriptionFilter) {
	if f == nil {
		f = &SubscriptionFilter{}
	}
	sub.mu.Lock()
	first := sub.ack == nil
	sub.ack = f
	sub.mu.Unlock()
	if first {
		close(sub.ackCh)
	}
}

func (sub *Subscription) finish(err error) {
	sub.mu.Lock()
	if sub.fin {
		sub.mu.Unlock()
		return
	}
	sub.fin = true
	sub.err = err
	sub.mu.Unlock()
	sub.s.removeSub(sub)
	close(sub.done)
}

func (s *Session) addSub(sub *Subscription) {
	s.mu.Lock()
	s.subs[sub.id] = sub
	s.mu.Unlock()
}

func (s *Session) removeSub(sub *Subscription) {
	s.mu.Lock()
	if s.subs[sub.id] == sub {
		delete(s.subs, sub.id)
	}
	s.mu.Unlock()
}

func (s *Session) subscription(id int64) *Subscription {
	s.mu.Lock()
	v := s.subs[id]
	s.mu.Unlock()
	return v
}

// Listen opens a subscriptions/listen stream (modern servers only) and
// returns once the server acknowledged it. ctx bounds only the wait for the
// acknowledgement; the subscription lives until Close, the server ends it,
// or the session ends.
func (s *Session) Listen(ctx context.Context, filter *SubscriptionFilter, opts *ListenOptions) (*Subscription, error) {
	if s.Era() != EraModern {
		return nil, wrap(ErrNotSupported, "subscriptions/listen needs a modern server; use Subscribe")
	}
	if filter == nil {
		filter = &SubscriptionFilter{}
	}
	sub := &Subscription{s: s, requested: *filter, ackCh: make(chan struct{}), done: make(chan struct{})}
	if opts != nil {
		sub.handler = opts.Handler
	}
	lctx, cancel := context.WithCancel(s.ctx)
	sub.cancel = cancel
	params := marshalListenParams(filter)
	s.wg.Add(1)
	go func() {
		copts := &CallOptions{Timeout: -1, MaxTotalTimeout: -1, NoCache: true, sub: sub}
		if len(filter.TaskIDs) > 0 {
			copts = s.tasksMeta(copts) // task notifications need the extension declared
		}
		_, err := s.call(lctx, MethodListen, params, copts, nil)
		if lctx.Err() != nil {
			err = nil // closed by the client
		}
		sub.finish(err)
		cancel()
		s.wg.Done()
	}()
	select {
	case <-sub.ackCh:
		return sub, nil
	case <-sub.done:
		if err := sub.Err(); err != nil {
			return nil, err
		}
		return nil, wrap(ErrInvalidResult, "subscription ended before it was acknowledged")
	case <-ctx.Done():
		cancel()
		<-sub.done
		return nil, ctx.Err()
	}
}

// managedListen is the session's own subscription stream on modern
// servers: list-changed notifications for the handlers the client set, and
// resource updates for the URIs passed to Subscribe. On legacy servers it
// only remembers the subscribed URIs (to restore them on re-initialize).
type managedListen struct {
	s    *Session
	mu   sync.Mutex // guards uriS, cur
	uriS map[string]bool
	cur  *Subscription
	op   sync.Mutex // serializes refreshes
}

func (m *managedListen) init(s *Session) {
	m.mu.Lock()
	m.s = s
	m.mu.Unlock()
}

func (m *managedListen) uris() []string {
	m.mu.Lock()
	out := make([]string, 0, len(m.uriS))
	for u := range m.uriS {
		out = append(out, u)
	}
	m.mu.Unlock()
	order.Strings(out)
	return out
}

func (m *managedListen) setURI(uri string, on bool) {
	m.mu.Lock()
	if m.uriS == nil {
		m.uriS = map[string]bool{}
	}
	if on {
		m.uriS[uri] = true
	} else {
		delete(m.uriS, uri)
	}
	m.mu.Unlock()
}

// filter computes what the managed stream should listen for.
func (m *managedListen) filter() SubscriptionFilter {
	s := m.s
	opts := &s.client.opts
	caps := s.ServerCapabilities()
	f := SubscriptionFilter{ResourceSubscriptions: m.uris()}
	f.ToolsListChanged = opts.ToolListChangedHandler != nil && caps.Tools != nil && caps.Tools.ListChanged
	f.PromptsListChanged = opts.PromptListChangedHandler != nil && caps.Prompts != nil && caps.Prompts.ListChanged
	f.ResourcesListChanged = opts.ResourceListChangedHandler != nil && caps.Resources != nil && caps.Resources.ListChanged
	return f
}

func (f *SubscriptionFilter) empty() bool {
	return !f.ToolsListChanged && !f.PromptsListChanged && !f.ResourcesListChanged && len(f.ResourceSubscriptions) == 0
}

// refresh (re)opens the managed stream with the current filter: the new
// stream is acknowledged before the old one closes, so nothing is missed.
func (m *managedListen) refresh(ctx context.Context) (*Subscription, error) {
	if m.s == nil {
		return nil, nil
	}
	m.op.Lock()
	defer m.op.Unlock()
	f := m.filter()
	m.mu.Lock()
	old := m.cur
	m.mu.Unlock()
	if f.empty() {
		m.swap(old, nil)
		return nil, nil
	}
	sub, err := m.s.Listen(ctx, &f, nil)
	if err != nil {
		if m.s.ctx.Err() == nil {
			m.s.warn(errf.Errorf("core: opening the session's subscription stream: %w", err))
		}
		return nil, err
	}
	m.swap(old, sub)
	m.s.wg.Add(1)
	go m.watch(sub)
	return sub, nil
}

func (m *managedListen) swap(old, next *Subscription) {
	m.mu.Lock()
	m.cur = next
	m.mu.Unlock()
	if old != nil {
		old.Close()
	}
}

// watch re-opens the managed stream, with backoff, when it ends while it
// is still the current one.
func (m *managedListen) watch(sub *Subscription) {
	s := m.s
	// No deferred call (see dispatchLoop): the loop breaks out.
	select {
	case <-sub.Done():
	case <-s.ctx.Done():
	}
	backoff := 500 * time.Millisecond
	for s.ctx.Err() == nil && m.current(sub) {
		t := s.client.clock.NewTimer(backoff)
		select {
		case <-s.ctx.Done():
			t.Stop()
			continue
		case <-t.C():
		}
		if !m.current(sub) {
			break
		}
		ctx, cancel := context.WithTimeout(s.ctx, s.client.opts.ProbeTimeout)
		_, err := m.refresh(ctx)
		cancel()
		if err == nil {
			break
		}
		backoff = min(backoff*2, 30*time.Second)
	}
	s.wg.Done()
}

// current reports whether sub is the managed stream.
func (m *managedListen) current(sub *Subscription) bool {
	m.mu.Lock()
	cur := m.cur == sub
	m.mu.Unlock()
	return cur
}

// Subscribe asks for notifications/resources/updated about uri: with
// resources/subscribe on legacy servers, through the session's
// subscriptions/listen stream on modern ones. Updates go to
// ClientOptions.ResourceUpdatedHandler.
func (s *Session) Subscribe(ctx context.Context, uri string) error {
	if s.Era() == EraLegacy {
		if _, err := s.call(ctx, MethodSubscribe, stringParams("uri", uri), nil, nil); err != nil {
			return err
		}
		s.managed.setURI(uri, true)
		return nil
	}
	s.managed.setURI(uri, true)
	sub, err := s.managed.refresh(ctx)
	if err == nil && sub != nil {
		if ack := sub.Acknowledged(); ack == nil || !hasString(ack.ResourceSubscriptions, uri) {
			err = errStr("%w: the server did not acknowledge a subscription to %s", ErrNotSupported, uri)
		}
	}
	if err != nil {
		s.managed.setURI(uri, false)
		return err
	}
	return nil
}

// Unsubscribe ends notifications about uri.
func (s *Session) Unsubscribe(ctx context.Context, uri string) error {
	s.managed.setURI(uri, false)
	if s.Era() == EraLegacy {
		_, err := s.call(ctx, MethodUnsubscribe, stringParams("uri", uri), nil, nil)
		return err
	}
	_, err := s.managed.refresh(ctx)
	if errors.Is(err, ErrClosed) {
		return err
	}
	return nil
}

// duplicate reports whether a notification that arrived on subscription sub
// is also delivered by the session's managed stream, which listens for it:
// then the client-level handler runs only for the managed stream's copy, so
// that a user's Listen for the same notifications does not make one change
// call it twice. Notifications without a subscription id, and those the
// managed stream does not cover, are never duplicates.
func (m *managedListen) duplicate(sub *Subscription, method, uri string) bool {
	if sub == nil {
		return false
	}
	m.mu.Lock()
	cur := m.cur
	m.mu.Unlock()
	if cur == nil || cur == sub {
		return false
	}
	select {
	case <-cur.Done():
		// The managed stream ended and is being re-opened: until the new
		// one replaces it, it delivers nothing.
		return false
	default:
	}
	ack := cur.Acknowledged()
	if ack == nil {
		return false
	}
	switch method {
	case NotificationToolsChanged:
		return ack.ToolsListChanged
	case NotificationPromptsChanged:
		return ack.PromptsListChanged
	case NotificationResourcesChanged:
		return ack.ResourcesListChanged
	case NotificationResourceUpdated:
		return hasString(ack.ResourceSubscriptions, uri)
	}
	return false
}
