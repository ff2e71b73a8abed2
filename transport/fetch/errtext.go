package fetch

import (
	"strings"

	"github.com/mcpwasm/mcpwasm/internal/errf"
	"github.com/mcpwasm/mcpwasm/internal/oneline"
)

// jsonMediaType reports whether a media type announces JSON (an absent one
// is given the benefit of the doubt).
func jsonMediaType(ct string) bool {
	return ct == "" || ct == "application/json" || strings.HasSuffix(ct, "+json")
}

// badBodyError describes a 2xx body that does not decode as JSON-RPC: when
// the server announced something other than JSON the error names the
// Content-Type (and the start of the body) rather than a JSON syntax error.
func badBodyError(ct string, body []byte, err error) error {
	if jsonMediaType(ct) {
		return errf.Errorf("fetch: malformed JSON response: %w", err)
	}
	detail := ""
	if b := oneline.Cut(string(body[:min(len(body), 400)]), 120); b != "" {
		detail = " (body: " + b + ")"
	}
	return errf.Errorf("%w %q: the server answered with neither application/json nor text/event-stream%s", ErrContentType, ct, detail)
}
