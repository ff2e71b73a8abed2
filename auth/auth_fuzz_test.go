package auth

import (
	"context"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpwasm/mcpwasm/internal/urlx"
	"github.com/mcpwasm/mcpwasm/transport/fetch"
)

// FuzzParseChallenges: a WWW-Authenticate header from any server. Parsing
// never fails or panics, yields at most one challenge per byte, and every
// challenge has a token scheme and lower-case parameter names.
func FuzzParseChallenges(f *testing.F) {
	for _, s := range []string{
		`Bearer resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource", scope="a b"`,
		`Basic realm="x", Bearer error="insufficient_scope", DPoP algs="ES256"`,
		`Negotiate YWJj==, Bearer`, `Bearer realm="a\"b\\", , ,error=invalid_token`, `,,,`, `Bearer x="`, "Bearer \x00=1",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, h string) {
		cs := ParseChallenges(h, h)
		require.LessOrEqual(t, len(cs), 2*len(h)+2)
		for _, c := range cs {
			require.NotEmpty(t, c.Scheme)
			for i := 0; i < len(c.Scheme); i++ {
				require.True(t, isTChar(c.Scheme[i]), "scheme %q", c.Scheme)
			}
			for k := range c.Params {
				require.Equal(t, strings.ToLower(k), k)
				require.NotEmpty(t, k)
			}
		}
		_ = pickChallenge(cs) // choosing among them never panics either
	})
}

// FuzzTokenResponse: a token endpoint's 2xx body. A token is either refused
// with an error or has an access token, a known type and an expiry that is
// unset or within [now, now+maxTokenLifetime].
func FuzzTokenResponse(f *testing.F) {
	for _, s := range []string{
		`{"access_token":"a","token_type":"Bearer","expires_in":3600,"refresh_token":"r","scope":"x y"}`,
		`{"access_token":"a","token_type":"DPoP","expires_in":9.2e9}`, `{"access_token":"a","expires_in":"-1"}`,
		`{"access_token":"","token_type":"mac"}`, `[]`, `{"access_token":"a","token_type":"bearer","expires_in":1e400}`,
	} {
		f.Add([]byte(s))
	}
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	d := NewDoer(nil, &Options{Now: func() time.Time { return now }})
	f.Fuzz(func(t *testing.T, body []byte) {
		tok, err := d.parseToken(body, false)
		if err != nil {
			require.ErrorIs(t, err, ErrBadResponse)
			return
		}
		require.NotEmpty(t, tok.AccessToken)
		require.Equal(t, "Bearer", tok.Type)
		if !tok.Expiry.IsZero() {
			require.False(t, tok.Expiry.Before(now), "expiry %v before now", tok.Expiry)
			require.False(t, tok.Expiry.After(now.Add(maxTokenLifetime)), "expiry %v", tok.Expiry)
		}
	})
}

// fuzzDoer serves fixed bodies by URL and records the URLs asked for.
type fuzzDoer struct {
	mu    sync.Mutex
	pages map[string]string
	asked []string
}

func (c *fuzzDoer) Do(_ context.Context, r *fetch.Request) (*fetch.Response, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.asked = append(c.asked, r.URL)
	body, ok := c.pages[r.URL]
	status := 200
	if !ok {
		status = 404
	}
	return &fetch.Response{StatusCode: status, Header: fetch.Header{}, Body: io.NopCloser(strings.NewReader(body))}, nil
}

// FuzzDiscoveryDocuments: the protected resource metadata, authorization
// server metadata and registration response a server returns. Discovery
// and registration never panic; what they accept is consistent (the
// resource covers the request, the endpoints pass the URL guard, a
// registration has a client_id), and every URL requested passes the guard.
func FuzzDiscoveryDocuments(f *testing.F) {
	f.Add(`{"resource":"https://mcp.example.com/mcp","authorization_servers":["https://as.example.com"],"scopes_supported":["a"]}`,
		`{"issuer":"https://as.example.com","authorization_endpoint":"https://as.example.com/authorize","token_endpoint":"https://as.example.com/token","registration_endpoint":"https://as.example.com/register","code_challenge_methods_supported":["S256"]}`,
		`{"client_id":"c","client_secret":"s","client_secret_expires_at":99999999999,"redirect_uris":["http://127.0.0.1/callback"]}`)
	f.Add(`{"resource":"https://mcp.example.com","authorization_servers":["http://169.254.169.254"]}`,
		`{"issuer":"https://as.example.com","token_endpoint":"https://10.0.0.1/token"}`, `{"client_id":""}`)
	f.Add(`{"resource":"https://other.example.com/mcp","authorization_servers":[]}`, `null`, `[1,2]`)
	const target = "https://mcp.example.com/mcp"
	f.Fuzz(func(t *testing.T, prm, meta, reg string) {
		inner := &fuzzDoer{pages: map[string]string{
			"https://mcp.example.com/.well-known/oauth-protected-resource/mcp": prm,
			"https://as.example.com/.well-known/oauth-authorization-server":    meta,
			"https://as.example.com/register":                                  reg,
		}}
		d := NewDoer(inner, nil)
		tu, _ := urlx.Parse(target)
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		disc, err := d.discover(ctx, tu, oauthChallenge{}, false)
		if err == nil {
			require.True(t, coversURL(disc.covers, tu))
			require.NotEmpty(t, disc.meta.TokenEndpoint)
			for _, e := range []string{disc.meta.TokenEndpoint, disc.meta.AuthorizationEndpoint, disc.meta.RegistrationEndpoint} {
				if e != "" {
					_, err := d.checkEndpoint("endpoint", e, tu)
					require.NoError(t, err, e)
				}
			}
			if disc.meta.RegistrationEndpoint != "" {
				r, err := d.registerClient(ctx, disc.meta, "http://127.0.0.1/callback", disc.covers)
				if err == nil {
					require.NotEmpty(t, r.ClientID)
					require.NotEmpty(t, r.RedirectURIs)
				}
			}
		}
		inner.mu.Lock()
		defer inner.mu.Unlock()
		for _, a := range inner.asked {
			u, err := urlx.Parse(a)
			require.NoError(t, err)
			assert.NoError(t, d.checkURL("requested", u, tu), a)
		}
	})
}
