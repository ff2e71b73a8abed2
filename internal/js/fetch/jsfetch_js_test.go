//go:build js

package jsfetch_test

import (
	"context"
	"encoding/json"
	"io"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall/js"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpwasm/mcpwasm/internal/js/fetch"
)

func testCtx(t *testing.T) context.Context {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	t.Cleanup(cancel)
	return ctx
}

func newFetcher(t *testing.T, opts *jsfetch.Options) *jsfetch.Fetcher {
	t.Helper()
	f, err := jsfetch.New(opts)
	require.NoError(t, err)
	return f
}

func get(t *testing.T, url string) string {
	t.Helper()
	resp, err := newFetcher(t, nil).Do(testCtx(t), &jsfetch.Request{Method: "GET", URL: url})
	require.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return string(b)
}

func TestRoundTrip(t *testing.T) {
	origin := echoOrigin(t)
	resp, err := newFetcher(t, nil).Do(testCtx(t), &jsfetch.Request{
		Method: "POST",
		URL:    origin + "/echo",
		Header: map[string][]string{"content-type": {"application/json"}, "x-two": {"1", "2"}, "Mcp-Method": {"tools/call"}},
		Body:   []byte(`{"ünïcode":"✓"}`),
	})
	require.NoError(t, err)
	defer resp.Body.Close()
	assert.Equal(t, 200, resp.Status)
	assert.Equal(t, jsfetch.TypeBasic, resp.Type, "Node's fetch makes basic responses")
	assert.Equal(t, []string{"a, b"}, resp.Header["x-multi"], "repeated headers come joined, as fetch's Headers give them")
	assert.Equal(t, []string{"s-1"}, resp.Header["mcp-session-id"])
	assert.False(t, resp.Hidden("Mcp-Session-Id"))
	assert.False(t, resp.Hidden("X-Absent"), "a basic response hides nothing")
	var echo struct {
		Method string            `json:"method"`
		Header map[string]string `json:"header"`
		Body   string            `json:"body"`
	}
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&echo))
	assert.Equal(t, "POST", echo.Method)
	assert.Equal(t, `{"ünïcode":"✓"}`, echo.Body)
	assert.Equal(t, "1, 2", echo.Header["x-two"])
	assert.Equal(t, "tools/call", echo.Header["mcp-method"])
	assert.Equal(t, "application/json", echo.Header["content-type"])
}

func TestStatusAndEmptyBody(t *testing.T) {
	origin := echoOrigin(t)
	f := newFetcher(t, nil)
	resp, err := f.Do(testCtx(t), &jsfetch.Request{Method: "GET", URL: origin + "/status/503"})
	require.NoError(t, err)
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	assert.Equal(t, 503, resp.Status)
	assert.Equal(t, "status 503", string(b))
	require.NoError(t, resp.Body.Close())

	resp, err = f.Do(testCtx(t), &jsfetch.Request{Method: "DELETE", URL: origin + "/status/204"})
	require.NoError(t, err)
	n, err := resp.Body.Read(make([]byte, 10))
	assert.Zero(t, n)
	assert.Equal(t, io.EOF, err)
	require.NoError(t, resp.Body.Close())
	require.NoError(t, resp.Body.Close(), "Close is idempotent")
	_, err = resp.Body.Read(make([]byte, 10))
	assert.ErrorIs(t, err, jsfetch.ErrBodyClosed)
}

var streamID atomic.Int64

// TestStreamingAndClose: the body is readable before the response ends,
// and closing it aborts the request (the server sees the client go away).
func TestStreamingAndClose(t *testing.T) {
	origin := echoOrigin(t)
	id := strconv.FormatInt(time.Now().UnixNano()+streamID.Add(1), 10)
	resp, err := newFetcher(t, nil).Do(testCtx(t), &jsfetch.Request{Method: "GET", URL: origin + "/stream?id=" + id})
	require.NoError(t, err)
	buf := make([]byte, 3) // smaller than the chunk: the rest is kept
	n, err := io.ReadFull(resp.Body, buf)
	require.NoError(t, err)
	assert.Equal(t, "fir", string(buf[:n]))
	n, err = resp.Body.Read(buf)
	require.NoError(t, err)
	assert.Equal(t, "st\n", string(buf[:n]))
	assert.Equal(t, "open", get(t, origin+"/state?id="+id), "the server is still sending")

	// A Read blocked on the next chunk is released by Close.
	readErr := make(chan error, 1)
	go func() {
		_, err := resp.Body.Read(buf)
		readErr <- err
	}()
	time.Sleep(50 * time.Millisecond)
	require.NoError(t, resp.Body.Close())
	select {
	case err := <-readErr:
		assert.ErrorIs(t, err, jsfetch.ErrBodyClosed)
	case <-time.After(5 * time.Second):
		t.Fatal("Close did not release the pending Read")
	}
	require.Eventually(t, func() bool { return get(t, origin+"/state?id="+id) == "aborted" }, 5*time.Second, 20*time.Millisecond)
}

// TestChunk: a body hands over the helper's chunks whole (the SSE reader
// parses them in place), and ends when closed.
func TestChunk(t *testing.T) {
	origin := echoOrigin(t)
	id := strconv.FormatInt(time.Now().UnixNano()+streamID.Add(1), 10)
	resp, err := newFetcher(t, nil).Do(testCtx(t), &jsfetch.Request{Method: "GET", URL: origin + "/stream?id=" + id})
	require.NoError(t, err)
	c, ok := resp.Body.(interface{ Chunk() ([]byte, error) })
	require.True(t, ok, "the helper's bodies hand over chunks")
	b, err := c.Chunk()
	require.NoError(t, err)
	assert.Equal(t, "first\n", string(b))
	require.NoError(t, resp.Body.Close())
	_, err = c.Chunk()
	assert.ErrorIs(t, err, jsfetch.ErrBodyClosed)
}

// TestContextAbort: the end of the request's context aborts the request
// while its body is being read.
func TestContextAbort(t *testing.T) {
	origin := echoOrigin(t)
	id := strconv.FormatInt(time.Now().UnixNano()+streamID.Add(1), 10)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	resp, err := newFetcher(t, nil).Do(ctx, &jsfetch.Request{Method: "GET", URL: origin + "/stream?id=" + id})
	require.NoError(t, err)
	defer resp.Body.Close()
	line := make([]byte, 6)
	_, err = io.ReadFull(resp.Body, line)
	require.NoError(t, err)
	time.AfterFunc(50*time.Millisecond, cancel)
	_, err = resp.Body.Read(line)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "Abort")
	require.Eventually(t, func() bool { return get(t, origin+"/state?id="+id) == "aborted" }, 5*time.Second, 20*time.Millisecond)

	_, err = newFetcher(t, nil).Do(ctx, &jsfetch.Request{Method: "GET", URL: origin + "/echo"})
	assert.ErrorIs(t, err, context.Canceled, "a done context sends nothing")
}

// recordingFetch is a user-supplied fetch that records its arguments and
// then calls the real fetch.
func recordingFetch(t *testing.T) (fn js.Value, last func() js.Value) {
	t.Helper()
	rec := js.Global().Get("Object").New()
	fn = js.Global().Get("Function").New("rec", "realFetch", `
		return (input, init) => { rec.input = input; rec.init = init; return realFetch(input, init); };`).
		Invoke(rec, js.Global().Get("fetch"))
	return fn, func() js.Value { return rec }
}

func TestHookAndOptions(t *testing.T) {
	origin := echoOrigin(t)
	fn, rec := recordingFetch(t)
	extra := js.Global().Get("Object").New()
	extra.Set("keepalive", false)
	extra.Set("priority", "high")
	extra.Set("method", "PUT") // ours wins
	f := newFetcher(t, &jsfetch.Options{
		Credentials: "include", Mode: "cors", Cache: "no-store", ReferrerPolicy: "no-referrer",
		Hook: jsfetch.Hook{Fetch: fn, Init: extra},
	})
	resp, err := f.Do(testCtx(t), &jsfetch.Request{Method: "POST", URL: origin + "/echo", Header: map[string][]string{"x-a": {"1"}}, Body: []byte("hi")})
	require.NoError(t, err)
	resp.Body.Close()
	init := rec().Get("init")
	assert.Equal(t, origin+"/echo", rec().Get("input").String())
	assert.Equal(t, "POST", init.Get("method").String())
	assert.Equal(t, "include", init.Get("credentials").String())
	assert.Equal(t, "cors", init.Get("mode").String())
	assert.Equal(t, "no-store", init.Get("cache").String())
	assert.Equal(t, "no-referrer", init.Get("referrerPolicy").String())
	assert.Equal(t, "high", init.Get("priority").String(), "extra RequestInit members are passed")
	assert.True(t, init.Get("signal").InstanceOf(js.Global().Get("AbortSignal")))
	assert.True(t, init.Get("body").InstanceOf(js.Global().Get("Uint8Array")))
	assert.Equal(t, "redirect", firstMissing(init, "redirect"), "redirect is left to the default")
	h := init.Get("headers")
	require.Equal(t, 1, h.Length())
	assert.Equal(t, "x-a", h.Index(0).Index(0).String())

	// NoRedirect asks for redirect: "manual"; Node returns the 302 itself.
	resp, err = f.Do(testCtx(t), &jsfetch.Request{Method: "GET", URL: origin + "/redirect", NoRedirect: true})
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, "manual", rec().Get("init").Get("redirect").String())
	assert.Equal(t, 302, resp.Status)
	assert.Equal(t, []string{"/echo"}, resp.Header["location"])
	resp, err = f.Do(testCtx(t), &jsfetch.Request{Method: "GET", URL: origin + "/redirect"})
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, 200, resp.Status, "redirects are followed by default")
}

// firstMissing returns name if obj has no such member.
func firstMissing(obj js.Value, name string) string {
	if obj.Get(name).Type() == js.TypeUndefined {
		return name
	}
	return ""
}

func TestHookResponses(t *testing.T) {
	make := func(t *testing.T, body string) *jsfetch.Fetcher {
		t.Helper()
		fn := js.Global().Get("Function").New(body)
		return newFetcher(t, &jsfetch.Options{Hook: jsfetch.Hook{Fetch: fn}})
	}
	t.Run("a script-made Response", func(t *testing.T) {
		f := make(t, `return new Response("made in JS", {status: 201, headers: {"X-A": "1"}});`)
		resp, err := f.Do(testCtx(t), &jsfetch.Request{Method: "GET", URL: "http://unused.invalid/"})
		require.NoError(t, err)
		defer resp.Body.Close()
		assert.Equal(t, 201, resp.Status)
		assert.Equal(t, jsfetch.TypeDefault, resp.Type)
		assert.Equal(t, []string{"1"}, resp.Header["x-a"])
		assert.False(t, resp.Hidden("Mcp-Session-Id"), "a default response hides nothing")
		b, err := io.ReadAll(resp.Body)
		require.NoError(t, err)
		assert.Equal(t, "made in JS", string(b))
	})
	t.Run("a cors response", func(t *testing.T) {
		f := make(t, `return { type: "cors", status: 200, headers: new Headers({"content-type": "text/plain", "x-exposed": "1"}), body: null };`)
		resp, err := f.Do(testCtx(t), &jsfetch.Request{Method: "GET", URL: "http://unused.invalid/"})
		require.NoError(t, err)
		defer resp.Body.Close()
		assert.True(t, resp.Hidden("Mcp-Session-Id"))
		assert.True(t, resp.Hidden("WWW-Authenticate"))
		assert.False(t, resp.Hidden("X-Exposed"), "present")
		assert.False(t, resp.Hidden("Cache-Control"), "safelisted")
	})
	t.Run("headers that are not a Headers object", func(t *testing.T) {
		f := make(t, `return { status: 200, headers: [["X-Odd", "line1\nline2"], ["x-b", "2"]], body: null };`)
		resp, err := f.Do(testCtx(t), &jsfetch.Request{Method: "GET", URL: "http://unused.invalid/"})
		require.NoError(t, err)
		defer resp.Body.Close()
		assert.Equal(t, jsfetch.TypeDefault, resp.Type, "no type member")
		assert.Equal(t, map[string][]string{"x-odd": {"line1\nline2"}, "x-b": {"2"}}, resp.Header)
	})
	t.Run("not a Response", func(t *testing.T) {
		f := make(t, `return 42;`)
		_, err := f.Do(testCtx(t), &jsfetch.Request{Method: "GET", URL: "http://unused.invalid/"})
		require.ErrorIs(t, err, jsfetch.ErrNotResponse)
	})
	t.Run("a rejection that is not a TypeError", func(t *testing.T) {
		f := make(t, `return Promise.reject(new RangeError("nope", {cause: new Error("deeper")}));`)
		_, err := f.Do(testCtx(t), &jsfetch.Request{Method: "GET", URL: "http://unused.invalid/"})
		require.Error(t, err)
		assert.NotErrorIs(t, err, jsfetch.ErrNetwork)
		assert.Contains(t, err.Error(), "RangeError: nope (deeper)")
	})
	t.Run("a throwing fetch", func(t *testing.T) {
		f := make(t, `throw new TypeError("sync throw");`)
		_, err := f.Do(testCtx(t), &jsfetch.Request{Method: "GET", URL: "http://unused.invalid/"})
		require.ErrorIs(t, err, jsfetch.ErrNetwork)
		assert.Contains(t, err.Error(), "sync throw")
	})
	t.Run("a server that never answers, and a context that ends", func(t *testing.T) {
		// Like fetch, this one settles only when its signal aborts.
		aborted := js.Global().Get("Object").New()
		fn := js.Global().Get("Function").New("seen", `
			return (input, init) => new Promise((_, reject) => {
				init.signal.addEventListener("abort", () => { seen.aborted = true; reject(init.signal.reason); });
			});`).Invoke(aborted)
		f := newFetcher(t, &jsfetch.Options{Hook: jsfetch.Hook{Fetch: fn}})
		ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
		defer cancel()
		_, err := f.Do(ctx, &jsfetch.Request{Method: "GET", URL: "http://unused.invalid/"})
		require.ErrorIs(t, err, context.DeadlineExceeded)
		assert.True(t, aborted.Get("aborted").Truthy(), "the end of the context aborted the fetch")
	})
}

func TestBadOptions(t *testing.T) {
	_, err := jsfetch.New(&jsfetch.Options{Mode: "no-cors"})
	require.ErrorIs(t, err, jsfetch.ErrBadOption)
	_, err = jsfetch.New(&jsfetch.Options{Hook: jsfetch.Hook{Fetch: js.ValueOf("fetch")}})
	require.ErrorIs(t, err, jsfetch.ErrBadOption)
	assert.Contains(t, err.Error(), "must be a function")
	_, err = jsfetch.New(&jsfetch.Options{Hook: jsfetch.Hook{Init: js.ValueOf(3)}})
	require.ErrorIs(t, err, jsfetch.ErrBadOption)
}

func TestNoFetch(t *testing.T) {
	global := js.Global()
	saved := global.Get("fetch")
	global.Set("fetch", js.Undefined())
	defer global.Set("fetch", saved)
	_, err := newFetcher(t, nil).Do(testCtx(t), &jsfetch.Request{Method: "GET", URL: echoOrigin(t) + "/echo"})
	require.ErrorIs(t, err, jsfetch.ErrNoFetch)
}

func TestNetworkError(t *testing.T) {
	// Port 9 (discard) is on fetch's bad-port list: the request fails
	// before any connection, like a refused one.
	_, err := newFetcher(t, nil).Do(testCtx(t), &jsfetch.Request{Method: "GET", URL: "http://127.0.0.1:9/"})
	require.ErrorIs(t, err, jsfetch.ErrNetwork)
	assert.True(t, strings.Contains(err.Error(), "bad port"), "Node gives the cause: %v", err)
}
