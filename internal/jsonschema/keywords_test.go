package jsonschema

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpwasm/mcpwasm/internal/jsonscan"
)

// mustCompile compiles a schema or fails the test.
func mustCompile(t testing.TB, schema string) *Schema {
	t.Helper()
	s, err := CompileWith([]byte(schema), testOptions)
	require.NoError(t, err, "schema: %s", schema)
	return s
}

// decodeNumber decodes JSON with UseNumber (numbers become jsonscan.Number).
func decodeNumber(t testing.TB, raw string) any {
	t.Helper()
	v, err := jsonscan.DecodeWith([]byte(raw), &jsonscan.DecodeOptions{UseNumber: true})
	require.NoError(t, err, "instance: %s", raw)
	return v
}

// decodeFloat decodes JSON the default way (numbers become float64).
func decodeFloat(t testing.TB, raw string) any {
	t.Helper()
	var v any
	require.NoError(t, json.Unmarshal([]byte(raw), &v), "instance: %s", raw)
	return v
}

// assertValid checks one instance with both number representations and
// through ValidateJSON.
func assertValid(t *testing.T, s *Schema, instance string, want bool) {
	t.Helper()
	for _, tc := range []struct {
		how string
		err error
	}{
		{"jsonscan.Number", s.Validate(decodeNumber(t, instance))},
		{"float64", s.Validate(decodeFloat(t, instance))},
		{"ValidateJSON", s.ValidateJSON([]byte(instance))},
	} {
		if want {
			assert.NoError(t, tc.err, "%s: %s", tc.how, instance)
			continue
		}
		if assert.Error(t, tc.err, "%s: %s", tc.how, instance) {
			var verr *ValidationError
			if assert.ErrorAs(t, tc.err, &verr) {
				assert.NotEmpty(t, verr.Causes)
			}
		}
	}
}

type instanceCase struct {
	instance string
	valid    bool
}

type keywordCase struct {
	name   string
	schema string
	cases  []instanceCase
}

func runKeywordCases(t *testing.T, table []keywordCase) {
	t.Helper()
	for _, kc := range table {
		t.Run(kc.name, func(t *testing.T) {
			s := mustCompile(t, kc.schema)
			for _, c := range kc.cases {
				assertValid(t, s, c.instance, c.valid)
			}
		})
	}
}

func TestBooleanSchemas(t *testing.T) {
	runKeywordCases(t, []keywordCase{
		{"true", `true`, []instanceCase{{`1`, true}, {`"x"`, true}, {`null`, true}, {`{"a":[1]}`, true}}},
		{"false", `false`, []instanceCase{{`1`, false}, {`null`, false}, {`{}`, false}}},
		{"empty object", `{}`, []instanceCase{{`[1,2]`, true}, {`false`, true}}},
		{"nested false", `{"properties":{"a":false}}`, []instanceCase{{`{"b":1}`, true}, {`{"a":null}`, false}}},
	})
}

func TestTypeKeyword(t *testing.T) {
	runKeywordCases(t, []keywordCase{
		{"null", `{"type":"null"}`, []instanceCase{{`null`, true}, {`0`, false}, {`""`, false}, {`false`, false}}},
		{"boolean", `{"type":"boolean"}`, []instanceCase{{`true`, true}, {`false`, true}, {`0`, false}, {`"true"`, false}}},
		{"object", `{"type":"object"}`, []instanceCase{{`{}`, true}, {`[]`, false}, {`null`, false}}},
		{"array", `{"type":"array"}`, []instanceCase{{`[]`, true}, {`{}`, false}, {`"[]"`, false}}},
		{"number", `{"type":"number"}`, []instanceCase{{`1`, true}, {`1.5`, true}, {`-1e300`, true}, {`"1"`, false}}},
		{"string", `{"type":"string"}`, []instanceCase{{`""`, true}, {`"é"`, true}, {`1`, false}, {`null`, false}}},
		{"integer", `{"type":"integer"}`, []instanceCase{
			{`1`, true}, {`1.0`, true}, {`-0`, true}, {`1e3`, true}, {`12345678901234567890123`, true},
			{`1.5`, false}, {`1e-3`, false}, {`"1"`, false},
		}},
		{"array of types", `{"type":["string","null"]}`, []instanceCase{{`"a"`, true}, {`null`, true}, {`1`, false}, {`{}`, false}}},
		{"integer or boolean", `{"type":["integer","boolean"]}`, []instanceCase{{`3`, true}, {`true`, true}, {`3.5`, false}}},
	})
}

func TestEnumAndConst(t *testing.T) {
	runKeywordCases(t, []keywordCase{
		{"enum strings", `{"enum":["red","green"]}`, []instanceCase{{`"red"`, true}, {`"blue"`, false}, {`null`, false}}},
		{"enum mixed", `{"enum":[1,"1",null,{"a":[1]}]}`, []instanceCase{
			{`1`, true}, {`1.0`, true}, {`"1"`, true}, {`null`, true}, {`{"a":[1.0]}`, true},
			{`true`, false}, {`{"a":[2]}`, false}, {`{"a":[1],"b":1}`, false},
		}},
		{"enum false is not 0", `{"enum":[false]}`, []instanceCase{{`false`, true}, {`0`, false}}},
		{"const number", `{"const":1}`, []instanceCase{{`1`, true}, {`1.0`, true}, {`1e0`, true}, {`10e-1`, true}, {`true`, false}, {`2`, false}}},
		{"const object", `{"const":{"a":1,"b":[true,null]}}`, []instanceCase{
			{`{"b":[true,null],"a":1.0}`, true}, {`{"a":1}`, false}, {`{"a":1,"b":[true]}`, false},
		}},
		{"const null", `{"const":null}`, []instanceCase{{`null`, true}, {`0`, false}, {`""`, false}}},
		{"const array order matters", `{"const":[1,2]}`, []instanceCase{{`[1,2]`, true}, {`[2,1]`, false}}},
	})
}

func TestNumericKeywords(t *testing.T) {
	runKeywordCases(t, []keywordCase{
		{"minimum", `{"minimum":1.5}`, []instanceCase{{`1.5`, true}, {`2`, true}, {`1.4999`, false}, {`"0"`, true}}},
		{"maximum", `{"maximum":3}`, []instanceCase{{`3`, true}, {`3.0`, true}, {`3.0001`, false}, {`-100`, true}}},
		{"exclusiveMinimum", `{"exclusiveMinimum":0}`, []instanceCase{{`0.0001`, true}, {`0`, false}, {`-1`, false}}},
		{"exclusiveMaximum", `{"exclusiveMaximum":-1}`, []instanceCase{{`-1.1`, true}, {`-1`, false}, {`0`, false}}},
		{"negative range", `{"minimum":-10,"maximum":-5}`, []instanceCase{{`-7`, true}, {`-11`, false}, {`-4`, false}}},
		{"multipleOf integer", `{"multipleOf":3}`, []instanceCase{{`9`, true}, {`0`, true}, {`-6`, true}, {`10`, false}, {`7.5`, false}}},
		{"multipleOf decimal", `{"multipleOf":0.0001}`, []instanceCase{{`0.0075`, true}, {`0.00751`, false}, {`12`, true}}},
		{"multipleOf 0.01", `{"multipleOf":0.01}`, []instanceCase{{`19.99`, true}, {`0.07`, true}, {`1.005`, false}}},
		{"multipleOf 1.5", `{"multipleOf":1.5}`, []instanceCase{{`4.5`, true}, {`35`, false}, {`1e2`, false}, {`3e2`, true}}},
		{"multipleOf huge quotient", `{"type":"integer","multipleOf":0.123456789}`, []instanceCase{{`1e308`, false}}},
		{"draft-04 boolean exclusiveMaximum", `{"$schema":"http://json-schema.org/draft-04/schema#","maximum":5,"exclusiveMaximum":true}`,
			[]instanceCase{{`4.9`, true}, {`5`, false}}},
		{"draft-04 boolean exclusiveMinimum false", `{"$schema":"http://json-schema.org/draft-04/schema#","minimum":5,"exclusiveMinimum":false}`,
			[]instanceCase{{`5`, true}, {`4`, false}}},
	})
}

func TestStringKeywords(t *testing.T) {
	runKeywordCases(t, []keywordCase{
		{"minLength", `{"minLength":2}`, []instanceCase{{`"ab"`, true}, {`"a"`, false}, {`"💩"`, false}, {`"💩💩"`, true}, {`1`, true}}},
		{"maxLength", `{"maxLength":2}`, []instanceCase{{`"ab"`, true}, {`"abc"`, false}, {`"ééé"`, false}, {`"éé"`, true}}},
		{"maxLength decimal", `{"maxLength":2.0}`, []instanceCase{{`"ab"`, true}, {`"abc"`, false}}},
		{"pattern unanchored", `{"pattern":"a+b"}`, []instanceCase{{`"xxaab"`, true}, {`"ba"`, false}, {`12`, true}}},
		{"pattern anchored", `{"pattern":"^[a-z]{2,3}-\\d+$"}`, []instanceCase{{`"ab-12"`, true}, {`"abcd-1"`, false}, {`"ab-"`, false}}},
		{"format is annotation only", `{"format":"email"}`, []instanceCase{{`"not an email"`, true}}},
		{"content keywords are annotations", `{"contentEncoding":"base64","contentMediaType":"application/json","contentSchema":{"type":"object"}}`,
			[]instanceCase{{`"!!!not base64"`, true}}},
	})
}

func TestArrayKeywords(t *testing.T) {
	runKeywordCases(t, []keywordCase{
		{"minItems", `{"minItems":1}`, []instanceCase{{`[1]`, true}, {`[]`, false}, {`{}`, true}}},
		{"maxItems", `{"maxItems":1}`, []instanceCase{{`[1]`, true}, {`[1,2]`, false}}},
		{"items", `{"items":{"type":"integer"}}`, []instanceCase{{`[1,2]`, true}, {`[]`, true}, {`[1,"2"]`, false}}},
		{"items false", `{"items":false}`, []instanceCase{{`[]`, true}, {`[1]`, false}}},
		{"prefixItems", `{"prefixItems":[{"type":"string"},{"type":"number"}]}`, []instanceCase{
			{`["a",1]`, true}, {`["a"]`, true}, {`["a",1,null]`, true}, {`[1,"a"]`, false},
		}},
		{"prefixItems with items false", `{"prefixItems":[{},{}],"items":false}`, []instanceCase{{`[1,2]`, true}, {`[1,2,3]`, false}}},
		{"prefixItems with items schema", `{"prefixItems":[{"type":"string"}],"items":{"type":"integer"}}`,
			[]instanceCase{{`["a",1,2]`, true}, {`["a",1,"b"]`, false}, {`[1]`, false}}},
		{"contains", `{"contains":{"const":5}}`, []instanceCase{{`[1,5]`, true}, {`[1,2]`, false}, {`[]`, false}, {`"x"`, true}}},
		{"minContains", `{"contains":{"const":5},"minContains":2}`, []instanceCase{{`[5,5]`, true}, {`[5,1]`, false}}},
		{"maxContains", `{"contains":{"const":5},"maxContains":1}`, []instanceCase{{`[5,1]`, true}, {`[5,5]`, false}, {`[1]`, false}}},
		{"minContains zero", `{"contains":{"const":5},"minContains":0}`, []instanceCase{{`[]`, true}, {`[1]`, true}}},
		{"maxContains without contains is ignored", `{"maxContains":0}`, []instanceCase{{`[1,2]`, true}}},
		{"uniqueItems", `{"uniqueItems":true}`, []instanceCase{
			{`[1,2,3]`, true}, {`[1,1]`, false}, {`[1,1.0]`, false}, {`[1,true]`, true}, {`[0,false]`, true},
			{`[{"a":1,"b":2},{"b":2,"a":1}]`, false}, {`[[1],[1,2]]`, true}, {`["a","a"]`, false}, {`[]`, true},
		}},
		{"uniqueItems large", `{"uniqueItems":true}`, []instanceCase{
			{`[0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,{"a":[1]},{"a":[1.0]}]`, false},
			{`[0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,{"a":[1]},{"a":["1"]}]`, true},
			{`[0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,"s5:x",20]`, true},
			{`[0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,{"a":1,"b":[2]},{"b":[2.0],"a":1}]`, false},
			{`[0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,1e2,null,true,[],{},100]`, false},
			{`[0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,-0,null,true,false,[],{},[[]],"",0.5,-1]`, false},
			{`[0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,null,true,false,[],{},[[]],"",0.5,-1]`, true},
		}},
		{"uniqueItems false", `{"uniqueItems":false}`, []instanceCase{{`[1,1]`, true}}},
	})
}

func TestObjectKeywords(t *testing.T) {
	runKeywordCases(t, []keywordCase{
		{"required", `{"required":["a","b"]}`, []instanceCase{{`{"a":1,"b":null}`, true}, {`{"a":1}`, false}, {`[]`, true}}},
		{"minProperties", `{"minProperties":1}`, []instanceCase{{`{"a":1}`, true}, {`{}`, false}}},
		{"maxProperties", `{"maxProperties":1}`, []instanceCase{{`{"a":1}`, true}, {`{"a":1,"b":2}`, false}}},
		{"properties", `{"properties":{"a":{"type":"string"},"b/c~d":{"type":"integer"}}}`, []instanceCase{
			{`{"a":"x","b/c~d":1}`, true}, {`{"a":1}`, false}, {`{"b/c~d":"x"}`, false}, {`{"z":1}`, true},
		}},
		{"patternProperties", `{"patternProperties":{"^x-":{"type":"string"},"[0-9]$":{"type":"integer"}}}`, []instanceCase{
			{`{"x-a":"s","n1":1}`, true}, {`{"x-a":1}`, false}, {`{"x-1":"s"}`, false}, {`{"other":null}`, true},
		}},
		{"additionalProperties false", `{"properties":{"a":{}},"patternProperties":{"^p":{}},"additionalProperties":false}`,
			[]instanceCase{{`{"a":1,"pq":2}`, true}, {`{"b":1}`, false}}},
		{"additionalProperties schema", `{"properties":{"a":{}},"additionalProperties":{"type":"boolean"}}`,
			[]instanceCase{{`{"a":1,"b":true}`, true}, {`{"b":1}`, false}}},
		{"propertyNames", `{"propertyNames":{"maxLength":3,"pattern":"^[a-z]+$"}}`, []instanceCase{
			{`{"abc":1}`, true}, {`{"abcd":1}`, false}, {`{"AB":1}`, false}, {`{}`, true},
		}},
		{"propertyNames false", `{"propertyNames":false}`, []instanceCase{{`{}`, true}, {`{"a":1}`, false}}},
		{"dependentRequired", `{"dependentRequired":{"card":["billing"]}}`, []instanceCase{
			{`{"card":1,"billing":2}`, true}, {`{"billing":2}`, true}, {`{"card":1}`, false},
		}},
		{"dependentSchemas", `{"dependentSchemas":{"card":{"required":["billing"],"properties":{"billing":{"type":"string"}}}}}`,
			[]instanceCase{{`{"card":1,"billing":"x"}`, true}, {`{"card":1}`, false}, {`{"card":1,"billing":2}`, false}, {`{}`, true}}},
	})
}

func TestApplicatorKeywords(t *testing.T) {
	runKeywordCases(t, []keywordCase{
		{"allOf", `{"allOf":[{"type":"integer"},{"minimum":3}]}`, []instanceCase{{`4`, true}, {`2`, false}, {`4.5`, false}}},
		{"anyOf", `{"anyOf":[{"type":"string"},{"minimum":3}]}`, []instanceCase{{`"a"`, true}, {`5`, true}, {`1`, false}}},
		{"oneOf", `{"oneOf":[{"type":"integer"},{"minimum":3}]}`, []instanceCase{{`1`, true}, {`3.5`, true}, {`5`, false}, {`1.5`, false}}},
		{"not", `{"not":{"type":"string"}}`, []instanceCase{{`1`, true}, {`"a"`, false}}},
		{"if then else", `{"if":{"properties":{"kind":{"const":"a"}},"required":["kind"]},"then":{"required":["a"]},"else":{"required":["b"]}}`,
			[]instanceCase{{`{"kind":"a","a":1}`, true}, {`{"kind":"a"}`, false}, {`{"kind":"z","b":1}`, true}, {`{"kind":"z"}`, false}, {`{"b":1}`, true}}},
		{"if without then/else", `{"if":false}`, []instanceCase{{`1`, true}}},
		{"then without if", `{"then":false,"else":false}`, []instanceCase{{`1`, true}}},
		{"nested combinators", `{"anyOf":[{"allOf":[{"type":"array"},{"maxItems":1}]},{"not":{"type":"array"}}]}`,
			[]instanceCase{{`[1]`, true}, {`{}`, true}, {`[1,2]`, false}}},
	})
}

func TestIgnoredKeywords(t *testing.T) {
	s := mustCompile(t, `{
		"title":"t","description":"d","default":5,"examples":[1],"deprecated":true,"readOnly":true,"writeOnly":false,
		"$comment":"c","x-mcp-header":"X-Tool","x-anything":{"type":"string","required":"not-a-list"},
		"definitions_typo":{"type":"nope"},"nullable":true,"type":"integer"}`)
	assertValid(t, s, `3`, true)
	assertValid(t, s, `"3"`, false)
	// Values of enum/const/default/examples are data, never schemas.
	s = mustCompile(t, `{"enum":[{"$ref":"https://example.com/x","$id":"urn:x"}],"default":{"$ref":"#/nope"}}`)
	assert.Empty(t, s.Unresolved())
	assertValid(t, s, `{"$ref":"https://example.com/x","$id":"urn:x"}`, true)
	assertValid(t, s, `{}`, false)
}
