package wasmstrip

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"
)

// program is a GOOS=wasip1 command that leans on everything Strip must
// keep: goroutines, channels and the garbage collector walking deep stacks
// (frame sizes, stack maps), defer and recover through inlined frames,
// function names for runtime.Callers; it prints what it computed and what
// the runtime says about source positions, and with the argument "panic"
// it dies of a panic whose trace the runtime prints.
const program = `package main

import (
	"fmt"
	"os"
	"runtime"
	"strings"
)

type node struct {
	next *node
	val  int
	pad  []byte
}

//go:noinline
func build(depth, n int) int {
	if depth > 0 {
		return build(depth-1, n) + 1
	}
	var head *node
	for i := 0; i < n; i++ {
		head = &node{next: head, val: i, pad: make([]byte, 64)}
		if i%500 == 0 {
			runtime.GC()
		}
	}
	sum := 0
	for p := head; p != nil; p = p.next {
		sum += p.val
	}
	return sum
}

func inlined(x int) int {
	if x == 3 {
		panic(fmt.Sprintf("inner %d", x))
	}
	return x * 2
}

//go:noinline
func guarded(x int) (r int, msg string) {
	defer func() {
		if v := recover(); v != nil {
			msg = fmt.Sprint(v)
		}
	}()
	return inlined(x), ""
}

//go:noinline
func frames() string {
	pc := make([]uintptr, 8)
	n := runtime.Callers(1, pc)
	fs := runtime.CallersFrames(pc[:n])
	var names []string
	for {
		f, more := fs.Next()
		names = append(names, f.Function)
		if !more {
			break
		}
	}
	return strings.Join(names, ",")
}

//go:noinline
func deepPanic(n int) {
	if n == 0 {
		panic("boom")
	}
	deepPanic(n - 1)
}

func main() {
	results := make(chan int)
	for g := 0; g < 4; g++ {
		go func(g int) { results <- build(50+g*20, 3000) }(g)
	}
	total := 0
	for g := 0; g < 4; g++ {
		total += <-results
	}
	fmt.Println("total", total)
	for x := 1; x <= 4; x++ {
		r, msg := guarded(x)
		fmt.Println("guarded", x, r, msg)
	}
	fmt.Println("frames", frames())
	_, file, line, ok := runtime.Caller(0)
	fmt.Println("caller", file, line, ok)
	if len(os.Args) > 1 && os.Args[1] == "panic" {
		deepPanic(3)
	}
}
`

// work is the test binary's scratch directory: the program's module and
// the wasirun command that runs it.
var work string

func TestMain(m *testing.M) {
	var err error
	work, err = os.MkdirTemp("", "wasmstrip-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(work)
	if code == 0 {
		if err := goleak.Find(); err != nil {
			fmt.Fprintln(os.Stderr, "goleak:", err)
			code = 1
		}
	}
	os.Exit(code)
}

var built struct {
	once sync.Once
	mod  []byte
	err  error
}

// goBuild runs go build in dir with extra environment.
func goBuild(dir string, env []string, args ...string) error {
	cmd := exec.Command("go", append([]string{"build"}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(append(os.Environ(), "GOFLAGS="), env...)
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("go build %s: %v: %s", strings.Join(args, " "), err, out)
	}
	return nil
}

// testModule builds program for GOOS=wasip1 as the shipped modules are
// built (-trimpath, -ldflags=-s -w), and the wasirun command that runs it,
// once per test binary.
func testModule(t *testing.T) []byte {
	t.Helper()
	built.once.Do(func() {
		src := filepath.Join(work, "prog")
		if built.err = os.MkdirAll(src, 0o755); built.err != nil {
			return
		}
		if built.err = os.WriteFile(filepath.Join(src, "go.mod"), []byte("module prog\n\ngo 1.26\n"), 0o644); built.err != nil {
			return
		}
		if built.err = os.WriteFile(filepath.Join(src, "main.go"), []byte(program), 0o644); built.err != nil {
			return
		}
		if built.err = goBuild(src, []string{"GOOS=wasip1", "GOARCH=wasm"}, "-trimpath", "-ldflags=-s -w", "-o", "prog.wasm", "."); built.err != nil {
			return
		}
		// wasirun (wazero, as the project's WASI tests use it), built
		// without the race detector, which would make wazero's compiler
		// ten times slower.
		if built.err = goBuild(".", nil, "-o", filepath.Join(work, "wasirun"), "github.com/mcpwasm/mcpwasm/wasm/wasihost/cmd/wasirun"); built.err != nil {
			return
		}
		built.mod, built.err = os.ReadFile(filepath.Join(src, "prog.wasm"))
	})
	require.NoError(t, built.err)
	return built.mod
}

// run runs a wasip1 command module under wazero (wasirun) and returns its
// output and exit code.
func run(t *testing.T, mod []byte, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "m.wasm")
	require.NoError(t, os.WriteFile(path, mod, 0o644))
	var o, e bytes.Buffer
	cmd := exec.Command(filepath.Join(work, "wasirun"), append([]string{"-cache", filepath.Join(work, "cache"), path}, args...)...)
	cmd.Stdout, cmd.Stderr = &o, &e
	err := cmd.Run()
	if err != nil {
		var exit *exec.ExitError
		require.True(t, errors.As(err, &exit), "wasirun: %v", err)
		code = exit.ExitCode()
	}
	return o.String(), e.String(), code
}

func TestStripRuns(t *testing.T) {
	orig := testModule(t)
	stripped, st, err := Strip(orig)
	require.NoError(t, err)
	assert.Less(t, len(stripped), len(orig))
	assert.Positive(t, st.PosTables)
	assert.Positive(t, st.FileTables)
	assert.Equal(t, len(orig), st.SizeBefore)
	assert.Equal(t, len(stripped), st.SizeAfter)

	wantOut, _, code := run(t, orig)
	require.Zero(t, code)
	gotOut, _, code := run(t, stripped)
	require.Zero(t, code)

	// What the program computed is the same; where the original names a
	// file and line, the stripped module says "?" and 0.
	wantLines := strings.Split(strings.TrimSpace(wantOut), "\n")
	gotLines := strings.Split(strings.TrimSpace(gotOut), "\n")
	require.Len(t, gotLines, len(wantLines))
	for i, w := range wantLines {
		switch {
		case strings.HasPrefix(w, "caller "):
			assert.Regexp(t, `^caller prog/main.go \d+ true$`, w)
			assert.Equal(t, "caller ? 0 true", gotLines[i])
		case strings.HasPrefix(w, "frames "):
			// Function names stay, but only the physical frames': the
			// original knows that runtime.Callers was inlined into
			// main.frames (so skipping one frame skips runtime.Callers);
			// the stripped module does not (so it skips main.frames).
			assert.Equal(t, "frames main.frames,main.main,runtime.main,runtime.goexit", w)
			assert.Equal(t, "frames main.main,runtime.main,runtime.goexit", gotLines[i])
		default:
			assert.Equal(t, w, gotLines[i])
		}
	}
	assert.Contains(t, gotOut, "guarded 3 0 inner 3")
	assert.Contains(t, gotOut, "total ")

	// A panic's trace keeps the function names and loses the positions.
	_, wantErr, code := run(t, orig, "panic")
	assert.Equal(t, 2, code)
	assert.Contains(t, wantErr, "panic: boom")
	assert.Regexp(t, `main\.deepPanic\(.*\)\n\s+prog/main\.go:\d+`, wantErr)
	_, gotErr, code := run(t, stripped, "panic")
	assert.Equal(t, 2, code)
	assert.Contains(t, gotErr, "panic: boom")
	assert.Regexp(t, `main\.deepPanic\(.*\)\n\s+\?:0`, gotErr)
	assert.NotContains(t, gotErr, "main.go")
}

func TestStripKeepsRuntimeTables(t *testing.T) {
	orig := testModule(t)
	stripped, _, err := Strip(orig)
	require.NoError(t, err)
	a, b := tablesOf(t, orig), tablesOf(t, stripped)
	require.Equal(t, len(a.funcs), len(b.funcs))
	for i := range a.funcs {
		fa, fb := a.funcs[i], b.funcs[i]
		// Entry, name, args, deferreturn and pcsp; the flags and funcdata
		// other than the inline tree.
		assert.Equal(t, a.img[fa:fa+20], b.img[fb:fb+20], "function %d", i)
		assert.Equal(t, a.img[fa+40:fa+44], b.img[fb+40:fb+44], "function %d", i)
		assert.Zero(t, b.u32(fb+20), "pcfile")
		assert.Zero(t, b.u32(fb+24), "pcln")
		oa, ob := a.pcOffsets(fa), b.pcOffsets(fb)
		require.Equal(t, len(oa), len(ob))
		for k := range oa {
			if k == 1 || k == 2 || k == 3+pcdataInlIndex {
				assert.Zero(t, ob[k])
				continue
			}
			assert.Equal(t, a.tableValues(oa[k]), b.tableValues(ob[k]), "function %d table %d", i, k)
		}
		name := int(a.u32(fa + 4))
		assert.Equal(t, a.funcnametab[name:name+cstrLen(a.funcnametab[name:])], b.funcnametab[name:name+cstrLen(b.funcnametab[name:])])
		npc, nfd := int(a.u32(fa+28)), int(a.img[fa+43])
		for k := range nfd {
			at, bt := a.u32(fa+funcSize+4*npc+4*k), b.u32(fb+funcSize+4*npc+4*k)
			if k == funcdataInlTree {
				assert.Equal(t, uint32(noFuncdata), bt)
			} else {
				assert.Equal(t, at, bt)
			}
		}
	}

	// Stripping is idempotent: a second pass finds nothing to remove.
	again, st, err := Strip(stripped)
	require.NoError(t, err)
	assert.Equal(t, stripped, again)
	assert.Zero(t, st.PosTables+st.InlineTrees+st.Names+st.FileTables)
}

// tablesOf parses a module's runtime tables.
func tablesOf(t *testing.T, mod []byte) *tables {
	t.Helper()
	secs, err := sections(mod)
	require.NoError(t, err)
	for _, s := range secs {
		if s.id != 11 {
			continue
		}
		segs, err := dataSegments(mod[s.start:s.end])
		require.NoError(t, err)
		lo, hi := segs[0].addr, uint32(0)
		for _, g := range segs {
			lo, hi = min(lo, g.addr), max(hi, g.addr+uint32(len(g.data)))
		}
		img := make([]byte, hi-lo)
		for _, g := range segs {
			copy(img[g.addr-lo:], g.data)
		}
		tb, err := readTables(img, lo)
		require.NoError(t, err)
		return tb
	}
	t.Fatal("no data section")
	return nil
}

// module assembles a WebAssembly module from sections (id, payload).
func module(secs ...[]byte) []byte {
	m := []byte("\x00asm\x01\x00\x00\x00")
	for _, s := range secs {
		m = append(m, s[0])
		m = binary.AppendUvarint(m, uint64(len(s)-1))
		m = append(m, s[1:]...)
	}
	return m
}

func TestStripRejects(t *testing.T) {
	orig := testModule(t)
	// corrupt returns the module with its data image changed by f.
	corrupt := func(f func(tb *tables)) []byte {
		tb := tablesOf(t, orig)
		f(tb)
		segs := split(tb.img, tb.lo)
		var body []byte
		body = binary.AppendUvarint(body, uint64(len(segs)))
		for _, g := range segs {
			body = append(body, 0, 0x41)
			body = appendSleb(body, int64(g.addr))
			body = append(body, 0x0b)
			body = binary.AppendUvarint(body, uint64(len(g.data)))
			body = append(body, g.data...)
		}
		return module(append([]byte{11}, body...))
	}
	tests := []struct {
		name string
		in   []byte
		want error
	}{
		{"empty", nil, ErrNotWasm},
		{"not wasm", []byte("#!/bin/sh\necho hi\n"), ErrNotWasm},
		{"version 2", []byte("\x00asm\x02\x00\x00\x00"), ErrNotWasm},
		{"truncated section", []byte("\x00asm\x01\x00\x00\x00\x01\x10\x00"), ErrNotWasm},
		{"truncated module", orig[:len(orig)/2], ErrNotWasm},
		{"no data section", module([]byte{1, 0}), ErrLayout},
		{"passive segment", module([]byte{11, 1, 1, 3, 'a', 'b', 'c'}), ErrLayout},
		{"data count section", module([]byte{12, 1}, []byte{11, 1, 0, 0x41, 0, 0x0b, 1, 'a'}), ErrLayout},
		{"not a Go module", module([]byte{11, 1, 0, 0x41, 0x80, 0x08, 0x0b, 5, 'h', 'e', 'l', 'l', 'o'}), ErrLayout},
		{"functions out of order", corrupt(func(tb *tables) {
			binary.LittleEndian.PutUint32(tb.pclntab[8*3:], 0xffff0000)
		}), ErrLayout},
		{"record and table disagree", corrupt(func(tb *tables) {
			f := tb.funcs[10]
			binary.LittleEndian.PutUint32(tb.img[f:], tb.u32(f)+1)
		}), ErrLayout},
		{"table past the end", corrupt(func(tb *tables) {
			f := tb.funcs[10]
			binary.LittleEndian.PutUint32(tb.img[f+16:], uint32(len(tb.pctab)+5))
		}), ErrLayout},
		{"moduledata elsewhere", corrupt(func(tb *tables) {
			h := bytes.Index(tb.img, []byte{0xf1, 0xff, 0xff, 0xff, 0, 0, 1, 8})
			var md [8]byte
			binary.LittleEndian.PutUint64(md[:], uint64(tb.lo)+uint64(h))
			m := bytes.Index(tb.img, md[:])
			tb.img[m] ^= 0x08
		}), ErrLayout},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, st, err := Strip(tt.in)
			assert.ErrorIs(t, err, tt.want)
			assert.Nil(t, out)
			assert.Nil(t, st)
		})
	}
	// The corrupted modules are well formed apart from the change: the
	// same image unchanged strips.
	_, _, err := Strip(corrupt(func(*tables) {}))
	assert.NoError(t, err)
}

// TestStripHostileBytes changes bytes of a real module's function tables
// at random: Strip answers (with a module or an error) and never panics
// or runs away.
func TestStripHostileBytes(t *testing.T) {
	orig := testModule(t)
	tb := tablesOf(t, orig)
	secs, err := sections(orig)
	require.NoError(t, err)
	var data section
	for _, s := range secs {
		if s.id == 11 {
			data = s
		}
	}
	// Offsets in the module of the bytes of the function table region.
	h := bytes.Index(orig[data.start:data.end], []byte{0xf1, 0xff, 0xff, 0xff, 0, 0, 1, 8})
	require.Positive(t, h)
	span := len(tb.funcnametab) + len(tb.cutab) + len(tb.filetab) + len(tb.pctab) + len(tb.pclntab)
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range 120 {
		m := bytes.Clone(orig)
		for range 1 + rng.IntN(8) {
			at := data.start + h + rng.IntN(min(span, data.end-data.start-h))
			m[at] = byte(rng.Uint32())
		}
		assert.NotPanics(t, func() {
			out, _, err := Strip(m)
			if err == nil {
				assert.NotEmpty(t, out)
			}
		}, "mutation %d", i)
	}
}
