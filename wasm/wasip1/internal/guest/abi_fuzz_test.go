package guest

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/mcpwasm/mcpwasm/transport/fetch"
	"github.com/mcpwasm/mcpwasm/wasm/abi"
)

// requireABIError checks what an export returns for host input: success,
// or an *Error with a documented negative status.
func requireABIError(t *testing.T, err error) {
	t.Helper()
	if err == nil {
		return
	}
	var e *Error
	require.True(t, errors.As(err, &e), "%T %v", err, err)
	require.Contains(t, []int32{abi.StatusInvalid, abi.StatusNotFound, abi.StatusClosed}, e.Status, e.Msg)
}

// FuzzABIInput: the bytes a host hands the guest — a client configuration,
// a connect or request argument, an answer, and (relayed from the server)
// an HTTP response head and body chunk. No input panics the guest or
// leaves it unusable: exports succeed or fail with an ABI status, polls
// return a JSON array of events, and every operation started ends.
func FuzzABIInput(f *testing.F) {
	f.Add([]byte(`{"clientInfo":{"name":"t","version":"1"}}`), []byte(`{"url":"http://example.test/mcp"}`),
		[]byte(`{"status":200,"headers":{"content-type":["text/event-stream"]}}`), []byte("data: {}\n\n"))
	f.Add([]byte(`{"clientInfo":{"name":"t"},"handlers":{"sampling":true},"roots":[{"uri":"file:///"}]}`), []byte(`{"result":{}}`),
		[]byte(`{"status":99999999999}`), []byte{0xff, 0xfe})
	f.Add([]byte(`{}`), []byte(`[`), []byte(`{"status":200,"headers":{"a":["\r\n"]}} trailing`), []byte(""))
	f.Fuzz(func(t *testing.T, config, arg, head, chunk []byte) {
		host := newScriptedHost()
		g := New(host)
		poll := func() {
			if b := g.Poll(); b != nil {
				var evs []abi.Event
				require.NoError(t, json.Unmarshal(b, &evs), "%s", b)
			}
		}
		client, err := g.NewClient(config)
		requireABIError(t, err)
		if err != nil {
			client, err = g.NewClient([]byte(`{"clientInfo":{"name":"t","version":"1"}}`))
			require.NoError(t, err)
		}
		_, err = g.Connect(client, arg)
		requireABIError(t, err)
		_, err = g.Request(client+1000, arg)
		requireABIError(t, err)
		_, err = g.SetRoots(client, arg)
		requireABIError(t, err)
		requireABIError(t, g.Answer(4242, arg))

		// An HTTP exchange whose head and body come from the input.
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() {
			defer close(done)
			resp, err := g.Doer().Do(ctx, &fetch.Request{Method: "GET", URL: "http://example.test/x"})
			if err == nil {
				buf := make([]byte, 1<<10)
				_, _ = resp.Body.Read(buf)
				resp.Body.Close()
			}
		}()
		var handle uint32
		deadline := time.Now().Add(10 * time.Second)
		for served := 0; ; {
			poll()
			if id, ok := host.nth(served); ok && handle == 0 {
				host.mu.Lock()
				isOurs := host.requests[id].head.URL == "http://example.test/x"
				host.mu.Unlock()
				served++
				if isOurs {
					handle = id
					requireABIError(t, g.HTTPResponse(id, head))
					requireABIError(t, g.HTTPBody(id, chunk))
					cancel()
				} else {
					requireABIError(t, g.HTTPEnd(id, []byte("refused")))
				}
				continue
			}
			// Refuse every other request (the connect's) so its operation ends.
			for {
				id, ok := host.nth(served)
				if !ok {
					break
				}
				served++
				requireABIError(t, g.HTTPEnd(id, []byte("refused")))
			}
			g.mu.Lock()
			idle := len(g.ops) == 0
			g.mu.Unlock()
			select {
			case <-done:
				if idle {
					cancel()
					poll()
					requireABIError(t, g.FreeClient(client))
					return
				}
			default:
			}
			if time.Now().After(deadline) {
				t.Fatal("an operation never ended")
			}
			time.Sleep(time.Millisecond)
		}
	})
}
