//go:build !js && !wasip1

package auth_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	sdkauth "github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpwasm/mcpwasm/auth"
	"github.com/mcpwasm/mcpwasm/core"
	"github.com/mcpwasm/mcpwasm/internal/demoserver"
	"github.com/mcpwasm/mcpwasm/transport/fetch"
)

// protectedServer is the official Go SDK MCP server (the dual-era demo
// server) behind the Go SDK's own bearer-token middleware and protected
// resource metadata handler, accepting tokens from as.
type protectedServer struct {
	*httptest.Server
	mcp *demoserver.Server
}

// startProtected starts a protectedServer requiring scopes; Close stops it.
func startProtected(as *testAS, scopes []string) *protectedServer {
	mux := http.NewServeMux()
	ps := &protectedServer{Server: httptest.NewServer(mux), mcp: demoserver.New(&demoserver.Options{Modern: true})}
	prm := ps.URL + "/.well-known/oauth-protected-resource/mcp"
	mux.Handle("/.well-known/oauth-protected-resource/mcp", sdkauth.ProtectedResourceMetadataHandler(&oauthex.ProtectedResourceMetadata{
		Resource:             ps.URL + "/mcp",
		AuthorizationServers: []string{as.URL},
		ScopesSupported:      scopes,
	}))
	verify := func(_ context.Context, token string, _ *http.Request) (*sdkauth.TokenInfo, error) {
		granted, ok := as.granted(token)
		if !ok {
			return nil, sdkauth.ErrInvalidToken
		}
		return &sdkauth.TokenInfo{Scopes: granted, Expiration: time.Now().Add(time.Hour)}, nil
	}
	mux.Handle("/mcp", sdkauth.RequireBearerToken(verify, &sdkauth.RequireBearerTokenOptions{ResourceMetadataURL: prm, Scopes: scopes})(ps.mcp.Handler()))
	return ps
}

func (ps *protectedServer) Close() {
	_ = ps.mcp.Close()
	ps.Server.Close()
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
