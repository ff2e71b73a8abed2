// Command wasmstrip rewrites a Go WebAssembly module without the tables
// that only name source positions in stack traces (see package
// [github.com/mcpwasm/mcpwasm/internal/wasmstrip]):
//
//	wasmstrip [-v] module.wasm [out.wasm]
//
// With one argument the module is rewritten in place. -v prints what was
// removed. scripts/build-wasm.sh and scripts/size.sh run it on the shipped
// modules.
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/mcpwasm/mcpwasm/internal/wasmstrip"
)

func main() {
	verbose := flag.Bool("v", false, "print what was removed")
	flag.Parse()
	if flag.NArg() < 1 || flag.NArg() > 2 {
		fmt.Fprintln(os.Stderr, "usage: wasmstrip [-v] module.wasm [out.wasm]")
		os.Exit(2)
	}
	in := flag.Arg(0)
	out := in
	if flag.NArg() == 2 {
		out = flag.Arg(1)
	}
	b, err := os.ReadFile(in)
	if err != nil {
		fmt.Fprintln(os.Stderr, "wasmstrip:", err)
		os.Exit(1)
	}
	s, st, err := wasmstrip.Strip(b)
	if err != nil {
		fmt.Fprintf(os.Stderr, "wasmstrip: %s: %v\n", in, err)
		os.Exit(1)
	}
	tmp := out + ".tmp"
	if err := os.WriteFile(tmp, s, 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "wasmstrip:", err)
		os.Exit(1)
	}
	if err := os.Rename(tmp, out); err != nil {
		fmt.Fprintln(os.Stderr, "wasmstrip:", err)
		os.Exit(1)
	}
	if *verbose {
		fmt.Printf("wasmstrip %s: %d functions; zeroed %d bytes of position tables, %d of inline trees, %d of names, %d of file tables; %d -> %d data segments; %d -> %d bytes\n",
			out, st.Funcs, st.PosTables, st.InlineTrees, st.Names, st.FileTables, st.SegmentsBefore, st.SegmentsAfter, st.SizeBefore, st.SizeAfter)
	}
}
