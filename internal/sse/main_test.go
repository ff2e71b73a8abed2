package sse_test

import (
	"testing"

	"go.uber.org/goleak"
)

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m, goleak.IgnoreAnyFunction("runtime.handleEvent")) // (the GOOS=js runtime's event goroutine)
}
