package auth

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpwasm/mcpwasm/internal/urlx"
	"github.com/mcpwasm/mcpwasm/transport/fetch"
)

func TestPKCE(t *testing.T) {
	cfg := newConfig(nil)
	// RFC 7636 Appendix B.
	assert.Equal(t, "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM", cfg.s256("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"))
	seen := map[string]bool{}
	for range 50 {
		v, c, err := cfg.pkce()
		require.NoError(t, err)
		require.Len(t, v, 43)
		for _, r := range v {
			require.True(t, strings.ContainsRune("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~", r), "verifier character %q", r)
		}
		require.Equal(t, cfg.s256(v), c)
		require.False(t, seen[v], "verifiers repeat")
		seen[v] = true
	}
}

// failingReader is a random source that fails.
type failingReader struct{}

func (failingReader) Read([]byte) (int, error) { return 0, errors.New("no entropy") }

// TestInjectedCrypto: Options.Random and Options.SHA256 are what the
// package uses, a failing random source fails the step that needs it, and
// a Doer without them (the GOOS=js build's defaults) fails with
// ErrNoCrypto before it sends anything.
func TestInjectedCrypto(t *testing.T) {
	calls := 0
	cfg := newConfig(&Options{
		Random: strings.NewReader(strings.Repeat("\x00", 64)),
		SHA256: func(b []byte) [32]byte { calls++; return [32]byte{1} },
	})
	v, c, err := cfg.pkce()
	require.NoError(t, err)
	assert.Equal(t, strings.Repeat("A", 43), v, "32 zero bytes from Options.Random")
	assert.Equal(t, "AQAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", c, "the challenge is Options.SHA256's")
	assert.Equal(t, 1, calls)

	_, _, err = newConfig(&Options{Random: failingReader{}}).pkce()
	require.ErrorContains(t, err, "no entropy")
	_, err = newConfig(&Options{Random: failingReader{}}).clientAssertion(context.Background(), nil, "c", "https://as.example", time.Now())
	require.ErrorContains(t, err, "no entropy")

	d := NewDoer(sentDoer{t}, nil)
	d.cfg.Random, d.cfg.SHA256 = nil, nil
	_, err = d.Do(context.Background(), &fetch.Request{Method: "GET", URL: "https://rs.example/mcp"})
	require.ErrorIs(t, err, ErrNoCrypto)
}

// sentDoer fails the test when a request reaches it.
type sentDoer struct{ t *testing.T }

func (d sentDoer) Do(context.Context, *fetch.Request) (*fetch.Response, error) {
	d.t.Error("a request was sent")
	return nil, errors.New("unexpected")
}

func TestThumbprint(t *testing.T) {
	// RFC 7638 §3.1.
	jwk := map[string]string{
		"kty": "RSA",
		"e":   "AQAB",
		"n": "0vx7agoebGcQSuuPiLJXZptN9nndrQmbXEps2aiAFbWhM78LhWx4cbbfAAtVT86zwu1RK7aPFFxuhDR1L6tSoc_BJECPebWKRXjBZCiFV4n3oknjhMstn6" +
			"4tZ_2W-5JsGY4Hc5n9yBXArwl93lqt7_RN5w6Cf0h4QyQ5v-65YGjQR0_FDW2QvzqY368QQMicAtaSqzs8KJZgnYb9c7d0zgdAZHzu6qMQvRL5hajrn1n9" +
			"1CbOpbISD08qNLyrdkt-bFTWhAI4vMQFh6WeZu0fM4lFd2NcRwr3XPksINHaQ-G_xBniIqbw0Ls1jF44-csFCur-kEgU8awapJzKnqDKgw",
	}
	assert.Equal(t, "NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs", newConfig(nil).thumbprint(jwk))
}

func TestCheckCallback(t *testing.T) {
	redirect, _ := urlx.Parse("http://127.0.0.1/callback")
	const issuer = "https://as.example/tenant"
	advertised := &asMetadata{IssParameterSupported: true}
	silent := &asMetadata{}
	tests := []struct {
		name     string
		callback string
		meta     *asMetadata
		wantCode string
		wantErr  error
		oauthErr string
	}{
		{"valid", "http://127.0.0.1/callback?code=c&state=S&iss=https%3A%2F%2Fas.example%2Ftenant", advertised, "c", nil, ""},
		{"any loopback port", "http://127.0.0.1:5555/callback?code=c&state=S", silent, "c", nil, ""},
		{"no iss, not advertised", "http://127.0.0.1/callback?code=c&state=S", silent, "c", nil, ""},
		{"state mismatch", "http://127.0.0.1/callback?code=c&state=T&iss=https%3A%2F%2Fas.example%2Ftenant", advertised, "", ErrStateMismatch, ""},
		{"state missing", "http://127.0.0.1/callback?code=c", silent, "", ErrStateMismatch, ""},
		{"iss mismatch", "http://127.0.0.1/callback?code=c&state=S&iss=https%3A%2F%2Fevil.example", advertised, "", ErrIssuerMismatch, ""},
		{"iss mismatch, not advertised", "http://127.0.0.1/callback?code=c&state=S&iss=https%3A%2F%2Fevil.example", silent, "", ErrIssuerMismatch, ""},
		{"iss with a trailing slash", "http://127.0.0.1/callback?code=c&state=S&iss=https%3A%2F%2Fas.example%2Ftenant%2F", advertised, "", ErrIssuerMismatch, ""},
		{"iss with another case", "http://127.0.0.1/callback?code=c&state=S&iss=https%3A%2F%2FAS.example%2Ftenant", advertised, "", ErrIssuerMismatch, ""},
		{"iss missing though advertised", "http://127.0.0.1/callback?code=c&state=S", advertised, "", ErrIssuerMissing, ""},
		{"error with the right iss", "http://127.0.0.1/callback?error=access_denied&state=S&iss=https%3A%2F%2Fas.example%2Ftenant", advertised, "", nil, "access_denied"},
		{"error with a wrong iss is not acted on", "http://127.0.0.1/callback?error=access_denied&state=S&iss=https%3A%2F%2Fevil.example", advertised, "", ErrIssuerMismatch, ""},
		{"not at the redirect URI", "http://127.0.0.1/elsewhere?code=c&state=S", silent, "", ErrRedirectMismatch, ""},
		{"another host", "http://evil.example/callback?code=c&state=S", silent, "", ErrRedirectMismatch, ""},
		{"no code", "http://127.0.0.1/callback?state=S", silent, "", ErrBadResponse, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, err := checkCallback(tt.callback, redirect, "S", tt.meta, issuer)
			switch {
			case tt.oauthErr != "":
				var oe *Error
				require.ErrorAs(t, err, &oe)
				assert.Equal(t, tt.oauthErr, oe.Code)
			case tt.wantErr != nil:
				assert.ErrorIs(t, err, tt.wantErr)
				assert.Empty(t, code)
			default:
				require.NoError(t, err)
				assert.Equal(t, tt.wantCode, code)
			}
		})
	}
}

func TestCoversURL(t *testing.T) {
	tests := []struct {
		resource, target string
		want             bool
	}{
		{"https://rs.example/mcp", "https://rs.example/mcp", true},
		{"https://rs.example/mcp", "https://rs.example/mcp/", true},
		{"https://rs.example/mcp", "https://rs.example/mcp/messages?x=1", true},
		{"https://rs.example/mcp/", "https://rs.example/mcp", true},
		{"https://rs.example", "https://rs.example/anything", true},
		{"https://RS.example:443/mcp", "https://rs.example/mcp", true},
		{"https://rs.example/mcp", "https://rs.example/mcpx", false},
		{"https://rs.example/mcp", "https://rs.example/other", false},
		{"https://rs.example/mcp", "http://rs.example/mcp", false},
		{"https://rs.example/mcp", "https://rs.example:8443/mcp", false},
		{"https://rs.example/mcp", "https://evil.example/mcp", false},
		{"https://rs.example/mcp", "https://rs.example.evil/mcp", false},
	}
	for _, tt := range tests {
		r, _ := urlx.Parse(tt.resource)
		u, _ := urlx.Parse(tt.target)
		assert.Equal(t, tt.want, coversURL(r, u), "%s covers %s", tt.resource, tt.target)
	}
}

func TestWellKnownOrder(t *testing.T) {
	u, _ := urlx.Parse("https://rs.example/public/mcp")
	assert.Equal(t, []string{
		"https://rs.example/.well-known/oauth-protected-resource/public/mcp",
		"https://rs.example/.well-known/oauth-protected-resource",
	}, wellKnownPRM(u))
	u, _ = urlx.Parse("https://rs.example/")
	assert.Equal(t, []string{"https://rs.example/.well-known/oauth-protected-resource"}, wellKnownPRM(u))
	u, _ = urlx.Parse("https://as.example/tenant1")
	assert.Equal(t, []string{
		"https://as.example/.well-known/oauth-authorization-server/tenant1",
		"https://as.example/.well-known/openid-configuration/tenant1",
		"https://as.example/tenant1/.well-known/openid-configuration",
	}, wellKnownAS(u))
	u, _ = urlx.Parse("https://as.example")
	assert.Equal(t, []string{
		"https://as.example/.well-known/oauth-authorization-server",
		"https://as.example/.well-known/openid-configuration",
	}, wellKnownAS(u))
}

func TestIssuerMatches(t *testing.T) {
	assert.True(t, issuerMatches("https://as.example", "https://as.example"))
	assert.True(t, issuerMatches("https://as.example/", "https://as.example"))
	assert.True(t, issuerMatches("https://as.example/t", "https://as.example/t"))
	assert.False(t, issuerMatches("https://as.example/t/", "https://as.example/t"))
	assert.False(t, issuerMatches("https://attacker.example", "https://as.example"))
}

func TestChooseAuthMethod(t *testing.T) {
	tests := []struct {
		supported      []string
		secret, signer bool
		want           string
		comment        string
	}{
		{nil, true, false, AuthMethodBasic, "RFC 8414 default"},
		{nil, false, false, AuthMethodNone, "a public client"},
		{[]string{"client_secret_post"}, true, false, AuthMethodPost, ""},
		{[]string{"none", "client_secret_basic"}, true, false, AuthMethodBasic, "a secret is used when supported"},
		{[]string{"none"}, true, false, AuthMethodNone, ""},
		{[]string{"private_key_jwt"}, false, true, AuthMethodJWT, ""},
		{[]string{"client_secret_basic", "private_key_jwt"}, false, true, AuthMethodJWT, ""},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, chooseAuthMethod(tt.supported, tt.secret, tt.signer), "%v secret=%v signer=%v %s", tt.supported, tt.secret, tt.signer, tt.comment)
	}
}

func TestOAuthError(t *testing.T) {
	err := oauthError([]byte(`{"error":"invalid_client","error_description":"bad"}`), 401, "token")
	var oe *Error
	require.ErrorAs(t, err, &oe)
	assert.Equal(t, "invalid_client", oe.Code)
	assert.Equal(t, 401, oe.StatusCode)
	err = oauthError([]byte("<html>oops</html>"), 500, "token")
	assert.True(t, errors.Is(err, ErrBadResponse))
	assert.Contains(t, err.Error(), "HTTP 500")
}
