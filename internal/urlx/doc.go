// Package urlx parses and formats URLs and URL-encoded forms the way
// net/url does, for the parts of net/url the library uses (auth's
// discovery, redirects and token requests, the transports' endpoint
// URLs), without linking net/url (and, with it, fmt and reflect) into the
// WebAssembly modules.
//
// The model is net/url's: a URL has the same fields with the same meaning
// (Path decoded, RawPath a hint of its escaping, Fragment and RawFragment
// alike, Opaque for "scheme:rest" without a slash, ForceQuery and
// OmitHost), Parse accepts and refuses the same inputs and yields the same
// components, String, EscapedPath, Hostname, Port, Query, ResolveReference
// and Values.Encode give the same strings. FuzzURLParse checks this natively
// against net/url. The differences, all deliberate:
//
//   - error messages do not start with "net/url: " (the rest of the text is
//     net/url's), and the error of an invalid IPv6 literal does not wrap
//     netip's error type (its text is the same);
//   - the GODEBUG settings of net/url (urlstrictcolons, urlmaxqueryparams)
//     are not consulted: hosts of http and https URLs take at most one
//     colon outside brackets and ParseQuery refuses more than 10000
//     parameters, net/url's defaults;
//   - IP literals are read by ParseIP, net/netip's ParseAddr without its
//     Addr type (whose interned zones link package unique): the same
//     addresses and error texts, FuzzParseIP checks it against netip; the
//     URL guard of package auth classifies the addresses it returns;
//   - there is no JoinPath, RequestURI, Redacted, ParseRequestURI,
//     User/UserPassword constructors or binary marshalling: nothing uses
//     them.
package urlx
