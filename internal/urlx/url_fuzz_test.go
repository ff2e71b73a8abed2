package urlx

import (
	"net/url"
	"strings"
	"testing"
)

// seeds are URLs and references of the shapes auth and the transports
// meet (and their usual tricks).
var seeds = []string{
	"https://mcp.example.com/mcp",
	"https://mcp.example.com:443/mcp?x=1#f",
	"http://127.0.0.1:8080/",
	"http://[::1]:3000/cb?code=a&state=b",
	"http://[fe80::1%25en0]:80/",
	"http://[fe80::1%25%65n0]/",
	"https://user:p@ss@evil.example@good.example/",
	"https://good.example\\@evil.example/",
	"https://ex%61mple.com/",
	"https://%E4%BE%8B.example/",
	"HTTPS://EXAMPLE.COM/A/./b/../c",
	"https://example.com",
	"https://example.com?",
	"https://example.com/%2F%2f/a b",
	"/.well-known/oauth-protected-resource/mcp",
	"../x?y#z",
	"./a:b",
	"a:b",
	"//host/p",
	"///p",
	"?q",
	"#f",
	"",
	"*",
	"mailto:x@y",
	"https://h:1:2/",
	"ws://h:1:2/",
	"http://[1.2.3.4]/",
	"http://[::ffff:1.2.3.4]/",
	"https://a.example/p;x=1,2?a=1&a=2&b=%20+c;d#frag%20x",
	"https://h/%zz",
	"https://h/#%zz",
	"http://h:port/",
	"http://a@b@c/",
	"http://%41:%42@h/",
	"http://h/\x7f",
	"http:/p",
	"http:p",
	"https://h/a/b/c/./../../g",
	"g;x?y#s",
}

// refs are references resolved against each base in FuzzURLParse.
var refs = []string{"", ".", "..", "../..", "/a", "b/c", "?q", "#f", "//other/x", "https://x/./y", "g/../../h/.", "%2e%2e/x"}

// FuzzURLParse checks Parse, String, EscapedPath, Hostname, Port, Query,
// ResolveReference and Values.Encode against net/url: the same inputs
// accepted (with the same error text, less net/url's prefix), the same
// components and strings.
func FuzzURLParse(f *testing.F) {
	for _, s := range seeds {
		f.Add(s, "../x")
	}
	f.Fuzz(func(t *testing.T, raw, ref string) {
		compare(t, raw)
		compare(t, ref)
		b, err := Parse(raw)
		nb, nerr := url.Parse(raw)
		if err != nil || nerr != nil {
			return
		}
		for _, r := range append([]string{ref}, refs...) {
			got, err := b.Parse(r)
			want, nerr := nb.Parse(r)
			if (err == nil) != (nerr == nil) {
				t.Fatalf("%q.Parse(%q): error %v, net/url %v", raw, r, err, nerr)
			}
			if err == nil {
				same(t, raw+" + "+r, got, want)
			}
		}
		q, qerr := ParseQuery(b.RawQuery)
		nq, nqerr := url.ParseQuery(nb.RawQuery)
		if (qerr == nil) != (nqerr == nil) || len(q) != len(nq) {
			t.Fatalf("ParseQuery(%q): %v %v, net/url %v %v", b.RawQuery, q, qerr, nq, nqerr)
		}
		if q.Encode() != nq.Encode() {
			t.Fatalf("Encode of %q: %q, net/url %q", b.RawQuery, q.Encode(), nq.Encode())
		}
		if QueryEscape(raw) != url.QueryEscape(raw) || PathEscape(raw) != url.PathEscape(raw) {
			t.Fatalf("escapes of %q differ", raw)
		}
	})
}

func compare(t *testing.T, raw string) {
	t.Helper()
	got, err := Parse(raw)
	want, nerr := url.Parse(raw)
	if (err == nil) != (nerr == nil) {
		t.Fatalf("Parse(%q): error %v, net/url %v", raw, err, nerr)
	}
	if err != nil {
		if g, w := err.Error(), strings.ReplaceAll(nerr.Error(), "net/url: ", ""); g != w {
			t.Fatalf("Parse(%q): error %q, net/url %q", raw, g, w)
		}
		return
	}
	same(t, raw, got, want)
	// What String gives parses back to the same string.
	again, err := Parse(got.String())
	nagain, nerr := url.Parse(want.String())
	if (err == nil) != (nerr == nil) {
		t.Fatalf("Parse(String(%q)): error %v, net/url %v", raw, err, nerr)
	}
	if err == nil {
		same(t, "String of "+raw, again, nagain)
	}
}

func same(t *testing.T, what string, got *URL, want *url.URL) {
	t.Helper()
	type parts struct {
		Scheme, Opaque, User, Host, Path, RawPath, RawQuery, Fragment, RawFragment string
		ForceQuery, OmitHost, HasUser                                              bool
		String, EscapedPath, EscapedFragment, Hostname, Port, Query, User2         string
	}
	pass, set := got.User.Password()
	npass, nset := want.User.Password()
	g := parts{got.Scheme, got.Opaque, got.User.Username(), got.Host, got.Path, got.RawPath, got.RawQuery, got.Fragment, got.RawFragment,
		got.ForceQuery, got.OmitHost, got.User != nil,
		got.String(), got.EscapedPath(), got.EscapedFragment(), got.Hostname(), got.Port(), got.Query().Encode(), got.User.String()}
	w := parts{want.Scheme, want.Opaque, want.User.Username(), want.Host, want.Path, want.RawPath, want.RawQuery, want.Fragment, want.RawFragment,
		want.ForceQuery, want.OmitHost, want.User != nil,
		want.String(), want.EscapedPath(), want.EscapedFragment(), want.Hostname(), want.Port(), want.Query().Encode(), want.User.String()}
	if g != w || pass != npass || set != nset {
		t.Fatalf("%q:\n got %+v (password %q %v)\nwant %+v (password %q %v)", what, g, pass, set, w, npass, nset)
	}
}

// TestSeedsAgainstNetURL runs the fuzz comparison on the seeds and every
// pair of them (quick, in every go test run).
func TestSeedsAgainstNetURL(t *testing.T) {
	for _, s := range seeds {
		t.Run(s, func(t *testing.T) {
			compare(t, s)
			b, err := Parse(s)
			nb, nerr := url.Parse(s)
			if err != nil || nerr != nil {
				return
			}
			for _, r := range append(refs, seeds...) {
				got, err := b.Parse(r)
				want, nerr := nb.Parse(r)
				if (err == nil) != (nerr == nil) {
					t.Fatalf("Parse(%q): error %v, net/url %v", r, err, nerr)
				}
				if err == nil {
					same(t, s+" + "+r, got, want)
				}
			}
		})
	}
}
