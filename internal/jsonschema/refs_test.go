package jsonschema

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestRefForms(t *testing.T) {
	runKeywordCases(t, []keywordCase{
		{"$defs pointer", `{"$defs":{"pos":{"type":"integer","minimum":1}},"properties":{"n":{"$ref":"#/$defs/pos"}}}`,
			[]instanceCase{{`{"n":1}`, true}, {`{"n":0}`, false}, {`{"n":"1"}`, false}}},
		{"definitions pointer", `{"definitions":{"s":{"type":"string"}},"items":{"$ref":"#/definitions/s"}}`,
			[]instanceCase{{`["a"]`, true}, {`[1]`, false}}},
		{"pointer into properties and items", `{"properties":{"a":{"items":{"type":"string"}},"b":{"$ref":"#/properties/a/items"}}}`,
			[]instanceCase{{`{"b":"x"}`, true}, {`{"b":1}`, false}}},
		{"pointer into array", `{"$defs":{"u":{"anyOf":[{"type":"number"},{"type":"string"}]}},"properties":{"x":{"$ref":"#/$defs/u/anyOf/0"}}}`,
			[]instanceCase{{`{"x":1}`, true}, {`{"x":"1"}`, false}}},
		{"escaped ~0 ~1", `{"$defs":{"a/b":{"type":"integer"},"c~d":{"type":"string"}},
			"properties":{"p":{"$ref":"#/$defs/a~1b"},"q":{"$ref":"#/$defs/c~0d"}}}`,
			[]instanceCase{{`{"p":1,"q":"s"}`, true}, {`{"p":"1"}`, false}, {`{"q":1}`, false}}},
		{"percent-encoded", `{"$defs":{"percent%field":{"type":"integer"},"sp ace":{"type":"string"}},
			"properties":{"p":{"$ref":"#/$defs/percent%25field"},"q":{"$ref":"#/$defs/sp%20ace"}}}`,
			[]instanceCase{{`{"p":1,"q":"s"}`, true}, {`{"p":"1"}`, false}, {`{"q":1}`, false}}},
		{"root ref", `{"properties":{"self":{"$ref":"#"}},"required":["v"]}`,
			[]instanceCase{{`{"v":1,"self":{"v":2}}`, true}, {`{"v":1,"self":{}}`, false}}},
		{"$anchor", `{"$defs":{"x":{"$anchor":"name","type":"string"}},"properties":{"n":{"$ref":"#name"}}}`,
			[]instanceCase{{`{"n":"s"}`, true}, {`{"n":1}`, false}}},
		{"$id relative", `{"$id":"https://example.com/root.json","$defs":{
				"a":{"$id":"a.json","type":"integer"},
				"b":{"$id":"nested/b.json","$defs":{"c":{"$id":"c.json","type":"string"}}}},
			"properties":{"x":{"$ref":"a.json"},"y":{"$ref":"https://example.com/nested/c.json"},"z":{"$ref":"nested/b.json#/$defs/c"}}}`,
			[]instanceCase{{`{"x":1,"y":"s","z":"t"}`, true}, {`{"x":"1"}`, false}, {`{"y":1}`, false}, {`{"z":1}`, false}}},
		{"ref against nested base", `{"$id":"http://h/root","$defs":{"inner":{"$id":"dir/inner","$defs":{"t":{"type":"boolean"}},
				"properties":{"v":{"$ref":"#/$defs/t"}}}},"$ref":"dir/inner"}`,
			[]instanceCase{{`{"v":true}`, true}, {`{"v":1}`, false}}},
		{"urn $id", `{"$id":"urn:uuid:deadbeef-1234-ffff-ffff-4321feebdaed","$defs":{"b":{"type":"string"}},
			"properties":{"x":{"$ref":"urn:uuid:deadbeef-1234-ffff-ffff-4321feebdaed#/$defs/b"}}}`,
			[]instanceCase{{`{"x":"s"}`, true}, {`{"x":1}`, false}}},
		{"anchor in embedded resource", `{"$id":"http://h/root","$defs":{"o":{"$id":"other","$defs":{"t":{"$anchor":"t","type":"null"}}}},
			"properties":{"x":{"$ref":"other#t"}}}`,
			[]instanceCase{{`{"x":null}`, true}, {`{"x":0}`, false}}},
		{"siblings of $ref apply (2020-12)", `{"$defs":{"i":{"type":"integer"}},"$ref":"#/$defs/i","minimum":10}`,
			[]instanceCase{{`10`, true}, {`5`, false}, {`"x"`, false}}},
		{"ref to boolean schema", `{"$defs":{"no":false},"properties":{"x":{"$ref":"#/$defs/no"}}}`,
			[]instanceCase{{`{}`, true}, {`{"x":1}`, false}}},
	})
}

func TestRecursiveSchemas(t *testing.T) {
	runKeywordCases(t, []keywordCase{
		{"tree", `{"$defs":{"node":{"type":"object","required":["value"],"properties":{
				"value":{"type":"number"},"children":{"type":"array","items":{"$ref":"#/$defs/node"}}}}},
			"$ref":"#/$defs/node"}`,
			[]instanceCase{
				{`{"value":1,"children":[{"value":2},{"value":3,"children":[{"value":4,"children":[]}]}]}`, true},
				{`{"value":1,"children":[{"value":2},{"value":3,"children":[{"value":"4"}]}]}`, false},
				{`{"value":1,"children":[{"children":[]}]}`, false},
			}},
		{"linked list", `{"$defs":{"list":{"type":["object","null"],"properties":{"head":{"type":"integer"},"tail":{"$ref":"#/$defs/list"}},
				"required":["head","tail"]}},"$ref":"#/$defs/list"}`,
			[]instanceCase{
				{`{"head":1,"tail":{"head":2,"tail":{"head":3,"tail":null}}}`, true},
				{`{"head":1,"tail":{"head":2,"tail":{"head":"3","tail":null}}}`, false},
				{`{"head":1,"tail":{"head":2}}`, false},
			}},
		{"dynamicRef extensible tree", `{
			"$id":"https://example.com/strict-tree","$dynamicAnchor":"node",
			"$ref":"tree","unevaluatedProperties":false,
			"$defs":{"tree":{"$id":"tree","$dynamicAnchor":"node","type":"object",
				"properties":{"data":true,"children":{"type":"array","items":{"$dynamicRef":"#node"}}}}}}`,
			[]instanceCase{
				{`{"children":[{"data":1}]}`, true},
				{`{"children":[{"daat":1}]}`, false}, // the dynamic reference reaches the strict root
				{`{"daat":1}`, false},
			}},
		{"dynamicRef generic list", `{
			"$id":"https://example.com/string-list","$ref":"list",
			"$defs":{
				"item":{"$dynamicAnchor":"item","type":"string"},
				"list":{"$id":"list","type":"array","items":{"$dynamicRef":"#item"},
					"$defs":{"default":{"$dynamicAnchor":"item"}}}}}`,
			[]instanceCase{{`["a","b"]`, true}, {`["a",1]`, false}}},
		{"recursiveRef 2019-09", `{"$schema":"https://json-schema.org/draft/2019-09/schema",
			"$id":"https://example.com/root","$recursiveAnchor":true,"$ref":"base","unevaluatedProperties":false,
			"$defs":{"base":{"$id":"base","$recursiveAnchor":true,"type":"object",
				"properties":{"name":{"type":"string"},"kids":{"type":"array","items":{"$recursiveRef":"#"}}}}}}`,
			[]instanceCase{{`{"name":"a","kids":[{"name":"b"}]}`, true}, {`{"name":"a","kids":[{"nmae":"b"}]}`, false}}},
	})
}

func TestUnresolvedRemoteRef(t *testing.T) {
	var hits atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		hits.Add(1)
		_, _ = w.Write([]byte(`false`))
	}))
	defer srv.Close()

	s := mustCompile(t, `{
		"type":"object",
		"properties":{
			"remote":{"$ref":"`+srv.URL+`/schema.json"},
			"meta":{"$ref":"https://json-schema.org/draft/2020-12/schema"},
			"rel":{"$ref":"other.json#/$defs/x"},
			"missing":{"$ref":"#/$defs/missing"},
			"dyn":{"$dynamicRef":"https://example.com/schema.json#node"},
			"n":{"type":"number"}
		}}`)
	assert.Equal(t, []string{
		"#/$defs/missing",
		srv.URL + "/schema.json", // http://127.0.0.1:port sorts before https://
		"https://example.com/schema.json#node",
		"https://json-schema.org/draft/2020-12/schema",
		"other.json#/$defs/x",
	}, s.Unresolved())
	// Unresolved references accept everything; other keywords still apply.
	assertValid(t, s, `{"remote":1,"meta":"x","rel":null,"missing":[],"dyn":{}}`, true)
	assertValid(t, s, `{"remote":1,"n":"not a number"}`, false)
	assert.Zero(t, hits.Load(), "Compile/Validate must never perform I/O")

	// Unresolved() returns a copy.
	u := s.Unresolved()
	u[0] = "changed"
	assert.Equal(t, "#/$defs/missing", s.Unresolved()[0])

	// Relative to an absolute $id.
	s = mustCompile(t, `{"$id":"https://example.com/dir/root.json","$ref":"../common.json#/$defs/id","type":"string"}`)
	assert.Equal(t, []string{"https://example.com/common.json#/$defs/id"}, s.Unresolved())
	assertValid(t, s, `"x"`, true)
	assertValid(t, s, `1`, false)

	assert.Empty(t, mustCompile(t, `{"$defs":{"a":{}},"$ref":"#/$defs/a"}`).Unresolved())
}

func TestDraft07Compatibility(t *testing.T) {
	const d7 = `"$schema":"http://json-schema.org/draft-07/schema#",`
	runKeywordCases(t, []keywordCase{
		{"$ref ignores siblings", `{` + d7 + `"definitions":{"s":{"type":"string"}},"$ref":"#/definitions/s","maxLength":1}`,
			[]instanceCase{{`"long string"`, true}, {`1`, false}}},
		{"tuple items", `{` + d7 + `"items":[{"type":"string"},{"type":"integer"}],"additionalItems":false}`,
			[]instanceCase{{`["a",1]`, true}, {`["a"]`, true}, {`["a",1,2]`, false}, {`[1]`, false}}},
		{"tuple items with schema additionalItems", `{` + d7 + `"items":[{}],"additionalItems":{"type":"boolean"}}`,
			[]instanceCase{{`[1,true,false]`, true}, {`[1,2]`, false}}},
		{"additionalItems without tuple is ignored", `{` + d7 + `"items":{},"additionalItems":false}`,
			[]instanceCase{{`[1,2]`, true}}},
		{"dependencies", `{` + d7 + `"dependencies":{"a":["b"],"c":{"required":["d"]}}}`,
			[]instanceCase{{`{"a":1,"b":1}`, true}, {`{"a":1}`, false}, {`{"c":1,"d":1}`, true}, {`{"c":1}`, false}}},
		{"$id anchor", `{` + d7 + `"definitions":{"x":{"$id":"#foo","type":"integer"}},"properties":{"p":{"$ref":"#foo"}}}`,
			[]instanceCase{{`{"p":1}`, true}, {`{"p":"1"}`, false}}},
		{"no $schema: draft-07 spellings are accepted", `{"definitions":{"s":{"type":"string"}},"items":[{"$ref":"#/definitions/s"}],"additionalItems":false}`,
			[]instanceCase{{`["a"]`, true}, {`[1]`, false}, {`["a","b"]`, false}}},
		{"draft-04 id", `{"$schema":"http://json-schema.org/draft-04/schema#","id":"http://x/root","definitions":{"a":{"id":"a","type":"null"}},
			"properties":{"p":{"$ref":"http://x/a"}}}`,
			[]instanceCase{{`{"p":null}`, true}, {`{"p":1}`, false}}},
		{"2020-12 ignores additionalItems", `{"$schema":"https://json-schema.org/draft/2020-12/schema","prefixItems":[{}],"additionalItems":false}`,
			[]instanceCase{{`[1,2]`, true}}},
	})
}

func TestCycles(t *testing.T) {
	for _, tc := range []struct{ schema, msg string }{
		{`{"$ref":"#"}`, "circular schema reference"},
		{`{"$defs":{"a":{"$ref":"#/$defs/b"},"b":{"$ref":"#/$defs/a"}},"$ref":"#/$defs/a"}`, "circular schema reference"},
		{`{"allOf":[{"$ref":"#"}],"type":"object"}`, "circular schema reference"},
		{`{"anyOf":[{"$ref":"#"},{"$ref":"#"}]}`, "does not match any schema in anyOf"},
	} {
		t.Run(tc.schema, func(t *testing.T) {
			s := mustCompile(t, tc.schema)
			err := s.Validate(map[string]any{"a": 1.0})
			var verr *ValidationError
			require.ErrorAs(t, err, &verr)
			assert.Contains(t, verr.Error(), tc.msg)
		})
	}
	// A cycle that consumes the instance is fine.
	s := mustCompile(t, `{"anyOf":[{"type":"integer"},{"type":"array","items":{"$ref":"#"}}]}`)
	assertValid(t, s, `[1,[2,[3,[4]]]]`, true)
	assertValid(t, s, `[1,[2,[3,["4"]]]]`, false)
	// A cycle behind a passing anyOf branch is never reached.
	s = mustCompile(t, `{"anyOf":[true,{"$ref":"#"}]}`)
	assertValid(t, s, `1`, true)
}

func TestExponentialSchemaIsBounded(t *testing.T) {
	// 40 levels of two-way anyOf over the next level: 2^40 paths.
	defs := ""
	for i := 0; i < 40; i++ {
		next := `{"type":"string"}`
		if i < 39 {
			next = `{"$ref":"#/$defs/d` + itoa(i+1) + `"}`
		}
		if i > 0 {
			defs += ","
		}
		defs += `"d` + itoa(i) + `":{"anyOf":[{"allOf":[` + next + `,{"minLength":100}]},` + next + `]}`
	}
	s := mustCompile(t, `{"$defs":{`+defs+`},"$ref":"#/$defs/d0"}`)
	start := time.Now()
	err := s.Validate(1.0)
	var verr *ValidationError
	require.ErrorAs(t, err, &verr)
	assert.Less(t, time.Since(start), 10*time.Second)
	assert.Equal(t, "jsonschema: (root): validation exceeds the evaluation limits (and 1 more)", err.Error())
}

func itoa(i int) string {
	if i < 10 {
		return string(rune('0' + i))
	}
	return itoa(i/10) + string(rune('0'+i%10))
}

func TestCompileErrors(t *testing.T) {
	for _, tc := range []struct{ name, schema, detail string }{
		{"not JSON", `{"type":`, "unexpected EOF"},
		{"trailing data", `{} {}`, "trailing data"},
		{"not a schema", `[1,2]`, "object or boolean"},
		{"number schema", `3`, "object or boolean"},
		{"bad type", `{"type":"int"}`, `#/type: unknown type "int"`},
		{"bad type array", `{"type":["string",1]}`, "#/type"},
		{"bad type value", `{"type":{}}`, "#/type"},
		{"required not array", `{"required":"name"}`, "#/required"},
		{"minLength negative", `{"properties":{"a":{"minLength":-1}}}`, "#/properties/a/minLength"},
		{"minLength fraction", `{"minLength":1.5}`, "#/minLength"},
		{"maximum string", `{"maximum":"5"}`, "#/maximum"},
		{"multipleOf zero", `{"multipleOf":0}`, "#/multipleOf"},
		{"allOf empty", `{"allOf":[]}`, "#/allOf"},
		{"anyOf not array", `{"anyOf":{}}`, "#/anyOf"},
		{"properties not object", `{"properties":[]}`, "#/properties"},
		{"subschema not schema", `{"items":5}`, "#/items"},
		{"ref not string", `{"$ref":5}`, "#/$ref"},
		{"ref to non-schema", `{"$defs":{"a":{"const":1}},"$ref":"#/$defs/a/const"}`, "#/$defs/a/const"},
		{"enum not array", `{"enum":1}`, "#/enum"},
		{"uniqueItems not bool", `{"uniqueItems":1}`, "#/uniqueItems"},
		{"error in unused $defs", `{"$defs":{"x":{"type":"strin"}}}`, "#/$defs/x/type"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := Compile([]byte(tc.schema))
			require.Error(t, err)
			assert.Nil(t, s)
			assert.True(t, errors.Is(err, ErrInvalidSchema), "%v", err)
			assert.Contains(t, err.Error(), tc.detail)
		})
	}
}

func TestURIResolution(t *testing.T) {
	for _, tc := range []struct{ base, ref, want string }{
		{"", "#/a", "#/a"},
		{"", "#", ""},
		{"http://a/b/c/d;p?q", "g", "http://a/b/c/g"},
		{"http://a/b/c/d;p?q", "./g", "http://a/b/c/g"},
		{"http://a/b/c/d;p?q", "g/", "http://a/b/c/g/"},
		{"http://a/b/c/d;p?q", "/g", "http://a/g"},
		{"http://a/b/c/d;p?q", "//g", "http://g"},
		{"http://a/b/c/d;p?q", "?y", "http://a/b/c/d;p?y"},
		{"http://a/b/c/d;p?q", "#s", "http://a/b/c/d;p?q#s"},
		{"http://a/b/c/d;p?q", "..", "http://a/b/"},
		{"http://a/b/c/d;p?q", "../g", "http://a/b/g"},
		{"http://a/b/c/d;p?q", "../../../g", "http://a/g"},
		{"http://a/b/c/d;p?q", "g;x=1/../y", "http://a/b/c/y"},
		{"http://a", "b", "http://a/b"},
		{"urn:x:y", "#/z", "urn:x:y#/z"},
		{"https://e.com/r.json", "urn:other", "urn:other"},
		{"file:///tmp/a.json", "b.json#", "file:///tmp/b.json"},
	} {
		assert.Equal(t, tc.want, resolveURI(tc.base, tc.ref), "%q + %q", tc.base, tc.ref)
	}
}

func TestDeepInstances(t *testing.T) {
	s := mustCompile(t, `{"type":["array","integer"],"items":{"$ref":"#"}}`)
	nest := func(depth int) string {
		return strings.Repeat("[", depth) + "1" + strings.Repeat("]", depth)
	}
	assertValid(t, s, nest(1000), true)
	// Beyond maxDepth nested evaluations the instance is rejected, without
	// exhausting the goroutine stack.
	err := s.ValidateJSON([]byte(nest(5000)))
	var verr *ValidationError
	require.ErrorAs(t, err, &verr)
	assert.Equal(t, limitMsg, verr.Causes[0].Message)
}
