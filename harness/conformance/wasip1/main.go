// Command wasip1 is mcpwasm's wasip1 conformance client: the program the
// MCP conformance suite runs for each client scenario when conformance/run.sh
// is given the "wasip1" runner. It loads the GOOS=wasip1 reactor
// (wasm/wasip1) under wazero through wasm/wasihost and drives the shared
// scenario logic (package scenario) through the module's ABI, so the
// protocol runs inside the WebAssembly instance and only HTTP runs in this
// process — OAuth included: the authorization scenarios configure the
// guest's OAuth client through wasihost.AuthOptions (auth.go). Like the
// native client it reads MCP_CONFORMANCE_SCENARIO, MCP_CONFORMANCE_CONTEXT
// and MCP_CONFORMANCE_PROTOCOL_VERSION and takes the server URL as its last
// argument.
//
//	wasip1 [-wasm module.wasm] [-cache dir] <server-url>
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"time"

	"github.com/tetratelabs/wazero"

	"github.com/mcpwasm/mcpwasm/core"
	"github.com/mcpwasm/mcpwasm/harness/conformance/scenario"
	"github.com/mcpwasm/mcpwasm/wasm/wasihost"
)

func main() {
	log.SetFlags(log.Lmicroseconds)
	log.SetPrefix("conformance-wasip1: ")
	exe, _ := os.Executable()
	wasmPath := flag.String("wasm", filepath.Join(filepath.Dir(exe), "mcpwasm-wasip1.wasm"), "the wasip1 module")
	cacheDir := flag.String("cache", "", "wazero compilation cache directory (default: none)")
	flag.Parse()
	if flag.NArg() < 1 {
		log.Fatal("usage: MCP_CONFORMANCE_SCENARIO=<name> wasip1 [-wasm module.wasm] [-cache dir] <server-url>")
	}
	url := flag.Arg(flag.NArg() - 1)
	d := &scenario.Driver{Name: os.Getenv("MCP_CONFORMANCE_SCENARIO"), Context: os.Getenv("MCP_CONFORMANCE_CONTEXT")}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	if err := run(ctx, d, *wasmPath, *cacheDir, url); err != nil {
		log.Fatalf("scenario %s: %v", d.Name, err)
	}
}

func run(ctx context.Context, d *scenario.Driver, wasmPath, cacheDir, url string) error {
	wasm, err := os.ReadFile(wasmPath)
	if err != nil {
		return err
	}
	opts := &wasihost.Options{Stderr: os.Stderr}
	if cacheDir != "" {
		cache, err := wazero.NewCompilationCacheWithDir(cacheDir)
		if err != nil {
			return fmt.Errorf("compilation cache: %w", err)
		}
		defer cache.Close(context.Background())
		opts.CompilationCache = cache
	}
	authOpts, err := authOptions(d.Name, d.Context)
	if err != nil {
		return err
	}
	h, err := wasihost.New(ctx, wasm, opts)
	if err != nil {
		return err
	}
	defer h.Close()
	s, err := h.Connect(ctx, url, &wasihost.ConnectOptions{
		ClientInfo:       &core.Implementation{Name: "mcpwasm-conformance", Version: "0.1.0"},
		ProtocolVersions: scenario.VersionsFor(os.Getenv("MCP_CONFORMANCE_PROTOCOL_VERSION")),
		Handlers: wasihost.Handlers{
			Sampling: func(ctx context.Context, params json.RawMessage) (json.RawMessage, error) {
				return d.Sample(ctx, params), nil
			},
			Elicitation: func(ctx context.Context, params json.RawMessage) (json.RawMessage, error) {
				return d.Elicit(ctx, params), nil
			},
			Roots: func(context.Context, json.RawMessage) (json.RawMessage, error) {
				return d.Roots(), nil
			},
		},
		ElicitationModes: []string{"form", "url"},
		OnWarning:        func(msg string) { log.Printf("warning: %s", msg) },
		Auth:             authOpts,
	})
	if err != nil {
		return fmt.Errorf("connect: %w", err)
	}
	defer s.Close()
	log.Printf("connected through the wasip1 module: era %s, version %s", s.Era(), s.ProtocolVersion())
	d.Session = session{s}
	return d.Run(ctx)
}

// session adapts *wasihost.Session to scenario.Session.
type session struct{ s *wasihost.Session }

func (s session) Request(ctx context.Context, method string, params any) (json.RawMessage, error) {
	return s.s.Request(ctx, method, params, nil)
}
