// Package peerproc starts the test servers of the harness module (harness/)
// as processes, for the library module's own tests: the library's module
// does not import the harness, which requires the official Go SDK. It is
// test support, not part of the library's API.
//
// The Go SDK server is harness/demoserver/demoserve — the binary named by
// $MCPWASM_DEMOSERVE (scripts/test.sh builds it) or else built here once
// per process from the harness module — and the Node peers are the scripts
// of harness/testpeers/node, started the way harness/testpeers starts
// them. Every process prints "LISTENING <url>" once ready and exits when
// its stdin closes (or after 15 minutes by itself).
package peerproc

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

const (
	// MCPPath and SSEPath are the demo server's Streamable HTTP and
	// HTTP+SSE endpoints.
	MCPPath = "/mcp"
	SSEPath = "/sse"

	peerStartTimeout = 60 * time.Second // includes building demoserve
	peerStopGrace    = 5 * time.Second  // (every peer also exits by itself after 15 minutes)
)

// DemoOptions selects the demo server's flags.
type DemoOptions struct {
	Modern   bool
	PageSize int
	// AuthResource, AuthServer, AuthScopes and AuthVerify protect /mcp
	// (demoserve's -auth-* flags).
	AuthResource, AuthServer, AuthScopes, AuthVerify string
	// WebSocket serves the server over WebSocket (any path) instead of
	// HTTP: use "ws" + strings.TrimPrefix(origin, "http") + MCPPath.
	WebSocket bool
	// Port is the port on 127.0.0.1 (0: any free port), to start a
	// server again where a stopped one was.
	Port int
}

var (
	harnessMu  sync.Mutex
	harnessDir string // temporary directory of built harness commands
	demoserve  string
)

// Cleanup removes the commands built by this package (call it from TestMain).
func Cleanup() {
	harnessMu.Lock()
	defer harnessMu.Unlock()
	if harnessDir != "" {
		os.RemoveAll(harnessDir)
	}
}

// demoserveBinary returns the demoserve command, building it on first use.
func demoserveBinary(t testing.TB) string {
	t.Helper()
	if p := os.Getenv("MCPWASM_DEMOSERVE"); p != "" {
		return p
	}
	harnessMu.Lock()
	defer harnessMu.Unlock()
	if demoserve != "" {
		return demoserve
	}
	dir, err := os.MkdirTemp("", "mcpwasm-harness-")
	if err != nil {
		t.Fatalf("harness: %v", err)
	}
	harnessDir = dir
	out := filepath.Join(dir, "demoserve")
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "go", "build", "-o", out, "./demoserver/demoserve")
	cmd.Dir = filepath.Join(RepoRoot(t), "harness")
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("harness: building demoserve: %v\n%s", err, b)
	}
	demoserve = out
	return out
}

// GoSDKServer starts the Go SDK demo server (with a page size of 10 unless
// opts says otherwise) and returns its origin; it is stopped by t's cleanup.
func GoSDKServer(t testing.TB, opts DemoOptions) string {
	t.Helper()
	if opts.PageSize == 0 {
		opts.PageSize = 10
	}
	args := []string{"-page-size", strconv.Itoa(opts.PageSize)}
	if opts.Modern {
		args = append(args, "-modern")
	}
	if opts.WebSocket {
		args = append(args, "-ws")
	}
	if opts.Port != 0 {
		args = append(args, "-port", strconv.Itoa(opts.Port))
	}
	if opts.AuthResource != "" {
		args = append(args, "-auth-resource", opts.AuthResource, "-auth-server", opts.AuthServer,
			"-auth-scopes", opts.AuthScopes, "-auth-verify", opts.AuthVerify)
	}
	return startPeer(t, "demoserve", demoserveBinary(t), args...)
}

// TSServer starts the TypeScript SDK v2 server (both eras) and returns its
// MCP endpoint.
func TSServer(t testing.TB, pageSize int) string {
	t.Helper()
	args := []string{peerScript(t, "ts-server.mjs"), "--port", "0", "--era", "dual"}
	if pageSize > 0 {
		args = append(args, "--page-size", strconv.Itoa(pageSize))
	}
	return startPeer(t, "ts-server", nodeBinary(t), args...)
}

// Everything starts server-everything with transport
// "streamableHttp" or "sse" and returns its MCP (or SSE GET) endpoint.
func Everything(t testing.TB, transport string) string {
	t.Helper()
	return startPeer(t, "server-everything", nodeBinary(t), peerScript(t, "everything.mjs"), "--transport", transport, "--port", "0")
}

// TasksServer starts the TypeScript SDK v2 server with the tasks extension
// and returns its MCP endpoint.
func TasksServer(t testing.TB) string {
	t.Helper()
	return startPeer(t, "tasks-server", nodeBinary(t), peerScript(t, "tasks-server.mjs"), "--port", "0")
}

func peerScript(t testing.TB, name string) string {
	t.Helper()
	return filepath.Join(RepoRoot(t), "harness", "testpeers", "node", name)
}

func nodeBinary(t testing.TB) string {
	t.Helper()
	p, err := exec.LookPath("node")
	if err != nil {
		t.Fatalf("harness: node (Node >= 20) is not on PATH")
	}
	return p
}

// startPeer runs argv, waits for its LISTENING line and returns the URL
// on it. The process is stopped (stdin closed, then killed after a grace
// period) by t's cleanup; its stderr is logged if t failed.
func startPeer(t testing.TB, name, bin string, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir = RepoRoot(t)
	cmd.WaitDelay = peerStopGrace
	var stderr strings.Builder
	var stderrMu sync.Mutex
	cmd.Stderr = writerFunc(func(p []byte) (int, error) {
		stderrMu.Lock()
		defer stderrMu.Unlock()
		if stderr.Len() < 1<<20 {
			stderr.Write(p)
		}
		return len(p), nil
	})
	stdin, err := cmd.StdinPipe()
	if err != nil {
		cancel()
		t.Fatalf("harness: %s: %v", name, err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		cancel()
		t.Fatalf("harness: %s: %v", name, err)
	}
	if err := cmd.Start(); err != nil {
		cancel()
		t.Fatalf("harness: starting %s: %v", name, err)
	}
	done := make(chan struct{})
	listening := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if f := strings.Fields(sc.Text()); len(f) >= 2 && f[0] == "LISTENING" {
				select {
				case listening <- f[1]:
				default:
				}
			}
		}
		_, _ = io.Copy(io.Discard, stdout)
	}()
	go func() {
		_ = cmd.Wait()
		close(done)
	}()
	t.Cleanup(func() {
		_ = stdin.Close()
		select {
		case <-done:
		case <-time.After(peerStopGrace):
			cancel()
			<-done
		}
		cancel()
		if t.Failed() {
			stderrMu.Lock()
			t.Logf("harness: %s stderr:\n%s", name, stderr.String())
			stderrMu.Unlock()
		}
	})
	timer := time.NewTimer(peerStartTimeout)
	defer timer.Stop()
	select {
	case u := <-listening:
		if !strings.HasPrefix(u, "http://127.0.0.1:") {
			t.Fatalf("harness: %s listens on %s, want http://127.0.0.1:<port>", name, u)
		}
		return u
	case <-done:
		stderrMu.Lock()
		defer stderrMu.Unlock()
		t.Fatalf("harness: %s exited before listening:\n%s", name, stderr.String())
	case <-timer.C:
		t.Fatalf("harness: %s did not print its LISTENING line within %v", name, peerStartTimeout)
	}
	return ""
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }

var findRoot = sync.OnceValues(func() (string, error) {
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		return "", errors.New("no caller information")
	}
	dir := filepath.Dir(file)
	for {
		if b, err := os.ReadFile(filepath.Join(dir, "go.mod")); err == nil && strings.HasPrefix(string(b), "module github.com/mcpwasm/mcpwasm\n") {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("no go.mod of github.com/mcpwasm/mcpwasm above %s", file)
		}
		dir = parent
	}
})

// RepoRoot returns the repository root (the library module's directory).
func RepoRoot(t testing.TB) string {
	t.Helper()
	root, err := findRoot()
	if err != nil {
		t.Fatalf("harness: %v", err)
	}
	return root
}

// Proxy returns a handler that forwards every request to origin (a peer
// process), streaming responses as they come, so that a test can put its
// own behaviour in front of a real server. Its idle connections are closed
// by t's cleanup.
func Proxy(t testing.TB, origin string) http.Handler {
	t.Helper()
	h, closeIdle, err := NewProxy(origin)
	if err != nil {
		t.Fatalf("peerproc: %v", err)
	}
	t.Cleanup(closeIdle)
	return h
}

// NewProxy is Proxy for callers without a testing.TB: closeIdle closes its
// idle connections.
func NewProxy(origin string) (h http.Handler, closeIdle func(), err error) {
	u, err := url.Parse(origin)
	if err != nil {
		return nil, nil, err
	}
	p := httputil.NewSingleHostReverseProxy(u)
	p.FlushInterval = -1
	tr := &http.Transport{DisableCompression: true}
	p.Transport = tr
	return p, tr.CloseIdleConnections, nil
}

// StartDemo is GoSDKServer for callers without a testing.TB (runnable
// examples): it returns the server's origin and a function that stops it.
// It panics if the server does not start.
func StartDemo(opts DemoOptions) (origin string, stop func()) {
	tb := &exampleTB{}
	origin = GoSDKServer(tb, opts)
	return origin, func() {
		for _, f := range slices.Backward(tb.cleanups) {
			f()
		}
	}
}

// exampleTB is the part of testing.TB that the peer helpers use; the
// embedded (nil) interface is never called.
type exampleTB struct {
	testing.TB
	cleanups []func()
}

func (*exampleTB) Helper()                           {}
func (*exampleTB) Failed() bool                      { return false }
func (*exampleTB) Logf(string, ...any)               {}
func (tb *exampleTB) Cleanup(f func())               { tb.cleanups = append(tb.cleanups, f) }
func (*exampleTB) Fatalf(format string, args ...any) { panic(fmt.Sprintf(format, args...)) }
