package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/mcpwasm/mcpwasm/harness/demoserver"
)

// siteOptions configures a site. The zero value is not useful: Dir must
// name the repository root.
type siteOptions struct {
	// Dir is the repository root: the page is Dir/example-web/static, the
	// package Dir/js.
	Dir string
	// PageSize is the demo servers' list page size (0: no pagination).
	PageSize int
	// CORSOrigins are the origins the demo servers answer CORS for ("*":
	// any); empty: same-origin only.
	CORSOrigins []string
	// Logger receives the demo servers' logs; nil discards them.
	Logger *slog.Logger
}

// legacyPrefix is where the legacy-only demo server is mounted.
const legacyPrefix = "/legacy"

// site is the example-web HTTP handler: the page, the package and two demo
// MCP servers. Its methods are safe for concurrent use.
type site struct {
	handler http.Handler
	servers []*demoserver.Server
	static  *os.Root
	pkg     *os.Root
	vendor  *os.Root  // build/example-web: bundles made by scripts/demo.sh (the apps host)
	gz      gzipCache // compress.go: the package's module and glue, gzip-compressed
	vgz     gzipCache // the same for the bundles
}

// newSite opens the page and package directories under opts.Dir and starts
// the demo servers. Call Close when done.
func newSite(opts *siteOptions) (*site, error) {
	static, err := os.OpenRoot(filepath.Join(opts.Dir, "example-web", "static"))
	if err != nil {
		return nil, fmt.Errorf("example-web: the page: %w", err)
	}
	pkg, err := os.OpenRoot(filepath.Join(opts.Dir, "js"))
	if err != nil {
		static.Close()
		return nil, fmt.Errorf("example-web: the package: %w", err)
	}
	// The bundle of the MCP Apps host (mcpwasm/apps with the official host
	// bridge) is built by scripts/demo.sh when the npm dependencies are
	// there; without it the page says that apps cannot be shown.
	vendorDir := filepath.Join(opts.Dir, "build", "example-web")
	if err := os.MkdirAll(vendorDir, 0o755); err != nil {
		static.Close()
		pkg.Close()
		return nil, fmt.Errorf("example-web: %w", err)
	}
	vendor, err := os.OpenRoot(vendorDir)
	if err != nil {
		static.Close()
		pkg.Close()
		return nil, fmt.Errorf("example-web: the bundles: %w", err)
	}
	s := &site{static: static, pkg: pkg, vendor: vendor}

	dual := demoserver.New(&demoserver.Options{Modern: true, Apps: true, PageSize: opts.PageSize, CORSOrigins: opts.CORSOrigins, Logger: opts.Logger})
	legacy := demoserver.New(&demoserver.Options{PageSize: opts.PageSize, CORSOrigins: opts.CORSOrigins, Logger: opts.Logger})
	s.servers = []*demoserver.Server{dual, legacy}

	mux := http.NewServeMux()
	mux.Handle(demoserver.MCPPath, dual.Handler())
	mux.Handle(demoserver.SSEPath, dual.Handler())
	// The legacy server's HTTP+SSE endpoint is not mounted: the SDK names
	// its POST endpoint with an absolute path that a prefix would break.
	mux.Handle(legacyPrefix+demoserver.MCPPath, http.StripPrefix(legacyPrefix, legacy.Handler()))
	mux.HandleFunc("/mcpwasm/", s.servePackage)
	mux.HandleFunc("/apps-sandbox.html", s.serveAppsSandbox)
	mux.HandleFunc("/apps.json", s.serveAppsStatus)
	mux.HandleFunc("/vendor/", func(w http.ResponseWriter, r *http.Request) {
		serveFile(w, r, s.vendor, strings.TrimPrefix(r.URL.Path, "/vendor/"), &s.vgz)
	})
	mux.HandleFunc("/", s.serveStatic)
	s.handler = mux
	return s, nil
}

// serveAppsStatus answers {"host": bool}: whether the apps host bundle and
// its sandbox proxy page are built, so that the page can ask without a 404
// (a failed probe would be an error in the browser's console).
func (s *site) serveAppsStatus(w http.ResponseWriter, r *http.Request) {
	built := true
	for _, name := range []string{"mcpwasm-apps.js", "apps-sandbox.html"} {
		if _, err := s.vendor.Stat(name); err != nil {
			built = false
		}
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	fmt.Fprintf(w, "{\"host\":%t}\n", built)
}

// Handler returns the site's handler.
func (s *site) Handler() http.Handler { return s.handler }

// Close ends the demo servers' sessions and streams (call it before
// shutting down the http.Server, whose Shutdown waits for them) and closes
// the directories.
func (s *site) Close() error {
	for _, srv := range s.servers {
		srv.Close()
	}
	return errors.Join(s.static.Close(), s.pkg.Close(), s.vendor.Close())
}

// servePackage serves the npm package: src/, dist/, index.d.ts and
// package.json under /mcpwasm/ (nothing else of js/, e.g. its tests).
func (s *site) servePackage(w http.ResponseWriter, r *http.Request) {
	name := strings.TrimPrefix(r.URL.Path, "/mcpwasm/")
	switch {
	case name == "index.d.ts", name == "package.json",
		strings.HasPrefix(name, "src/"), strings.HasPrefix(name, "dist/"):
		serveFile(w, r, s.pkg, name, &s.gz)
	default:
		http.NotFound(w, r)
	}
}

// serveStatic serves the page.
func (s *site) serveStatic(w http.ResponseWriter, r *http.Request) {
	name := strings.TrimPrefix(r.URL.Path, "/")
	if name == "" {
		name = "index.html"
	}
	serveFile(w, r, s.static, name, nil)
}

// contentTypes are the types of the files the site serves; other files are
// not served (no guessing, no sniffing).
var contentTypes = map[string]string{
	".html": "text/html; charset=utf-8",
	".js":   "text/javascript; charset=utf-8",
	".mjs":  "text/javascript; charset=utf-8",
	".css":  "text/css; charset=utf-8",
	".json": "application/json",
	".wasm": "application/wasm",
	".ts":   "text/plain; charset=utf-8",
	".svg":  "image/svg+xml",
	".png":  "image/png",
	".ico":  "image/x-icon",
	".txt":  "text/plain; charset=utf-8",
}

// pageCSP is the page's Content-Security-Policy: scripts only from this
// origin ('wasm-unsafe-eval' lets it compile WebAssembly; no eval, no inline
// script), images and audio also from data: URLs (server content),
// connections anywhere (the MCP server may be on any origin), no plugins,
// no <base>, no form submissions, not framed by other sites. serveFile adds
// frame-src: the apps sandbox origins (appsSandboxOrigins).
const pageCSP = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; worker-src 'self'; " +
	"style-src 'self'; img-src 'self' data:; media-src 'self' data:; connect-src *; " +
	"object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

// appsSandboxOrigins returns the origins of this server under both loopback
// names, "http://127.0.0.1:<port> http://localhost:<port>" (the port of the
// request's Host), or "'none'" when the Host has no port.
//
// MCP Apps run in the extension's sandbox proxy (/apps-sandbox.html) on a
// second origin: the page at http://127.0.0.1:<port> frames it from
// http://localhost:<port> and the other way round, the same server under
// the other loopback name. An app in a srcdoc frame of the page itself
// would inherit the page's policy, whose script-src 'self' blocks the app's
// inline script (seen in Chromium); the proxy has a policy of its own, and
// the app runs in a frame inside it (sandbox allow-scripts: an opaque
// origin) under the stricter policy the apps host builds from the
// resource's _meta.ui.csp.
func appsSandboxOrigins(r *http.Request) string {
	_, port, err := net.SplitHostPort(r.Host)
	if err != nil || port == "" {
		return "'none'"
	}
	return "http://127.0.0.1:" + port + " http://localhost:" + port
}

// serveAppsSandbox serves the sandbox proxy page (written by
// example-web/build-apps.mjs from the package's SANDBOX_PROXY_HTML) with a
// policy that only limits who may frame it: the page, on the other
// loopback name. What runs inside is limited by the app's own policy.
func (s *site) serveAppsSandbox(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	f, err := s.vendor.Open("apps-sandbox.html")
	if err != nil {
		http.NotFound(w, r)
		return
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		http.NotFound(w, r)
		return
	}
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Cache-Control", "no-cache")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("Content-Security-Policy", "frame-ancestors "+appsSandboxOrigins(r))
	http.ServeContent(w, r, "apps-sandbox.html", fi.ModTime(), f)
}

// serveFile serves root/name (GET and HEAD only) with an explicit type and
// revalidation caching: Cache-Control no-cache plus ETag and Last-Modified.
func serveFile(w http.ResponseWriter, r *http.Request, root *os.Root, name string, gz *gzipCache) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	name = path.Clean(name)
	ctype, ok := contentTypes[path.Ext(name)]
	if !ok || !fs.ValidPath(name) {
		http.NotFound(w, r)
		return
	}
	f, err := root.Open(name) // os.Root refuses paths that leave the directory
	if err != nil {
		http.NotFound(w, r)
		return
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		http.NotFound(w, r)
		return
	}
	h := w.Header()
	h.Set("Content-Type", ctype)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Cache-Control", "no-cache")
	h.Set("ETag", fmt.Sprintf(`"%x-%x"`, fi.Size(), fi.ModTime().UnixNano()))
	if strings.HasPrefix(ctype, "text/html") {
		h.Set("Content-Security-Policy", pageCSP+"; frame-src "+appsSandboxOrigins(r))
		h.Set("Referrer-Policy", "no-referrer")
	}
	if gz != nil && compressed[path.Ext(name)] {
		h.Add("Vary", "Accept-Encoding")
		if acceptsGzip(r) {
			if data, err := gz.get(name, fi, f); err == nil {
				h.Set("Content-Encoding", "gzip")
				h.Set("ETag", fmt.Sprintf(`"%x-%x-gzip"`, fi.Size(), fi.ModTime().UnixNano()))
				http.ServeContent(w, r, name, fi.ModTime(), bytes.NewReader(data))
				return
			}
			// A read error: fall back to the file itself.
			if _, err := f.Seek(0, io.SeekStart); err != nil {
				http.Error(w, "read error", http.StatusInternalServerError)
				return
			}
		}
	}
	http.ServeContent(w, r, name, fi.ModTime(), f)
}
