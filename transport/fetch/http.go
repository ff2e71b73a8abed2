package fetch

import (
	"context"
	"errors"
	"io"
	"slices"
	"strings"

	"github.com/mcpwasm/mcpwasm/core"
	"github.com/mcpwasm/mcpwasm/internal/errf"
	"github.com/mcpwasm/mcpwasm/internal/oneline"
)

// Doer performs HTTP requests. It is the only thing the transport needs
// from the platform: natively it is net/http, under GOOS=js the JavaScript
// fetch function (a page or script may pass its own). Implementations must
// be safe for concurrent use and must not modify the request (requests may
// share their Header: a Doer that adds a field clones it first, as
// http.RoundTripper implementations do). The response body must be
// streamed (not buffered whole): SSE responses stay open indefinitely.
type Doer interface {
	Do(ctx context.Context, req *Request) (*Response, error)
}

// Request is one HTTP request.
type Request struct {
	Method string
	URL    string
	Header Header
	Body   []byte
	// NoRedirect asks the Doer not to follow a redirect: a 3xx response is
	// returned as is, with its Location header (package auth reads the
	// authorization server's redirect this way, and follows the redirects
	// of credentialed requests itself). Under GOOS=js in browsers fetch can
	// only report an opaque redirect (status 0, no headers) for it.
	NoRedirect bool
	// MaxBody bounds a response body that the Doer reads whole before it
	// returns it (under GOOS=js the fetch helper buffers every body but an
	// event stream): the Doer stops reading after MaxBody+1 bytes and
	// delivers those, so the reader's own limit reports the body as too
	// large. 0 means DefaultMaxMessageSize. A Doer that streams bodies
	// ignores it; the reader bounds what it reads.
	MaxBody int

	// head and more, when head is set, are the transport's shortcut to the
	// native DefaultDoer (headTaker): head is Header rendered as HTTP/1.1
	// field lines, checked, made once per header set; more are fields to
	// add to it (Mcp-Method, Mcp-Name, Mcp-Param-*), none of them a name
	// Header has. Other Doers never see them set: they get one Header
	// with everything.
	head []byte
	more []core.Header
}

// headTaker is implemented by a Doer that reads Request.head and
// Request.more (the native DefaultDoer).
type headTaker interface{ takesHead() }

// Response is one HTTP response. Body must be closed.
type Response struct {
	StatusCode int
	Header     Header
	Body       io.ReadCloser
	// Hidden lists response headers the platform could not read (under
	// GOOS=js: headers the server did not expose with
	// Access-Control-Expose-Headers). Natively it is empty.
	Hidden func(name string) bool
}

// Header is a set of HTTP headers with lower-case names.
type Header map[string][]string

// Get returns the first value of name (case-insensitive).
func (h Header) Get(name string) string {
	if v := h[headerKey(name)]; len(v) > 0 {
		return v[0]
	}
	return ""
}

// Set replaces the values of name.
func (h Header) Set(name, value string) { h[headerKey(name)] = []string{value} }

// Add appends a value to name.
func (h Header) Add(name, value string) {
	k := headerKey(name)
	h[k] = append(h[k], value)
}

// headerKeys pairs the spellings of the names every request uses with
// their lower case.
var headerKeys = [...]string{
	"Content-Type", "content-type",
	"Accept", "accept",
	"MCP-Protocol-Version", "mcp-protocol-version",
	"Mcp-Protocol-Version", "mcp-protocol-version",
	"Mcp-Session-Id", "mcp-session-id",
	"Mcp-Method", "mcp-method",
	"Mcp-Name", "mcp-name",
	"Authorization", "authorization",
	"WWW-Authenticate", "www-authenticate",
	"Www-Authenticate", "www-authenticate",
	"Last-Event-ID", "last-event-id",
	"Last-Event-Id", "last-event-id",
}

// headerKey returns name in lower case, without allocating for the names
// every request uses.
func headerKey(name string) string {
	for i := 0; i < len(headerKeys); i += 2 {
		if headerKeys[i] == name {
			return headerKeys[i+1]
		}
	}
	return strings.ToLower(name)
}

// Clone returns a copy of h.
func (h Header) Clone() Header {
	out := make(Header, len(h))
	for k, v := range h {
		out[k] = append([]string(nil), v...)
	}
	return out
}

// StatusError is returned when the server answers with an HTTP error
// status that carries no JSON-RPC error. Match it with errors.As.
type StatusError struct {
	StatusCode int
	// Body holds the start of the response body (at most 4 KiB).
	Body   string
	Header Header
	Method string // the MCP method of the request, if any
}

func (e *StatusError) Error() string {
	msg := errf.Sprintf("fetch: HTTP %d", e.StatusCode)
	if e.Method != "" {
		msg += " for " + e.Method
	}
	if b := oneline.Cut(e.Body, 200); b != "" {
		msg += ": " + b
	}
	return msg
}

// Sentinel errors of the transport.
var (
	// ErrHiddenHeader means a response header the client needs was not
	// readable because the server did not expose it to browser scripts
	// (Access-Control-Expose-Headers).
	ErrHiddenHeader = errors.New("fetch: response header not exposed by the server (CORS)")
	// ErrStreamEnded means a response stream ended before it delivered the
	// response to its request and could not be resumed.
	ErrStreamEnded = errors.New("fetch: response stream ended before the response")
	// ErrNoEndpoint means an HTTP+SSE (2024-11-05) server did not send its
	// endpoint event.
	ErrNoEndpoint = errors.New("fetch: HTTP+SSE server sent no endpoint event")
	// ErrNetwork means the request did not reach the server or its answer
	// could not be read: under GOOS=js fetch's TypeError, which is also
	// how a browser reports a request refused by CORS.
	ErrNetwork = errors.New("fetch: network error")
	// ErrTooLarge means a response exceeded Options.MaxMessageSize.
	ErrTooLarge = errors.New("fetch: message too large")
	// ErrContentType means a server answered a request with a 2xx body that
	// is neither application/json nor text/event-stream and not JSON-RPC
	// either (a proxy's or login page's HTML, for example).
	ErrContentType = errors.New("fetch: unexpected Content-Type")
)

// readLimited reads at most limit bytes; more is ErrTooLarge. A body that
// knows its size (Size, -1 when it does not) is refused at once when that
// is over the limit, and otherwise read with readSized.
func readLimited(r io.Reader, limit int) ([]byte, error) {
	if s, ok := r.(interface{ Size() int64 }); ok {
		if n := s.Size(); n > int64(limit) {
			return nil, errf.Errorf("%w: more than %d bytes", ErrTooLarge, limit)
		} else if n >= 0 {
			return readSized(r, int(n))
		}
	}
	b, err := io.ReadAll(io.LimitReader(r, int64(limit)+1))
	if err != nil {
		return nil, err
	}
	if len(b) > limit {
		return nil, errf.Errorf("%w: more than %d bytes", ErrTooLarge, limit)
	}
	return b, nil
}

// sizedStep is the most readSized sets aside before any of a body came.
const sizedStep = 1 << 20

// readSized reads a body of announced size n into one buffer of that size
// when n is at most sizedStep (a result of up to 1 MiB: one allocation, no
// copy), else into one that grows fourfold as the bytes arrive: what a
// server that announces a large body costs follows what it sends (at most
// four times that), not what it announces.
func readSized(r io.Reader, n int) ([]byte, error) {
	b := make([]byte, 0, min(n, sizedStep))
	for len(b) < n {
		if len(b) == cap(b) {
			b = slices.Grow(b, min(n, 4*cap(b))-len(b))
		}
		m, err := r.Read(b[len(b):min(cap(b), n)])
		b = b[:len(b)+m]
		if err != nil {
			if err == io.EOF && len(b) == n {
				break
			}
			if err == io.EOF {
				err = io.ErrUnexpectedEOF
			}
			return nil, err
		}
	}
	return b, nil
}

// errorBodySize bounds what is read of a response body that is not a
// message (StatusError.Body).
const errorBodySize = 4096

// readErrorBody reads the start of resp's body, at most errorBodySize
// bytes, for a StatusError, and closes the body.
func readErrorBody(resp *Response) []byte {
	b, _ := io.ReadAll(io.LimitReader(resp.Body, errorBodySize))
	resp.Body.Close()
	return b
}

// mediaType returns the lower-cased media type of a Content-Type value,
// without parameters ("text/event-stream; charset=utf-8" →
// "text/event-stream"). The mime package would cost the WebAssembly build
// far more than this needs.
func mediaType(contentType string) string {
	if i := strings.IndexByte(contentType, ';'); i >= 0 {
		contentType = contentType[:i]
	}
	return strings.ToLower(strings.TrimSpace(contentType))
}
