package jsonscan

// AppendCompact appends the valid JSON raw as encoding/json's Marshal
// writes a json.RawMessage: without insignificant whitespace, with '<',
// '>', '&', U+2028 and U+2029 inside strings escaped as \u003c, \u003e,
// \u0026, \u2028 and \u2029. Empty raw is null (as [AppendRaw]).
func AppendCompact(dst, raw []byte) []byte {
	if len(raw) == 0 {
		return append(dst, "null"...)
	}
	const hex = "0123456789abcdef"
	inString := false
	start := 0
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		if inString {
			switch {
			case c == '\\':
				i++
			case c == '"':
				inString = false
			case c == '<' || c == '>' || c == '&':
				dst = append(dst, raw[start:i]...)
				dst = append(dst, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xF])
				start = i + 1
			case c == 0xE2 && i+2 < len(raw) && raw[i+1] == 0x80 && raw[i+2]&^1 == 0xA8:
				dst = append(dst, raw[start:i]...)
				dst = append(dst, '\\', 'u', '2', '0', '2', hex[raw[i+2]&0xF])
				start = i + 3
				i += 2
			}
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
	return append(dst, raw[start:]...)
}
