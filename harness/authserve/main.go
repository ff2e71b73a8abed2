// Command authserve serves an OAuth-protected MCP server and its
// authorization server on 127.0.0.1, for the JS package's Node and
// Chromium tests of authorization (js/test/auth.test.mjs,
// tests/browser/auth.test.mjs). The MCP server is the official Go SDK
// server (harness/demoserver, dual-era) behind the Go SDK's own
// bearer-token middleware and protected resource metadata handler; the
// authorization server (as.go) is this command's own, small and
// observable. A third origin serves an open demo MCP server, the target
// of a redirect that must not carry the token.
//
// It prints one line once ready,
//
//	LISTENING http://127.0.0.1:<mcp port> as=http://127.0.0.1:<as port> other=http://127.0.0.1:<port>
//
// and exits when stdin (a pipe) closes, on SIGINT/SIGTERM, or after
// -max-life. The MCP origin serves:
//
//	/mcp          protected resource <origin>/mcp (scope mcp:tools); its
//	              metadata at the path-aware well-known URL
//	/mcp/out      (under /mcp) redirects with 307 to <other>/mcp
//	/short/mcp    protected resource whose tokens live 31 s (a client
//	              refreshes them about a second after obtaining them)
//	/hidden/mcp   protected resource whose metadata is only at /prm/hidden,
//	              named by the 401's WWW-Authenticate, which CORS does not
//	              expose on this path: a browser cannot discover it
//	/_test/state  JSON observations: authorizations, registrations, token
//	              grants, the tokens each origin received
//
// With -consent the authorization endpoint shows a page with Allow and
// Deny buttons (a user's sign-in) instead of approving at once; with
// -cors the three origins answer CORS for the listed origins.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"net"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	sdkauth "github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/oauthex"

	"github.com/mcpwasm/mcpwasm/harness/demoserver"
	"github.com/mcpwasm/mcpwasm/harness/peerlife"
)

func main() {
	consent := flag.Bool("consent", false, "show a consent page at the authorization endpoint")
	cors := flag.String("cors", "", "comma-separated allowed origins (* for any)")
	maxLife := flag.Duration("max-life", 15*time.Minute, "exit after this long")
	flag.Parse()

	var lns [3]net.Listener
	for i := range lns {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			log.Fatal(err)
		}
		lns[i] = ln
	}
	var origins []string
	if *cors != "" {
		origins = strings.Split(*cors, ",")
	}
	s := newServers("http://"+lns[0].Addr().String(), "http://"+lns[1].Addr().String(), "http://"+lns[2].Addr().String(), *consent, origins)
	defer s.close()
	var hss []*http.Server
	for i, h := range []http.Handler{s.mcpHandler(), s.asHandler(), s.otherHandler()} {
		hs := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
		hss = append(hss, hs)
		go func() { _ = hs.Serve(lns[i]) }()
	}
	fmt.Printf("LISTENING %s as=%s other=%s\n", s.mcpURL, s.as.issuer, s.otherURL)

	peerlife.Wait(*maxLife)
	shutdown, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	for _, hs := range hss {
		_ = hs.Shutdown(shutdown)
	}
}

// servers are the three origins.
type servers struct {
	mcpURL, otherURL string
	as               *authServer
	demo, open       *demoserver.Server
	origins          []string

	mu        sync.Mutex
	mcpSeen   []seen
	otherSeen []seen
}

// seen is a request an origin received: its path, the access token it
// carried (if any) and the resource that token was issued for.
type seen struct {
	Path     string `json:"path"`
	Token    string `json:"token,omitempty"`
	Resource string `json:"resource,omitempty"`
}

func newServers(mcpURL, asURL, otherURL string, consent bool, origins []string) *servers {
	return &servers{
		mcpURL: mcpURL, otherURL: otherURL, origins: origins,
		as:   newAuthServer(asURL, consent),
		demo: demoserver.New(&demoserver.Options{Modern: true}),
		open: demoserver.New(&demoserver.Options{Modern: true}),
	}
}

func (s *servers) close() {
	_ = s.demo.Close()
	_ = s.open.Close()
}

func (s *servers) note(list *[]seen, r *http.Request) {
	tok := ""
	if f := strings.Fields(r.Header.Get("Authorization")); len(f) == 2 {
		tok = f[1]
	}
	s.mu.Lock()
	*list = append(*list, seen{Path: r.URL.Path, Token: tok, Resource: s.as.resourceOf(tok)})
	s.mu.Unlock()
}

// protect puts the Go SDK's bearer-token middleware in front of h for
// resource, whose metadata is at prm.
func (s *servers) protect(resource, prm string, h http.Handler) http.Handler {
	verify := func(_ context.Context, token string, _ *http.Request) (*sdkauth.TokenInfo, error) {
		scopes, expiry, ok := s.as.verify(token, resource)
		if !ok {
			return nil, sdkauth.ErrInvalidToken
		}
		return &sdkauth.TokenInfo{Scopes: scopes, Expiration: expiry}, nil
	}
	return sdkauth.RequireBearerToken(verify, &sdkauth.RequireBearerTokenOptions{ResourceMetadataURL: prm, Scopes: []string{"mcp:tools"}})(h)
}

func prmHandler(resource, as string) http.Handler {
	return sdkauth.ProtectedResourceMetadataHandler(&oauthex.ProtectedResourceMetadata{
		Resource:             resource,
		AuthorizationServers: []string{as},
		ScopesSupported:      []string{"mcp:tools"},
	})
}

func (s *servers) mcpHandler() http.Handler {
	wk := s.mcpURL + "/.well-known/oauth-protected-resource"
	mux := http.NewServeMux()
	mux.Handle("/.well-known/oauth-protected-resource/mcp", prmHandler(s.mcpURL+"/mcp", s.as.issuer))
	mux.Handle("/.well-known/oauth-protected-resource/short/mcp", prmHandler(s.mcpURL+"/short/mcp", s.as.issuer))
	mux.Handle("/prm/hidden", prmHandler(s.mcpURL+"/hidden/mcp", s.as.issuer))
	mux.Handle("/mcp", s.protect(s.mcpURL+"/mcp", wk+"/mcp", s.demo.Handler()))
	mux.Handle("/mcp/", s.protect(s.mcpURL+"/mcp", wk+"/mcp", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/mcp/out" {
			http.NotFound(w, r)
			return
		}
		http.Redirect(w, r, s.otherURL+"/mcp", http.StatusTemporaryRedirect)
	})))
	mux.Handle("/short/mcp", s.protect(s.mcpURL+"/short/mcp", wk+"/short/mcp", http.StripPrefix("/short", s.demo.Handler())))
	mux.Handle("/hidden/mcp", s.protect(s.mcpURL+"/hidden/mcp", s.mcpURL+"/prm/hidden", http.StripPrefix("/hidden", s.demo.Handler())))
	mux.HandleFunc("GET /_test/state", s.state)
	return s.cors(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !strings.HasPrefix(r.URL.Path, "/_test/") && !strings.HasPrefix(r.URL.Path, "/.well-known/") && r.Method != http.MethodOptions {
			s.note(&s.mcpSeen, r)
		}
		mux.ServeHTTP(w, r)
	}))
}

func (s *servers) asHandler() http.Handler { return s.cors(s.as.handler()) }

func (s *servers) otherHandler() http.Handler {
	h := s.open.Handler()
	return s.cors(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodOptions {
			s.note(&s.otherSeen, r)
		}
		h.ServeHTTP(w, r)
	}))
}

// state answers the observations as JSON.
func (s *servers) state(w http.ResponseWriter, _ *http.Request) {
	s.as.mu.Lock()
	st := map[string]any{
		"as":             s.as.issuer,
		"other":          s.otherURL,
		"authorizations": s.as.authorizations,
		"registrations":  s.as.registrations,
		"grants":         append([]string{}, s.as.grants...),
	}
	s.as.mu.Unlock()
	s.mu.Lock()
	st["mcpSeen"] = append([]seen{}, s.mcpSeen...)
	st["otherSeen"] = append([]seen{}, s.otherSeen...)
	s.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(st)
}

// cors answers CORS for the configured origins. Responses under /hidden/
// do not expose WWW-Authenticate (a common misconfiguration).
func (s *servers) cors(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		origin := r.Header.Get("Origin")
		if origin == "" || len(s.origins) == 0 || (!slices.Contains(s.origins, "*") && !slices.Contains(s.origins, origin)) {
			h.ServeHTTP(w, r)
			return
		}
		hd := w.Header()
		hd.Set("Access-Control-Allow-Origin", origin)
		hd.Add("Vary", "Origin")
		exposed := "Mcp-Session-Id, MCP-Protocol-Version, WWW-Authenticate"
		if strings.HasPrefix(r.URL.Path, "/hidden/") {
			exposed = "Mcp-Session-Id, MCP-Protocol-Version"
		}
		hd.Set("Access-Control-Expose-Headers", exposed)
		if r.Method == http.MethodOptions && r.Header.Get("Access-Control-Request-Method") != "" {
			hd.Set("Access-Control-Allow-Methods", "GET, POST, DELETE, OPTIONS")
			if req := r.Header.Get("Access-Control-Request-Headers"); req != "" {
				hd.Set("Access-Control-Allow-Headers", req)
			}
			hd.Set("Access-Control-Max-Age", "600")
			w.WriteHeader(http.StatusNoContent)
			return
		}
		h.ServeHTTP(w, r)
	})
}
