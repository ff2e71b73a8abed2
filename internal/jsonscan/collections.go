package jsonscan

import (
	"github.com/mcpwasm/mcpwasm/internal/order"
)

// SortedKeys returns the keys of m in the order encoding/json writes a
// map's members (byte-wise ascending).
func SortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	order.Strings(keys)
	return keys
}

// AppendSortedMap appends the map m as a JSON object, keys sorted as
// encoding/json writes a map, each value appended by elem; a nil map is
// null. The first error of elem stops it.
func AppendSortedMap[V any](dst []byte, m map[string]V, elem func(dst []byte, v V) ([]byte, error)) ([]byte, error) {
	if m == nil {
		return add(dst, "null"), nil
	}
	dst = add(dst, "{")
	for i, k := range SortedKeys(m) {
		if i > 0 {
			dst = add(dst, ",")
		}
		dst = add(AppendString(dst, k), ":")
		var err error
		if dst, err = elem(dst, m[k]); err != nil {
			return dst, err
		}
	}
	return add(dst, "}"), nil
}

// AppendArray appends the slice s as a JSON array, each element appended
// by elem; a nil slice is null. The first error of elem stops it.
func AppendArray[V any](dst []byte, s []V, elem func(dst []byte, v V) ([]byte, error)) ([]byte, error) {
	if s == nil {
		return add(dst, "null"), nil
	}
	dst = add(dst, "[")
	for i, e := range s {
		if i > 0 {
			dst = add(dst, ",")
		}
		var err error
		if dst, err = elem(dst, e); err != nil {
			return dst, err
		}
	}
	return add(dst, "]"), nil
}

// appendStringValue is AppendString as an element appender.
func appendStringValue(dst []byte, s string) ([]byte, error) { return AppendString(dst, s), nil }

// AppendStrings appends s as a JSON array of strings (nil: null).
func AppendStrings(dst []byte, s []string) ([]byte, error) {
	if s == nil {
		return add(dst, "null"), nil
	}
	dst = add(dst, "[")
	for i, e := range s {
		if i > 0 {
			dst = add(dst, ",")
		}
		dst = AppendString(dst, e)
	}
	return add(dst, "]"), nil
}

// appendStringMap is AppendSortedMap for a map of strings, without that
// generic function's copy for this shape.
func appendStringMap(dst []byte, m map[string]string) []byte {
	if m == nil {
		return add(dst, "null")
	}
	dst = add(dst, "{")
	for i, k := range SortedKeys(m) {
		if i > 0 {
			dst = add(dst, ",")
		}
		dst = AppendString(add(AppendString(dst, k), ":"), m[k])
	}
	return add(dst, "}")
}
