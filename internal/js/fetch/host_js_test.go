package jsfetch

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestHeaderPairs(t *testing.T) {
	parts := strings.Split("Content-Type\napplication/json\nvary\norigin\nset-cookie\na=1\nVary\naccept\nset-cookie\nb=2\nx-empty\n", "\n")
	h := headerPairs(parts)
	assert.Equal(t, map[string][]string{
		"content-type": {"application/json"},
		"vary":         {"origin", "accept"},
		"set-cookie":   {"a=1", "b=2"},
		"x-empty":      {""},
	}, h)
	h["content-type"] = append(h["content-type"], "text/plain")
	assert.Equal(t, []string{"origin", "accept"}, h["vary"], "appending to one header leaves the next alone")
}
