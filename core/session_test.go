package core

import (
	"context"
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"

	"github.com/mcpwasm/mcpwasm/jsonrpc"
)

// TestMain checks for leaked goroutines; runtime.handleEvent is the GOOS=js
// runtime's own, waiting for JavaScript events.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m, goleak.IgnoreAnyFunction("runtime.handleEvent"))
}

func TestHandshake(t *testing.T) {
	t.Run("modern server", func(t *testing.T) {
		f, tr := newFake(t, EraModern)
		s := connectFake(t, tr, nil)
		assert.Equal(t, EraModern, s.Era())
		assert.Equal(t, Version20260728, s.ProtocolVersion())
		require.NotNil(t, s.ServerInfo())
		assert.Equal(t, "fake", s.ServerInfo().Name, "serverInfo comes from the result _meta")
		assert.Equal(t, "be nice", s.Instructions())
		assert.True(t, s.ServerCapabilities().Tools.ListChanged)
		assert.Empty(t, f.requests(MethodInitialize))
		assert.NotNil(t, s.DiscoverResult())
		assert.Nil(t, s.InitializeResult())
	})
	t.Run("legacy server", func(t *testing.T) {
		f, tr := newFake(t, EraLegacy)
		s := connectFake(t, tr, nil)
		assert.Equal(t, EraLegacy, s.Era())
		assert.Equal(t, Version20251125, s.ProtocolVersion())
		assert.Equal(t, "fake-legacy", s.ServerInfo().Name)
		require.Len(t, f.requests(MethodDiscover), 1, "the modern probe came first")
		require.Len(t, f.requests(MethodInitialize), 1)
		require.Eventually(t, func() bool { return len(f.requests(NotificationInitialized)) == 1 }, time.Second, 5*time.Millisecond)
	})
	t.Run("legacy-only client never probes", func(t *testing.T) {
		f, tr := newFake(t, EraLegacy)
		c := NewClient(&Implementation{Name: "x", Version: "1"}, &ClientOptions{ProtocolVersions: []string{Version20250618}})
		s, err := c.Connect(ctx5(t), tr, nil)
		require.NoError(t, err)
		defer s.Close()
		assert.Empty(t, f.requests(MethodDiscover))
		assert.Equal(t, Version20250618, s.ProtocolVersion())
	})
	t.Run("modern-only client and legacy server", func(t *testing.T) {
		_, tr := newFake(t, EraLegacy)
		c := NewClient(&Implementation{Name: "x", Version: "1"}, &ClientOptions{ProtocolVersions: []string{Version20260728}})
		_, err := c.Connect(ctx5(t), tr, nil)
		require.ErrorIs(t, err, ErrUnsupportedVersion)
	})
	t.Run("unsupported version is renegotiated", func(t *testing.T) {
		f, tr := newFake(t, EraModern)
		var seen []string
		var mu sync.Mutex
		prev := f.handlers[MethodDiscover]
		f.handle(MethodDiscover, func(r *jsonrpc.Request) (any, *jsonrpc.Error) {
			v := paramsOf(t, r)["_meta"].(map[string]any)[MetaProtocolVersion].(string)
			mu.Lock()
			seen = append(seen, v)
			mu.Unlock()
			if v != Version20260728 {
				return nil, &jsonrpc.Error{Code: CodeUnsupportedProtocolVersion, Message: "unsupported", Data: mustMarshal(map[string]any{"supported": []string{Version20260728}, "requested": v})}
			}
			return prev(r)
		})
		c := NewClient(&Implementation{Name: "x", Version: "1"}, &ClientOptions{ProtocolVersions: []string{"2027-01-01", Version20260728, Version20251125}})
		s, err := c.Connect(ctx5(t), tr, nil)
		require.NoError(t, err)
		defer s.Close()
		assert.Equal(t, []string{"2027-01-01", Version20260728}, seen)
		assert.Equal(t, Version20260728, s.ProtocolVersion())
	})
	t.Run("discover without supportedVersions means legacy", func(t *testing.T) {
		f, tr := newFake(t, EraLegacy)
		f.handle(MethodDiscover, func(*jsonrpc.Request) (any, *jsonrpc.Error) { return map[string]any{}, nil })
		s := connectFake(t, tr, nil)
		assert.Equal(t, EraLegacy, s.Era())
	})
	t.Run("server picks a version the client does not speak", func(t *testing.T) {
		f, tr := newFake(t, EraLegacy)
		f.handle(MethodInitialize, func(*jsonrpc.Request) (any, *jsonrpc.Error) {
			return map[string]any{"protocolVersion": "1999-01-01", "capabilities": map[string]any{}, "serverInfo": map[string]any{"name": "old", "version": "0"}}, nil
		})
		c := NewClient(&Implementation{Name: "x", Version: "1"}, nil)
		_, err := c.Connect(ctx5(t), tr, nil)
		require.ErrorIs(t, err, ErrUnsupportedVersion)
	})
}

func TestModernRequestMeta(t *testing.T) {
	f, tr := newFake(t, EraModern)
	f.handle(MethodListTools, func(*jsonrpc.Request) (any, *jsonrpc.Error) {
		return map[string]any{"tools": []any{}, "resultType": "complete"}, nil
	})
	s := connectFake(t, tr, &ClientOptions{
		SamplingHandler: func(context.Context, *CreateMessageRequest) (*CreateMessageResult, error) { return nil, nil },
		ElicitationHandler: func(context.Context, *ElicitRequest) (*ElicitResult, error) {
			return nil, nil
		},
		Roots: []*Root{},
	})
	_, err := s.ListTools(ctx5(t), nil)
	require.NoError(t, err)
	require.NoError(t, s.SetLogLevel(ctx5(t), LevelWarning))
	_, err = s.Request(ctx5(t), MethodListTools, map[string]any{"_meta": map[string]any{"custom/key": 1}}, &CallOptions{OnProgress: func(*ProgressParams) {}})
	require.NoError(t, err)

	reqs := f.requests(MethodListTools)
	require.Len(t, reqs, 2)
	meta := paramsOf(t, reqs[0])["_meta"].(map[string]any)
	assert.Equal(t, Version20260728, meta[MetaProtocolVersion])
	assert.Equal(t, map[string]any{"name": "test", "version": "0"}, meta[MetaClientInfo])
	assert.Equal(t, map[string]any{
		"sampling":    map[string]any{},
		"elicitation": map[string]any{"form": map[string]any{"applyDefaults": true}},
		"roots":       map[string]any{"listChanged": true},
	}, meta[MetaClientCapabilities])
	assert.NotContains(t, meta, MetaLogLevel)
	meta = paramsOf(t, reqs[1])["_meta"].(map[string]any)
	assert.Equal(t, LevelWarning, meta[MetaLogLevel])
	assert.Equal(t, float64(1), meta["custom/key"], "the caller's _meta members are kept")
	assert.Contains(t, meta, MetaProgressToken)
	assert.Empty(t, f.requests(MethodSetLevel), "modern servers get the level per request")
}

func TestLegacyRequestShape(t *testing.T) {
	f, tr := newFake(t, EraLegacy)
	f.handle(MethodSetLevel, func(*jsonrpc.Request) (any, *jsonrpc.Error) { return map[string]any{}, nil })
	f.handle(MethodListTools, func(*jsonrpc.Request) (any, *jsonrpc.Error) { return map[string]any{"tools": []any{}}, nil })
	s := connectFake(t, tr, &ClientOptions{LogLevel: LevelError})
	_, err := s.ListTools(ctx5(t), nil)
	require.NoError(t, err)
	set := f.requests(MethodSetLevel)
	require.Len(t, set, 1, "the initial level is set after initialize")
	assert.Equal(t, LevelError, paramsOf(t, set[0])["level"])
	list := f.requests(MethodListTools)
	require.Len(t, list, 1)
	assert.NotContains(t, paramsOf(t, list[0]), "_meta", "legacy requests carry no per-request metadata")
}

func TestMultiRoundTrip(t *testing.T) {
	const state = `{"opaque":"st\u00e9te \/ with escapes"}`
	f, tr := newFake(t, EraModern)
	var calls []*jsonrpc.Request
	var mu sync.Mutex
	f.handle(MethodCallTool, func(r *jsonrpc.Request) (any, *jsonrpc.Error) {
		mu.Lock()
		calls = append(calls, r)
		n := len(calls)
		mu.Unlock()
		switch n {
		case 1:
			return RawMessage(`{"resultType":"input_required","inputRequests":{` +
				`"who":{"method":"elicitation/create","params":{"message":"name?","requestedSchema":{"type":"object","properties":{"name":{"type":"string","default":"Ada"}}}}},` +
				`"where":{"method":"roots/list","params":{}}},` +
				`"requestState":` + mustMarshalString(state) + `}`), nil
		case 2:
			return RawMessage(`{"resultType":"input_required","inputRequests":{"llm":{"method":"sampling/createMessage","params":{"messages":[],"maxTokens":5}}}}`), nil
		default:
			return map[string]any{"resultType": "complete", "content": []any{map[string]any{"type": "text", "text": "done"}}}, nil
		}
	})
	s := connectFake(t, tr, &ClientOptions{
		ElicitationHandler: func(context.Context, *ElicitRequest) (*ElicitResult, error) {
			return &ElicitResult{Action: ActionAccept, Content: map[string]any{}}, nil
		},
		SamplingHandler: func(context.Context, *CreateMessageRequest) (*CreateMessageResult, error) {
			return &CreateMessageResult{Role: "assistant", Model: "m", Content: ContentList{TextContent("hi")}}, nil
		},
		Roots: []*Root{{URI: "file:///r"}},
	})
	r, err := s.CallTool(ctx5(t), &CallToolParams{Name: "t", Arguments: map[string]any{"x": 1}}, nil)
	require.NoError(t, err)
	assert.Equal(t, "done", r.Content[0].Text)
	require.Len(t, calls, 3)

	ids := map[string]bool{}
	for _, c := range calls {
		assert.False(t, ids[c.ID.String()], "every round has a new JSON-RPC id")
		ids[c.ID.String()] = true
		p := paramsOf(t, c)
		assert.Equal(t, "t", p["name"])
		assert.Equal(t, map[string]any{"x": float64(1)}, p["arguments"], "the original params are repeated")
	}
	var p1 struct {
		InputResponses map[string]RawMessage `json:"inputResponses"`
		RequestState   RawMessage            `json:"requestState"`
	}
	require.NoError(t, json.Unmarshal(calls[1].Params, &p1))
	assert.Equal(t, mustMarshalString(state), string(p1.RequestState), "requestState is echoed byte for byte")
	assert.JSONEq(t, `{"action":"accept","content":{"name":"Ada"}}`, string(p1.InputResponses["who"]))
	assert.JSONEq(t, `{"roots":[{"uri":"file:///r"}]}`, string(p1.InputResponses["where"]))

	p2 := paramsOf(t, calls[2])
	assert.NotContains(t, p2, "requestState", "no state was sent in round two, so none is echoed")
	assert.Contains(t, p2["inputResponses"], "llm")
	assert.NotContains(t, p2["inputResponses"], "who", "only this round's answers")
}

func mustMarshalString(s string) string {
	// Keep the escapes as written: this is the server's exact JSON token.
	return `"` + strings.ReplaceAll(s, `"`, `\"`) + `"`
}

func TestMultiRoundTripLimits(t *testing.T) {
	t.Run("too many rounds", func(t *testing.T) {
		f, tr := newFake(t, EraModern)
		f.handle(MethodCallTool, func(*jsonrpc.Request) (any, *jsonrpc.Error) {
			return RawMessage(`{"resultType":"input_required","requestState":"again"}`), nil
		})
		s := connectFake(t, tr, &ClientOptions{MaxInputRounds: 3})
		_, err := s.CallTool(ctx5(t), &CallToolParams{Name: "loop"}, nil)
		require.ErrorIs(t, err, ErrTooManyRounds)
		assert.Len(t, f.requests(MethodCallTool), 4)
	})
	t.Run("handler failure", func(t *testing.T) {
		f, tr := newFake(t, EraModern)
		f.handle(MethodCallTool, func(*jsonrpc.Request) (any, *jsonrpc.Error) {
			return RawMessage(`{"resultType":"input_required","inputRequests":{"k":{"method":"elicitation/create","params":{"message":"?"}}}}`), nil
		})
		s := connectFake(t, tr, &ClientOptions{
			ElicitationHandler: func(context.Context, *ElicitRequest) (*ElicitResult, error) { return nil, errors.New("window closed") },
		})
		_, err := s.CallTool(ctx5(t), &CallToolParams{Name: "x"}, nil)
		var ie *InputError
		require.ErrorAs(t, err, &ie)
		assert.Equal(t, "k", ie.Key)
		assert.Contains(t, err.Error(), "window closed")
	})
	t.Run("no handler", func(t *testing.T) {
		f, tr := newFake(t, EraModern)
		f.handle(MethodCallTool, func(*jsonrpc.Request) (any, *jsonrpc.Error) {
			return RawMessage(`{"resultType":"input_required","inputRequests":{"k":{"method":"sampling/createMessage","params":{"messages":[],"maxTokens":1}}}}`), nil
		})
		s := connectFake(t, tr, nil)
		_, err := s.CallTool(ctx5(t), &CallToolParams{Name: "x"}, nil)
		require.ErrorIs(t, err, ErrNoHandler)
	})
	t.Run("input_required where it is not allowed", func(t *testing.T) {
		f, tr := newFake(t, EraModern)
		f.handle(MethodListTools, func(*jsonrpc.Request) (any, *jsonrpc.Error) {
			return RawMessage(`{"resultType":"input_required","requestState":"x"}`), nil
		})
		s := connectFake(t, tr, nil)
		_, err := s.ListTools(ctx5(t), nil)
		require.ErrorIs(t, err, ErrInvalidResult)
	})
	t.Run("missing resultType is complete", func(t *testing.T) {
		f, tr := newFake(t, EraModern)
		f.handle(MethodCallTool, func(*jsonrpc.Request) (any, *jsonrpc.Error) {
			return RawMessage(`{"content":[{"type":"text","text":"plain"}]}`), nil
		})
		s := connectFake(t, tr, nil)
		r, err := s.CallTool(ctx5(t), &CallToolParams{Name: "x"}, nil)
		require.NoError(t, err)
		assert.Equal(t, "plain", r.Content[0].Text)
		assert.Len(t, f.requests(MethodCallTool), 1)
	})
}

func TestLegacyServerRequests(t *testing.T) {
	f, tr := newFake(t, EraLegacy)
	var panicked atomic.Bool
	s := connectFake(t, tr, &ClientOptions{
		SamplingHandler: func(_ context.Context, req *CreateMessageRequest) (*CreateMessageResult, error) {
			if req.Params.SystemPrompt == "panic" {
				panicked.Store(true)
				panic("handler bug")
			}
			return &CreateMessageResult{Role: "assistant", Model: "m", Content: ContentList{TextContent(req.Params.Messages[0].Content[0].Text + "!")}}, nil
		},
		ElicitationHandler: func(context.Context, *ElicitRequest) (*ElicitResult, error) {
			return &ElicitResult{Action: ActionAccept, Content: map[string]any{"b": "given"}}, nil
		},
		RootsHandler: func(context.Context, *ListRootsRequest) (*ListRootsResult, error) {
			return &ListRootsResult{Roots: []*Root{{URI: "file:///h"}}}, nil
		},
	})
	_ = s

	r := f.request(MethodCreateMessage, map[string]any{"messages": []any{map[string]any{"role": "user", "content": map[string]any{"type": "text", "text": "hi"}}}, "maxTokens": 5})
	require.Nil(t, r.Error)
	assert.JSONEq(t, `{"role":"assistant","model":"m","content":{"type":"text","text":"hi!"}}`, string(r.Result))

	r = f.request(MethodElicit, map[string]any{"message": "m", "requestedSchema": map[string]any{"type": "object", "properties": map[string]any{
		"a": map[string]any{"type": "integer", "default": 3}, "b": map[string]any{"type": "string", "default": "x"}, "c": map[string]any{"type": "boolean"},
	}}})
	require.Nil(t, r.Error)
	assert.JSONEq(t, `{"action":"accept","content":{"a":3,"b":"given"}}`, string(r.Result))

	r = f.request(MethodListRoots, nil)
	require.Nil(t, r.Error)
	assert.JSONEq(t, `{"roots":[{"uri":"file:///h"}]}`, string(r.Result))

	r = f.request(MethodPing, nil)
	require.Nil(t, r.Error)

	r = f.request("tasks/unknown", nil)
	require.NotNil(t, r.Error)
	assert.Equal(t, int64(CodeMethodNotFound), r.Error.Code)

	r = f.request(MethodCreateMessage, map[string]any{"messages": []any{}, "maxTokens": 1, "systemPrompt": "panic"})
	require.NotNil(t, r.Error, "a panicking handler becomes a JSON-RPC error")
	assert.Equal(t, int64(CodeInternalError), r.Error.Code)
	assert.True(t, panicked.Load())

	r = f.request(MethodCreateMessage, map[string]any{"messages": "not an array"})
	require.NotNil(t, r.Error)
	assert.Equal(t, int64(CodeInvalidParams), r.Error.Code)

	// The session is still alive.
	require.NoError(t, s.Ping(ctx5(t)))
}

func TestBadInputKeepsTheSession(t *testing.T) {
	f, tr := newFake(t, EraModern)
	f.handle(MethodListTools, func(*jsonrpc.Request) (any, *jsonrpc.Error) { return map[string]any{"tools": []any{}}, nil })
	var warnings atomic.Int32
	s := connectFake(t, tr, &ClientOptions{OnWarning: func(*Session, error) { warnings.Add(1) }})
	for _, b := range []string{
		`not json at all`,
		`{"jsonrpc":"1.0","id":1,"result":{}}`,
		`{"jsonrpc":"2.0","id":99999,"result":{}}`,
		`{"jsonrpc":"2.0","id":"a-string-we-never-sent","result":{}}`,
		`{"jsonrpc":"2.0","method":"notifications/progress","params":"not an object"}`,
		`{"jsonrpc":"2.0","method":"notifications/message","params":{"level":5}}`,
		`{"jsonrpc":"2.0","error":{"code":-32700,"message":"parse error"}}`,
		`[]`,
	} {
		f.raw(b)
	}
	_, err := s.ListTools(ctx5(t), nil)
	require.NoError(t, err, "the session survives malformed input")
	require.Eventually(t, func() bool { return warnings.Load() >= 4 }, time.Second, 5*time.Millisecond)
}

// TestTimeouts runs on a fake clock: the test advances time past a
// deadline, or to just before it, instead of sleeping.
func TestTimeouts(t *testing.T) {
	f, tr := newFake(t, EraModern)
	calls := make(chan *jsonrpc.Request, 8)
	f.handle(MethodCallTool, func(r *jsonrpc.Request) (any, *jsonrpc.Error) {
		calls <- r
		return nil, nil // answered by the test, or never
	})
	clk := newFakeClock()
	c := NewClient(&Implementation{Name: "test", Version: "0"}, &ClientOptions{
		OnWarning: func(_ *Session, err error) { t.Logf("warning: %v", err) },
	})
	c.clock = clk
	s, err := c.Connect(ctx5(t), tr, nil)
	require.NoError(t, err)
	t.Cleanup(func() { s.Close() })

	// call starts CallTool and returns its outcome's channel and the
	// request the server received.
	call := func(t *testing.T, ctx context.Context, name string, opts *CallOptions) (<-chan error, *jsonrpc.Request) {
		t.Helper()
		done := make(chan error, 1)
		go func() {
			_, err := s.CallTool(ctx, &CallToolParams{Name: name}, opts)
			done <- err
		}()
		select {
		case r := <-calls:
			return done, r
		case <-time.After(5 * time.Second):
			require.FailNow(t, "the server got no tools/call")
		}
		return nil, nil
	}
	// progress sends progress for r and waits until its OnProgress ran
	// (after the idle timer was reset, when the call resets it).
	progress := func(t *testing.T, r *jsonrpc.Request, i int, seen <-chan int) {
		t.Helper()
		tok := paramsOf(t, r)["_meta"].(map[string]any)[MetaProgressToken]
		f.notify(NotificationProgress, map[string]any{"progressToken": tok, "progress": i})
		select {
		case got := <-seen:
			require.Equal(t, i, got)
		case <-time.After(5 * time.Second):
			require.FailNow(t, "OnProgress was not called", "progress %d", i)
		}
	}
	onProgress := func() (func(*ProgressParams), <-chan int) {
		seen := make(chan int, 8)
		return func(p *ProgressParams) { seen <- int(p.Progress) }, seen
	}

	t.Run("idle timeout", func(t *testing.T) {
		done, r := call(t, ctx5(t), "silent", &CallOptions{Timeout: 100 * time.Millisecond})
		clk.WaitTimers(t, 1)
		clk.Advance(99 * time.Millisecond)
		stillPending(t, done)
		clk.Advance(time.Millisecond)
		var te *TimeoutError
		require.ErrorAs(t, returned(t, done), &te)
		assert.False(t, te.Total)
		require.Eventually(t, func() bool { return len(f.requests(NotificationCancelled)) == 1 }, time.Second, 5*time.Millisecond)
		assert.Equal(t, r.ID.Raw(), int64(paramsOf(t, f.requests(NotificationCancelled)[0])["requestId"].(float64)))
	})
	t.Run("progress resets the timeout", func(t *testing.T) {
		fn, seen := onProgress()
		done, r := call(t, ctx5(t), "progressing", &CallOptions{
			Timeout: 200 * time.Millisecond, ResetTimeoutOnProgress: true, OnProgress: fn,
		})
		clk.WaitTimers(t, 1)
		for i := 1; i <= 6; i++ {
			clk.Advance(150 * time.Millisecond)
			stillPending(t, done)
			progress(t, r, i, seen)
		}
		f.reply(r.ID, map[string]any{"content": []any{}})
		require.NoError(t, returned(t, done), "900ms of work with a 200ms idle timeout succeeds when progress resets it")
	})
	t.Run("maximum total timeout", func(t *testing.T) {
		fn, seen := onProgress()
		done, r := call(t, ctx5(t), "progressing", &CallOptions{
			Timeout: 5 * time.Second, ResetTimeoutOnProgress: true, MaxTotalTimeout: 150 * time.Millisecond, OnProgress: fn,
		})
		clk.WaitTimers(t, 2)
		clk.Advance(100 * time.Millisecond)
		progress(t, r, 1, seen)
		clk.Advance(49 * time.Millisecond)
		stillPending(t, done)
		clk.Advance(time.Millisecond)
		var te *TimeoutError
		require.ErrorAs(t, returned(t, done), &te)
		assert.True(t, te.Total)
	})
	t.Run("without reset progress does not help", func(t *testing.T) {
		fn, seen := onProgress()
		done, r := call(t, ctx5(t), "progressing", &CallOptions{Timeout: 100 * time.Millisecond, OnProgress: fn})
		clk.WaitTimers(t, 1)
		clk.Advance(60 * time.Millisecond)
		progress(t, r, 1, seen)
		clk.Advance(40 * time.Millisecond)
		require.ErrorIs(t, returned(t, done), ErrTimeout)
	})
	t.Run("context cancellation", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		done, _ := call(t, ctx, "silent", nil)
		cancel()
		require.ErrorIs(t, returned(t, done), context.Canceled)
	})
	t.Run("the default timeout, on the session's shared timer", func(t *testing.T) {
		// nil options: the client's RequestTimeout, kept by Session.timeouts.
		done, r := call(t, ctx5(t), "silent", nil)
		clk.WaitTimers(t, 1)
		clk.Advance(DefaultRequestTimeout - time.Millisecond)
		stillPending(t, done)
		clk.Advance(time.Millisecond)
		var te *TimeoutError
		require.ErrorAs(t, returned(t, done), &te)
		assert.Equal(t, DefaultRequestTimeout, te.Timeout)
		require.Eventually(t, func() bool {
			for _, n := range f.requests(NotificationCancelled) {
				if int64(paramsOf(t, n)["requestId"].(float64)) == r.ID.Raw() {
					return true
				}
			}
			return false
		}, time.Second, 5*time.Millisecond, "the server is told")
	})
}

func TestPagination(t *testing.T) {
	f, tr := newFake(t, EraModern)
	f.handle(MethodListPrompts, func(r *jsonrpc.Request) (any, *jsonrpc.Error) {
		cursor, _ := paramsOf(t, r)["cursor"].(string)
		switch cursor {
		case "":
			return map[string]any{"prompts": []any{map[string]any{"name": "a"}}, "nextCursor": "p2"}, nil
		case "p2":
			return map[string]any{"prompts": []any{map[string]any{"name": "b"}}, "nextCursor": "p3"}, nil
		default:
			return map[string]any{"prompts": []any{map[string]any{"name": "c"}}, "nextCursor": "p2"}, nil
		}
	})
	f.handle(MethodListResources, func(r *jsonrpc.Request) (any, *jsonrpc.Error) {
		cursor, _ := paramsOf(t, r)["cursor"].(string)
		if cursor == "" {
			return map[string]any{"resources": []any{map[string]any{"uri": "a:1", "name": "1"}}, "nextCursor": "2"}, nil
		}
		return map[string]any{"resources": []any{map[string]any{"uri": "a:2", "name": "2"}}}, nil
	})
	s := connectFake(t, tr, nil)
	got, err := s.AllPrompts(ctx5(t))
	require.ErrorIs(t, err, ErrRepeatedCursor)
	assert.Len(t, got, 3, "items before the repeated cursor are returned")
	res, err := s.AllResources(ctx5(t))
	require.NoError(t, err)
	require.Len(t, res, 2)
	assert.Equal(t, "a:2", res[1].URI)
	page, err := s.ListResources(ctx5(t), &PaginatedParams{Cursor: "2"})
	require.NoError(t, err)
	assert.Empty(t, page.NextCursor)
}

func TestResultCache(t *testing.T) {
	f, tr := newFake(t, EraModern)
	var lists, reads atomic.Int32
	f.handle(MethodListTools, func(*jsonrpc.Request) (any, *jsonrpc.Error) {
		lists.Add(1)
		return map[string]any{"tools": []any{map[string]any{"name": "t", "inputSchema": map[string]any{"type": "object"}}}, "ttlMs": 60000, "cacheScope": "public", "resultType": "complete"}, nil
	})
	f.handle(MethodReadResource, func(r *jsonrpc.Request) (any, *jsonrpc.Error) {
		reads.Add(1)
		return map[string]any{"contents": []any{map[string]any{"uri": paramsOf(t, r)["uri"], "text": "x"}}, "ttlMs": 60000, "cacheScope": "private"}, nil
	})
	s := connectFake(t, tr, nil)
	for range 3 {
		_, err := s.ListTools(ctx5(t), nil)
		require.NoError(t, err)
	}
	assert.Equal(t, int32(1), lists.Load(), "fresh results come from the cache")
	_, err := s.Request(ctx5(t), MethodListTools, nil, &CallOptions{NoCache: true})
	require.NoError(t, err)
	assert.Equal(t, int32(2), lists.Load())

	f.notify(NotificationToolsChanged, nil)
	require.Eventually(t, func() bool {
		_, err := s.ListTools(ctx5(t), nil)
		require.NoError(t, err)
		return lists.Load() == 3
	}, time.Second, 10*time.Millisecond, "list_changed invalidates the cached list")

	for _, uri := range []string{"r:1", "r:2", "r:1"} {
		_, err := s.ReadResource(ctx5(t), &ReadResourceParams{URI: uri}, nil)
		require.NoError(t, err)
	}
	assert.Equal(t, int32(2), reads.Load(), "the cache key includes the uri")
	f.notify(NotificationResourceUpdated, map[string]any{"uri": "r:1"})
	require.Eventually(t, func() bool { return s.cache.len() == 2 }, time.Second, 5*time.Millisecond)
	_, err = s.ReadResource(ctx5(t), &ReadResourceParams{URI: "r:2"}, nil)
	require.NoError(t, err)
	assert.Equal(t, int32(2), reads.Load(), "r:2 stays cached")
}

// TestResultCacheExpiry: a cached result is fresh for ttlMs on the client's
// clock and fetched again once that has passed.
func TestResultCacheExpiry(t *testing.T) {
	f, tr := newFake(t, EraModern)
	var lists atomic.Int32
	f.handle(MethodListTools, func(*jsonrpc.Request) (any, *jsonrpc.Error) {
		lists.Add(1)
		return map[string]any{"tools": []any{}, "ttlMs": 60000, "cacheScope": "public", "resultType": "complete"}, nil
	})
	s, clk := connectFakeClock(t, tr, nil)
	steps := []struct {
		advance time.Duration
		want    int32
	}{
		{0, 1},
		{59 * time.Second, 1}, // still fresh
		{999 * time.Millisecond, 1},
		{time.Millisecond, 2}, // 60 s after receipt: expired, fetched again
		{30 * time.Second, 2}, // the new result is fresh from its own receipt
		{30 * time.Second, 3},
	}
	for _, st := range steps {
		clk.Advance(st.advance)
		_, err := s.ListTools(ctx5(t), nil)
		require.NoError(t, err)
		require.Equal(t, st.want, lists.Load(), "after %v more", st.advance)
	}
}

func TestOutputValidation(t *testing.T) {
	f, tr := newFake(t, EraModern)
	f.handle(MethodListTools, func(*jsonrpc.Request) (any, *jsonrpc.Error) {
		return map[string]any{"tools": []any{map[string]any{
			"name": "weather", "inputSchema": map[string]any{"type": "object"},
			"outputSchema": map[string]any{"type": "object", "$defs": map[string]any{"deg": map[string]any{"type": "number"}}, "properties": map[string]any{"t": map[string]any{"$ref": "#/$defs/deg"}}, "required": []string{"t"}},
		}}}, nil
	})
	answer := `{"content":[],"structuredContent":{"t":21.5}}`
	f.handle(MethodCallTool, func(*jsonrpc.Request) (any, *jsonrpc.Error) { return RawMessage(answer), nil })
	s := connectFake(t, tr, nil)
	_, err := s.AllTools(ctx5(t))
	require.NoError(t, err)
	cases := []struct {
		name, answer string
		wantErr      bool
	}{
		{"valid", `{"content":[],"structuredContent":{"t":21.5}}`, false},
		{"wrong type through $ref", `{"content":[],"structuredContent":{"t":"warm"}}`, true},
		{"missing required", `{"content":[],"structuredContent":{}}`, true},
		{"missing structured content", `{"content":[]}`, true},
		{"error results are not validated", `{"content":[],"isError":true}`, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			answer = tc.answer
			r, err := s.CallTool(ctx5(t), &CallToolParams{Name: "weather"}, nil)
			if tc.wantErr {
				var ose *OutputSchemaError
				require.ErrorAs(t, err, &ose)
				require.NotNil(t, r)
				assert.Same(t, r, ose.Result)
			} else {
				require.NoError(t, err)
			}
		})
	}
}

// TestOutputValidationPattern: ClientOptions.Pattern compiles the schema's
// patterns (the GOOS=js module passes one with the JavaScript engine's
// Unicode tables); a pattern it refuses is skipped, not fatal.
func TestOutputValidationPattern(t *testing.T) {
	f, tr := newFake(t, EraModern)
	f.handle(MethodListTools, func(*jsonrpc.Request) (any, *jsonrpc.Error) {
		return map[string]any{"tools": []any{map[string]any{
			"name": "code", "inputSchema": map[string]any{"type": "object"},
			"outputSchema": map[string]any{"type": "object", "properties": map[string]any{
				"c": map[string]any{"type": "string", "pattern": "^[A-Z]+$"},
				"d": map[string]any{"type": "string", "pattern": "refused"},
			}},
		}}}, nil
	})
	answer := ``
	f.handle(MethodCallTool, func(*jsonrpc.Request) (any, *jsonrpc.Error) { return RawMessage(answer), nil })
	var compiled []string
	s := connectFake(t, tr, &ClientOptions{Pattern: func(src string) (func(string) bool, error) {
		compiled = append(compiled, src) // compiled once, on the first call
		if src == "refused" {
			return nil, errors.New("unsupported")
		}
		return func(v string) bool { return v == "ABC" }, nil // a stand-in engine
	}})
	_, err := s.AllTools(ctx5(t))
	require.NoError(t, err)
	cases := []struct {
		name, answer string
		wantErr      bool
	}{
		{"the engine accepts", `{"content":[],"structuredContent":{"c":"ABC","d":"x"}}`, false},
		{"the engine refuses a value RE2 would accept", `{"content":[],"structuredContent":{"c":"ABD"}}`, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			answer = tc.answer
			_, err := s.CallTool(ctx5(t), &CallToolParams{Name: "code"}, nil)
			if tc.wantErr {
				var ose *OutputSchemaError
				require.ErrorAs(t, err, &ose)
			} else {
				require.NoError(t, err)
			}
		})
	}
	assert.ElementsMatch(t, []string{"^[A-Z]+$", "refused"}, compiled)
}

func TestSubscriptions(t *testing.T) {
	f, tr := newFake(t, EraModern)
	listens := make(chan *jsonrpc.Request, 4)
	f.handle(MethodListen, func(r *jsonrpc.Request) (any, *jsonrpc.Error) {
		listens <- r
		return nil, nil // the stream stays open
	})
	var mu sync.Mutex
	var updates []string
	s := connectFake(t, tr, &ClientOptions{
		ResourceUpdatedHandler: func(_ context.Context, _ *Session, p *ResourceUpdatedParams) {
			mu.Lock()
			updates = append(updates, p.URI)
			mu.Unlock()
		},
	})
	subMeta := func(id jsonrpc.ID) map[string]any { return map[string]any{MetaSubscriptionID: id.Raw()} }

	var routed []string
	var rmu sync.Mutex
	type result struct {
		sub *Subscription
		err error
	}
	done := make(chan result, 1)
	go func() {
		sub, err := s.Listen(ctx5(t), &SubscriptionFilter{ResourceSubscriptions: []string{"a:1", "a:2"}, PromptsListChanged: true}, &ListenOptions{
			Handler: func(_ context.Context, method string, _ RawMessage) {
				rmu.Lock()
				routed = append(routed, method)
				rmu.Unlock()
			},
		})
		done <- result{sub, err}
	}()
	req := <-listens
	assert.Equal(t, map[string]any{"resourceSubscriptions": []any{"a:1", "a:2"}, "promptsListChanged": true}, paramsOf(t, req)["notifications"])
	f.notify(NotificationAcknowledged, map[string]any{"_meta": subMeta(req.ID), "notifications": map[string]any{"resourceSubscriptions": []string{"a:1"}}})
	res := <-done
	require.NoError(t, res.err)
	sub := res.sub
	assert.Equal(t, []string{"a:1"}, sub.Acknowledged().ResourceSubscriptions, "the acknowledged subset is reported")

	f.notify(NotificationResourceUpdated, map[string]any{"_meta": subMeta(req.ID), "uri": "a:1"})
	f.notify(NotificationResourceUpdated, map[string]any{"_meta": subMeta(jsonrpc.Int64ID(424242)), "uri": "a:9"})
	require.Eventually(t, func() bool { mu.Lock(); defer mu.Unlock(); return len(updates) == 2 }, time.Second, 5*time.Millisecond)
	rmu.Lock()
	assert.Equal(t, []string{NotificationResourceUpdated}, routed, "only this subscription's notifications reach its handler")
	rmu.Unlock()

	// A graceful end: the server answers the listen request.
	f.reply(req.ID, map[string]any{"resultType": "complete", "_meta": subMeta(req.ID)})
	select {
	case <-sub.Done():
	case <-time.After(time.Second):
		t.Fatal("subscription did not end")
	}
	assert.NoError(t, sub.Err())
}

func TestManagedSubscriptions(t *testing.T) {
	f, tr := newFake(t, EraModern)
	var mu sync.Mutex
	var filters []map[string]any
	f.handle(MethodListen, func(r *jsonrpc.Request) (any, *jsonrpc.Error) {
		p := paramsOf(t, r)
		n := p["notifications"].(map[string]any)
		mu.Lock()
		filters = append(filters, n)
		mu.Unlock()
		go f.notify(NotificationAcknowledged, map[string]any{"_meta": map[string]any{MetaSubscriptionID: r.ID.Raw()}, "notifications": n})
		return nil, nil
	})
	changed := make(chan struct{}, 1)
	s := connectFake(t, tr, &ClientOptions{
		ToolListChangedHandler: func(context.Context, *Session) { changed <- struct{}{} },
	})
	require.Eventually(t, func() bool { mu.Lock(); defer mu.Unlock(); return len(filters) == 1 }, time.Second, 5*time.Millisecond)
	mu.Lock()
	assert.Equal(t, map[string]any{"toolsListChanged": true}, filters[0], "a list-changed handler opens a stream for it")
	mu.Unlock()
	require.NoError(t, s.Subscribe(ctx5(t), "r:1"))
	mu.Lock()
	require.Len(t, filters, 2)
	assert.Equal(t, map[string]any{"toolsListChanged": true, "resourceSubscriptions": []any{"r:1"}}, filters[1])
	mu.Unlock()
	require.Eventually(t, func() bool { return len(f.requests(MethodListen)) == 2 }, time.Second, 5*time.Millisecond)

	f.notify(NotificationToolsChanged, nil)
	select {
	case <-changed:
	case <-time.After(time.Second):
		t.Fatal("handler not called")
	}
	require.NoError(t, s.Unsubscribe(ctx5(t), "r:1"))
	mu.Lock()
	assert.Equal(t, map[string]any{"toolsListChanged": true}, filters[len(filters)-1])
	mu.Unlock()
}

func TestURLElicitationRequired(t *testing.T) {
	f, tr := newFake(t, EraLegacy)
	var attempts atomic.Int32
	f.handle(MethodCallTool, func(*jsonrpc.Request) (any, *jsonrpc.Error) {
		if attempts.Add(1) == 1 {
			return nil, &jsonrpc.Error{Code: CodeURLElicitationRequired, Message: "authorize first", Data: mustMarshal(map[string]any{
				"elicitations": []any{map[string]any{"mode": "url", "elicitationId": "e9", "url": "https://auth.example/x", "message": "Sign in"}},
			})}
		}
		return map[string]any{"content": []any{map[string]any{"type": "text", "text": "authorized"}}}, nil
	})
	var sawURL string
	s := connectFake(t, tr, &ClientOptions{
		ElicitationModes: []string{ElicitModeURL},
		ElicitationHandler: func(_ context.Context, req *ElicitRequest) (*ElicitResult, error) {
			sawURL = req.Params.URL
			go func() {
				time.Sleep(20 * time.Millisecond)
				f.notify(NotificationElicitComplete, map[string]any{"elicitationId": "e9"})
			}()
			return &ElicitResult{Action: ActionAccept}, nil
		},
	})
	r, err := s.CallTool(ctx5(t), &CallToolParams{Name: "protected"}, nil)
	require.NoError(t, err)
	assert.Equal(t, "authorized", r.Content[0].Text)
	assert.Equal(t, "https://auth.example/x", sawURL)
	assert.Equal(t, int32(2), attempts.Load())
}

func TestClose(t *testing.T) {
	f, tr := newFake(t, EraModern)
	f.handle(MethodCallTool, func(*jsonrpc.Request) (any, *jsonrpc.Error) { return nil, nil })
	s := connectFake(t, tr, nil)
	errc := make(chan error, 1)
	go func() {
		_, err := s.CallTool(context.Background(), &CallToolParams{Name: "hang"}, nil)
		errc <- err
	}()
	require.Eventually(t, func() bool { return len(f.requests(MethodCallTool)) == 1 }, time.Second, 5*time.Millisecond)
	require.NoError(t, s.Close())
	require.ErrorIs(t, <-errc, ErrClosed)
	<-s.Done()
	_, err := s.ListTools(ctx5(t), nil)
	require.ErrorIs(t, err, ErrClosed)
	require.NoError(t, s.Close(), "closing twice is fine")
}

func TestServerDisconnect(t *testing.T) {
	f, tr := newFake(t, EraModern)
	f.handle(MethodCallTool, func(*jsonrpc.Request) (any, *jsonrpc.Error) { return nil, nil })
	s := connectFake(t, tr, nil)
	errc := make(chan error, 1)
	go func() {
		_, err := s.CallTool(context.Background(), &CallToolParams{Name: "hang"}, nil)
		errc <- err
	}()
	require.Eventually(t, func() bool { return len(f.requests(MethodCallTool)) == 1 }, time.Second, 5*time.Millisecond)
	f.conn.Close()
	require.ErrorIs(t, <-errc, ErrClosed)
	<-s.Done()
}

func TestHeaderMismatchRelistsAndRetries(t *testing.T) {
	f, tr := newFake(t, EraModern)
	var calls, lists atomic.Int32
	f.handle(MethodListTools, func(*jsonrpc.Request) (any, *jsonrpc.Error) {
		lists.Add(1)
		return map[string]any{"tools": []any{map[string]any{"name": "t", "inputSchema": map[string]any{"type": "object"}}}}, nil
	})
	f.handle(MethodCallTool, func(*jsonrpc.Request) (any, *jsonrpc.Error) {
		if calls.Add(1) == 1 {
			return nil, &jsonrpc.Error{Code: CodeHeaderMismatch, Message: "Mcp-Param-Region header missing"}
		}
		return map[string]any{"content": []any{map[string]any{"type": "text", "text": "ok"}}}, nil
	})
	s := connectFake(t, tr, nil)
	r, err := s.CallTool(ctx5(t), &CallToolParams{Name: "t"}, nil)
	require.NoError(t, err)
	assert.Equal(t, "ok", r.Content[0].Text)
	assert.Equal(t, int32(2), calls.Load(), "retried once")
	assert.Equal(t, int32(1), lists.Load(), "after re-listing the tools")

	// A second mismatch in a row is returned, not retried forever.
	calls.Store(0)
	f.handle(MethodCallTool, func(*jsonrpc.Request) (any, *jsonrpc.Error) {
		calls.Add(1)
		return nil, &jsonrpc.Error{Code: CodeHeaderMismatch, Message: "still wrong"}
	})
	_, err = s.CallTool(ctx5(t), &CallToolParams{Name: "t"}, nil)
	var rpc *RPCError
	require.ErrorAs(t, err, &rpc)
	assert.Equal(t, int64(CodeHeaderMismatch), rpc.Code)
	assert.Equal(t, int32(2), calls.Load())
}

// TestLargeResultMembers: the members the pipeline reads after a result's
// large content (resultType, ttlMs; servers write them last) are found
// whether the decoder recorded them (results of 16 KB and more) or the
// result is walked (smaller ones).
func TestLargeResultMembers(t *testing.T) {
	for _, size := range []int{10, 40 << 10} {
		t.Run(strconv.Itoa(size), func(t *testing.T) {
			pad := strings.Repeat("x", size)
			f, tr := newFake(t, EraModern)
			var calls, reads atomic.Int32
			f.handle(MethodCallTool, func(*jsonrpc.Request) (any, *jsonrpc.Error) {
				if calls.Add(1) == 1 {
					return RawMessage(`{"_meta":{"pad":"` + pad + `"},"inputRequests":{"where":{"method":"roots/list","params":{}}},"requestState":"s","resultType":"input_required"}`), nil
				}
				return RawMessage(`{"content":[{"type":"text","text":"` + pad + `"}],"resultType":"complete"}`), nil
			})
			f.handle(MethodReadResource, func(*jsonrpc.Request) (any, *jsonrpc.Error) {
				reads.Add(1)
				return RawMessage(`{"contents":[{"uri":"r:1","text":"` + pad + `"}],"cacheScope":"private","ttlMs":60000}`), nil
			})
			s := connectFake(t, tr, &ClientOptions{Roots: []*Root{{URI: "file:///r"}}})
			r, err := s.CallTool(ctx5(t), &CallToolParams{Name: "t"}, nil)
			require.NoError(t, err)
			assert.Equal(t, int32(2), calls.Load(), "the input_required round was answered and the call repeated")
			assert.Equal(t, pad, r.Content[0].Text)
			for range 2 {
				rr, err := s.ReadResource(ctx5(t), &ReadResourceParams{URI: "r:1"}, nil)
				require.NoError(t, err)
				assert.Equal(t, pad, rr.Contents[0].Text)
			}
			assert.Equal(t, int32(1), reads.Load(), "the ttlMs after the contents put the result in the cache")
		})
	}
}

// TestOnResponse: CallOptions.OnResponse sees each response of a request's
// rounds, the last one carries the result returned (the same bytes, with
// what the decoder recorded of it), and a result from the cache calls
// nothing.
func TestOnResponse(t *testing.T) {
	pad := strings.Repeat("x", jsonrpc.LongMessage)
	f, tr := newFake(t, EraModern)
	var calls atomic.Int32
	f.handle(MethodCallTool, func(*jsonrpc.Request) (any, *jsonrpc.Error) {
		if calls.Add(1) == 1 {
			return RawMessage(`{"inputRequests":{"where":{"method":"roots/list","params":{}}},"requestState":"s","resultType":"input_required"}`), nil
		}
		return RawMessage(`{"content":[{"type":"text","text":"` + pad + `"}],"resultType":"complete"}`), nil
	})
	f.handle(MethodReadResource, func(*jsonrpc.Request) (any, *jsonrpc.Error) {
		return RawMessage(`{"contents":[{"uri":"r:1","text":"x"}],"cacheScope":"private","ttlMs":60000}`), nil
	})
	s := connectFake(t, tr, &ClientOptions{Roots: []*Root{{URI: "file:///r"}}})
	var seen []*jsonrpc.Response
	opts := &CallOptions{OnResponse: func(r *jsonrpc.Response) { seen = append(seen, r) }}
	raw, err := s.CallToolRaw(ctx5(t), RawMessage(`{"name":"t"}`), opts)
	require.NoError(t, err)
	require.Len(t, seen, 2, "one per round")
	last := seen[1]
	require.Equal(t, len(raw), len(last.Result))
	assert.Same(t, &raw[0], &last.Result[0], "the result returned is the last response's")
	spans, known := last.ResultStrings()
	require.True(t, known)
	require.Len(t, spans, 1)
	assert.Equal(t, `"`+pad+`"`, string(raw[spans[0].Start:spans[0].End]))

	seen = nil
	for range 2 {
		_, err := s.RequestRaw(ctx5(t), MethodReadResource, RawMessage(`{"uri":"r:1"}`), opts)
		require.NoError(t, err)
	}
	assert.Len(t, seen, 1, "the second read came from the cache")
}
