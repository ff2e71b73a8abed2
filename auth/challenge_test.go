package auth_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/mcpwasm/mcpwasm/auth"
)

func TestParseChallenges(t *testing.T) {
	type ch = auth.Challenge
	p := func(kv ...string) map[string]string {
		m := map[string]string{}
		for i := 0; i+1 < len(kv); i += 2 {
			m[kv[i]] = kv[i+1]
		}
		return m
	}
	tests := []struct {
		name   string
		values []string
		want   []ch
	}{
		{"bare scheme", []string{"Bearer"}, []ch{{Scheme: "Bearer", Params: p()}}},
		{
			"quoted and token values",
			[]string{`Bearer realm="mcp", error=invalid_token, scope="files:read files:write"`},
			[]ch{{Scheme: "Bearer", Params: p("realm", "mcp", "error", "invalid_token", "scope", "files:read files:write")}},
		},
		{
			"escaped quotes and backslashes",
			[]string{`Bearer error_description="say \"hi\" \\ bye", scope="a"`},
			[]ch{{Scheme: "Bearer", Params: p("error_description", `say "hi" \ bye`, "scope", "a")}},
		},
		{
			"comma inside a quoted string",
			[]string{`Bearer resource_metadata="https://x/.well-known/oauth-protected-resource?a=1,b=2", scope="s"`},
			[]ch{{Scheme: "Bearer", Params: p("resource_metadata", "https://x/.well-known/oauth-protected-resource?a=1,b=2", "scope", "s")}},
		},
		{
			"case-insensitive parameter names, scheme kept as sent",
			[]string{`bEaReR Resource_Metadata="u", SCOPE=s`},
			[]ch{{Scheme: "bEaReR", Params: p("resource_metadata", "u", "scope", "s")}},
		},
		{
			"multiple challenges in one header",
			[]string{`Basic realm="x", Bearer scope="a b", error="insufficient_scope", DPoP algs="ES256"`},
			[]ch{
				{Scheme: "Basic", Params: p("realm", "x")},
				{Scheme: "Bearer", Params: p("scope", "a b", "error", "insufficient_scope")},
				{Scheme: "DPoP", Params: p("algs", "ES256")},
			},
		},
		{
			"multiple header values",
			[]string{`Basic realm="x"`, `Bearer resource_metadata="https://rs/prm"`},
			[]ch{{Scheme: "Basic", Params: p("realm", "x")}, {Scheme: "Bearer", Params: p("resource_metadata", "https://rs/prm")}},
		},
		{
			"token68 then another challenge",
			[]string{`Negotiate YII=, Bearer scope=x`},
			[]ch{{Scheme: "Negotiate", Token68: "YII=", Params: p()}, {Scheme: "Bearer", Params: p("scope", "x")}},
		},
		{
			"whitespace around equals and empty list elements",
			[]string{`Bearer  scope = "a" ,, error = invalid_token ,`},
			[]ch{{Scheme: "Bearer", Params: p("scope", "a", "error", "invalid_token")}},
		},
		{
			"first occurrence of a parameter wins",
			[]string{`Bearer scope="first", scope="second"`},
			[]ch{{Scheme: "Bearer", Params: p("scope", "first")}},
		},
		{
			"unterminated quoted string takes the rest",
			[]string{`Bearer error_description="oops`},
			[]ch{{Scheme: "Bearer", Params: p("error_description", "oops")}},
		},
		{"empty", []string{""}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := auth.ParseChallenges(tt.values...)
			assert.Equal(t, tt.want, got)
		})
	}
	assert.Equal(t, "u", auth.ParseChallenges(`Bearer resource_metadata="u"`)[0].Param("Resource_Metadata"))
}
