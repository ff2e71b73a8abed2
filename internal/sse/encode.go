package sse

import (
	"strconv"
	"time"
)

// AppendEvent appends the wire encoding of ev to dst and returns the
// extended slice. It is meant for tests and test servers. It is safe for
// concurrent use (it touches only its arguments).
//
// It writes, in order:
//   - "id: <ID>" if ev.ID is non-empty. An empty ID writes no id field, so
//     the receiver's last-event-ID keeps its previous value;
//   - "event: <Type>" if ev.Type is non-empty;
//   - "retry: <ms>" if retry > 0, with retry truncated to whole
//     milliseconds;
//   - one "data:" line per line of ev.Data, always at least one (an empty
//     Data writes a single "data:" line, which the parser dispatches as an
//     event with empty Data, like an MCP priming event);
//   - a blank line.
//
// Every value is written after "<field>: ", so a value that starts with a
// space survives the parser's removal of one leading space.
//
// Data is split into lines on "\r\n", "\r" and "\n", exactly like the
// parser splits lines. The SSE format cannot carry a CR inside data, so
// Data containing CR parses back with every "\r\n" and lone "\r" turned
// into "\n"; Data without CR parses back identically. Likewise invalid UTF-8
// is written as is and parses back with U+FFFD replacements.
//
// CR and LF cannot be represented in ID or Type, and NUL cannot be
// represented in ID (the parser ignores such an id field). So that a
// malformed value cannot inject extra fields, AppendEvent replaces each of
// these bytes with U+FFFD.
func AppendEvent(dst []byte, ev Event, retry time.Duration) []byte {
	if ev.ID != "" {
		dst = append(dst, "id: "...)
		dst = appendFieldValue(dst, ev.ID, true)
		dst = append(dst, '\n')
	}
	if ev.Type != "" {
		dst = append(dst, "event: "...)
		dst = appendFieldValue(dst, ev.Type, false)
		dst = append(dst, '\n')
	}
	if retry > 0 {
		dst = append(dst, "retry: "...)
		dst = strconv.AppendInt(dst, int64(retry/time.Millisecond), 10)
		dst = append(dst, '\n')
	}
	data := ev.Data
	for {
		i := indexEOL(data)
		line := data
		if i >= 0 {
			line = data[:i]
		}
		if len(line) == 0 {
			dst = append(dst, "data:\n"...)
		} else {
			dst = append(dst, "data: "...)
			dst = append(dst, line...)
			dst = append(dst, '\n')
		}
		if i < 0 {
			break
		}
		if data[i] == '\r' && i+1 < len(data) && data[i+1] == '\n' {
			i++
		}
		data = data[i+1:]
	}
	return append(dst, '\n')
}

// appendFieldValue appends s, replacing CR, LF and (if noNUL) NUL with
// U+FFFD.
func appendFieldValue(dst []byte, s string, noNUL bool) []byte {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\r' || c == '\n' || (c == 0 && noNUL):
			dst = append(dst, replacementChar...)
		default:
			dst = append(dst, c)
		}
	}
	return dst
}
