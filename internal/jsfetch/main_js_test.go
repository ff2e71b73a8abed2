//go:build js

package jsfetch_test

import (
	"os"
	"testing"

	"go.uber.org/goleak"

	"github.com/mcpwasm/mcpwasm/internal/jstest"
)

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m, goleak.IgnoreAnyFunction("runtime.handleEvent"))
}

// echoOrigin is the harness's raw HTTP server.
func echoOrigin(t *testing.T) string {
	t.Helper()
	v := os.Getenv(jstest.EnvEcho)
	if v == "" {
		t.Fatalf("%s is not set: %s", jstest.EnvEcho, jstest.Hint)
	}
	return v
}
