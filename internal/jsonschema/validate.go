package jsonschema

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/mcpwasm/mcpwasm/internal/errf"
	"github.com/mcpwasm/mcpwasm/internal/jsonscan"
	"github.com/mcpwasm/mcpwasm/internal/order"
)

const (
	// maxCauses bounds the causes collected for one invalid instance.
	maxCauses = 20
	// maxDepth bounds nested schema evaluations (deeply nested instances).
	maxDepth = 4096
	// A validation pass may evaluate at most max(minEvals, evalsPerValue ×
	// the number of values in the instance) schemas, so that a hostile
	// schema (e.g. nested anyOf over shared $defs) cannot make validation
	// run for an exponential time. Ordinary schemas need a handful of
	// evaluations per value.
	minEvals      = 1 << 18
	evalsPerValue = 256
	limitMsg      = "validation exceeds the evaluation limits"
)

// ValidationError reports why an instance is invalid. Causes holds at most
// 20 entries, in a deterministic order. A *ValidationError is a plain value:
// it is safe for concurrent reads.
type ValidationError struct {
	Causes []Cause
}

// Cause is one reason an instance is invalid. It is a plain value, safe for
// concurrent reads.
type Cause struct {
	// InstancePath is a JSON pointer into the instance ("" is the root),
	// e.g. "/items/0/name".
	InstancePath string
	// KeywordPath is the JSON pointer of the failing keyword along the
	// evaluation path, through any $ref ("keywordLocation" in the JSON
	// Schema output format), e.g. "/properties/items/items/required".
	KeywordPath string
	// Message is a short English explanation, e.g.
	// `missing required property "name"`.
	Message string
}

// Error returns the first cause and the number of further causes, e.g.
// `jsonschema: /items/0: missing required property "name" (and 2 more)`.
// The root instance is shown as "(root)". The text is stable. Error is safe
// for concurrent use.
func (e *ValidationError) Error() string {
	if len(e.Causes) == 0 {
		return "jsonschema: invalid instance"
	}
	c := e.Causes[0]
	at := c.InstancePath
	if at == "" {
		at = "(root)"
	}
	s := "jsonschema: " + at + ": " + c.Message
	if n := len(e.Causes) - 1; n > 0 {
		s += " (and " + strconv.Itoa(n) + " more)"
	}
	return s
}

// Validate checks an instance as produced by encoding/json or jsonscan:
// map[string]any, []any, string, bool, nil, float64 or jsonscan.Number
// (exact; a json.Number is not a number here) (Go int, int32, int64,
// uint, uint32, uint64 and float32 are accepted as numbers too). It returns
// nil or a *ValidationError. Validate is safe for concurrent use.
func (s *Schema) Validate(instance any) error {
	b := new(buffers) // one allocation for all the evaluation stacks
	v := newValidator(instance, true, b)
	if v.eval(s.root, instance, nil) {
		return nil
	}
	// Second pass, only for invalid instances: collect causes in a
	// deterministic order.
	v = newValidator(instance, false, b)
	v.eval(s.root, instance, nil)
	if v.exhausted {
		// The result may only reflect the limit: say so first.
		causes := append(make([]Cause, 0, maxCauses), Cause{Message: limitMsg})
		v.causes = append(causes, v.causes[:min(len(v.causes), maxCauses-1)]...)
	}
	if len(v.causes) == 0 {
		v.causes = append(v.causes, Cause{Message: "instance is invalid"})
	}
	return &ValidationError{Causes: v.causes}
}

// ValidateJSON decodes raw (a single JSON value) with numbers kept exact
// (jsonscan.Number, as json.Decoder.UseNumber did) and validates it. Malformed JSON yields a decoding error that is not a
// *ValidationError. ValidateJSON is safe for concurrent use.
func (s *Schema) ValidateJSON(raw []byte) error {
	v, err := decodeJSON(raw)
	if err != nil {
		return errf.Errorf("jsonschema: invalid JSON instance: %w", err)
	}
	return s.Validate(v)
}

// ielem is one step of an instance path: an object key, or an array
// index when idx >= 0.
type ielem struct {
	_   noCompare
	key string
	idx int
}

// annot collects the evaluated-locations annotations needed by
// unevaluatedProperties and unevaluatedItems.
type annot struct {
	allProps bool
	props    map[string]struct{}
	allItems bool
	nItems   int
	items    map[int]struct{}
}

func (a *annot) markProp(k string) {
	if a == nil || a.allProps {
		return
	}
	if a.props == nil {
		a.props = map[string]struct{}{}
	}
	a.props[k] = struct{}{}
}

func (a *annot) propDone(k string) bool {
	if a.allProps {
		return true
	}
	_, ok := a.props[k]
	return ok
}

func (a *annot) itemDone(i int) bool {
	if a.allItems || i < a.nItems {
		return true
	}
	_, ok := a.items[i]
	return ok
}

func (a *annot) markItem(i int) {
	if a.items == nil {
		a.items = map[int]struct{}{}
	}
	a.items[i] = struct{}{}
}

func (a *annot) merge(b *annot) {
	a.allProps = a.allProps || b.allProps
	if !a.allProps {
		for k := range b.props {
			a.markProp(k)
		}
	}
	a.allItems = a.allItems || b.allItems
	a.nItems = max(a.nItems, b.nItems)
	for i := range b.items {
		a.markItem(i)
	}
}

// validator holds the state of one validation pass. Paths are kept as
// stacks (not linked lists) so that they never escape to the heap.
type validator struct {
	state
	causes    []Cause
	scope     []*node  // dynamic scope: schema resources entered, outermost first
	stack     []frame  // schemas being evaluated, innermost last
	ipath     []ielem  // current instance location
	kpath     []string // current keyword path, as escaped pointer suffixes
	evals     int      // evaluations so far
	budget    int      // evaluations allowed
	grown     bool     // budget already sized to the instance
	exhausted bool     // the evaluation limits were hit
	root      any      // the instance, to size the budget
	fx        any      // the value x of the next failure (failWith)
	fa, fb    int      // its numbers a and b
}

// state is the part of a validator that test saves and restores.
type state struct {
	quick  bool // stop at the first failure and record nothing
	halted bool // a failure must end the evaluation at once
	fails  int  // failures so far (a schema fails when it adds one)
}

// frame is an active evaluation: a schema and the depth of its instance
// location. Frames of equal depth at the top of the stack are at the same
// instance location (a deeper location is only left by returning).
type frame struct {
	n     *node
	depth int
}

// buffers provides the initial capacity of a validator's stacks.
type buffers struct {
	scope [16]*node
	stack [64]frame
	ipath [16]ielem
	kpath [64]string
}

func newValidator(instance any, quick bool, b *buffers) validator {
	return validator{state: state{quick: quick}, scope: b.scope[:0], stack: b.stack[:0], ipath: b.ipath[:0], kpath: b.kpath[:0],
		budget: minEvals, root: instance}
}

func (v *validator) instPath() string {
	var b []byte
	for _, e := range v.ipath {
		b = append(b, '/')
		if e.idx >= 0 {
			b = strconv.AppendInt(b, int64(e.idx), 10)
		} else {
			b = append(b, escapeToken(e.key)...)
		}
	}
	return string(b)
}

// Messages of fail, by code. In a template, \x01 and \x02 stand for the
// integers a and b, \x03 for s, \x04 for s quoted, \x05 for t, \x06 for
// t quoted, \x07 for x rendered as JSON (or, for mType, the kind of x,
// type a) and \x08 for the type set b.
const (
	mFalse = iota
	mCycle
	mLimit
	mGoValue
	mType
	mConst
	mEnum
	mNumber
	mBound
	mMultiple
	mPattern
	mUnique
	mRequired
	mDepReq
	mAnyOf
	mOneOf
	mOneOfMany
	mNot
	mItem
	mProp
	mCount // + index in node.counts
)

var messages = [...]string{
	mFalse:                "value is not allowed (false schema)",
	mCycle:                "circular schema reference at the same instance location",
	mLimit:                limitMsg,
	mGoValue:              "unsupported Go value (not a decoded JSON value)",
	mType:                 "got \x07, want \x08",
	mConst:                "must be equal to \x07",
	mEnum:                 "must be one of \x07",
	mNumber:               "invalid number \x03",
	mBound:                "must be \x03 \x05",
	mMultiple:             "must be a multiple of \x03",
	mPattern:              "must match pattern \x04",
	mUnique:               "array items \x01 and \x02 are equal",
	mRequired:             "missing required property \x04",
	mDepReq:               "property \x04 is required when \x06 is present",
	mAnyOf:                "value does not match any schema in anyOf",
	mOneOf:                "value does not match any schema in oneOf",
	mOneOfMany:            "value matches more than one schema in oneOf (\x01 and \x02)",
	mNot:                  "value must not match the schema in not",
	mItem:                 "\x03array item is not allowed",
	mProp:                 "\x03property \x06 is not allowed",
	mCount + cMinLen:      "length must be >= \x01, got \x02",
	mCount + cMaxLen:      "length must be <= \x01, got \x02",
	mCount + cMinItems:    "array must have at least \x01 items, got \x02",
	mCount + cMaxItems:    "array must have at most \x01 items, got \x02",
	mCount + cMinProps:    "object must have at least \x01 properties, got \x02",
	mCount + cMaxProps:    "object must have at most \x01 properties, got \x02",
	mCount + cMinContains: "array must contain at least \x01 matching items, got \x02",
	mCount + cMaxContains: "array must contain at most \x01 matching items, got \x02",
}

// failWith is fail for the messages that show the value x or the numbers
// a and b.
func (v *validator) failWith(kw string, code int, x any, a, b int) bool {
	v.fx, v.fa, v.fb = x, a, b
	return v.fail(kw, code, "", "")
}

// fail records a failure of the keyword at kw (relative to the current
// keyword path) with the message messages[code], and reports whether
// evaluation must stop. In quick mode it only counts the failure.
func (v *validator) fail(kw string, code int, s, t string) bool {
	x, a, b := v.fx, v.fa, v.fb
	v.fx, v.fa, v.fb = nil, 0, 0
	v.fails++
	if v.quick {
		v.halted = true
		return true
	}
	if len(v.causes) < maxCauses {
		var x7, x8 string
		switch code {
		case mType: // x's kind is the type bit a; b is the types allowed
			x7 = "unknown"
			for i, name := range typeNames {
				if a == 1<<i {
					x7 = name
				}
				if b&(1<<i) != 0 {
					if x8 != "" {
						x8 += " or "
					}
					x8 += name
				}
			}
			if a == int(tNumber) && isInteger(x) {
				x7 = "integer"
			}
			if x8 == "" {
				x8 = "nothing"
			}
		case mConst, mEnum: // a short JSON rendering of x
			r, err := jsonscan.Marshal(x)
			x7 = string(r)
			if err != nil {
				x7 = "the given value"
			} else if len(r) > 64 {
				x7 = string(r[:60]) + " …"
			}
		}
		args := [...]string{1: strconv.Itoa(a), 2: strconv.Itoa(b), 3: s, 4: strconv.Quote(s), 5: t, 6: strconv.Quote(t), 7: x7, 8: x8}
		var m []byte
		for _, c := range []byte(messages[code]) {
			if c < byte(len(args)) {
				m = append(m, args[c]...)
			} else {
				m = append(m, c)
			}
		}
		v.causes = append(v.causes, Cause{v.instPath(), strings.Join(v.kpath, "") + kw, string(m)})
	}
	v.halted = len(v.causes) >= maxCauses
	return v.halted
}

// countValues counts the JSON values in v.
func countValues(v any) int {
	n := 1
	switch x := v.(type) {
	case []any:
		for _, e := range x {
			n += countValues(e)
		}
	case map[string]any:
		for _, e := range x {
			n += countValues(e)
		}
	}
	return n
}

// in evaluates s against x at the current instance location; kw is the
// keyword path from the current schema to s.
func (v *validator) in(s *node, x any, kw string, ann *annot) bool {
	v.kpath = append(v.kpath, kw)
	ok := v.eval(s, x, ann)
	v.kpath = v.kpath[:len(v.kpath)-1]
	return ok
}

// test evaluates s against x at the current location in quick mode, for
// the applicators that only need to know whether s passes; the failures
// it meets are not counted.
func (v *validator) test(s *node, x any, ann *annot) bool {
	saved := v.state
	v.quick = true
	ok := v.in(s, x, "", ann)
	v.state = saved
	return ok
}

// at evaluates s against the member x of the current instance (object
// member key when idx < 0, array element idx otherwise). When s is the
// false schema, the cause is worded with what ("additional ", …).
func (v *validator) at(s *node, x any, key string, idx int, kw, what string) bool {
	v.ipath = append(v.ipath, ielem{key: key, idx: idx})
	ok := false
	switch {
	case !s.never:
		ok = v.in(s, x, kw, nil)
	case idx >= 0:
		v.fail(kw, mItem, what, "")
	default:
		v.fail(kw, mProp, what, key)
	}
	v.ipath = v.ipath[:len(v.ipath)-1]
	return ok
}

func (v *validator) eval(n *node, x any, ann *annot) bool {
	if n.always {
		return true
	}
	if n.never {
		v.fail("", mFalse, "", "")
		return false
	}
	depth := len(v.ipath)
	for i := len(v.stack) - 1; i >= 0 && v.stack[i].depth == depth; i-- {
		if v.stack[i].n == n {
			// The same schema again at the same instance location: a
			// reference cycle such as {"$ref": "#"} that would never end.
			v.fail("", mCycle, "", "")
			return false
		}
	}
	if v.evals >= v.budget && !v.grown {
		// Raise the evaluation budget, once, in proportion to the size of
		// the instance.
		v.grown = true
		v.budget = max(minEvals, evalsPerValue*countValues(v.root))
	}
	if v.evals >= v.budget || len(v.stack) >= maxDepth {
		v.exhausted = true
		v.fail("", mLimit, "", "")
		return false
	}
	v.evals++
	v.stack = append(v.stack, frame{n, depth})
	pushed := len(v.scope) == 0 || v.scope[len(v.scope)-1] != n.res
	if pushed {
		v.scope = append(v.scope, n.res)
	}
	ok := v.evalKeywords(n, x, ann)
	if pushed {
		v.scope = v.scope[:len(v.scope)-1]
	}
	v.stack = v.stack[:len(v.stack)-1]
	return ok
}

// rel is the keyword path from parent to its structural child.
func rel(parent, child *node) string { return child.ptr[len(parent.ptr):] }

// evalKeywords evaluates the keywords of n against x. Every failure goes
// through fail, which counts it: n passes when the count did not change.
// A failure returns at once when fail (or halted, after a subschema
// failed) says so.
func (v *validator) evalKeywords(n *node, x any, ann *annot) bool {
	start := v.fails
	local := ann
	if n.needAnn {
		local = &annot{}
	}
	for i, t := range n.refs {
		if t == nil {
			continue
		}
		if i == 1 && n.dynName != "" {
			for _, r := range v.scope {
				if d, found := r.dyn[n.dynName]; found {
					t = d
					break
				}
			}
		}
		if i == 2 && n.recDyn {
			for _, r := range v.scope {
				if r.recAnchor {
					t = r
					break
				}
			}
		}
		if !v.in(t, x, refKW[i], local) && v.halted {
			return false
		}
	}

	k := kindOf(x)
	if k == 0 {
		v.fail("", mGoValue, "", "")
		return false
	}
	if n.types != 0 && n.types&k == 0 && (k != tNumber || n.types&tInteger == 0 || !isInteger(x)) &&
		v.failWith("/type", mType, x, int(k), int(n.types)) {
		return false
	}
	if n.hasConst && !equal(x, n.constV) && v.failWith("/const", mConst, n.constV, 0, 0) {
		return false
	}
	if n.hasEnum {
		found := false
		for _, e := range n.enum {
			if found = equal(x, e); found {
				break
			}
		}
		if !found && v.failWith("/enum", mEnum, n.enum, 0, 0) {
			return false
		}
	}

	// minLength/maxLength, minItems/maxItems, minProperties/maxProperties
	c, size := -1, 0
	switch x := x.(type) {
	case string:
		if n.counts[cMinLen] >= 0 || n.counts[cMaxLen] >= 0 {
			c, size = cMinLen, utf8.RuneCountInString(x)
		}
	case []any:
		c, size = cMinItems, len(x)
	case map[string]any:
		c, size = cMinProps, len(x)
	}
	if c >= 0 && (v.count(n, c, size) || v.count(n, c+1, size)) {
		return false
	}

	switch x := x.(type) {
	case string:
		if n.pattern != nil && !n.pattern(x) && v.fail("/pattern", mPattern, n.patternSrc, "") {
			return false
		}
	case []any:
		if !v.evalArray(n, x, local) && v.halted {
			return false
		}
	case map[string]any:
		if !v.evalObject(n, x, local) && v.halted {
			return false
		}
	default:
		if k == tNumber && n.hasNum && !v.evalNumber(n, x) && v.halted {
			return false
		}
	}

	if !v.evalApplicators(n, x, local) && v.halted {
		return false
	}

	if s := n.sub[sUnevalProps]; s != nil {
		if m, isObj := x.(map[string]any); isObj && !local.allProps {
			for _, key := range v.keys(m) {
				if !local.propDone(key) && !v.at(s, m[key], key, -1, "/unevaluatedProperties", "unevaluated ") && v.halted {
					return false
				}
			}
			local.allProps = true
		}
	}
	if s := n.sub[sUnevalItems]; s != nil {
		if a, isArr := x.([]any); isArr && !local.allItems {
			for i, e := range a {
				if !local.itemDone(i) && !v.at(s, e, "", i, "/unevaluatedItems", "unevaluated ") && v.halted {
					return false
				}
			}
			local.allItems = true
		}
	}
	if ann != nil && local != ann {
		ann.merge(local)
	}
	return v.fails == start
}

// count checks the bound n.counts[c] (a minimum when c is even) against
// size; it reports whether evaluation must stop.
func (v *validator) count(n *node, c, size int) bool {
	lim := n.counts[c]
	if lim < 0 || (c&1 == 0 && size >= lim) || (c&1 == 1 && size <= lim) {
		return false
	}
	return v.failWith(countKW[c], mCount+c, nil, lim, size)
}

// keys returns the keys of m; sorted unless in quick mode (where order does
// not matter and sorting would only cost time).
func (v *validator) keys(m map[string]any) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	if !v.quick {
		order.Strings(out)
	}
	return out
}

// The bounds checked by evalNumber: minimum, maximum, exclusiveMinimum,
// exclusiveMaximum; a comparison result of boundFail (or 0 for the
// exclusive ones) fails.
var (
	boundOp   = [4]string{">=", "<=", ">", "<"}
	boundFail = [4]int{-1, 1, -1, 1}
)

func (v *validator) evalNumber(n *node, x any) bool {
	var buf [40]byte
	d, valid := toDec(x, buf[:0])
	if !valid {
		v.fail("", mNumber, errf.Sprintf("%v", x), "")
		return false
	}
	start := v.fails
	for i, b := range n.nums {
		if b == nil {
			continue
		}
		if i == 4 {
			if !isMultiple(d, b.d) && v.fail("/multipleOf", mMultiple, b.text, "") {
				return false
			}
		} else if c := cmpDec(d, b.d); (c == boundFail[i] || i >= 2 && c == 0) && v.fail(numKW[i], mBound, boundOp[i], b.text) {
			return false
		}
	}
	return v.fails == start
}

func (v *validator) evalArray(n *node, a []any, ann *annot) bool {
	start := v.fails
	if n.unique {
		if i, j, dup := findDuplicate(a); dup && v.failWith("/uniqueItems", mUnique, nil, i, j) {
			return false
		}
	}
	for i, p := range n.prefix {
		if i >= len(a) {
			break
		}
		if !v.at(p, a[i], "", i, rel(n, p), "") && v.halted {
			return false
		}
	}
	if ann != nil {
		ann.nItems = max(ann.nItems, min(len(a), len(n.prefix)))
	}
	if s := n.sub[sItems]; s != nil {
		kw := rel(n, s)
		for i := len(n.prefix); i < len(a); i++ {
			if !v.at(s, a[i], "", i, kw, "additional ") && v.halted {
				return false
			}
		}
		if ann != nil {
			ann.allItems = true
		}
	}
	if s := n.sub[sContains]; s != nil {
		saved := v.state
		v.quick = true
		matches := 0
		for i, e := range a {
			if v.at(s, e, "", i, "/contains", "") {
				matches++
				if ann != nil && n.containsEval {
					ann.markItem(i)
				}
			}
		}
		v.state = saved
		if n.counts[cMinContains] < 0 && matches == 0 {
			if v.failWith("/contains", mCount+cMinContains, nil, 1, 0) {
				return false
			}
		} else if v.count(n, cMinContains, matches) || v.count(n, cMaxContains, matches) {
			return false
		}
	}
	return v.fails == start
}

func (v *validator) evalObject(n *node, m map[string]any, ann *annot) bool {
	start := v.fails
	for _, r := range n.required {
		if _, has := m[r]; !has && v.fail("/required", mRequired, r, "") {
			return false
		}
	}
	for _, dr := range n.depReq {
		if _, has := m[dr.prop]; !has {
			continue
		}
		for _, r := range dr.req {
			if _, has := m[r]; !has && v.fail("/dependentRequired", mDepReq, r, dr.prop) {
				return false
			}
		}
	}
	for _, name := range n.propOrder {
		val, has := m[name]
		if !has {
			continue
		}
		ann.markProp(name)
		s := n.props[name]
		if !v.at(s, val, name, -1, rel(n, s), "") && v.halted {
			return false
		}
	}
	if len(n.patProps) > 0 || n.sub[sAddProps] != nil || n.sub[sPropNames] != nil {
		if v.quick {
			for key, val := range m {
				if !v.evalKey(n, key, val, ann) {
					return false
				}
			}
		} else {
			for _, key := range v.keys(m) {
				if !v.evalKey(n, key, m[key], ann) && v.halted {
					return false
				}
			}
		}
		if n.sub[sAddProps] != nil && ann != nil {
			ann.allProps = true
		}
	}
	for _, ds := range n.depSchemas {
		if _, has := m[ds.prop]; has && !v.in(ds.n, m, rel(n, ds.n), ann) && v.halted {
			return false
		}
	}
	return v.fails == start
}

// evalKey applies propertyNames, patternProperties and additionalProperties
// to one property.
func (v *validator) evalKey(n *node, key string, val any, ann *annot) bool {
	start := v.fails
	if s := n.sub[sPropNames]; s != nil && !v.at(s, key, key, -1, "/propertyNames", "") && v.halted {
		return false
	}
	_, matched := n.props[key]
	for _, pp := range n.patProps {
		if !pp.re(key) {
			continue
		}
		matched = true
		ann.markProp(key)
		if !v.at(pp.n, val, key, -1, rel(n, pp.n), "") && v.halted {
			return false
		}
	}
	if s := n.sub[sAddProps]; !matched && s != nil && !v.at(s, val, key, -1, "/additionalProperties", "additional ") && v.halted {
		return false
	}
	return v.fails == start
}

// evalApplicators evaluates allOf, anyOf, oneOf, not and if/then/else.
func (v *validator) evalApplicators(n *node, x any, ann *annot) bool {
	start := v.fails
	for _, s := range n.lists[0] {
		if !v.in(s, x, rel(n, s), ann) && v.halted {
			return false
		}
	}
	// anyOf (i == 1) and oneOf (i == 2)
	for i := 1; i <= 2; i++ {
		list := n.lists[i]
		if len(list) == 0 {
			continue
		}
		first, second := -1, -1
		var best *annot
		for j, s := range list {
			var a *annot
			if ann != nil {
				a = &annot{}
			}
			if !v.test(s, x, a) {
				continue
			}
			if i == 1 {
				first = j
				if ann == nil {
					break
				}
				ann.merge(a)
				continue
			}
			if first >= 0 {
				second = j
				break
			}
			first, best = j, a
		}
		switch {
		case first < 0:
			if v.fail(listKW[i], mAnyOf+i-1, "", "") || v.explain(n, list, x) {
				return false
			}
		case second >= 0:
			if v.failWith("/oneOf", mOneOfMany, nil, first, second) {
				return false
			}
		case i == 2 && ann != nil:
			ann.merge(best)
		}
	}
	if s := n.sub[sNot]; s != nil && v.test(s, x, nil) && v.fail("/not", mNot, "", "") {
		return false
	}
	if n.sub[sIf] != nil && (n.sub[sThen] != nil || n.sub[sElse] != nil || ann != nil) {
		var a *annot
		if ann != nil {
			a = &annot{}
		}
		next := n.sub[sElse]
		if v.test(n.sub[sIf], x, a) {
			next = n.sub[sThen]
			if ann != nil {
				ann.merge(a)
			}
		}
		if next != nil && !v.in(next, x, rel(n, next), ann) && v.halted {
			return false
		}
	}
	return v.fails == start
}

// explain adds the causes of the one branch of a failed anyOf/oneOf that
// fails for reasons other than a plain type mismatch (for instance the
// object branch of an "object or null" union), and reports whether
// evaluation must stop. When no single branch stands out it adds nothing.
func (v *validator) explain(n *node, branches []*node, x any) bool {
	var pick []Cause
	candidates := 0
	at := v.instPath()
	for _, s := range branches {
		start := len(v.causes)
		v.in(s, x, rel(n, s), nil)
		got := v.causes[start:]
		plausible := false
		for _, c := range got {
			if c.InstancePath != at || !strings.HasSuffix(c.KeywordPath, "/type") {
				plausible = true
			}
		}
		if plausible {
			candidates++
			pick = append(got[:0:0], got...)
		}
		v.causes = v.causes[:start]
	}
	if candidates == 1 {
		for _, c := range pick {
			if len(v.causes) >= maxCauses {
				break
			}
			v.causes = append(v.causes, c)
		}
	}
	v.halted = len(v.causes) >= maxCauses
	return v.halted
}

func kindOf(x any) uint8 {
	switch x.(type) {
	case nil:
		return tNull
	case bool:
		return tBool
	case map[string]any:
		return tObject
	case []any:
		return tArray
	case string:
		return tString
	case float64, jsonscan.Number, float32, int, int32, int64, uint, uint32, uint64:
		return tNumber
	}
	return 0
}

// equal reports deep JSON equality; numbers compare by value (1 == 1.0).
func equal(a, b any) bool {
	switch x := a.(type) {
	case nil:
		return b == nil
	case bool:
		y, ok := b.(bool)
		return ok && x == y
	case string:
		y, ok := b.(string)
		return ok && x == y
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !equal(x[i], y[i]) {
				return false
			}
		}
		return true
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k, xv := range x {
			yv, ok := y[k]
			if !ok || !equal(xv, yv) {
				return false
			}
		}
		return true
	case float64:
		if y, ok := b.(float64); ok {
			return x == y
		}
	case jsonscan.Number:
		if y, ok := b.(jsonscan.Number); ok && x == y {
			return true
		}
	}
	if kindOf(a) != tNumber || kindOf(b) != tNumber {
		return false
	}
	var ba, bb [40]byte
	da, ok1 := toDec(a, ba[:0])
	db, ok2 := toDec(b, bb[:0])
	return ok1 && ok2 && cmpDec(da, db) == 0
}

// findDuplicate returns the indexes of two equal items: for a long array,
// items are chained by hash (hashJSON agrees with equal) and compared
// within a chain only.
func findDuplicate(a []any) (int, int, bool) {
	if len(a) <= 16 {
		for i := range a {
			for j := i + 1; j < len(a); j++ {
				if equal(a[i], a[j]) {
					return i, j, true
				}
			}
		}
		return 0, 0, false
	}
	last := make(map[uint64]int, len(a)) // hash -> latest index + 1
	prev := make([]int, len(a))          // index -> previous index with its hash + 1
	for j, e := range a {
		h := hashJSON(e)
		for i := last[h] - 1; i >= 0; i = prev[i] - 1 {
			if equal(a[i], e) {
				return i, j, true
			}
		}
		prev[j], last[h] = last[h], j+1
	}
	return 0, 0, false
}

// hashJSON hashes a JSON value (FNV-1a); equal values hash alike (object
// members are combined in any order, numbers by their exact value).
func hashJSON(v any) uint64 {
	const prime = 1099511628211
	h := uint64(14695981039346656037)
	var s string
	switch x := v.(type) {
	case nil:
		return 1
	case bool:
		if x {
			return 2
		}
		return 3
	case string:
		s = x
	case []any:
		for _, e := range x {
			h = (h ^ hashJSON(e)) * prime
		}
		return h
	case map[string]any:
		h = 5
		for k, e := range x {
			h += (hashJSON(k)*31 ^ hashJSON(e)) * prime
		}
		return h
	default:
		var buf [40]byte
		d, _ := toDec(v, buf[:0])
		s = string(d.appendTo(buf[:0])) // does not escape: no allocation
	}
	for i := 0; i < len(s); i++ {
		h = (h ^ uint64(s[i])) * prime
	}
	return h
}
