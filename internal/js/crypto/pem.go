package jscrypto

import (
	"bytes"

	"github.com/mcpwasm/mcpwasm/internal/b64"
)

// pemDecode is encoding/pem.Decode for what ParseSigner needs of it: the
// type and the bytes of the first PEM block in data (ok false: none),
// found by the same rules (a block whose end line or base64 is malformed
// is skipped), with the headers read past and not kept. It spares the
// module encoding/pem (its headers map and the line handling, 8 KB of
// WebAssembly code); pem_test.go holds it to encoding/pem.
func pemDecode(data []byte) (typ string, der []byte, ok bool) {
	const (
		pemStart     = "\n-----BEGIN "
		pemEnd       = "\n-----END "
		pemEndOfLine = "-----"
	)
	rest := data
	for {
		if bytes.HasPrefix(rest, []byte(pemStart[1:])) {
			rest = rest[len(pemStart)-1:]
		} else if i := bytes.Index(rest, []byte(pemStart)); i >= 0 {
			rest = rest[i+len(pemStart):]
		} else {
			return "", nil, false
		}
		var typeLine []byte
		typeLine, rest = pemLine(rest)
		if !bytes.HasSuffix(typeLine, []byte(pemEndOfLine)) {
			continue
		}
		typeLine = typeLine[:len(typeLine)-len(pemEndOfLine)]
		headers := false
		for {
			if len(rest) == 0 {
				return "", nil, false
			}
			line, next := pemLine(rest)
			if bytes.IndexByte(line, ':') < 0 {
				break
			}
			headers = true
			rest = next
		}
		var endIndex, endTrailerIndex int
		// Without headers, the END line may come at once, without a
		// leading newline.
		if !headers && bytes.HasPrefix(rest, []byte(pemEnd[1:])) {
			endIndex, endTrailerIndex = 0, len(pemEnd)-1
		} else {
			endIndex = bytes.Index(rest, []byte(pemEnd))
			endTrailerIndex = endIndex + len(pemEnd)
		}
		if endIndex < 0 {
			continue
		}
		// After the END line's "-----": the same type, five dashes, and
		// nothing but spaces and tabs on the line.
		endTrailer := rest[endTrailerIndex:]
		n := len(typeLine) + len(pemEndOfLine)
		if len(endTrailer) < n || !bytes.HasPrefix(endTrailer[:n], typeLine) || !bytes.HasSuffix(endTrailer[:n], []byte(pemEndOfLine)) {
			continue
		}
		if s, _ := pemLine(endTrailer[n:]); len(s) != 0 {
			continue
		}
		body := make([]byte, 0, endIndex)
		for _, c := range rest[:endIndex] {
			if c != ' ' && c != '\t' {
				body = append(body, c)
			}
		}
		out, err := b64.DecodeStd(body)
		if err != nil {
			continue
		}
		return string(typeLine), out, true
	}
}

// pemLine is encoding/pem's getLine: the line up to "\n" or "\r\n" with
// trailing spaces and tabs removed, and the rest after it.
func pemLine(data []byte) (line, rest []byte) {
	i := bytes.IndexByte(data, '\n')
	j := i + 1
	if i < 0 {
		i, j = len(data), len(data)
	} else if i > 0 && data[i-1] == '\r' {
		i--
	}
	return bytes.TrimRight(data[:i], " \t"), data[j:]
}
