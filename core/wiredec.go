package core

import (
	"strings"
	"sync/atomic"
	"unsafe"

	"github.com/mcpwasm/mcpwasm/internal/jsonscan"
	"github.com/mcpwasm/mcpwasm/jsonrpc"
)

// The wire types are decoded by one table-driven decoder (see jsondec.go
// for encoding/json's rules it follows): each struct type is described
// once by its members' names, kinds and field offsets. Code per field and
// per type cost far more bytes in the WebAssembly module than the tables
// (docs/size.md); the offsets come from unsafe.Offsetof of the very
// fields, and each kind writes only the Go type the field has.

// kind says how a member is decoded and what Go type its field has.
type kind uint8

const (
	kString        kind = iota // string
	kBool                      // bool
	kInt64                     // int64
	kInt64Ptr                  // *int64
	kFloat                     // float64
	kFloatPtr                  // *float64
	kBoolPtr                   // *bool
	kRaw                       // RawMessage (copied; null kept as null)
	kMeta                      // Meta
	kMap                       // map[string]any
	kAny                       // any
	kStrings                   // []string
	kEmpty                     // *struct{}
	kStruct                    // a struct value (sub)
	kPtr                       // *T (sub)
	kPtrs                      // []*T (sub)
	kIcons                     // []Icon
	kID                        // jsonrpc.ID
	kContentList               // ContentList
	kInputRequests             // map[string]*InputRequest
	kContents                  // []*Content
	kIDPtr                     // *jsonrpc.ID
	kRawAlias                  // []byte aliasing the input
	kDefaults                  // map[string]RawMessage of properties.*.default
	kResource                  // *ResourceContents, encoded by its MarshalJSON rules
	kStringMap                 // map[string]string (encoding only)
)

// field is one member of a struct type.
type field struct {
	name string
	kind kind
	off  uintptr
	sub  *structType
	via  string // the Go name of the embedded struct holding the field, for error paths
	styp string // kPtrs: the slice type in errors
	omit bool   // encoding: omitempty
}

// structType describes a struct type for the decoder.
type structType struct {
	typ    string // Go type in errors: "core.Tool"
	short  string // struct name in errors: "Tool" ("" for anonymous structs)
	fields []field
	alloc  func() unsafe.Pointer // new(T), for kPtr and kPtrs
}

// toolHints is what registerTools reads of a tool's annotations.
type toolHints struct{ ReadOnlyHint, IdempotentHint bool }

// toolEntry is what registerTools reads of one tool definition.
type toolEntry struct {
	Name         string
	InputSchema  RawMessage
	OutputSchema RawMessage
	Annotations  *toolHints
	Execution    RawMessage
}

// taskCreatedWire is a legacy task-augmented tools/call result.
type taskCreatedWire struct {
	Task    *wireTask
	Content RawMessage
}

// listTasksWire is a tasks/list result.
type listTasksWire struct {
	Tasks      []*wireTask
	NextCursor string
}

// urlElicitationData is the data of a URLElicitationRequiredError.
type urlElicitationData struct {
	Elicitations []*ElicitParams
}

// fieldIndex returns the field of st the member key selects: an exact
// match, else a case-insensitive one (as encoding/json), else -1.
func fieldIndex(key []byte, st *structType) int {
	for i := range st.fields {
		if string(key) == st.fields[i].name {
			return i
		}
	}
	k := string(key)
	for i := range st.fields {
		if strings.EqualFold(k, st.fields[i].name) {
			return i
		}
	}
	return -1
}

// decodeStruct decodes the JSON object v into the struct of type st at p.
// null does nothing; another kind is a type error.
func (d *dec) decodeStruct(v []byte, st *structType, p unsafe.Pointer) {
	if len(v) == 0 || jsonscan.IsNullLiteral(v) {
		return
	}
	if v[0] != '{' {
		d.Wrong(v, st.typ)
		return
	}
	i := jsonscan.SkipSpace(v, 1)
	for i < len(v) && v[i] != '}' && !d.Fatal {
		if v[i] == ',' {
			i = jsonscan.SkipSpace(v, i+1)
		}
		kend := jsonscan.StringEnd(v, i)
		key := v[i+1 : kend-1]
		if containsByte(key, '\\') {
			k, err := jsonscan.Unquote(v[i:kend])
			if err != nil {
				d.Fail(err)
				return
			}
			key = []byte(k)
		}
		fi := fieldIndex(key, st)
		i = jsonscan.SkipSpace(v, kend)
		i = jsonscan.SkipSpace(v, i+1) // the colon
		vend := jsonscan.ValueEnd(v, i)
		if fi >= 0 {
			f := &st.fields[fi]
			outer, depth := d.Enter(st.short, f.via, f.name)
			q := unsafe.Add(p, f.off)
			if f.kind == kMeta && st == d.memoIn && *(*map[string]any)(q) == nil {
				d.memoMeta(v[i:vend], (*map[string]any)(q))
			} else {
				d.setField(f, q, v[i:vend])
			}
			d.Leave(outer, depth)
		}
		i = jsonscan.SkipSpace(v, vend)
	}
}

// setField decodes the member value v into the field f at q.
func (d *dec) setField(f *field, q unsafe.Pointer, v []byte) {
	switch f.kind {
	case kInt64Ptr, kFloatPtr, kBoolPtr, kEmpty, kIDPtr, kPtr:
		// Pointer members, prepared at one place as encoding/json does
		// (jsonscan.Ptr): null sets nil, otherwise the pointer is
		// allocated when nil and its target decoded below.
		p := (*unsafe.Pointer)(q)
		if jsonscan.IsNullLiteral(v) {
			*p = nil
			return
		}
		if *p == nil {
			switch f.kind {
			case kInt64Ptr:
				*p = unsafe.Pointer(new(int64))
			case kFloatPtr:
				*p = unsafe.Pointer(new(float64))
			case kBoolPtr:
				*p = unsafe.Pointer(new(bool))
			case kEmpty:
				*p = unsafe.Pointer(new(struct{}))
			case kIDPtr:
				*p = unsafe.Pointer(new(jsonrpc.ID))
			default:
				*p = f.sub.alloc()
			}
		}
		q = *p
	}
	switch f.kind {
	case kString:
		d.String(v, (*string)(q))
	case kBool, kBoolPtr:
		d.Bool(v, (*bool)(q))
	case kInt64, kInt64Ptr:
		d.Int64(v, (*int64)(q))
	case kFloat, kFloatPtr:
		d.Float64(v, (*float64)(q))
	case kRaw:
		d.Raw(v, (*[]byte)(q))
	case kMeta:
		d.AnyMap(v, (*map[string]any)(q), "core.Meta")
	case kMap:
		d.AnyMap(v, (*map[string]any)(q), "map[string]interface {}")
	case kAny:
		d.Any(v, (*any)(q))
	case kStrings:
		d.Strings(v, (*[]string)(q))
	case kEmpty:
		d.decodeStruct(v, emptyT, nil)
	case kStruct, kPtr:
		d.decodeStruct(v, f.sub, q)
	case kPtrs:
		d.ptrs((*[]unsafe.Pointer)(q), v, f.sub, f.styp)
	case kContents:
		d.ptrs((*[]unsafe.Pointer)(q), v, &contentT, f.styp)
	case kRawAlias:
		*(*[]byte)(q) = v
	case kDefaults:
		d.defaults((*map[string]RawMessage)(q), v)
	case kIcons:
		decodeIcons(d, v, (*[]Icon)(q))
	case kID, kIDPtr:
		d.id((*jsonrpc.ID)(q), v)
	case kContentList:
		decodeContentList(d, v, (*ContentList)(q))
	case kInputRequests:
		decodeInputRequests(d, v, (*map[string]*InputRequest)(q))
	}
}

// ptrs decodes a JSON array into a []*T (as []unsafe.Pointer, the same
// layout) of the struct type st; styp names the slice type in errors.
func (d *dec) ptrs(p *[]unsafe.Pointer, v []byte, st *structType, styp string) {
	if jsonscan.IsNullLiteral(v) {
		*p = nil
		return
	}
	out := (*p)[:0]
	if out == nil {
		out = make([]unsafe.Pointer, 0, 1)
	}
	if d.Array(v, styp, func(e []byte) {
		var x unsafe.Pointer
		if !jsonscan.IsNullLiteral(e) {
			x = st.alloc()
			d.decodeStruct(e, st, x)
		}
		out = append(out, x)
	}) {
		*p = out
	}
}

// emptyT is struct{}: members are skipped, another kind is an error.
var emptyT = &structType{typ: "struct {}"}

func decodeIcons(d *dec, v []byte, p *[]Icon) {
	if jsonscan.IsNullLiteral(v) {
		*p = nil
		return
	}
	out := (*p)[:0]
	if out == nil {
		out = []Icon{}
	}
	if d.Array(v, "[]core.Icon", func(e []byte) {
		var ic Icon
		d.decodeStruct(e, &iconT, unsafe.Pointer(&ic))
		out = append(out, ic)
	}) {
		*p = out
	}
}

// decodeContentList is ContentList.UnmarshalJSON: an array of blocks, or
// one block (null: one empty block); its errors stop the decoding.
func decodeContentList(d *dec, v []byte, p *ContentList) {
	sub := newDec()
	if len(v) > 0 && v[0] == '[' {
		var list []*Content
		sub.ptrs((*[]unsafe.Pointer)(unsafe.Pointer(&list)), v, &contentT, "[]*core.Content")
		if sub.Err != nil {
			d.FailSelf(sub.Err)
			return
		}
		*p = list
		return
	}
	one := new(Content)
	sub.decodeStruct(v, &contentT, unsafe.Pointer(one))
	if sub.Err != nil {
		d.FailSelf(sub.Err)
		return
	}
	*p = ContentList{one}
}

// decodeInputRequests decodes a map[string]*InputRequest member.
func decodeInputRequests(d *dec, v []byte, p *map[string]*InputRequest) {
	if jsonscan.IsNullLiteral(v) {
		*p = nil
		return
	}
	ms, ok, _ := d.Object(v, "map[string]*core.InputRequest") // valid: no error
	if !ok {
		return
	}
	if *p == nil {
		*p = map[string]*InputRequest{}
	}
	m := *p
	for _, mb := range ms {
		if jsonscan.IsNullLiteral(mb.Val) {
			m[mb.Key] = nil
			continue
		}
		r := new(InputRequest) // a map element is decoded fresh
		d.decodeStruct(mb.Val, &inputReqT, unsafe.Pointer(r))
		m[mb.Key] = r
	}
}

// id decodes a jsonrpc.ID member (its UnmarshalJSON).
func (d *dec) id(p *jsonrpc.ID, v []byte) {
	if err := p.UnmarshalJSON(v); err != nil {
		d.FailSelf(err)
	}
}

// decodeAs is json.Unmarshal of data into the struct of type st at p.
func decodeAs(data []byte, st *structType, p unsafe.Pointer) error {
	if err := jsonscan.CheckDocument(data); err != nil {
		return err
	}
	d := newDec()
	d.decodeStruct(jsonscan.TrimSpace(data), st, p)
	return d.Err
}

func decodeInitializeResult(data []byte, r *InitializeResult) error {
	return decodeAs(data, &initResultT, unsafe.Pointer(r))
}

func decodeDiscoverResult(data []byte, r *DiscoverResult) error {
	return decodeAs(data, &discoverT, unsafe.Pointer(r))
}

func decodeListToolsResult(data []byte, r *ListToolsResult) error {
	return decodeAs(data, &listToolsT, unsafe.Pointer(r))
}

// decodeCallToolResult decodes a tools/call result the session took from a
// message it decoded, so valid JSON: without decodeAs's syntax pass, which
// on a large result is a second walk of every byte.
func decodeCallToolResult(data []byte, r *CallToolResult, memo *metaMemo) error {
	data = jsonscan.TrimSpace(data)
	if len(data) == 0 {
		return jsonscan.ErrEmpty
	}
	d := newDec()
	if memo != nil {
		// The result's own _meta only: a content block's may differ from
		// block to block, and would push the result's out of the memo.
		d.memo, d.memoIn = memo, &callResultT
	}
	d.decodeStruct(data, &callResultT, unsafe.Pointer(r))
	return d.Err
}

func decodeWireTaskJSON(data []byte, w *wireTask) error {
	return decodeAs(data, &wireTaskT, unsafe.Pointer(w))
}

func decodeInputRequired(data []byte, r *inputRequiredResult) error {
	return decodeAs(data, &inputRequiredT, unsafe.Pointer(r))
}

func decodeToolEntry(data []byte) (*toolEntry, error) {
	t := &toolEntry{}
	return t, decodeAs(data, &toolEntryT, unsafe.Pointer(t))
}

// decodeImplementationPtr decodes an *Implementation member.
func decodeImplementationPtr(d *dec, v []byte, p **Implementation) {
	f := field{kind: kPtr, sub: &implT}
	d.setField(&f, unsafe.Pointer(p), v)
}

// decodeParamsOf is json.Unmarshal of a server request's or a
// notification's params into one of the params types the session reads.
func decodeParamsOf(data []byte, v any) error {
	var st *structType
	var p unsafe.Pointer
	switch x := v.(type) {
	case *ElicitParams:
		st, p = &elicitParamsT, unsafe.Pointer(x)
	case *CreateMessageParams:
		st, p = &createMsgT, unsafe.Pointer(x)
	case *ListRootsParams:
		st, p = &listRootsT, unsafe.Pointer(x)
	case *ProgressParams:
		st, p = &progressT, unsafe.Pointer(x)
	case *CancelledParams:
		st, p = &cancelledT, unsafe.Pointer(x)
	case *AcknowledgedParams:
		st, p = &ackT, unsafe.Pointer(x)
	case *ResourceUpdatedParams:
		st, p = &resUpdatedT, unsafe.Pointer(x)
	case *LoggingMessageParams:
		st, p = &loggingT, unsafe.Pointer(x)
	case *ElicitationCompleteParams:
		st, p = &elicitCompleteT, unsafe.Pointer(x)
	case *notificationEnvelope:
		st, p = &envT, unsafe.Pointer(x)
	case *taskCreatedWire:
		st, p = &taskCreatedT, unsafe.Pointer(x)
	case *listTasksWire:
		st, p = &listTasksT, unsafe.Pointer(x)
	case *urlElicitationData:
		st, p = &urlElicitT, unsafe.Pointer(x)
	default:
		panic("core: decodeParamsOf: unexpected type")
	}
	return decodeAs(data, st, p)
}

// decodeTypedResult is json.Unmarshal of the result of one of the typed
// request methods into *v.
func decodeTypedResult(data []byte, v any) error {
	var st *structType
	var p unsafe.Pointer
	switch x := v.(type) {
	case *DiscoverResult:
		st, p = &discoverT, unsafe.Pointer(x)
	case *ListResourcesResult:
		st, p = &listResT, unsafe.Pointer(x)
	case *ListResourceTemplatesResult:
		st, p = &listTmplT, unsafe.Pointer(x)
	case *ReadResourceResult:
		st, p = &readResT, unsafe.Pointer(x)
	case *ListPromptsResult:
		st, p = &listPromptsT, unsafe.Pointer(x)
	case *GetPromptResult:
		st, p = &getPromptT, unsafe.Pointer(x)
	case *CompleteResult:
		st, p = &completeT, unsafe.Pointer(x)
	default:
		panic("core: decodeTypedResult: unexpected type")
	}
	return decodeAs(data, st, p)
}

// defaults decodes properties (a map of objects) into their default
// members, as encoding/json into a map[string]struct{ Default
// json.RawMessage } would.
func (d *dec) defaults(p *map[string]RawMessage, v []byte) {
	if jsonscan.IsNullLiteral(v) {
		*p = nil
		return
	}
	ms, ok, _ := d.Object(v, `map[string]struct { Default json.RawMessage "json:\"default\"" }`)
	if !ok {
		return
	}
	if *p == nil {
		*p = map[string]RawMessage{}
	}
	m := *p
	for _, mb := range ms {
		var def RawMessage
		d.decodeStruct(mb.Val, &propertyT, unsafe.Pointer(&def))
		m[mb.Key] = def
	}
}

// decodeShape is json.Unmarshal of data into one of the small shapes of
// wiretables.go.
func decodeShape(data []byte, v any) error {
	var st *structType
	var p unsafe.Pointer
	switch x := v.(type) {
	case *serverInfoMeta:
		st, p = &serverInfoMetaT, unsafe.Pointer(x)
	case *outputCheck:
		st, p = &outputCheckT, unsafe.Pointer(x)
	case *taskSupport:
		st, p = &taskSupportT, unsafe.Pointer(x)
	case *tasksList:
		st, p = &tasksListT, unsafe.Pointer(x)
	case *tasksToolCall:
		st, p = &tasksToolCallT, unsafe.Pointer(x)
	case *supportedVersions:
		st, p = &supportedT, unsafe.Pointer(x)
	case *schemaDefaultsWire:
		st, p = &schemaDefaultsT, unsafe.Pointer(x)
	default:
		panic("core: decodeShape: unexpected type")
	}
	return decodeAs(data, st, p)
}

// metaMemo keeps the last result _meta a session decoded. A modern server
// repeats its _meta in every result (its serverInfo, at least): a copy of
// the maps decoded before costs a fraction of decoding them again — no
// string is unquoted or boxed again (the leaves are shared: strings,
// numbers and booleans do not change), only the maps and slices are new,
// so a caller that changes its result's Meta changes no other result's.
// Natively that was ≈ 10 of a modern tools/call's allocations. It is safe
// for concurrent use.
type metaMemo struct{ last atomic.Pointer[metaEntry] }

// metaEntry is one memoised _meta: its bytes as they came, and its value
// (never handed out: copies of it are).
type metaEntry struct {
	raw []byte
	m   map[string]any
}

// maxMemoMeta bounds the _meta objects a session keeps.
const maxMemoMeta = 4 << 10

// memoMeta decodes the _meta object v into *p (nil) through d.memo.
func (d *dec) memoMeta(v []byte, p *map[string]any) {
	if e := d.memo.last.Load(); e != nil && string(e.raw) == string(v) {
		*p = copyAnyMap(e.m)
		return
	}
	before := d.Err
	d.AnyMap(v, p, "core.Meta")
	if d.Err == before && *p != nil && len(v) <= maxMemoMeta {
		d.memo.last.Store(&metaEntry{raw: append([]byte(nil), v...), m: copyAnyMap(*p)})
	}
}

// copyAnyMap is a copy of m, a decoded JSON object, with new maps and
// slices at every level and the same leaves.
func copyAnyMap(m map[string]any) map[string]any {
	c := make(map[string]any, len(m))
	for k, x := range m {
		c[k] = copyAny(x)
	}
	return c
}

func copyAny(x any) any {
	switch v := x.(type) {
	case map[string]any:
		return copyAnyMap(v)
	case []any:
		c := make([]any, len(v))
		for i, e := range v {
			c[i] = copyAny(e)
		}
		return c
	}
	return x
}
