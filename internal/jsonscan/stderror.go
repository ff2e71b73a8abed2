package jsonscan

import (
	"errors"
	"io"
	"strconv"
	"strings"

	"github.com/mcpwasm/mcpwasm/internal/errf"
)

// StdError returns err, an error of [Decode] or [SyntaxError] on data,
// with the text encoding/json gives for the same data: Unmarshal's, or
// with stream set a json.Decoder's (which says "unexpected EOF" where the
// data ends early). Other errors are returned as they are.
func StdError(data []byte, err error, stream bool) error {
	var msg string
	if err == ErrDepth {
		msg = invalidChar(tooDeep(data), "exceeded max depth")
	} else {
		var je *Error
		if !errf.As(err, &je) {
			return err
		}
		if msg = stdMessage(data, je, stream); msg == "" {
			return io.ErrUnexpectedEOF
		}
	}
	return errors.New(msg)
}

// stdMessage is StdError's text for the syntax error je, "" for
// io.ErrUnexpectedEOF itself.
func stdMessage(data []byte, je *Error, stream bool) string {
	msg := je.Msg
	if msg == "unexpected end of JSON input" || strings.HasSuffix(msg, " in string literal") {
		if m, ok := stringMessage(data, stream); ok {
			if m == io.ErrUnexpectedEOF.Error() {
				return ""
			}
			return m
		}
	}
	if strings.HasSuffix(msg, " in string literal") && (je.Offset >= len(data) || data[je.Offset] >= 0x20) {
		// an unterminated string: the data ends inside it
		msg = "unexpected end of JSON input"
	}
	if msg == "unexpected end of JSON input" {
		if stream {
			return ""
		}
		if n := len(data); n > 0 && isNumberByte(data[n-1]) && !endsInString(data) {
			return numberMessage(data, n-1, msg, false)
		}
		return msg
	}
	return literalMessage(data, je, stream)
}

// literalMessage returns je's message, except that a misspelt literal
// (reported where it starts) is described as encoding/json does: by its
// first wrong character, the end of the data being a space for Unmarshal
// and "unexpected EOF" for a json.Decoder.
func literalMessage(data []byte, je *Error, stream bool) string {
	k := je.Offset
	if k >= len(data) || !(strings.HasSuffix(je.Msg, " looking for beginning of value") || strings.HasSuffix(je.Msg, "numeric literal")) {
		return je.Msg
	}
	if isNumberByte(data[k]) || (k > 0 && isNumberByte(data[k-1])) {
		return numberMessage(data, k, je.Msg, stream)
	}
	var lit string
	switch data[k] {
	case 'n':
		lit = "null"
	case 't':
		lit = "true"
	case 'f':
		lit = "false"
	default:
		return je.Msg
	}
	for j := 1; j < len(lit); j++ {
		if byteAt(data, k+j) != lit[j] {
			return charMessage(data, k+j, "in literal "+lit+" (expecting '"+lit[j:j+1]+"')", stream)
		}
	}
	return je.Msg
}

// byteAt returns data[j], or a space past the end (as encoding/json sees
// the end of the data given to Unmarshal).
func byteAt(data []byte, j int) byte {
	if j < len(data) {
		return data[j]
	}
	return ' '
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// charMessage is encoding/json's syntax error for the byte at data[j] in
// context, or for a json.Decoder (stream) whose data ends before j,
// "unexpected EOF".
func charMessage(data []byte, j int, context string, stream bool) string {
	if j >= len(data) && stream {
		return io.ErrUnexpectedEOF.Error()
	}
	return invalidChar(byteAt(data, j), context)
}

// invalidChar is the text of encoding/json's syntax errors about the byte c.
func invalidChar(c byte, context string) string {
	return "invalid character " + strconv.QuoteRune(rune(c)) + " " + context
}

// numberMessage describes a malformed number around data[k] as
// encoding/json does, or returns msg if the number is well formed.
func numberMessage(data []byte, k int, msg string, stream bool) string {
	i := k
	for i > 0 && isNumberByte(data[i-1]) {
		i--
	}
	if c := data[i]; c == '-' {
		i++
		if !isDigit(byteAt(data, i)) {
			return charMessage(data, i, "in numeric literal", stream)
		}
	} else if !isDigit(c) {
		return msg
	}
	if byteAt(data, i) == '0' {
		i++
	} else {
		for isDigit(byteAt(data, i)) {
			i++
		}
	}
	if byteAt(data, i) == '.' {
		i++
		if !isDigit(byteAt(data, i)) {
			return charMessage(data, i, "after decimal point in numeric literal", stream)
		}
		for isDigit(byteAt(data, i)) {
			i++
		}
	}
	if c := byteAt(data, i); c == 'e' || c == 'E' {
		i++
		if c := byteAt(data, i); c == '+' || c == '-' {
			i++
		}
		if !isDigit(byteAt(data, i)) {
			return charMessage(data, i, "in exponent of numeric literal", stream)
		}
	}
	return msg
}

// tooDeep returns the bracket that nests data deeper than 10,000 levels.
func tooDeep(data []byte) byte {
	depth := 0
	for i := 0; i < len(data); i++ {
		switch c := data[i]; c {
		case '"':
			i = StringEnd(data, i) - 1
		case '{', '[':
			if depth++; depth > 10000 {
				return c
			}
		case '}', ']':
			depth--
		}
	}
	return '['
}

func isNumberByte(c byte) bool {
	return c == '-' || c == '.' || c == '+' || c == 'e' || c == 'E' || (c >= '0' && c <= '9')
}

// endsInString reports whether data ends inside a string.
func endsInString(data []byte) bool {
	in := false
	for i := 0; i < len(data); i++ {
		switch c := data[i]; {
		case in && c == '\\':
			i++
		case c == '"':
			in = !in
		}
	}
	return in
}

// stringMessage finds the first malformed string of data and describes it
// as encoding/json does; ok is false if every string is well formed. For a
// json.Decoder (stream), data ending inside an escape is "unexpected EOF".
func stringMessage(data []byte, stream bool) (msg string, ok bool) {
	for i := 0; i < len(data); i++ {
		if data[i] != '"' {
			continue
		}
		for i++; ; i++ {
			if i >= len(data) {
				return "", false // unterminated: the caller's end-of-input message
			}
			c := data[i]
			if c == '"' {
				break
			}
			if c < 0x20 {
				return charMessage(data, i, "in string literal", stream), true
			}
			if c != '\\' {
				continue
			}
			i++
			switch byteAt(data, i) {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			case 'u':
				for k := 1; k <= 4; k++ {
					if !isHex(byteAt(data, i+k)) {
						return charMessage(data, i+k, "in \\u hexadecimal character escape", stream), true
					}
				}
				i += 4
			default:
				return charMessage(data, i, "in string escape code", stream), true
			}
		}
	}
	return "", false
}
