//go:build !js && !wasip1

package fetch

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"net/http/httputil"
	"strings"
	"sync/atomic"

	"github.com/mcpwasm/mcpwasm/internal/callctx"
	"github.com/mcpwasm/mcpwasm/internal/errf"
	"github.com/mcpwasm/mcpwasm/internal/oneline"
	"github.com/mcpwasm/mcpwasm/internal/wire"
)

// h1Head is what the head of an answer says: its status, its header (with
// the lower-case names Header keeps) and how its body is framed.
type h1Head struct {
	status  int
	header  Header
	length  int64 // body bytes; -1: chunked or up to the connection's end
	chunked bool
	keep    bool // the connection can carry another request after the body
}

// errMalformed fails an answer that is not HTTP/1.x.
var errMalformed = errors.New("fetch: malformed HTTP response")

// readHead reads the head of one answer: the status line and the header
// fields up to the empty line. It reads the head on its own instead of
// with http.ReadResponse: the header comes out with lower-case names at
// once, the names every MCP answer carries are not allocated, and there is
// no http.Response, textproto.MIMEHeader or body wrapper per answer
// (docs/architecture.md, "Native plain HTTP").
func (c *h1Conn) readHead() (h1Head, error) {
	line, err := c.line()
	if err != nil {
		return h1Head{}, err
	}
	hd := h1Head{length: -1}
	minor, ok := 0, false
	if hd.status, minor, ok = parseStatusLine(line); !ok {
		return h1Head{}, errf.Errorf("%w: status line %q", errMalformed, oneline.Cut(string(line), 64))
	}
	hd.keep = minor >= 1
	hd.header = make(Header, 8)
	var vals []string // one backing array for the values of up to 8 fields
	conn, fields := "", 0
	for {
		if line, err = c.line(); err != nil {
			return h1Head{}, err
		}
		if len(line) == 0 {
			break
		}
		if line[0] == ' ' || line[0] == '\t' {
			// Obsolete line folding (RFC 9112 5.2): no MCP server folds.
			return h1Head{}, errf.Errorf("%w: a folded header line", errMalformed)
		}
		i := bytes.IndexByte(line, ':')
		if i <= 0 || !wire.IsToken(line[:i]) {
			return h1Head{}, errf.Errorf("%w: header line %q", errMalformed, oneline.Cut(string(line), 64))
		}
		name := lowerName(line[:i])
		raw := trimOWS(line[i+1:])
		if !validValue(raw) {
			return h1Head{}, errf.Errorf("%w: the value of %s", errMalformed, name)
		}
		var v string
		switch {
		case fields >= len(c.prev):
			v = string(raw)
		case c.prev[fields] == string(raw):
			v = c.prev[fields] // the value the last answer had here: no copy
		default:
			v = string(raw)
			c.prev[fields] = v
		}
		fields++
		switch name {
		case "content-length":
			n, ok := parseLength(v)
			if !ok || hd.length >= 0 && n != hd.length {
				return h1Head{}, errf.Errorf("%w: Content-Length %q", errMalformed, oneline.Cut(v, 64))
			}
			hd.length = n
		case "transfer-encoding":
			// No request of ours offers a transfer coding but chunked
			// (TE), as net/http's client does not.
			if !strings.EqualFold(v, "chunked") || hd.chunked {
				return h1Head{}, errf.Errorf("%w: Transfer-Encoding %q", errMalformed, oneline.Cut(v, 64))
			}
			hd.chunked = true
		case "connection":
			conn += "," + v
		}
		if len(vals) == cap(vals) {
			vals = make([]string, 0, 8)
		}
		vals = append(vals, v)
		if old, ok := hd.header[name]; ok {
			hd.header[name] = append(old, v)
		} else {
			hd.header[name] = vals[len(vals)-1 : len(vals) : len(vals)]
		}
	}
	switch {
	case hd.status < 200 || hd.status == 204 || hd.status == 304:
		hd.length, hd.chunked = 0, false
	case hd.chunked:
		// Transfer-Encoding overrides Content-Length; a server that sends
		// both may be smuggling: its connection is not used again.
		if _, both := hd.header["content-length"]; both {
			hd.keep = false
		}
		hd.length = -1
	case hd.length < 0:
		hd.keep = false // the body ends with the connection
	}
	if conn != "" {
		if hasToken(conn, "close") {
			hd.keep = false
		} else if minor == 0 && hasToken(conn, "keep-alive") && (hd.length >= 0 || hd.chunked) {
			hd.keep = true
		}
	}
	return hd, nil
}

// line reads one line of a head, without its CRLF (or bare LF). A line
// longer than the read buffer is gathered (the head's limit bounds it).
func (c *h1Conn) line() ([]byte, error) {
	l, err := c.br.ReadSlice('\n')
	if err == bufio.ErrBufferFull {
		long := append([]byte(nil), l...)
		for err == bufio.ErrBufferFull {
			l, err = c.br.ReadSlice('\n')
			long = append(long, l...)
		}
		l = long
	}
	if err != nil {
		if err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		return nil, err
	}
	l = l[:len(l)-1]
	if n := len(l); n > 0 && l[n-1] == '\r' {
		l = l[:n-1]
	}
	return l, nil
}

// parseStatusLine parses "HTTP/1.x SSS[ reason]".
func parseStatusLine(l []byte) (status, minor int, ok bool) {
	if len(l) < 12 || string(l[:7]) != "HTTP/1." || l[7] < '0' || l[7] > '9' || l[8] != ' ' || len(l) > 12 && l[12] != ' ' {
		return 0, 0, false
	}
	for _, d := range l[9:12] {
		if d < '0' || d > '9' {
			return 0, 0, false
		}
		status = status*10 + int(d-'0')
	}
	return status, int(l[7] - '0'), status >= 100
}

// parseLength parses a Content-Length value: digits only, at most 18 of
// them.
func parseLength(v string) (int64, bool) {
	if v == "" || len(v) > 18 {
		return 0, false
	}
	var n int64
	for i := 0; i < len(v); i++ {
		if v[i] < '0' || v[i] > '9' {
			return 0, false
		}
		n = n*10 + int64(v[i]-'0')
	}
	return n, true
}

// hasToken reports whether the comma-separated list holds token (in any
// case).
func hasToken(list, token string) bool {
	for list != "" {
		var item string
		item, list, _ = strings.Cut(list, ",")
		if strings.EqualFold(strings.TrimSpace(item), token) {
			return true
		}
	}
	return false
}

// trimOWS trims the spaces and tabs around a field value.
func trimOWS(b []byte) []byte {
	for len(b) > 0 && (b[0] == ' ' || b[0] == '\t') {
		b = b[1:]
	}
	for len(b) > 0 && (b[len(b)-1] == ' ' || b[len(b)-1] == '\t') {
		b = b[:len(b)-1]
	}
	return b
}

// responseNames are the field names MCP answers carry, in lower case:
// lowerName returns these without allocating.
var responseNames = [...]string{
	"content-type", "content-length", "date", "cache-control", "connection",
	"keep-alive", "transfer-encoding", "mcp-session-id", "mcp-protocol-version",
	"server", "vary", "x-accel-buffering", "www-authenticate", "location",
	"content-encoding", "x-powered-by", "access-control-allow-origin",
	"access-control-expose-headers", "etag", "set-cookie",
}

// namesByLen is responseNames by length.
var namesByLen = func() (t [32][]string) {
	for _, k := range responseNames {
		t[len(k)] = append(t[len(k)], k)
	}
	return t
}()

// lowerName returns a field name in lower case.
func lowerName(b []byte) string {
	if len(b) < len(namesByLen) {
		for _, k := range namesByLen[len(b)] {
			if equalFoldLower(b, k) {
				return k
			}
		}
	}
	return strings.ToLower(string(b))
}

// equalFoldLower reports whether b equals the lower-case ASCII lower in
// any case.
func equalFoldLower(b []byte, lower string) bool {
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != lower[i] {
			return false
		}
	}
	return true
}

// h1Body is an answer's body; at its end the connection goes back to the
// doer's idle set, if it can be used again. Read is not safe for
// concurrent use (a body has one reader); Close may be called at any time.
type h1Body struct {
	c       *h1Conn
	watch   callctx.Watch // of the request's context (h1Conn.roundTrip)
	n       int64         // bytes left of a body of known length; -1: chunked or to the end
	chunked io.Reader     // the decoder of a chunked body
	keep    bool          // the server keeps the connection open
	err     error         // the body's end (sticky): the connection may serve another request now

	done atomic.Bool // finish ran
}

func newH1Body(c *h1Conn, hd h1Head, watch callctx.Watch) *h1Body {
	b := &h1Body{c: c, watch: watch, n: hd.length, keep: hd.keep}
	switch {
	case hd.chunked:
		b.chunked = httputil.NewChunkedReader(c.br)
	case hd.length == 0:
		b.err = io.EOF
		b.finish(true)
	}
	return b
}

// Size is the number of body bytes left to read, or -1 when the head did
// not announce it (readLimited reads a body of known size into one buffer).
func (b *h1Body) Size() int64 {
	if b.err != nil || b.chunked != nil {
		return -1
	}
	return b.n
}

func (b *h1Body) Read(p []byte) (int, error) {
	if b.err != nil {
		return 0, b.err
	}
	var n int
	var err error
	switch {
	case b.chunked != nil:
		n, err = b.chunked.Read(p)
		if err == io.EOF {
			err = b.c.skipTrailer()
		}
	case b.n > 0:
		if int64(len(p)) > b.n {
			p = p[:b.n]
		}
		n, err = b.c.br.Read(p)
		b.n -= int64(n)
		switch {
		case err == io.EOF:
			err = io.ErrUnexpectedEOF
		case err == nil && b.n == 0:
			err = io.EOF
		}
	default:
		n, err = b.c.br.Read(p)
	}
	if err != nil {
		b.err = err
		b.finish(err == io.EOF && b.n <= 0)
	}
	return n, err
}

// skipTrailer reads the trailer section after the last chunk, within the
// head's limit: io.EOF when it ended well.
func (c *h1Conn) skipTrailer() error {
	c.limit = h1MaxHeaderBytes
	defer func() { c.limit = -1 }()
	for {
		l, err := c.line()
		if err != nil {
			return err
		}
		if len(l) == 0 {
			return io.EOF
		}
	}
}

func (b *h1Body) Close() error {
	b.finish(false)
	return nil
}

// finish ends the exchange: the connection is kept only when the body was
// read to its end, nothing follows it, and the request's ctx did not end
// (its AfterFunc may have set a deadline already).
func (b *h1Body) finish(atEnd bool) {
	if !b.done.CompareAndSwap(false, true) {
		return
	}
	if b.watch.Stop() && atEnd && b.keep && b.c.br.Buffered() == 0 {
		b.c.d.put(b.c)
		return
	}
	b.c.nc.Close()
}
