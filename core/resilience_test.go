package core

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpwasm/mcpwasm/jsonrpc"
)

// urlElicitServer answers tools/call with -32042 until the call has been
// retried once, and never sends notifications/elicitation/complete (which
// servers need not send).
func urlElicitServer(t *testing.T) (*fakeServer, Transport, *atomic.Int32) {
	t.Helper()
	f, tr := newFake(t, EraLegacy)
	var attempts atomic.Int32
	f.handle(MethodCallTool, func(*jsonrpc.Request) (any, *jsonrpc.Error) {
		if attempts.Add(1) == 1 {
			return nil, &jsonrpc.Error{Code: CodeURLElicitationRequired, Message: "authorize first", Data: mustMarshal(map[string]any{
				"elicitations": []any{map[string]any{"mode": "url", "elicitationId": "e1", "url": "https://auth.example/x", "message": "Sign in"}},
			})}
		}
		return map[string]any{"content": []any{map[string]any{"type": "text", "text": "authorized"}}}, nil
	})
	return f, tr, &attempts
}

func TestURLElicitationWaitIsBounded(t *testing.T) {
	accept := func(completed bool) func(context.Context, *ElicitRequest) (*ElicitResult, error) {
		return func(context.Context, *ElicitRequest) (*ElicitResult, error) {
			return &ElicitResult{Action: ActionAccept, Completed: completed}, nil
		}
	}
	// onClock starts CallTool on a fake clock and returns once the wait for
	// completion armed its timer (due in 100 ms in both uses: the call's
	// timeout, or its maximum total time with none of it gone). It waits
	// for that deadline, not for a count of timers: the session's shared
	// timer for default timeouts (armed by the handshake) stays armed.
	onClock := func(t *testing.T, tr Transport, opts *CallOptions) (*fakeClock, <-chan error) {
		t.Helper()
		asked := make(chan struct{}, 1)
		s, clk := connectFakeClock(t, tr, &ClientOptions{ElicitationModes: []string{ElicitModeURL}, ElicitationHandler: func(ctx context.Context, r *ElicitRequest) (*ElicitResult, error) {
			asked <- struct{}{}
			return accept(false)(ctx, r)
		}})
		done := make(chan error, 1)
		go func() {
			_, err := s.CallTool(ctx5(t), &CallToolParams{Name: "protected"}, opts)
			done <- err
		}()
		select {
		case <-asked:
		case <-time.After(5 * time.Second):
			require.FailNow(t, "the elicitation handler was not called")
		}
		clk.WaitDeadline(t, 100*time.Millisecond)
		return clk, done
	}
	t.Run("no completion within the timeout gives a typed error", func(t *testing.T) {
		_, tr, attempts := urlElicitServer(t)
		clk, done := onClock(t, tr, &CallOptions{Timeout: 100 * time.Millisecond})
		clk.Advance(99 * time.Millisecond)
		stillPending(t, done)
		clk.Advance(time.Millisecond)
		err := returned(t, done)
		var ue *URLElicitationError
		require.ErrorAs(t, err, &ue)
		require.Len(t, ue.Elicitations, 1)
		assert.Equal(t, "https://auth.example/x", ue.Elicitations[0].URL)
		assert.ErrorIs(t, err, ErrTimeout)
		var rpc *RPCError
		require.ErrorAs(t, err, &rpc, "the server's error is still there")
		assert.Equal(t, int64(CodeURLElicitationRequired), rpc.Code)
		assert.Equal(t, int32(1), attempts.Load(), "not retried")
	})
	t.Run("the maximum total time bounds the wait", func(t *testing.T) {
		_, tr, _ := urlElicitServer(t)
		clk, done := onClock(t, tr, &CallOptions{Timeout: -1, MaxTotalTimeout: 100 * time.Millisecond})
		clk.Advance(99 * time.Millisecond)
		stillPending(t, done)
		clk.Advance(time.Millisecond)
		var te *TimeoutError
		require.ErrorAs(t, returned(t, done), &te)
		assert.True(t, te.Total)
	})
	t.Run("the caller's context bounds the wait", func(t *testing.T) {
		_, tr, _ := urlElicitServer(t)
		s := connectFake(t, tr, &ClientOptions{ElicitationModes: []string{ElicitModeURL}, ElicitationHandler: accept(false), RequestTimeout: -1})
		ctx, cancel := context.WithCancel(context.Background())
		time.AfterFunc(50*time.Millisecond, cancel)
		_, err := s.CallTool(ctx, &CallToolParams{Name: "protected"}, nil)
		require.ErrorIs(t, err, context.Canceled)
	})
	t.Run("a handler that says the user is done retries at once", func(t *testing.T) {
		_, tr, attempts := urlElicitServer(t)
		s := connectFake(t, tr, &ClientOptions{ElicitationModes: []string{ElicitModeURL}, ElicitationHandler: accept(true)})
		r, err := s.CallTool(ctx5(t), &CallToolParams{Name: "protected"}, &CallOptions{Timeout: -1})
		require.NoError(t, err)
		assert.Equal(t, "authorized", r.Content[0].Text)
		assert.Equal(t, int32(2), attempts.Load())
	})
	t.Run("a declined elicitation carries the elicitation", func(t *testing.T) {
		_, tr, attempts := urlElicitServer(t)
		s := connectFake(t, tr, &ClientOptions{ElicitationModes: []string{ElicitModeURL}, ElicitationHandler: func(context.Context, *ElicitRequest) (*ElicitResult, error) {
			return &ElicitResult{Action: ActionDecline}, nil
		}})
		_, err := s.CallTool(ctx5(t), &CallToolParams{Name: "protected"}, nil)
		var ue *URLElicitationError
		require.ErrorAs(t, err, &ue)
		assert.ErrorIs(t, err, ErrDeclined)
		assert.Len(t, ue.Elicitations, 1)
		assert.Equal(t, int32(1), attempts.Load())
	})
	t.Run("the session closing ends the wait", func(t *testing.T) {
		_, tr, _ := urlElicitServer(t)
		s := connectFake(t, tr, &ClientOptions{ElicitationModes: []string{ElicitModeURL}, ElicitationHandler: accept(false), RequestTimeout: -1})
		errc := make(chan error, 1)
		go func() {
			_, err := s.CallTool(context.Background(), &CallToolParams{Name: "protected"}, nil)
			errc <- err
		}()
		require.Eventually(t, func() bool {
			s.elicits.mu.Lock()
			defer s.elicits.mu.Unlock()
			return len(s.elicits.waiting) == 1
		}, 5*time.Second, 5*time.Millisecond)
		s.Close()
		select {
		case err := <-errc:
			require.True(t, errors.Is(err, ErrClosed), "%v", err)
		case <-time.After(5 * time.Second):
			t.Fatal("the call still waits after Close")
		}
	})
}

func TestNotificationQueueIsBounded(t *testing.T) {
	f, tr := newFake(t, EraLegacy)
	release := make(chan struct{})
	var handled atomic.Int32
	var warnings []error
	var wmu sync.Mutex
	drained := make(chan struct{}, 1)
	s := connectFake(t, tr, &ClientOptions{
		MaxQueuedNotifications: 100,
		LoggingHandler: func(context.Context, *Session, *LoggingMessageParams) {
			<-release
			handled.Add(1)
		},
		OnWarning: func(_ *Session, err error) {
			wmu.Lock()
			warnings = append(warnings, err)
			wmu.Unlock()
			if strings.Contains(err.Error(), "were dropped") {
				drained <- struct{}{}
			}
		},
	})
	const sent = 20000
	for i := range sent {
		f.notify(NotificationMessage, map[string]any{"level": "info", "data": i})
	}
	// A request after the flood: its response comes through the same
	// reader, so once it is back every notification has been read.
	require.NoError(t, s.Ping(ctx5(t)))
	assert.LessOrEqual(t, s.Stats().QueuedNotifications, 100)
	close(release)
	select {
	case <-drained:
	case <-time.After(5 * time.Second):
		t.Fatal("no warning with the count after the queue drained")
	}
	assert.LessOrEqual(t, handled.Load(), int32(101))
	assert.Positive(t, handled.Load())
	wmu.Lock()
	defer wmu.Unlock()
	require.Len(t, warnings, 2)
	for _, w := range warnings {
		assert.ErrorIs(t, w, ErrNotificationsDropped)
	}
	assert.Contains(t, warnings[1].Error(), fmt.Sprint(sent-int(handled.Load())))
}

func TestServerRequestsAreCapped(t *testing.T) {
	f, tr := newFake(t, EraLegacy)
	release := make(chan struct{})
	s := connectFake(t, tr, &ClientOptions{
		MaxServerRequests: 2,
		RootsHandler: func(ctx context.Context, _ *ListRootsRequest) (*ListRootsResult, error) {
			select {
			case <-release:
			case <-ctx.Done():
			}
			return &ListRootsResult{}, nil
		},
	})
	answers := make(chan *jsonrpc.Response, 3)
	for range 3 {
		go func() { answers <- f.request(MethodListRoots, nil) }()
	}
	refused := <-answers
	require.NotNil(t, refused.Error, "the third request is refused at once")
	assert.Contains(t, refused.Error.Message, "too many concurrent server requests")
	assert.Equal(t, 2, s.Stats().ServerRequests)
	close(release)
	for range 2 {
		r := <-answers
		assert.Nil(t, r.Error)
	}
	require.Eventually(t, func() bool { return s.Stats().ServerRequests == 0 }, 5*time.Second, 5*time.Millisecond)
}

// TestKeepAlive: pings go out once per interval on the client's clock (a
// fake one: no ping before the interval has passed, one each time it has),
// and a failed ping is reported.
func TestKeepAlive(t *testing.T) {
	f, tr := newFake(t, EraLegacy)
	var pings atomic.Int32
	f.handle(MethodPing, func(*jsonrpc.Request) (any, *jsonrpc.Error) {
		if pings.Add(1) >= 4 {
			return nil, &jsonrpc.Error{Code: CodeInternalError, Message: "down"}
		}
		return map[string]any{}, nil
	})
	warned := make(chan error, 8)
	s, clk := connectFakeClock(t, tr, &ClientOptions{
		KeepAlive:      time.Minute,
		RequestTimeout: time.Hour, // the pings' own timers are told apart by their deadline
		OnWarning:      func(_ *Session, err error) { warned <- err },
	})
	for i := int32(1); i <= 4; i++ {
		clk.WaitDeadline(t, time.Minute) // the next ping is armed
		require.Equal(t, i-1, pings.Load(), "no ping before the interval has passed")
		clk.Advance(time.Minute)
		require.Eventually(t, func() bool { return pings.Load() == i }, 5*time.Second, time.Millisecond)
	}
	select {
	case err := <-warned:
		require.ErrorIs(t, err, ErrKeepAlive)
		var rpc *RPCError
		require.ErrorAs(t, err, &rpc)
	case <-time.After(5 * time.Second):
		t.Fatal("no failed keepalive reported")
	}
	assert.Empty(t, warned, "only the failed ping is reported")
	require.NoError(t, s.Close(), "the keepalive goroutine ends with the session")
}

func TestTooManyInputRequestsAtOnce(t *testing.T) {
	f, tr := newFake(t, EraModern)
	var b strings.Builder
	b.WriteString(`{"resultType":"input_required","inputRequests":{`)
	for i := range 1000 {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `"r%d":{"method":"roots/list","params":{}}`, i)
	}
	b.WriteString(`}}`)
	f.handle(MethodCallTool, func(*jsonrpc.Request) (any, *jsonrpc.Error) { return RawMessage(b.String()), nil })
	var asked atomic.Int32
	s := connectFake(t, tr, &ClientOptions{
		MaxServerRequests: 16,
		RootsHandler: func(context.Context, *ListRootsRequest) (*ListRootsResult, error) {
			asked.Add(1)
			return &ListRootsResult{}, nil
		},
	})
	_, err := s.CallTool(ctx5(t), &CallToolParams{Name: "t"}, nil)
	require.ErrorIs(t, err, ErrInvalidResult)
	assert.Contains(t, err.Error(), "1000 inputs at once")
	assert.Zero(t, asked.Load(), "no handler ran")
}

func TestURLElicitationHandlerIsBoundedByTheTotalTime(t *testing.T) {
	_, tr, _ := urlElicitServer(t)
	s := connectFake(t, tr, &ClientOptions{ElicitationModes: []string{ElicitModeURL}, ElicitationHandler: func(ctx context.Context, _ *ElicitRequest) (*ElicitResult, error) {
		<-ctx.Done() // a dialog nobody answers
		return nil, ctx.Err()
	}})
	_, err := s.CallTool(ctx5(t), &CallToolParams{Name: "protected"}, &CallOptions{MaxTotalTimeout: 100 * time.Millisecond})
	var ue *URLElicitationError
	require.ErrorAs(t, err, &ue)
	var te *TimeoutError
	require.ErrorAs(t, err, &te)
	assert.True(t, te.Total)
}
