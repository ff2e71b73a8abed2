package jsonschema

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

const benchSchema = `{
	"$defs": {
		"Forecast": {
			"type": "object",
			"properties": {
				"day": {"type": "string", "format": "date", "pattern": "^\\d{4}-\\d{2}-\\d{2}$"},
				"high": {"type": "number", "minimum": -100, "maximum": 100},
				"low": {"type": "number", "minimum": -100, "maximum": 100},
				"summary": {"anyOf": [{"type": "string", "maxLength": 200}, {"type": "null"}]},
				"precipitation": {"type": "number", "multipleOf": 0.1, "minimum": 0},
				"tags": {"type": "array", "items": {"type": "string"}, "uniqueItems": true}
			},
			"required": ["day", "high", "low"],
			"additionalProperties": false
		}
	},
	"type": "object",
	"properties": {
		"city": {"type": "string", "minLength": 1},
		"unit": {"enum": ["celsius", "fahrenheit"]},
		"forecast": {"type": "array", "items": {"$ref": "#/$defs/Forecast"}, "maxItems": 500}
	},
	"required": ["city", "unit", "forecast"]
}`

// benchInstance returns a ~10 KB instance valid against benchSchema.
func benchInstance(tb testing.TB) []byte {
	tb.Helper()
	var days []string
	for i := 0; len(strings.Join(days, ",")) < 10000; i++ {
		days = append(days, fmt.Sprintf(`{"day":"2025-01-%02d","high":%d.5,"low":-%d,"summary":%s,"precipitation":%d.3,"tags":["wind","sun%d"]}`,
			i%28+1, i%40, i%30, map[bool]string{true: `"Clear skies"`, false: `null`}[i%2 == 0], i%7, i))
	}
	raw := []byte(`{"city":"Oslo","unit":"celsius","forecast":[` + strings.Join(days, ",") + `]}`)
	require.InDelta(tb, 10000, len(raw), 1000)
	return raw
}

func BenchmarkValidate(b *testing.B) {
	s, err := Compile([]byte(benchSchema))
	require.NoError(b, err)
	raw := benchInstance(b)
	inst := decodeNumber(b, string(raw))
	require.NoError(b, s.Validate(inst))
	b.SetBytes(int64(len(raw)))
	b.ReportAllocs()
	for b.Loop() {
		if err := s.Validate(inst); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkValidateFloat64(b *testing.B) {
	s, err := Compile([]byte(benchSchema))
	require.NoError(b, err)
	raw := benchInstance(b)
	var inst any
	require.NoError(b, json.Unmarshal(raw, &inst))
	require.NoError(b, s.Validate(inst))
	b.SetBytes(int64(len(raw)))
	b.ReportAllocs()
	for b.Loop() {
		if err := s.Validate(inst); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkValidateInvalid(b *testing.B) {
	s, err := Compile([]byte(benchSchema))
	require.NoError(b, err)
	raw := strings.Replace(string(benchInstance(b)), `"high":3.5`, `"high":"3.5"`, 1)
	inst := decodeNumber(b, raw)
	require.Error(b, s.Validate(inst))
	b.SetBytes(int64(len(raw)))
	b.ReportAllocs()
	for b.Loop() {
		if err := s.Validate(inst); err == nil {
			b.Fatal("want error")
		}
	}
}

func BenchmarkCompile(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Compile([]byte(benchSchema)); err != nil {
			b.Fatal(err)
		}
	}
}
