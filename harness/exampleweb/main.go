package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/mcpwasm/mcpwasm/harness/peerlife"
)

// Default port range tried when neither -port nor $PORT is given.
const (
	firstPort = 8080
	lastPort  = 8099
)

func main() {
	log.SetFlags(0)
	log.SetPrefix("example-web: ")
	port := flag.Int("port", -1, "port on 127.0.0.1 (0: any free port; default $PORT, else 8080 or the next free one)")
	dir := flag.String("dir", "", "repository root (default: found from the working directory upwards)")
	pageSize := flag.Int("page-size", 10, "list page size of the demo servers (0: no pagination)")
	cors := flag.String("cors", "*", `comma-separated origins the demo servers answer CORS for ("*": any, "": same-origin only)`)
	maxLife := flag.Duration("max-life", 0, "exit after this long (0: run until interrupted)")
	verbose := flag.Bool("v", false, "log the demo servers' activity to stderr")
	flag.Parse()

	root, err := findRoot(*dir)
	if err != nil {
		log.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "js", "dist", "mcpwasm.wasm")); err != nil {
		log.Printf("warning: js/dist/mcpwasm.wasm is missing; build it with: bash scripts/build-wasm.sh")
	}
	opts := &siteOptions{Dir: root, PageSize: *pageSize}
	if *cors != "" {
		opts.CORSOrigins = strings.Split(*cors, ",")
	}
	if *verbose {
		opts.Logger = slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
	s, err := newSite(opts)
	if err != nil {
		log.Fatal(err)
	}
	ln, err := listen(*port, os.Getenv("PORT"))
	if err != nil {
		log.Fatal(err)
	}
	hs := &http.Server{Handler: s.Handler(), ReadHeaderTimeout: 10 * time.Second}
	served := make(chan error, 1)
	go func() { served <- hs.Serve(ln) }()

	url := fmt.Sprintf("http://%s/", ln.Addr())
	fmt.Printf("LISTENING %s\n", url)
	fmt.Printf("\n  mcpwasm example web app:  %s\n", url)
	fmt.Printf("  demo MCP server (dual-era): %smcp    legacy only: %slegacy/mcp    HTTP+SSE: %ssse\n\n", url, url, url)
	fmt.Println("  Press Ctrl-C to stop.")

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	var lifetime <-chan time.Time
	if *maxLife > 0 {
		lifetime = time.After(*maxLife)
	}
	select {
	case <-ctx.Done():
		fmt.Println("\nexample-web: shutting down")
	case <-peerlife.StdinClosed():
	case <-lifetime:
	case err := <-served:
		log.Fatal(err)
	}
	stop() // a second Ctrl-C kills at once
	// The demo servers first: their open streams would hold Shutdown up.
	_ = s.Close()
	shutdown, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	if err := hs.Shutdown(shutdown); err != nil {
		_ = hs.Close()
	}
}

// listen opens the listener on 127.0.0.1: the flag's port if set (>= 0),
// else $PORT if set, else the first free port of firstPort..lastPort, else
// any free port.
func listen(flagPort int, envPort string) (net.Listener, error) {
	explicit := flagPort
	if explicit < 0 && envPort != "" {
		p, err := strconv.Atoi(envPort)
		if err != nil || p < 0 || p > 65535 {
			return nil, fmt.Errorf("PORT=%q is not a port number", envPort)
		}
		explicit = p
	}
	if explicit >= 0 {
		return net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(explicit)))
	}
	for p := firstPort; p <= lastPort; p++ {
		ln, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(p)))
		if err == nil {
			return ln, nil
		}
	}
	return net.Listen("tcp", "127.0.0.1:0")
}

// findRoot returns dir if given, else the nearest directory at or above the
// working directory that holds example-web/static/index.html.
func findRoot(dir string) (string, error) {
	if dir != "" {
		if _, err := os.Stat(filepath.Join(dir, "example-web", "static", "index.html")); err != nil {
			return "", fmt.Errorf("-dir %s is not the mcpwasm repository root: %w", dir, err)
		}
		return dir, nil
	}
	wd, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for d := wd; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "example-web", "static", "index.html")); err == nil {
			return d, nil
		}
		if filepath.Dir(d) == d {
			return "", errors.New("cannot find the repository root (example-web/static/index.html) above the working directory; pass -dir")
		}
	}
}
