package demoserver

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Endpoint paths served by [Server.Handler].
const (
	// MCPPath is the Streamable HTTP MCP endpoint (both eras when
	// [Options.Modern] is set, legacy only otherwise).
	MCPPath = "/mcp"
	// SSEPath is the deprecated 2024-11-05 HTTP+SSE endpoint: GET opens the
	// event stream (whose first event names the POST endpoint,
	// "/sse?sessionid=…"), POSTs go to the same path.
	SSEPath = "/sse"
)

// Protocol identifiers used by the server.
const (
	// ModernProtocolVersion is the first protocol revision of the modern
	// (stateless, per-request _meta) era.
	ModernProtocolVersion = "2026-07-28"
	// Instructions is the server's instructions string.
	Instructions = "mcpwasm test peer"
	// ServerName is the name the server reports in serverInfo.
	ServerName = "mcpwasm-demoserver"
	// ServerVersion is the version the server reports in serverInfo.
	ServerVersion = "0.1.0"
)

// maxPeekBytes bounds how much of a POST body the era router buffers; it
// matches the SDK's default body limit (the SDK rejects larger bodies itself).
const maxPeekBytes = mcp.DefaultMaxRequestBodyBytes

// Options configures a [Server]. The zero value (or a nil *Options) is a
// legacy-only server with the SDK's default behaviour.
type Options struct {
	// Modern enables the SDK's 2026-07-28 support (stateless per-request
	// _meta, server/discover, MRTR input_required results,
	// subscriptions/listen) in addition to the legacy era. Requests that
	// announce 2026-07-28 or later (MCP-Protocol-Version header, or the
	// io.modelcontextprotocol/protocolVersion _meta key) are routed to a
	// stateless SDK handler; everything else to a stateful one.
	//
	// false = the SDK's default legacy behaviour (initialize sessions,
	// server->client requests on SSE, GET stream); server/discover then
	// advertises only legacy versions and modern requests are rejected with
	// UnsupportedProtocolVersionError (-32022).
	Modern bool
	// JSONResponse prefers application/json responses where the SDK allows
	// (single-message POSTs). Request-scoped notifications and legacy
	// server->client requests then travel on the standalone GET stream;
	// in the modern era there is no such stream, so they are dropped.
	// subscriptions/listen always streams.
	JSONResponse bool
	// PageSize is the list page size for tools, prompts, resources and
	// resource templates (0 = the SDK default of 1000, i.e. no pagination
	// with this server's feature counts).
	PageSize int
	// CORSOrigins, if non-empty, makes the handler answer CORS (including
	// preflight OPTIONS) for these origins ("*" allows any origin) and
	// expose the headers a browser MCP client needs. Requests whose Origin
	// is neither listed nor same-origin are refused with 403.
	CORSOrigins []string
	// Logger receives the SDK's and the server's logs; nil discards them.
	Logger *slog.Logger
	// Apps adds an MCP App: the tool [AppToolName], whose _meta names the
	// ui:// resource [AppResourceURI] (an HTML page a host renders in a
	// sandboxed iframe). Off by default: the shared test-peer toolset
	// stays as the contract says.
	Apps bool
}

// Server is the demo/test MCP server. Create it with [New], serve
// [Server.Handler], and release it with [Server.Close].
//
// All methods are safe for concurrent use. The server's tool, resource and
// prompt handlers may run concurrently for any number of clients of both
// eras; server-wide state (the extra_<n> tools, the cancelled-call
// counter) is shared by every client.
type Server struct {
	opts    Options
	logger  *slog.Logger
	mcp     *mcp.Server
	legacy  *mcp.StreamableHTTPHandler // stateful: initialize + Mcp-Session-Id
	modern  *mcp.StreamableHTTPHandler // stateless: 2026-07-28 per-request _meta
	sse     *mcp.SSEHandler            // 2024-11-05 HTTP+SSE
	handler http.Handler

	closed    atomic.Bool
	closeOnce sync.Once

	extraTools     atomic.Int64 // number of change_tools calls
	cancelledSlows atomic.Int64 // slow calls cancelled before finishing
}

// New returns a ready-to-serve server. opts may be nil.
//
// The handler returned by [Server.Handler] serves the Streamable HTTP
// endpoint at [MCPPath] ("/mcp") and the 2024-11-05 HTTP+SSE endpoint at
// [SSEPath] ("/sse"); mount it at the root of a mux (for example
// mux.Handle("/", s.Handler())) so the SSE endpoint event's path is right.
func New(opts *Options) *Server {
	s := &Server{}
	if opts != nil {
		s.opts = *opts
		s.opts.CORSOrigins = append([]string(nil), opts.CORSOrigins...)
	}
	s.logger = s.opts.Logger
	if s.logger == nil {
		s.logger = slog.New(slog.DiscardHandler)
	}

	s.mcp = mcp.NewServer(&mcp.Implementation{Name: ServerName, Version: ServerVersion}, &mcp.ServerOptions{
		Instructions:       Instructions,
		Logger:             s.logger,
		PageSize:           s.opts.PageSize,
		CompletionHandler:  s.complete,
		SubscribeHandler:   func(context.Context, *mcp.SubscribeRequest) error { return nil },
		UnsubscribeHandler: func(context.Context, *mcp.UnsubscribeRequest) error { return nil },
		Capabilities: &mcp.ServerCapabilities{
			Logging:     &mcp.LoggingCapabilities{},
			Completions: &mcp.CompletionCapabilities{},
			Tools:       &mcp.ToolCapabilities{ListChanged: true},
			Prompts:     &mcp.PromptCapabilities{ListChanged: true},
			Resources:   &mcp.ResourceCapabilities{ListChanged: true, Subscribe: true},
		},
	})
	s.mcp.AddReceivingMiddleware(defaultLegacyLogLevel)
	s.addTools()
	s.addResources()
	s.addPrompts()
	if s.opts.Apps {
		s.addApp()
	}

	getServer := func(*http.Request) *mcp.Server { return s.mcp }
	s.legacy = mcp.NewStreamableHTTPHandler(getServer, &mcp.StreamableHTTPOptions{
		JSONResponse: s.opts.JSONResponse,
		Logger:       s.logger,
	})
	if s.opts.Modern {
		s.modern = mcp.NewStreamableHTTPHandler(getServer, &mcp.StreamableHTTPOptions{
			Stateless:    true,
			JSONResponse: s.opts.JSONResponse,
			Logger:       s.logger,
			// Closing the response stream is the cancellation signal in
			// 2026-07-28; without this the handler would run to completion.
			PropagateRequestCancellation: true,
		})
	}
	s.sse = mcp.NewSSEHandler(getServer, nil)

	mux := http.NewServeMux()
	mux.HandleFunc(MCPPath, s.serveMCP)
	mux.Handle(SSEPath, s.sse)
	var h http.Handler = mux
	if len(s.opts.CORSOrigins) > 0 {
		h = &corsHandler{origins: s.opts.CORSOrigins, next: h}
	}
	s.handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if s.closed.Load() {
			http.Error(w, "server closed", http.StatusServiceUnavailable)
			return
		}
		h.ServeHTTP(w, r)
	})
	return s
}

// Handler returns the HTTP handler serving [MCPPath] and [SSEPath]. It
// answers 503 after [Server.Close].
func (s *Server) Handler() http.Handler { return s.handler }

// MCPServer returns the underlying SDK server, for tests that need to
// reach past the HTTP layer (e.g. to connect an in-memory transport).
func (s *Server) MCPServer() *mcp.Server { return s.mcp }

// Close stops accepting requests and closes every live session (stateful
// Streamable HTTP sessions with their GET streams, HTTP+SSE sessions, and
// in-flight stateless requests such as subscriptions/listen), which ends
// the SDK goroutines serving them. It is idempotent and always returns nil.
// Close does not close the http.Server the handler is mounted on.
func (s *Server) Close() error {
	s.closeOnce.Do(func() {
		s.closed.Store(true)
		for ss := range s.mcp.Sessions() {
			_ = ss.Close()
		}
	})
	return nil
}

// serveMCP routes a request on the MCP endpoint to the era's SDK handler.
func (s *Server) serveMCP(w http.ResponseWriter, r *http.Request) {
	if s.modern != nil && isModernRequest(r) {
		s.modern.ServeHTTP(w, r)
		return
	}
	s.legacy.ServeHTTP(w, r)
}

// isModernRequest reports whether r belongs to the 2026-07-28 era: its
// MCP-Protocol-Version header names 2026-07-28 or later or, without the
// header, its (single, non-batch) JSON-RPC body carries
// _meta["io.modelcontextprotocol/protocolVersion"] >= 2026-07-28 (the SDK
// then rejects it with HeaderMismatch, as the spec requires). The body is
// restored for the next handler.
func isModernRequest(r *http.Request) bool {
	if v := r.Header.Get("Mcp-Protocol-Version"); v != "" {
		return v >= ModernProtocolVersion
	}
	if r.Method != http.MethodPost || r.Body == nil {
		return false
	}
	buf, err := io.ReadAll(io.LimitReader(r.Body, maxPeekBytes+1))
	rest := r.Body
	r.Body = readCloser{io.MultiReader(bytes.NewReader(buf), rest), rest}
	if err != nil || int64(len(buf)) > maxPeekBytes {
		return false
	}
	var msg struct {
		Params struct {
			Meta map[string]any `json:"_meta"`
		} `json:"params"`
	}
	if json.Unmarshal(buf, &msg) != nil {
		return false
	}
	v, _ := msg.Params.Meta[mcp.MetaKeyProtocolVersion].(string)
	return v >= ModernProtocolVersion
}

type readCloser struct {
	io.Reader
	io.Closer
}

// corsHandler answers CORS for the configured origins.
type corsHandler struct {
	origins []string
	next    http.Handler
}

// corsAllowedHeaders are the request headers a browser MCP client sends, in
// addition to any Mcp-Param-* header.
var corsAllowedHeaders = []string{
	"Content-Type", "Accept", "Authorization", "Mcp-Session-Id",
	"MCP-Protocol-Version", "Last-Event-ID", "Mcp-Method", "Mcp-Name",
}

const corsExposedHeaders = "Mcp-Session-Id, WWW-Authenticate, MCP-Protocol-Version"

func (c *corsHandler) allowOrigin(r *http.Request, origin string) (string, bool) {
	for _, o := range c.origins {
		if o == "*" {
			return "*", true
		}
		if strings.EqualFold(o, origin) {
			return origin, true
		}
	}
	// Same-origin requests (a page served by the same host) are always fine.
	if i := strings.Index(origin, "://"); i >= 0 && strings.EqualFold(origin[i+3:], r.Host) {
		return origin, true
	}
	return "", false
}

func corsHeaderAllowed(name string) bool {
	name = strings.TrimSpace(name)
	if len(name) > len("mcp-param-") && strings.EqualFold(name[:len("mcp-param-")], "mcp-param-") {
		return true
	}
	for _, h := range corsAllowedHeaders {
		if strings.EqualFold(h, name) {
			return true
		}
	}
	return false
}

func (c *corsHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	origin := r.Header.Get("Origin")
	if origin == "" {
		c.next.ServeHTTP(w, r)
		return
	}
	allowed, ok := c.allowOrigin(r, origin)
	if !ok {
		http.Error(w, "Forbidden: origin not allowed", http.StatusForbidden)
		return
	}
	h := w.Header()
	h.Set("Access-Control-Allow-Origin", allowed)
	if allowed != "*" {
		h.Add("Vary", "Origin")
	}
	h.Set("Access-Control-Expose-Headers", corsExposedHeaders)
	if r.Method != http.MethodOptions || r.Header.Get("Access-Control-Request-Method") == "" {
		c.next.ServeHTTP(w, r)
		return
	}
	// Preflight.
	h.Add("Vary", "Access-Control-Request-Method, Access-Control-Request-Headers")
	h.Set("Access-Control-Allow-Methods", "GET, POST, DELETE, OPTIONS")
	allowHeaders := strings.Join(corsAllowedHeaders, ", ")
	if req := r.Header.Values("Access-Control-Request-Headers"); len(req) > 0 {
		all := true
		var names []string
		for _, v := range req {
			for _, name := range strings.Split(v, ",") {
				if name = strings.TrimSpace(name); name == "" {
					continue
				}
				names = append(names, name)
				all = all && corsHeaderAllowed(name)
			}
		}
		if all && len(names) > 0 {
			allowHeaders = strings.Join(names, ", ")
		}
	}
	h.Set("Access-Control-Allow-Headers", allowHeaders)
	h.Set("Access-Control-Max-Age", "600")
	w.WriteHeader(http.StatusNoContent)
}
