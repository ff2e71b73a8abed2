package fetch

import (
	"context"
	"sync"
	"time"

	"github.com/mcpwasm/mcpwasm/core"
	"github.com/mcpwasm/mcpwasm/internal/errf"
	"github.com/mcpwasm/mcpwasm/internal/timerq"
	"github.com/mcpwasm/mcpwasm/internal/urlx"
	"github.com/mcpwasm/mcpwasm/internal/wire"
	"github.com/mcpwasm/mcpwasm/jsonrpc"
)

// Transport modes.
const (
	// ModeAuto speaks Streamable HTTP and falls back to the 2024-11-05
	// HTTP+SSE transport when the server does not accept POSTs.
	ModeAuto = "auto"
	// ModeStreamableHTTP speaks only Streamable HTTP.
	ModeStreamableHTTP = "streamable-http"
	// ModeSSE speaks only the 2024-11-05 HTTP+SSE transport.
	ModeSSE = "sse"
)

// Defaults of Options.
const (
	DefaultMaxMessageSize = 32 << 20
	DefaultRetry          = time.Second
	DefaultMaxReconnects  = 5
	// DefaultMaxReconnectsPerMinute is the default of
	// Options.MaxReconnectsPerMinute.
	DefaultMaxReconnectsPerMinute = 20
)

// Options configure a Transport; nil means all defaults.
type Options struct {
	// Mode is ModeAuto (the default), ModeStreamableHTTP or ModeSSE.
	Mode string
	// Header is sent with every HTTP request (for example Authorization
	// for a pre-issued token).
	Header map[string]string
	// HTTP performs the requests. Default: DefaultDoer() (natively its own
	// HTTP/1.1 connections for plain http:// and net/http for the rest;
	// under GOOS=js and GOOS=wasip1 a Doer that fails with
	// ErrNoDefaultHTTP, so those builds pass their own).
	HTTP Doer
	// MaxMessageSize bounds one JSON body or SSE event. Default
	// DefaultMaxMessageSize.
	MaxMessageSize int
	// Retry is the reconnection delay of SSE streams when the server sent no
	// retry field. Default DefaultRetry.
	Retry time.Duration
	// MaxReconnects bounds consecutive failed attempts to resume a stream;
	// an attempt counts as failed unless the stream delivered a JSON-RPC
	// message. When the legacy GET stream gives up, the session's OnWarning
	// gets an error wrapping ErrStreamGaveUp and
	// core.Session.BackgroundStreamErr reports it. Default
	// DefaultMaxReconnects.
	MaxReconnects int
	// MaxReconnectsPerMinute caps how often one stream is re-opened,
	// whatever retry delay the server asks for (which is also floored at
	// 250 ms and jittered: a server's retry only ever lengthened by up to 20%,
	// the client's own backoff by ±20%). Default DefaultMaxReconnectsPerMinute.
	MaxReconnectsPerMinute int
}

// Transport connects to an MCP server over HTTP: Streamable HTTP (legacy
// sessions and the stateless 2026-07-28 revision) and the 2024-11-05
// HTTP+SSE transport. It is safe for concurrent use; each Connect makes an
// independent connection.
type Transport struct {
	endpoint string
	origin   string
	opts     Options
	doer     Doer
	// takesHead: the doer writes Request.head (headTaker), so POSTs carry
	// their headers pre-rendered.
	takesHead bool

	mu      sync.Mutex
	useSSE  bool     // the server turned out to speak HTTP+SSE
	sseBufs [][]byte // spare read buffers of request streams (consume), at most maxSpareBufs
}

// maxSpareBufs bounds the spare read buffers a Transport keeps: as many as
// request streams usually run at once.
const maxSpareBufs = 8

// sseBuf returns a read buffer for a request stream. (A sync.Pool would do,
// but costs the WebAssembly module more than this.)
func (t *Transport) sseBuf() []byte {
	t.mu.Lock()
	if n := len(t.sseBufs); n > 0 {
		b := t.sseBufs[n-1]
		t.sseBufs[n-1] = nil
		t.sseBufs = t.sseBufs[:n-1]
		t.mu.Unlock()
		return b
	}
	t.mu.Unlock()
	return make([]byte, sseBufSize)
}

// putSSEBuf keeps b for another request stream.
func (t *Transport) putSSEBuf(b []byte) {
	t.mu.Lock()
	if len(t.sseBufs) < maxSpareBufs {
		t.sseBufs = append(t.sseBufs, b)
	}
	t.mu.Unlock()
}

// New returns a transport for the MCP endpoint URL (http or https).
func New(endpoint string, opts *Options) (*Transport, error) {
	u, err := urlx.Parse(endpoint)
	if err != nil {
		return nil, errf.Errorf("fetch: invalid endpoint URL: %w", err)
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return nil, errf.Errorf("fetch: endpoint URL must be http or https, got %q", u.Scheme)
	}
	if u.Host == "" {
		return nil, errf.Errorf("fetch: endpoint URL %q has no host", endpoint)
	}
	u.Fragment = ""
	t := &Transport{endpoint: u.String(), origin: u.Scheme + "://" + u.Host}
	if opts != nil {
		t.opts = *opts
	}
	switch t.opts.Mode {
	case "":
		t.opts.Mode = ModeAuto
	case ModeAuto, ModeStreamableHTTP, ModeSSE:
	default:
		return nil, errf.Errorf("fetch: unknown mode %q", t.opts.Mode)
	}
	for name, v := range t.opts.Header {
		if !wire.ValidHeader(name, v) {
			return nil, errf.Errorf("fetch: invalid header %q", name)
		}
	}
	if t.opts.MaxMessageSize <= 0 {
		t.opts.MaxMessageSize = DefaultMaxMessageSize
	}
	if t.opts.Retry <= 0 {
		t.opts.Retry = DefaultRetry
	}
	if t.opts.MaxReconnects <= 0 {
		t.opts.MaxReconnects = DefaultMaxReconnects
	}
	if t.opts.MaxReconnectsPerMinute <= 0 {
		t.opts.MaxReconnectsPerMinute = DefaultMaxReconnectsPerMinute
	}
	t.doer = t.opts.HTTP
	if t.doer == nil {
		t.doer = DefaultDoer()
	}
	_, t.takesHead = t.doer.(headTaker)
	t.useSSE = t.opts.Mode == ModeSSE
	return t, nil
}

// URL returns the endpoint URL.
func (t *Transport) URL() string { return t.endpoint }

// EraKey returns the server's origin: the key under which a client caches
// the server's protocol era.
func (t *Transport) EraKey() string { return t.origin }

// Connect returns a new connection. No request is made until the session
// sends its first message.
func (t *Transport) Connect(ctx context.Context) (core.Conn, error) {
	c := &conn{
		t:       t,
		in:      make(chan jsonrpc.Message, 256),
		streams: map[int64]context.CancelCauseFunc{},
		grace:   timerq.New(nil, answeredGrace),
	}
	c.ctx, c.cancel = context.WithCancel(context.Background())
	return c, nil
}

func (t *Transport) sseMode() bool {
	t.mu.Lock()
	sse := t.useSSE
	t.mu.Unlock()
	return sse
}

func (t *Transport) rememberSSE() {
	t.mu.Lock()
	t.useSSE = true
	t.mu.Unlock()
}
