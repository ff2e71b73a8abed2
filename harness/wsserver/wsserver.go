package wsserver

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// InjectMethod is the fault-injection control method (Options.Faults).
const InjectMethod = "wstest/inject"

// Options configure a Handler; nil means defaults. New copies them.
type Options struct {
	// Faults enables the InjectMethod control request.
	Faults bool
	// MaxMessageSize bounds one client message (default 32 MiB).
	MaxMessageSize int64
}

// Handler serves one mcp.Server over WebSocket. It is safe for concurrent
// use; every socket gets its own SDK session.
type Handler struct {
	srv  *mcp.Server
	opts Options

	conns     atomic.Int64 // sockets accepted so far
	cancelled atomic.Int64 // notifications/cancelled received

	mu      sync.Mutex
	live    map[*wsConn]struct{}
	closed  bool
	replies []json.RawMessage
	wg      sync.WaitGroup
}

// New returns a handler serving srv; opts may be nil. It is safe for
// concurrent use.
func New(srv *mcp.Server, opts *Options) *Handler {
	h := &Handler{srv: srv, live: map[*wsConn]struct{}{}}
	if opts != nil {
		h.opts = *opts
	}
	if h.opts.MaxMessageSize <= 0 {
		h.opts.MaxMessageSize = 32 << 20
	}
	return h
}

// Connections returns how many sockets were accepted so far.
func (h *Handler) Connections() int64 { return h.conns.Load() }

// Cancelled returns how many notifications/cancelled the clients sent.
func (h *Handler) Cancelled() int64 { return h.cancelled.Load() }

// CloseAll closes every live socket with code and reason (the sessions
// end); new sockets are still accepted.
func (h *Handler) CloseAll(code websocket.StatusCode, reason string) {
	h.mu.Lock()
	live := make([]*wsConn, 0, len(h.live))
	for c := range h.live {
		live = append(live, c)
	}
	h.mu.Unlock()
	for _, c := range live {
		c.closeWith(code, reason)
	}
}

// Close closes every socket with 1001 (going away), refuses new ones and
// waits for the sessions to end. Call it before closing the HTTP server.
func (h *Handler) Close() {
	h.mu.Lock()
	h.closed = true
	h.mu.Unlock()
	h.CloseAll(websocket.StatusGoingAway, "server shutting down")
	h.wg.Wait()
}

// ServeHTTP accepts a WebSocket and serves MCP on it until it closes.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h.mu.Lock()
	if h.closed {
		h.mu.Unlock()
		http.Error(w, "server closed", http.StatusServiceUnavailable)
		return
	}
	h.wg.Add(1)
	h.mu.Unlock()
	defer h.wg.Done()

	protos := []string{"mcp"}
	if strings.HasSuffix(r.URL.Path, "/no-subprotocol") {
		protos = nil
	}
	c, err := websocket.Accept(w, r, &websocket.AcceptOptions{
		Subprotocols: protos,
		// A test server: pages of any origin (a Chromium test page) may
		// connect.
		InsecureSkipVerify: true,
	})
	if err != nil {
		return
	}
	if protos != nil && c.Subprotocol() != "mcp" {
		c.Close(websocket.StatusPolicyViolation, `the "mcp" subprotocol is required`)
		return
	}
	c.SetReadLimit(h.opts.MaxMessageSize)
	wc := &wsConn{h: h, c: c, n: h.conns.Add(1), done: make(chan struct{})}
	wc.ctx, wc.cancel = context.WithCancel(context.Background())
	defer wc.cancel()
	h.mu.Lock()
	h.live[wc] = struct{}{}
	h.mu.Unlock()
	defer func() {
		h.mu.Lock()
		delete(h.live, wc)
		h.mu.Unlock()
	}()
	ss, err := h.srv.Connect(context.Background(), transport{wc}, nil)
	if err != nil {
		c.Close(websocket.StatusInternalError, err.Error())
		return
	}
	ss.Wait()
	wc.Close()
	wc.injects.Wait()
}

type transport struct{ c *wsConn }

func (t transport) Connect(context.Context) (mcp.Connection, error) { return t.c, nil }

// wsConn is an mcp.Connection over one socket.
type wsConn struct {
	h *Handler
	// ctx bounds writes: it ends with the socket, not with the SDK's
	// per-message contexts (coder/websocket closes the socket when a
	// write's context ends, and the SDK may end one as the write returns).
	ctx     context.Context
	cancel  context.CancelFunc
	c       *websocket.Conn
	n       int64
	once    sync.Once
	done    chan struct{}
	injects sync.WaitGroup
}

func (w *wsConn) SessionID() string { return "" }

func (w *wsConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	for {
		typ, data, err := w.c.Read(ctx)
		if err != nil {
			return nil, err
		}
		if typ != websocket.MessageText {
			w.closeWith(websocket.StatusUnsupportedData, "MCP over WebSocket uses text frames")
			return nil, errors.New("wsserver: binary frame from the client")
		}
		msg, err := jsonrpc.DecodeMessage(data)
		if err != nil {
			// Let the SDK see what it would see on stdio: nothing; answer
			// like a JSON-RPC peer.
			_ = w.c.Write(w.ctx, websocket.MessageText, []byte(`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}`))
			continue
		}
		switch m := msg.(type) {
		case *jsonrpc.Request:
			if m.Method == "notifications/cancelled" {
				w.h.cancelled.Add(1)
			}
			if w.h.opts.Faults && m.Method == InjectMethod && m.ID.IsValid() {
				w.injects.Add(1)
				go w.inject(m)
				continue
			}
		case *jsonrpc.Response:
			if s, ok := m.ID.Raw().(string); ok && strings.HasPrefix(s, "wstest-") {
				w.h.mu.Lock()
				w.h.replies = append(w.h.replies, json.RawMessage(data))
				w.h.mu.Unlock()
				continue
			}
		}
		return msg, nil
	}
}

func (w *wsConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	data, err := jsonrpc.EncodeMessage(msg)
	if err != nil {
		return err
	}
	return w.c.Write(w.ctx, websocket.MessageText, data)
}

func (w *wsConn) Close() error {
	w.closeWith(websocket.StatusNormalClosure, "")
	return nil
}

func (w *wsConn) closeWith(code websocket.StatusCode, reason string) {
	w.once.Do(func() {
		close(w.done)
		w.h.wg.Add(1)
		go func() {
			defer w.h.wg.Done()
			// Waits (at most 5s) for the client's close frame.
			_ = w.c.Close(code, reason)
		}()
	})
}

type injectParams struct {
	DelayMs int `json:"delayMs"`
	Frames  []struct {
		Text   *string `json:"text"`
		Binary *string `json:"binary"`
	} `json:"frames"`
	Respond string `json:"respond"`
	Close   *struct {
		Code   int    `json:"code"`
		Reason string `json:"reason"`
	} `json:"close"`
}

func (w *wsConn) inject(req *jsonrpc.Request) {
	defer w.injects.Done()
	ctx := w.ctx
	var p injectParams
	if err := json.Unmarshal(req.Params, &p); err != nil {
		w.answer(ctx, req.ID, nil, fmt.Errorf("bad %s params: %v", InjectMethod, err))
		return
	}
	if p.DelayMs > 0 {
		select {
		case <-time.After(time.Duration(p.DelayMs) * time.Millisecond):
		case <-w.done:
			return
		}
	}
	for _, f := range p.Frames {
		switch {
		case f.Text != nil:
			_ = w.c.Write(ctx, websocket.MessageText, []byte(*f.Text))
		case f.Binary != nil:
			b, _ := base64.StdEncoding.DecodeString(*f.Binary)
			_ = w.c.Write(ctx, websocket.MessageBinary, b)
		}
	}
	switch p.Respond {
	case "", "ok":
		w.h.mu.Lock()
		replies := append([]json.RawMessage{}, w.h.replies...)
		w.h.mu.Unlock()
		w.answer(ctx, req.ID, map[string]any{"connection": w.n, "cancelled": w.h.cancelled.Load(), "replies": replies}, nil)
	case "malformed":
		id, _ := json.Marshal(req.ID.Raw())
		_ = w.c.Write(ctx, websocket.MessageText, []byte(`{"jsonrpc":"1.0","id":`+string(id)+`,"result":{}}`))
	}
	if p.Close != nil {
		w.closeWith(websocket.StatusCode(p.Close.Code), p.Close.Reason)
	}
}

func (w *wsConn) answer(ctx context.Context, id jsonrpc.ID, result any, err error) {
	resp := &jsonrpc.Response{ID: id}
	if err != nil {
		resp.Error = &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: err.Error()}
	} else {
		resp.Result, _ = json.Marshal(result)
	}
	data, eerr := jsonrpc.EncodeMessage(resp)
	if eerr == nil {
		_ = w.c.Write(ctx, websocket.MessageText, data)
	}
}
