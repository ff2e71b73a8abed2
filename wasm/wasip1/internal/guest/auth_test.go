package guest

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpwasm/mcpwasm/auth"
	"github.com/mcpwasm/mcpwasm/transport/fetch"
	"github.com/mcpwasm/mcpwasm/wasm/abi"
)

// Full authorizations against a real protected server through the module
// are tested by wasm/wasihost and the conformance suite; these tests cover
// the engine's side of the ABI additions with the scripted host.

// TestNoRedirectHead: a request that must not follow redirects says so in
// its http_request head, and others do not.
func TestNoRedirectHead(t *testing.T) {
	for _, noRedirect := range []bool{true, false} {
		host := newScriptedHost()
		g := New(host)
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		go func() {
			_, err := g.Doer().Do(ctx, &fetch.Request{Method: "GET", URL: "http://as.test/authorize", NoRedirect: noRedirect})
			done <- err
		}()
		var events []abi.Event
		pollUntil(t, g, &events, func() bool { _, ok := host.nth(0); return ok })
		id, _ := host.nth(0)
		host.mu.Lock()
		head := host.requests[id].head
		host.mu.Unlock()
		assert.Equal(t, noRedirect, head.NoRedirect)
		cancel()
		pollUntil(t, g, &events, func() bool { return len(done) == 1 })
		require.ErrorIs(t, <-done, context.Canceled)
	}
}

// TestHostAgent: the host's user agent turns an authorization into an
// "authorize" event; the host's answer (a callback URL or an error) comes
// back to package auth, a malformed one is refused, and the end of the
// connection withdraws the question.
func TestHostAgent(t *testing.T) {
	g := New(newScriptedHost())
	c := newConn(5)
	defer c.end()
	c.id.Store(9)
	ua := &hostAgent{g: g, c: c, redirect: "https://app.test/cb"}
	assert.Equal(t, "https://app.test/cb", ua.RedirectURI())

	type outcome struct {
		url string
		err error
	}
	var events []abi.Event
	start := func() (chan outcome, *abi.Event) {
		ch := make(chan outcome, 1)
		go func() {
			u, err := ua.Authorize(context.Background(), "https://as.test/authorize?state=s")
			ch <- outcome{u, err}
		}()
		var ev *abi.Event
		pollUntil(t, g, &events, func() bool {
			for i := range events {
				if events[i].Type == abi.EventAuthorize {
					ev = &events[i]
					return true
				}
			}
			return false
		})
		events = nil
		return ch, ev
	}
	wait := func(ch chan outcome) outcome {
		var o outcome
		pollUntil(t, g, &events, func() bool {
			select {
			case o = <-ch:
				return true
			default:
				return false
			}
		})
		return o
	}

	ch, ev := start()
	assert.Equal(t, uint32(5), ev.Client)
	assert.Equal(t, uint32(9), ev.Session)
	assert.Equal(t, "https://as.test/authorize?state=s", ev.URL)
	assert.Equal(t, abi.StatusInvalid, statusOf(g.Answer(ev.ID, []byte(`{"result":"https://app.test/cb"}`))))
	require.NoError(t, g.Answer(ev.ID, []byte(`{"result":{"callbackUrl":"https://app.test/cb?code=c&state=s"}}`)))
	o := wait(ch)
	require.NoError(t, o.err)
	assert.Equal(t, "https://app.test/cb?code=c&state=s", o.url)

	ch, ev = start()
	require.NoError(t, g.Answer(ev.ID, []byte(`{"error":{"message":"the user closed the window"}}`)))
	o = wait(ch)
	require.ErrorIs(t, o.err, errAuthorize)
	assert.Contains(t, o.err.Error(), "the user closed the window")

	ch, ev = start()
	require.NoError(t, g.Answer(ev.ID, []byte(`{"result":{}}`)))
	o = wait(ch)
	require.ErrorIs(t, o.err, errAuthorize, "an answer without callbackUrl")

	ch, ev = start()
	c.end()
	o = wait(ch)
	require.ErrorIs(t, o.err, errAuthorize)
	pollUntil(t, g, &events, func() bool {
		for _, e := range events {
			if e.Type == abi.EventCancel && e.ID == ev.ID {
				return true
			}
		}
		return false
	})
}

// TestAuthStoreState: the store reports its state after each change, and
// a store made from that state holds the same registrations and tokens.
func TestAuthStoreState(t *testing.T) {
	ctx := context.Background()
	s, err := newAuthStore(nil)
	require.NoError(t, err)
	var states []json.RawMessage
	s.changed = func(state json.RawMessage) { states = append(states, state) }

	reg := &auth.Registration{ClientID: "c1", RedirectURIs: []string{"https://app.test/cb"}}
	tok := &auth.Token{AccessToken: "at", Type: "Bearer", RefreshToken: "rt", Scope: "a b"}
	require.NoError(t, s.SetRegistration(ctx, "https://as.test", reg))
	require.NoError(t, s.SetToken(ctx, "https://rs.test/mcp", "https://as.test", tok))
	require.NoError(t, s.SetToken(ctx, "https://rs.test/other", "https://as.test", &auth.Token{AccessToken: "x", Type: "Bearer"}))
	require.NoError(t, s.SetToken(ctx, "https://rs.test/other", "https://as.test", nil))
	require.Len(t, states, 4, "one report per change")

	reg.RedirectURIs[0] = "changed" // the store keeps its own copy
	restored, err := newAuthStore(states[len(states)-1])
	require.NoError(t, err)
	r, err := restored.Registration(ctx, "https://as.test")
	require.NoError(t, err)
	assert.Equal(t, &auth.Registration{ClientID: "c1", RedirectURIs: []string{"https://app.test/cb"}}, r)
	got, err := restored.Token(ctx, "https://rs.test/mcp", "https://as.test")
	require.NoError(t, err)
	assert.Equal(t, tok, got)
	got, err = restored.Token(ctx, "https://rs.test/other", "https://as.test")
	require.NoError(t, err)
	assert.Nil(t, got, "the deleted token stays deleted")

	for _, bad := range []string{`{"v":2}`, `{"v":1,"extra":true}`, `[]`, `{"v":1} {}`} {
		_, err := newAuthStore(json.RawMessage(bad))
		assert.Error(t, err, "%s", bad)
	}
}

// failingDoer fails every request the way the host reports a failure.
type failingDoer struct{}

func (failingDoer) Do(context.Context, *fetch.Request) (*fetch.Response, error) {
	return nil, &httpError{msg: "connection refused"}
}
