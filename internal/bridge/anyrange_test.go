package bridge

import "testing"

// TestOutOfRangeNumbersMatchEncodingJSON: a number beyond float64 inside
// a map of any values is encoding/json's deferred type error (it was a
// decoding error before the bridge shared jsonscan.Decoder with core).
func TestOutOfRangeNumbersMatchEncodingJSON(t *testing.T) {
	for _, in := range []string{
		`{"meta":{"a":1e999}}`,
		`{"meta":{"a":[1,-1e999,{"b":1e999}]},"timeoutMs":5}`,
		`{"meta":{"a":1e999},"bogus":1}`,
		`{"noCache":"x","meta":{"a":1e999}}`,
	} {
		compare(t, in, "call options", func(c *CallOptions) Decodable { return c })
	}
	for _, in := range []string{
		`{"capabilities":{"experimental":{"a":1e999},"extensions":{"b":2}}}`,
		`{"roots":[{"uri":"a","_meta":{"k":1e999}}]}`,
	} {
		compare(t, in, "client options", func(c *ClientConfig) Decodable { return c })
	}
}
