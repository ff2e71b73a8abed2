// Package jsonschema is a compact, dependency-free JSON Schema validator
// used by mcpwasm to check a tool result's structuredContent against the
// tool's outputSchema.
//
// It implements JSON Schema draft 2020-12 and accepts documents that declare
// draft 2019-09, draft-07, draft-06 or draft-04 in $schema (for those it also
// honours definitions, the array form of items with additionalItems,
// dependencies, boolean exclusiveMinimum/exclusiveMaximum and, up to
// draft-07, the rule that $ref ignores its sibling keywords). A document
// without $schema is treated as 2020-12, leniently: the draft-07 spellings
// above are honoured as well.
//
// Only the standard library is used (no reflection beyond encoding/json) so
// the package stays small when compiled to WebAssembly.
//
// # References
//
// Compile never performs I/O. $ref, $dynamicRef and $recursiveRef are
// resolved inside the compiled document only: JSON pointers (#/$defs/x,
// #/definitions/x, #/properties/a/items, with ~0, ~1 and percent escapes),
// $anchor, $dynamicAnchor and URIs built from the $id of subschemas of the
// same document. A reference that cannot be resolved locally (for example a
// remote "https://example.com/schema.json" or a meta-schema URI) does not
// make Compile fail: the referencing keyword accepts every instance, and the
// reference is reported by [Schema.Unresolved].
//
// # Keywords
//
// Applicators: allOf, anyOf, oneOf, not, if/then/else, dependentSchemas,
// prefixItems, items, contains (with minContains/maxContains), properties,
// patternProperties, additionalProperties, propertyNames, unevaluatedItems
// and unevaluatedProperties (annotations flow through $ref, allOf, passing
// anyOf/oneOf branches, if/then/else and dependentSchemas). Assertions: type,
// enum, const, multipleOf, maximum, exclusiveMaximum, minimum,
// exclusiveMinimum, maxLength, minLength, pattern, maxItems, minItems,
// uniqueItems, maxProperties, minProperties, required, dependentRequired.
//
// format, contentEncoding, contentMediaType and contentSchema are annotations
// and are not asserted. Unknown keywords (title, description, default,
// examples, x-* extensions, …) are ignored. $vocabulary is not interpreted.
//
// Numbers are compared exactly: schema numbers and jsonscan.Number instances are
// handled as arbitrary-precision decimals, so 9007199254740993 differs from
// 9007199254740992 and 0.0075 is a multiple of 0.0001. float64 instances are
// converted through their shortest decimal representation.
//
// # Regular expressions
//
// pattern and patternProperties use ECMA-262 syntax, and matching always
// takes time linear in the instance: natively the pattern is translated on a
// best-effort basis to Go's RE2 syntax (\s, ., \uXXXX, \cX, [^] …); under
// GOOS=js it runs on a small linear-time engine of this package (ecma.go),
// never on the JavaScript RegExp, which backtracks. A pattern that neither
// can express (look-around, back-references) is skipped rather than
// rejected; such patterns are reported by [Schema.Skipped].
// [CompileWith] takes another engine ([Options].Pattern): the GOOS=js
// build's default has no Unicode property tables and skips \p{…}
// patterns, and internal/js/regex passes [LinearPattern] with the
// JavaScript engine's tables.
//
// # Errors
//
// Validate returns nil or a *ValidationError whose Causes (at most 20, in a
// deterministic order) give a JSON pointer into the instance, the keyword's
// path along the evaluation path (through $ref, like "keywordLocation" of the
// JSON Schema output format) and a short English message. Valid instances
// are checked in a single fast pass that allocates almost nothing; only an
// invalid instance is evaluated a second time to collect the causes.
//
// # Limits
//
//   - $schema is only read at the document root; embedded resources using
//     another draft are evaluated with the root's rules.
//   - Reference cycles that do not consume the instance ({"$ref": "#"}),
//     more than 4096 nested evaluations, and more than
//     max(2^18, 256 × number of instance values) evaluations in one pass
//     make the instance invalid instead of running away.
//   - multipleOf is exact unless the divisor has more than 18 significant
//     digits, where it falls back to float64 division.
//   - Patterns match Unicode code points, \d, \w and \b are ASCII-only, and
//     look-around and back-references are not supported (see Skipped).
//   - A number with no fractional part (1.0) is an integer, as in draft 6
//     and later, also for draft-04 documents.
//
// # Concurrency
//
// A compiled *Schema is immutable: Validate, ValidateJSON, Unresolved and
// Skipped may be called from any number of goroutines at once.
package jsonschema
