package urlx

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestParseEdgeCases pins the answers auth's checks depend on: where the
// host is, what its port is, and what is refused.
func TestParseEdgeCases(t *testing.T) {
	tests := []struct {
		name, raw                       string
		err                             string // substring; "" = accepted
		scheme, host, hostname, port    string
		user, path, escapedPath, string string
	}{
		{name: "host after the last @", raw: "https://a@evil.example@good.example/p", scheme: "https", host: "good.example", hostname: "good.example", user: "a@evil.example", path: "/p", escapedPath: "/p", string: "https://a%40evil.example@good.example/p"},
		{name: "backslash is not a separator", raw: "https://good.example\\@evil.example/", err: "invalid userinfo"},
		{name: "backslash in host", raw: "https://evil.example\\.good.example/", err: `invalid character "\\" in host name`},
		{name: "percent-encoded ASCII in host", raw: "https://ex%61mple.com/", err: `invalid URL escape "%61"`},
		{name: "percent-encoded non-ASCII in host", raw: "https://%E4%BE%8B.example/", scheme: "https", host: "\u4f8b.example", hostname: "\u4f8b.example", path: "/", escapedPath: "/", string: "https://%E4%BE%8B.example/"},
		{name: "IPv6 with port", raw: "http://[::1]:8080/cb", scheme: "http", host: "[::1]:8080", hostname: "::1", port: "8080", path: "/cb", escapedPath: "/cb", string: "http://[::1]:8080/cb"},
		{name: "IPv6 zone", raw: "http://[fe80::1%25en0]/", scheme: "http", host: "[fe80::1%en0]", hostname: "fe80::1%en0", path: "/", escapedPath: "/", string: "http://[fe80::1%25en0]/"},
		{name: "zone escapes only host bytes", raw: "http://[fe80::1%25%2Fx]/", err: `invalid URL escape "%2F"`},
		{name: "IPv4 in brackets", raw: "http://[127.0.0.1]/", err: "invalid IP-literal"},
		{name: "not an address in brackets", raw: "http://[evil.example]/", err: "invalid host"},
		{name: "default port kept", raw: "https://h.example:443", scheme: "https", host: "h.example:443", hostname: "h.example", port: "443", string: "https://h.example:443"},
		{name: "empty port", raw: "https://h.example:/", scheme: "https", host: "h.example:", hostname: "h.example", path: "/", escapedPath: "/", string: "https://h.example:/"},
		{name: "non-numeric port", raw: "https://h.example:x/", err: `invalid port ":x" after host`},
		{name: "two colons in an https host", raw: "https://a:1:2/", err: `invalid port ":1:2" after host`},
		{name: "scheme and host case", raw: "HTTPS://H.Example/A", scheme: "https", host: "H.Example", hostname: "H.Example", path: "/A", escapedPath: "/A", string: "https://H.Example/A"},
		{name: "no path", raw: "https://h.example", scheme: "https", host: "h.example", hostname: "h.example", string: "https://h.example"},
		{name: "dot segments kept by Parse", raw: "https://h/a/./b/../c", scheme: "https", host: "h", hostname: "h", path: "/a/./b/../c", escapedPath: "/a/./b/../c", string: "https://h/a/./b/../c"},
		{name: "encoded slash kept", raw: "https://h/a%2Fb", scheme: "https", host: "h", hostname: "h", path: "/a/b", escapedPath: "/a%2Fb", string: "https://h/a%2Fb"},
		{name: "control character", raw: "https://h/\n", err: "invalid control character in URL"},
		{name: "colon in first relative segment", raw: "a:b/c", scheme: "a"},
		{name: "missing scheme", raw: ":x", err: "missing protocol scheme"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			u, err := Parse(tc.raw)
			if tc.err != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tc.err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.scheme, u.Scheme)
			if tc.string == "" {
				return
			}
			assert.Equal(t, tc.host, u.Host)
			assert.Equal(t, tc.hostname, u.Hostname())
			assert.Equal(t, tc.port, u.Port())
			assert.Equal(t, tc.user, u.User.Username())
			assert.Equal(t, tc.path, u.Path)
			assert.Equal(t, tc.escapedPath, u.EscapedPath())
			assert.Equal(t, tc.string, u.String())
		})
	}
}

// TestResolve covers RFC 3986 §5.4's examples.
func TestResolve(t *testing.T) {
	base, err := Parse("http://a/b/c/d;p?q")
	require.NoError(t, err)
	for ref, want := range map[string]string{
		"g:h": "g:h", "g": "http://a/b/c/g", "./g": "http://a/b/c/g", "g/": "http://a/b/c/g/",
		"/g": "http://a/g", "//g": "http://g", "?y": "http://a/b/c/d;p?y", "g?y": "http://a/b/c/g?y",
		"#s": "http://a/b/c/d;p?q#s", "g#s": "http://a/b/c/g#s", ";x": "http://a/b/c/;x", "": "http://a/b/c/d;p?q",
		".": "http://a/b/c/", "..": "http://a/b/", "../g": "http://a/b/g", "../..": "http://a/",
		"../../../g": "http://a/g", "/./g": "http://a/g", "g.": "http://a/b/c/g.", "./../g": "http://a/b/g",
		"g;x=1/../y": "http://a/b/c/y",
	} {
		t.Run(ref, func(t *testing.T) {
			u, err := base.Parse(ref)
			require.NoError(t, err)
			assert.Equal(t, want, u.String())
		})
	}
}

// TestValues covers form encoding as token requests use it.
func TestValues(t *testing.T) {
	v := Values{"b": {"x y", "1&2"}, "a": {"é/?"}}
	v.Set("c", "")
	assert.Equal(t, "a=%C3%A9%2F%3F&b=x+y&b=1%262&c=", v.Encode())
	q, err := ParseQuery("code=a%20b&state=s+t&iss=https%3A%2F%2Fas&x;y=1&e")
	assert.EqualError(t, err, "invalid semicolon separator in query")
	assert.Equal(t, Values{"code": {"a b"}, "state": {"s t"}, "iss": {"https://as"}, "e": {""}}, q)
	assert.True(t, q.Has("e"))
	assert.Equal(t, "a%3Ab:c%40d", QueryEscape("a:b")+":"+QueryEscape("c@d"))
	assert.Equal(t, "a%2Fb%3Bc", PathEscape("a/b;c"))
}
