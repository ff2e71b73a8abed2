// Command demoserve serves harness/demoserver (the official Go SDK server
// with the shared test-peer tool set) on 127.0.0.1 for tests that cannot
// import the harness module: the JS package's Node and Chromium tests, and
// the library module's own Go tests (wasm/wasihost). It prints
// "LISTENING http://127.0.0.1:<port>" once ready and exits when stdin
// (a pipe) closes, on SIGINT/SIGTERM, or after -max-life.
//
// With -auth-resource, /mcp is a protected resource behind the Go SDK's
// bearer-token middleware (requiring -auth-scopes), its metadata (naming
// -auth-server) at /.well-known/oauth-protected-resource/mcp, and each
// token is checked by a GET of -auth-verify with the token as bearer: a
// 200 answer carries {"scopes": [...]}, anything else rejects the token.
// -auth-resource is the public URL of /mcp (a test may put a proxy in
// front), from whose origin the metadata URL is made.
//
// With -ws it serves the same server over WebSocket (harness/wsserver, on
// every path) instead of HTTP.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	sdkauth "github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/oauthex"

	"github.com/mcpwasm/mcpwasm/harness/demoserver"
	"github.com/mcpwasm/mcpwasm/harness/peerlife"
	"github.com/mcpwasm/mcpwasm/harness/wsserver"
)

func main() {
	port := flag.Int("port", 0, "port on 127.0.0.1 (0: any free port)")
	modern := flag.Bool("modern", false, "serve 2026-07-28 as well as the legacy era")
	pageSize := flag.Int("page-size", 0, "list page size (0: no pagination)")
	cors := flag.String("cors", "", "comma-separated allowed origins (* for any)")
	maxLife := flag.Duration("max-life", 15*time.Minute, "exit after this long")
	authResource := flag.String("auth-resource", "", "protect /mcp as this resource URL (see the package doc)")
	authServer := flag.String("auth-server", "", "the authorization server named by the resource metadata")
	authScopes := flag.String("auth-scopes", "", "comma-separated scopes the resource requires")
	authVerify := flag.String("auth-verify", "", "URL that checks a bearer token (see the package doc)")
	overWS := flag.Bool("ws", false, "serve over WebSocket instead of HTTP")
	apps := flag.Bool("apps", false, "offer the MCP App tool "+demoserver.AppToolName+" and its ui:// resource")
	flag.Parse()

	opts := &demoserver.Options{Modern: *modern, PageSize: *pageSize, Apps: *apps}
	if *cors != "" {
		opts.CORSOrigins = strings.Split(*cors, ",")
	}
	srv := demoserver.New(opts)
	defer srv.Close()
	ln, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", *port))
	if err != nil {
		log.Fatal(err)
	}
	handler := srv.Handler()
	if *authResource != "" {
		handler = protect(handler, *authResource, *authServer, *authScopes, *authVerify)
	}
	if *overWS {
		wsh := wsserver.New(srv.MCPServer(), nil)
		defer wsh.Close()
		handler = wsh
	}
	hs := &http.Server{Handler: handler, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = hs.Serve(ln) }()
	fmt.Printf("LISTENING http://%s\n", ln.Addr())

	peerlife.Wait(*maxLife)
	shutdown, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	_ = hs.Shutdown(shutdown)
}

// protect puts mcp behind the Go SDK's bearer-token middleware and serves
// the resource's metadata with the Go SDK's handler.
func protect(mcp http.Handler, resource, server, scopes, verifyURL string) http.Handler {
	var scopeList []string
	if scopes != "" {
		scopeList = strings.Split(scopes, ",")
	}
	u, err := url.Parse(resource)
	if err != nil {
		log.Fatalf("-auth-resource: %v", err)
	}
	const prmPath = "/.well-known/oauth-protected-resource" + demoserver.MCPPath
	prm := u.Scheme + "://" + u.Host + prmPath
	client := &http.Client{Timeout: 10 * time.Second}
	verify := func(ctx context.Context, token string, _ *http.Request) (*sdkauth.TokenInfo, error) {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, verifyURL, nil)
		if err != nil {
			return nil, err
		}
		req.Header.Set("Authorization", "Bearer "+token)
		resp, err := client.Do(req)
		if err != nil {
			return nil, err
		}
		defer resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			return nil, sdkauth.ErrInvalidToken
		}
		var v struct {
			Scopes []string `json:"scopes"`
		}
		if err := json.NewDecoder(io.LimitReader(resp.Body, 1<<20)).Decode(&v); err != nil {
			return nil, errors.Join(sdkauth.ErrInvalidToken, err)
		}
		return &sdkauth.TokenInfo{Scopes: v.Scopes, Expiration: time.Now().Add(time.Hour)}, nil
	}
	mux := http.NewServeMux()
	mux.Handle(prmPath, sdkauth.ProtectedResourceMetadataHandler(&oauthex.ProtectedResourceMetadata{
		Resource:             resource,
		AuthorizationServers: []string{server},
		ScopesSupported:      scopeList,
	}))
	mux.Handle(demoserver.MCPPath, sdkauth.RequireBearerToken(verify, &sdkauth.RequireBearerTokenOptions{ResourceMetadataURL: prm, Scopes: scopeList})(mcp))
	return mux
}
