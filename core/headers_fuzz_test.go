package core

import (
	"encoding/base64"
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpwasm/mcpwasm/internal/jsonscan"
	"github.com/mcpwasm/mcpwasm/internal/wire"
)

// FuzzEncodeHeaderValue: any string (a tool name, a resource URI, an
// argument from the model) becomes a header value that is safe on the
// wire — visible ASCII and spaces only, no leading or trailing space —
// and that decodes back to the string exactly.
func FuzzEncodeHeaderValue(f *testing.F) {
	for _, s := range []string{"", "get_weather", " lead", "trail ", "a\r\nInjected: 1", "é", "=?base64?aGk=?=", "\x00", "\x7f"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, v string) {
		enc := wire.EncodeHeaderValue(v)
		for i := 0; i < len(enc); i++ {
			c := enc[i]
			require.True(t, c >= 0x20 && c < 0x7f, "byte %#x in %q", c, enc)
		}
		require.True(t, wire.ValidHeader("Mcp-Param-X", enc))
		if enc != "" {
			require.NotEqual(t, byte(' '), enc[0])
			require.NotEqual(t, byte(' '), enc[len(enc)-1])
		}
		if inner, ok := strings.CutPrefix(enc, "=?base64?"); ok && strings.HasSuffix(inner, "?=") {
			dec, err := base64.StdEncoding.DecodeString(strings.TrimSuffix(inner, "?="))
			require.NoError(t, err)
			assert.Equal(t, v, string(dec))
		} else {
			assert.Equal(t, v, enc)
		}
	})
}

// FuzzHeaderSpecs: a tool's inputSchema from the server. Validation never
// panics; the annotations it accepts have valid, distinct header names on
// non-empty property paths, and the headers mirrored from any arguments
// are valid HTTP headers.
func FuzzHeaderSpecs(f *testing.F) {
	for _, s := range [][2]string{
		{`{"type":"object","properties":{"region":{"type":"string","x-mcp-header":"Region"}}}`, `{"region":"eu-west\r\n"}`},
		{`{"properties":{"a":{"type":"object","properties":{"b":{"type":"integer","x-mcp-header":"B"}}}}}`, `{"a":{"b":12345678901234567890}}`},
		{`{"properties":{"x":{"type":"boolean","x-mcp-header":"X"},"y":{"type":"string","x-mcp-header":"x"}}}`, `{"x":true}`},
		{`{"items":{"properties":{"z":{"type":"string","x-mcp-header":"Z"}}}}`, `{}`},
		{`{"properties":{"q":{"type":"string","x-mcp-header":"Bad Name"}}}`, `{"q":"v"}`},
	} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, schema, args string) {
		specs, err := headerSpecs(RawMessage(schema))
		if err != nil {
			return
		}
		seen := map[string]bool{}
		for _, sp := range specs {
			require.True(t, wire.IsToken(sp.name), "%q", sp.name)
			require.NotEmpty(t, sp.path)
			require.False(t, seen[strings.ToLower(sp.name)], "duplicate %q", sp.name)
			seen[strings.ToLower(sp.name)] = true
		}
		if !json.Valid([]byte(args)) || !utf8.ValidString(args) {
			return
		}
		s := &Session{tools: map[string]*toolInfo{"t": {headers: specs}}}
		hs, err := s.mirroredHeaders(MethodCallTool, []jsonscan.Member{{Key: "name", Val: RawMessage(`"t"`)}, {Key: "arguments", Val: RawMessage(args)}})
		if err != nil {
			return
		}
		require.LessOrEqual(t, len(hs), 2+len(specs))
		for _, h := range hs {
			assert.True(t, wire.ValidHeader(h.Name, h.Value), "%q: %q", h.Name, h.Value)
		}
	})
}
