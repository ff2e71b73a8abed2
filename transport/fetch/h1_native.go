//go:build !js && !wasip1

package fetch

import (
	"bufio"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/mcpwasm/mcpwasm/internal/callctx"
	"github.com/mcpwasm/mcpwasm/internal/errf"
	"github.com/mcpwasm/mcpwasm/internal/rawsock"
	"github.com/mcpwasm/mcpwasm/internal/wire"
)

// h1Doer is the DefaultDoer natively: plain-HTTP requests (http:// URLs no
// proxy applies to: local servers, sidecars, in-cluster services) go over
// HTTP/1.1 connections of its own, written and read on the caller's
// goroutine; everything else goes to net/http (fallback): https (TLS,
// HTTP/2), proxies, and redirects, which it hands over whole (net/http
// follows them, dropping credentials across origins). net/http's
// transport runs a reading and a writing goroutine per connection, so each
// request crosses three goroutines and wakes two of them: on a sequential
// echo call that was ≈ 45 µs of CPU of the client's ≈ 110
// (docs/architecture.md, "Native plain HTTP"). It is safe for concurrent
// use: each request in flight owns its connection.
type h1Doer struct {
	fallback Doer
	dialer   net.Dialer
	proxy    func(*http.Request) (*url.URL, error) // http.ProxyFromEnvironment

	mu      sync.Mutex
	targets map[string]*h1Target // by URL: where and how to send it
	idle    map[string][]*h1Conn // idle connections by host:port, newest last
	sweeper *time.Timer          // closes idle connections that outlived h1IdleTimeout; nil when none are idle
}

// Bounds of the h1Doer's caches and of what it reads.
const (
	h1MaxTargets     = 64               // URLs remembered (then forgotten all at once)
	h1MaxIdlePerHost = 32               // idle connections kept per host:port
	h1IdleTimeout    = 60 * time.Second // an idle connection older than this is closed, not reused
	h1MaxHeaderBytes = 1 << 20          // response head size limit (net/http's default)
	h1MaxInterim     = 8                // 1xx responses skipped before the final one
)

// h1Target is what a URL turned into: direct is false when net/http
// handles it.
type h1Target struct {
	direct bool
	addr   string // host:port to dial
	host   string // the Host header
	path   string // the request target
}

func newH1Doer() *h1Doer {
	return &h1Doer{
		fallback: NetHTTP(nil),
		proxy:    http.ProxyFromEnvironment,
		dialer:   net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second},
		targets:  map[string]*h1Target{},
		idle:     map[string][]*h1Conn{},
	}
}

// target returns what rawURL turns into, parsing it once.
func (d *h1Doer) target(rawURL string) *h1Target {
	d.mu.Lock()
	t := d.targets[rawURL]
	d.mu.Unlock()
	if t != nil {
		return t
	}
	t = &h1Target{}
	if u, err := url.Parse(rawURL); err == nil && u.Scheme == "http" && u.User == nil && plainTarget(u.Host) {
		if p, err := d.proxy(&http.Request{URL: u}); err == nil && p == nil {
			t.host, t.addr, t.path = u.Host, u.Host, u.RequestURI()
			if u.Port() == "" {
				t.addr = net.JoinHostPort(u.Hostname(), "80")
			}
			t.direct = plainTarget(t.path)
		}
	}
	d.mu.Lock()
	if len(d.targets) >= h1MaxTargets {
		clear(d.targets)
	}
	d.targets[rawURL] = t
	d.mu.Unlock()
	return t
}

// plainTarget reports whether s can go into a request line or a Host
// header as it is: visible ASCII only (anything else is net/http's to
// refuse or encode).
func plainTarget(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] <= ' ' || s[i] >= 0x7f {
			return false
		}
	}
	return s != ""
}

func (d *h1Doer) Do(ctx context.Context, r *Request) (*Response, error) {
	t := d.target(r.URL)
	if !t.direct || r.Method == "HEAD" || r.Method == "CONNECT" {
		// (readHead does not know the request: it reads a body after any head.)
		return d.fallback.Do(ctx, r.withMore())
	}
	if err := checkRequest(r); err != nil {
		return nil, &url.Error{Op: opName(r.Method), URL: r.URL, Err: err}
	}
	for attempt := 0; ; attempt++ {
		c, reused, err := d.conn(ctx, t.addr)
		if err != nil {
			return nil, &url.Error{Op: opName(r.Method), URL: r.URL, Err: err}
		}
		resp, stale, err := c.roundTrip(ctx, r, t)
		if err != nil {
			// A kept-alive connection the server closed while it was idle
			// fails before any of the answer came: send again on a new one
			// (as net/http does for requests marked Replayable, and
			// browsers do).
			if stale && reused && attempt == 0 && ctx.Err() == nil {
				continue
			}
			if ctx.Err() != nil {
				err = ctx.Err()
			}
			return nil, &url.Error{Op: opName(r.Method), URL: r.URL, Err: err}
		}
		if !r.NoRedirect && isRedirect(resp.StatusCode) && resp.Header.Get("Location") != "" {
			resp.Body.Close()
			return d.fallback.Do(ctx, r.withMore())
		}
		return resp, nil
	}
}

// opName is the Op of a url.Error, as net/http spells it.
func opName(method string) string {
	if method == "" {
		return "Get"
	}
	return method[:1] + strings.ToLower(method[1:])
}

func isRedirect(status int) bool {
	switch status {
	case 301, 302, 303, 307, 308:
		return true
	}
	return false
}

// conn returns an idle connection to addr, or a new one.
func (d *h1Doer) conn(ctx context.Context, addr string) (*h1Conn, bool, error) {
	now := time.Now()
	d.mu.Lock()
	for cs := d.idle[addr]; len(cs) > 0; cs = d.idle[addr] {
		c := cs[len(cs)-1]
		cs[len(cs)-1] = nil
		d.idle[addr] = cs[:len(cs)-1]
		if now.Sub(c.idleSince) < h1IdleTimeout {
			d.mu.Unlock()
			return c, true, nil
		}
		c.nc.Close()
	}
	d.mu.Unlock()
	nc, err := d.dialer.DialContext(ctx, "tcp", addr)
	if err != nil {
		return nil, false, err
	}
	return newH1Conn(d, addr, nc), false, nil
}

// newH1Conn wraps a new connection to addr.
func newH1Conn(d *h1Doer, addr string, nc net.Conn) *h1Conn {
	c := &h1Conn{d: d, addr: addr, nc: nc, sock: rawsock.New(nc), limit: -1}
	c.expire = func() { nc.SetDeadline(aLongTimeAgo) }
	c.br = bufio.NewReaderSize(c, 16<<10)
	c.bw = bufio.NewWriterSize(c.sock, 4<<10)
	return c
}

// put keeps c for the next request to its host, or closes it.
func (d *h1Doer) put(c *h1Conn) {
	c.idleSince = time.Now()
	d.mu.Lock()
	if cs := d.idle[c.addr]; len(cs) < h1MaxIdlePerHost {
		d.idle[c.addr] = append(cs, c)
		if d.sweeper == nil {
			d.sweeper = time.AfterFunc(h1IdleTimeout, d.sweep)
		}
		d.mu.Unlock()
		return
	}
	d.mu.Unlock()
	c.nc.Close()
}

// sweep closes the connections idle for h1IdleTimeout or more, and comes
// back while any are left: a server may keep an idle connection open for
// ever.
func (d *h1Doer) sweep() {
	now := time.Now()
	var old []*h1Conn
	d.mu.Lock()
	next := time.Duration(0)
	for addr, cs := range d.idle {
		kept := cs[:0]
		for _, c := range cs {
			if age := now.Sub(c.idleSince); age >= h1IdleTimeout {
				old = append(old, c)
			} else {
				kept = append(kept, c)
				if wait := h1IdleTimeout - age; next == 0 || wait < next {
					next = wait
				}
			}
		}
		clear(cs[len(kept):])
		if len(kept) == 0 {
			delete(d.idle, addr)
		} else {
			d.idle[addr] = kept
		}
	}
	d.sweeper = nil
	if next > 0 {
		d.sweeper = time.AfterFunc(next, d.sweep)
	}
	d.mu.Unlock()
	for _, c := range old {
		c.nc.Close()
	}
}

// CloseIdleConnections closes the connections no request is using (the
// transport calls it when a connection it made with the DefaultDoer
// closes). Requests later dial again. It is safe for concurrent use.
func (d *h1Doer) CloseIdleConnections() {
	d.mu.Lock()
	idle := d.idle
	d.idle = map[string][]*h1Conn{}
	if d.sweeper != nil {
		d.sweeper.Stop()
		d.sweeper = nil
	}
	d.mu.Unlock()
	for _, cs := range idle {
		for _, c := range cs {
			c.nc.Close()
		}
	}
}

// h1Conn is one connection; a request in flight owns it.
type h1Conn struct {
	d         *h1Doer
	addr      string
	nc        net.Conn
	sock      io.ReadWriter // nc's reads and writes (rawsock.New)
	br        *bufio.Reader // reads through the conn itself (Read below)
	bw        *bufio.Writer
	limit     int64 // bytes the head may still take; -1: no limit (the body)
	got       int64 // bytes read since the request was written
	idleSince time.Time
	expire    func() // ends a wait on nc: what a request's context's end runs
	// prev holds the field values of the last head read, by position:
	// an answer's fields (Date, Content-Length, Content-Type, ...) are
	// mostly those of the answer before it, and a value equal to the one
	// at its position there is taken from it instead of allocated.
	prev [h1PrevFields]string
}

// h1PrevFields is how many field values of a head an h1Conn keeps for the
// next one.
const h1PrevFields = 8

// errHeadTooLarge fails an answer whose head is larger than h1MaxHeaderBytes.
var errHeadTooLarge = errors.New("fetch: the response head is larger than 1 MiB")

// Read reads from the network, within the head's limit while the head is
// being read.
func (c *h1Conn) Read(p []byte) (int, error) {
	if c.limit == 0 {
		return 0, errHeadTooLarge
	}
	if c.limit > 0 && int64(len(p)) > c.limit {
		p = p[:c.limit]
	}
	n, err := c.sock.Read(p)
	c.got += int64(n)
	if c.limit > 0 {
		c.limit -= int64(n)
	}
	return n, err
}

// aLongTimeAgo is a deadline in the past: it wakes a blocked read or write.
var aLongTimeAgo = time.Unix(1, 0)

// roundTrip writes the request and reads the answer's head. stale reports
// a failure before any byte of the answer arrived.
func (c *h1Conn) roundTrip(ctx context.Context, r *Request, t *h1Target) (_ *Response, stale bool, _ error) {
	// The call's end (the session's timeouts, the caller's cancellation)
	// expires the connection's deadline: the wait below returns.
	watch := callctx.AfterEnd(ctx, c.expire)
	fail := func(err error) (*Response, bool, error) {
		watch.Stop()
		c.nc.Close()
		return nil, c.got == 0, err
	}
	c.got = 0
	// The head is written straight into the connection's write buffer.
	c.bw.Write(appendRequestHead(c.bw.AvailableBuffer(), r, t))
	c.bw.Write(r.Body)
	if err := c.bw.Flush(); err != nil {
		return fail(err)
	}
	c.limit = h1MaxHeaderBytes
	var hd h1Head
	for i := 0; ; i++ {
		var err error
		if hd, err = c.readHead(); err != nil {
			return fail(err)
		}
		if hd.status >= 200 {
			break
		}
		// An interim answer (103 Early Hints, a stray 100 Continue): the
		// final one follows. No request asks to switch protocols.
		if hd.status == 101 || i == h1MaxInterim {
			return fail(errf.Errorf("fetch: unexpected %d response", hd.status))
		}
	}
	c.limit = -1
	return &Response{StatusCode: hd.status, Header: hd.header, Body: newH1Body(c, hd, watch)}, false, nil
}

// checkRequest refuses a method, header name or value that HTTP/1.1
// cannot carry as it is (a CR or LF in a value would end the header:
// header injection), before anything is sent.
func checkRequest(r *Request) error {
	if r.Method != "" && !wire.IsToken(r.Method) {
		return errf.Errorf("net/http: invalid method %q", r.Method)
	}
	for _, x := range r.more {
		if !wire.IsToken(x.Name) {
			return errf.Errorf("net/http: invalid header field name %q", x.Name)
		}
		if !validValue(x.Value) {
			return errf.Errorf("net/http: invalid header field value for %q", x.Name)
		}
	}
	if r.head != nil {
		return nil // checked when it was rendered
	}
	for k, vs := range r.Header {
		if !wire.IsToken(k) {
			return errf.Errorf("net/http: invalid header field name %q", k)
		}
		for _, v := range vs {
			if !validValue(v) {
				return errf.Errorf("net/http: invalid header field value for %q", k)
			}
		}
	}
	return nil
}

// appendRequestHead appends the request line and headers of r, which
// checkRequest passed, for t.
func appendRequestHead(dst []byte, r *Request, t *h1Target) []byte {
	method := r.Method
	if method == "" {
		method = "GET"
	}
	dst = append(dst, method...)
	dst = append(dst, ' ')
	dst = append(dst, t.path...)
	dst = append(dst, " HTTP/1.1\r\nHost: "...)
	dst = append(dst, t.host...)
	dst = append(dst, "\r\n"...)
	if r.head != nil {
		dst = append(dst, r.head...)
		for _, x := range r.more {
			dst = appendField(dst, x.Name, x.Value)
		}
	} else {
		dst, _ = appendHead(dst, r.Header)
	}
	if r.Body != nil || method == "POST" || method == "PUT" || method == "PATCH" {
		dst = append(dst, "Content-Length: "...)
		dst = strconv.AppendInt(dst, int64(len(r.Body)), 10)
		dst = append(dst, "\r\n"...)
	}
	return append(dst, "\r\n"...)
}

func (*h1Doer) takesHead() {}

// withMore returns r with Header holding more too, for a Doer that reads
// Header only.
func (r *Request) withMore() *Request {
	if r.head == nil {
		return r
	}
	out := *r
	out.Header = make(Header, len(r.Header)+len(r.more))
	for k, v := range r.Header {
		out.Header[k] = v
	}
	for _, x := range r.more {
		out.Header.Set(x.Name, x.Value)
	}
	out.head, out.more = nil, nil
	return &out
}

// renderHead is h as HTTP/1.1 field lines (appendHead), nil when it cannot
// be carried as it is: Request.head of the transport's POSTs.
func renderHead(h Header) []byte {
	b, ok := appendHead(nil, h)
	if !ok {
		return nil
	}
	return b
}

// appendHead appends h as HTTP/1.1 field lines, names capitalised as
// net/http writes them, with a User-Agent line when h has none, and
// without the fields the doer writes itself; false when a name or value
// cannot be carried as it is.
func appendHead(b []byte, h Header) ([]byte, bool) {
	agent := false
	for k, vs := range h {
		if !wire.IsToken(k) {
			return b, false
		}
		switch strings.ToLower(k) {
		case "host", "content-length", "transfer-encoding", "connection", "idempotency-key":
			continue // (Idempotency-Key is net/http's marker: http_native.go)
		case "user-agent":
			agent = true
		}
		for _, v := range vs {
			if !validValue(v) {
				return b, false
			}
			b = appendField(b, k, v)
		}
	}
	if !agent {
		b = append(b, "User-Agent: Go-http-client/1.1\r\n"...)
	}
	return b, true
}

// appendField appends the field line "Name: value\r\n".
func appendField(dst []byte, name, value string) []byte {
	dst = appendCanonical(dst, name)
	dst = append(dst, ": "...)
	dst = append(dst, value...)
	return append(dst, "\r\n"...)
}

// appendCanonical appends name with each word capitalised
// (mcp-session-id: Mcp-Session-Id), as net/http writes names; names are
// case-insensitive, but some servers are not.
func appendCanonical(dst []byte, name string) []byte {
	upper := true
	for i := 0; i < len(name); i++ {
		c := name[i]
		if upper && 'a' <= c && c <= 'z' {
			c -= 'a' - 'A'
		} else if !upper && 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		dst = append(dst, c)
		upper = c == '-'
	}
	return dst
}

// validValue reports whether v may be a header field value: no control
// byte but a tab (RFC 9110 5.5). It takes a value to write (a string) or
// one as read (bytes).
func validValue[T string | []byte](v T) bool {
	for i := 0; i < len(v); i++ {
		if c := v[i]; c < ' ' && c != '\t' || c == 0x7f {
			return false
		}
	}
	return true
}
