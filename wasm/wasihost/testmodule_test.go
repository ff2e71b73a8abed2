// The test module: the wasip1 reactor (wasm/wasip1) built for the tests and
// runnable examples of this package, once per test binary,
// with GOOS=wasip1 GOARCH=wasm go build -buildmode=c-shared into a
// temporary directory (the Go build cache makes rebuilds cheap), and warms a
// wazero compilation cache under build/cache/wazero from a separate process
// without the race detector (which makes wazero's compiler about ten times
// slower: about 30 s instead of 3 s for this module). It is a debug build
// (build tag mcpwasm_debug: the mcpwasm_debug_trap export the trap tests
// need). Test-only code: it lives in a _test.go file, so the library
// module's shipped packages do not include it.

package wasihost

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

// TestModule is the built module and a compilation cache holding its code.
type TestModule struct {
	// Path is the .wasm file.
	Path string
	// Wasm is its content.
	Wasm []byte
	// Cache is a compilation cache (shared by every caller in the process)
	// that already holds the compiled module.
	Cache wazero.CompilationCache
}

var testModule struct {
	mu     sync.Mutex
	built  *TestModule
	tmpDir string
}

// BuildTestModule returns the module, building it on first use. It calls
// t.Fatal if the build fails. It is safe for concurrent use.
func BuildTestModule(t testing.TB) *TestModule {
	t.Helper()
	m, err := GetTestModule()
	if err != nil {
		t.Fatalf("test module: %v", err)
	}
	return m
}

// GetTestModule is BuildTestModule for callers without a testing.TB (runnable examples).
func GetTestModule() (*TestModule, error) {
	testModule.mu.Lock()
	defer testModule.mu.Unlock()
	if testModule.built != nil {
		return testModule.built, nil
	}
	root, err := repoRoot()
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "mcpwasm-wasip1-")
	if err != nil {
		return nil, err
	}
	fail := func(format string, args ...any) (*TestModule, error) {
		os.RemoveAll(dir)
		return nil, fmt.Errorf(format, args...)
	}
	path := filepath.Join(dir, "mcpwasm.wasm")
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	build := exec.CommandContext(ctx, "go", "build", "-tags=mcpwasm_debug", "-buildmode=c-shared", "-o", path, "./wasm/wasip1")
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
	testModule.tmpDir = dir
	testModule.built = &TestModule{Path: path, Wasm: wasm, Cache: cache}
	return testModule.built, nil
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

// CleanupTestModule removes the built module and closes the cache; TestMain
// calls it after the tests ran.
func CleanupTestModule() {
	testModule.mu.Lock()
	defer testModule.mu.Unlock()
	if testModule.built != nil {
		_ = testModule.built.Cache.Close(context.Background())
		testModule.built = nil
	}
	if testModule.tmpDir != "" {
		_ = os.RemoveAll(testModule.tmpDir)
		testModule.tmpDir = ""
	}
}

// String describes the module for logs.
func (m *TestModule) String() string { return fmt.Sprintf("%s (%d bytes)", m.Path, len(m.Wasm)) }
