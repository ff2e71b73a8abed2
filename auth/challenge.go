package auth

import (
	"strings"
)

// Challenge is one authentication challenge of a WWW-Authenticate header
// (RFC 9110 §11.6.1): a scheme followed by either a token68 or
// comma-separated parameters. A Challenge is a plain value.
type Challenge struct {
	// Scheme is the authentication scheme as sent ("Bearer", "DPoP", …);
	// compare it with strings.EqualFold.
	Scheme string
	// Token68 is the scheme's token68 form, if it used one.
	Token68 string
	// Params holds the auth-params by lower-case name; quoted values are
	// unquoted (backslash escapes removed). The first occurrence of a name
	// wins.
	Params map[string]string
}

// Param returns the parameter name (case-insensitive), or "".
func (c Challenge) Param(name string) string { return c.Params[strings.ToLower(name)] }

// ParseChallenges parses the values of WWW-Authenticate headers, each of
// which may hold several challenges. Malformed parts are skipped; it never
// fails. It is safe for concurrent use.
func ParseChallenges(values ...string) []Challenge {
	var out []Challenge
	for _, v := range values {
		out = append(out, parseChallenges(v)...)
	}
	return out
}

func isTChar(c byte) bool {
	if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' {
		return true
	}
	return strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0
}

func isToken68Char(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("-._~+/", c) >= 0
}

func skipWS(s string, i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	return i
}

func skipSeps(s string, i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == ',') {
		i++
	}
	return i
}

func scanToken(s string, i int) int {
	for i < len(s) && isTChar(s[i]) {
		i++
	}
	return i
}

// startsParam reports whether an auth-param (token BWS "=") starts at i.
func startsParam(s string, i int) bool {
	j := scanToken(s, i)
	if j == i {
		return false
	}
	j = skipWS(s, j)
	return j < len(s) && s[j] == '='
}

// parseParam parses token BWS "=" BWS (token / quoted-string) at i.
func parseParam(s string, i int) (name, value string, next int, ok bool) {
	j := scanToken(s, i)
	if j == i {
		return "", "", i, false
	}
	name = s[i:j]
	j = skipWS(s, j)
	if j >= len(s) || s[j] != '=' {
		return "", "", i, false
	}
	j = skipWS(s, j+1)
	if j < len(s) && s[j] == '"' {
		var b []byte
		j++
		for j < len(s) && s[j] != '"' {
			if s[j] == '\\' && j+1 < len(s) {
				j++
			}
			b = append(b, s[j])
			j++
		}
		if j < len(s) {
			j++ // closing quote (an unterminated string takes the rest)
		}
		return name, string(b), j, true
	}
	k := scanToken(s, j)
	if k == j {
		return "", "", i, false // no value: may be a token68 ending in "="
	}
	return name, s[j:k], k, true
}

func parseToken68(s string, i int) (string, int, bool) {
	j := i
	for j < len(s) && isToken68Char(s[j]) {
		j++
	}
	if j == i {
		return "", i, false
	}
	for j < len(s) && s[j] == '=' {
		j++
	}
	k := skipWS(s, j)
	if k < len(s) && s[k] != ',' {
		return "", i, false
	}
	return s[i:j], j, true
}

func parseChallenges(s string) []Challenge {
	var out []Challenge
	i := 0
	for {
		i = skipSeps(s, i)
		if i >= len(s) {
			return out
		}
		j := scanToken(s, i)
		if j == i {
			// Not a scheme: skip to the next comma.
			for i < len(s) && s[i] != ',' {
				i++
			}
			continue
		}
		c := Challenge{Scheme: s[i:j], Params: map[string]string{}}
		i = j
		first := true
		for {
			j := skipWS(s, i)
			if j >= len(s) {
				i = j
				break
			}
			if s[j] == ',' {
				k := skipSeps(s, j)
				if !startsParam(s, k) {
					i = k // the next challenge (or the end)
					break
				}
				i = k
			} else {
				if !first && !startsParam(s, j) {
					// Something without a separating comma: skip it.
					for j < len(s) && s[j] != ',' {
						j++
					}
					i = j
					continue
				}
				i = j
			}
			if name, value, next, ok := parseParam(s, i); ok {
				name = strings.ToLower(name)
				if _, dup := c.Params[name]; !dup {
					c.Params[name] = value
				}
				i = next
			} else if t, next, ok := parseToken68(s, i); ok && first {
				c.Token68 = t
				i = next
			} else {
				for i < len(s) && s[i] != ',' {
					i++
				}
			}
			first = false
		}
		out = append(out, c)
	}
}

// oauthChallenge is what the Doer uses from a 401 or 403 response: the
// parameters of its Bearer or DPoP challenges (RFC 6750 §3, RFC 9449 §7.1,
// RFC 9728 §5.1), first occurrence winning.
type oauthChallenge struct {
	_                [0]func() // not comparable: no generated equality function
	resourceMetadata string
	scope            string
	errorCode        string
	description      string
	present          bool // the header was readable and had a challenge
}

func pickChallenge(cs []Challenge) oauthChallenge {
	var oc oauthChallenge
	for _, c := range cs {
		if !strings.EqualFold(c.Scheme, "Bearer") && !strings.EqualFold(c.Scheme, "DPoP") {
			continue
		}
		oc.present = true
		if oc.resourceMetadata == "" {
			oc.resourceMetadata = c.Param("resource_metadata")
		}
		if oc.scope == "" {
			oc.scope = c.Param("scope")
		}
		if oc.errorCode == "" {
			oc.errorCode = c.Param("error")
			oc.description = c.Param("error_description")
		}
	}
	return oc
}

// insufficientScope reports whether a 403 challenge asks for more scope:
// error="insufficient_scope" (RFC 6750 §3.1), or no error code but a
// scope (some servers, the Go SDK's among them, omit the code).
func (oc oauthChallenge) insufficientScope() bool {
	return oc.errorCode == "insufficient_scope" || (oc.errorCode == "" && oc.scope != "")
}
