package urlx

import (
	"bytes"
	"errors"
	"strconv"
	"strings"

	"github.com/mcpwasm/mcpwasm/internal/order"
)

// Error is a failed parse: Op is "parse", URL the input, Err the reason.
type Error struct {
	_   [0]func() // not comparable: no generated equality function
	Op  string
	URL string
	Err error
}

// Error implements error (`parse "URL": reason`).
func (e *Error) Error() string { return e.Op + " " + strconv.Quote(e.URL) + ": " + e.Err.Error() }

// Unwrap returns the reason.
func (e *Error) Unwrap() error { return e.Err }

// URL is a parsed URL or relative reference:
//
//	[scheme:][//[userinfo@]host][/]path[?query][#fragment]
//	scheme:opaque[?query][#fragment]
//
// The fields mean what net/url.URL's do: Scheme is lower-case, Host is
// host[:port] with an IPv6 address in brackets, Path and Fragment are
// decoded (RawPath and RawFragment keep the original escaping when it
// differs from the default one), RawQuery is the encoded query.
type URL struct {
	_           [0]func() // not comparable: no generated equality function
	Scheme      string
	Opaque      string    // encoded opaque data
	User        *Userinfo // nil: no userinfo
	Host        string    // host or host:port
	Path        string    // decoded path
	RawPath     string    // encoded path hint (see EscapedPath)
	RawQuery    string    // encoded query, without '?'
	Fragment    string    // decoded fragment, without '#'
	RawFragment string    // encoded fragment hint (see EscapedFragment)
	ForceQuery  bool      // a '?' with an empty query
	OmitHost    bool      // "scheme:/path": no authority at all
}

// Userinfo is the user information of a URL: a user name and maybe a
// password. It is immutable.
type Userinfo struct {
	_           [0]func() // not comparable: no generated equality function
	username    string
	password    string
	passwordSet bool
}

// Username returns the user name ("" for a nil Userinfo).
func (u *Userinfo) Username() string {
	if u == nil {
		return ""
	}
	return u.username
}

// Password returns the password and whether one is set.
func (u *Userinfo) Password() (string, bool) {
	if u == nil {
		return "", false
	}
	return u.password, u.passwordSet
}

// String returns the encoded "username[:password]".
func (u *Userinfo) String() string {
	if u == nil {
		return ""
	}
	s := escape(u.username, modeUserinfo)
	if u.passwordSet {
		s += ":" + escape(u.password, modeUserinfo)
	}
	return s
}

// Parse parses an absolute URL or a relative reference. It refuses
// control characters, invalid percent-escapes, an invalid host or port,
// and a relative path whose first segment holds a colon.
func Parse(raw string) (*URL, error) {
	rest, frag, hasFrag := strings.Cut(raw, "#")
	u, err := parse(rest)
	if err != nil {
		return nil, &Error{Op: "parse", URL: rest, Err: err}
	}
	if !hasFrag || frag == "" {
		return u, nil
	}
	if err := u.setFragment(frag); err != nil {
		return nil, &Error{Op: "parse", URL: raw, Err: err}
	}
	return u, nil
}

func parse(raw string) (*URL, error) {
	for i := 0; i < len(raw); i++ {
		if raw[i] < ' ' || raw[i] == 0x7f {
			return nil, errors.New("invalid control character in URL")
		}
	}
	u := new(URL)
	if raw == "*" {
		u.Path = "*"
		return u, nil
	}
	scheme, rest, err := splitScheme(raw)
	if err != nil {
		return nil, err
	}
	u.Scheme = strings.ToLower(scheme)

	if strings.HasSuffix(rest, "?") && strings.Count(rest, "?") == 1 {
		u.ForceQuery = true
		rest = rest[:len(rest)-1]
	} else {
		rest, u.RawQuery, _ = strings.Cut(rest, "?")
	}

	if !strings.HasPrefix(rest, "/") {
		if u.Scheme != "" {
			u.Opaque = rest // a rootless path: opaque
			return u, nil
		}
		// RFC 3986 §4.2: a relative-path reference's first segment has no
		// colon (it would read as a scheme).
		if seg, _, _ := strings.Cut(rest, "/"); strings.Contains(seg, ":") {
			return nil, errors.New("first path segment in URL cannot contain colon")
		}
	}

	if strings.HasPrefix(rest, "//") && (u.Scheme != "" || !strings.HasPrefix(rest, "///")) {
		authority := rest[2:]
		rest = ""
		if i := strings.IndexByte(authority, '/'); i >= 0 {
			authority, rest = authority[:i], authority[i:]
		}
		if u.User, u.Host, err = parseAuthority(u.Scheme, authority); err != nil {
			return nil, err
		}
	} else if u.Scheme != "" && strings.HasPrefix(rest, "/") {
		u.OmitHost = true
	}
	if err := u.setPath(rest); err != nil {
		return nil, err
	}
	return u, nil
}

// splitScheme splits "scheme:rest" (scheme = ALPHA *(ALPHA / DIGIT / "+" /
// "-" / ".")); without a valid scheme it returns "" and raw.
func splitScheme(raw string) (scheme, rest string, err error) {
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		switch {
		case 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z':
		case '0' <= c && c <= '9' || c == '+' || c == '-' || c == '.':
			if i == 0 {
				return "", raw, nil
			}
		case c == ':':
			if i == 0 {
				return "", "", errors.New("missing protocol scheme")
			}
			return raw[:i], raw[i+1:], nil
		default:
			return "", raw, nil
		}
	}
	return "", raw, nil
}

// parseAuthority parses [userinfo@]host[:port]; the host starts after the
// last '@'.
func parseAuthority(scheme, authority string) (*Userinfo, string, error) {
	i := strings.LastIndexByte(authority, '@')
	host, err := parseHost(scheme, authority[i+1:])
	if err != nil {
		return nil, "", err
	}
	if i < 0 {
		return nil, host, nil
	}
	info := authority[:i]
	if !validUserinfo(info) {
		return nil, "", errors.New("invalid userinfo")
	}
	name, pass, hasPass := strings.Cut(info, ":")
	if name, err = unescape(name, modeUserinfo); err != nil {
		return nil, "", err
	}
	if pass, err = unescape(pass, modeUserinfo); err != nil {
		return nil, "", err
	}
	return &Userinfo{username: name, password: pass, passwordSet: hasPass}, host, nil
}

// validUserinfo reports whether s holds only unreserved characters,
// sub-delims, ':', '%' and '@' (net/url tolerates an '@' in a password).
func validUserinfo(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if isAlnum(c) {
			continue
		}
		switch c {
		case '-', '.', '_', ':', '~', '!', '$', '&', '\'', '(', ')', '*', '+', ',', ';', '=', '%', '@':
		default:
			return false
		}
	}
	return true
}

// parseHost checks and decodes host[:port]: an IP literal in brackets must
// be an IPv6 address (with an optional RFC 6874 zone), a port is digits,
// and an http(s) host has at most one colon outside brackets.
func parseHost(scheme, host string) (string, error) {
	open := strings.LastIndexByte(host, '[')
	switch {
	case open > 0:
		return "", errors.New("invalid IP-literal")
	case open == 0:
		end := strings.LastIndexByte(host, ']')
		if end < 0 {
			return "", errors.New("missing ']' in host")
		}
		colonPort := host[end+1:]
		if !validOptionalPort(colonPort) {
			return "", errors.New("invalid port " + strconv.Quote(colonPort) + " after host")
		}
		name := host[1:end]
		var literal string
		if z := strings.Index(name, "%25"); z >= 0 {
			addr, err := unescape(name[:z], modeHost)
			if err != nil {
				return "", err
			}
			zone, err := unescape(name[z:], modeZone)
			if err != nil {
				return "", err
			}
			literal = addr + zone
		} else {
			var err error
			if literal, err = unescape(name, modeHost); err != nil {
				return "", err
			}
		}
		a, err := ParseIP(literal)
		if err != nil {
			return "", errors.New("invalid host: " + err.Error())
		}
		if a.Is4 {
			return "", errors.New("invalid IP-literal")
		}
		return "[" + literal + "]" + colonPort, nil
	}
	if i := strings.IndexByte(host, ':'); i >= 0 {
		if scheme != "http" && scheme != "https" {
			i = strings.LastIndexByte(host, ':')
		}
		if colonPort := host[i:]; !validOptionalPort(colonPort) {
			return "", errors.New("invalid port " + strconv.Quote(colonPort) + " after host")
		}
	}
	return unescape(host, modeHost)
}

// validOptionalPort reports whether s is "" or ":" followed by digits.
func validOptionalPort(s string) bool {
	if s == "" {
		return true
	}
	if s[0] != ':' {
		return false
	}
	for i := 1; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// setPath sets Path from the escaped path p, and RawPath to p when p is
// not the default escaping of Path.
func (u *URL) setPath(p string) error {
	path, err := unescape(p, modePath)
	if err != nil {
		return err
	}
	u.Path, u.RawPath = path, ""
	if escape(path, modePath) != p {
		u.RawPath = p
	}
	return nil
}

func (u *URL) setFragment(f string) error {
	frag, err := unescape(f, modeFragment)
	if err != nil {
		return err
	}
	u.Fragment, u.RawFragment = frag, ""
	if escape(frag, modeFragment) != f {
		u.RawFragment = f
	}
	return nil
}

// EscapedPath returns the escaped path: RawPath when it is a valid
// escaping of Path, else Path escaped by default.
func (u *URL) EscapedPath() string {
	if u.RawPath != "" && validEncoded(u.RawPath, modePath) {
		if p, err := unescape(u.RawPath, modePath); err == nil && p == u.Path {
			return u.RawPath
		}
	}
	if u.Path == "*" {
		return "*"
	}
	return escape(u.Path, modePath)
}

// EscapedFragment returns the escaped fragment, as EscapedPath does for
// the path.
func (u *URL) EscapedFragment() string {
	if u.RawFragment != "" && validEncoded(u.RawFragment, modeFragment) {
		if f, err := unescape(u.RawFragment, modeFragment); err == nil && f == u.Fragment {
			return u.RawFragment
		}
	}
	return escape(u.Fragment, modeFragment)
}

// String reassembles the URL (the same string net/url.URL.String gives).
func (u *URL) String() string {
	// One concatenation of the parts: smaller code than appending each.
	var scheme, auth, host, slash, path, query, frag string
	if u.Scheme != "" {
		scheme = u.Scheme + ":"
	}
	if u.Opaque != "" {
		path = u.Opaque
	} else {
		if (u.Scheme != "" || u.Host != "" || u.User != nil) && !(u.OmitHost && u.Host == "" && u.User == nil) {
			if u.Host != "" || u.Path != "" || u.User != nil {
				auth = "//"
			}
			if u.User != nil {
				auth += u.User.String() + "@"
			}
			host = escape(u.Host, modeHost)
		}
		path = u.EscapedPath()
		if path != "" && path[0] != '/' && u.Host != "" {
			slash = "/"
		}
		if scheme == "" && auth == "" && host == "" && slash == "" {
			// RFC 3986 §4.2: "./" keeps a first segment with a colon from
			// reading as a scheme.
			if seg, _, _ := strings.Cut(path, "/"); strings.Contains(seg, ":") {
				slash = "./"
			}
		}
	}
	if u.ForceQuery || u.RawQuery != "" {
		query = "?" + u.RawQuery
	}
	if u.Fragment != "" {
		frag = "#" + u.EscapedFragment()
	}
	return scheme + auth + host + slash + path + query + frag
}

// IsAbs reports whether the URL has a scheme.
func (u *URL) IsAbs() bool { return u.Scheme != "" }

// Hostname returns the host without a port and without the brackets of an
// IPv6 literal.
func (u *URL) Hostname() string {
	h, _ := SplitHostPort(u.Host)
	return h
}

// Port returns the port of the host ("" if none or not numeric).
func (u *URL) Port() string {
	_, p := SplitHostPort(u.Host)
	return p
}

// SplitHostPort splits a URL's host[:port] (as URL.Hostname and URL.Port
// do): the port is what follows the last colon when it is all digits
// (else "" and the whole input is the host), and brackets around the host
// are removed. It does not check the host.
func SplitHostPort(hostPort string) (host, port string) {
	host = hostPort
	if i := strings.LastIndexByte(host, ':'); i >= 0 && validOptionalPort(host[i:]) {
		host, port = host[:i], host[i+1:]
	}
	if strings.HasPrefix(host, "[") && strings.HasSuffix(host, "]") {
		host = host[1 : len(host)-1]
	}
	return host, port
}

// Query parses RawQuery, dropping malformed fields.
func (u *URL) Query() Values {
	v, _ := ParseQuery(u.RawQuery)
	return v
}

// Parse parses ref and resolves it against u (see ResolveReference).
func (u *URL) Parse(ref string) (*URL, error) {
	r, err := Parse(ref)
	if err != nil {
		return nil, err
	}
	return u.ResolveReference(r), nil
}

// ResolveReference resolves the reference ref against the base URL u (RFC
// 3986 §5.2, dot segments removed); an absolute ref is returned as a copy
// with its dot segments removed. It returns a new URL.
func (u *URL) ResolveReference(ref *URL) *URL {
	r := *ref
	if ref.Scheme == "" {
		r.Scheme = u.Scheme
	}
	if ref.Scheme != "" || ref.Host != "" || ref.User != nil {
		_ = r.setPath(resolvePath(ref.EscapedPath(), ""))
		return &r
	}
	if ref.Opaque != "" {
		r.User, r.Host, r.Path = nil, "", ""
		return &r
	}
	if ref.Path == "" && !ref.ForceQuery && ref.RawQuery == "" {
		r.RawQuery = u.RawQuery
		if ref.Fragment == "" {
			r.Fragment, r.RawFragment = u.Fragment, u.RawFragment
		}
	}
	if ref.Path == "" && u.Opaque != "" {
		r.Opaque = u.Opaque
		r.User, r.Host, r.Path = nil, "", ""
		return &r
	}
	r.Host, r.User = u.Host, u.User
	_ = r.setPath(resolvePath(u.EscapedPath(), ref.EscapedPath()))
	return &r
}

// resolvePath merges the escaped reference path ref with the escaped base
// path (RFC 3986 §5.2.3) and removes dot segments (§5.2.4).
func resolvePath(base, ref string) string {
	full := ref
	switch {
	case ref == "":
		full = base
	case ref[0] != '/':
		full = base[:strings.LastIndexByte(base, '/')+1] + ref
	}
	if full == "" {
		return ""
	}
	out := make([]byte, 1, len(full)+1)
	out[0] = '/'
	first := true
	var seg string
	for rest, more := full, true; more; {
		seg, rest, more = strings.Cut(rest, "/")
		switch seg {
		case ".":
			first = false
		case "..":
			if i := bytes.LastIndexByte(out[1:], '/'); i >= 0 {
				out = out[:i+1]
			} else {
				out = out[:1]
			}
			first = len(out) == 1
		default:
			if !first {
				out = append(out, '/')
			}
			out = append(out, seg...)
			first = false
		}
	}
	if seg == "." || seg == ".." {
		out = append(out, '/')
	}
	if len(out) > 1 && out[1] == '/' {
		return string(out[1:])
	}
	return string(out)
}

// Values are the fields of a query or a URL-encoded form, by name (names
// are case-sensitive).
type Values map[string][]string

// Get returns the first value of key, or "".
func (v Values) Get(key string) string {
	if vs := v[key]; len(vs) > 0 {
		return vs[0]
	}
	return ""
}

// Set replaces the values of key with value.
func (v Values) Set(key, value string) { v[key] = []string{value} }

// Add appends value to the values of key.
func (v Values) Add(key, value string) { v[key] = append(v[key], value) }

// Del removes key.
func (v Values) Del(key string) { delete(v, key) }

// Has reports whether key is present.
func (v Values) Has(key string) bool {
	_, ok := v[key]
	return ok
}

// Encode returns the URL-encoded form "k=v&k2=v2", sorted by name (values
// of one name in their order).
func (v Values) Encode() string {
	if len(v) == 0 {
		return ""
	}
	keys := make([]string, 0, len(v))
	for k := range v {
		keys = append(keys, k)
	}
	order.Strings(keys)
	var b []byte
	sep := ""
	for _, k := range keys {
		ek := QueryEscape(k)
		for _, x := range v[k] {
			b = append(b, sep+ek+"="+QueryEscape(x)...)
			sep = "&"
		}
	}
	return string(b)
}

// ParseQuery parses a URL-encoded query. It always returns the fields it
// could decode; the error is the first problem met (a field with an
// unescaped ';', an invalid escape) or too many fields (more than 10000,
// and then no fields).
func ParseQuery(query string) (Values, error) {
	m := Values{}
	if strings.Count(query, "&")+1 > maxParams {
		return m, errTooManyParams
	}
	var err error
	for query != "" {
		var field string
		field, query, _ = strings.Cut(query, "&")
		if strings.Contains(field, ";") {
			err = errors.New("invalid semicolon separator in query")
			continue
		}
		if field == "" {
			continue
		}
		k, v, _ := strings.Cut(field, "=")
		k, err1 := QueryUnescape(k)
		if err1 == nil {
			v, err1 = QueryUnescape(v)
		}
		if err1 != nil {
			if err == nil {
				err = err1
			}
			continue
		}
		m[k] = append(m[k], v)
	}
	return m, err
}
