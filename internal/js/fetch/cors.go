package jsfetch

import (
	"errors"
	"strings"

	"github.com/mcpwasm/mcpwasm/internal/errf"
)

// Response types of the Fetch standard (Response.type).
const (
	TypeBasic          = "basic"
	TypeCORS           = "cors"
	TypeDefault        = "default"
	TypeError          = "error"
	TypeOpaque         = "opaque"
	TypeOpaqueRedirect = "opaqueredirect"
)

// safelisted are the CORS-safelisted response-header names of the Fetch
// standard: a cross-origin response always shows these.
var safelisted = [...]string{
	"cache-control", "content-language", "content-length", "content-type",
	"expires", "last-modified", "pragma",
}

// SafelistedResponseHeader reports whether name (any case) is a
// CORS-safelisted response-header name, which a browser never hides from a
// script. It is safe for concurrent use.
func SafelistedResponseHeader(name string) bool {
	for _, s := range safelisted {
		if strings.EqualFold(s, name) {
			return true
		}
	}
	return false
}

// HiddenByCORS reports whether the response header name may be invisible to
// the script because of the browser's CORS filtering, given the response's
// type (Response.type) and whether the header is present in what the script
// can read. A present header is never hidden. In a "cors" response, an
// absent header that is not CORS-safelisted may be hidden (the server did
// not list it in Access-Control-Expose-Headers); in "opaque" and
// "opaqueredirect" responses every header is hidden; "basic" (same-origin)
// and "default" (made by a script, or by runtimes without CORS such as Node)
// responses hide nothing. It is safe for concurrent use.
func HiddenByCORS(responseType, name string, present bool) bool {
	if present {
		return false
	}
	switch responseType {
	case TypeCORS:
		return !SafelistedResponseHeader(name)
	case TypeOpaque, TypeOpaqueRedirect:
		return true
	}
	return false
}

// Errors of option validation.
var (
	// ErrBadOption means a RequestInit option has a value the Fetch standard
	// does not define, or one that cannot carry MCP.
	ErrBadOption = errors.New("jsfetch: invalid fetch option")
)

// initOptions are the RequestInit string options CheckInit knows, in its
// order, with their allowed values.
var initOptions = [...]struct {
	field   string
	allowed []string
}{
	{"credentials", []string{"omit", "same-origin", "include"}},
	{"mode", []string{"cors", "same-origin"}},
	{"cache", []string{"default", "no-store", "reload", "no-cache", "force-cache", "only-if-cached"}},
	{"referrerPolicy", []string{
		"no-referrer", "no-referrer-when-downgrade", "same-origin", "origin",
		"strict-origin", "origin-when-cross-origin", "strict-origin-when-cross-origin",
		"unsafe-url",
	}},
}

// CheckInit validates the RequestInit string options; "" means "leave it
// to the runtime's default" and is always valid. Mode "no-cors" is refused:
// its opaque responses have no readable status, headers or body, so MCP
// cannot work over them. It is safe for concurrent use.
func CheckInit(credentials, mode, cache, referrerPolicy string) error {
	// The errors joined as errors.Join joins them (one per line, each one
	// wrapped), without linking errors.Join's type into the module.
	var err error
	for i, v := range [...]string{credentials, mode, cache, referrerPolicy} {
		e := checkInit(initOptions[i].field, v, initOptions[i].allowed)
		switch {
		case e == nil:
		case err == nil:
			err = e
		default:
			err = errf.Errorf("%w\n%w", err, e)
		}
	}
	return err
}

// checkInit checks one option of CheckInit.
func checkInit(field, v string, allowed []string) error {
	if v == "" {
		return nil
	}
	for _, a := range allowed {
		if v == a {
			return nil
		}
	}
	if field == "mode" && v == "no-cors" {
		return errf.Errorf("%w: mode %q gives opaque responses that cannot carry MCP (use \"cors\" and have the server answer CORS)", ErrBadOption, v)
	}
	return errf.Errorf("%w: %s %q (want one of %s)", ErrBadOption, field, v, strings.Join(allowed, ", "))
}
