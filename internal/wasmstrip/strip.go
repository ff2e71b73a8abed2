// Package wasmstrip takes out of a Go WebAssembly module the tables that
// only name source positions in stack traces — which file and line each
// instruction came from, and which functions were inlined where — and
// leaves everything the Go runtime needs to run the program: the stack
// frame sizes, the garbage collector's stack maps, the safe points, the
// function names and every other function datum.
//
// Go's linker has no flag for this: -ldflags=-s -w drop the symbol table
// and DWARF, but the runtime's own position tables (pclntab) stay, and in
// a WebAssembly module they are large, because every call site is a resume
// point with a program-counter value of its own. In mcpwasm's GOOS=js module
// they were 135 KB of its 1.32 MB gzip (docs/size.md). What a stripped
// module loses is that a Go panic's trace (and runtime.Caller,
// runtime.CallersFrames) prints "?:0" for file and line and no inlined
// frames; the function names and offsets remain.
//
// [Strip] rewrites the module in memory: every function's file and line
// table offsets and its inline-tree index table become "none" (offset 0, so
// the runtime's lookup answers -1 without reading a table), its inline tree
// becomes absent (the runtime's "no funcdata" offset), and the bytes that
// nothing refers to any more — the tables, the inline trees, the names only
// inline trees used, the compilation units' file tables — are zeroed. Then
// the data segments are cut around long runs of zeros, which WebAssembly
// memory starts with anyway, so the module is smaller raw as well as
// compressed.
//
// Strip knows the layout of Go 1.20 and later (pclntab magic 0xfffffff1)
// and checks it before it changes a byte: the runtime's module data must
// point at the table header it found, every function record must agree
// with the function table, and every table must decode within its bounds.
// A module it does not recognise gets an error wrapping [ErrLayout], never
// a half-rewritten result.
//
// All functions are safe for concurrent use; Strip does not modify its
// argument.
package wasmstrip

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"sort"
)

// ErrNotWasm is returned (wrapped) by [Strip] for input that is not a
// well-formed WebAssembly binary module.
var ErrNotWasm = errors.New("wasmstrip: not a WebAssembly module")

// ErrLayout is returned (wrapped) by [Strip] when the module's data is not
// laid out as a Go 1.20+ linker lays it out (no Go runtime tables, or
// tables that do not check out).
var ErrLayout = errors.New("wasmstrip: not a Go module of a known layout")

// Stats says what [Strip] removed. All sizes are bytes.
type Stats struct {
	// Funcs is the number of functions in the module's function table.
	Funcs int
	// PosTables is the size of the file, line and inline-index tables
	// zeroed.
	PosTables int
	// InlineTrees is the size of the inline trees zeroed.
	InlineTrees int
	// Names is the size of the function names zeroed (names only inline
	// trees referred to).
	Names int
	// FileTables is the size of the compilation units' file tables zeroed.
	FileTables int
	// SegmentsBefore and SegmentsAfter count the data segments.
	SegmentsBefore, SegmentsAfter int
	// SizeBefore and SizeAfter are the module's raw sizes.
	SizeBefore, SizeAfter int
}

// The layout this package knows: Go 1.20+ (runtime/symtab.go pcHeader,
// moduledata; runtime/runtime2.go _func; internal/abi/symtab.go).
const (
	magic           = 0xfffffff1
	headerSize      = 72 // pcHeader: magic, pads, minLC, ptrSize, nfunc, nfiles, unused, five offsets
	funcSize        = 44 // _func up to its variable-length arrays
	mdGofunc        = 320
	mdEpclntab      = 328
	pcdataInlIndex  = 2
	funcdataInlTree = 3
	inlinedCallSize = 16
	noFuncdata      = 0xffffffff
	// maxSegments is the engines' limit on data segments (V8's and
	// SpiderMonkey's is 100,000).
	maxSegments = 100000
)

// segment is one active data segment: its memory address and bytes.
type segment struct {
	addr uint32
	data []byte
}

// Strip returns a copy of module, a Go WebAssembly module built by the go
// command (GOOS=js or GOOS=wasip1, GOARCH=wasm, any build mode), without
// its position tables, and what it removed. module is not modified.
func Strip(module []byte) ([]byte, *Stats, error) {
	secs, err := sections(module)
	if err != nil {
		return nil, nil, err
	}
	di := -1
	for i, s := range secs {
		switch s.id {
		case 11:
			di = i
		case 12:
			// A DataCount section would have to be rewritten with the
			// segment count; Go's linker does not write one.
			return nil, nil, fmt.Errorf("%w: the module has a DataCount section", ErrLayout)
		}
	}
	if di < 0 {
		return nil, nil, fmt.Errorf("%w: no data section", ErrLayout)
	}
	segs, err := dataSegments(module[secs[di].start:secs[di].end])
	if err != nil {
		return nil, nil, err
	}
	lo, hi := segs[0].addr, segs[0].addr
	for _, s := range segs {
		lo = min(lo, s.addr)
		hi = max(hi, s.addr+uint32(len(s.data)))
	}
	if hi-lo > 1<<30 {
		return nil, nil, fmt.Errorf("%w: data spans %d bytes", ErrNotWasm, hi-lo)
	}
	img := make([]byte, hi-lo)
	for _, s := range segs {
		copy(img[s.addr-lo:], s.data)
	}
	st := &Stats{SegmentsBefore: len(segs), SizeBefore: len(module)}
	t, err := readTables(img, lo)
	if err != nil {
		return nil, nil, err
	}
	t.strip(st)
	newSegs := split(img, lo)
	st.SegmentsAfter = len(newSegs)

	var out bytes.Buffer
	out.Grow(len(module))
	out.Write(module[:8])
	for i, s := range secs {
		if i != di {
			out.Write(module[s.head:s.end])
			continue
		}
		var body []byte
		body = binary.AppendUvarint(body, uint64(len(newSegs)))
		for _, g := range newSegs {
			body = append(body, 0, 0x41) // active, memory 0; i32.const
			body = appendSleb(body, int64(int32(g.addr)))
			body = append(body, 0x0b)
			body = binary.AppendUvarint(body, uint64(len(g.data)))
			body = append(body, g.data...)
		}
		out.WriteByte(11)
		var n []byte
		out.Write(binary.AppendUvarint(n, uint64(len(body))))
		out.Write(body)
	}
	st.SizeAfter = out.Len()
	return out.Bytes(), st, nil
}

// section is one section of the module: its id, where its header starts and
// where its payload starts and ends.
type section struct {
	id               byte
	head, start, end int
}

// sections splits a module into its sections.
func sections(m []byte) ([]section, error) {
	if len(m) < 8 || string(m[:4]) != "\x00asm" || binary.LittleEndian.Uint32(m[4:8]) != 1 {
		return nil, fmt.Errorf("%w: no WebAssembly version 1 header", ErrNotWasm)
	}
	var out []section
	for i := 8; i < len(m); {
		head := i
		id := m[i]
		n, k := binary.Uvarint(m[i+1:])
		if k <= 0 || n > uint64(len(m)-(i+1+k)) {
			return nil, fmt.Errorf("%w: section %d at byte %d runs past the end", ErrNotWasm, id, head)
		}
		i += 1 + k
		out = append(out, section{id: id, head: head, start: i, end: i + int(n)})
		i += int(n)
	}
	return out, nil
}

// dataSegments reads a data section's segments; each must be active, in
// memory 0, at an i32.const address (what Go's linker writes).
func dataSegments(b []byte) ([]segment, error) {
	r := reader{b: b}
	n := r.uvarint()
	if r.err != nil || n == 0 || n > maxSegments {
		return nil, fmt.Errorf("%w: data section with %d segments", ErrLayout, n)
	}
	segs := make([]segment, 0, n)
	for range n {
		flags := r.uvarint()
		op := r.byte()
		addr := r.sleb()
		end := r.byte()
		size := r.uvarint()
		if r.err != nil || flags != 0 || op != 0x41 || end != 0x0b || addr < 0 || addr > 1<<31 || size > uint64(len(r.b)-r.i) {
			return nil, fmt.Errorf("%w: data segment %d is not an active segment at a constant address", ErrLayout, len(segs))
		}
		segs = append(segs, segment{addr: uint32(addr), data: r.b[r.i : r.i+int(size)]})
		r.i += int(size)
	}
	if r.i != len(r.b) {
		return nil, fmt.Errorf("%w: %d bytes after the data segments", ErrNotWasm, len(r.b)-r.i)
	}
	return segs, nil
}

// reader reads LEB128 numbers and bytes, remembering the first error.
type reader struct {
	b   []byte
	i   int
	err error
}

func (r *reader) byte() byte {
	if r.i >= len(r.b) {
		r.err = ErrNotWasm
		return 0
	}
	r.i++
	return r.b[r.i-1]
}

func (r *reader) uvarint() uint64 {
	v, k := binary.Uvarint(r.b[min(r.i, len(r.b)):])
	if k <= 0 {
		r.err = ErrNotWasm
		return 0
	}
	r.i += k
	return v
}

func (r *reader) sleb() int64 {
	var v int64
	var shift uint
	for {
		c := r.byte()
		if r.err != nil || shift > 63 {
			r.err = ErrNotWasm
			return 0
		}
		v |= int64(c&0x7f) << shift
		shift += 7
		if c&0x80 == 0 {
			if shift < 64 && c&0x40 != 0 {
				v |= -1 << shift
			}
			return v
		}
	}
}

func appendSleb(b []byte, v int64) []byte {
	for {
		c := byte(v & 0x7f)
		v >>= 7
		if (v == 0 && c&0x40 == 0) || (v == -1 && c&0x40 != 0) {
			return append(b, c)
		}
		b = append(b, c|0x80)
	}
}

// tables is the runtime's function metadata found in a module's data
// image (img, whose first byte is at address lo).
type tables struct {
	img                []byte
	lo                 uint32
	funcnametab, cutab []byte // slices of img
	filetab, pctab     []byte
	pclntab            []byte
	gofunc             int // index in img of go:func.*
	funcs              []int
}

func (t *tables) u32(i int) uint32 { return binary.LittleEndian.Uint32(t.img[i:]) }
func (t *tables) u64(i int) uint64 { return binary.LittleEndian.Uint64(t.img[i:]) }

// readTables finds the pcHeader and the moduledata that points at it, and
// checks every function record.
func readTables(img []byte, lo uint32) (*tables, error) {
	sig := []byte{0xf1, 0xff, 0xff, 0xff, 0, 0, 1, 8} // magic, pads, minLC 1, ptrSize 8
	var found *tables
	err := fmt.Errorf("%w: no Go runtime function table (pclntab)", ErrLayout)
	for from := 0; ; {
		i := bytes.Index(img[from:], sig)
		if i < 0 {
			break
		}
		i += from
		from = i + 1
		if (int(lo)+i)%8 != 0 {
			continue
		}
		t := &tables{img: img, lo: lo}
		if cerr := t.check(i); cerr != nil {
			if found == nil {
				err = cerr // what the last candidate lacked, when none checks out
			}
			continue
		}
		if found != nil {
			return nil, fmt.Errorf("%w: two runtime tables", ErrLayout)
		}
		found = t
	}
	if found == nil {
		return nil, err
	}
	return found, nil
}

// check reads the tables at the pcHeader candidate h and validates them.
func (t *tables) check(h int) error {
	img := t.img
	if h+headerSize > len(img) {
		return ErrLayout
	}
	nfunc := t.u64(h + 8)
	var off [5]uint64 // funcname, cu, filetab, pctab, pcln
	for k := range off {
		off[k] = t.u64(h + 32 + 8*k)
	}
	for k := 1; k < len(off); k++ {
		if off[k] < off[k-1] {
			return ErrLayout
		}
	}
	if off[0] < headerSize || off[4] > uint64(len(img)-h) || nfunc == 0 || nfunc > uint64(len(img)) {
		return ErrLayout
	}
	addr := uint64(t.lo) + uint64(h)
	// The moduledata: pcHeader, then the funcnametab, cutab, filetab,
	// pctab, pclntable and ftab slices (pointer, length, capacity).
	var md [16]byte
	binary.LittleEndian.PutUint64(md[:], addr)
	binary.LittleEndian.PutUint64(md[8:], addr+off[0])
	m := bytes.Index(img, md[:])
	if m < 0 || (int(t.lo)+m)%8 != 0 || m+mdEpclntab+8 > len(img) {
		return fmt.Errorf("%w: no moduledata points at the function table", ErrLayout)
	}
	want := []uint64{
		addr, addr + off[0], off[1] - off[0], off[1] - off[0],
		addr + off[1], (off[2] - off[1]) / 4, (off[2] - off[1]) / 4,
		addr + off[2], off[3] - off[2], off[3] - off[2],
		addr + off[3], off[4] - off[3], off[4] - off[3],
		addr + off[4],
	}
	for k, w := range want {
		if t.u64(m+8*k) != w {
			return fmt.Errorf("%w: the moduledata does not describe the function table (word %d)", ErrLayout, k)
		}
	}
	pclnLen := t.u64(m + 8*14)
	ftabLen := t.u64(m + 8*17)
	epcln := t.u64(m + mdEpclntab)
	gofunc := t.u64(m + mdGofunc)
	if t.u64(m+8*16) != addr+off[4] || ftabLen != nfunc+1 || pclnLen > uint64(len(img)-h)-off[4] ||
		epcln < addr+off[4]+pclnLen || epcln > uint64(t.lo)+uint64(len(img)) ||
		gofunc < uint64(t.lo) || gofunc >= uint64(t.lo)+uint64(len(img)) {
		return fmt.Errorf("%w: the moduledata's function table bounds do not check out", ErrLayout)
	}
	t.funcnametab = img[h+int(off[0]) : h+int(off[1])]
	t.cutab = img[h+int(off[1]) : h+int(off[2])]
	t.filetab = img[h+int(off[2]) : h+int(off[3])]
	t.pctab = img[h+int(off[3]) : h+int(off[4])]
	t.pclntab = img[h+int(off[4]) : h+int(off[4])+int(pclnLen)]
	t.gofunc = int(gofunc - uint64(t.lo))
	if uint64(len(t.pclntab)) < 8*(nfunc+1) {
		return ErrLayout
	}
	base := h + int(off[4])
	t.funcs = make([]int, 0, nfunc)
	prev := uint32(0)
	for i := range int(nfunc) {
		entry := t.u32(base + 8*i)
		fo := t.u32(base + 8*i + 4)
		if entry < prev || uint64(fo)+funcSize > uint64(len(t.pclntab)) {
			return fmt.Errorf("%w: function %d's record is out of order or out of bounds", ErrLayout, i)
		}
		prev = entry
		f := base + int(fo)
		npc, nfd := t.u32(f+28), int(img[f+43])
		if t.u32(f) != entry || npc > 16 || nfd > 16 || uint64(fo)+funcSize+4*uint64(int(npc)+nfd) > uint64(len(t.pclntab)) ||
			uint64(t.u32(f+4)) >= uint64(len(t.funcnametab)) {
			return fmt.Errorf("%w: function %d's record does not check out", ErrLayout, i)
		}
		for _, o := range t.pcOffsets(f) {
			if _, err := t.tableLen(o); err != nil {
				return fmt.Errorf("%w: function %d: %v", ErrLayout, i, err)
			}
		}
		t.funcs = append(t.funcs, f)
	}
	return nil
}

// pcOffsets is the pctab offsets of a function's tables: pcsp, pcfile,
// pcln, then its pcdata.
func (t *tables) pcOffsets(f int) []uint32 {
	out := []uint32{t.u32(f + 16), t.u32(f + 20), t.u32(f + 24)}
	for k := range int(t.u32(f + 28)) {
		out = append(out, t.u32(f+funcSize+4*k))
	}
	return out
}

// tableLen is the length of the pc-value table at pctab offset o: pairs
// of (value delta, pc delta) varints up to a zero value delta after the
// first pair.
func (t *tables) tableLen(o uint32) (int, error) {
	if o == 0 {
		return 0, nil
	}
	r := reader{b: t.pctab, i: int(o)}
	if r.i >= len(r.b) {
		return 0, errors.New("a table starts past the end of pctab")
	}
	for first := true; ; first = false {
		v := r.uvarint()
		if r.err != nil {
			return 0, errors.New("a table runs past the end of pctab")
		}
		if v == 0 && !first {
			return r.i - int(o), nil
		}
		r.uvarint()
		if r.err != nil {
			return 0, errors.New("a table runs past the end of pctab")
		}
	}
}

// tableValues decodes the values of the table at pctab offset o.
func (t *tables) tableValues(o uint32) []int32 {
	if o == 0 {
		return nil
	}
	r := reader{b: t.pctab, i: int(o)}
	val := int32(-1)
	var out []int32
	for first := true; ; first = false {
		v := r.uvarint()
		if r.err != nil || (v == 0 && !first) {
			return out
		}
		val += int32(-(v & 1) ^ (v >> 1))
		r.uvarint()
		out = append(out, val)
	}
}

// span is a byte range [from, to) of some table.
type span struct{ from, to int }

// zero clears the bytes of kill that no span of keep overlaps, and returns
// how many it cleared.
func zero(b []byte, kill, keep []span) int {
	var mask []bool
	if len(keep) > 0 {
		mask = make([]bool, len(b))
	}
	for _, s := range keep {
		for i := s.from; i < s.to; i++ {
			mask[i] = true
		}
	}
	n := 0
	for _, s := range kill {
		for i := s.from; i < s.to; i++ {
			if (mask == nil || !mask[i]) && b[i] != 0 {
				b[i] = 0
				n++
			}
		}
	}
	return n
}

// strip rewrites the function records and zeroes what they no longer
// refer to.
func (t *tables) strip(st *Stats) {
	st.Funcs = len(t.funcs)
	var killTab, keepTab, killInl, killName, keepName []span
	keepFD := []int{} // every funcdata start that stays
	type tree struct{ at, n int }
	var trees []tree
	for _, f := range t.funcs {
		offs := t.pcOffsets(f)
		for k, o := range offs {
			n, _ := t.tableLen(o)
			s := span{int(o), int(o) + n}
			if k == 1 || k == 2 || k == 3+pcdataInlIndex {
				killTab = append(killTab, s)
			} else {
				keepTab = append(keepTab, s)
			}
		}
		name := int(t.u32(f + 4))
		keepName = append(keepName, span{name, name + cstrLen(t.funcnametab[name:])})
		npc := int(t.u32(f + 28))
		nfd := int(t.img[f+43])
		for k := range nfd {
			o := t.u32(f + funcSize + 4*npc + 4*k)
			if o == noFuncdata {
				continue
			}
			if k != funcdataInlTree {
				keepFD = append(keepFD, t.gofunc+int(o))
				continue
			}
			// The inline tree's length is one past the largest index its
			// inline-index table names.
			n := 0
			if npc > pcdataInlIndex {
				for _, v := range t.tableValues(offs[3+pcdataInlIndex]) {
					n = max(n, int(v)+1)
				}
			}
			at := t.gofunc + int(o)
			if n > 0 && at+inlinedCallSize*n <= len(t.img) {
				trees = append(trees, tree{at, n})
			}
			binary.LittleEndian.PutUint32(t.img[f+funcSize+4*npc+4*k:], noFuncdata)
		}
		binary.LittleEndian.PutUint32(t.img[f+20:], 0) // pcfile
		binary.LittleEndian.PutUint32(t.img[f+24:], 0) // pcln
		binary.LittleEndian.PutUint32(t.img[f+32:], 0) // cuOffset
		binary.LittleEndian.PutUint32(t.img[f+36:], 0) // startLine
		if npc > pcdataInlIndex {
			binary.LittleEndian.PutUint32(t.img[f+funcSize+4*pcdataInlIndex:], 0)
		}
	}
	sort.Ints(keepFD)
	for _, tr := range trees {
		end := tr.at + inlinedCallSize*tr.n
		// An inline tree that another function's datum starts inside is
		// shared (the linker merged equal data): leave it.
		if i := sort.SearchInts(keepFD, tr.at); i < len(keepFD) && keepFD[i] < end {
			continue
		}
		killInl = append(killInl, span{tr.at, end})
		for e := range tr.n {
			name := int(int32(t.u32(tr.at + inlinedCallSize*e + 4)))
			if name >= 0 && name < len(t.funcnametab) {
				killName = append(killName, span{name, name + cstrLen(t.funcnametab[name:])})
			}
		}
	}
	st.PosTables = zero(t.pctab, killTab, keepTab)
	st.InlineTrees = zero(t.img, killInl, nil)
	st.Names = zero(t.funcnametab, killName, keepName)
	st.FileTables = zero(t.cutab, []span{{0, len(t.cutab)}}, nil) + zero(t.filetab, []span{{0, len(t.filetab)}}, nil)
}

// cstrLen is the length of the NUL-terminated string at the start of b,
// its NUL included.
func cstrLen(b []byte) int {
	if i := bytes.IndexByte(b, 0); i >= 0 {
		return i + 1
	}
	return len(b)
}

// split cuts the data image into segments around runs of zeros long enough
// to pay for a segment's header, within the engines' segment limit.
func split(img []byte, lo uint32) []segment {
	for gap := 16; ; gap *= 2 {
		var segs []segment
		i := 0
		for i < len(img) {
			for i < len(img) && img[i] == 0 {
				i++
			}
			if i == len(img) {
				break
			}
			start, end := i, i
			for i < len(img) {
				if img[i] != 0 {
					i++
					end = i
					continue
				}
				z := i
				for i < len(img) && img[i] == 0 && i-z < gap {
					i++
				}
				if i-z >= gap || i == len(img) {
					break
				}
			}
			segs = append(segs, segment{addr: lo + uint32(start), data: img[start:end]})
		}
		if len(segs) <= maxSegments {
			return segs
		}
	}
}
