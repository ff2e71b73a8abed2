package manager

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf16"
)

// DefaultSeparator goes between a server's name and its tool's (or
// prompt's) name in the aggregate.
const DefaultSeparator = "__"

// nameMax is the longest function name the common LLM APIs accept.
const nameMax = 64

// sanitize keeps the characters every LLM API accepts in a function name
// and replaces each other UTF-16 code unit with "_" (as the npm package
// does, so both give the same names).
func sanitize(s string) string {
	var b strings.Builder
	for _, u := range utf16.Encode([]rune(s)) {
		if u < 128 && (u >= 'a' && u <= 'z' || u >= 'A' && u <= 'Z' || u >= '0' && u <= '9' || u == '_' || u == '-') {
			b.WriteByte(byte(u))
		} else {
			b.WriteByte('_')
		}
	}
	return b.String()
}

// fnv1a is FNV-1a (32 bits) over the UTF-16 code units of s.
func fnv1a(s string) string {
	h := uint32(0x811c9dc5)
	for _, u := range utf16.Encode([]rune(s)) {
		h ^= uint32(u)
		h *= 0x01000193
	}
	return fmt.Sprintf("%08x", h)
}

// NamespacedName is the aggregate's name of tool (or prompt) item of
// server: "<server><separator><item>" with characters outside
// [A-Za-z0-9_-] replaced by "_", and, when longer than 64 characters,
// shortened to 64 keeping a hash of the whole. An empty separator means
// DefaultSeparator.
func NamespacedName(server, item, separator string) string {
	if separator == "" {
		separator = DefaultSeparator
	}
	full := sanitize(server) + separator + sanitize(item)
	if len(full) <= nameMax {
		return full
	}
	h := fnv1a(server + "\x00" + item)
	return full[:nameMax-len(h)-1] + "_" + h
}

// uniqueName returns name, or name_2, name_3, … (within 64 characters),
// the first not taken.
func uniqueName(name string, taken map[string]bool) string {
	if !taken[name] {
		return name
	}
	for k := 2; ; k++ {
		suffix := "_" + strconv.Itoa(k)
		n := name
		if len(n) > nameMax-len(suffix) {
			n = n[:nameMax-len(suffix)]
		}
		n += suffix
		if !taken[n] {
			return n
		}
	}
}
