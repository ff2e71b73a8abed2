package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"

	"github.com/mcpwasm/mcpwasm/core"
	"github.com/mcpwasm/mcpwasm/transport/fetch"
)

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m,
		// net/http keeps idle client connections (the native fetch Doer's
		// shared client) and their pollers after a test.
		goleak.IgnoreTopFunction("net/http.(*persistConn).readLoop"),
		goleak.IgnoreTopFunction("net/http.(*persistConn).writeLoop"),
		goleak.IgnoreTopFunction("internal/poll.runtime_pollWait"),
	)
}

// fakeRepo lays out a minimal repository root: the page, the package and a
// file outside both that must never be served.
func fakeRepo(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		"example-web/static/index.html": "<!doctype html><title>page</title>",
		"example-web/static/app.js":     "export {};",
		"example-web/static/style.css":  "body{}",
		"example-web/static/notes.md":   "not a served type",
		"js/src/index.js":               "export const x = 1;",
		"js/dist/mcpwasm.wasm":          "\x00asm\x01\x00\x00\x00",
		"js/dist/wasm_exec.js":          "globalThis.Go = class {};",
		"js/index.d.ts":                 "export {};",
		"js/package.json":               `{"name":"mcpwasm"}`,
		"js/test/api.test.mjs":          "test file",
		"secret.txt":                    "secret",
	}
	for name, body := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(body), 0o644))
	}
	return dir
}

// startSite serves a site over httptest and stops it at cleanup.
func startSite(t *testing.T, opts *siteOptions) *httptest.Server {
	t.Helper()
	s, err := newSite(opts)
	require.NoError(t, err)
	ts := httptest.NewServer(s.Handler())
	t.Cleanup(func() {
		require.NoError(t, s.Close()) // before ts.Close: ends the demo servers' streams
		ts.Close()
	})
	return ts
}

func TestStaticFiles(t *testing.T) {
	ts := startSite(t, &siteOptions{Dir: fakeRepo(t)})
	tests := []struct {
		name, method, path string
		status             int
		ctype              string
		body               string
	}{
		{name: "page", path: "/", status: 200, ctype: "text/html; charset=utf-8", body: "<title>page</title>"},
		{name: "module", path: "/app.js", status: 200, ctype: "text/javascript; charset=utf-8"},
		{name: "css", path: "/style.css", status: 200, ctype: "text/css; charset=utf-8"},
		{name: "wasm", path: "/mcpwasm/dist/mcpwasm.wasm", status: 200, ctype: "application/wasm"},
		{name: "wasm_exec", path: "/mcpwasm/dist/wasm_exec.js", status: 200, ctype: "text/javascript; charset=utf-8"},
		{name: "package module", path: "/mcpwasm/src/index.js", status: 200, ctype: "text/javascript; charset=utf-8"},
		{name: "declarations", path: "/mcpwasm/index.d.ts", status: 200, ctype: "text/plain; charset=utf-8"},
		{name: "package.json", path: "/mcpwasm/package.json", status: 200, ctype: "application/json"},
		{name: "package tests are not served", path: "/mcpwasm/test/api.test.mjs", status: 404},
		{name: "unknown type", path: "/notes.md", status: 404},
		{name: "missing", path: "/nope.js", status: 404},
		{name: "directory", path: "/mcpwasm/src/", status: 404},
		{name: "escape with dots", path: "/mcpwasm/src/%2e%2e/%2e%2e/secret.txt", status: 404},
		{name: "escape encoded slash", path: "/..%2fsecret.txt", status: 404},
		{name: "POST", method: http.MethodPost, path: "/app.js", status: 405},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			method := tc.method
			if method == "" {
				method = http.MethodGet
			}
			req, err := http.NewRequest(method, ts.URL+tc.path, nil)
			require.NoError(t, err)
			resp, err := ts.Client().Do(req)
			require.NoError(t, err)
			defer resp.Body.Close()
			body := new(strings.Builder)
			_, err = io.Copy(body, resp.Body)
			require.NoError(t, err)
			assert.Equal(t, tc.status, resp.StatusCode, body.String())
			assert.NotContains(t, body.String(), "secret")
			if tc.status != 200 {
				return
			}
			assert.Equal(t, tc.ctype, resp.Header.Get("Content-Type"))
			assert.Equal(t, "nosniff", resp.Header.Get("X-Content-Type-Options"))
			assert.Equal(t, "no-cache", resp.Header.Get("Cache-Control"))
			assert.NotEmpty(t, resp.Header.Get("ETag"))
			assert.NotEmpty(t, resp.Header.Get("Last-Modified"))
			if strings.HasPrefix(tc.ctype, "text/html") {
				csp := resp.Header.Get("Content-Security-Policy")
				assert.Contains(t, csp, "script-src 'self' 'wasm-unsafe-eval'")
				assert.NotContains(t, csp, "unsafe-inline")
				// Frames only from the apps sandbox: this server under the other loopback name.
				_, port, err := net.SplitHostPort(strings.TrimPrefix(ts.URL, "http://"))
				require.NoError(t, err)
				assert.Contains(t, csp, "; frame-src http://127.0.0.1:"+port+" http://localhost:"+port)
			}
			assert.Contains(t, body.String(), tc.body)
		})
	}
}

func TestRevalidation(t *testing.T) {
	ts := startSite(t, &siteOptions{Dir: fakeRepo(t)})
	resp, err := ts.Client().Get(ts.URL + "/mcpwasm/dist/mcpwasm.wasm")
	require.NoError(t, err)
	resp.Body.Close()
	etag := resp.Header.Get("ETag")
	require.NotEmpty(t, etag)

	req, err := http.NewRequest(http.MethodGet, ts.URL+"/mcpwasm/dist/mcpwasm.wasm", nil)
	require.NoError(t, err)
	req.Header.Set("If-None-Match", etag)
	resp, err = ts.Client().Do(req)
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusNotModified, resp.StatusCode, "an unchanged module costs a 304")
}

func TestDemoServers(t *testing.T) {
	ts := startSite(t, &siteOptions{Dir: fakeRepo(t), PageSize: 10, CORSOrigins: []string{"*"}})
	tests := []struct {
		name, path, mode string
		era              core.Era
		version          string
	}{
		{name: "dual-era endpoint, modern client", path: "/mcp", era: core.EraModern, version: "2026-07-28"},
		{name: "legacy-only endpoint", path: "/legacy/mcp", era: core.EraLegacy, version: "2025-11-25"},
		{name: "HTTP+SSE endpoint", path: "/sse", mode: fetch.ModeSSE, era: core.EraLegacy},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			tr, err := fetch.New(ts.URL+tc.path, &fetch.Options{Mode: tc.mode})
			require.NoError(t, err)
			client := core.NewClient(&core.Implementation{Name: "example-web-test", Version: "1.0.0"}, nil)
			s, err := client.Connect(ctx, tr, nil)
			require.NoError(t, err)
			defer s.Close()
			assert.Equal(t, tc.era, s.Era())
			if tc.version != "" {
				assert.Equal(t, tc.version, s.ProtocolVersion())
			}
			page, err := s.ListTools(ctx, nil)
			require.NoError(t, err)
			assert.Len(t, page.Tools, 10, "page size 10")
			assert.NotEmpty(t, page.NextCursor)
			res, err := s.CallTool(ctx, &core.CallToolParams{Name: "echo", Arguments: map[string]any{"text": "hi"}}, nil)
			require.NoError(t, err)
			require.Len(t, res.Content, 1)
			assert.Equal(t, "hi", res.Content[0].Text)
		})
	}
}

func TestCORSPreflight(t *testing.T) {
	ts := startSite(t, &siteOptions{Dir: fakeRepo(t), CORSOrigins: []string{"*"}})
	for _, path := range []string{"/mcp", "/legacy/mcp"} {
		t.Run(path, func(t *testing.T) {
			req, err := http.NewRequest(http.MethodOptions, ts.URL+path, nil)
			require.NoError(t, err)
			req.Header.Set("Origin", "http://127.0.0.1:1")
			req.Header.Set("Access-Control-Request-Method", "POST")
			req.Header.Set("Access-Control-Request-Headers", "content-type, mcp-protocol-version, mcp-method, mcp-name, mcp-param-region, authorization")
			resp, err := ts.Client().Do(req)
			require.NoError(t, err)
			resp.Body.Close()
			assert.Equal(t, http.StatusNoContent, resp.StatusCode)
			assert.Equal(t, "*", resp.Header.Get("Access-Control-Allow-Origin"))
			allowed := strings.ToLower(resp.Header.Get("Access-Control-Allow-Headers"))
			for _, h := range []string{"content-type", "mcp-protocol-version", "mcp-method", "mcp-name", "mcp-param-region", "authorization"} {
				assert.Contains(t, allowed, h)
			}
			exposed := strings.ToLower(resp.Header.Get("Access-Control-Expose-Headers"))
			for _, h := range []string{"mcp-session-id", "www-authenticate", "mcp-protocol-version"} {
				assert.Contains(t, exposed, h)
			}
		})
	}
}

func TestListen(t *testing.T) {
	busy, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer busy.Close()
	busyPort := busy.Addr().(*net.TCPAddr).Port

	tests := []struct {
		name    string
		flag    int
		env     string
		wantErr string
		port    int // 0: any
	}{
		{name: "flag 0 picks a free port", flag: 0},
		{name: "flag wins over PORT", flag: 0, env: strconv.Itoa(busyPort)},
		{name: "busy flag port fails", flag: busyPort, wantErr: "address already in use"},
		{name: "busy PORT fails", flag: -1, env: strconv.Itoa(busyPort), wantErr: "address already in use"},
		{name: "bad PORT", flag: -1, env: "eighty", wantErr: `PORT="eighty" is not a port number`},
		{name: "default range or any", flag: -1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ln, err := listen(tc.flag, tc.env)
			if tc.wantErr != "" {
				require.ErrorContains(t, err, tc.wantErr)
				return
			}
			require.NoError(t, err)
			defer ln.Close()
			addr := ln.Addr().(*net.TCPAddr)
			assert.True(t, addr.IP.IsLoopback(), "listens on loopback only")
			assert.NotEqual(t, busyPort, addr.Port)
		})
	}
}

func TestFindRoot(t *testing.T) {
	repo := fakeRepo(t)
	got, err := findRoot(repo)
	require.NoError(t, err)
	assert.Equal(t, repo, got)

	_, err = findRoot(t.TempDir())
	assert.ErrorContains(t, err, "is not the mcpwasm repository root")

	t.Chdir(filepath.Join(repo, "js", "src"))
	got, err = findRoot("")
	require.NoError(t, err)
	assert.Equal(t, repo, got, "found from a subdirectory")
}

func TestCompressedModule(t *testing.T) {
	dir := fakeRepo(t)
	wasm := bytes.Repeat([]byte("\x00asm\x01\x00\x00\x00 a module that compresses well "), 4096)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "js/dist/mcpwasm.wasm"), wasm, 0o644))
	ts := startSite(t, &siteOptions{Dir: dir})
	tr := &http.Transport{DisableCompression: true}
	t.Cleanup(tr.CloseIdleConnections)
	get := func(t *testing.T, path, acceptEncoding string) (*http.Response, []byte) {
		t.Helper()
		req, err := http.NewRequest(http.MethodGet, ts.URL+path, nil)
		require.NoError(t, err)
		if acceptEncoding != "" {
			req.Header.Set("Accept-Encoding", acceptEncoding) // set: the transport does not decompress
		}
		resp, err := tr.RoundTrip(req)
		require.NoError(t, err)
		defer resp.Body.Close()
		body, err := io.ReadAll(resp.Body)
		require.NoError(t, err)
		return resp, body
	}
	tests := []struct {
		name, path, acceptEncoding string
		gzipped                    bool
		want                       []byte
	}{
		{name: "gzip accepted", path: "/mcpwasm/dist/mcpwasm.wasm", acceptEncoding: "gzip, deflate, br", gzipped: true, want: wasm},
		{name: "gzip with a q-value", path: "/mcpwasm/dist/mcpwasm.wasm", acceptEncoding: "br;q=1.0, gzip;q=0.5", gzipped: true, want: wasm},
		{name: "any coding", path: "/mcpwasm/dist/mcpwasm.wasm", acceptEncoding: "*", gzipped: true, want: wasm},
		{name: "gzip refused", path: "/mcpwasm/dist/mcpwasm.wasm", acceptEncoding: "gzip;q=0, identity", want: wasm},
		{name: "no Accept-Encoding", path: "/mcpwasm/dist/mcpwasm.wasm", want: wasm},
		{name: "the glue too", path: "/mcpwasm/dist/wasm_exec.js", acceptEncoding: "gzip", gzipped: true, want: []byte("globalThis.Go = class {};")},
		{name: "second request from the cache", path: "/mcpwasm/dist/mcpwasm.wasm", acceptEncoding: "gzip", gzipped: true, want: wasm},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			resp, body := get(t, tc.path, tc.acceptEncoding)
			require.Equal(t, http.StatusOK, resp.StatusCode)
			assert.Contains(t, resp.Header.Values("Vary"), "Accept-Encoding")
			if !tc.gzipped {
				assert.Empty(t, resp.Header.Get("Content-Encoding"))
				assert.Equal(t, tc.want, body)
				return
			}
			assert.Equal(t, "gzip", resp.Header.Get("Content-Encoding"))
			assert.True(t, strings.HasSuffix(resp.Header.Get("ETag"), `-gzip"`), resp.Header.Get("ETag"))
			if len(tc.want) > 1000 {
				assert.Less(t, len(body), len(tc.want)/10, "sent compressed")
			}
			zr, err := gzip.NewReader(bytes.NewReader(body))
			require.NoError(t, err)
			plain, err := io.ReadAll(zr)
			require.NoError(t, err)
			assert.Equal(t, tc.want, plain)
		})
	}
}

func TestVendorBundles(t *testing.T) {
	dir := fakeRepo(t)
	ts := startSite(t, &siteOptions{Dir: dir})
	get := func(path string) (int, string, string) {
		t.Helper()
		resp, err := ts.Client().Get(ts.URL + path)
		require.NoError(t, err)
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		require.NoError(t, err)
		return resp.StatusCode, resp.Header.Get("Content-Type"), string(b)
	}
	// Not built yet: 404 (the page then says apps are not rendered).
	status, _, _ := get("/vendor/mcpwasm-apps.js")
	assert.Equal(t, http.StatusNotFound, status)
	// Built after the server started: served, from build/example-web only.
	require.NoError(t, os.WriteFile(filepath.Join(dir, "build", "example-web", "mcpwasm-apps.js"), []byte("export const renderApp = 1;"), 0o644))
	status, ctype, body := get("/vendor/mcpwasm-apps.js")
	assert.Equal(t, http.StatusOK, status)
	assert.Equal(t, "text/javascript; charset=utf-8", ctype)
	assert.Equal(t, "export const renderApp = 1;", body)
	status, _, _ = get("/vendor/../../secret.txt")
	assert.Equal(t, http.StatusNotFound, status)
}

func TestAppsSandbox(t *testing.T) {
	dir := fakeRepo(t)
	ts := startSite(t, &siteOptions{Dir: dir})
	resp, err := ts.Client().Get(ts.URL + "/apps-sandbox.html")
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusNotFound, resp.StatusCode, "not built yet")

	require.NoError(t, os.WriteFile(filepath.Join(dir, "build", "example-web", "apps-sandbox.html"), []byte("<!doctype html><p>proxy"), 0o644))
	resp, err = ts.Client().Get(ts.URL + "/apps-sandbox.html")
	require.NoError(t, err)
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	require.NoError(t, err)
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Equal(t, "<!doctype html><p>proxy", string(body))
	assert.Equal(t, "text/html; charset=utf-8", resp.Header.Get("Content-Type"))
	_, port, err := net.SplitHostPort(strings.TrimPrefix(ts.URL, "http://"))
	require.NoError(t, err)
	// Only the page (this server under either loopback name) may frame it;
	// nothing else of the page's policy applies to the proxy.
	assert.Equal(t, "frame-ancestors http://127.0.0.1:"+port+" http://localhost:"+port, resp.Header.Get("Content-Security-Policy"))
}

// TestAppsStatus: /apps.json says whether the apps host bundle and its
// sandbox page are built, always with 200 (the page asks it instead of
// probing files that may be missing).
func TestAppsStatus(t *testing.T) {
	dir := fakeRepo(t)
	ts := startSite(t, &siteOptions{Dir: dir})
	status := func() string {
		t.Helper()
		resp, err := ts.Client().Get(ts.URL + "/apps.json")
		require.NoError(t, err)
		defer resp.Body.Close()
		body, err := io.ReadAll(resp.Body)
		require.NoError(t, err)
		require.Equal(t, http.StatusOK, resp.StatusCode)
		assert.Equal(t, "application/json", resp.Header.Get("Content-Type"))
		return strings.TrimSpace(string(body))
	}
	assert.Equal(t, `{"host":false}`, status())
	vendor := filepath.Join(dir, "build", "example-web")
	require.NoError(t, os.WriteFile(filepath.Join(vendor, "mcpwasm-apps.js"), []byte("export const renderApp = 1;"), 0o644))
	assert.Equal(t, `{"host":false}`, status(), "the sandbox page is missing")
	require.NoError(t, os.WriteFile(filepath.Join(vendor, "apps-sandbox.html"), []byte("<!doctype html>"), 0o644))
	assert.Equal(t, `{"host":true}`, status())
}
