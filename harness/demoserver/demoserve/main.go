// Command demoserve serves internal/demoserver (the official Go SDK server
// with the shared test-peer tool set) on 127.0.0.1 for tests written in
// other languages (the JS package's Node and Chromium tests). It prints
// "LISTENING http://127.0.0.1:<port>" once ready and exits when stdin
// (a pipe) closes, on SIGINT/SIGTERM, or after -max-life.
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/mcpwasm/mcpwasm/internal/demoserver"
	"github.com/mcpwasm/mcpwasm/internal/peerlife"
)

func main() {
	port := flag.Int("port", 0, "port on 127.0.0.1 (0: any free port)")
	modern := flag.Bool("modern", false, "serve 2026-07-28 as well as the legacy era")
	pageSize := flag.Int("page-size", 0, "list page size (0: no pagination)")
	cors := flag.String("cors", "", "comma-separated allowed origins (* for any)")
	maxLife := flag.Duration("max-life", 15*time.Minute, "exit after this long")
	flag.Parse()

	opts := &demoserver.Options{Modern: *modern, PageSize: *pageSize}
	if *cors != "" {
		opts.CORSOrigins = strings.Split(*cors, ",")
	}
	srv := demoserver.New(opts)
	defer srv.Close()
	ln, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", *port))
	if err != nil {
		log.Fatal(err)
	}
	hs := &http.Server{Handler: srv.Handler(), ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = hs.Serve(ln) }()
	fmt.Printf("LISTENING http://%s\n", ln.Addr())

	peerlife.Wait(*maxLife)
	shutdown, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	_ = hs.Shutdown(shutdown)
}
