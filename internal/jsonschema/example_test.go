package jsonschema_test

import (
	"errors"
	"fmt"

	"github.com/mcpwasm/mcpwasm/internal/jsonschema"
)

func Example() {
	// A tool's outputSchema, as advertised in tools/list.
	schema, err := jsonschema.Compile([]byte(`{
		"type": "object",
		"properties": {
			"temperature": {"type": "number"},
			"conditions": {"type": "string", "enum": ["sunny", "cloudy", "rain"]}
		},
		"required": ["temperature", "conditions"]
	}`))
	if err != nil {
		panic(err)
	}

	// A result's structuredContent.
	fmt.Println(schema.ValidateJSON([]byte(`{"temperature": 22.5, "conditions": "sunny"}`)))

	err = schema.ValidateJSON([]byte(`{"temperature": "hot", "conditions": "snow"}`))
	fmt.Println(err)
	var verr *jsonschema.ValidationError
	if errors.As(err, &verr) {
		for _, c := range verr.Causes {
			fmt.Printf("%s (%s): %s\n", c.InstancePath, c.KeywordPath, c.Message)
		}
	}
	// Output:
	// <nil>
	// jsonschema: /conditions: must be one of ["sunny","cloudy","rain"] (and 1 more)
	// /conditions (/properties/conditions/enum): must be one of ["sunny","cloudy","rain"]
	// /temperature (/properties/temperature/type): got string, want number
}

func ExampleSchema_Unresolved() {
	schema, err := jsonschema.Compile([]byte(`{
		"type": "object",
		"properties": {"geo": {"$ref": "https://example.com/geo.json"}}
	}`))
	if err != nil {
		panic(err)
	}
	fmt.Println(schema.Unresolved())
	fmt.Println(schema.ValidateJSON([]byte(`{"geo": "anything goes"}`)))
	// Output:
	// [https://example.com/geo.json]
	// <nil>
}
