package jsonschema

import (
	"errors"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/mcpwasm/mcpwasm/internal/errf"
	"github.com/mcpwasm/mcpwasm/internal/jsonscan"
	"github.com/mcpwasm/mcpwasm/internal/order"
)

// ErrInvalidSchema is returned, wrapped with detail, by Compile when the
// document is not a usable JSON Schema. It is a sentinel value: compare with
// errors.Is. It is safe for concurrent use.
var ErrInvalidSchema = errors.New("jsonschema: invalid schema")

// Schema is a compiled JSON Schema document. A *Schema is immutable after
// Compile returns; all its methods are safe for concurrent use by multiple
// goroutines.
type Schema struct {
	root       *node
	unresolved []string
	skipped    []string
}

// Unresolved returns the absolute references ($ref, $dynamicRef,
// $recursiveRef) that could not be resolved inside the document, sorted and
// without duplicates. Each of them accepts every instance. The returned slice
// is a copy; Unresolved is safe for concurrent use.
func (s *Schema) Unresolved() []string { return slices.Clone(s.unresolved) }

// Skipped returns the pattern and patternProperties regular expressions that
// could not be translated to Go's RE2 syntax, as "<schema pointer>: <pattern>",
// sorted and without duplicates. A skipped pattern accepts every string. The
// returned slice is a copy; Skipped is safe for concurrent use.
func (s *Schema) Skipped() []string { return slices.Clone(s.skipped) }

// Type bits of the "type" keyword.
const (
	tNull uint8 = 1 << iota
	tBool
	tObject
	tArray
	tNumber
	tString
	tInteger
)

var typeNames = [...]string{"null", "boolean", "object", "array", "number", "string", "integer"}

// Draft identifiers; dDefault is "no (or unknown) $schema": 2020-12 plus the
// draft-07 spellings.
const (
	dDefault = 0
	d4       = 4
	d6       = 6
	d7       = 7
	d2019    = 2019
	d2020    = 2020
)

// node is one compiled (sub)schema. Nodes are created by Compile and never
// modified afterwards. Keywords of one kind share an array indexed as in
// kwTable, so that compiling and evaluating them is one loop each.
type node struct {
	ptr    string // JSON pointer of this schema in the document
	always bool   // true schema (or empty)
	never  bool   // false schema

	res       *node            // schema resource this node belongs to
	dyn       map[string]*node // resource roots: $dynamicAnchor name -> schema
	recAnchor bool             // $recursiveAnchor: true

	refs    [3]*node // $ref, $dynamicRef, $recursiveRef (refKW)
	dynName string   // $dynamicRef anchor name when bookended (dynamic)
	recDyn  bool     // $recursiveRef target has $recursiveAnchor: true

	types    uint8
	hasConst bool
	hasEnum  bool
	constV   any
	enum     []any

	nums   [5]*num // minimum, maximum, exclusiveMinimum, exclusiveMaximum, multipleOf
	counts [8]int  // countKW; -1 when absent
	sub    [nSub]*node
	lists  [3][]*node // allOf, anyOf, oneOf

	pattern    matcher
	patternSrc string

	unique       bool
	containsEval bool // contains marks items as evaluated (2020-12)
	prefix       []*node

	required   []string
	depReq     []depReq
	props      map[string]*node
	propOrder  []string
	patProps   []patProp
	depSchemas []depSchema

	needAnn bool // has unevaluatedItems or unevaluatedProperties
	hasNum  bool // has a numeric assertion
}

// Indexes of node.sub.
const (
	sItems = iota
	sContains
	sUnevalItems
	sAddProps
	sPropNames
	sUnevalProps
	sNot
	sIf
	sThen
	sElse
	nSub
)

// Indexes of node.counts; countKW holds their keyword paths.
const (
	cMinLen = iota
	cMaxLen
	cMinItems
	cMaxItems
	cMinProps
	cMaxProps
	cMinContains
	cMaxContains
)

var (
	refKW   = [3]string{"/$ref", "/$dynamicRef", "/$recursiveRef"}
	countKW = [8]string{"/minLength", "/maxLength", "/minItems", "/maxItems", "/minProperties", "/maxProperties", "/minContains", "/maxContains"}
	subKW   = [nSub]string{"/items", "/contains", "/unevaluatedItems", "/additionalProperties", "/propertyNames", "/unevaluatedProperties", "/not", "/if", "/then", "/else"}
	numKW   = [5]string{"/minimum", "/maximum", "/exclusiveMinimum", "/exclusiveMaximum", "/multipleOf"}
	listKW  = [3]string{"/allOf", "/anyOf", "/oneOf"}
)

// Kinds of kwTable entries.
const (
	kNum   = iota // idx: node.nums
	kCount        // idx: node.counts
	kSub          // idx: node.sub
	kList         // idx: node.lists
	kMap          // idx: oDepReq...
	kType
	kConst
	kEnum
	kPattern
	kUnique
	kPrefix
	kRequired
)

// Indexes of kMap entries: keywords whose value is an object.
const (
	oDepReq = iota
	oProps
	oPatProps
	oDepSchemas
	oDeps
)

// kwTable lists the keywords compileObject reads, in the order it reads
// them: a kind and an index into the node array of that kind.
var kwTable = [...]struct {
	kind, idx uint8
	name      string // keyword path: "/" + keyword
}{
	{kType, 0, "/type"}, {kConst, 0, "/const"}, {kEnum, 0, "/enum"},
	{kNum, 0, "/minimum"}, {kNum, 1, "/maximum"}, {kNum, 2, "/exclusiveMinimum"}, {kNum, 3, "/exclusiveMaximum"}, {kNum, 4, "/multipleOf"},
	{kCount, cMinLen, "/minLength"}, {kCount, cMaxLen, "/maxLength"}, {kPattern, 0, "/pattern"},
	{kCount, cMinItems, "/minItems"}, {kCount, cMaxItems, "/maxItems"}, {kUnique, 0, "/uniqueItems"},
	{kPrefix, 0, "/prefixItems"}, {kSub, sItems, "/items"}, {kSub, sItems, "/additionalItems"},
	{kSub, sContains, "/contains"}, {kCount, cMinContains, "/minContains"}, {kCount, cMaxContains, "/maxContains"},
	{kSub, sUnevalItems, "/unevaluatedItems"},
	{kCount, cMinProps, "/minProperties"}, {kCount, cMaxProps, "/maxProperties"}, {kRequired, 0, "/required"},
	{kMap, oDepReq, "/dependentRequired"}, {kMap, oProps, "/properties"}, {kMap, oPatProps, "/patternProperties"},
	{kSub, sAddProps, "/additionalProperties"}, {kSub, sPropNames, "/propertyNames"},
	{kMap, oDepSchemas, "/dependentSchemas"}, {kMap, oDeps, "/dependencies"}, {kSub, sUnevalProps, "/unevaluatedProperties"},
	{kList, 0, "/allOf"}, {kList, 1, "/anyOf"}, {kList, 2, "/oneOf"}, {kSub, sNot, "/not"},
	{kSub, sIf, "/if"}, {kSub, sThen, "/then"}, {kSub, sElse, "/else"},
}

// noCompare makes a struct type incomparable, so that the compiler emits
// no equality function for it (code that nothing calls).
type noCompare [0]func()

type depReq struct {
	prop string
	req  []string
}

type depSchema struct {
	_    noCompare
	prop string
	n    *node
}

type patProp struct {
	_  noCompare
	re matcher
	n  *node
}

// num is a schema number: its source text and exact decimal value.
type num struct {
	text string
	d    dec
}

type scanInfo struct {
	_    noCompare
	base string // base URI in effect for the schema at this pointer
	res  string // pointer of the enclosing schema resource
}

type compiler struct {
	doc        any
	draft      int
	info       map[string]scanInfo
	ptrs       []string            // the keys of info
	ids        map[string]string   // absolute URI (no fragment), or URI#anchor -> pointer
	dynAnchors map[string][]string // resource pointer -> [name, pointer, ...]
	nodes      map[string]*node
	regexps    map[string]matcher
	notes      map[string]any // set: "u" + unresolved reference, "s" + skipped pattern
	pattern    PatternFunc    // nil: compileECMA
	err        error
}

// Compile parses a JSON Schema document and prepares it for validation.
// It resolves $ref, $dynamicRef and $recursiveRef inside the document only
// (JSON pointers, $anchor, $dynamicAnchor and $id-relative URIs) and never
// performs I/O; references it cannot resolve accept every instance and are
// listed by Schema.Unresolved. Errors wrap ErrInvalidSchema. Compile is safe
// for concurrent use, and the returned *Schema is immutable.
func Compile(doc []byte) (*Schema, error) { return CompileWith(doc, nil) }

// invalid is Compile's error: ErrInvalidSchema with msg.
func invalid(msg string) error { return errf.Errorf("%w: %s", ErrInvalidSchema, msg) }

// CompileWith is Compile with options; opts may be nil.
func CompileWith(doc []byte, opts *Options) (*Schema, error) {
	v, err := decodeJSON(doc)
	if err == errTrailing {
		return nil, invalid("trailing data after the schema")
	}
	if err != nil {
		return nil, invalid(err.Error())
	}
	m, isObj := v.(map[string]any)
	if _, ok := v.(bool); !ok && !isObj {
		return nil, invalid("a schema must be a JSON object or boolean")
	}
	c := &compiler{
		doc:        v,
		draft:      draftOf(m["$schema"]),
		info:       map[string]scanInfo{},
		ids:        map[string]string{"": ""},
		dynAnchors: map[string][]string{},
		nodes:      map[string]*node{},
		regexps:    map[string]matcher{},
		notes:      map[string]any{},
	}
	if opts != nil {
		c.pattern = opts.Pattern
	}
	c.scan(v, "", "", "")
	root := c.compile("")
	// Compile every other subschema too, so that the whole document is
	// checked and the result does not depend on which parts are reachable.
	order.Strings(c.ptrs)
	for _, p := range c.ptrs {
		c.compile(p)
	}
	// Attach $dynamicAnchor tables to their resources.
	for resPtr, list := range c.dynAnchors {
		r := c.compile(resPtr)
		r.dyn = make(map[string]*node, len(list)/2)
		for i := 0; i < len(list); i += 2 {
			if _, dup := r.dyn[list[i]]; !dup {
				r.dyn[list[i]] = c.compile(list[i+1])
			}
		}
	}
	if c.err != nil {
		return nil, c.err
	}
	s := &Schema{root: root}
	for _, k := range jsonscan.SortedKeys(c.notes) {
		if k[0] == 'u' {
			s.unresolved = append(s.unresolved, k[1:])
		} else {
			s.skipped = append(s.skipped, k[1:])
		}
	}
	return s, nil
}

// errTrailing is decodeJSON's error for data after the JSON value.
var errTrailing = errors.New("trailing data")

// decodeJSON decodes the single JSON value of raw, numbers as
// jsonscan.Number, with a json.Decoder's messages.
// Data after the value is errTrailing.
func decodeJSON(raw []byte) (any, error) {
	v, err := jsonscan.DecodeWith(raw, &jsonscan.DecodeOptions{UseNumber: true})
	if err == nil {
		return v, nil
	}
	if jsonscan.SkipSpace(raw, 0) == len(raw) {
		return nil, io.EOF
	}
	var je *jsonscan.Error
	if errf.As(err, &je) && strings.HasSuffix(je.Msg, " after top-level value") {
		// The first value is whole: a json.Decoder would have read it.
		return nil, errTrailing
	}
	// What a json.Decoder (one value, then the rest) says.
	return nil, jsonscan.StdError(raw, err, true)
}

// drafts maps the path of a $schema URI to its draft, newest first.
var drafts = [...]struct {
	path  string
	draft int
}{{"/draft/2020-12/", d2020}, {"/draft/2019-09/", d2019}, {"/draft-07/", d7}, {"/draft-06/", d6}, {"/draft-04/", d4}, {"/draft-03/", d4}}

func draftOf(v any) int {
	s, _ := v.(string)
	for _, d := range drafts {
		if strings.Contains(s, d.path) {
			return d.draft
		}
	}
	return dDefault
}

// refOverrides reports whether $ref makes sibling keywords ineffective.
func (c *compiler) refOverrides(m map[string]any) bool {
	if c.draft < d4 || c.draft > d7 {
		return false
	}
	_, ok := m["$ref"]
	return ok
}

// fail records the first error of the document: msg about the keyword at
// the pointer ptr.
func (c *compiler) fail(ptr, msg string) {
	if c.err == nil {
		c.err = invalid("#" + ptr + ": " + msg)
	}
}

// scanKW lists the keywords whose value is a schema (flag 1), an array of
// schemas (2) or an object of schemas (4). The scan only descends through
// these, so values of enum, const, examples, default, … are never mistaken
// for schemas.
var scanKW = [...]struct {
	name string
	flag uint8
}{
	{"additionalProperties", 1}, {"propertyNames", 1}, {"additionalItems", 1}, {"contains", 1}, {"not", 1},
	{"if", 1}, {"then", 1}, {"else", 1}, {"unevaluatedItems", 1}, {"unevaluatedProperties", 1}, {"contentSchema", 1}, {"items", 1},
	{"allOf", 2}, {"anyOf", 2}, {"oneOf", 2}, {"prefixItems", 2}, {"items", 2},
	{"$defs", 4}, {"definitions", 4}, {"properties", 4}, {"patternProperties", 4}, {"dependentSchemas", 4}, {"dependencies", 4},
}

// scan indexes the document: base URIs, resources, anchors.
func (c *compiler) scan(v any, ptr, base, res string) {
	m, isObj := v.(map[string]any)
	if _, ok := v.(bool); !ok && !isObj {
		return
	}
	if isObj && !c.refOverrides(m) {
		idKey := "$id"
		if c.draft == d4 {
			idKey = "id"
		}
		if id, ok := m[idKey].(string); ok {
			u := resolveURI(base, id)
			uri, frag, _ := strings.Cut(u, "#")
			if !strings.HasPrefix(id, "#") {
				base = uri
				res = ptr
				if _, dup := c.ids[uri]; !dup || uri == "" {
					c.ids[uri] = ptr
				}
			}
			if frag != "" && frag[0] != '/' {
				c.ids[uri+"#"+frag] = ptr // draft-07 style "#name" anchor
			}
		}
		for _, kw := range [2]string{"$anchor", "$dynamicAnchor"} {
			a, ok := m[kw].(string)
			if !ok {
				continue
			}
			// A $dynamicAnchor does not replace an $anchor of that name.
			if _, dup := c.ids[base+"#"+a]; !dup || kw == "$anchor" {
				c.ids[base+"#"+a] = ptr
			}
			if kw != "$anchor" {
				c.dynAnchors[res] = append(c.dynAnchors[res], a, ptr)
			}
		}
	}
	c.info[ptr] = scanInfo{base: base, res: res}
	c.ptrs = append(c.ptrs, ptr)
	for _, kw := range scanKW {
		sub, ok := m[kw.name]
		if !ok {
			continue
		}
		p := ptr + "/" + kw.name
		arr, isArr := sub.([]any)
		obj, isObj := sub.(map[string]any)
		switch {
		case kw.flag == 1:
			c.scan(sub, p, base, res)
		case kw.flag == 2 && isArr:
			for i, sub := range arr {
				c.scan(sub, p+"/"+strconv.Itoa(i), base, res)
			}
		case kw.flag == 4 && isObj:
			for k, sub := range obj {
				c.scan(sub, p+"/"+escapeToken(k), base, res)
			}
		}
	}
}

// resolve resolves a reference against base to a pointer in the document.
// abs is the absolute form of the reference.
func (c *compiler) resolve(base, ref string) (ptr, abs string, ok bool) {
	abs = resolveURI(base, ref)
	uri, frag, _ := strings.Cut(abs, "#")
	frag = percentDecode(frag)
	if frag == "" || frag[0] == '/' {
		root, found := c.ids[uri]
		if !found {
			return "", abs, false
		}
		p := root + frag
		if _, found := lookup(c.doc, p); !found {
			return "", abs, false
		}
		return p, abs, true
	}
	p, found := c.ids[uri+"#"+frag]
	return p, abs, found
}

// compile returns the node for the schema at ptr, compiling it on first use.
func (c *compiler) compile(ptr string) *node {
	if n, ok := c.nodes[ptr]; ok {
		return n
	}
	n := &node{ptr: ptr, counts: [8]int{-1, -1, -1, -1, -1, -1, -1, -1}}
	c.nodes[ptr] = n
	// The scan information of ptr or of its nearest scanned ancestor (for
	// references into places the scan does not descend into).
	var in scanInfo
	for p := ptr; ; p = p[:strings.LastIndexByte(p, '/')] {
		var ok bool
		if in, ok = c.info[p]; ok || !strings.Contains(p, "/") {
			break
		}
	}
	n.res = c.compile(in.res)
	v, _ := lookup(c.doc, ptr)
	switch v := v.(type) {
	case bool:
		n.always, n.never = v, !v
	case map[string]any:
		c.compileObject(n, v, in.base)
	default:
		c.fail(ptr, "a schema must be a JSON object or boolean")
	}
	return n
}

// compileObject compiles the keywords of m into dst. It fills a copy on
// the stack and stores it once: stores into the heap node would each need
// a write barrier.
func (c *compiler) compileObject(dst *node, m map[string]any, base string) {
	n := *dst
	ptr := n.ptr
	if c.refOverrides(m) {
		c.compileRef(&n, m, base, 0)
	} else if len(m) == 0 {
		n.always = true
	} else {
		n.recAnchor = m["$recursiveAnchor"] == true
		n.containsEval = c.draft != d2019
		tuple := false
		for i := range refKW {
			if i < 2 || c.draft == d2019 {
				c.compileRef(&n, m, base, i)
			}
		}
		for _, e := range kwTable {
			kw := e.name[1:]
			v, ok := m[kw]
			if !ok {
				continue
			}
			// msg is the error, if any; one starting with a space follows the
			// keyword's name.
			path, i, msg := ptr+e.name, e.idx, ""
			switch e.kind {
			case kType:
				list, isList := v.([]any)
				if !isList {
					list = []any{v}
				}
				for _, x := range list {
					if msg != "" {
						break
					}
					s, ok := x.(string)
					t := slices.Index(typeNames[:], s)
					switch {
					case x == nil && !isList:
					case !ok:
						msg = "type must be a string or an array of strings"
					case t < 0:
						msg = "unknown type " + strconv.Quote(s)
					default:
						n.types |= 1 << t
					}
				}
				if isList && n.types == 0 { // "type": [] allows nothing
					n.types = 0x80
				}
			case kConst:
				n.hasConst, n.constV = true, v
			case kEnum:
				n.enum, ok = v.([]any)
				n.hasEnum = true
				if !ok {
					msg = " must be an array"
				}
			case kNum:
				if b, ok := v.(bool); ok && i&^1 == 2 { // draft-04 exclusiveMinimum/Maximum
					if b {
						n.nums[i], n.nums[i-2] = n.nums[i-2], nil
					}
					continue
				}
				s, _ := v.(jsonscan.Number)
				d, ok := parseDec(string(s), nil)
				switch {
				case !ok:
					msg = " must be a number"
				case i == 4 && (d.neg || len(d.d) == 0):
					msg = " must be greater than 0"
					fallthrough
				default:
					n.nums[i] = &num{text: string(s), d: d}
					n.hasNum = true
				}
			case kCount:
				if i < cMinContains || n.sub[sContains] != nil {
					n.counts[i] = c.count(v, path, kw)
				}
			case kPattern:
				s, ok := v.(string)
				if !ok {
					msg = " must be a string"
				}
				n.pattern, n.patternSrc = c.regexp(path, s), s
			case kUnique:
				if n.unique, ok = v.(bool); !ok {
					msg = " must be a boolean"
				}
			case kPrefix:
				n.prefix = c.schemaArray(v, path, kw)
			case kSub:
				if i == sItems {
					_, isArr := v.([]any)
					if kw[0] == 'i' && isArr { // draft-2019-09 and earlier tuple form
						n.prefix, tuple = c.schemaArray(v, path, kw), true
						continue
					}
					if kw[0] == 'a' && (!tuple || c.draft == d2020) { // additionalItems
						continue
					}
				}
				if i >= sThen && n.sub[sIf] == nil {
					continue
				}
				n.sub[i] = c.compile(path)
			case kRequired:
				n.required = c.strings(v, path)
			case kMap:
				obj, ok := v.(map[string]any)
				if !ok {
					msg = " must be an object"
				}
				keys := jsonscan.SortedKeys(obj)
				if i == oProps {
					n.props = make(map[string]*node, len(obj))
					n.propOrder = keys
				}
				for _, k := range keys {
					p := path + "/" + escapeToken(k)
					_, isArr := obj[k].([]any)
					switch {
					case i == oDepReq || i == oDeps && isArr:
						n.depReq = append(n.depReq, depReq{k, c.strings(obj[k], p)})
					case i == oProps:
						n.props[k] = c.compile(p)
					case i == oPatProps:
						if re := c.regexp(p, k); re != nil {
							n.patProps = append(n.patProps, patProp{re: re, n: c.compile(p)})
						}
					default:
						n.depSchemas = append(n.depSchemas, depSchema{prop: k, n: c.compile(p)})
					}
				}
			case kList:
				if arr, ok := v.([]any); !ok || len(arr) == 0 {
					msg = " must be a non-empty array of schemas"
				} else {
					n.lists[i] = c.schemaArray(v, path, kw)
				}
			}
			if msg != "" {
				if msg[0] == ' ' {
					msg = kw + msg
				}
				c.fail(path, msg)
			}
		}
		n.needAnn = n.sub[sUnevalItems] != nil || n.sub[sUnevalProps] != nil
	}
	*dst = n
}

// compileRef compiles the reference keyword refKW[i] of m.
func (c *compiler) compileRef(n *node, m map[string]any, base string, i int) {
	kw := refKW[i][1:]
	v, ok := m[kw]
	if !ok {
		return
	}
	ref, ok := v.(string)
	if !ok {
		c.fail(n.ptr+refKW[i], kw+" must be a string")
		return
	}
	if i == 2 {
		ref = "#" // the only value defined by draft 2019-09
	}
	p, abs, ok := c.resolve(base, ref)
	if !ok {
		c.notes["u"+abs] = nil
		return
	}
	n.refs[i] = c.compile(p)
	if i == 0 {
		return
	}
	t, _ := lookup(c.doc, p)
	tm, _ := t.(map[string]any)
	switch i {
	case 1:
		// Dynamic resolution only applies when the statically resolved
		// target carries a matching $dynamicAnchor ("bookending").
		if _, frag, _ := strings.Cut(abs, "#"); frag != "" && frag[0] != '/' && tm["$dynamicAnchor"] == frag {
			n.dynName = frag
		}
	case 2:
		n.recDyn = tm["$recursiveAnchor"] == true
	}
}

func (c *compiler) schemaArray(v any, path, kw string) []*node {
	arr, ok := v.([]any)
	if !ok {
		c.fail(path, kw+" must be an array of schemas")
		return nil
	}
	out := make([]*node, len(arr))
	for i := range arr {
		out[i] = c.compile(path + "/" + strconv.Itoa(i))
	}
	return out
}

func (c *compiler) object(v any, path, kw string) map[string]any {
	obj, ok := v.(map[string]any)
	if !ok {
		c.fail(path, kw+" must be an object")
	}
	return obj
}

func (c *compiler) strings(v any, path string) []string {
	arr, _ := v.([]any)
	out := make([]string, 0, len(arr))
	for _, e := range arr {
		s, ok := e.(string)
		if !ok {
			break
		}
		out = append(out, s)
	}
	if _, ok := v.([]any); !ok || len(out) < len(arr) {
		c.fail(path, "must be an array of strings")
		return nil
	}
	return out
}

// count parses a non-negative integer keyword.
func (c *compiler) count(v any, path, kw string) int {
	s, _ := v.(jsonscan.Number)
	d, ok := parseDec(string(s), nil)
	if !ok || d.neg || !d.isInt() {
		c.fail(path, kw+" must be a non-negative integer")
		return -1
	}
	i := 0
	for k := 0; k < d.exp; k++ {
		if i > 1<<50 {
			return 1 << 50 // more than any instance can have
		}
		i *= 10
		if k < len(d.d) {
			i += int(d.d[k] - '0')
		}
	}
	return i
}

func (c *compiler) regexp(ptr, src string) matcher {
	if re, ok := c.regexps[src]; ok {
		if re == nil {
			c.notes["s"+ptr+": "+src] = nil
		}
		return re
	}
	var re matcher
	var err error
	if c.pattern != nil {
		re, err = c.pattern(src)
	} else {
		re, err = compileECMA(src)
	}
	if err != nil || re == nil {
		re = nil
		c.notes["s"+ptr+": "+src] = nil
	}
	c.regexps[src] = re
	return re
}

// ---- JSON pointers ----

// escapeToken escapes a JSON pointer reference token (RFC 6901).
func escapeToken(s string) string {
	if !strings.ContainsAny(s, "~/") {
		return s
	}
	b := make([]byte, 0, len(s)+4)
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '~' || c == '/' {
			b = append(b, '~')
			c = '0' + c&1 // '~' is even, '/' odd
		}
		b = append(b, c)
	}
	return string(b)
}

func unescapeToken(s string) string {
	if !strings.Contains(s, "~") {
		return s
	}
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '~' && i+1 < len(s) && s[i+1]&^1 == '0' {
			i++
			c = "~/"[s[i]-'0']
		}
		b = append(b, c)
	}
	return string(b)
}

// lookup returns the value at a JSON pointer.
func lookup(v any, ptr string) (any, bool) {
	if ptr == "" {
		return v, true
	}
	if ptr[0] != '/' {
		return nil, false
	}
	for _, tok := range strings.Split(ptr[1:], "/") {
		tok = unescapeToken(tok)
		switch x := v.(type) {
		case map[string]any:
			var ok bool
			if v, ok = x[tok]; !ok {
				return nil, false
			}
		case []any:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(x) || (len(tok) > 1 && tok[0] == '0') {
				return nil, false
			}
			v = x[i]
		default:
			return nil, false
		}
	}
	return v, true
}

// ---- URIs (RFC 3986 reference resolution, no I/O) ----

// splitURI splits a URI reference into its scheme, authority, path, query
// and fragment, each with its delimiter ("http:", "//host", "/p", "?q",
// "#f"): a component is present when it is not empty.
func splitURI(s string) (u [5]string) {
	if i := strings.IndexByte(s, '#'); i >= 0 {
		u[4], s = s[i:], s[:i]
	}
	if i := strings.IndexByte(s, '?'); i >= 0 {
		u[3], s = s[i:], s[:i]
	}
	if i := strings.IndexByte(s, ':'); i > 0 {
		scheme := true
		for k := 0; k < i; k++ {
			c := s[k] | 0x20 // lower case for letters
			if !('a' <= c && c <= 'z' || k > 0 && ('0' <= s[k] && s[k] <= '9' || s[k] == '+' || s[k] == '-' || s[k] == '.')) {
				scheme = false
			}
		}
		if scheme {
			u[0], s = s[:i+1], s[i+1:]
		}
	}
	if strings.HasPrefix(s, "//") {
		i := strings.IndexByte(s[2:], '/') + 2
		if i < 2 {
			i = len(s)
		}
		u[1], s = s[:i], s[i:]
	}
	u[2] = s
	return u
}

// resolveURI resolves ref against base (RFC 3986 section 5.2.2). An empty
// fragment is dropped.
func resolveURI(base, ref string) string {
	t := splitURI(ref)
	path := true // the path comes from ref: remove its dot segments
	if t[0] == "" {
		b := splitURI(base)
		t[0] = b[0]
		if t[1] == "" {
			t[1] = b[1]
			switch {
			case t[2] == "":
				t[2], path = b[2], false
				if t[3] == "" {
					t[3] = b[3]
				}
			case t[2][0] == '/':
			case b[1] != "" && b[2] == "":
				t[2] = "/" + t[2]
			default:
				t[2] = b[2][:strings.LastIndexByte(b[2], '/')+1] + t[2]
			}
		}
	}
	if path {
		t[2] = removeDots(t[2])
	}
	if t[4] == "#" {
		t[4] = ""
	}
	return t[0] + t[1] + t[2] + t[3] + t[4]
}

func removeDots(p string) string {
	if !strings.Contains(p, ".") {
		return p
	}
	abs := strings.HasPrefix(p, "/")
	segs := strings.Split(p, "/")
	out := make([]string, 0, len(segs))
	for i, s := range segs {
		switch s {
		case ".":
			if i == len(segs)-1 {
				out = append(out, "")
			}
		case "..":
			if len(out) > 1 || (len(out) == 1 && !abs) {
				out = out[:len(out)-1]
			}
			if i == len(segs)-1 {
				out = append(out, "")
			}
		default:
			out = append(out, s)
		}
	}
	res := strings.Join(out, "/")
	if abs && !strings.HasPrefix(res, "/") {
		res = "/" + res
	}
	return res
}

func percentDecode(s string) string {
	if !strings.Contains(s, "%") {
		return s
	}
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		if s[i] == '%' && i+2 < len(s) {
			if h, l := unhex(s[i+1]), unhex(s[i+2]); h >= 0 && l >= 0 {
				b = append(b, byte(h<<4|l))
				i += 2
				continue
			}
		}
		b = append(b, s[i])
	}
	return string(b)
}

func unhex(c byte) int {
	switch {
	case '0' <= c && c <= '9':
		return int(c - '0')
	case 'a' <= c && c <= 'f':
		return int(c - 'a' + 10)
	case 'A' <= c && c <= 'F':
		return int(c - 'A' + 10)
	}
	return -1
}
