// Package testkit holds the few test helpers the library's GOOS=js tests
// (tests/gojs) and the harness module's native tests (harness/integration,
// harness/wstest) share: a bounded context, a tool call that must succeed,
// the text of a result. It is test support, not part of the library's API;
// it lives in the library module so that tests/gojs, which may not import
// the harness module, can use it too.
package testkit

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/mcpwasm/mcpwasm/core"
)

// Timeout bounds every context [Ctx] hands out.
const Timeout = 30 * time.Second

// Ctx returns a context that ends after [Timeout] or when the test ends.
// Safe to call from the test's goroutines.
func Ctx(t testing.TB) context.Context {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), Timeout)
	t.Cleanup(cancel)
	return ctx
}

// Text joins the text blocks of a tool result with newlines; a nil result
// fails the test.
func Text(t testing.TB, r *core.CallToolResult) string {
	t.Helper()
	require.NotNil(t, r)
	var parts []string
	for _, c := range r.Content {
		if c.Type == "text" {
			parts = append(parts, c.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// Call calls a tool and fails the test when the call fails (a result with
// isError set is returned, not a failure). It uses require, so call it
// only from the test's own goroutine.
func Call(t testing.TB, s *core.Session, name string, args any) *core.CallToolResult {
	t.Helper()
	r, err := s.CallTool(Ctx(t), &core.CallToolParams{Name: name, Arguments: args}, nil)
	require.NoError(t, err)
	return r
}
