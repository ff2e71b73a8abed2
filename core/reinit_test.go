package core

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpwasm/mcpwasm/internal/jsonscan"
	"github.com/mcpwasm/mcpwasm/jsonrpc"
)

// expiringTransport wraps a transport: Send of a request whose method has
// expiries left fails with ErrSessionExpired (what the HTTP transports
// return on a 404 for a legacy session), once per expiry.
type expiringTransport struct {
	Transport
	mu     sync.Mutex
	expire map[string]int // method → expiries left
}

func (t *expiringTransport) Connect(ctx context.Context) (Conn, error) {
	c, err := t.Transport.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return &expiringConn{Conn: c, t: t}, nil
}

type expiringConn struct {
	Conn
	t *expiringTransport
}

func (c *expiringConn) Send(ctx context.Context, m jsonrpc.Message, opts *SendOptions) error {
	if r, ok := m.(*jsonrpc.Request); ok && !r.IsNotification() {
		c.t.mu.Lock()
		n := c.t.expire[r.Method]
		if n > 0 {
			c.t.expire[r.Method] = n - 1
		}
		c.t.mu.Unlock()
		if n > 0 {
			return ErrSessionExpired
		}
	}
	return c.Conn.Send(ctx, m, opts)
}

// TestReinitializeWhileRestoring: a legacy session that expires again while
// its state (log level, subscriptions) is being restored after a
// re-initialize reports the lost state and answers the call; it used to
// re-initialize from inside the re-initialize and wait for its own lock
// forever.
func TestReinitializeWhileRestoring(t *testing.T) {
	tests := []struct {
		name   string
		expire map[string]int
	}{
		{"the restored log level expires", map[string]int{MethodCallTool: 1, MethodSetLevel: 1}},
		{"the restored subscription expires", map[string]int{MethodCallTool: 1, MethodSubscribe: 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, inner := newFake(t, EraLegacy)
			f.handle(MethodSetLevel, func(*jsonrpc.Request) (any, *jsonrpc.Error) { return map[string]any{}, nil })
			f.handle(MethodSubscribe, func(*jsonrpc.Request) (any, *jsonrpc.Error) { return map[string]any{}, nil })
			f.handle(MethodCallTool, func(*jsonrpc.Request) (any, *jsonrpc.Error) {
				return map[string]any{"content": []any{map[string]any{"type": "text", "text": "ok"}}}, nil
			})
			tr := &expiringTransport{Transport: inner, expire: map[string]int{}}
			var mu sync.Mutex
			var warnings []error
			c := NewClient(&Implementation{Name: "x", Version: "1"}, &ClientOptions{
				LogLevel:  "info",
				OnWarning: func(_ *Session, err error) { mu.Lock(); warnings = append(warnings, err); mu.Unlock() },
			})
			s, err := c.Connect(ctx5(t), tr, nil)
			require.NoError(t, err)
			defer s.Close()
			require.NoError(t, s.Subscribe(ctx5(t), "file:///a"))
			tr.mu.Lock()
			tr.expire = tt.expire
			tr.mu.Unlock()

			done := make(chan error, 1)
			go func() {
				_, err := s.CallTool(ctx5(t), &CallToolParams{Name: "t"}, nil)
				done <- err
			}()
			select {
			case err := <-done:
				require.NoError(t, err)
			case <-time.After(5 * time.Second):
				require.FailNow(t, "CallTool did not return: the session re-initialized from inside its re-initialize")
			}
			mu.Lock()
			defer mu.Unlock()
			var restoring []error
			for _, w := range warnings {
				if errors.Is(w, ErrSessionExpired) {
					restoring = append(restoring, w)
				}
			}
			assert.NotEmpty(t, restoring, "the state that could not be restored is reported")
		})
	}
}

// abortingConn ends every tools/call through SendOptions.Abort instead of
// sending it, as a transport whose connection closed under the request
// does; Send then returns sendErr.
type abortingConn struct {
	Conn
	sendErr error
}

var errConnGone = errors.New("test: the connection closed")

func (c *abortingConn) Send(ctx context.Context, m jsonrpc.Message, opts *SendOptions) error {
	if r, ok := m.(*jsonrpc.Request); ok && r.Method == MethodCallTool {
		if opts.Abort == nil {
			return errors.New("test: no Abort")
		}
		opts.Abort(errConnGone)
		return c.sendErr
	}
	return c.Conn.Send(ctx, m, opts)
}

type abortingTransport struct {
	Transport
	sendErr error
}

func (t *abortingTransport) Connect(ctx context.Context) (Conn, error) {
	c, err := t.Transport.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return &abortingConn{Conn: c, sendErr: t.sendErr}, nil
}

// TestTransportAbortsARequest: a request the transport ended through
// SendOptions.Abort fails with the transport's error (or, when Send
// returned none, the cause it gave), not with the caller's ctx's (nil) and
// not as a timeout.
func TestTransportAbortsARequest(t *testing.T) {
	sendErr := errors.New("test: POST failed")
	for _, tt := range []struct {
		name    string
		sendErr error
		want    error
	}{
		{"Send returned an error", sendErr, sendErr},
		{"Send returned nil", nil, errConnGone},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, inner := newFake(t, EraModern)
			c := NewClient(&Implementation{Name: "x", Version: "1"}, nil)
			s, err := c.Connect(ctx5(t), &abortingTransport{Transport: inner, sendErr: tt.sendErr}, nil)
			require.NoError(t, err)
			defer s.Close()
			_, err = s.CallTool(ctx5(t), &CallToolParams{Name: "t"}, nil)
			require.Error(t, err)
			assert.ErrorIs(t, err, tt.want)
			var te *TimeoutError
			assert.False(t, errors.As(err, &te))
		})
	}
}

// TestModernParamsWithTheSessionsMeta: a modern request that adds nothing
// to _meta carries the session's _meta encoded once (metaJSON), and its
// params are what the general path (buildParams) makes of the same
// members, extras included.
func TestModernParamsWithTheSessionsMeta(t *testing.T) {
	_, tr := newFake(t, EraModern)
	s, err := NewClient(&Implementation{Name: "x", Version: "1"}, nil).Connect(ctx5(t), tr, nil)
	require.NoError(t, err)
	defer s.Close()
	require.NotNil(t, s.metaJSON)
	extras := []jsonscan.Member{{Key: "inputResponses", Val: RawMessage(`{"a":1}`)}, {Key: "requestState", Val: nil}}
	for _, tt := range []struct {
		name   string
		params string
		extras []jsonscan.Member
	}{
		{"no params", `{}`, nil},
		{"arguments", `{"name":"echo","arguments":{"text":"x"}}`, nil},
		{"with extras", `{"name":"echo"}`, extras},
	} {
		t.Run(tt.name, func(t *testing.T) {
			user, err := objectMembers(RawMessage(tt.params))
			require.NoError(t, err)
			got, err := s.wireParams(EraModern, s.ProtocolVersion(), user, &noCallOptions, jsonrpc.ID{}, tt.extras)
			require.NoError(t, err)
			want, err := buildParams(append([]jsonscan.Member(nil), user...), append([]jsonscan.Member(nil), s.metaMembers...), tt.extras...)
			require.NoError(t, err)
			assert.JSONEq(t, string(want), string(got))
			assert.Contains(t, string(got), `"_meta":`+string(s.metaJSON))
		})
	}
}
