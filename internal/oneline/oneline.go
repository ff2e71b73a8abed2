// Package oneline puts text from a server (an HTTP error body, a refused
// handshake's answer) on one short line for an error message. The
// transports share it.
package oneline

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Cut returns s on one line: runs of white space and control characters
// (newlines included) become one space, and the text is cut after max bytes
// at a character boundary, marked with an ellipsis. It is safe for
// concurrent use.
func Cut(s string, max int) string {
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
