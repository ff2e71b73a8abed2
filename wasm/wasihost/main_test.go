package wasihost

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"

	"github.com/mcpwasm/mcpwasm/tests/peerproc"
)

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m,
		goleak.IgnoreTopFunction("net/http.(*persistConn).readLoop"),
		goleak.IgnoreTopFunction("net/http.(*persistConn).writeLoop"),
		goleak.IgnoreTopFunction("internal/poll.runtime_pollWait"),
		goleak.Cleanup(func(code int) {
			CleanupTestModule()
			peerproc.Cleanup()
			os.Exit(code)
		}),
	)
}

// newHost starts a Host on the test module; it is closed by t's cleanup.
func newHost(t *testing.T, opts *Options) *Host {
	t.Helper()
	return newHostTB(t, opts)
}

func newHostB(b *testing.B) *Host {
	b.Helper()
	return newHostTB(b, nil)
}

func newHostTB(t testing.TB, opts *Options) *Host {
	t.Helper()
	mod := BuildTestModule(t)
	if opts == nil {
		opts = &Options{}
	}
	if opts.CompilationCache == nil {
		opts.CompilationCache = mod.Cache
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	h, err := New(ctx, mod.Wasm, opts)
	require.NoError(t, err)
	t.Cleanup(func() { _ = h.Close() })
	return h
}

func testCtx(t *testing.T) context.Context {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	return ctx
}
