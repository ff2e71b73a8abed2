package fetch

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// oneLine returns s on one line for an error message: runs of white space
// (newlines included) become one space and the text is cut after max bytes
// at a character boundary, marked with an ellipsis.
func oneLine(s string, max int) string {
	var b strings.Builder
	space := false
	for _, r := range strings.TrimSpace(s) {
		if unicode.IsSpace(r) || unicode.IsControl(r) {
			space = true
			continue
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		if b.Len()+utf8.RuneLen(r) > max {
			b.WriteString("…")
			break
		}
		b.WriteRune(r)
	}
	return b.String()
}

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
		return fmt.Errorf("fetch: malformed JSON response: %w", err)
	}
	detail := ""
	if b := oneLine(string(body[:min(len(body), 400)]), 120); b != "" {
		detail = " (body: " + b + ")"
	}
	return fmt.Errorf("%w %q: the server answered with neither application/json nor text/event-stream%s", ErrContentType, ct, detail)
}
