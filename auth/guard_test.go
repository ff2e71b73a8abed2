package auth_test

import (
	"context"
	"io"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpwasm/mcpwasm/auth"
	"github.com/mcpwasm/mcpwasm/transport/fetch"
)

// cannedDoer answers from a table of URL → response and records every URL
// asked for: what would have gone over the wire.
type cannedDoer struct {
	mu    sync.Mutex
	pages map[string]canned
	asked []string
}

type canned struct {
	status int
	header fetch.Header
	body   string
}

func (c *cannedDoer) Do(_ context.Context, r *fetch.Request) (*fetch.Response, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.asked = append(c.asked, r.URL)
	p, ok := c.pages[r.URL]
	if !ok {
		p = canned{status: 404}
	}
	h := fetch.Header{}
	for k, v := range p.header {
		h[k] = v
	}
	return &fetch.Response{StatusCode: p.status, Header: h, Body: io.NopCloser(strings.NewReader(p.body))}, nil
}

func (c *cannedDoer) requested() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]string(nil), c.asked...)
}

// hostileSite is a protected resource at base+"/mcp" that refuses every
// request with a challenge naming prm, and whose metadata documents are
// given by docs (URL → JSON).
func hostileSite(base, prm string, docs map[string]string) *cannedDoer {
	c := &cannedDoer{pages: map[string]canned{
		base + "/mcp": {status: 401, header: fetch.Header{"www-authenticate": {`Bearer resource_metadata="` + prm + `"`}}},
	}}
	for u, doc := range docs {
		if strings.HasPrefix(doc, "->") {
			c.pages[u] = canned{status: 302, header: fetch.Header{"location": {strings.TrimPrefix(doc, "->")}}}
			continue
		}
		c.pages[u] = canned{status: 200, header: fetch.Header{"content-type": {"application/json"}}, body: doc}
	}
	return c
}

func asDoc(issuer, endpoints string) string {
	return `{"issuer":"` + issuer + `","code_challenge_methods_supported":["S256"],` + endpoints + `}`
}

// Discovery fetches only URLs the guard allows: https, and loopback,
// private or link-local addresses only when the protected resource is in
// the same class. A refused URL is never requested.
func TestDiscoveryFetchesOnlySafeURLs(t *testing.T) {
	const pub = "https://mcp.example.com"
	prmOK := `{"resource":"` + pub + `/mcp","authorization_servers":["https://as.example.com"]}`
	asOK := asDoc("https://as.example.com", `"authorization_endpoint":"https://as.example.com/authorize","token_endpoint":"https://as.example.com/token"`)
	for _, tc := range []struct {
		name      string
		base, prm string
		docs      map[string]string
		opts      auth.Options
		want      error  // nil: discovery gets as far as the token request
		neverAsks string // a URL that must not be requested
	}{
		{name: "resource_metadata on the cloud metadata address", base: pub, prm: "http://169.254.169.254/latest/meta-data",
			want: auth.ErrUnsafeURL, neverAsks: "http://169.254.169.254/latest/meta-data"},
		{name: "resource_metadata on loopback for a public resource", base: pub, prm: "https://127.0.0.1:8443/prm",
			want: auth.ErrUnsafeURL, neverAsks: "https://127.0.0.1:8443/prm"},
		{name: "resource_metadata in WHATWG decimal form", base: pub, prm: "https://2130706433/prm",
			want: auth.ErrUnsafeURL, neverAsks: "https://2130706433/prm"},
		{name: "resource_metadata over plain http", base: pub, prm: "http://meta.example.com/prm",
			want: auth.ErrInsecureEndpoint, neverAsks: "http://meta.example.com/prm"},
		{name: "well-known metadata redirected to a private address", base: pub, prm: pub + "/.well-known/oauth-protected-resource/mcp",
			docs:      map[string]string{pub + "/.well-known/oauth-protected-resource/mcp": "->https://10.0.0.7/prm"},
			want:      auth.ErrUnsafeURL,
			neverAsks: "https://10.0.0.7/prm"},
		{name: "authorization server on a private address", base: pub, prm: pub + "/prm",
			docs: map[string]string{pub + "/prm": `{"resource":"` + pub + `/mcp","authorization_servers":["https://192.168.1.1"]}`},
			want: auth.ErrUnsafeURL, neverAsks: "https://192.168.1.1/.well-known/oauth-authorization-server"},
		{name: "token endpoint on IPv6 link-local", base: pub, prm: pub + "/prm",
			docs: map[string]string{pub + "/prm": prmOK, "https://as.example.com/.well-known/oauth-authorization-server": asDoc("https://as.example.com",
				`"authorization_endpoint":"https://as.example.com/authorize","token_endpoint":"https://[fe80::1]/token"`)},
			want: auth.ErrUnsafeURL, neverAsks: "https://[fe80::1]/token"},
		{name: "registration endpoint on 0.0.0.0 even for a loopback resource", base: "http://127.0.0.1:9", prm: "http://127.0.0.1:9/prm",
			docs: map[string]string{"http://127.0.0.1:9/prm": `{"resource":"http://127.0.0.1:9/mcp","authorization_servers":["http://localhost:10"]}`,
				"http://localhost:10/.well-known/oauth-authorization-server": asDoc("http://localhost:10",
					`"authorization_endpoint":"http://localhost:10/a","token_endpoint":"http://localhost:10/t","registration_endpoint":"http://0.0.0.0:10/r"`)},
			want: auth.ErrUnsafeURL},
		{name: "loopback resource, loopback metadata over http (a developer's server)", base: "http://localhost:9", prm: "http://127.0.0.1:9/prm",
			docs: map[string]string{"http://127.0.0.1:9/prm": `{"resource":"http://localhost:9/mcp","authorization_servers":["http://[::1]:10"]}`,
				"http://[::1]:10/.well-known/oauth-authorization-server": asDoc("http://[::1]:10", `"authorization_endpoint":"http://[::1]:10/a","token_endpoint":"http://[::1]:10/t"`)}},
		{name: "private resource, private metadata", base: "https://10.1.2.3", prm: "https://10.9.9.9/prm",
			docs: map[string]string{"https://10.9.9.9/prm": `{"resource":"https://10.1.2.3/mcp","authorization_servers":["https://as.example.com"]}`,
				"https://as.example.com/.well-known/oauth-authorization-server": asOK}},
		{name: "relaxed for tests", base: pub, prm: "http://169.254.169.254/prm", opts: auth.Options{AllowPrivateAddresses: true, AllowInsecureHTTP: true},
			docs: map[string]string{"http://169.254.169.254/prm": prmOK, "https://as.example.com/.well-known/oauth-authorization-server": asOK}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			site := hostileSite(tc.base, tc.prm, tc.docs)
			opts := tc.opts
			opts.Grant = auth.GrantClientCredentials
			opts.Client = &auth.Client{ID: "c", Secret: "s"}
			d := auth.NewDoer(site, &opts)
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			_, err := d.Do(ctx, &fetch.Request{Method: "GET", URL: tc.base + "/mcp"})
			require.Error(t, err)
			if tc.want != nil {
				assert.ErrorIs(t, err, tc.want)
			} else {
				// Allowed all the way: the token request was made (and got a 404).
				assert.NotErrorIs(t, err, auth.ErrUnsafeURL)
				assert.NotErrorIs(t, err, auth.ErrInsecureEndpoint)
				asked := site.requested()
				assert.True(t, strings.HasSuffix(asked[len(asked)-1], "/t") || strings.HasSuffix(asked[len(asked)-1], "/token"), "last request %v", asked)
			}
			if tc.neverAsks != "" {
				assert.NotContains(t, site.requested(), tc.neverAsks)
			}
			for _, u := range site.requested() {
				parsed, err := url.Parse(u)
				require.NoError(t, err)
				assert.NotEqual(t, "0.0.0.0", parsed.Hostname())
			}
		})
	}
}
