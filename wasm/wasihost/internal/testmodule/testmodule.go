// Package testmodule builds the wasip1 module (wasm/wasip1) for tests of
// wasm/wasihost and the wasip1 conformance runner: once per test binary,
// with GOOS=wasip1 GOARCH=wasm go build -buildmode=c-shared into a
// temporary directory (the Go build cache makes rebuilds cheap), and warms a
// wazero compilation cache under build/cache/wazero from a separate process
// without the race detector (which makes wazero's compiler about ten times
// slower: about 30 s instead of 3 s for this module).
package testmodule

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tetratelabs/wazero"
)

// Module is the built module and a compilation cache holding its code.
type Module struct {
	// Path is the .wasm file.
	Path string
	// Wasm is its content.
	Wasm []byte
	// Cache is a compilation cache (shared by every caller in the process)
	// that already holds the compiled module.
	Cache wazero.CompilationCache
}

var (
	mu     sync.Mutex
	built  *Module
	tmpDir string
)

// Build returns the module, building it on first use. It calls t.Fatal if
// the build fails. It is safe for concurrent use.
func Build(t testing.TB) *Module {
	t.Helper()
	m, err := Get()
	if err != nil {
		t.Fatalf("testmodule: %v", err)
	}
	return m
}

// Get is Build for callers without a testing.TB (runnable examples).
func Get() (*Module, error) {
	mu.Lock()
	defer mu.Unlock()
	if built != nil {
		return built, nil
	}
	root, err := repoRoot()
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "mcpwasm-wasip1-")
	if err != nil {
		return nil, err
	}
	fail := func(format string, args ...any) (*Module, error) {
		os.RemoveAll(dir)
		return nil, fmt.Errorf(format, args...)
	}
	path := filepath.Join(dir, "mcpwasm.wasm")
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	build := exec.CommandContext(ctx, "go", "build", "-buildmode=c-shared", "-o", path, "./wasm/wasip1")
	build.Dir = root
	build.Env = append(os.Environ(), "GOOS=wasip1", "GOARCH=wasm", "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		return fail("building wasm/wasip1: %v\n%s", err, out)
	}
	cacheDir := filepath.Join(root, "build", "cache", "wazero")
	// wazero keys its cache directory by its own version, which it reads
	// from the build info; test binaries carry none ("dev"). Stamp the
	// precompiling binary with the version this process uses.
	pre := exec.CommandContext(ctx, "go", "run", "-ldflags=-X=github.com/tetratelabs/wazero/internal/version.version="+wazeroVersion(),
		"./wasm/wasihost/cmd/wasirun", "-precompile", "-cache", cacheDir, path)
	pre.Dir = root
	pre.Env = append(os.Environ(), "GOFLAGS=")
	if out, err := pre.CombinedOutput(); err != nil {
		return fail("precompiling: %v\n%s", err, out)
	}
	wasm, err := os.ReadFile(path)
	if err != nil {
		return fail("%v", err)
	}
	cache, err := wazero.NewCompilationCacheWithDir(cacheDir)
	if err != nil {
		return fail("compilation cache: %v", err)
	}
	tmpDir = dir
	built = &Module{Path: path, Wasm: wasm, Cache: cache}
	return built, nil
}

// wazeroVersion is the version wazero finds for itself in this process
// (internal/version.GetWazeroVersion): the module version of the
// dependency, else of the main module, else "dev".
func wazeroVersion() string {
	v := ""
	if info, ok := debug.ReadBuildInfo(); ok {
		for _, dep := range info.Deps {
			if strings.Contains(dep.Path, "github.com/tetratelabs/wazero") {
				v = dep.Version
			}
		}
		if v == "" || v == "(devel)" {
			v = info.Main.Version
		}
	}
	if v == "" || v == "(devel)" {
		return "dev"
	}
	return v
}

// repoRoot finds the module root from this source file's directory.
func repoRoot() (string, error) {
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		return "", errors.New("cannot locate the repository")
	}
	dir := filepath.Dir(file)
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("cannot find go.mod above " + filepath.Dir(file))
		}
		dir = parent
	}
}

// Cleanup removes the built module and closes the cache; call it from
// TestMain after the tests ran.
func Cleanup() {
	mu.Lock()
	defer mu.Unlock()
	if built != nil {
		_ = built.Cache.Close(context.Background())
		built = nil
	}
	if tmpDir != "" {
		_ = os.RemoveAll(tmpDir)
		tmpDir = ""
	}
}

// String describes the module for logs.
func (m *Module) String() string { return fmt.Sprintf("%s (%d bytes)", m.Path, len(m.Wasm)) }
