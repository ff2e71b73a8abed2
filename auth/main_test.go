package auth_test

import (
	"testing"

	"go.uber.org/goleak"
)

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m,
		// Idle keep-alive connections of http.DefaultTransport (the
		// examples use fetch.DefaultDoer).
		goleak.IgnoreTopFunction("net/http.(*persistConn).readLoop"),
		goleak.IgnoreTopFunction("net/http.(*persistConn).writeLoop"),
		goleak.IgnoreTopFunction("internal/poll.runtime_pollWait"),
		// The GOOS=js runtime's event handler (the portable tests run there too).
		goleak.IgnoreAnyFunction("runtime.handleEvent"),
	)
}
