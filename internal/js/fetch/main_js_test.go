//go:build js

package jsfetch_test

import (
	"os"
	"testing"

	"go.uber.org/goleak"

	"github.com/mcpwasm/mcpwasm/tests/gojs"
)

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m, goleak.IgnoreAnyFunction("runtime.handleEvent"))
}

// echoOrigin is the harness's raw HTTP server.
func echoOrigin(t *testing.T) string {
	t.Helper()
	v := os.Getenv(gojs.EnvEcho)
	if v == "" {
		t.Fatalf("%s is not set: %s", gojs.EnvEcho, gojs.Hint)
	}
	return v
}
