//go:build !js && !wasip1

package auth_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpwasm/mcpwasm/auth"
	"github.com/mcpwasm/mcpwasm/core"
	"github.com/mcpwasm/mcpwasm/tests/peerproc"
	"github.com/mcpwasm/mcpwasm/transport/fetch"
)

// protectedServer is the official Go SDK MCP server (the dual-era demo
// server, a process of the test harness: see tests/peerproc) behind the Go
// SDK's own bearer-token middleware and protected resource metadata
// handler, accepting tokens from as, which it checks at this server's
// /_verify.
type protectedServer struct {
	*httptest.Server
	stop      func()
	closeIdle func()
}

// startProtected starts a protectedServer requiring scopes; Close stops it.
func startProtected(as *testAS, scopes []string) *protectedServer {
	mux := http.NewServeMux()
	ps := &protectedServer{Server: httptest.NewServer(mux)}
	mux.HandleFunc("GET /_verify", func(w http.ResponseWriter, r *http.Request) {
		granted, ok := as.granted(strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer "))
		if !ok {
			http.Error(w, "unknown token", http.StatusUnauthorized)
			return
		}
		_ = json.NewEncoder(w).Encode(map[string][]string{"scopes": granted})
	})
	origin, stop := peerproc.StartDemo(peerproc.DemoOptions{
		Modern:       true,
		AuthResource: ps.URL + "/mcp",
		AuthServer:   as.URL,
		AuthScopes:   strings.Join(scopes, ","),
		AuthVerify:   ps.URL + "/_verify",
	})
	proxy, closeIdle, err := peerproc.NewProxy(origin)
	if err != nil {
		panic(err)
	}
	ps.stop, ps.closeIdle = stop, closeIdle
	mux.Handle("/.well-known/oauth-protected-resource/mcp", proxy)
	mux.Handle("/mcp", proxy)
	return ps
}

func (ps *protectedServer) Close() {
	ps.Server.CloseClientConnections()
	ps.Server.Close()
	ps.closeIdle()
	ps.stop()
}

func TestGoSDKServer(t *testing.T) {
	tests := []struct {
		name    string
		version string
		stingy  int // authorizations granted less than asked
		want    int // authorizations
	}{
		{"modern", "2026-07-28", 0, 1},
		{"legacy", "2025-11-25", 0, 1},
		{"modern, step-up after a partial grant", "2026-07-28", 1, 2},
		{"legacy, step-up after a partial grant", "2025-11-25", 1, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			as := newTestAS(t)
			as.set(func(as *testAS) { as.stingy = tt.stingy })
			ps := startProtected(as, []string{"mcp:read", "mcp:tools"})
			t.Cleanup(ps.Close)
			inner := newInner(t)
			doer := auth.NewDoer(inner, &auth.Options{UserAgent: auth.Headless(inner)})
			tr, err := fetch.New(ps.URL+"/mcp", &fetch.Options{HTTP: doer})
			require.NoError(t, err)
			client := core.NewClient(&core.Implementation{Name: "auth-test", Version: "1.0.0"}, &core.ClientOptions{ProtocolVersions: []string{tt.version}})
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			s, err := client.Connect(ctx, tr, nil)
			require.NoError(t, err)
			defer s.Close()
			assert.Equal(t, tt.version, s.ProtocolVersion())
			res, err := s.CallTool(ctx, &core.CallToolParams{Name: "add", Arguments: map[string]any{"a": 2, "b": 3}}, nil)
			require.NoError(t, err)
			var out struct{ Sum int }
			require.NoError(t, res.DecodeStructured(&out))
			assert.Equal(t, 5, out.Sum)

			n, _ := as.counts()
			assert.Equal(t, tt.want, n)
			for _, scope := range as.scopesRequested() {
				assert.Equal(t, "mcp:read mcp:tools", scope, "the challenged scopes, kept on step-up")
			}
		})
	}
}
