package auth

import (
	"net/netip"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpwasm/mcpwasm/internal/urlx"
)

func TestHostClass(t *testing.T) {
	for _, tc := range []struct {
		url  string
		want addrClass
	}{
		{"https://example.com", classPublic},
		{"https://8.8.8.8", classPublic},
		{"https://[2001:db8::1]", classPublic},
		{"http://localhost:3000", classLoopback},
		{"http://LOCALHOST.", classLoopback},
		{"http://app.localhost", classLoopback},
		{"http://127.0.0.1", classLoopback},
		{"http://127.1.2.3", classLoopback},
		{"http://[::1]:8080", classLoopback},
		{"http://[::ffff:127.0.0.1]", classLoopback},
		{"http://2130706433", classLoopback}, // WHATWG: 127.0.0.1
		{"http://0x7f.1", classLoopback},     // WHATWG: 127.0.0.1
		{"http://0177.0.0.1", classLoopback}, // WHATWG octal: 127.0.0.1
		{"http://10.0.0.1", classPrivate},
		{"http://172.16.5.4", classPrivate},
		{"http://192.168.1.1", classPrivate},
		{"http://100.64.0.1", classPrivate},
		{"http://[fd00::1]", classPrivate},
		{"http://169.254.169.254", classLinkLocal},
		{"http://0xa9fea9fe", classLinkLocal}, // WHATWG: 169.254.169.254
		{"http://[fe80::1]", classLinkLocal},
		{"http://[64:ff9b::a9fe:a9fe]", classLinkLocal}, // NAT64 of 169.254.169.254
		{"http://[64:ff9b::808:808]", classPublic},
		{"http://0.0.0.0", classForbidden},
		{"http://0", classForbidden},
		{"http://[::]", classForbidden},
		{"http://224.0.0.1", classForbidden},
		{"http://255.255.255.255", classForbidden},
		{"http://1.2.3.4.5", classForbidden}, // numeric last label, not an address: browsers refuse it
		{"http://256.0.0.1", classForbidden},
		{"http://host.123abc", classPublic},
	} {
		u, err := urlx.Parse(tc.url)
		require.NoError(t, err)
		assert.Equal(t, classNames[tc.want], classNames[hostClass(u)], tc.url)
	}
}

// hostClassNetip is hostClass written with net/netip, as it was before
// netip was dropped from the WebAssembly modules.
func hostClassNetip(u *urlx.URL) addrClass {
	h := strings.ToLower(strings.TrimSuffix(u.Hostname(), "."))
	if h == "localhost" || strings.HasSuffix(h, ".localhost") {
		return classLoopback
	}
	a, err := netip.ParseAddr(h)
	if err != nil {
		v4, valid, ok := whatwgIPv4(h)
		if !ok {
			return classPublic
		}
		if a = netip.AddrFrom4(v4); !valid {
			a = netip.Addr{}
		}
	}
	a = a.Unmap()
	if netip.PrefixFrom(netip.AddrFrom16([16]byte{0, 0x64, 0xff, 0x9b}), 96).Contains(a) {
		b := a.As16()
		a = netip.AddrFrom4([4]byte(b[12:]))
	}
	switch {
	case !a.IsValid():
		return classForbidden
	case a.IsLoopback():
		return classLoopback
	case a.IsUnspecified(), a.IsMulticast(), a == netip.AddrFrom4([4]byte{255, 255, 255, 255}),
		a.Is4() && a.As4()[0] == 0:
		return classForbidden
	case a.IsLinkLocalUnicast():
		return classLinkLocal
	case a.IsPrivate(), a.Is4() && a.As4()[0] == 100 && a.As4()[1]&0xc0 == 64:
		return classPrivate
	}
	return classPublic
}

var classSamples = []string{
	"example.com", "localhost", "a.localhost.", "1.2.3.4", "127.0.0.1", "127.1", "0x7f.1", "2130706433", "0", "0.0.0.0",
	"10.1.2.3", "172.16.0.1", "172.32.0.1", "192.168.1.1", "100.64.0.1", "100.128.0.1", "169.254.169.254", "224.0.0.1",
	"239.255.255.255", "255.255.255.255", "8.8.8.8", "1.2.3.4.5", "256.0.0.1", "host.123abc", "0x", "09",
	"[::]", "[::1]", "[::2]", "[fe80::1]", "[fe80::1%25eth0]", "[fec0::1]", "[fc00::1]", "[fd12::1]", "[fe00::1]", "[ff02::1]",
	"[::ffff:127.0.0.1]", "[::ffff:10.0.0.1]", "[::ffff:0.0.0.0]", "[::ffff:169.254.1.1]", "[::ffff:8.8.8.8]",
	"[64:ff9b::7f00:1]", "[64:ff9b::a00:1]", "[64:ff9b::808:808]", "[64:ff9b::7f00:1%25x]", "[64:ff9b:1::7f00:1]",
	"[::%25eth0]", "[::1%25eth0]", "[::ffff:127.0.0.1%25eth0]", "[::ffff:0.0.0.0%25x]", "[2001:db8::1]", "[::127.0.0.1]",
}

func TestHostClassLikeNetip(t *testing.T) {
	for _, h := range classSamples {
		for _, scheme := range []string{"http://", "https://"} {
			u, err := urlx.Parse(scheme + h + "/")
			if err != nil {
				continue
			}
			assert.Equal(t, classNames[hostClassNetip(u)], classNames[hostClass(u)], h)
			lh := strings.ToLower(u.Hostname())
			a, err := netip.ParseAddr(lh)
			assert.Equal(t, lh == "localhost" || strings.HasSuffix(lh, ".localhost") || err == nil && a.IsLoopback(), isLoopback(u), h)
		}
	}
}

func FuzzHostClass(f *testing.F) {
	for _, h := range classSamples {
		f.Add(h)
	}
	f.Fuzz(func(t *testing.T, h string) {
		u, err := urlx.Parse("https://" + h + "/")
		if err != nil {
			return
		}
		if got, want := hostClass(u), hostClassNetip(u); got != want {
			t.Fatalf("hostClass(%q) = %s, netip: %s", h, classNames[got], classNames[want])
		}
	})
}
