package jsonschema

import (
	"errors"
	"strconv"
	"strings"
	"unicode/utf8"
)

// This file is a small regular-expression engine for the ECMA-262 pattern
// subset JSON Schema uses, built so that matching costs time linear in the
// input: the pattern is compiled to a program of at most maxECMAProg
// instructions and run as a Pike VM (all alternatives advance together,
// one input character at a time, each instruction at most once per
// character), so a server-supplied pattern such as ^(a+)+$ cannot make
// validation backtrack exponentially. Matching only answers "does it
// match": captures and lazy/greedy preferences do not change the answer
// and are not tracked. Look-around and back-references cannot be matched
// in linear time in general; compileLinear refuses them with
// errUnsupportedRegexp (the schema then reports the pattern as skipped).

// maxECMAProg bounds the compiled program, and with it the work per input
// character (counted repetitions are expanded: x{1000} is 1000 copies).
const maxECMAProg = 5000

// maxECMARepeat is the largest count accepted in {n,m}, as in RE2.
const maxECMARepeat = 1000

// errPatternTooLarge reports a pattern whose program exceeds maxECMAProg.
var errPatternTooLarge = errors.New("pattern too large")

type ecmaOp uint8

const (
	opChar    ecmaOp = iota // one character in class[arg]
	opSplit                 // continue at x and y
	opJmp                   // continue at x
	opBegin                 // ^: start of input
	opEnd                   // $: end of input
	opWord                  // \b
	opNotWord               // \B
	opMatch
)

type ecmaInst struct {
	_    noCompare
	op   ecmaOp
	x, y int32 // opSplit/opJmp targets; opChar: x is the class index
}

// charClass matches a character when it is in ranges or satisfies one of
// preds, inverted when neg.
type charClass struct {
	neg    bool
	ranges []rune // pairs lo, hi
	preds  []func(rune) bool
}

func (c *charClass) has(r rune) bool {
	in := false
	for i := 0; i < len(c.ranges); i += 2 {
		if c.ranges[i] <= r && r <= c.ranges[i+1] {
			in = true
			break
		}
	}
	for i := 0; !in && i < len(c.preds); i++ {
		in = c.preds[i](r)
	}
	return in != c.neg
}

// linearRE is a compiled pattern; it is immutable, so MatchString is safe
// for concurrent use.
type linearRE struct {
	prog    []ecmaInst
	classes []*charClass
}

// MatchString reports whether s contains a match (ECMA-262 patterns are
// unanchored unless they use ^ and $).
func (re *linearRE) MatchString(s string) bool {
	ok, _ := re.match(s)
	return ok
}

// threadSet is a sparse set of program counters.
type threadSet struct {
	dense  []int32
	sparse []int32
}

func newThreadSet(n int) threadSet {
	return threadSet{dense: make([]int32, 0, n), sparse: make([]int32, n)}
}

func (t *threadSet) has(pc int32) bool {
	i := t.sparse[pc]
	return int(i) < len(t.dense) && t.dense[i] == pc
}

func (t *threadSet) add(pc int32) {
	t.sparse[pc] = int32(len(t.dense))
	t.dense = append(t.dense, pc)
}

// match runs the program over s and also returns the number of
// instructions it visited: each instruction enters the thread list at most
// once per position and is stepped at most once per character, so steps
// stay below 2 × len(prog) × (characters + 1). The tests use the count to
// prove the engine linear without measuring time.
func (re *linearRE) match(s string) (matched bool, steps int) {
	n := len(re.prog)
	clist, nlist := newThreadSet(n), newThreadSet(n)
	m := &ecmaRun{re: re, s: s, stack: make([]int32, 0, 16), prev: -1}
	cur, size := rune(-1), 0
	if len(s) > 0 {
		cur, size = utf8.DecodeRuneInString(s)
	}
	// A program that starts with ^ can only match from position 0: once
	// its threads have all died, nothing more can match.
	anchored := re.prog[0].op == opBegin
	for {
		// A match may start at every position.
		if (m.pos == 0 || !anchored) && m.closure(&clist, 0, cur) {
			return true, m.steps
		}
		if m.pos >= len(s) || (anchored && len(clist.dense) == 0) {
			return false, m.steps
		}
		m.pos += size
		m.prev = cur
		next, nsize := rune(-1), 0
		if m.pos < len(s) {
			next, nsize = utf8.DecodeRuneInString(s[m.pos:])
		}
		nlist.dense = nlist.dense[:0]
		for _, pc := range clist.dense {
			m.steps++
			if in := re.prog[pc]; in.op == opChar && re.classes[in.x].has(m.prev) {
				if m.closure(&nlist, pc+1, next) {
					return true, m.steps
				}
			}
		}
		clist, nlist = nlist, clist
		cur, size = next, nsize
	}
}

// ecmaRun is the state of one match: the input, the position pos after
// the rune prev, the step count and closure's stack.
type ecmaRun struct {
	re    *linearRE
	s     string
	stack []int32
	steps int
	pos   int
	prev  rune
}

// closure adds pc, and every instruction reachable from it without
// consuming input at m.pos (next is the rune there), to t; it reports
// whether opMatch is reached.
func (m *ecmaRun) closure(t *threadSet, pc int32, next rune) bool {
	stack := append(m.stack[:0], pc)
	for len(stack) > 0 {
		pc := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if t.has(pc) {
			continue
		}
		t.add(pc)
		m.steps++
		in := m.re.prog[pc]
		switch in.op {
		case opMatch:
			m.stack = stack
			return true
		case opJmp:
			stack = append(stack, in.x)
		case opSplit:
			stack = append(stack, in.y, in.x)
		case opBegin:
			if m.pos == 0 {
				stack = append(stack, pc+1)
			}
		case opEnd:
			if m.pos == len(m.s) {
				stack = append(stack, pc+1)
			}
		case opWord, opNotWord:
			if (isWordRune(m.prev) != isWordRune(next)) == (in.op == opWord) {
				stack = append(stack, pc+1)
			}
		}
	}
	m.stack = stack
	return false
}

func isWordRune(r rune) bool {
	return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9' || r == '_'
}

// ---- parsing ----

type nodeKind uint8

const (
	nChar   nodeKind = iota // one character of classes[class]
	nAssert                 // op: opBegin, opEnd, opWord, opNotWord
	nCat
	nAlt
	nRep // min..max copies of subs[0]; max < 0 is unbounded
)

type ecmaNode struct {
	kind     nodeKind
	op       ecmaOp
	class    int
	min, max int
	subs     []*ecmaNode
}

// maxECMADepth bounds the nesting of groups (the parser is recursive).
const maxECMADepth = 200

type ecmaParser struct {
	p       string
	i       int
	classes []*charClass
	prop    func(name string) (func(rune) bool, error) // \p{name}; nil refuses
}

func errAt(p *ecmaParser, msg string) error {
	return errors.New("invalid pattern at offset " + strconv.Itoa(p.i) + ": " + msg)
}

// compileLinear compiles an ECMA-262 pattern (the u-flag dialect, leniently:
// a '{' that starts no quantifier and a lone ']' or '}' are literals) into a
// linear-time matcher. Look-around, back-references and legacy octal escapes
// are refused with errUnsupportedRegexp, as are patterns that compile to
// more than maxECMAProg instructions. prop resolves Unicode property
// escapes (\p{name}); nil refuses them.
func compileLinear(src string, prop func(name string) (func(rune) bool, error)) (*linearRE, error) {
	ps := &ecmaParser{p: src, prop: prop}
	n, err := ps.alt(0)
	if err != nil {
		return nil, err
	}
	if ps.i < len(src) {
		return nil, errAt(ps, "unmatched )")
	}
	c := &ecmaCompiler{}
	c.emit(n)
	c.add(ecmaInst{op: opMatch})
	if c.tooLarge {
		return nil, errPatternTooLarge
	}
	return &linearRE{prog: c.prog, classes: ps.classes}, nil
}

func (p *ecmaParser) alt(depth int) (*ecmaNode, error) {
	if depth > maxECMADepth {
		return nil, errAt(p, "groups nested too deeply")
	}
	var alts []*ecmaNode
	for {
		n, err := p.concat(depth)
		if err != nil {
			return nil, err
		}
		alts = append(alts, n)
		if p.i >= len(p.p) || p.p[p.i] != '|' {
			break
		}
		p.i++
	}
	if len(alts) == 1 {
		return alts[0], nil
	}
	return &ecmaNode{kind: nAlt, subs: alts}, nil
}

func (p *ecmaParser) concat(depth int) (*ecmaNode, error) {
	cat := &ecmaNode{kind: nCat}
	for p.i < len(p.p) && p.p[p.i] != '|' && p.p[p.i] != ')' {
		atom, err := p.atom(depth)
		if err != nil {
			return nil, err
		}
		if min, max, ok := p.quantifier(); ok {
			if min > maxECMARepeat || max > maxECMARepeat {
				return nil, errPatternTooLarge
			}
			if max >= 0 && max < min {
				return nil, errAt(p, "numbers out of order in {} quantifier")
			}
			if p.i < len(p.p) && p.p[p.i] == '?' { // lazy: the same language
				p.i++
			}
			atom = &ecmaNode{kind: nRep, min: min, max: max, subs: []*ecmaNode{atom}}
		}
		cat.subs = append(cat.subs, atom)
	}
	return cat, nil
}

// quantifier consumes *, +, ? or a well-formed {n}, {n,}, {n,m}.
func (p *ecmaParser) quantifier() (min, max int, ok bool) {
	if p.i >= len(p.p) {
		return 0, 0, false
	}
	switch p.p[p.i] {
	case '*':
		p.i++
		return 0, -1, true
	case '+':
		p.i++
		return 1, -1, true
	case '?':
		p.i++
		return 0, 1, true
	case '{':
		min, max, n := braces(p.p[p.i:])
		if n == 0 {
			return 0, 0, false
		}
		p.i += n
		return min, max, true
	}
	return 0, 0, false
}

// braces parses {n}, {n,} or {n,m} at the start of s; n is 0 when s does
// not start with one. Counts saturate above maxECMARepeat.
func braces(s string) (min, max, n int) {
	min, i := braceNum(s, 1)
	if i == 1 || i >= len(s) {
		return 0, 0, 0
	}
	max = min
	if s[i] == ',' {
		max = -1
		var j int
		if max2, j2 := braceNum(s, i+1); j2 > i+1 {
			max, j = max2, j2
		} else {
			j = i + 1
		}
		i = j
	}
	if i >= len(s) || s[i] != '}' {
		return 0, 0, 0
	}
	return min, max, i + 1
}

// braceNum reads the decimal number at s[i:] (saturating above
// maxECMARepeat) and returns it and the index after it.
func braceNum(s string, i int) (v, j int) {
	for j = i; j < len(s) && '0' <= s[j] && s[j] <= '9'; j++ {
		if v <= maxECMARepeat {
			v = v*10 + int(s[j]-'0')
		}
	}
	return v, j
}

func (p *ecmaParser) newClass(c *charClass) *ecmaNode {
	p.classes = append(p.classes, c)
	return &ecmaNode{kind: nChar, class: len(p.classes) - 1}
}

func (p *ecmaParser) atom(depth int) (*ecmaNode, error) {
	c := p.p[p.i]
	switch c {
	case '^':
		p.i++
		return &ecmaNode{kind: nAssert, op: opBegin}, nil
	case '$':
		p.i++
		return &ecmaNode{kind: nAssert, op: opEnd}, nil
	case '.':
		p.i++
		return p.newClass(&charClass{neg: true, ranges: shorthands[3]}), nil
	case '*', '+', '?':
		return nil, errAt(p, "nothing to repeat")
	case '{':
		if _, _, n := braces(p.p[p.i:]); n > 0 {
			return nil, errAt(p, "nothing to repeat")
		}
	case '(':
		g := p.p[p.i:] + "   " // padded: the group syntax is read without length checks
		switch {
		case g[1] != '?':
			p.i++
		case g[2] == ':':
			p.i += 3
		case g[2] == '=' || g[2] == '!' || g[2] == '<' && (g[3] == '=' || g[3] == '!'):
			return nil, errUnsupportedRegexp // look-around
		case g[2] == '<':
			end := strings.IndexByte(p.p[p.i:], '>')
			if end < 4 {
				return nil, errAt(p, "invalid group name")
			}
			p.i += end + 1
		default:
			return nil, errAt(p, "invalid group")
		}
		n, err := p.alt(depth + 1)
		if err != nil {
			return nil, err
		}
		if p.i >= len(p.p) || p.p[p.i] != ')' {
			return nil, errAt(p, "missing )")
		}
		p.i++
		return n, nil
	case '[':
		cls, err := p.class()
		if err != nil {
			return nil, err
		}
		return p.newClass(cls), nil
	case '\\':
		if p.i+1 < len(p.p) {
			switch p.p[p.i+1] {
			case 'b':
				p.i += 2
				return &ecmaNode{kind: nAssert, op: opWord}, nil
			case 'B':
				p.i += 2
				return &ecmaNode{kind: nAssert, op: opNotWord}, nil
			}
		}
		r, set, err := p.escape(false)
		if err != nil {
			return nil, err
		}
		if set != nil {
			return p.newClass(set), nil
		}
		return p.newClass(&charClass{ranges: []rune{r, r}}), nil
	}
	r, size := utf8.DecodeRuneInString(p.p[p.i:])
	p.i += size
	return p.newClass(&charClass{ranges: []rune{r, r}}), nil
}

// class parses a bracket expression; p.i is at '['.
func (p *ecmaParser) class() (*charClass, error) {
	p.i++
	cls := &charClass{}
	if p.i < len(p.p) && p.p[p.i] == '^' {
		cls.neg = true
		p.i++
	}
	for {
		if p.i >= len(p.p) {
			return nil, errAt(p, "missing ]")
		}
		if p.p[p.i] == ']' {
			p.i++
			return cls, nil
		}
		lo, loSet, err := p.classAtom()
		if err != nil {
			return nil, err
		}
		if loSet == nil && p.i+1 < len(p.p) && p.p[p.i] == '-' && p.p[p.i+1] != ']' {
			p.i++
			hi, hiSet, err := p.classAtom()
			if err != nil {
				return nil, err
			}
			if hiSet == nil {
				if hi < lo {
					return nil, errAt(p, "range out of order in character class")
				}
				cls.ranges = append(cls.ranges, lo, hi)
				continue
			}
			cls.ranges = append(cls.ranges, lo, lo, '-', '-') // [a-\d]: a, '-' and the set
			cls.addSet(hiSet)
			continue
		}
		if loSet != nil {
			cls.addSet(loSet)
		} else {
			cls.ranges = append(cls.ranges, lo, lo)
		}
	}
}

func (c *charClass) addSet(s *charClass) {
	if !s.neg && len(s.preds) == 0 {
		c.ranges = append(c.ranges, s.ranges...)
	} else {
		c.preds = append(c.preds, s.has)
	}
}

func (p *ecmaParser) classAtom() (rune, *charClass, error) {
	if p.p[p.i] == '\\' {
		if p.i+1 < len(p.p) {
			switch p.p[p.i+1] {
			case 'b':
				p.i += 2
				return '\b', nil, nil
			case '-':
				p.i += 2
				return '-', nil, nil
			}
		}
		return p.escape(true)
	}
	r, size := utf8.DecodeRuneInString(p.p[p.i:])
	p.i += size
	return r, nil, nil
}

// shorthands are the ranges of \d, \w, \s (the ECMA-262 WhiteSpace and
// LineTerminator set) and the complement of ., shared by the classes made
// from them (never appended to).
var shorthands = [4][]rune{{'0', '9'}, {'0', '9', 'A', 'Z', '_', '_', 'a', 'z'},
	{'\t', '\r', ' ', ' ', 0xa0, 0xa0, 0x1680, 0x1680, 0x2000, 0x200a,
		0x2028, 0x2029, 0x202f, 0x202f, 0x205f, 0x205f, 0x3000, 0x3000, 0xfeff, 0xfeff},
	{'\n', '\n', '\r', '\r', 0x2028, 0x2029}}

// escape parses the escape at p.i ('\\'): a character, or a set (\d, \p{…}…).
func (p *ecmaParser) escape(inClass bool) (rune, *charClass, error) {
	if p.i+1 >= len(p.p) {
		return 0, nil, errAt(p, `\ at end of pattern`)
	}
	p.i += 2
	e := p.p[p.i-1]
	if k := strings.IndexByte("dDwWsS", e); k >= 0 {
		return 0, &charClass{neg: k&1 == 1, ranges: shorthands[k/2]}, nil
	}
	if k := strings.IndexByte("tnvfr", e); k >= 0 {
		return rune("\t\n\v\f\r"[k]), nil, nil
	}
	switch e {
	case 'p', 'P':
		if p.i >= len(p.p) || p.p[p.i] != '{' {
			return 0, nil, errUnsupportedRegexp
		}
		end := strings.IndexByte(p.p[p.i:], '}')
		if end < 0 {
			return 0, nil, errAt(p, `missing } in \p{…}`)
		}
		if p.prop == nil {
			return 0, nil, errUnsupportedRegexp
		}
		pred, err := p.prop(p.p[p.i+1 : p.i+end])
		if err != nil {
			return 0, nil, err
		}
		p.i += end + 1
		return 0, &charClass{neg: e == 'P', preds: []func(rune) bool{pred}}, nil
	case '0':
		if p.i < len(p.p) && '0' <= p.p[p.i] && p.p[p.i] <= '9' {
			return 0, nil, errUnsupportedRegexp // legacy octal escape
		}
		return 0, nil, nil
	case '1', '2', '3', '4', '5', '6', '7', '8', '9', 'k':
		return 0, nil, errUnsupportedRegexp // back-references
	case 'x':
		if r, ok := hexDigits(p.p, p.i, 2); ok {
			p.i += 2
			return r, nil, nil
		}
		return 'x', nil, nil
	case 'u':
		r, n := hexRune(p.p, p.i)
		if n == 0 {
			return 'u', nil, nil
		}
		p.i += n
		if r >= 0xD800 && r < 0xDC00 && strings.HasPrefix(p.p[p.i:], `\u`) {
			if lo, n2 := hexRune(p.p, p.i+2); n2 == 4 && lo >= 0xDC00 && lo < 0xE000 {
				r = 0x10000 + (r-0xD800)<<10 + (lo - 0xDC00)
				p.i += 2 + n2
			}
		}
		return r, nil, nil
	case 'c':
		if p.i < len(p.p) && ('a' <= p.p[p.i] && p.p[p.i] <= 'z' || 'A' <= p.p[p.i] && p.p[p.i] <= 'Z') {
			p.i++
			return rune(p.p[p.i-1] % 32), nil, nil
		}
		p.i-- // Annex B: a backslash before c is a literal backslash
		return '\\', nil, nil
	}
	if e >= utf8.RuneSelf {
		p.i--
		r, size := utf8.DecodeRuneInString(p.p[p.i:])
		p.i += size
		return r, nil, nil
	}
	return rune(e), nil, nil // identity escape: \/ \. \- \q …
}

// hexRune parses the hex digits of a \u escape starting at p[i]: either
// XXXX or {X…}. n is the number of bytes consumed, 0 when malformed.
func hexRune(p string, i int) (r rune, n int) {
	if i < len(p) && p[i] == '{' {
		end := strings.IndexByte(p[i:], '}')
		if end < 2 {
			return 0, 0
		}
		v, err := strconv.ParseUint(p[i+1:i+end], 16, 32)
		if err != nil || v > utf8.MaxRune {
			return 0, 0
		}
		return rune(v), end + 1
	}
	if r, ok := hexDigits(p, i, 4); ok {
		return r, 4
	}
	return 0, 0
}

// hexDigits parses the n hex digits at p[i:].
func hexDigits(p string, i, n int) (r rune, ok bool) {
	if i+n > len(p) {
		return 0, false
	}
	for k := i; k < i+n; k++ {
		d := unhex(p[k])
		if d < 0 {
			return 0, false
		}
		r = r<<4 | rune(d)
	}
	return r, true
}

// ---- compiling ----

type ecmaCompiler struct {
	prog     []ecmaInst
	tooLarge bool
}

func (c *ecmaCompiler) add(in ecmaInst) int32 {
	if len(c.prog) > maxECMAProg {
		c.tooLarge = true
		return int32(len(c.prog) - 1)
	}
	c.prog = append(c.prog, in)
	return int32(len(c.prog) - 1)
}

func (c *ecmaCompiler) pc() int32 { return int32(len(c.prog)) }

func (c *ecmaCompiler) emit(n *ecmaNode) {
	if c.tooLarge {
		return
	}
	// A split's first target is the instruction after it (x: c.pc()+1, the
	// pc after add; once tooLarge the program is dropped anyway).
	switch n.kind {
	case nChar:
		c.add(ecmaInst{op: opChar, x: int32(n.class)})
	case nAssert:
		c.add(ecmaInst{op: n.op})
	case nCat:
		for _, s := range n.subs {
			c.emit(s)
		}
	case nAlt:
		var jumps []int32
		for i, s := range n.subs {
			if i == len(n.subs)-1 {
				c.emit(s)
				break
			}
			split := c.add(ecmaInst{op: opSplit, x: c.pc() + 1})
			c.emit(s)
			jumps = append(jumps, c.add(ecmaInst{op: opJmp}))
			c.prog[split].y = c.pc()
		}
		for _, j := range jumps {
			c.prog[j].x = c.pc()
		}
	case nRep:
		for i := 0; i < n.min && !c.tooLarge; i++ {
			c.emit(n.subs[0])
		}
		if n.max < 0 { // L: split(L+1, out); sub; jmp L; out:
			split := c.add(ecmaInst{op: opSplit, x: c.pc() + 1})
			c.emit(n.subs[0])
			c.add(ecmaInst{op: opJmp, x: split})
			c.prog[split].y = c.pc()
			return
		}
		var splits []int32 // each optional copy may be skipped to the end
		for i := n.min; i < n.max && !c.tooLarge; i++ {
			split := c.add(ecmaInst{op: opSplit, x: c.pc() + 1})
			splits = append(splits, split)
			c.emit(n.subs[0])
		}
		for _, s := range splits {
			c.prog[s].y = c.pc()
		}
	}
}
