package fetch

import (
	"context"
	"errors"
	"io"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mcpwasm/mcpwasm/core"
	"github.com/mcpwasm/mcpwasm/internal/errf"
	"github.com/mcpwasm/mcpwasm/internal/inbox"
	"github.com/mcpwasm/mcpwasm/internal/sse"
	"github.com/mcpwasm/mcpwasm/internal/timerq"
	"github.com/mcpwasm/mcpwasm/internal/wire"
	"github.com/mcpwasm/mcpwasm/jsonrpc"
)

// conn is one Streamable HTTP (or, after fallback, HTTP+SSE) connection.
type conn struct {
	t      *Transport
	ctx    context.Context // ends with Close
	cancel context.CancelFunc
	in     chan jsonrpc.Message
	direct atomic.Pointer[func(jsonrpc.Message)] // the session's deliver (core.DirectConn)
	wg     sync.WaitGroup

	mu          sync.Mutex
	sessionID   string
	maybeHidden bool   // the session id header may have been hidden by CORS
	version     string // legacy protocol version, for GET and DELETE
	// streams ends each request in flight (SendOptions.Abort, or a
	// context of postRequest's own).
	streams      map[int64]context.CancelCauseFunc
	getStarted   bool
	getAgain     bool // startGET was called while the GET stream ran
	closed       bool
	ended        bool  // end ran: a stream registered later is cancelled at once
	fatal        error // the connection failed as a whole
	legacySSE    *legacySSE
	legacyFailed error
	hiddenIDs    map[int64]struct{} // legacy requests sent without a possibly hidden session id
	post         struct {           // postBase's cache: never modified, only replaced
		h            Header
		head         []byte // h rendered (for a headTaker); nil when it cannot be
		version, sid string
	}
	getGaveUp   atomic.Bool        // the GET stream gave up: the next accepted request re-opens it
	sseOpen     sync.Mutex         // serializes opening the HTTP+SSE stream
	sseInFlight map[int64]struct{} // HTTP+SSE requests whose response is due on the stream
	sseReinit   bool               // the HTTP+SSE stream was re-opened: the server's session is new
	warn        func(error)        // the session's OnWarning (core.Warner)
	streamErr   error              // why the GET stream was given up
	grace       *timerq.Queue      // the answeredGrace of request streams (one timer, not one per request)
}

func (c *conn) MirrorsHeaders() bool { return true }

// SetDeliver implements core.DirectConn.
func (c *conn) SetDeliver(deliver func(jsonrpc.Message)) { c.direct.Store(&deliver) }

// SessionID returns the legacy session id ("" if none).
func (c *conn) SessionID() string {
	c.mu.Lock()
	sid := c.sessionID
	c.mu.Unlock()
	return sid
}

func (c *conn) Recv(ctx context.Context) (jsonrpc.Message, error) {
	return inbox.Recv(ctx, c.in, c.ctx.Done(), func() error {
		c.mu.Lock()
		err := c.fatal
		c.mu.Unlock()
		return err
	})
}

// push delivers an incoming message; it gives up when the connection ends.
// An error answering a legacy request that had to go without the session
// id (which CORS may have hidden) is explained as such.
func (c *conn) push(m jsonrpc.Message) {
	if r, ok := m.(*jsonrpc.Response); ok && r.ID.IsValid() {
		if id, ok := r.ID.Raw().(int64); ok {
			c.mu.Lock()
			_, hidden := c.hiddenIDs[id]
			delete(c.hiddenIDs, id)
			delete(c.sseInFlight, id)
			c.mu.Unlock()
			if hidden && r.Error != nil {
				m = &jsonrpc.Response{ID: r.ID, TransportErr: errf.Errorf("%w: Mcp-Session-Id (the server must list it in Access-Control-Expose-Headers; without it the server answered: %w)",
					ErrHiddenHeader, &core.RPCError{Code: r.Error.Code, Message: r.Error.Message, Data: r.Error.Data})}
			}
		}
	}
	if d := c.direct.Load(); d != nil {
		(*d)(m)
		return
	}
	select {
	case c.in <- m:
	case <-c.ctx.Done():
	}
}

// fail ends the connection with err (for example the HTTP+SSE stream died).
func (c *conn) fail(err error) {
	c.mu.Lock()
	if c.fatal == nil && !c.closed {
		c.fatal = err
	}
	c.mu.Unlock()
	c.end()
}

// end cancels c's context and the request streams in flight, whose
// contexts derive from their callers' (postRequest), not from c's.
func (c *conn) end() {
	c.mu.Lock()
	c.ended = true
	streams := c.streams
	c.streams = map[int64]context.CancelCauseFunc{}
	c.mu.Unlock()
	c.cancel()
	for _, abort := range streams {
		abort(core.ErrClosed)
	}
}

func (c *conn) Close() error {
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return nil
	}
	c.closed = true
	sid, version := c.sessionID, c.version
	c.mu.Unlock()
	if sid != "" {
		// Terminate the legacy session; servers may answer 405.
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		if resp, err := c.do(ctx, "DELETE", c.t.endpoint, nil, hVersion, version, hSession, sid); err == nil {
			readErrorBody(resp)
		}
		cancel()
	}
	c.end()
	c.wg.Wait()
	c.grace.Close()
	if c.t.opts.HTTP == nil {
		// The DefaultDoer is the transport's own: its kept-alive
		// connections end with the session (as net/http's would after
		// their idle timeout).
		if d, ok := c.t.doer.(interface{ CloseIdleConnections() }); ok {
			d.CloseIdleConnections()
		}
	}
	return nil
}

// Header names (lower case, as Header keeps them) and values the
// transport sets.
const (
	hVersion     = "mcp-protocol-version"
	hSession     = "mcp-session-id"
	hAccept      = "accept"
	hContentType = "content-type"
	mimeJSON     = "application/json"
	mimeSSE      = "text/event-stream"
)

// header returns the headers of a request: Options.Header, then the
// name/value pairs kv whose value is not "".
func (c *conn) header(kv ...string) Header {
	h := make(Header, 8)
	for k, v := range c.t.opts.Header {
		h.Set(k, v)
	}
	for i := 0; i+1 < len(kv); i += 2 {
		if kv[i+1] != "" {
			h[kv[i]] = []string{kv[i+1]}
		}
	}
	return h
}

// do sends a request with the headers of header(kv...).
func (c *conn) do(ctx context.Context, method, url string, body []byte, kv ...string) (*Response, error) {
	return c.t.doer.Do(ctx, &Request{Method: method, URL: url, Header: c.header(kv...), Body: body, MaxBody: c.t.opts.MaxMessageSize})
}

// postRequestFor returns a POST of body with the headers of opts, and the
// session id it carries.
func (c *conn) postRequestFor(body []byte, opts *core.SendOptions) (*Request, string) {
	modern := core.IsModernVersion(opts.ProtocolVersion)
	sid := ""
	if !modern {
		c.mu.Lock()
		sid = c.sessionID
		c.mu.Unlock()
	}
	base, head := c.postBase(opts.ProtocolVersion, sid)
	r := &Request{Method: "POST", URL: c.t.endpoint, Header: base, Body: body, MaxBody: c.t.opts.MaxMessageSize}
	if head != nil && c.t.takesHead {
		// The native doer writes the rendered head and the mirrored
		// fields: no header map per request.
		r.head, r.more = head, opts.Headers
		for _, x := range opts.Headers {
			if _, dup := base[headerKey(x.Name)]; dup {
				r.head, r.more = nil, nil // replaces a field of the base: merge below
				break
			}
		}
		if r.head != nil {
			return r, sid
		}
	}
	if len(opts.Headers) > 0 {
		r.Header = make(Header, len(base)+len(opts.Headers))
		for k, v := range base {
			r.Header[k] = v // values are never modified in place, only replaced
		}
		for _, x := range opts.Headers {
			r.Header.Set(x.Name, x.Value)
		}
	}
	return r, sid
}

// postBase returns the headers every POST with this version and session id
// carries, and their HTTP/1.1 rendering, built once per version and
// session. A Doer must not modify a request's Header (fetch.Doer).
func (c *conn) postBase(version, sid string) (Header, []byte) {
	c.mu.Lock()
	if c.post.h == nil || c.post.version != version || c.post.sid != sid {
		c.post.h = c.header(hVersion, version, hSession, sid, hContentType, mimeJSON, hAccept, "application/json, text/event-stream")
		c.post.head = nil
		if c.t.takesHead {
			c.post.head = renderHead(c.post.h)
		}
		c.post.version, c.post.sid = version, sid
	}
	h, head := c.post.h, c.post.head
	c.mu.Unlock()
	return h, head
}

func (c *conn) Send(ctx context.Context, msg jsonrpc.Message, opts *core.SendOptions) error {
	if opts == nil {
		opts = &core.SendOptions{}
	}
	c.mu.Lock()
	closed := c.closed
	c.mu.Unlock()
	if closed {
		return core.ErrClosed
	}
	if l := c.sse(); l != nil || c.t.sseMode() {
		return c.sendLegacySSE(ctx, msg, opts)
	}
	switch m := msg.(type) {
	case *jsonrpc.Request:
		if !m.IsNotification() {
			return c.postRequest(ctx, m, opts)
		}
		if id, ok := wire.CancelledRequestID(m); ok {
			c.abortStream(id)
		}
		if m.Method == core.NotificationCancelled {
			if core.IsModernVersion(opts.ProtocolVersion) {
				// Closing the stream is the cancellation (2026-07-28).
				return nil
			}
		}
		if err := c.postNoReply(ctx, msg, m.Method, opts); err != nil {
			return err
		}
		if m.Method == core.NotificationInitialized {
			c.awaitGET(ctx, opts.ProtocolVersion)
		}
		return nil
	case *jsonrpc.Response:
		return c.postNoReply(ctx, msg, "", opts)
	}
	return errors.New("fetch: cannot send a message that is neither a *Request nor a *Response")
}

// awaitGET opens the GET stream and waits (briefly) until it is
// established, so that server messages sent after initialization have a
// stream.
func (c *conn) awaitGET(ctx context.Context, version string) {
	ready := c.startGET(version)
	t := time.NewTimer(2 * time.Second)
	select {
	case <-ready:
	case <-t.C:
	case <-ctx.Done():
	}
	t.Stop()
}

// abortStream closes the response stream of cancelled request id.
func (c *conn) abortStream(id int64) {
	c.mu.Lock()
	abort := c.streams[id]
	delete(c.streams, id)
	c.mu.Unlock()
	if abort != nil {
		abort(context.Canceled)
	}
}

// addStream registers request id's stream, or cancels it at once when
// the connection has ended.
func (c *conn) addStream(id int64, abort context.CancelCauseFunc) {
	c.mu.Lock()
	if c.ended {
		c.mu.Unlock()
		abort(core.ErrClosed)
		return
	}
	c.streams[id] = abort
	c.mu.Unlock()
}

func (c *conn) dropStream(id int64) {
	c.mu.Lock()
	delete(c.streams, id)
	c.mu.Unlock()
}

// postNoReply POSTs a notification or response; the server answers 202.
func (c *conn) postNoReply(ctx context.Context, msg jsonrpc.Message, method string, opts *core.SendOptions) error {
	body, err := jsonrpc.EncodeMessage(msg)
	if err != nil {
		return err
	}
	req, sid := c.postRequestFor(body, opts)
	resp, err := c.t.doer.Do(ctx, req)
	if err != nil {
		return errf.Errorf("fetch: POST: %w", err)
	}
	b := readErrorBody(resp)
	if resp.StatusCode >= 200 && resp.StatusCode < 300 {
		return nil
	}
	se := &StatusError{StatusCode: resp.StatusCode, Body: string(b), Header: resp.Header, Method: method}
	if err := c.hiddenSessionError(core.IsModernVersion(opts.ProtocolVersion), sid, se); err != nil {
		return err
	}
	return se
}

// hiddenSessionError explains a legacy request refused with 400 or 404 for
// want of the session id when CORS may have hidden Mcp-Session-Id from the
// initialize response; nil otherwise.
func (c *conn) hiddenSessionError(modern bool, sid string, se *StatusError) error {
	if modern || sid != "" || (se.StatusCode != 400 && se.StatusCode != 404) {
		return nil
	}
	c.mu.Lock()
	hidden := c.maybeHidden
	c.mu.Unlock()
	if !hidden {
		return nil
	}
	return errf.Errorf("%w: Mcp-Session-Id (the server must list it in Access-Control-Expose-Headers): %w", ErrHiddenHeader, se)
}

// postRequest POSTs a request. The response (JSON or an SSE stream) is
// read on a goroutine and delivered through Recv.
func (c *conn) postRequest(ctx context.Context, m *jsonrpc.Request, opts *core.SendOptions) error {
	id, _ := m.ID.Raw().(int64)
	body, err := jsonrpc.EncodeMessage(m)
	if err != nil {
		return err
	}
	req, sid := c.postRequestFor(body, opts)
	modern := core.IsModernVersion(opts.ProtocolVersion)

	// The request's context: Send's ctx aborts the request, and the
	// reading of its response stream (the session sends a request on the
	// caller's goroutine and cancels that ctx when the call fails: timeout,
	// cancellation); the connection's end aborts it through c.streams
	// (end), and a modern cancellation through abortStream. The session
	// gives the function that ends ctx in opts.Abort: ctx is used as it is
	// (a context derived per request costs a context, its children's map
	// and its done channel); without it the request gets its own.
	rctx, abort, own := ctx, opts.Abort, opts.Abort == nil
	if own {
		rctx, abort = context.WithCancelCause(ctx)
	}
	c.addStream(id, abort)
	resp, err := c.t.doer.Do(rctx, req)
	if err == nil && ctx.Err() != nil {
		err = ctx.Err()
		resp.Body.Close()
	}
	if err != nil {
		c.endStream(id, abort, own)
		return c.postFailed(ctx, m.Method, modern, err)
	}
	if !modern || m.Method == core.MethodInitialize {
		c.noteLegacy(m.Method, resp, modern, opts.ProtocolVersion, sid, id)
	}
	if resp.StatusCode < 200 || resp.StatusCode >= 300 {
		b := readErrorBody(resp)
		c.endStream(id, abort, own)
		return c.postStatus(ctx, m, opts, resp, b, sid, modern)
	}
	if !modern && c.getGaveUp.Load() {
		c.reviveGET(opts.ProtocolVersion)
	}
	if resp.StatusCode == 202 || resp.StatusCode == 204 {
		// The answer will come on another stream (legacy servers).
		resp.Body.Close()
		c.endStream(id, abort, own)
		return nil
	}
	// The response is read right here: the session runs Send on a
	// goroutine of its own, so this saves one per request.
	ct := mediaType(resp.Header.Get("Content-Type"))
	c.wg.Add(1)
	if ct == "text/event-stream" {
		c.readPostStream(rctx, abort, resp, id, modern, opts.ProtocolVersion)
	} else {
		c.readJSON(rctx, resp, id, ct)
		resp.Body.Close() // (readPostStream closes its own)
	}
	c.endStream(id, abort, own)
	c.wg.Done()
	return nil
}

// endStream forgets request id's response stream, and cancels its
// context when it is postRequest's own (the session's ends with the call).
func (c *conn) endStream(id int64, abort context.CancelCauseFunc, own bool) {
	c.dropStream(id)
	if own {
		abort(nil)
	}
}

// postFailed is the error of a POST whose request failed (err).
func (c *conn) postFailed(ctx context.Context, method string, modern bool, err error) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if c.ctx.Err() != nil {
		return core.ErrClosed
	}
	if modern && method == core.MethodDiscover && errors.Is(err, ErrNetwork) {
		// In a browser a legacy server's CORS policy may refuse the
		// modern probe's headers (Mcp-Method, ...) outright: try the
		// legacy handshake before giving up.
		return errf.Errorf("%w: POST %s: %w", core.ErrNotModern, method, err)
	}
	return errf.Errorf("fetch: POST %s: %w", method, err)
}

// noteLegacy records what a legacy POST's answer tells about the session:
// the session id an initialize response assigns (or CORS hid), the
// protocol version for GET and DELETE, and requests sent without a
// possibly hidden session id.
func (c *conn) noteLegacy(method string, resp *Response, modern bool, version, sid string, id int64) {
	c.mu.Lock()
	if method == core.MethodInitialize && resp.StatusCode < 300 {
		c.sessionID = resp.Header.Get("Mcp-Session-Id")
		c.maybeHidden = c.sessionID == "" && resp.Hidden != nil && resp.Hidden("mcp-session-id")
	}
	if !modern && version != "" {
		c.version = version
		if sid == "" && c.maybeHidden {
			if c.hiddenIDs == nil {
				c.hiddenIDs = map[int64]struct{}{}
			}
			c.hiddenIDs[id] = struct{}{}
		}
	}
	c.mu.Unlock()
}

// postStatus handles a POSTed request's answer with a status other than
// 2xx; b is the start of its body.
func (c *conn) postStatus(ctx context.Context, m *jsonrpc.Request, opts *core.SendOptions, resp *Response, b []byte, sid string, modern bool) error {
	se := &StatusError{StatusCode: resp.StatusCode, Body: string(b), Header: resp.Header, Method: m.Method}
	if !modern && sid != "" && sessionGone(resp.StatusCode, b) {
		return c.expired(sid, se)
	}
	if r := jsonrpcError(b); r != nil {
		// A JSON-RPC error for this request (or a modern protocol error,
		// which servers may send without an id) is a normal response.
		if r.ID == m.ID || core.IsModernError(r.Error.Code) {
			r.ID = m.ID
			c.push(r)
			return nil
		}
	}
	switch {
	case modern && resp.StatusCode >= 400 && resp.StatusCode < 500 && resp.StatusCode != 401 && resp.StatusCode != 403:
		return errf.Errorf("%w: %w", core.ErrNotModern, se)
	case !modern && m.Method == core.MethodInitialize && c.t.opts.Mode == ModeAuto &&
		(resp.StatusCode == 400 || resp.StatusCode == 404 || resp.StatusCode == 405):
		return c.fallbackToSSE(ctx, m, opts, se)
	default:
		if err := c.hiddenSessionError(modern, sid, se); err != nil {
			return err
		}
	}
	return se
}

// jsonrpcError decodes a JSON-RPC error response from an HTTP error body.
func jsonrpcError(b []byte) *jsonrpc.Response {
	if len(b) == 0 || !strings.Contains(string(b), `"error"`) {
		return nil
	}
	m, err := jsonrpc.DecodeMessage(b)
	if err != nil {
		return nil
	}
	r, ok := m.(*jsonrpc.Response)
	if !ok || r.Error == nil {
		return nil
	}
	return r
}

// readJSON delivers an application/json response. (postRequest closes
// the body and ends the request's stream.)
func (c *conn) readJSON(ctx context.Context, resp *Response, id int64, ct string) {
	var b []byte
	whole := false
	if w, ok := resp.Body.(interface{ Whole() ([]byte, bool) }); ok {
		// The platform may already hold the whole body (GOOS=js fast path).
		b, whole = w.Whole()
	}
	var err error
	switch {
	case !whole:
		b, err = readLimited(resp.Body, c.t.opts.MaxMessageSize)
	case len(b) > c.t.opts.MaxMessageSize:
		err = errf.Errorf("%w: more than %d bytes", ErrTooLarge, c.t.opts.MaxMessageSize)
	}
	if err != nil {
		if ctx.Err() == nil {
			c.push(&jsonrpc.Response{ID: jsonrpc.Int64ID(id), TransportErr: errf.Errorf("fetch: reading response: %w", err)})
		}
		return
	}
	var one [1]jsonrpc.Message // room for the message of a body that is not a batch
	msgs, err := jsonrpc.AppendMessages(one[:0], b)
	if err != nil {
		c.push(&jsonrpc.Response{ID: jsonrpc.Int64ID(id), TransportErr: badBodyError(ct, b, err)})
		return
	}
	answered := false
	for _, m := range msgs {
		if r, ok := m.(*jsonrpc.Response); ok && r.ID == jsonrpc.Int64ID(id) {
			answered = true
		}
		c.push(m)
	}
	if !answered {
		c.push(&jsonrpc.Response{ID: jsonrpc.Int64ID(id), TransportErr: errf.Errorf("%w: the JSON body held no response to request %d", ErrStreamEnded, id)})
	}
}

// streamResult summarises one SSE stream.
type streamResult struct {
	answered bool
	lastID   string
	retry    time.Duration
	events   int
	msgs     int // JSON-RPC messages delivered
	bad      int
	err      error
}

// answeredGrace is how long a request's stream may stay open after its
// response: servers close it then, and the session's call waits for the
// stream's end (see core.Session's inline round trip).
const answeredGrace = time.Second

// sseBufSize is the size of the read buffers of request streams (their
// readers grow their own beyond it).
const sseBufSize = 4 << 10

// errAnsweredStream ends a request's stream left open answeredGrace after
// its response.
var errAnsweredStream = errors.New("fetch: the response stream stayed open after its response")

// consume reads SSE events, delivering messages, into res (zero); it
// notes whether the response to request id (if id > 0) arrived. A stream
// that stays open longer than answeredGrace after that response is ended
// with stop.
func (c *conn) consume(body io.Reader, id int64, stop func(), res *streamResult) {
	// The read buffer comes from the transport's spares: nothing the
	// reader returns refers to it (sse.ReaderOptions.Buf).
	buf := c.t.sseBuf()
	defer c.t.putSSEBuf(buf)
	r := sse.NewReader(body, &sse.ReaderOptions{MaxEventSize: c.t.opts.MaxMessageSize, Buf: buf})
	var grace *timerq.Timer
	for {
		ev, err := r.Next()
		if err != nil {
			if !errors.Is(err, io.EOF) {
				res.err = err
			}
			break
		}
		res.events++
		if len(ev.Data) == 0 || (ev.Type != "" && ev.Type != "message") {
			continue // priming event, keep-alive or unknown type
		}
		var one [1]jsonrpc.Message // room for the event's message
		msgs, err := jsonrpc.AppendMessages(one[:0], ev.Data)
		if err != nil {
			res.bad++
			continue
		}
		res.msgs += len(msgs)
		for _, m := range msgs {
			if resp, ok := m.(*jsonrpc.Response); ok && id > 0 && resp.ID == jsonrpc.Int64ID(id) {
				if !res.answered && stop != nil {
					grace = c.grace.Add(stop)
				}
				res.answered = true
			}
			c.push(m)
		}
	}
	res.lastID = r.LastEventID()
	if d, ok := r.Retry(); ok {
		res.retry = d
	}
	if grace != nil {
		grace.Stop()
	}
}

// readPostStream reads the SSE response of a POSTed request. A legacy
// stream that ends early is resumed with GET and Last-Event-ID after the
// server's retry delay; a modern one fails the request. (postRequest
// ends the request's stream.)
func (c *conn) readPostStream(ctx context.Context, abort context.CancelCauseFunc, resp *Response, id int64, modern bool, version string) {
	var res streamResult
	c.consume(resp.Body, id, func() { abort(errAnsweredStream) }, &res)
	resp.Body.Close()
	if res.answered || ctx.Err() != nil {
		return
	}
	if !modern && res.lastID != "" {
		if c.resume(ctx, id, version, &res) {
			return
		}
		if ctx.Err() != nil {
			return
		}
	}
	detail := ""
	if res.err != nil {
		detail = ": " + res.err.Error()
	}
	if res.bad > 0 {
		detail += errf.Sprintf(" (%d malformed events)", res.bad)
	}
	err := errf.Errorf("%w%s", ErrStreamEnded, detail)
	if modern {
		err = errf.Errorf("%w: %w", err, core.ErrResponseLost)
	}
	c.push(&jsonrpc.Response{ID: jsonrpc.Int64ID(id), TransportErr: err})
}

// resume re-opens a legacy stream with GET + Last-Event-ID until the
// response arrives; it reports whether it did.
func (c *conn) resume(ctx context.Context, id int64, version string, last *streamResult) bool {
	st := c.newReconnect(last.lastID, last.retry)
	for st.failures < c.t.opts.MaxReconnects {
		if !sleep(ctx, st.delay()) {
			return false
		}
		resp, err := c.get(ctx, version, st.lastID)
		if err != nil || resp.StatusCode != 200 {
			if resp != nil {
				resp.Body.Close()
				if resp.StatusCode == 405 || resp.StatusCode == 404 {
					return false
				}
			}
			st.failures++
			continue
		}
		var res streamResult
		c.consume(resp.Body, id, nil, &res)
		resp.Body.Close()
		if res.answered {
			return true
		}
		st.after(&res)
	}
	return false
}

func sleep(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	ok := true
	select {
	case <-t.C:
	case <-ctx.Done():
		ok = false
	}
	t.Stop()
	return ok
}

// get opens a GET SSE stream of a legacy session.
func (c *conn) get(ctx context.Context, version, lastID string) (*Response, error) {
	c.mu.Lock()
	sid := c.sessionID
	c.mu.Unlock()
	return c.do(ctx, "GET", c.t.endpoint, nil, hVersion, version, hSession, sid, hAccept, mimeSSE, "last-event-id", lastID)
}

// startGET opens the standalone GET stream of a legacy session, over which
// the server sends requests and notifications outside any request.
// The returned channel is closed once the first attempt has its answer.
func (c *conn) startGET(version string) <-chan struct{} {
	ready := make(chan struct{})
	c.mu.Lock()
	if c.getStarted || c.closed {
		// A stream still running may be on its way out, refused for the
		// session this start replaces: it goes on with the new one.
		c.getAgain = c.getStarted
		c.mu.Unlock()
		close(ready)
		return ready
	}
	c.getStarted = true
	c.mu.Unlock()
	c.wg.Add(1)
	go c.runGET(version, ready)
	return ready
}

func (c *conn) runGET(version string, ready chan struct{}) {
	for c.getOnce(version, ready) {
		ready = nil
	}
	c.wg.Done()
}

// getOnce keeps the GET stream open until the server refuses it or the
// retries give up; it reports whether to start again (startGET asked for
// a stream meanwhile, for a new session).
func (c *conn) getOnce(version string, ready chan struct{}) bool {
	ctx := c.ctx
	st := c.newReconnect("", 0)
	var last error
	for ctx.Err() == nil && st.failures < c.t.opts.MaxReconnects {
		resp, err := c.get(ctx, version, st.lastID)
		if ready != nil {
			close(ready) // the first attempt has its answer
			ready = nil
		}
		if err == nil {
			if resp.StatusCode == 200 && mediaType(resp.Header.Get("Content-Type")) == mimeSSE {
				c.setStreamErr(nil)
				var res streamResult
				c.consume(resp.Body, 0, nil, &res)
				resp.Body.Close()
				st.after(&res)
				err = res.err
			} else {
				resp.Body.Close()
				if resp.StatusCode == 405 || resp.StatusCode == 404 || resp.StatusCode == 400 {
					break // the server offers no GET stream
				}
				err = &StatusError{StatusCode: resp.StatusCode, Method: "GET"}
				st.failures++
			}
		} else {
			st.failures++
		}
		last = err
		if !sleep(ctx, st.delay()) {
			break
		}
		if ctx.Err() == nil && st.failures >= c.t.opts.MaxReconnects {
			c.gaveUp(st.failures, last)
		}
	}
	if ready != nil {
		close(ready)
	}
	c.mu.Lock()
	again := c.getAgain && ctx.Err() == nil
	c.getAgain = false
	c.getStarted = again // else the next notifications/initialized (after a re-initialization) may open a new one
	c.mu.Unlock()
	return again
}
