package urlx

// parseIPv4Fields and parseIPv6 are net/netip's parsers, returning bytes
// instead of an Addr (net/netip: Copyright 2020 The Go Authors; BSD-style
// license, reproduced in LICENSE.go-netip beside this file).

import "strconv"

// IP is an IP address read by ParseIP.
type IP struct {
	_ [0]func() // not comparable: no generated equality function
	// Bytes is the address; an IPv4 address is held as ::ffff:a.b.c.d.
	Bytes [16]byte
	// Is4 reports an IPv4 address (dotted decimal), not an IPv6 one.
	Is4 bool
	// Zone reports an IPv6 address with a zone ("fe80::1%eth0").
	Zone bool
}

// addrError is ParseIP's error, with net/netip.ParseAddr's text.
type addrError struct {
	_   [0]func() // not comparable: no generated equality function
	in  string    // the string given to ParseIP
	msg string    // an explanation of the parse failure
	at  string    // optionally, the unparsed portion of in at which the error occurred
}

func (err *addrError) Error() string {
	q := strconv.Quote
	if err.at != "" {
		return "ParseAddr(" + q(err.in) + "): " + err.msg + " (at " + q(err.at) + ")"
	}
	return "ParseAddr(" + q(err.in) + "): " + err.msg
}

// ParseIP parses an IPv4 address in dotted decimal or an IPv6 address,
// maybe with a zone, as net/netip.ParseAddr does (the same addresses, the
// same error texts). It is netip's parser without its Addr type, whose
// interned zones would link package unique into the WebAssembly modules.
func ParseIP(s string) (IP, error) {
	var ip IP
	msg, at := "unable to parse IP", ""
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '.':
			ip.Is4 = true
			ip.Bytes[10], ip.Bytes[11] = 0xff, 0xff
			msg, at = parseIPv4Fields(s, 0, len(s), ip.Bytes[12:])
		case ':':
			if msg, at = parseIPv6(s, &ip); msg != "" {
				ip = IP{}
			}
		case '%':
			// Assume that this was trying to be an IPv6 address with
			// a zone specifier, but the address is missing.
			msg = "missing IPv6 address"
		default:
			continue
		}
		break
	}
	if msg != "" {
		return ip, &addrError{in: s, msg: msg, at: at}
	}
	return ip, nil
}

// parseIPv4Fields and parseIPv6 return the msg and at of their addrError
// (msg empty: no error), ParseIP makes it.
func parseIPv4Fields(in string, off, end int, fields []uint8) (msg, at string) {
	var val, pos int
	var digLen int // number of digits in current octet
	s := in[off:end]
	for i := 0; i < len(s); i++ {
		if s[i] >= '0' && s[i] <= '9' {
			if digLen == 1 && val == 0 {
				return "IPv4 field has octet with leading zero", ""
			}
			val = val*10 + int(s[i]) - '0'
			digLen++
			if val > 255 {
				return "IPv4 field has value >255", ""
			}
		} else if s[i] == '.' {
			// .1.2.3
			// 1.2.3.
			// 1..2.3
			if i == 0 || i == len(s)-1 || s[i-1] == '.' {
				return "IPv4 field must have at least one digit", s[i:]
			}
			// 1.2.3.4.5
			if pos == 3 {
				return "IPv4 address too long", ""
			}
			fields[pos] = uint8(val)
			pos++
			val = 0
			digLen = 0
		} else {
			return "unexpected character", s[i:]
		}
	}
	if pos < 3 {
		return "IPv4 address too short", ""
	}
	fields[3] = uint8(val)
	return "", ""
}

func parseIPv6(in string, out *IP) (msg, at string) {
	s := in

	// Split off the zone right from the start.
	zone := ""
	for i := 0; i < len(s); i++ {
		if s[i] == '%' {
			s, zone = s[:i], s[i+1:]
			if zone == "" {
				// Not allowed to have an empty zone if explicitly specified.
				return "zone must be a non-empty string", ""
			}
			out.Zone = true
			break
		}
	}

	ip := &out.Bytes
	ellipsis := -1 // position of ellipsis in ip

	// Might have leading ellipsis
	if len(s) >= 2 && s[0] == ':' && s[1] == ':' {
		ellipsis = 0
		s = s[2:]
		// Might be only ellipsis
		if len(s) == 0 {
			return "", ""
		}
	}

	// Loop, parsing hex numbers followed by colon.
	i := 0
	for i < 16 {
		off := 0
		acc := uint32(0)
		for ; off < len(s); off++ {
			c := s[off]
			if c >= '0' && c <= '9' {
				acc = (acc << 4) + uint32(c-'0')
			} else if c >= 'a' && c <= 'f' {
				acc = (acc << 4) + uint32(c-'a'+10)
			} else if c >= 'A' && c <= 'F' {
				acc = (acc << 4) + uint32(c-'A'+10)
			} else {
				break
			}
			if off > 3 {
				// more than 4 digits in group, fail.
				return "each group must have 4 or less digits", s
			}
			if acc > 0xffff {
				// Overflow, fail.
				return "IPv6 field has value >=2^16", s
			}
		}
		if off == 0 {
			// No digits found, fail.
			return "each colon-separated field must have at least one digit", s
		}

		// If followed by dot, might be in trailing IPv4.
		if off < len(s) && s[off] == '.' {
			if ellipsis < 0 && i != 12 {
				// Not the right place.
				return "embedded IPv4 address must replace the final 2 fields of the address", s
			}
			if i+4 > 16 {
				// Not enough room.
				return "too many hex fields to fit an embedded IPv4 at the end of the address", s
			}

			end := len(in)
			if len(zone) > 0 {
				end -= len(zone) + 1
			}
			if msg, at = parseIPv4Fields(in, end-len(s), end, ip[i:i+4]); msg != "" {
				return msg, at
			}
			s = ""
			i += 4
			break
		}

		// Save this 16-bit chunk.
		ip[i] = byte(acc >> 8)
		ip[i+1] = byte(acc)
		i += 2

		// Stop at end of string.
		s = s[off:]
		if len(s) == 0 {
			break
		}

		// Otherwise must be followed by colon and more.
		if s[0] != ':' {
			return "unexpected character, want colon", s
		} else if len(s) == 1 {
			return "colon must be followed by more characters", s
		}
		s = s[1:]

		// Look for ellipsis.
		if s[0] == ':' {
			if ellipsis >= 0 { // already have one
				return "multiple :: in address", s
			}
			ellipsis = i
			s = s[1:]
			if len(s) == 0 { // can be at end
				break
			}
		}
	}

	// Must have used entire string.
	if len(s) != 0 {
		return "trailing garbage after address", s
	}

	// If didn't parse enough, expand ellipsis.
	if i < 16 {
		if ellipsis < 0 {
			return "address string too short", ""
		}
		n := 16 - i
		for j := i - 1; j >= ellipsis; j-- {
			ip[j+n] = ip[j]
		}
		clear(ip[ellipsis : ellipsis+n])
	} else if ellipsis >= 0 {
		// Ellipsis must represent at least one 0 group.
		return "the :: must expand to at least one field of zeros", ""
	}
	return "", ""
}
