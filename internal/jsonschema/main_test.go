package jsonschema

import (
	"testing"

	"go.uber.org/goleak"
)

func TestMain(m *testing.M) {
	// runtime.handleEvent is the js/wasm runtime's event-loop goroutine.
	goleak.VerifyTestMain(m, goleak.IgnoreAnyFunction("runtime.handleEvent"))
}
