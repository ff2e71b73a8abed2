// Command wasirun runs GOOS=wasip1 programs under wazero, the runtime
// wasm/wasihost embeds. Its main use is as the runner of the project's
// WASI unit tests:
//
//	GOOS=wasip1 GOARCH=wasm go test -exec "$PWD/build/bin/wasirun" ./core/...
//
// The program gets the host's environment and arguments, the host's root
// directory mounted at /, PWD set to the current directory (Go's wasip1 port
// takes its working directory from it), real clocks and crypto/rand; its
// exit code becomes wasirun's. Compiled code is cached (-cache), so a test
// binary that did not change starts at once.
//
// With -precompile, wasirun instead compiles a reactor module (such as
// wasm/wasip1) into the cache for wasihost.Host and exits: tests built with
// the race detector, which slows compilation tenfold, use it to warm the
// cache from a normal process.
package main

import (
	"context"
	"crypto/rand"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/imports/wasi_snapshot_preview1"
	"github.com/tetratelabs/wazero/sys"

	"github.com/mcpwasm/mcpwasm/wasm/wasihost"
)

func main() {
	os.Exit(run())
}

func defaultCacheDir() string {
	if d, err := os.UserCacheDir(); err == nil {
		return filepath.Join(d, "mcpwasm", "wazero")
	}
	return filepath.Join(os.TempDir(), "mcpwasm-wazero")
}

func run() int {
	fs := flag.NewFlagSet("wasirun", flag.ContinueOnError)
	cacheDir := fs.String("cache", defaultCacheDir(), "directory of the compilation cache")
	precompile := fs.Bool("precompile", false, "compile the module into the cache for wasihost and exit")
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "usage: wasirun [-cache dir] program.wasm [args...]\n       wasirun -precompile [-cache dir] module.wasm\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(os.Args[1:]); err != nil {
		return 2
	}
	if fs.NArg() < 1 {
		fs.Usage()
		return 2
	}
	path := fs.Arg(0)
	wasm, err := os.ReadFile(path)
	if err != nil {
		fmt.Fprintln(os.Stderr, "wasirun:", err)
		return 1
	}
	ctx := context.Background()
	cache, err := wazero.NewCompilationCacheWithDir(*cacheDir)
	if err != nil {
		fmt.Fprintln(os.Stderr, "wasirun: compilation cache:", err)
		return 1
	}
	defer cache.Close(ctx)
	if *precompile {
		if err := wasihost.Precompile(ctx, wasm, cache); err != nil {
			fmt.Fprintln(os.Stderr, "wasirun:", err)
			return 1
		}
		return 0
	}

	rt := wazero.NewRuntimeWithConfig(ctx, wazero.NewRuntimeConfig().WithCompilationCache(cache))
	defer rt.Close(ctx)
	wasi_snapshot_preview1.MustInstantiate(ctx, rt)
	cwd, err := os.Getwd()
	if err != nil {
		fmt.Fprintln(os.Stderr, "wasirun:", err)
		return 1
	}
	cfg := wazero.NewModuleConfig().
		WithArgs(append([]string{filepath.Base(path)}, fs.Args()[1:]...)...).
		WithStdin(os.Stdin).
		WithStdout(os.Stdout).
		WithStderr(os.Stderr).
		WithFSConfig(wazero.NewFSConfig().WithDirMount("/", "/")).
		WithSysWalltime().
		WithSysNanotime().
		WithSysNanosleep().
		WithRandSource(rand.Reader)
	for _, kv := range os.Environ() {
		if k, v, ok := strings.Cut(kv, "="); ok && k != "PWD" {
			cfg = cfg.WithEnv(k, v)
		}
	}
	cfg = cfg.WithEnv("PWD", cwd)
	_, err = rt.InstantiateWithConfig(ctx, wasm, cfg)
	var exit *sys.ExitError
	switch {
	case errors.As(err, &exit):
		return int(exit.ExitCode())
	case err != nil:
		fmt.Fprintln(os.Stderr, "wasirun:", err)
		return 1
	}
	return 0
}
