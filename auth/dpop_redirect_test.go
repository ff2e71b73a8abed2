package auth_test

import (
	"context"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpwasm/mcpwasm/auth"
	"github.com/mcpwasm/mcpwasm/transport/fetch"
)

// funcDoer is a fetch.Doer made of a function.
type funcDoer func(ctx context.Context, r *fetch.Request) (*fetch.Response, error)

func (f funcDoer) Do(ctx context.Context, r *fetch.Request) (*fetch.Response, error) {
	return f(ctx, r)
}

func reply(status int, header fetch.Header, body string) *fetch.Response {
	if header == nil {
		header = fetch.Header{}
	}
	return &fetch.Response{StatusCode: status, Header: header, Body: io.NopCloser(strings.NewReader(body))}
}

// A browser hides a redirect from scripts (an opaque redirect) and, when
// it follows it, forwards every header but Authorization across origins.
// The DPoP proof (bound to the original URL anyway) must not go along: the
// request the platform follows carries no DPoP header and no token.
func TestDPoPProofNotForwardedOnPlatformRedirect(t *testing.T) {
	signer, err := auth.GenerateSigner()
	require.NoError(t, err)
	const rs, as = "https://mcp.example.com", "https://as.example.com"
	var mu sync.Mutex
	var followed []fetch.Header // headers of requests the platform was allowed to redirect
	var proofs int
	inner := funcDoer(func(_ context.Context, r *fetch.Request) (*fetch.Response, error) {
		switch r.URL {
		case rs + "/.well-known/oauth-protected-resource/mcp":
			return reply(200, nil, `{"resource":"`+rs+`/mcp","authorization_servers":["`+as+`"]}`), nil
		case as + "/.well-known/oauth-authorization-server":
			return reply(200, nil, `{"issuer":"`+as+`","token_endpoint":"`+as+`/token","dpop_signing_alg_values_supported":["ES256"]}`), nil
		case as + "/token":
			if r.Header.Get("DPoP") == "" {
				return reply(400, nil, `{"error":"invalid_dpop_proof"}`), nil
			}
			return reply(200, nil, `{"access_token":"tok","token_type":"DPoP","expires_in":3600}`), nil
		case rs + "/mcp":
			mu.Lock()
			defer mu.Unlock()
			switch {
			case r.NoRedirect && r.Header.Get("Authorization") == "DPoP tok" && r.Header.Get("DPoP") != "":
				proofs++
				return reply(0, nil, ""), nil // the opaque redirect
			case !r.NoRedirect && proofs > 0:
				// The platform follows the redirect elsewhere: what goes along?
				followed = append(followed, r.Header.Clone())
				return reply(200, nil, "landed"), nil
			}
			return reply(401, fetch.Header{"www-authenticate": {`DPoP algs="ES256"`}}, ""), nil
		}
		return reply(404, nil, ""), nil
	})
	d := auth.NewDoer(inner, &auth.Options{Grant: auth.GrantClientCredentials, Client: &auth.Client{ID: "c", Secret: "s"}, DPoP: signer, Logf: t.Logf})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	resp, err := d.Do(ctx, &fetch.Request{Method: "GET", URL: rs + "/mcp", Header: fetch.Header{"x-app": {"1"}}})
	require.NoError(t, err)
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	assert.Equal(t, "landed", string(body))
	mu.Lock()
	defer mu.Unlock()
	assert.Equal(t, 1, proofs, "the token and proof went to the resource once, with redirects held back")
	require.Len(t, followed, 1)
	assert.Empty(t, followed[0].Get("DPoP"), "the proof must not follow a redirect")
	assert.Empty(t, followed[0].Get("Authorization"), "nor the DPoP-bound token")
	assert.Equal(t, "1", followed[0].Get("x-app"), "the caller's own headers are kept")
}

// The same holds for the token request: when the token endpoint's answer
// is an opaque redirect, the request the browser follows has no proof.
func TestDPoPProofNotForwardedOnPlatformRedirectOfTokenRequest(t *testing.T) {
	signer, err := auth.GenerateSigner()
	require.NoError(t, err)
	const rs, as = "https://mcp.example.com", "https://as.example.com"
	var mu sync.Mutex
	var followed []fetch.Header
	inner := funcDoer(func(_ context.Context, r *fetch.Request) (*fetch.Response, error) {
		switch r.URL {
		case rs + "/.well-known/oauth-protected-resource/mcp":
			return reply(200, nil, `{"resource":"`+rs+`/mcp","authorization_servers":["`+as+`"]}`), nil
		case as + "/.well-known/oauth-authorization-server":
			return reply(200, nil, `{"issuer":"`+as+`","token_endpoint":"`+as+`/token","dpop_signing_alg_values_supported":["ES256"]}`), nil
		case as + "/token":
			if r.NoRedirect {
				return reply(0, nil, ""), nil // the opaque redirect
			}
			mu.Lock()
			followed = append(followed, r.Header.Clone())
			mu.Unlock()
			return reply(400, nil, `{"error":"invalid_dpop_proof"}`), nil
		}
		return reply(401, fetch.Header{"www-authenticate": {`DPoP algs="ES256"`}}, ""), nil
	})
	d := auth.NewDoer(inner, &auth.Options{Grant: auth.GrantClientCredentials, Client: &auth.Client{ID: "c", Secret: "s"}, DPoP: signer})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_, err = d.Do(ctx, &fetch.Request{Method: "GET", URL: rs + "/mcp"})
	require.Error(t, err)
	mu.Lock()
	defer mu.Unlock()
	require.NotEmpty(t, followed)
	for _, h := range followed {
		assert.Empty(t, h.Get("DPoP"), "the proof must not follow a redirect")
	}
}
