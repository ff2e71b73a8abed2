package ws

import (
	"context"
	"errors"
	"runtime"
	"time"

	"github.com/mcpwasm/mcpwasm/core"
	"github.com/mcpwasm/mcpwasm/internal/errf"
	"github.com/mcpwasm/mcpwasm/internal/urlx"
	"github.com/mcpwasm/mcpwasm/internal/wire"
)

// Subprotocol is the WebSocket subprotocol the transport offers and
// requires.
const Subprotocol = "mcp"

// DefaultMaxMessageSize is the default of Options.MaxMessageSize.
const DefaultMaxMessageSize = 32 << 20

// Sentinel errors of the transport.
var (
	// ErrNoWebSocket means there is no WebSocket to dial: the JavaScript
	// runtime has no WebSocket class (Node 20 has none, Node 22 and
	// browsers have one), or a GOOS=js program passed no Options.Dialer.
	ErrNoWebSocket = errors.New("ws: this runtime has no WebSocket")
	// ErrSubprotocol means the server accepted the WebSocket but did not
	// select the "mcp" subprotocol.
	ErrSubprotocol = errors.New(`ws: the server did not select the "mcp" subprotocol`)
	// ErrMalformed means the server sent a frame that is not a JSON-RPC
	// message (a binary frame, invalid JSON, or JSON that is not JSON-RPC).
	ErrMalformed = errors.New("ws: malformed message from the server")
	// ErrTooLarge means the server sent a message larger than
	// Options.MaxMessageSize; the socket is closed with status 1009.
	ErrTooLarge = errors.New("ws: message too large")
	// ErrConnectionLost fails the requests that were in flight on a socket
	// that closed, in a modern session that reconnects (see the package
	// documentation). Such a request may or may not have been carried out.
	ErrConnectionLost = errors.New("ws: connection lost before the response arrived")
	// ErrDial means the WebSocket could not be opened.
	ErrDial = errors.New("ws: could not open the WebSocket")
)

// CloseError is the close status the server (or an intermediary) sent
// when it closed the socket; code 1006 means the connection ended without
// a close frame. Match it with errors.As. It is an immutable value.
type CloseError struct {
	// Code is the WebSocket close code (1000 normal, 1001 going away,
	// 1006 abnormal: no close frame at all, …).
	Code int
	// Reason is the close frame's reason text.
	Reason string
}

func (e *CloseError) Error() string {
	msg := errf.Sprintf("ws: the server closed the connection (status %d", e.Code)
	if name := closeCodeName(e.Code); name != "" {
		msg += " " + name
	}
	msg += ")"
	if e.Reason != "" {
		msg += ": " + e.Reason
	}
	return msg
}

func closeCodeName(code int) string {
	switch code {
	case 1000:
		return "normal closure"
	case 1001:
		return "going away"
	case 1002:
		return "protocol error"
	case 1003:
		return "unsupported data"
	case 1006:
		return "abnormal closure, no close frame"
	case 1007:
		return "invalid payload"
	case 1008:
		return "policy violation"
	case 1009:
		return "message too big"
	case 1011:
		return "internal server error"
	case 1012:
		return "service restart"
	case 1013:
		return "try again later"
	}
	return ""
}

// Options configure a Transport; nil means all defaults. New copies them:
// an Options value may be reused and shared.
type Options struct {
	// Header is sent with the opening handshake (for example
	// Authorization). Natively only: the browser WebSocket API cannot send
	// headers, so New fails under GOOS=js when Header is not empty (put a
	// token in the URL or a cookie instead).
	Header map[string]string
	// MaxMessageSize bounds one incoming message in bytes; a larger one
	// closes the socket with status 1009 and fails with ErrTooLarge.
	// Default DefaultMaxMessageSize.
	MaxMessageSize int
	// PingInterval, when positive, sends a WebSocket ping that often and
	// treats a pong that does not come within the interval as a lost
	// socket (natively only; browsers cannot send pings, so it is ignored
	// under GOOS=js). Default: no pings.
	PingInterval time.Duration
	// DisableReconnect makes a lost socket end the connection even in a
	// modern session. Default: modern sessions reconnect (see the package
	// documentation).
	DisableReconnect bool
	// Dialer opens the WebSockets. Default: github.com/coder/websocket
	// natively; under GOOS=js there is none (this package imports no
	// syscall/js) and Connect fails with ErrNoWebSocket — mcpwasm's
	// JavaScript module passes one on the runtime's WebSocket class.
	Dialer Dialer
}

// canPing is false under GOOS=js, where every socket is the runtime's
// WebSocket, which cannot send pings: the ping loop is then left out of the
// module. (Elsewhere a Socket that cannot ping returns
// errors.ErrUnsupported and the loop ends.)
const canPing = runtime.GOOS != "js"

// Dialer opens WebSockets for a Transport. Implementations must be safe
// for concurrent use.
type Dialer interface {
	// Dial opens a WebSocket to url (ws or wss), offering
	// opts.Subprotocols and sending opts.Header with the handshake. It
	// returns an error wrapping ErrDial when the handshake fails (or a
	// *CloseError for a socket that closed before it opened), and ctx's
	// error when ctx ended first.
	Dial(ctx context.Context, url string, opts *DialOptions) (Socket, error)
	// SendsHeaders reports whether Dial can send handshake headers (the
	// browser WebSocket API cannot: New then refuses Options.Header).
	SendsHeaders() bool
}

// DialOptions are what a Transport asks of a Dialer.
type DialOptions struct {
	// Subprotocols are offered in the handshake (the transport offers
	// Subprotocol).
	Subprotocols []string
	// Header is sent with the handshake (Options.Header).
	Header map[string]string
	// MaxMessageSize bounds one incoming message in bytes; a larger one
	// closes the socket with status 1009, and Read fails with an error
	// wrapping ErrTooLarge.
	MaxMessageSize int
}

// Transport connects to an MCP server over WebSocket. It is safe for
// concurrent use; each Connect opens an independent connection.
type Transport struct {
	url    string
	origin string
	opts   Options
}

// New returns a transport for the WebSocket URL (ws or wss; http and https
// are accepted and mean ws and wss). It fails for an invalid URL or
// options. It opens nothing: Connect does. It is safe for concurrent use.
func New(rawURL string, opts *Options) (*Transport, error) {
	u, err := urlx.Parse(rawURL)
	if err != nil {
		return nil, errf.Errorf("ws: invalid URL: %w", err)
	}
	switch u.Scheme {
	case "ws", "wss":
	case "http":
		u.Scheme = "ws"
	case "https":
		u.Scheme = "wss"
	default:
		return nil, errf.Errorf("ws: URL must be ws or wss, got %q", u.Scheme)
	}
	if u.Host == "" {
		return nil, errf.Errorf("ws: URL %q has no host", rawURL)
	}
	if u.Fragment != "" {
		return nil, errf.Errorf("ws: URL %q has a fragment, which WebSocket URLs cannot have", rawURL)
	}
	t := &Transport{url: u.String(), origin: u.Scheme + "://" + u.Host}
	if opts != nil {
		t.opts = *opts
	}
	for name, v := range t.opts.Header {
		if !wire.ValidHeader(name, v) {
			return nil, errf.Errorf("ws: invalid header %q", name)
		}
	}
	if t.opts.Dialer == nil {
		t.opts.Dialer = defaultDialer()
	}
	if len(t.opts.Header) > 0 && !t.opts.Dialer.SendsHeaders() {
		return nil, errors.New("ws: the browser WebSocket API cannot send handshake headers (Options.Header); pass credentials in the URL or a cookie")
	}
	if t.opts.MaxMessageSize <= 0 {
		t.opts.MaxMessageSize = DefaultMaxMessageSize
	}
	if t.opts.PingInterval < 0 {
		t.opts.PingInterval = 0
	}
	return t, nil
}

// URL returns the WebSocket URL.
func (t *Transport) URL() string { return t.url }

// EraKey returns the server's origin (scheme ws or wss and host): the key
// under which a client caches the server's protocol era.
func (t *Transport) EraKey() string { return t.origin }

// Connect opens the WebSocket (its handshake bounded by ctx; the
// connection outlives ctx) and returns the connection. The connection's
// Send and Recv may be called concurrently; Close ends it (sending close
// code 1000 and waiting at most 5 seconds for the server's close frame)
// and is idempotent. Connect is safe for concurrent use.
func (t *Transport) Connect(ctx context.Context) (core.Conn, error) {
	c := newConn(t)
	if _, err := c.link(ctx); err != nil {
		c.Close()
		return nil, err
	}
	return c, nil
}

// open dials one socket and checks the subprotocol.
func (t *Transport) open(ctx context.Context) (Socket, error) {
	s, err := t.opts.Dialer.Dial(ctx, t.url, &DialOptions{
		Subprotocols:   []string{Subprotocol},
		Header:         t.opts.Header,
		MaxMessageSize: t.opts.MaxMessageSize,
	})
	if err != nil {
		return nil, err
	}
	if p := s.Subprotocol(); p != Subprotocol {
		_ = s.Close(1002, "the mcp subprotocol is required")
		if p == "" {
			return nil, errf.Errorf("%w (it selected none) at %s", ErrSubprotocol, t.url)
		}
		return nil, errf.Errorf("%w (it selected %q) at %s", ErrSubprotocol, p, t.url)
	}
	return s, nil
}

// Socket is one open WebSocket, as a Dialer returns it.
type Socket interface {
	// Read returns the next data message; text reports a text frame. It
	// returns *CloseError when the peer closed the socket and an error
	// wrapping ErrTooLarge for an oversized message.
	Read(ctx context.Context) (text bool, data []byte, err error)
	// Write sends data as one text frame. It is safe for concurrent use.
	Write(ctx context.Context, data []byte) error
	// Ping sends a ping and waits for the pong. A socket that cannot send
	// pings (the browser WebSocket API) returns errors.ErrUnsupported, and
	// Options.PingInterval is then ignored.
	Ping(ctx context.Context) error
	// Close sends a close frame (when still open), waits briefly for the
	// peer's, and releases the socket.
	Close(code int, reason string) error
	// Abort releases the socket without waiting for the peer.
	Abort() error
	// Subprotocol is the subprotocol the server selected.
	Subprotocol() string
}
