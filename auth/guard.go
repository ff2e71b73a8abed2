package auth

import (
	"context"
	"strconv"
	"strings"

	"github.com/mcpwasm/mcpwasm/internal/errf"
	"github.com/mcpwasm/mcpwasm/internal/urlx"
	"github.com/mcpwasm/mcpwasm/transport/fetch"
)

// The URL guard. Discovery fetches URLs a server names — resource_metadata
// from a WWW-Authenticate challenge, authorization_servers, the metadata's
// authorization, token and registration endpoints, and every redirect on
// the way — so a hostile or compromised server could point the client at
// plain HTTP, at its own machine, or at the network it runs in (a cloud
// metadata service at 169.254.169.254, a router's admin page). The rules,
// on by default in every build:
//
//   - https only; plain http only for a loopback host when the protected
//     resource itself is on a loopback host (a developer's local server);
//   - a loopback, private (RFC 1918, RFC 4193, 100.64/10) or link-local
//     address only when the protected resource is in that same class;
//   - never an unspecified, multicast or broadcast address.
//
// The protected resource is the URL the application asked for, so its own
// address is trusted. Hosts are classified from the URL: IP literals
// (including the WHATWG forms browsers accept, like http://2130706433/),
// localhost and *.localhost. A DNS name is not resolved here (the fetch
// goes through a pluggable Doer, and browsers give no DNS access); a name
// that resolves to a private address is not caught.
// Options.AllowPrivateAddresses and Options.AllowInsecureHTTP relax the
// rules for tests and development.

type addrClass uint8

const (
	classPublic addrClass = iota
	classLoopback
	classPrivate
	classLinkLocal
	classForbidden
)

// classNames names the classes in messages.
var classNames = [...]string{"public", "loopback", "private", "link-local", "unspecified, multicast or broadcast"}

// ipAddr is an IP address as the guard sees it: net/netip.ParseAddr's
// address after Unmap, without net/netip (its zones would link package
// unique into the WebAssembly modules).
type ipAddr struct {
	b    [16]byte // b[12:] is the IPv4 address when v4
	v4   bool     // an IPv4 address, or an IPv4-mapped IPv6 one (unmapped)
	zone bool     // an IPv6 address with a zone
}

// parseAddr parses an IP address as netip.ParseAddr does, unmapped.
func parseAddr(h string) (a ipAddr, ok bool) {
	ip, err := urlx.ParseIP(h)
	if err != nil {
		return a, false
	}
	a.b, a.zone = ip.Bytes, ip.Zone
	if [12]byte(a.b[:12]) == [12]byte{10: 0xff, 11: 0xff} {
		a.v4, a.zone = true, false
	}
	return a, true
}

// loopback reports 127.0.0.0/8 and ::1.
func (a *ipAddr) loopback() bool {
	if a.v4 {
		return a.b[12] == 127
	}
	return a.b == [16]byte{15: 1}
}

// hostClass classifies the host of u.
func hostClass(u *urlx.URL) addrClass {
	h := strings.ToLower(trimByte(u.Hostname(), '.'))
	if h == "localhost" || strings.HasSuffix(h, ".localhost") {
		return classLoopback
	}
	a, ok := parseAddr(h)
	valid := true
	if !ok {
		var v4 [4]byte
		if v4, valid, ok = whatwgIPv4(h); !ok {
			return classPublic
		}
		a = ipAddr{v4: true}
		copy(a.b[12:], v4[:])
	}
	// The well-known NAT64 prefix 64:ff9b::/96 (RFC 6052) reaches the IPv4
	// address in the last 4 bytes.
	if !a.v4 && !a.zone && [12]byte(a.b[:12]) == [12]byte{1: 0x64, 2: 0xff, 3: 0x9b} {
		a.v4 = true
	}
	v := a.b[12:]
	switch {
	case !valid:
		return classForbidden
	case a.loopback():
		return classLoopback
	case a.v4 && (v[0] == 0 || v[0]&0xf0 == 0xe0 || [4]byte(v) == [4]byte{255, 255, 255, 255}),
		!a.v4 && (a.b[0] == 0xff || !a.zone && a.b == [16]byte{}):
		// Unspecified, multicast, broadcast, "this network".
		return classForbidden
	case a.v4 && v[0] == 169 && v[1] == 254, !a.v4 && a.b[0] == 0xfe && a.b[1]&0xc0 == 0x80:
		return classLinkLocal
	case a.v4 && (v[0] == 10 || v[0] == 172 && v[1]&0xf0 == 16 || v[0] == 192 && v[1] == 168 || v[0] == 100 && v[1]&0xc0 == 64),
		!a.v4 && a.b[0]&0xfe == 0xfc:
		return classPrivate
	}
	return classPublic
}

// whatwgIPv4 parses the IPv4 forms the WHATWG URL parser accepts when a
// host's last label is numeric (decimal, 0x hex or 0-prefixed octal parts,
// 1 to 4 of them). A host whose last label is numeric but which does not
// parse is returned with valid false and ok true: browsers refuse it.
func whatwgIPv4(h string) (v4 [4]byte, valid, ok bool) {
	parts := strings.Split(h, ".")
	last := parts[len(parts)-1]
	if last == "" || !(allIn(last, "0123456789") || strings.HasPrefix(last, "0x") && allIn(last[2:], "0123456789abcdef")) {
		return v4, false, false
	}
	if len(parts) > 4 {
		return v4, false, true
	}
	var n [4]uint64
	for i, p := range parts {
		base := 10
		switch {
		case strings.HasPrefix(p, "0x"):
			base, p = 16, p[2:]
			if p == "" {
				p = "0"
			}
		case len(p) > 1 && p[0] == '0':
			base, p = 8, p[1:]
		}
		v, err := strconv.ParseUint(p, base, 32)
		if err != nil {
			return v4, false, true
		}
		n[i] = v
	}
	k := len(parts)
	v := n[k-1]
	if v >= 1<<(8*(5-k)) {
		return v4, false, true
	}
	for i, p := range n[:k-1] {
		if p > 255 {
			return v4, false, true
		}
		v |= p << (8 * (3 - i))
	}
	return [4]byte{byte(v >> 24), byte(v >> 16), byte(v >> 8), byte(v)}, true, true
}

// trimByte is strings.TrimSuffix for a one-byte suffix.
func trimByte(s string, c byte) string {
	if s != "" && s[len(s)-1] == c {
		return s[:len(s)-1]
	}
	return s
}

// allIn reports whether every byte of s is in set.
func allIn(s, set string) bool {
	for i := 0; i < len(s); i++ {
		if strings.IndexByte(set, s[i]) < 0 {
			return false
		}
	}
	return true
}

// checkURL applies the guard to u, a URL a server named (what says which),
// for requests on behalf of the protected resource at resource.
func (d *Doer) checkURL(what string, u, resource *urlx.URL) error {
	if u.Host == "" || (u.Scheme != "https" && u.Scheme != "http") {
		return failf(ErrMetadata, "%w: %s %q is not an absolute http(s) URL", what, redact(u.String()))
	}
	tc, rc := hostClass(u), hostClass(resource)
	if tc == classForbidden || (tc != classPublic && tc != rc && !d.cfg.AllowPrivateAddresses) {
		return failf(ErrUnsafeURL, "%w: %s %s is a %s address and the protected resource %s is not", what, redact(u.String()), classNames[tc], origin(resource))
	}
	if u.Scheme == "http" && !d.cfg.AllowInsecureHTTP &&
		!(tc == classLoopback && (rc == classLoopback || d.cfg.AllowPrivateAddresses)) {
		return failf(ErrInsecureEndpoint, "%w: %s %s", what, redact(u.String()))
	}
	return nil
}

// maxGuardedRedirects bounds the redirects followed by guardedDo.
const maxGuardedRedirects = 5

// guardedDo sends a request to a URL a server named (discovery documents,
// registration and token requests): the guard checks the URL and every
// redirect, which guardedDo follows itself. Where the platform hides
// redirects (a browser's opaque redirect, status 0) it lets the platform
// follow them: the browser then applies its own network rules.
func (d *Doer) guardedDo(ctx context.Context, what string, req *fetch.Request, resource *urlx.URL) (*fetch.Response, error) {
	cur := *req
	for hop := 0; ; hop++ {
		u, err := urlx.Parse(cur.URL)
		if err != nil {
			return nil, errf.Errorf("%w: %s %q: %v", ErrMetadata, what, redact(cur.URL), err)
		}
		if err := d.checkURL(what, u, resource); err != nil {
			return nil, err
		}
		out := cur
		out.NoRedirect = true
		resp, err := d.inner.Do(ctx, &out)
		if err != nil {
			return nil, err
		}
		if resp.StatusCode == 0 {
			// An opaque redirect: the browser follows it, forwarding every
			// header but Authorization. A DPoP proof (bound to this URL)
			// stays behind.
			drain(resp)
			out.NoRedirect = false
			if hget(out.Header, "dpop") != "" {
				out.Header = out.Header.Clone()
				delete(out.Header, "dpop")
			}
			return d.inner.Do(ctx, &out)
		}
		loc := hget(resp.Header, "location")
		if !isRedirect(resp.StatusCode) || loc == "" {
			return resp, nil
		}
		drain(resp)
		if hop >= maxGuardedRedirects {
			return nil, failf(ErrBadResponse, "%w: %s %s: too many redirects", what, redact(req.URL))
		}
		next, err := u.Parse(loc)
		if err != nil {
			return nil, failf(ErrBadResponse, "%w: %s %s redirected to an invalid Location", what, redact(cur.URL))
		}
		d.cfg.logs("auth: %s redirected to %s", what, redact(next.String()))
		// Client credentials and proofs stay with the origin they were for.
		redirected(&cur, resp.StatusCode, u, next)
	}
}
