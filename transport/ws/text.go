package ws

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// oneLine returns s on one line for an error message: runs of white space
// and control characters become one space, and the text is cut after max
// bytes at a character boundary, marked with an ellipsis.
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
