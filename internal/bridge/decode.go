package bridge

import (
	"errors"
	"io"
	"strconv"
	"strings"
	"unsafe"

	"github.com/mcpwasm/mcpwasm/core"
	"github.com/mcpwasm/mcpwasm/internal/errf"
	"github.com/mcpwasm/mcpwasm/internal/jsonscan"
)

// The schema's objects are decoded member by member without reflection
// (the GOOS=js and wasip1 modules link neither encoding/json nor reflect's
// heavy parts; docs/size.md). The decoder keeps what encoding/json's
// Decoder with DisallowUnknownFields did, messages included, since hosts
// show them to users: names match exactly, then case-insensitively; an
// unknown member or a value of the wrong kind is remembered and reported
// once the whole object is read (the first one in document order); a
// duration that is not a number stops decoding at once; null leaves a
// scalar alone and clears a pointer, slice or map; a repeated member
// overrides (objects and maps merge).

// Decodable is a schema object that decodes itself with a [Decoder]: the
// argument of [Decode].
type Decodable interface {
	// DecodeSchema decodes the JSON value val (the whole document's
	// first value) into the receiver.
	DecodeSchema(d *Decoder, val []byte) error
}

// Decoder holds the state of one strict decoding: the first deferred
// error and where in the document the decoder is (for messages). Its
// state and primitives (String, Bool, Int, Int64, Strings, Raw, Any,
// AnyMap, Wrong...) are jsonscan.Decoder's, which core's decoder shares.
type Decoder struct {
	jsonscan.Decoder
	// Lenient ignores unknown members, as encoding/json's Unmarshal
	// does without DisallowUnknownFields.
	Lenient bool
}

func isNull(val []byte) bool { return jsonscan.IsNullLiteral(val) }

// noCompare, a first field of zero size, makes a struct type not
// comparable: the module then carries no equality function for it (its
// type descriptor is linked because values are allocated or boxed, and a
// comparable struct's descriptor brings one, several hundred bytes of
// WebAssembly each).
type noCompare [0]func()

// Millis decodes a duration member: null clears it, anything but a
// finite number stops the decoding ([Millis.UnmarshalJSON]).
func (d *Decoder) Millis(val []byte, p **Millis) error {
	if m := jsonscan.Ptr(val, p); m != nil {
		return m.UnmarshalJSON(val)
	}
	return nil
}

// StringMap decodes an object of strings into a map[string]string,
// merging into an existing one; null clears it.
func (d *Decoder) StringMap(val []byte, p *map[string]string) error {
	if isNull(val) {
		*p = nil
		return nil
	}
	ms, ok, err := d.Object(val, "map[string]string")
	if !ok {
		return err
	}
	if *p == nil {
		*p = make(map[string]string, len(ms))
	}
	for _, m := range ms {
		var s string
		d.String(jsonscan.TrimSpace(m.Val), &s)
		(*p)[m.Key] = s
	}
	return nil
}

// StringsMap decodes an object of string arrays (HTTP headers) into a
// map[string][]string, merging into an existing one; null clears it.
func (d *Decoder) StringsMap(val []byte, p *map[string][]string) error {
	if isNull(val) {
		*p = nil
		return nil
	}
	ms, ok, err := d.Object(val, "map[string][]string")
	if !ok {
		return err
	}
	if *p == nil {
		*p = make(map[string][]string, len(ms))
	}
	for _, m := range ms {
		var ss []string
		if v := jsonscan.TrimSpace(m.Val); isNull(v) || v[0] == '[' {
			d.Strings(v, &ss)
		} else {
			d.Wrong(v, "[]string")
			continue
		}
		(*p)[m.Key] = ss
	}
	return nil
}

// Empty decodes a *struct{} member: an object without members.
func (d *Decoder) Empty(val []byte, p **struct{}) error {
	if jsonscan.Ptr(val, p) == nil {
		return nil
	}
	return d.DecodeObject(val, &emptyObj, nil)
}

var emptyObj = Object{Type: "struct {}"}

// ErrTrailing is DecodeStrict's error for data after the JSON object.
var ErrTrailing = errors.New("trailing data after the JSON object")

// Decode decodes one JSON object of the schema into v strictly: unknown
// members (a misspelt option) and trailing data are refused with a
// *ConfigError naming what.
func Decode(b []byte, v Decodable, what string) error {
	if err := decodeTop(b, v); err != nil {
		if err == ErrTrailing {
			return invalidf("%s: trailing data after the JSON object", what)
		}
		return invalidf("%s: %s", what, err.Error())
	}
	return nil
}

// DecodeStrict is Decode without the *ConfigError: the error is
// encoding/json's text, or ErrTrailing.
func DecodeStrict(b []byte, v Decodable) error { return decodeTop(b, v) }

// decodeTop reads the document's first value into v and then refuses
// anything after it, in encoding/json's Decoder's order: a syntax error in
// the first value, then a decoding error, then trailing data.
func decodeTop(b []byte, v Decodable) error {
	i := jsonscan.SkipSpace(b, 0)
	if i == len(b) {
		return io.EOF
	}
	end, trailing := len(b), false
	if serr := jsonscan.SyntaxError(b[i:]); serr != nil {
		var je *jsonscan.Error
		if !errf.As(serr, &je) || !strings.HasSuffix(je.Msg, " after top-level value") {
			return jsonscan.StdError(b[i:], serr, true)
		}
		trailing = true
		end = i + je.Offset
	}
	d := &Decoder{}
	if err := v.DecodeSchema(d, jsonscan.TrimSpace(b[i:end])); err != nil {
		return err
	}
	if d.Err != nil {
		return d.Err
	}
	if trailing {
		return ErrTrailing
	}
	return nil
}

// Unmarshal decodes the JSON document b leniently (unknown members
// ignored), with encoding/json's Unmarshal's messages.
func Unmarshal(b []byte, v Decodable) error {
	if serr := jsonscan.SyntaxError(b); serr != nil {
		return jsonscan.StdError(b, serr, false)
	}
	d := &Decoder{Lenient: true}
	if err := v.DecodeSchema(d, jsonscan.TrimSpace(b)); err != nil {
		return err
	}
	return d.Err
}

// The schema's own objects are described by tables (member name, kind,
// field offset), read by one routine ([Decoder.DecodeObject]): code per
// member and per object cost far more bytes in the WebAssembly modules
// than the tables (docs/size.md), as in core's wire codec. The hosts'
// own objects (the WASI ABI's) are tables too.

// Kind says how an [ObjectMember] decodes and what Go type its field has.
type Kind uint8

// Member kinds.
const (
	KString    Kind = iota // string
	KBool                  // bool
	KInt                   // int
	KInt64                 // int64
	KMillis                // *Millis
	KStrings               // []string
	KStringMap             // map[string]string
	KAnyMap                // map[string]any
	KMeta                  // core.Meta
	KAny                   // any
	KRaw                   // json.RawMessage
	KEmpty                 // *struct{}
	KStruct                // a struct value (Sub)
	KPtr                   // *T (Sub; its Alloc makes a T)
	KCustom                // decoded by Custom (kinds only one host needs stay out of the other module)
	kRoots                 // []*core.Root
	kIcons                 // []core.Icon
)

// KEmbedded, or'd into a member's kind, says that the member belongs to
// the embedded struct Sub (encoding/json's messages name its field).
const KEmbedded Kind = 0x80

// ObjectMember is one member of an [Object]: its JSON name, its kind and
// the offset of its field.
type ObjectMember struct {
	_    noCompare
	Name string
	Kind Kind
	Off  uintptr
	// Sub is the struct type of a KStruct or KPtr member, the object
	// whose Decode decodes a KCustom member, and for a member of an
	// embedded struct (Kind|KEmbedded) the embedded struct, whose Struct
	// names the field in messages.
	Sub *Object
}

// Object describes a struct type of the schema for
// [Decoder.DecodeObject]: its Go name and type in messages, its members,
// and (for KPtr members) how to allocate one. Tables are static data,
// never written.
type Object struct {
	_       noCompare
	Struct  string // Go name in messages ("" for anonymous structs)
	Type    string // Go type in messages
	Members []ObjectMember
	Alloc   func() unsafe.Pointer
	// Decode decodes the value of a KCustom member into its field at q.
	Decode func(d *Decoder, val []byte, q unsafe.Pointer) error
}

// DecodeObject decodes the JSON object val into the struct of type o at
// p (names matched exactly, then case-insensitively;
// unknown members deferred errors unless Lenient; a member's own error
// stops the decoding; null sets nothing).
func (d *Decoder) DecodeObject(val []byte, o *Object, p unsafe.Pointer) error {
	if isNull(val) {
		return nil
	}
	ms, ok, err := d.Object(val, o.Type)
	if !ok {
		return err
	}
	for _, m := range ms {
		f := o.member(m.Key)
		if f == nil {
			if !d.Lenient {
				d.Fail(errors.New("json: unknown field " + strconv.Quote(m.Key)))
			}
			continue
		}
		via := ""
		if f.Kind&KEmbedded != 0 {
			via = f.Sub.Struct
		}
		outer, depth := d.Enter(o.Struct, via, f.Name)
		if err := d.objectMember(jsonscan.TrimSpace(m.Val), f, unsafe.Add(p, f.Off)); err != nil {
			return err
		}
		d.Leave(outer, depth)
	}
	return nil
}

// member returns the member key names, exactly or else
// case-insensitively, or nil.
func (o *Object) member(key string) *ObjectMember {
	for i := range o.Members {
		if o.Members[i].Name == key {
			return &o.Members[i]
		}
	}
	for i := range o.Members {
		if strings.EqualFold(o.Members[i].Name, key) {
			return &o.Members[i]
		}
	}
	return nil
}

// objectMember decodes val into the field f at q.
func (d *Decoder) objectMember(val []byte, f *ObjectMember, q unsafe.Pointer) error {
	switch f.Kind &^ KEmbedded {
	case KString:
		d.String(val, (*string)(q))
	case KBool:
		d.Bool(val, (*bool)(q))
	case KInt:
		d.Int(val, (*int)(q))
	case KInt64:
		d.Int64(val, (*int64)(q))
	case KMillis:
		return d.Millis(val, (**Millis)(q))
	case KStrings:
		d.Strings(val, (*[]string)(q))
	case KStringMap:
		return d.StringMap(val, (*map[string]string)(q))
	case KAnyMap:
		d.AnyMap(val, (*map[string]any)(q), "map[string]interface {}")
	case KMeta:
		d.AnyMap(val, (*map[string]any)(q), "core.Meta")
	case KAny:
		d.Any(val, (*any)(q))
	case KRaw:
		d.Raw(val, (*[]byte)(q))
	case KEmpty:
		return d.Empty(val, (**struct{})(q))
	case KStruct:
		return d.DecodeObject(val, f.Sub, q)
	case KPtr:
		p := (*unsafe.Pointer)(q)
		if isNull(val) {
			*p = nil
			return nil
		}
		if *p == nil {
			*p = f.Sub.Alloc()
		}
		return d.DecodeObject(val, f.Sub, *p)
	case KCustom:
		return f.Sub.Decode(d, val, q)
	case kRoots:
		return decodeRoots(d, val, (*[]*core.Root)(q))
	case kIcons:
		return decodeIcons(d, val, (*[]core.Icon)(q))
	}
	return nil
}

// decodeAs is a Decodable: the struct of type o at p.
type decodeAs struct {
	o *Object
	p unsafe.Pointer
}

func (a decodeAs) DecodeSchema(d *Decoder, val []byte) error { return d.DecodeObject(val, a.o, a.p) }

var clientConfigObj = Object{Struct: "ClientConfig", Type: "bridge.ClientConfig", Members: []ObjectMember{
	{Name: "clientInfo", Kind: KPtr, Off: unsafe.Offsetof(ClientConfig{}.ClientInfo), Sub: &implementationObj},
	{Name: "protocolVersions", Kind: KStrings, Off: unsafe.Offsetof(ClientConfig{}.ProtocolVersions)},
	{Name: "capabilities", Kind: KPtr, Off: unsafe.Offsetof(ClientConfig{}.Capabilities), Sub: &clientCapabilitiesObj},
	{Name: "handlers", Kind: KStruct, Off: unsafe.Offsetof(ClientConfig{}.Handlers), Sub: &handlersObj},
	{Name: "samplingTools", Kind: KBool, Off: unsafe.Offsetof(ClientConfig{}.SamplingTools)},
	{Name: "elicitationModes", Kind: KStrings, Off: unsafe.Offsetof(ClientConfig{}.ElicitationModes)},
	{Name: "noElicitationDefaults", Kind: KBool, Off: unsafe.Offsetof(ClientConfig{}.NoElicitationDefaults)},
	{Name: "roots", Kind: kRoots, Off: unsafe.Offsetof(ClientConfig{}.Roots)},
	{Name: "notifications", Kind: KStrings, Off: unsafe.Offsetof(ClientConfig{}.Notifications)},
	{Name: "messages", Kind: KBool, Off: unsafe.Offsetof(ClientConfig{}.Messages)},
	{Name: "logLevel", Kind: KString, Off: unsafe.Offsetof(ClientConfig{}.LogLevel)},
	{Name: "requestTimeoutMs", Kind: KMillis, Off: unsafe.Offsetof(ClientConfig{}.RequestTimeoutMs)},
	{Name: "maxTotalTimeoutMs", Kind: KMillis, Off: unsafe.Offsetof(ClientConfig{}.MaxTotalTimeoutMs)},
	{Name: "probeTimeoutMs", Kind: KMillis, Off: unsafe.Offsetof(ClientConfig{}.ProbeTimeoutMs)},
	{Name: "maxInputRounds", Kind: KInt, Off: unsafe.Offsetof(ClientConfig{}.MaxInputRounds)},
	{Name: "disableCache", Kind: KBool, Off: unsafe.Offsetof(ClientConfig{}.DisableCache)},
	{Name: "disableOutputValidation", Kind: KBool, Off: unsafe.Offsetof(ClientConfig{}.DisableOutputValidation)},
	{Name: "retry", Kind: KPtr, Off: unsafe.Offsetof(ClientConfig{}.Retry), Sub: &retryObj},
	{Name: "keepAliveMs", Kind: KMillis, Off: unsafe.Offsetof(ClientConfig{}.KeepAliveMs)},
	{Name: "maxQueuedNotifications", Kind: KInt, Off: unsafe.Offsetof(ClientConfig{}.MaxQueuedNotifications)},
	{Name: "maxServerRequests", Kind: KInt, Off: unsafe.Offsetof(ClientConfig{}.MaxServerRequests)},
	{Name: "tasks", Kind: KBool, Off: unsafe.Offsetof(ClientConfig{}.Tasks)},
}}

// DecodeSchema decodes c strictly.
func (c *ClientConfig) DecodeSchema(d *Decoder, val []byte) error {
	return d.DecodeObject(val, &clientConfigObj, unsafe.Pointer(c))
}

var handlersObj = Object{Struct: "Handlers", Type: "bridge.Handlers", Members: []ObjectMember{
	{Name: "sampling", Kind: KBool, Off: unsafe.Offsetof(Handlers{}.Sampling)},
	{Name: "elicitation", Kind: KBool, Off: unsafe.Offsetof(Handlers{}.Elicitation)},
	{Name: "roots", Kind: KBool, Off: unsafe.Offsetof(Handlers{}.Roots)},
}}

var retryObj = Object{Struct: "RetryConfig", Type: "bridge.RetryConfig", Alloc: func() unsafe.Pointer { return unsafe.Pointer(new(RetryConfig)) }, Members: []ObjectMember{
	{Name: "attempts", Kind: KInt, Off: unsafe.Offsetof(RetryConfig{}.Attempts)},
	{Name: "delayMs", Kind: KMillis, Off: unsafe.Offsetof(RetryConfig{}.DelayMs)},
	{Name: "maxDelayMs", Kind: KMillis, Off: unsafe.Offsetof(RetryConfig{}.MaxDelayMs)},
}}

var implementationObj = Object{Struct: "Implementation", Type: "core.Implementation", Alloc: func() unsafe.Pointer { return unsafe.Pointer(new(core.Implementation)) }, Members: []ObjectMember{
	{Name: "name", Kind: KString, Off: unsafe.Offsetof(core.Implementation{}.Name)},
	{Name: "title", Kind: KString, Off: unsafe.Offsetof(core.Implementation{}.Title)},
	{Name: "version", Kind: KString, Off: unsafe.Offsetof(core.Implementation{}.Version)},
	{Name: "description", Kind: KString, Off: unsafe.Offsetof(core.Implementation{}.Description)},
	{Name: "websiteUrl", Kind: KString, Off: unsafe.Offsetof(core.Implementation{}.WebsiteURL)},
	{Name: "icons", Kind: kIcons, Off: unsafe.Offsetof(core.Implementation{}.Icons)},
}}

var iconObj = Object{Struct: "Icon", Type: "core.Icon", Members: []ObjectMember{
	{Name: "src", Kind: KString, Off: unsafe.Offsetof(core.Icon{}.Src)},
	{Name: "mimeType", Kind: KString, Off: unsafe.Offsetof(core.Icon{}.MimeType)},
	{Name: "sizes", Kind: KStrings, Off: unsafe.Offsetof(core.Icon{}.Sizes)},
	{Name: "theme", Kind: KString, Off: unsafe.Offsetof(core.Icon{}.Theme)},
}}

func decodeIcons(d *Decoder, val []byte, p *[]core.Icon) error {
	if isNull(val) {
		*p = nil
		return nil
	}
	if val[0] != '[' {
		d.Wrong(val, "[]core.Icon")
		return nil
	}
	items, _ := jsonscan.Elements(val)
	out := make([]core.Icon, len(items))
	for i, it := range items {
		if err := d.DecodeObject(jsonscan.TrimSpace(it), &iconObj, unsafe.Pointer(&out[i])); err != nil {
			return err
		}
	}
	*p = out
	return nil
}

var rootObj = Object{Struct: "Root", Type: "core.Root", Members: []ObjectMember{
	{Name: "uri", Kind: KString, Off: unsafe.Offsetof(core.Root{}.URI)},
	{Name: "name", Kind: KString, Off: unsafe.Offsetof(core.Root{}.Name)},
	{Name: "_meta", Kind: KMeta, Off: unsafe.Offsetof(core.Root{}.Meta)},
}}

func decodeRoots(d *Decoder, val []byte, p *[]*core.Root) error {
	if isNull(val) {
		*p = nil
		return nil
	}
	if val[0] != '[' {
		d.Wrong(val, "[]*core.Root")
		return nil
	}
	items, _ := jsonscan.Elements(val)
	out := make([]*core.Root, len(items))
	for i, it := range items {
		if v := jsonscan.TrimSpace(it); !isNull(v) {
			out[i] = new(core.Root)
			if err := d.DecodeObject(v, &rootObj, unsafe.Pointer(out[i])); err != nil {
				return err
			}
		}
	}
	*p = out
	return nil
}

var clientCapabilitiesObj = Object{Struct: "ClientCapabilities", Type: "core.ClientCapabilities", Alloc: func() unsafe.Pointer { return unsafe.Pointer(new(core.ClientCapabilities)) }, Members: []ObjectMember{
	{Name: "experimental", Kind: KAnyMap, Off: unsafe.Offsetof(core.ClientCapabilities{}.Experimental)},
	{Name: "extensions", Kind: KAnyMap, Off: unsafe.Offsetof(core.ClientCapabilities{}.Extensions)},
	{Name: "roots", Kind: KPtr, Off: unsafe.Offsetof(core.ClientCapabilities{}.Roots), Sub: &rootsCapabilityObj},
	{Name: "sampling", Kind: KPtr, Off: unsafe.Offsetof(core.ClientCapabilities{}.Sampling), Sub: &samplingCapabilityObj},
	{Name: "elicitation", Kind: KPtr, Off: unsafe.Offsetof(core.ClientCapabilities{}.Elicitation), Sub: &elicitationCapabilityObj},
	{Name: "tasks", Kind: KRaw, Off: unsafe.Offsetof(core.ClientCapabilities{}.Tasks)},
}}

var rootsCapabilityObj = Object{Struct: "RootsCapability", Type: "core.RootsCapability", Alloc: func() unsafe.Pointer { return unsafe.Pointer(new(core.RootsCapability)) }, Members: []ObjectMember{
	{Name: "listChanged", Kind: KBool, Off: unsafe.Offsetof(core.RootsCapability{}.ListChanged)},
}}

var samplingCapabilityObj = Object{Struct: "SamplingCapability", Type: "core.SamplingCapability", Alloc: func() unsafe.Pointer { return unsafe.Pointer(new(core.SamplingCapability)) }, Members: []ObjectMember{
	{Name: "context", Kind: KEmpty, Off: unsafe.Offsetof(core.SamplingCapability{}.Context)},
	{Name: "tools", Kind: KEmpty, Off: unsafe.Offsetof(core.SamplingCapability{}.Tools)},
}}

var elicitationCapabilityObj = Object{Struct: "ElicitationCapability", Type: "core.ElicitationCapability", Alloc: func() unsafe.Pointer { return unsafe.Pointer(new(core.ElicitationCapability)) }, Members: []ObjectMember{
	{Name: "form", Kind: KPtr, Off: unsafe.Offsetof(core.ElicitationCapability{}.Form), Sub: &formElicitationObj},
	{Name: "url", Kind: KEmpty, Off: unsafe.Offsetof(core.ElicitationCapability{}.URL)},
}}

var formElicitationObj = Object{Struct: "FormElicitationCapability", Type: "core.FormElicitationCapability", Alloc: func() unsafe.Pointer { return unsafe.Pointer(new(core.FormElicitationCapability)) }, Members: []ObjectMember{
	{Name: "applyDefaults", Kind: KBool, Off: unsafe.Offsetof(core.FormElicitationCapability{}.ApplyDefaults)},
}}

var connectConfigObj = Object{Struct: "ConnectConfig", Type: "bridge.ConnectConfig", Members: []ObjectMember{
	{Name: "url", Kind: KString, Off: unsafe.Offsetof(ConnectConfig{}.URL)},
	{Name: "transport", Kind: KString, Off: unsafe.Offsetof(ConnectConfig{}.Transport)},
	{Name: "protocolVersions", Kind: KStrings, Off: unsafe.Offsetof(ConnectConfig{}.ProtocolVersions)},
	{Name: "headers", Kind: KStringMap, Off: unsafe.Offsetof(ConnectConfig{}.Headers)},
	{Name: "maxMessageSize", Kind: KInt, Off: unsafe.Offsetof(ConnectConfig{}.MaxMessageSize)},
	{Name: "retryMs", Kind: KMillis, Off: unsafe.Offsetof(ConnectConfig{}.RetryMs)},
	{Name: "maxReconnects", Kind: KInt, Off: unsafe.Offsetof(ConnectConfig{}.MaxReconnects)},
	{Name: "credentials", Kind: KString, Off: unsafe.Offsetof(ConnectConfig{}.Credentials)},
	{Name: "fetchMode", Kind: KString, Off: unsafe.Offsetof(ConnectConfig{}.FetchMode)},
	{Name: "auth", Kind: KPtr, Off: unsafe.Offsetof(ConnectConfig{}.Auth), Sub: &authConfigObj},
}}

// DecodeSchema decodes c strictly.
func (c *ConnectConfig) DecodeSchema(d *Decoder, val []byte) error {
	return d.DecodeObject(val, &connectConfigObj, unsafe.Pointer(c))
}

var authConfigObj = Object{Struct: "AuthConfig", Type: "bridge.AuthConfig", Alloc: func() unsafe.Pointer { return unsafe.Pointer(new(AuthConfig)) }, Members: []ObjectMember{
	{Name: "grant", Kind: KString, Off: unsafe.Offsetof(AuthConfig{}.Grant)},
	{Name: "userAgent", Kind: KString, Off: unsafe.Offsetof(AuthConfig{}.UserAgent)},
	{Name: "redirectUri", Kind: KString, Off: unsafe.Offsetof(AuthConfig{}.RedirectURI)},
	{Name: "callbackUrl", Kind: KString, Off: unsafe.Offsetof(AuthConfig{}.CallbackURL)},
	{Name: "clientId", Kind: KString, Off: unsafe.Offsetof(AuthConfig{}.ClientID)},
	{Name: "clientSecret", Kind: KString, Off: unsafe.Offsetof(AuthConfig{}.ClientSecret)},
	{Name: "authMethod", Kind: KString, Off: unsafe.Offsetof(AuthConfig{}.AuthMethod)},
	{Name: "issuer", Kind: KString, Off: unsafe.Offsetof(AuthConfig{}.Issuer)},
	{Name: "privateKeyPem", Kind: KString, Off: unsafe.Offsetof(AuthConfig{}.PrivateKeyPEM)},
	{Name: "clientMetadataUrl", Kind: KString, Off: unsafe.Offsetof(AuthConfig{}.ClientMetadataURL)},
	{Name: "clientName", Kind: KString, Off: unsafe.Offsetof(AuthConfig{}.ClientName)},
	{Name: "applicationType", Kind: KString, Off: unsafe.Offsetof(AuthConfig{}.ApplicationType)},
	{Name: "scopes", Kind: KStrings, Off: unsafe.Offsetof(AuthConfig{}.Scopes)},
	{Name: "noOfflineAccess", Kind: KBool, Off: unsafe.Offsetof(AuthConfig{}.NoOfflineAccess)},
	{Name: "dpop", Kind: KBool, Off: unsafe.Offsetof(AuthConfig{}.DPoP)},
	{Name: "dpopKeyPem", Kind: KString, Off: unsafe.Offsetof(AuthConfig{}.DPoPKeyPEM)},
	{Name: "assertion", Kind: KString, Off: unsafe.Offsetof(AuthConfig{}.Assertion)},
	{Name: "idjag", Kind: KPtr, Off: unsafe.Offsetof(AuthConfig{}.IDJAG), Sub: &idjagObj},
	{Name: "maxAuthorizations", Kind: KInt, Off: unsafe.Offsetof(AuthConfig{}.MaxAuthorizations)},
	{Name: "authorizationTimeoutMs", Kind: KMillis, Off: unsafe.Offsetof(AuthConfig{}.AuthorizationTimeoutMs)},
	{Name: "allowInsecureHttp", Kind: KBool, Off: unsafe.Offsetof(AuthConfig{}.AllowInsecureHTTP)},
	{Name: "allowPrivateAddresses", Kind: KBool, Off: unsafe.Offsetof(AuthConfig{}.AllowPrivateAddresses)},
	{Name: "store", Kind: KRaw, Off: unsafe.Offsetof(AuthConfig{}.Store)},
	{Name: "persist", Kind: KBool, Off: unsafe.Offsetof(AuthConfig{}.Persist)},
	{Name: "log", Kind: KBool, Off: unsafe.Offsetof(AuthConfig{}.Log)},
}}

var idjagObj = Object{Struct: "IDJAGConfig", Type: "bridge.IDJAGConfig", Alloc: func() unsafe.Pointer { return unsafe.Pointer(new(IDJAGConfig)) }, Members: []ObjectMember{
	{Name: "tokenEndpoint", Kind: KString, Off: unsafe.Offsetof(IDJAGConfig{}.TokenEndpoint)},
	{Name: "clientId", Kind: KString, Off: unsafe.Offsetof(IDJAGConfig{}.ClientID)},
	{Name: "clientSecret", Kind: KString, Off: unsafe.Offsetof(IDJAGConfig{}.ClientSecret)},
	{Name: "subjectToken", Kind: KString, Off: unsafe.Offsetof(IDJAGConfig{}.SubjectToken)},
	{Name: "subjectTokenType", Kind: KString, Off: unsafe.Offsetof(IDJAGConfig{}.SubjectTokenType)},
}}

var callOptionsObj = Object{Struct: "CallOptions", Type: "bridge.CallOptions", Members: []ObjectMember{
	{Name: "timeoutMs", Kind: KMillis, Off: unsafe.Offsetof(CallOptions{}.TimeoutMs)},
	{Name: "maxTotalTimeoutMs", Kind: KMillis, Off: unsafe.Offsetof(CallOptions{}.MaxTotalTimeoutMs)},
	{Name: "resetTimeoutOnProgress", Kind: KBool, Off: unsafe.Offsetof(CallOptions{}.ResetTimeoutOnProgress)},
	{Name: "noCache", Kind: KBool, Off: unsafe.Offsetof(CallOptions{}.NoCache)},
	{Name: "meta", Kind: KMeta, Off: unsafe.Offsetof(CallOptions{}.Meta)},
	{Name: "noTaskWait", Kind: KBool, Off: unsafe.Offsetof(CallOptions{}.NoTaskWait)},
	{Name: "progress", Kind: KBool, Off: unsafe.Offsetof(CallOptions{}.Progress)},
}}

// DecodeSchema decodes o strictly.
func (o *CallOptions) DecodeSchema(d *Decoder, val []byte) error {
	return d.DecodeObject(val, &callOptionsObj, unsafe.Pointer(o))
}

// ErrorObject describes an [Error] (a host's answer), for a KPtr member.
var ErrorObject = Object{Struct: "Error", Type: "bridge.Error", Alloc: func() unsafe.Pointer { return unsafe.Pointer(new(Error)) }, Members: []ObjectMember{
	{Name: "kind", Kind: KString, Off: unsafe.Offsetof(Error{}.Kind)},
	{Name: "code", Kind: KInt64, Off: unsafe.Offsetof(Error{}.Code)},
	{Name: "message", Kind: KString, Off: unsafe.Offsetof(Error{}.Message)},
	{Name: "data", Kind: KRaw, Off: unsafe.Offsetof(Error{}.Data)},
	{Name: "status", Kind: KInt, Off: unsafe.Offsetof(Error{}.Status)},
}}
