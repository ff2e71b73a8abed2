package jsonschema

import (
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpwasm/mcpwasm/internal/jsonscan"
)

func TestUnevaluatedProperties(t *testing.T) {
	runKeywordCases(t, []keywordCase{
		{"plain", `{"properties":{"a":{}},"unevaluatedProperties":false}`,
			[]instanceCase{{`{"a":1}`, true}, {`{"a":1,"b":2}`, false}}},
		{"schema", `{"properties":{"a":{}},"unevaluatedProperties":{"type":"integer"}}`,
			[]instanceCase{{`{"a":"x","b":2}`, true}, {`{"b":"x"}`, false}}},
		{"through allOf", `{"allOf":[{"properties":{"a":{}}}],"properties":{"b":{}},"unevaluatedProperties":false}`,
			[]instanceCase{{`{"a":1,"b":2}`, true}, {`{"a":1,"c":2}`, false}}},
		{"through $ref", `{"$defs":{"base":{"properties":{"id":{"type":"string"}}}},"$ref":"#/$defs/base",
			"properties":{"name":{}},"unevaluatedProperties":false}`,
			[]instanceCase{{`{"id":"1","name":"n"}`, true}, {`{"id":"1","extra":true}`, false}}},
		{"through nested $ref and allOf", `{"$defs":{"a":{"allOf":[{"$ref":"#/$defs/b"}]},"b":{"patternProperties":{"^x":{}}}},
			"allOf":[{"$ref":"#/$defs/a"}],"unevaluatedProperties":false}`,
			[]instanceCase{{`{"xa":1,"xb":2}`, true}, {`{"xa":1,"y":2}`, false}}},
		{"anyOf collects every passing branch", `{"anyOf":[{"properties":{"a":{"type":"integer"}},"required":["a"]},
			{"properties":{"b":{"type":"integer"}},"required":["b"]}],"unevaluatedProperties":false}`,
			[]instanceCase{{`{"a":1,"b":2}`, true}, {`{"a":1}`, true}, {`{"a":1,"b":"x"}`, false}, {`{"a":1,"c":1}`, false}}},
		{"oneOf", `{"oneOf":[{"properties":{"a":{}},"required":["a"]},{"properties":{"b":{}},"required":["b"]}],"unevaluatedProperties":false}`,
			[]instanceCase{{`{"a":1}`, true}, {`{"b":1}`, true}, {`{"a":1,"c":1}`, false}}},
		{"failed branches do not count", `{"anyOf":[{"properties":{"a":{"type":"string"}}},{"properties":{"b":{}}}],"unevaluatedProperties":false}`,
			[]instanceCase{{`{"a":1}`, false}, {`{"a":"s"}`, true}}},
		{"if/then/else", `{"if":{"properties":{"t":{"const":"x"}},"required":["t"]},"then":{"properties":{"x":{}}},
			"else":{"properties":{"y":{}}},"unevaluatedProperties":false}`,
			[]instanceCase{{`{"t":"x","x":1}`, true}, {`{"t":"x","y":1}`, false}, {`{"y":1}`, true}, {`{"t":"z","y":1}`, false}}},
		{"dependentSchemas", `{"properties":{"a":{}},"dependentSchemas":{"a":{"properties":{"b":{}}}},"unevaluatedProperties":false}`,
			[]instanceCase{{`{"a":1,"b":1}`, true}, {`{"b":1}`, false}}},
		{"not does not count", `{"not":{"not":{"properties":{"a":{}}}},"unevaluatedProperties":false}`,
			[]instanceCase{{`{"a":1}`, false}, {`{}`, true}}},
		{"additionalProperties evaluates all", `{"additionalProperties":true,"unevaluatedProperties":false}`,
			[]instanceCase{{`{"z":1}`, true}}},
		{"cousins are not visible", `{"allOf":[{"properties":{"a":{}}},{"unevaluatedProperties":false}]}`,
			[]instanceCase{{`{"a":1}`, false}, {`{}`, true}}},
		{"nested unevaluatedProperties", `{"properties":{"a":{}},"allOf":[{"properties":{"b":{}},"unevaluatedProperties":false}],
			"unevaluatedProperties":false}`,
			[]instanceCase{{`{"b":1}`, true}, {`{"a":1}`, false}}},
		{"dynamicRef", `{"$id":"https://e.com/r","$ref":"base","unevaluatedProperties":false,
			"$defs":{"base":{"$id":"base","properties":{"k":{"$dynamicRef":"#p"}},"$defs":{"p":{"$dynamicAnchor":"p"}}},
			"p":{"$dynamicAnchor":"p","type":"string"}}}`,
			[]instanceCase{{`{"k":"s"}`, true}, {`{"k":1}`, false}, {`{"k":"s","z":1}`, false}}},
	})
}

func TestUnevaluatedItems(t *testing.T) {
	runKeywordCases(t, []keywordCase{
		{"plain", `{"prefixItems":[{}],"unevaluatedItems":false}`, []instanceCase{{`[1]`, true}, {`[1,2]`, false}}},
		{"items evaluates all", `{"items":{},"unevaluatedItems":false}`, []instanceCase{{`[1,2,3]`, true}}},
		{"through allOf", `{"allOf":[{"prefixItems":[{},{}]}],"prefixItems":[{}],"unevaluatedItems":false}`,
			[]instanceCase{{`[1,2]`, true}, {`[1,2,3]`, false}}},
		{"through $ref", `{"$defs":{"t":{"prefixItems":[{"type":"string"}]}},"$ref":"#/$defs/t","unevaluatedItems":{"type":"integer"}}`,
			[]instanceCase{{`["a",1,2]`, true}, {`["a",1,"b"]`, false}}},
		{"contains marks matches", `{"contains":{"type":"string"},"unevaluatedItems":{"type":"integer"}}`,
			[]instanceCase{{`["a",1,"b",2]`, true}, {`["a",1.5]`, false}}},
		{"anyOf", `{"anyOf":[{"prefixItems":[{"const":1}]},{"prefixItems":[{},{"const":2}]}],"unevaluatedItems":false}`,
			[]instanceCase{{`[1]`, true}, {`[1,2]`, true}, {`[5,2]`, true}, {`[1,3]`, false}}},
		{"if/then", `{"if":{"prefixItems":[{"const":"a"}]},"then":{"prefixItems":[{},{"const":"b"}]},"unevaluatedItems":false}`,
			[]instanceCase{{`["a","b"]`, true}, {`["a","b","c"]`, false}, {`["x"]`, false}}},
	})
}

func TestBigNumbers(t *testing.T) {
	t.Run("integers beyond float64 precision", func(t *testing.T) {
		s := mustCompile(t, `{"const":9007199254740992}`)
		require.NoError(t, s.ValidateJSON([]byte(`9007199254740992`)))
		require.Error(t, s.ValidateJSON([]byte(`9007199254740993`)), "json.Number keeps every digit")
		require.NoError(t, s.Validate(9007199254740992.0))

		s = mustCompile(t, `{"maximum":9007199254740992}`)
		require.NoError(t, s.ValidateJSON([]byte(`9007199254740992`)))
		require.Error(t, s.ValidateJSON([]byte(`9007199254740993`)))

		s = mustCompile(t, `{"enum":[18446744073709551616, 123456789012345678901234567890]}`)
		require.NoError(t, s.ValidateJSON([]byte(`123456789012345678901234567890`)))
		require.NoError(t, s.ValidateJSON([]byte(`1.8446744073709551616e19`)))
		require.Error(t, s.ValidateJSON([]byte(`123456789012345678901234567891`)))

		s = mustCompile(t, `{"type":"integer"}`)
		require.NoError(t, s.ValidateJSON([]byte(`9007199254740993`)))
		require.NoError(t, s.ValidateJSON([]byte(`100000000000000000000000000000000000001`)))
		require.Error(t, s.ValidateJSON([]byte(`100000000000000000000000000000000000000.5`)))
	})
	t.Run("uniqueItems", func(t *testing.T) {
		s := mustCompile(t, `{"uniqueItems":true}`)
		require.NoError(t, s.ValidateJSON([]byte(`[9007199254740992, 9007199254740993]`)))
		require.Error(t, s.ValidateJSON([]byte(`[9007199254740993, 9007199254740993.0]`)))
	})
	t.Run("multipleOf exact", func(t *testing.T) {
		s := mustCompile(t, `{"multipleOf":3}`)
		require.NoError(t, s.ValidateJSON([]byte(`900719925474099300000000000000000003`)))
		require.Error(t, s.ValidateJSON([]byte(`900719925474099300000000000000000004`)))
		s = mustCompile(t, `{"multipleOf":1e-30}`)
		require.NoError(t, s.ValidateJSON([]byte(`1e300`)))
		require.Error(t, s.ValidateJSON([]byte(`1e-31`)))
	})
	t.Run("huge exponents", func(t *testing.T) {
		s := mustCompile(t, `{"minimum":1e308,"type":"integer"}`)
		require.NoError(t, s.ValidateJSON([]byte(`1e400`)))
		require.Error(t, s.ValidateJSON([]byte(`1e-400`)))
		require.Error(t, s.ValidateJSON([]byte(`-1e999999999999999999`)))
	})
	t.Run("Go numeric types", func(t *testing.T) {
		s := mustCompile(t, `{"type":"integer","minimum":1,"maximum":10}`)
		for _, v := range []any{int(5), int32(5), int64(5), uint(5), uint32(5), uint64(5), float32(5), 5.0, jsonscan.Number("5")} {
			assert.NoError(t, s.Validate(v), "%T", v)
		}
		assert.Error(t, s.Validate(int64(11)))
		assert.Error(t, s.Validate(float32(1.5)))
		err := s.Validate(struct{}{})
		require.Error(t, err)
		assert.Contains(t, err.Error(), "unsupported Go value (not a decoded JSON value)")
		assert.Error(t, s.Validate(jsonscan.Number("not-a-number")))
	})
}

func TestDecimalArithmetic(t *testing.T) {
	parse := func(s string) dec {
		t.Helper()
		d, ok := parseDec(s, nil)
		require.True(t, ok, s)
		return d
	}
	for _, tc := range []struct {
		a, b string
		cmp  int
	}{
		{"1", "1.0", 0}, {"0", "-0", 0}, {"0.1", "1e-1", 0}, {"100", "1e2", 0},
		{"-1", "0", -1}, {"0.05", "0.5", -1}, {"12", "123", -1}, {"13", "123", -1},
		{"-12", "-123", 1}, {"9007199254740993", "9007199254740992", 1}, {"1e400", "1e399", 1},
		{"0.000", "0", 0}, {"-0.5", "-0.25", -1},
	} {
		assert.Equal(t, tc.cmp, cmpDec(parse(tc.a), parse(tc.b)), "%s <=> %s", tc.a, tc.b)
	}
	for _, bad := range []string{"", "-", "1.2.3", "1e", "1e+", "abc", "1x", ".", "--1"} {
		_, ok := parseDec(bad, nil)
		assert.False(t, ok, "%q", bad)
	}
	for _, tc := range []struct {
		a, b string
		want bool
	}{
		{"0.0075", "0.0001", true}, {"4.5", "1.5", true}, {"0.3", "0.1", true}, {"1", "0.3", false},
		{"1e308", "0.123456789", false}, {"10", "2.5", true}, {"-10", "4", false}, {"0", "7", true},
		{"123456789012345678901234567890", "10", true}, {"1.5", "1e-400", true},
		{"2.0000000000000000000002", "1.0000000000000000000001", true},
		// Divisors with more than 18 significant digits fall back to float64.
		{"3", "1.0000000000000000000001", true},
	} {
		assert.Equal(t, tc.want, isMultiple(parse(tc.a), parse(tc.b)), "%s multipleOf %s", tc.a, tc.b)
	}
}

func TestValidationErrorPaths(t *testing.T) {
	s := mustCompile(t, `{
		"$defs":{"item":{"type":"object","required":["name"],"properties":{"name":{"type":"string","minLength":1},"qty":{"type":"integer","minimum":1}}}},
		"type":"object","required":["items","total"],
		"properties":{
			"items":{"type":"array","items":{"$ref":"#/$defs/item"}},
			"total":{"type":"number"},
			"a/b":{"type":"string"},
			"tags":{"type":"array","items":{"type":"string"},"uniqueItems":true}
		},
		"additionalProperties":false}`)
	err := s.ValidateJSON([]byte(`{"items":[{"name":"ok","qty":1},{"qty":0},{"name":""}],"a/b":1,"extra":true,"tags":["x",2,"x"]}`))
	var verr *ValidationError
	require.ErrorAs(t, err, &verr)
	assert.Equal(t, []Cause{
		{"", "/required", `missing required property "total"`},
		{"/a~1b", "/properties/a~1b/type", "got integer, want string"},
		{"/items/1", "/properties/items/items/$ref/required", `missing required property "name"`},
		{"/items/1/qty", "/properties/items/items/$ref/properties/qty/minimum", "must be >= 1"},
		{"/items/2/name", "/properties/items/items/$ref/properties/name/minLength", "length must be >= 1, got 0"},
		{"/tags", "/properties/tags/uniqueItems", "array items 0 and 2 are equal"},
		{"/tags/1", "/properties/tags/items/type", "got integer, want string"},
		{"/extra", "/additionalProperties", `additional property "extra" is not allowed`},
	}, verr.Causes)
	assert.Equal(t, `jsonschema: (root): missing required property "total" (and 7 more)`, err.Error())

	// The text is stable from one run to the next.
	for i := 0; i < 20; i++ {
		again := s.ValidateJSON([]byte(`{"items":[{"name":"ok","qty":1},{"qty":0},{"name":""}],"a/b":1,"extra":true,"tags":["x",2,"x"]}`))
		require.Equal(t, verr, again)
	}
}

func TestValidationMessages(t *testing.T) {
	for _, tc := range []struct {
		schema, instance string
		want             Cause
	}{
		{`{"type":["object","null"]}`, `1.5`, Cause{"", "/type", "got number, want null or object"}},
		{`{"const":"a"}`, `"b"`, Cause{"", "/const", `must be equal to "a"`}},
		{`{"enum":[1,"x"]}`, `2`, Cause{"", "/enum", `must be one of [1,"x"]`}},
		{`{"maximum":3}`, `4`, Cause{"", "/maximum", "must be <= 3"}},
		{`{"exclusiveMinimum":0.5}`, `0.5`, Cause{"", "/exclusiveMinimum", "must be > 0.5"}},
		{`{"exclusiveMaximum":1e2}`, `100`, Cause{"", "/exclusiveMaximum", "must be < 1e2"}},
		{`{"multipleOf":0.01}`, `0.001`, Cause{"", "/multipleOf", "must be a multiple of 0.01"}},
		{`{"maxLength":2}`, `"abc"`, Cause{"", "/maxLength", "length must be <= 2, got 3"}},
		{`{"pattern":"^a"}`, `"b"`, Cause{"", "/pattern", `must match pattern "^a"`}},
		{`{"minItems":2}`, `[1]`, Cause{"", "/minItems", "array must have at least 2 items, got 1"}},
		{`{"maxItems":0}`, `[1]`, Cause{"", "/maxItems", "array must have at most 0 items, got 1"}},
		{`{"contains":{"type":"null"}}`, `[1]`, Cause{"", "/contains", "array must contain at least 1 matching items, got 0"}},
		{`{"contains":{},"maxContains":1}`, `[1,2]`, Cause{"", "/maxContains", "array must contain at most 1 matching items, got 2"}},
		{`{"minProperties":1}`, `{}`, Cause{"", "/minProperties", "object must have at least 1 properties, got 0"}},
		{`{"maxProperties":0}`, `{"a":1}`, Cause{"", "/maxProperties", "object must have at most 0 properties, got 1"}},
		{`{"dependentRequired":{"a":["b"]}}`, `{"a":1}`, Cause{"", "/dependentRequired", `property "b" is required when "a" is present`}},
		{`{"propertyNames":{"maxLength":1}}`, `{"ab":1}`, Cause{"/ab", "/propertyNames/maxLength", "length must be <= 1, got 2"}},
		{`{"prefixItems":[{}],"items":false}`, `[1,2]`, Cause{"/1", "/items", "additional array item is not allowed"}},
		{`{"unevaluatedItems":false}`, `[1]`, Cause{"/0", "/unevaluatedItems", "unevaluated array item is not allowed"}},
		{`{"unevaluatedProperties":false}`, `{"k":1}`, Cause{"/k", "/unevaluatedProperties", `unevaluated property "k" is not allowed`}},
		{`{"not":{}}`, `1`, Cause{"", "/not", "value must not match the schema in not"}},
		{`{"oneOf":[{},{}]}`, `1`, Cause{"", "/oneOf", "value matches more than one schema in oneOf (0 and 1)"}},
		{`{"oneOf":[{"type":"string"},{"type":"null"}]}`, `1`, Cause{"", "/oneOf", "value does not match any schema in oneOf"}},
		{`{"anyOf":[{"type":"string"},{"type":"null"}]}`, `1`, Cause{"", "/anyOf", "value does not match any schema in anyOf"}},
		{`{"if":{"type":"string"},"then":{"minLength":2},"else":{"maximum":0}}`, `1`, Cause{"", "/else/maximum", "must be <= 0"}},
		{`{"if":{"type":"string"},"then":{"minLength":2}}`, `"a"`, Cause{"", "/then/minLength", "length must be >= 2, got 1"}},
		{`{"dependentSchemas":{"a":{"required":["b"]}}}`, `{"a":1}`, Cause{"", "/dependentSchemas/a/required", `missing required property "b"`}},
		{`{"properties":{"a":false}}`, `{"a":1}`, Cause{"/a", "/properties/a", `property "a" is not allowed`}},
		{`false`, `1`, Cause{"", "", "value is not allowed (false schema)"}},
		{`{"$defs":{"a":{"$dynamicAnchor":"a","type":"null"}},"$dynamicRef":"#a"}`, `1`, Cause{"", "/$dynamicRef/type", "got integer, want null"}},
	} {
		t.Run(tc.schema+" "+tc.instance, func(t *testing.T) {
			err := mustCompile(t, tc.schema).ValidateJSON([]byte(tc.instance))
			var verr *ValidationError
			require.ErrorAs(t, err, &verr)
			assert.Equal(t, tc.want, verr.Causes[0])
		})
	}
}

func TestUnionExplanation(t *testing.T) {
	// An "object or null" union (e.g. pydantic's Optional[Model]) reports
	// why the object branch failed.
	s := mustCompile(t, `{"$defs":{"Loc":{"type":"object","properties":{"lat":{"type":"number"}},"required":["lat"]}},
		"properties":{"loc":{"anyOf":[{"$ref":"#/$defs/Loc"},{"type":"null"}]}}}`)
	err := s.ValidateJSON([]byte(`{"loc":{"lat":"north"}}`))
	var verr *ValidationError
	require.ErrorAs(t, err, &verr)
	assert.Equal(t, []Cause{
		{"/loc", "/properties/loc/anyOf", "value does not match any schema in anyOf"},
		{"/loc/lat", "/properties/loc/anyOf/0/$ref/properties/lat/type", "got string, want number"},
	}, verr.Causes)
	// When several branches are plausible none is singled out.
	s = mustCompile(t, `{"oneOf":[{"required":["a"]},{"required":["b"]}]}`)
	require.ErrorAs(t, s.ValidateJSON([]byte(`{}`)), &verr)
	assert.Len(t, verr.Causes, 1)
}

func TestCausesAreLimited(t *testing.T) {
	s := mustCompile(t, `{"type":"array","items":{"type":"object","required":["a","b"],"properties":{"c":{"type":"string"}}}}`)
	items := make([]string, 10000)
	for i := range items {
		items[i] = `{"c":1}`
	}
	err := s.ValidateJSON([]byte("[" + strings.Join(items, ",") + "]"))
	var verr *ValidationError
	require.ErrorAs(t, err, &verr)
	assert.Len(t, verr.Causes, maxCauses)
	assert.Equal(t, Cause{"/0", "/items/required", `missing required property "a"`}, verr.Causes[0])
	assert.Equal(t, `jsonschema: /0: missing required property "a" (and 19 more)`, err.Error())
}

func TestValidateJSONErrors(t *testing.T) {
	s := mustCompile(t, `{}`)
	for _, raw := range []string{``, `{`, `[1,]`, `1 2`, `{"a":1}}`} {
		err := s.ValidateJSON([]byte(raw))
		require.Error(t, err, raw)
		var verr *ValidationError
		assert.NotErrorAs(t, err, &verr, raw)
		assert.Contains(t, err.Error(), "invalid JSON instance")
	}
	assert.Equal(t, "jsonschema: invalid instance", (&ValidationError{}).Error())
}

func TestPatterns(t *testing.T) {
	runKeywordCases(t, []keywordCase{
		{"\\s is Unicode aware", `{"pattern":"^\\s$"}`, []instanceCase{{`" "`, true}, {`"\u00a0"`, true}, {`"\ufeff"`, true}, {`"\u2003"`, true}, {`"x"`, false}}},
		{"\\S", `{"pattern":"^\\S$"}`, []instanceCase{{`"x"`, true}, {`"\u00a0"`, false}}},
		{"\\d is ASCII", `{"pattern":"^\\d$"}`, []instanceCase{{`"5"`, true}, {`"٣"`, false}}},
		{"\\w is ASCII", `{"pattern":"^\\w+$"}`, []instanceCase{{`"a_1"`, true}, {`"é"`, false}}},
		{"dot excludes line terminators", `{"pattern":"^a.c$"}`, []instanceCase{{`"abc"`, true}, {`"a\nc"`, false}, {`"a\u2028c"`, false}, {`"aéc"`, true}}},
		{"\\u escapes", `{"pattern":"^\\u00e9\\u{1F600}$"}`, []instanceCase{{`"é😀"`, true}, {`"e😀"`, false}}},
		{"surrogate pair", `{"pattern":"^\\ud83d\\ude00$"}`, []instanceCase{{`"😀"`, true}}},
		{"\\cX control", `{"pattern":"^\\cJ$"}`, []instanceCase{{`"\n"`, true}, {`"J"`, false}}},
		{"\\x escape", `{"pattern":"^\\x41$"}`, []instanceCase{{`"A"`, true}}},
		{"escaped slash", `{"pattern":"^a\\/b$"}`, []instanceCase{{`"a/b"`, true}}},
		{"[^] matches all", `{"pattern":"^[^]$"}`, []instanceCase{{`"\n"`, true}}},
		{"[] matches nothing", `{"pattern":"[]"}`, []instanceCase{{`""`, false}, {`"a"`, false}}},
		{"class with \\s and \\b", `{"pattern":"^[\\s\\b]+$"}`, []instanceCase{{`" \b"`, true}, {`"b"`, false}}},
		{"named group", `{"pattern":"^(?<year>\\d{4})-\\d{2}$"}`, []instanceCase{{`"2024-01"`, true}}},
		{"unicode property long name", `{"pattern":"^\\p{Letter}+$"}`, []instanceCase{{`"héllo"`, true}, {`"h3"`, false}}},
		{"unicode script", `{"pattern":"^\\p{Script=Greek}+$"}`, []instanceCase{{`"αβ"`, true}, {`"ab"`, false}}},
		{"patternProperties ECMA", `{"patternProperties":{"^\\d+$":{"type":"integer"}},"additionalProperties":false}`,
			[]instanceCase{{`{"12":1}`, true}, {`{"x":1}`, false}, {`{"12":"1"}`, false}}},
	})

}

func TestMCPOutputSchemas(t *testing.T) {
	t.Run("weather", func(t *testing.T) {
		s := mustCompile(t, `{"type":"object","properties":{"temperature":{"type":"number"},"conditions":{"type":"string"}},
			"required":["temperature","conditions"]}`)
		assertValid(t, s, `{"temperature":22.5,"conditions":"Partly cloudy"}`, true)
		assertValid(t, s, `{"temperature":-3,"conditions":"Snow","humidity":80}`, true)
		assertValid(t, s, `{"temperature":"22.5","conditions":"Partly cloudy"}`, false)
		err := s.ValidateJSON([]byte(`{"conditions":"Sunny"}`))
		require.EqualError(t, err, `jsonschema: (root): missing required property "temperature"`)
	})
	t.Run("pydantic style with $defs and $ref", func(t *testing.T) {
		s := mustCompile(t, `{
			"$defs":{
				"Forecast":{"properties":{"day":{"title":"Day","type":"string","format":"date"},
					"high":{"title":"High","type":"number"},"low":{"title":"Low","type":"number"},
					"summary":{"anyOf":[{"type":"string"},{"type":"null"}],"default":null,"title":"Summary"}},
					"required":["day","high","low"],"title":"Forecast","type":"object"},
				"Unit":{"enum":["celsius","fahrenheit"],"title":"Unit","type":"string"}},
			"properties":{"city":{"title":"City","type":"string","minLength":1},
				"unit":{"$ref":"#/$defs/Unit"},
				"forecast":{"items":{"$ref":"#/$defs/Forecast"},"title":"Forecast","type":"array","maxItems":7}},
			"required":["city","unit","forecast"],"title":"WeatherResult","type":"object"}`)
		assertValid(t, s, `{"city":"Oslo","unit":"celsius","forecast":[{"day":"2025-01-01","high":1,"low":-4,"summary":null},
			{"day":"2025-01-02","high":2.5,"low":-1.5,"summary":"Snow"}]}`, true)
		assertValid(t, s, `{"city":"Oslo","unit":"kelvin","forecast":[]}`, false)
		err := s.ValidateJSON([]byte(`{"city":"Oslo","unit":"celsius","forecast":[{"day":"2025-01-01","high":"warm"}]}`))
		var verr *ValidationError
		require.ErrorAs(t, err, &verr)
		assert.Equal(t, []Cause{
			{"/forecast/0", "/properties/forecast/items/$ref/required", `missing required property "low"`},
			{"/forecast/0/high", "/properties/forecast/items/$ref/properties/high/type", "got string, want number"},
		}, verr.Causes)
	})
	t.Run("zod style draft-07 with x- keywords", func(t *testing.T) {
		s := mustCompile(t, `{"$schema":"http://json-schema.org/draft-07/schema#","type":"object",
			"properties":{"results":{"type":"array","items":{"type":"object","properties":{
				"id":{"type":"string","x-mcp-header":"X-Id"},"score":{"type":"number","minimum":0,"maximum":1}},
				"required":["id","score"],"additionalProperties":false}},
				"nextCursor":{"type":["string","null"]}},
			"required":["results"],"additionalProperties":false}`)
		assertValid(t, s, `{"results":[{"id":"a","score":0.5}],"nextCursor":null}`, true)
		assertValid(t, s, `{"results":[{"id":"a","score":1.5}]}`, false)
		assertValid(t, s, `{"results":[{"id":"a","score":0.5,"x":1}]}`, false)
	})
}

func TestConcurrentValidate(t *testing.T) {
	s := mustCompile(t, `{"$defs":{"n":{"type":"object","properties":{"v":{"type":"integer"},"next":{"$ref":"#/$defs/n"}},
		"required":["v"],"unevaluatedProperties":false}},"$ref":"#/$defs/n"}`)
	valid := decodeNumber(t, `{"v":1,"next":{"v":2,"next":{"v":3}}}`)
	invalid := decodeNumber(t, `{"v":1,"next":{"v":2,"next":{"w":3}}}`)
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for g := 0; g < 16; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 50; i++ {
				if err := s.Validate(valid); err != nil {
					errs <- err
					return
				}
				if err := s.Validate(invalid); err == nil {
					errs <- fmt.Errorf("invalid instance accepted")
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

func TestBudgetGrowsWithInstance(t *testing.T) {
	// More evaluations than minEvals, all legitimate.
	s := mustCompile(t, `{"type":"array","items":{"type":"integer"}}`)
	items := make([]any, minEvals)
	for i := range items {
		items[i] = float64(i)
	}
	require.NoError(t, s.Validate(items))
	items[len(items)-1] = "x"
	err := s.Validate(items)
	var verr *ValidationError
	require.ErrorAs(t, err, &verr)
	assert.Equal(t, []Cause{{"/262143", "/items/type", "got string, want integer"}}, verr.Causes)
}

func TestLongValuesInMessages(t *testing.T) {
	long := strings.Repeat("x", 100)
	err := mustCompile(t, `{"const":"`+long+`"}`).Validate("y")
	require.Error(t, err)
	assert.Equal(t, `jsonschema: (root): must be equal to "`+long[:59]+` …`, err.Error())
	s := mustCompile(t, `{"maxLength":1e2,"minLength":1e300}`)
	assert.Equal(t, 100, s.root.counts[cMaxLen])
	assert.Error(t, s.Validate(long))
}
