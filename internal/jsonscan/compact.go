package jsonscan

// AppendCompact appends the valid JSON raw with the whitespace between
// tokens removed, as encoding/json writes a json.RawMessage (or any
// json.Marshaler's output): with escapeHTML, <, > and & inside strings
// become \u003c, \u003e and \u0026, and U+2028 and U+2029 become \u2028
// and \u2029. Invalid JSON is an error and appends nothing.
func AppendCompact(dst, raw []byte, escapeHTML bool) ([]byte, error) {
	if err := SyntaxError(raw); err != nil {
		return dst, err
	}
	inString := false
	start := 0
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		if inString {
			r, n := rune(c), 1 // the character to escape, its length
			switch {
			case c == '\\':
				i++ // the escaped byte is plain
				continue
			case c == '"':
				inString = false
				continue
			case escapeHTML && (c == '<' || c == '>' || c == '&'):
			case escapeHTML && c == 0xE2 && i+2 < len(raw) && raw[i+1] == 0x80 && raw[i+2]&^1 == 0xA8:
				r, n = 0x2000|rune(raw[i+2]&0x2F), 3 // U+2028 or U+2029
			default:
				continue
			}
			dst = appendUnicodeEscape(append(dst, raw[start:i]...), r)
			start = i + n
			i += n - 1
			continue
		}
		switch c {
		case '"':
			inString = true
		case ' ', '\t', '\n', '\r':
			dst = append(dst, raw[start:i]...)
			start = i + 1
		}
	}
	return append(dst, raw[start:]...), nil
}
