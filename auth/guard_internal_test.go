package auth

import (
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
