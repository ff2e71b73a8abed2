package core

import "testing"

// TestOutOfRangeNumbersMatchEncodingJSON: a number beyond float64 in an
// `any` member (top level or nested) or a map of them is encoding/json's
// deferred type error naming the member, and the rest is still decoded.
func TestOutOfRangeNumbersMatchEncodingJSON(t *testing.T) {
	for _, in := range []string{
		`{"progressToken":1e999,"progress":0.5}`,
		`{"progressToken":"t","progress":0.5,"progressToken":-1e400}`,
		`{"progressToken":[1,1e999,{"a":1e999}],"progress":0.5}`,
		`{"progressToken":{"a":1e999},"_meta":{"b":1e999}}`,
		`{"_meta":{"b":[1e999, "x"]},"progress":"x"}`,
		`{"progress":1e999,"_meta":{"b":1e999}}`,
	} {
		compareDecode(t, in, func(b []byte, p *ProgressParams) error { return decodeParamsOf(b, p) })
	}
}
