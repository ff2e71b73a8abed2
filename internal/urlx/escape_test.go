package urlx

import "testing"

// shouldEscapeRef is shouldEscape written out: it reports whether c is written percent-encoded in component
// m (RFC 3986 §2, with net/url's choices for each component).
func shouldEscapeRef(c byte, m mode) bool {
	if isAlnum(c) {
		return false
	}
	if m == modeHost || m == modeZone {
		// Sub-delims, the port's colon, the brackets of an IP literal, and
		// < > " (which a host cannot percent-encode either).
		switch c {
		case '!', '$', '&', '\'', '(', ')', '*', '+', ',', ';', '=', ':', '[', ']', '<', '>', '"':
			return false
		}
	}
	switch c {
	case '-', '_', '.', '~':
		return false
	case '$', '&', '+', ',', '/', ':', ';', '=', '?', '@':
		switch m {
		case modePath:
			return c == '?'
		case modePathSegment:
			return c == '/' || c == ';' || c == ',' || c == '?'
		case modeUserinfo:
			return c == '@' || c == '/' || c == '?' || c == ':'
		case modeQueryComponent:
			return true
		case modeFragment:
			return false
		}
	}
	if m == modeFragment {
		switch c {
		case '!', '(', ')', '*':
			return false
		}
	}
	return true
}

func TestEscapeTable(t *testing.T) {
	for m := modePath; m <= modeFragment; m++ {
		for c := 0; c < 256; c++ {
			if got, want := shouldEscape(byte(c), m), shouldEscapeRef(byte(c), m); got != want {
				t.Errorf("shouldEscape(%#x, %d) = %v, want %v", c, m, got, want)
			}
		}
	}
}
