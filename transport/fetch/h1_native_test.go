//go:build !js && !wasip1

package fetch

import (
	"bufio"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpwasm/mcpwasm/internal/callctx"
)

// rawServer is a TCP server of the test's own, for answers real HTTP
// servers do not give (a head that never ends, a connection dropped while
// idle): handle runs once per accepted connection, at most maxConns.
type rawServer struct {
	ln       net.Listener
	accepted atomic.Int32
	wg       sync.WaitGroup
}

func startRaw(t *testing.T, maxConns int, handle func(n int, c net.Conn, br *bufio.Reader)) *rawServer {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	s := &rawServer{ln: ln}
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		for i := 0; i < maxConns; i++ {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			n := int(s.accepted.Add(1))
			s.wg.Add(1)
			go func() {
				defer s.wg.Done()
				defer c.Close()
				c.SetDeadline(time.Now().Add(10 * time.Second))
				handle(n, c, bufio.NewReader(c))
			}()
		}
	}()
	t.Cleanup(func() {
		ln.Close()
		s.wg.Wait()
	})
	return s
}

func (s *rawServer) url() string { return "http://" + s.ln.Addr().String() + "/mcp" }

// readRequest reads one request and its body.
func readRequest(t *testing.T, br *bufio.Reader) (*http.Request, string, bool) {
	req, err := http.ReadRequest(br)
	if err != nil {
		return nil, "", false
	}
	b, err := io.ReadAll(req.Body)
	if err != nil {
		return nil, "", false
	}
	return req, string(b), true
}

func h1Ctx(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	t.Cleanup(cancel)
	return ctx
}

func h1Post(body string) *Request {
	return &Request{Method: "POST", Header: Header{"content-type": {"application/json"}, "mcp-session-id": {"s1"}}, Body: []byte(body)}
}

func h1Do(t *testing.T, d Doer, ctx context.Context, r *Request) (*Response, string, error) {
	t.Helper()
	resp, err := d.Do(ctx, r)
	if err != nil {
		return nil, "", err
	}
	b, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	return resp, string(b), err
}

func TestH1Target(t *testing.T) {
	d := newH1Doer()
	d.proxy = func(*http.Request) (*url.URL, error) { return nil, nil }
	tests := []struct {
		url    string
		direct bool
		addr   string
		path   string
	}{
		{"http://127.0.0.1:8080/mcp", true, "127.0.0.1:8080", "/mcp"},
		{"http://localhost/mcp?x=1", true, "localhost:80", "/mcp?x=1"},
		{"http://[::1]:9/a%20b", true, "[::1]:9", "/a%20b"},
		{"https://127.0.0.1:8443/mcp", false, "", ""},
		{"http://user:pw@127.0.0.1/mcp", false, "", ""},
		{"http://exämple.test/mcp", false, "", ""},
		{"ftp://127.0.0.1/mcp", false, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.url, func(t *testing.T) {
			got := d.target(tt.url)
			assert.Equal(t, tt.direct, got.direct)
			if tt.direct {
				assert.Equal(t, tt.addr, got.addr)
				assert.Equal(t, tt.path, got.path)
			}
		})
	}
	t.Run("a proxied URL goes to net/http", func(t *testing.T) {
		d := newH1Doer()
		d.proxy = func(r *http.Request) (*url.URL, error) {
			if r.URL.Hostname() == "127.0.0.1" {
				return nil, nil
			}
			return url.Parse("http://proxy.test:3128")
		}
		assert.False(t, d.target("http://mcp.example.test/mcp").direct)
		assert.True(t, d.target("http://127.0.0.1:9/mcp").direct)
	})
}

func TestH1KeepsConnectionsAlive(t *testing.T) {
	var conns atomic.Int32
	hs := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Mcp-Session-Id", r.Header.Get("Mcp-Session-Id"))
		w.Write(append([]byte("echo:"), b...))
	}))
	hs.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			conns.Add(1)
		}
	}
	hs.Start()
	defer hs.Close()
	d := newH1Doer()
	defer d.CloseIdleConnections()
	for i := range 5 {
		r := h1Post(strings.Repeat("x", i*3000))
		r.URL = hs.URL + "/mcp"
		resp, body, err := h1Do(t, d, h1Ctx(t), r)
		require.NoError(t, err)
		assert.Equal(t, 200, resp.StatusCode)
		assert.Equal(t, "s1", resp.Header.Get("Mcp-Session-Id"), "headers reach the server and come back")
		assert.Equal(t, "echo:"+strings.Repeat("x", i*3000), body)
	}
	assert.Equal(t, int32(1), conns.Load(), "sequential requests share one connection")
}

func TestH1SendsAgainOnAConnectionClosedWhileIdle(t *testing.T) {
	// Each connection answers one request and is then closed without a
	// word, as a server closes an idle kept-alive connection.
	s := startRaw(t, 4, func(n int, c net.Conn, br *bufio.Reader) {
		if _, body, ok := readRequest(t, br); ok {
			io.WriteString(c, "HTTP/1.1 200 OK\r\nContent-Length: "+strconv.Itoa(len(body))+"\r\n\r\n"+body)
		}
	})
	d := newH1Doer()
	defer d.CloseIdleConnections()
	for _, b := range []string{"one", "two", "three"} {
		r := h1Post(b)
		r.URL = s.url()
		_, got, err := h1Do(t, d, h1Ctx(t), r)
		require.NoError(t, err)
		assert.Equal(t, b, got)
	}
	assert.Equal(t, int32(3), s.accepted.Load())
}

func TestH1RefusesWhatHTTPCannotCarry(t *testing.T) {
	s := startRaw(t, 1, func(int, net.Conn, *bufio.Reader) {})
	d := newH1Doer()
	for _, h := range []Header{
		{"mcp-session-id": {"a\r\nX-Injected: 1"}},
		{"mcp-session-id": {"a\nb"}},
		{"bad name": {"v"}},
	} {
		_, err := d.Do(h1Ctx(t), &Request{Method: "POST", URL: s.url(), Header: h, Body: []byte("{}")})
		require.Error(t, err)
		assert.Contains(t, err.Error(), "invalid header field")
	}
	_, err := d.Do(h1Ctx(t), &Request{Method: "PO ST", URL: s.url()})
	assert.ErrorContains(t, err, "invalid method")
	assert.Equal(t, int32(0), s.accepted.Load(), "nothing went on the wire")
}

func TestH1BoundsAndFaults(t *testing.T) {
	tests := []struct {
		name   string
		answer func(c net.Conn)
		check  func(t *testing.T, resp *Response, body string, err error)
	}{
		{"a head that never ends", func(c net.Conn) {
			io.WriteString(c, "HTTP/1.1 200 OK\r\nX-Long: ")
			chunk := strings.Repeat("a", 64<<10)
			for range 40 { // 2.5 MiB, more than the limit
				if _, err := io.WriteString(c, chunk); err != nil {
					return
				}
			}
		}, func(t *testing.T, _ *Response, _ string, err error) {
			assert.ErrorIs(t, err, errHeadTooLarge)
		}},
		{"interim answers before the final one", func(c net.Conn) {
			io.WriteString(c, "HTTP/1.1 103 Early Hints\r\nLink: </x>\r\n\r\nHTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok")
		}, func(t *testing.T, resp *Response, body string, err error) {
			require.NoError(t, err)
			assert.Equal(t, 200, resp.StatusCode)
			assert.Equal(t, "ok", body)
		}},
		{"endless interim answers", func(c net.Conn) {
			for range 20 {
				io.WriteString(c, "HTTP/1.1 103 Early Hints\r\n\r\n")
			}
		}, func(t *testing.T, _ *Response, _ string, err error) {
			assert.ErrorContains(t, err, "unexpected 103 response")
		}},
		{"a chunked body", func(c net.Conn) {
			io.WriteString(c, "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n2\r\nde\r\n0\r\n\r\n")
		}, func(t *testing.T, _ *Response, body string, err error) {
			require.NoError(t, err)
			assert.Equal(t, "abcde", body)
		}},
		{"a body cut short", func(c net.Conn) {
			io.WriteString(c, "HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc")
		}, func(t *testing.T, _ *Response, _ string, err error) {
			assert.ErrorIs(t, err, io.ErrUnexpectedEOF)
		}},
		{"garbage instead of a status line", func(c net.Conn) {
			io.WriteString(c, "SSH-2.0-OpenSSH\r\n\r\n")
		}, func(t *testing.T, _ *Response, _ string, err error) {
			assert.ErrorContains(t, err, "malformed HTTP")
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := startRaw(t, 1, func(_ int, c net.Conn, br *bufio.Reader) {
				if _, _, ok := readRequest(t, br); ok {
					tt.answer(c)
				}
			})
			d := newH1Doer()
			defer d.CloseIdleConnections()
			r := h1Post("{}")
			r.URL = s.url()
			resp, body, err := h1Do(t, d, h1Ctx(t), r)
			tt.check(t, resp, body, err)
		})
	}
}

func TestH1ConnectionCloseIsHonoured(t *testing.T) {
	s := startRaw(t, 3, func(_ int, c net.Conn, br *bufio.Reader) {
		for {
			if _, _, ok := readRequest(t, br); !ok {
				return
			}
			io.WriteString(c, "HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 2\r\n\r\nok")
		}
	})
	d := newH1Doer()
	for range 2 {
		r := h1Post("{}")
		r.URL = s.url()
		_, body, err := h1Do(t, d, h1Ctx(t), r)
		require.NoError(t, err)
		assert.Equal(t, "ok", body)
	}
	assert.Equal(t, int32(2), s.accepted.Load())
	d.mu.Lock()
	assert.Empty(t, d.idle)
	d.mu.Unlock()
}

func TestH1Cancellation(t *testing.T) {
	// The ways a request's context ends: the caller's own cancellation, and
	// a session call's context (callctx.Ctx, which the doer watches without
	// a context of its own) ended by the call (its timers, its transport)
	// or by the caller's context under it.
	ends := []struct {
		name string
		ctx  func(t *testing.T) (ctx context.Context, end func())
		want error
	}{
		{"a cancelled context", func(t *testing.T) (context.Context, func()) {
			ctx, cancel := context.WithCancel(h1Ctx(t))
			return ctx, cancel
		}, context.Canceled},
		{"a call's context ended by the call", func(t *testing.T) (context.Context, func()) {
			c := new(callctx.Ctx)
			c.Start(h1Ctx(t))
			return c, func() { c.End(errors.New("the call's idle timeout")) }
		}, context.Canceled},
		{"a call's context under a cancelled one", func(t *testing.T) (context.Context, func()) {
			parent, cancel := context.WithCancel(h1Ctx(t))
			c := new(callctx.Ctx)
			c.Start(parent)
			return c, cancel
		}, context.Canceled},
	}
	for _, e := range ends {
		d := newH1Doer()
		t.Run(e.name+"/while waiting for the head", func(t *testing.T) {
			got := make(chan struct{})
			s := startRaw(t, 1, func(_ int, c net.Conn, br *bufio.Reader) {
				if _, _, ok := readRequest(t, br); ok {
					close(got)
					io.Copy(io.Discard, br) // no answer; until the client hangs up
				}
			})
			ctx, end := e.ctx(t)
			r := h1Post("{}")
			r.URL = s.url()
			errc := make(chan error, 1)
			go func() {
				_, err := d.Do(ctx, r)
				errc <- err
			}()
			<-got
			end()
			assert.ErrorIs(t, <-errc, e.want)
		})
		t.Run(e.name+"/while reading a stream", func(t *testing.T) {
			s := startRaw(t, 1, func(_ int, c net.Conn, br *bufio.Reader) {
				if _, _, ok := readRequest(t, br); ok {
					io.WriteString(c, "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n\r\n: hi\n\n")
					io.Copy(io.Discard, br) // the stream stays open until the client hangs up
				}
			})
			ctx, end := e.ctx(t)
			r := h1Post("{}")
			r.URL = s.url()
			resp, err := d.Do(ctx, r)
			require.NoError(t, err)
			buf := make([]byte, 64)
			n, err := resp.Body.Read(buf)
			require.NoError(t, err)
			assert.Equal(t, ": hi\n\n", string(buf[:n]))
			end()
			_, err = io.ReadAll(resp.Body)
			assert.Error(t, err, "the read ends with the request's ctx")
			resp.Body.Close()
			d.mu.Lock()
			assert.Empty(t, d.idle, "a connection whose stream was cut is not kept")
			d.mu.Unlock()
		})
	}
}

func TestH1RedirectsGoToNetHTTP(t *testing.T) {
	mux := http.NewServeMux()
	mux.HandleFunc("/old", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/new", http.StatusTemporaryRedirect)
	})
	mux.HandleFunc("/new", func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		w.Write(append([]byte(r.Method+" "), b...))
	})
	hs := httptest.NewServer(mux)
	defer hs.Close()
	d := newH1Doer()
	defer d.CloseIdleConnections()
	r := h1Post("body")
	r.URL = hs.URL + "/old"
	resp, body, err := h1Do(t, d, h1Ctx(t), r)
	require.NoError(t, err)
	assert.Equal(t, 200, resp.StatusCode)
	assert.Equal(t, "POST body", body, "a 307 sends the POST again, with its body")
	r.NoRedirect = true
	resp, _, err = h1Do(t, d, h1Ctx(t), r)
	require.NoError(t, err)
	assert.Equal(t, 307, resp.StatusCode)
	assert.Equal(t, "/new", resp.Header.Get("Location"))
}

func TestH1IdleConnectionsEnd(t *testing.T) {
	closed := make(chan struct{}, 4)
	s := startRaw(t, 2, func(_ int, c net.Conn, br *bufio.Reader) {
		for {
			if _, _, ok := readRequest(t, br); !ok {
				closed <- struct{}{} // the client closed the connection
				return
			}
			io.WriteString(c, "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok")
		}
	})
	d := newH1Doer()
	r := h1Post("{}")
	r.URL = s.url()
	_, _, err := h1Do(t, d, h1Ctx(t), r)
	require.NoError(t, err)
	d.CloseIdleConnections()
	select {
	case <-closed:
	case <-time.After(5 * time.Second):
		t.Fatal("CloseIdleConnections left the connection open")
	}

	// The sweeper closes what stayed idle too long.
	_, _, err = h1Do(t, d, h1Ctx(t), r)
	require.NoError(t, err)
	d.mu.Lock()
	for _, cs := range d.idle {
		for _, c := range cs {
			c.idleSince = c.idleSince.Add(-2 * h1IdleTimeout)
		}
	}
	d.mu.Unlock()
	d.sweep()
	select {
	case <-closed:
	case <-time.After(5 * time.Second):
		t.Fatal("sweep left an expired connection open")
	}
	d.mu.Lock()
	assert.Empty(t, d.idle)
	assert.Nil(t, d.sweeper)
	d.mu.Unlock()
}

// TestH1ReadsAnswers checks the head reader (readHead) against answers
// written byte for byte: the header it returns, the body, and whether the
// connection serves the next request. Each answer is followed on the same
// connection by a second request, answered "next", when the first one
// should leave the connection reusable.
func TestH1ReadsAnswers(t *testing.T) {
	tests := []struct {
		name   string
		answer string
		header Header // wanted (subset)
		body   string
		keep   bool
		err    string
	}{
		{name: "names in any case come out in lower case; repeated fields keep every value",
			answer: "HTTP/1.1 200 OK\r\nCONTENT-TYPE: application/json\r\nX-Custom-Thing:  a \r\nx-custom-thing: b\r\nMcp-Session-Id: s9\r\nContent-Length: 2\r\n\r\nok",
			header: Header{"content-type": {"application/json"}, "x-custom-thing": {"a", "b"}, "mcp-session-id": {"s9"}},
			body:   "ok", keep: true},
		{name: "bare LF line ends",
			answer: "HTTP/1.1 200 OK\nContent-Length: 2\n\nok", body: "ok", keep: true},
		{name: "a chunked body with extensions and a trailer",
			answer: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2;x=y\r\nab\r\n1\r\nc\r\n0\r\nX-Trailer: 1\r\n\r\n",
			body:   "abc", keep: true},
		{name: "Connection: close",
			answer: "HTTP/1.1 200 OK\r\nConnection: keep-alive, Close\r\nContent-Length: 2\r\n\r\nok", body: "ok"},
		{name: "HTTP/1.0 closes unless it asks to keep alive",
			answer: "HTTP/1.0 200 OK\r\nContent-Length: 2\r\n\r\nok", body: "ok"},
		{name: "HTTP/1.0 with keep-alive",
			answer: "HTTP/1.0 200 OK\r\nConnection: Keep-Alive\r\nContent-Length: 2\r\n\r\nok", body: "ok", keep: true},
		{name: "a body read to the connection's end",
			answer: "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\nall of it", body: "all of it"},
		{name: "both Transfer-Encoding and Content-Length: chunked wins, the connection is not reused",
			answer: "HTTP/1.1 200 OK\r\nContent-Length: 99\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nok\r\n0\r\n\r\n", body: "ok"},
		{name: "204 has no body", answer: "HTTP/1.1 204 No Content\r\nContent-Length: 0\r\n\r\n", keep: true},
		{name: "the same Content-Length twice",
			answer: "HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Length: 2\r\n\r\nok", body: "ok", keep: true},
		{name: "two different Content-Lengths",
			answer: "HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\nok", err: "Content-Length"},
		{name: "a Content-Length that is not a number",
			answer: "HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\nok", err: "Content-Length"},
		{name: "a transfer coding other than chunked",
			answer: "HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip, chunked\r\n\r\n", err: "Transfer-Encoding"},
		{name: "a folded header line",
			answer: "HTTP/1.1 200 OK\r\nX-A: 1\r\n  2\r\nContent-Length: 2\r\n\r\nok", err: "folded"},
		{name: "a space before the colon",
			answer: "HTTP/1.1 200 OK\r\nContent-Length : 2\r\n\r\nok", err: "header line"},
		{name: "a control byte in a value",
			answer: "HTTP/1.1 200 OK\r\nX-A: a\x00b\r\nContent-Length: 2\r\n\r\nok", err: "value"},
		{name: "a status that is not three digits",
			answer: "HTTP/1.1 20 OK\r\n\r\n", err: "status line"},
		{name: "HTTP/2 framing",
			answer: "HTTP/2 200\r\n\r\n", err: "status line"},
		{name: "a head cut short",
			answer: "HTTP/1.1 200 OK\r\nContent-Le", err: "unexpected EOF"},
		{name: "a chunked body cut short",
			answer: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nab", err: "unexpected EOF"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := startRaw(t, 2, func(_ int, c net.Conn, br *bufio.Reader) {
				if _, _, ok := readRequest(t, br); !ok {
					return
				}
				io.WriteString(c, tt.answer)
				if !tt.keep {
					return // the connection ends after the answer
				}
				if _, _, ok := readRequest(t, br); ok {
					io.WriteString(c, "HTTP/1.1 200 OK\r\nContent-Length: 4\r\n\r\nnext")
				}
			})
			d := newH1Doer()
			defer d.CloseIdleConnections()
			r := h1Post("{}")
			r.URL = s.url()
			resp, body, err := h1Do(t, d, h1Ctx(t), r)
			if tt.err != "" {
				require.Error(t, err)
				assert.ErrorContains(t, err, tt.err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.body, body)
			for k, v := range tt.header {
				assert.Equal(t, v, resp.Header[k], k)
			}
			d.mu.Lock()
			idle := len(d.idle[s.ln.Addr().String()])
			d.mu.Unlock()
			if tt.keep {
				assert.Equal(t, 1, idle, "the connection is kept")
				_, body, err := h1Do(t, d, h1Ctx(t), r)
				require.NoError(t, err)
				assert.Equal(t, "next", body)
				assert.Equal(t, int32(1), s.accepted.Load(), "the second request went on the same connection")
			} else {
				assert.Equal(t, 0, idle, "the connection is not kept")
			}
		})
	}
}

// TestH1BodyOfKnownSize checks that a body whose length the head announced
// is read into one buffer of that size (readLimited) and that a larger one
// is refused before it is read.
func TestH1BodyOfKnownSize(t *testing.T) {
	s := startRaw(t, 2, func(_ int, c net.Conn, br *bufio.Reader) {
		for {
			if _, _, ok := readRequest(t, br); !ok {
				return
			}
			io.WriteString(c, "HTTP/1.1 200 OK\r\nContent-Length: 5000\r\n\r\n"+strings.Repeat("z", 5000))
		}
	})
	d := newH1Doer()
	defer d.CloseIdleConnections()
	r := h1Post("{}")
	r.URL = s.url()
	resp, err := d.Do(h1Ctx(t), r)
	require.NoError(t, err)
	require.Equal(t, int64(5000), resp.Body.(*h1Body).Size())
	b, err := readLimited(resp.Body, 5000)
	require.NoError(t, err)
	assert.Equal(t, 5000, len(b))
	assert.Equal(t, 5000, cap(b), "one buffer of the announced size")
	resp.Body.Close()
	d.mu.Lock()
	assert.Len(t, d.idle[s.ln.Addr().String()], 1, "read to its end: the connection is kept")
	d.mu.Unlock()

	resp, err = d.Do(h1Ctx(t), r)
	require.NoError(t, err)
	_, err = readLimited(resp.Body, 4999)
	assert.ErrorIs(t, err, ErrTooLarge)
	resp.Body.Close()
}

// recordingReader delivers data in pieces of at most piece bytes and
// records how much room each Read was given.
type recordingReader struct {
	data  []byte
	piece int
	rooms []int
}

func (r *recordingReader) Read(p []byte) (int, error) {
	r.rooms = append(r.rooms, len(p))
	if len(r.data) == 0 {
		return 0, io.EOF
	}
	n := copy(p, r.data[:min(len(r.data), r.piece)])
	r.data = r.data[n:]
	return n, nil
}

// TestReadSizedFollowsWhatArrives: a body that announces 8 MiB sets aside
// at most 1 MiB before bytes come, and then at most four times what came;
// one that sends less than it announced fails as cut short.
func TestReadSizedFollowsWhatArrives(t *testing.T) {
	const announced = 8 << 20
	t.Run("a server that announces much and sends little", func(t *testing.T) {
		r := &recordingReader{data: []byte("0123456789"), piece: 64 << 10}
		_, err := readSized(r, announced)
		assert.ErrorIs(t, err, io.ErrUnexpectedEOF)
		for _, room := range r.rooms {
			assert.LessOrEqual(t, room, sizedStep)
		}
	})
	t.Run("a server that sends all it announced", func(t *testing.T) {
		data := []byte(strings.Repeat("abcdefgh", announced/8))
		r := &recordingReader{data: data, piece: 64 << 10}
		b, err := readSized(r, announced)
		require.NoError(t, err)
		assert.Equal(t, data, b)
		got := 0
		for _, room := range r.rooms {
			assert.LessOrEqual(t, got+room, max(sizedStep, 4*got), "the buffer grows with what came")
			got += min(room, 64<<10)
		}
	})
	t.Run("a small body: one buffer of its size", func(t *testing.T) {
		r := &recordingReader{data: []byte("hello"), piece: 2}
		b, err := readSized(r, 5)
		require.NoError(t, err)
		assert.Equal(t, "hello", string(b))
		assert.Equal(t, 5, cap(b))
	})
}

// TestH1HeadValuesFromTheAnswerBefore: a connection takes a field value
// equal to the one at the same position of the answer before it from that
// answer instead of allocating it; each head still comes out as it was
// sent, whatever changed, moved, came or went.
func TestH1HeadValuesFromTheAnswerBefore(t *testing.T) {
	heads := []struct {
		head string
		want Header
	}{
		{"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nDate: Fri, 04 Dec 2026 22:00:00 GMT\r\nContent-Length: 0\r\n\r\n",
			Header{"content-type": {"application/json"}, "date": {"Fri, 04 Dec 2026 22:00:00 GMT"}, "content-length": {"0"}}},
		{"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nDate: Fri, 04 Dec 2026 22:00:01 GMT\r\nContent-Length: 0\r\n\r\n",
			Header{"content-type": {"application/json"}, "date": {"Fri, 04 Dec 2026 22:00:01 GMT"}, "content-length": {"0"}}},
		{"HTTP/1.1 200 OK\r\nDate: Fri, 04 Dec 2026 22:00:01 GMT\r\nContent-Type: application/json\r\nContent-Length: 0\r\n\r\n",
			Header{"content-type": {"application/json"}, "date": {"Fri, 04 Dec 2026 22:00:01 GMT"}, "content-length": {"0"}}},
		{"HTTP/1.1 200 OK\r\nA: 1\r\nB: 2\r\nC: 3\r\nD: 4\r\nE: 5\r\nF: 6\r\nG: 7\r\nH: 8\r\nI: 9\r\nJ: 10\r\nA: 11\r\nContent-Length: 0\r\n\r\n",
			Header{"a": {"1", "11"}, "b": {"2"}, "c": {"3"}, "d": {"4"}, "e": {"5"}, "f": {"6"}, "g": {"7"}, "h": {"8"}, "i": {"9"}, "j": {"10"}, "content-length": {"0"}}},
		{"HTTP/1.1 200 OK\r\nA: 1\r\nB: 2\r\nC: 3\r\nD: 4\r\nE: 5\r\nF: 6\r\nG: 7\r\nH: 8\r\nI: 9\r\nJ: 10\r\nA: 11\r\nContent-Length: 0\r\n\r\n",
			Header{"a": {"1", "11"}, "b": {"2"}, "c": {"3"}, "d": {"4"}, "e": {"5"}, "f": {"6"}, "g": {"7"}, "h": {"8"}, "i": {"9"}, "j": {"10"}, "content-length": {"0"}}},
		{"HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n", Header{"content-length": {"0"}}},
		{"HTTP/1.1 200 OK\r\nA: 1\r\nContent-Length: 0\r\n\r\n", Header{"a": {"1"}, "content-length": {"0"}}},
	}
	var all strings.Builder
	for _, h := range heads {
		all.WriteString(h.head)
	}
	c := &h1Conn{br: bufio.NewReader(strings.NewReader(all.String())), limit: -1}
	for i, h := range heads {
		hd, err := c.readHead()
		require.NoError(t, err, "head %d", i)
		assert.Equal(t, h.want, hd.header, "head %d", i)
	}

	t.Run("an answer like the one before allocates no value", func(t *testing.T) {
		const head = "HTTP/1.1 200 OK\r\nCache-Control: no-cache, no-transform\r\nContent-Type: application/json\r\nDate: Fri, 04 Dec 2026 22:00:00 GMT\r\nContent-Length: 194\r\n\r\n"
		r := strings.NewReader(head)
		c := &h1Conn{br: bufio.NewReader(r), limit: -1}
		_, err := c.readHead()
		require.NoError(t, err)
		first := c.prev
		allocs := testing.AllocsPerRun(100, func() {
			r.Reset(head)
			c.br.Reset(r)
			if _, err := c.readHead(); err != nil {
				t.Fatal(err)
			}
		})
		assert.Equal(t, first, c.prev)
		// The header map and the one backing array of its values; four
		// values of their own would make it six.
		assert.LessOrEqual(t, allocs, 3.0)
	})
}
