//go:build !js

package jstest_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpwasm/mcpwasm/harness/demoserver"
	"github.com/mcpwasm/mcpwasm/harness/testpeers"
	"github.com/mcpwasm/mcpwasm/harness/wsserver"
	"github.com/mcpwasm/mcpwasm/tests/gojs"
)

// jsPackages are the packages whose GOOS=js tests the harness runs: the
// syscall/js tree, and the platform-independent packages the GOOS=js module
// runs (their GOOS=js build has code of its own: internal/rawjson).
var jsPackages = []string{"./tests/gojs/", "./internal/rawjson/", "./internal/js/fetch/", "./internal/js/ws/", "./internal/js/crypto/", "./internal/js/regex/",
	"./core/", "./jsonrpc/", "./internal/jsonscan/", "./internal/sse/", "./internal/wire/"}

// TestGOOSJS starts the servers and runs the GOOS=js tests under Node 22.
func TestGOOSJS(t *testing.T) {
	root := testpeers.RepoRoot(t)
	node22 := testpeers.Node22Binary(t)
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("the go command is not on PATH: %v", err)
	}
	goroot := goEnv(t, goBin, "GOROOT")
	execScript := filepath.Join(goroot, "lib", "wasm", "go_js_wasm_exec")
	if _, err := os.Stat(execScript); err != nil {
		execScript = filepath.Join(goroot, "misc", "wasm", "go_js_wasm_exec") // Go < 1.24 layout
		if _, err := os.Stat(execScript); err != nil {
			t.Fatalf("go_js_wasm_exec not found under %s/lib/wasm or misc/wasm", goroot)
		}
	}

	env := map[string]string{}
	env[gojs.EnvEcho] = startHTTP(t, newRawServer())
	env[gojs.EnvGoLegacy] = startDemo(t, &demoserver.Options{})
	env[gojs.EnvGoModern] = startDemo(t, &demoserver.Options{Modern: true})
	env[gojs.EnvGoCORS] = startDemo(t, &demoserver.Options{CORSOrigins: []string{"*"}})
	ts := testpeers.StartTSServer(t, nil)
	env[gojs.EnvTS] = ts.URL
	tsURL, err := url.Parse(ts.URL)
	if err != nil {
		t.Fatal(err)
	}
	env[gojs.EnvTSCORSNoExpose] = startHTTP(t, allowOriginOnly(httputil.NewSingleHostReverseProxy(&url.URL{Scheme: tsURL.Scheme, Host: tsURL.Host}))) + tsURL.Path
	closed := httptest.NewServer(http.NotFoundHandler())
	env[gojs.EnvClosed] = closed.URL
	closed.Close()
	env[gojs.EnvWSBridge] = testpeers.StartWSBridge(t, nil).URL
	demo := demoserver.New(&demoserver.Options{Modern: true})
	wsh := wsserver.New(demo.MCPServer(), &wsserver.Options{Faults: true})
	wsOrigin := startHTTP(t, wsh)
	t.Cleanup(func() { wsh.Close(); demo.Close() })
	env[gojs.EnvWSGo] = "ws" + strings.TrimPrefix(wsOrigin, "http") + "/mcp"

	timeout := 4 * time.Minute
	if d, ok := t.Deadline(); ok && time.Until(d)-15*time.Second < timeout {
		timeout = time.Until(d) - 15*time.Second
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	args := append([]string{"test", "-count=1", "-timeout", strconv.Itoa(int(timeout.Seconds())) + "s", "-exec", execScript}, jsPackages...)
	if testing.Verbose() {
		args = append(args, "-v")
	}
	cmd := exec.CommandContext(ctx, goBin, args...)
	cmd.Dir = root
	cmd.WaitDelay = 10 * time.Second
	// go_js_wasm_exec copies the whole environment into the wasm program,
	// whose argv+environment must fit in 8 KiB: pass a small one.
	cmd.Env = smallEnv(t, goBin, filepath.Dir(node22), env)
	var out bytes.Buffer
	cmd.Stdout = &out
	cmd.Stderr = &out
	start := time.Now()
	err = cmd.Run()
	if err != nil {
		t.Fatalf("GOOS=js tests failed (%v) after %v:\n$ GOOS=js GOARCH=wasm go %s\n%s", err, time.Since(start).Round(time.Millisecond), strings.Join(args, " "), out.String())
	}
	t.Logf("GOOS=js tests passed in %v under %s:\n%s", time.Since(start).Round(time.Millisecond), node22, summary(out.String()))
}

// summary keeps the per-package result lines of go test's output.
func summary(out string) string {
	var b strings.Builder
	for line := range strings.Lines(out) {
		if strings.HasPrefix(line, "ok ") || strings.HasPrefix(line, "--- ") || strings.HasPrefix(line, "FAIL") {
			b.WriteString(line)
		}
	}
	return b.String()
}

func goEnv(t *testing.T, goBin, name string) string {
	t.Helper()
	out, err := exec.Command(goBin, "env", name).Output()
	if err != nil {
		t.Fatalf("go env %s: %v", name, err)
	}
	return strings.TrimSpace(string(out))
}

// smallEnv is the child's environment: what the go command needs, Node 22
// first on PATH (go_js_wasm_exec runs "node"), and the server URLs.
func smallEnv(t *testing.T, goBin, nodeDir string, urls map[string]string) []string {
	t.Helper()
	env := []string{
		"GOOS=js",
		"GOARCH=wasm",
		"PATH=" + nodeDir + string(os.PathListSeparator) + filepath.Dir(goBin) + string(os.PathListSeparator) + "/usr/bin:/bin",
		"GOFLAGS=-mod=readonly",
		"GOTOOLCHAIN=local",
		"CGO_ENABLED=0",
	}
	for _, name := range []string{"GOCACHE", "GOMODCACHE", "GOPATH"} {
		env = append(env, name+"="+goEnv(t, goBin, name)) // share the parent's caches
	}
	for _, name := range []string{"HOME", "TMPDIR", "GOPROXY", "GOSUMDB", "GONOSUMDB", "GOPRIVATE", "GOINSECURE"} {
		if v := os.Getenv(name); v != "" {
			env = append(env, name+"="+v)
		}
	}
	for k, v := range urls {
		env = append(env, k+"="+v)
	}
	return env
}

func startHTTP(t *testing.T, h http.Handler) string {
	t.Helper()
	hs := httptest.NewServer(h)
	t.Cleanup(func() {
		hs.CloseClientConnections()
		hs.Close()
	})
	return hs.URL
}

func startDemo(t *testing.T, opts *demoserver.Options) string {
	t.Helper()
	srv := demoserver.New(opts)
	url := startHTTP(t, srv.Handler())
	t.Cleanup(func() { srv.Close() })
	return url
}

// allowOriginOnly is a common CORS misconfiguration in front of h: it
// allows every origin but exposes no response header.
func allowOriginOnly(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Access-Control-Allow-Origin", "*")
		if r.Method == http.MethodOptions {
			w.Header().Set("Access-Control-Allow-Headers", "*")
			w.Header().Set("Access-Control-Allow-Methods", "GET, POST, DELETE")
			w.WriteHeader(http.StatusNoContent)
			return
		}
		h.ServeHTTP(w, r)
	})
}

// rawServer is the harness's own HTTP server for the fetch Doer's
// mechanics, which MCP servers do not expose:
//
//	/echo        answers JSON {method, header, body} of the request, with
//	             two X-Multi headers and an Mcp-Session-Id header
//	/stream?id=  writes "first\n", then holds the response open until the
//	             client goes away (or 20 s) and records how it ended
//	/state?id=   the record of /stream: "open", "aborted" or "finished"
//	/status/N    answers status N with body "status N"
//	/redirect    302 to /echo
type rawServer struct {
	mu     sync.Mutex
	states map[string]string
}

func newRawServer() *rawServer { return &rawServer{states: map[string]string{}} }

func (s *rawServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch {
	case r.URL.Path == "/echo":
		body, _ := io.ReadAll(r.Body)
		h := map[string]string{}
		for k, v := range r.Header {
			h[strings.ToLower(k)] = strings.Join(v, ", ")
		}
		w.Header().Add("X-Multi", "a")
		w.Header().Add("X-Multi", "b")
		w.Header().Set("Mcp-Session-Id", "s-1")
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{"method": r.Method, "header": h, "body": string(body)})
	case r.URL.Path == "/stream":
		id := r.URL.Query().Get("id")
		s.set(id, "open")
		w.Header().Set("Content-Type", "text/plain")
		_, _ = io.WriteString(w, "first\n")
		w.(http.Flusher).Flush()
		select {
		case <-r.Context().Done():
			s.set(id, "aborted")
		case <-time.After(20 * time.Second):
			_, _ = io.WriteString(w, "last\n")
			s.set(id, "finished")
		}
	case r.URL.Path == "/state":
		s.mu.Lock()
		st := s.states[r.URL.Query().Get("id")]
		s.mu.Unlock()
		_, _ = io.WriteString(w, st)
	case strings.HasPrefix(r.URL.Path, "/status/"):
		code, err := strconv.Atoi(strings.TrimPrefix(r.URL.Path, "/status/"))
		if err != nil || code < 200 || code > 599 {
			http.Error(w, "bad status", http.StatusBadRequest)
			return
		}
		w.WriteHeader(code)
		fmt.Fprintf(w, "status %d", code)
	case r.URL.Path == "/redirect":
		http.Redirect(w, r, "/echo", http.StatusFound)
	default:
		http.NotFound(w, r)
	}
}

func (s *rawServer) set(id, state string) {
	s.mu.Lock()
	s.states[id] = state
	s.mu.Unlock()
}

// TestJSBuildLinksNoNetHTTP: under GOOS=js the transports use fetch and
// WebSocket through syscall/js; Go's net/http (which does not use fetch
// under Node and costs megabytes) and coder/websocket must not be linked.
func TestJSBuildLinksNoNetHTTP(t *testing.T) {
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("the go command is not on PATH: %v", err)
	}
	cmd := exec.Command(goBin, "list", "-deps", "./transport/fetch", "./transport/ws")
	cmd.Dir = testpeers.RepoRoot(t)
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	deps := strings.Fields(string(out))
	if len(deps) < 10 {
		t.Fatalf("go list printed too little: %q", out)
	}
	for _, forbidden := range []string{"net/http", "github.com/coder/websocket", "crypto/tls"} {
		for _, d := range deps {
			if d == forbidden {
				t.Errorf("the GOOS=js build of transport/fetch and transport/ws links %s", forbidden)
			}
		}
	}
}

// TestInjectMethodAgrees: the GOOS=js tests name the WebSocket server's
// fault-injection method by their own constant (the library module cannot
// import the harness).
func TestInjectMethodAgrees(t *testing.T) {
	if gojs.WSInjectMethod != wsserver.InjectMethod {
		t.Errorf("tests/gojs.WSInjectMethod = %q, harness/wsserver.InjectMethod = %q", gojs.WSInjectMethod, wsserver.InjectMethod)
	}
}
