package urlx

import (
	"net/netip"
	"testing"
)

var ipSamples = []string{
	"", "1", "1.2.3.4", "01.2.3.4", "1.2.3", "1.2.3.4.5", "1..2.3", ".1.2.3", "1.2.3.", "256.1.1.1", "1.2.3.4%eth0",
	"127.0.0.1", "0.0.0.0", "255.255.255.255", "1.2.3.x", "%eth0", "abc", "localhost",
	"::", "::1", "::%eth0", "::1%", "fe80::1%eth0", "fe80::1%25eth0", "2001:db8::1", "2001:db8:0:0:0:0:0:1",
	"::ffff:1.2.3.4", "::ffff:127.0.0.1", "64:ff9b::1.2.3.4", "1:2:3:4:5:6:1.2.3.4", "1:2:3:4:5:6:7:1.2.3.4",
	"1:2:3:4:5:6:7:8", "1:2:3:4:5:6:7:8:9", "1:2:3:4:5:6:7", "1::2::3", "1:::2", "12345::", "fffff::", "g::",
	"1:2:3:4:5:6:7:8::", "::1:2:3:4:5:6:7:8", "1:", ":1", "1:2:3:4:5:6:7:", "::1.2.3", "::1.2.3.4.5", "1.2::",
	"1:2:3:4:5:6::1.2.3.4", "::01.2.3.4", "::256.1.1.1", "FE80::ABCD", "[::1]", "::1 ",
}

// checkIP compares ParseIP with net/netip.ParseAddr.
func checkIP(t *testing.T, s string) {
	t.Helper()
	ip, err := ParseIP(s)
	a, werr := netip.ParseAddr(s)
	if (err == nil) != (werr == nil) {
		t.Fatalf("ParseIP(%q) error %v, netip %v", s, err, werr)
	}
	if err != nil {
		if err.Error() != werr.Error() {
			t.Fatalf("ParseIP(%q) error %q, netip %q", s, err, werr)
		}
		return
	}
	if ip.Bytes != a.As16() || ip.Is4 != a.Is4() || ip.Zone != (a.Zone() != "") {
		t.Fatalf("ParseIP(%q) = %v %v %v, netip %v", s, ip.Bytes, ip.Is4, ip.Zone, a)
	}
}

func TestParseIPLikeNetip(t *testing.T) {
	for _, s := range ipSamples {
		checkIP(t, s)
	}
}

func FuzzParseIP(f *testing.F) {
	for _, s := range ipSamples {
		f.Add(s)
	}
	f.Fuzz(checkIP)
}
