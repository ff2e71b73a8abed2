//go:build js

package gojs_test

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"

	"github.com/mcpwasm/mcpwasm/core"
	"github.com/mcpwasm/mcpwasm/tests/gojs"
	"github.com/mcpwasm/mcpwasm/tests/testkit"
)

func TestMain(m *testing.M) {
	// runtime.handleEvent is the wasm runtime's own goroutine that runs
	// js.FuncOf callbacks.
	goleak.VerifyTestMain(m, goleak.IgnoreAnyFunction("runtime.handleEvent"))
}

// env returns a server URL handed over by the harness; without it the test
// fails and says how to run it.
func env(t *testing.T, name string) string {
	t.Helper()
	v := os.Getenv(name)
	if v == "" {
		t.Fatalf("%s is not set: %s", name, gojs.Hint)
	}
	return v
}

func testCtx(t *testing.T) context.Context { return testkit.Ctx(t) }

func connect(t *testing.T, tr core.Transport, versions []string, opts *core.ClientOptions) *core.Session {
	t.Helper()
	if opts == nil {
		opts = &core.ClientOptions{}
	}
	if opts.OnWarning == nil {
		opts.OnWarning = func(_ *core.Session, err error) { t.Logf("warning: %v", err) }
	}
	client := core.NewClient(&core.Implementation{Name: "mcpwasm-js-test", Version: "1.0.0"}, opts)
	s, err := client.Connect(testCtx(t), tr, &core.ConnectOptions{ProtocolVersions: versions})
	require.NoError(t, err)
	t.Cleanup(func() { s.Close() })
	return s
}

func text(t *testing.T, r *core.CallToolResult) string { return testkit.Text(t, r) }

func call(t *testing.T, s *core.Session, name string, args any) *core.CallToolResult {
	return testkit.Call(t, s, name, args)
}

// cancelledCount asks the shared peer tool set how many slow calls were
// cancelled.
func cancelledCount(t *testing.T, s *core.Session) int {
	t.Helper()
	var n int
	require.NoError(t, json.Unmarshal([]byte(strings.TrimSpace(text(t, call(t, s, "cancelled_count", nil)))), &n))
	return n
}
