package oneline_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/mcpwasm/mcpwasm/internal/oneline"
)

func TestCut(t *testing.T) {
	tests := []struct {
		name, in string
		max      int
		want     string
	}{
		{"white space runs become one space", "  <html>\n\t<body>\r\n  Bad   Gateway </body>\n", 100, "<html> <body> Bad Gateway </body>"},
		{"control characters count as space", "a\x00\x01b", 100, "a b"},
		{"cut at a character boundary", "ééééé", 5, "éé…"},
		{"empty", " \n ", 10, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, oneline.Cut(tc.in, tc.max))
		})
	}
}
