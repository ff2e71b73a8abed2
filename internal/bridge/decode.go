package bridge

import (
	"encoding/json"
	"errors"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/mcpwasm/mcpwasm/core"
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
// error and where in the document the decoder is (for messages).
type Decoder struct {
	saved error    // first unknown member or wrong kind
	strct string   // name of the innermost struct type being decoded
	path  []string // JSON names from the top to the current member
	// Lenient ignores unknown members, as encoding/json's Unmarshal
	// does without DisallowUnknownFields.
	Lenient bool
}

// save remembers err if it is the first deferred error.
func (d *Decoder) save(err error) {
	if d.saved == nil {
		d.saved = err
	}
}

// describe names a JSON value's kind as encoding/json's type errors do.
func describe(val []byte) string {
	switch val[0] {
	case '{':
		return "object"
	case '[':
		return "array"
	case '"':
		return "string"
	case 't', 'f':
		return "bool"
	}
	return "number"
}

// wrong records a value of the wrong kind for a Go type named typ.
func (d *Decoder) wrong(value, typ string) {
	if d.strct == "" && len(d.path) == 0 {
		d.save(errors.New("json: cannot unmarshal " + value + " into Go value of type " + typ))
		return
	}
	d.save(errors.New("json: cannot unmarshal " + value + " into Go struct field " + d.strct + "." + strings.Join(d.path, ".") + " of type " + typ))
}

// Wrong records a value of the wrong kind for the Go type typ where the
// decoder is (a deferred error, as Fields records them).
func (d *Decoder) Wrong(val []byte, typ string) { d.wrong(describe(val), typ) }

// IsNull reports whether the (trimmed) value val is null.
func IsNull(val []byte) bool { return isNull(val) }

func isNull(val []byte) bool { return len(val) == 4 && string(val) == "null" }

// Member decodes one member whose Go type [Decoder.Fields] does not
// know (a nested object, an embedded one).
type Member func(d *Decoder, val []byte) error

// Embedded is a member of an embedded struct field named Field:
// encoding/json's messages name that field in the path. Ptr is what
// Fields takes.
type Embedded struct {
	Field string
	Ptr   any
}

// Fields decodes the JSON object val, a struct named strct (Go type typ
// in messages) whose members are names (matched exactly, then
// case-insensitively) with the matching pointers in ptrs, one per name:
// *string, *bool, *int, *int64, **Millis, *[]string, *map[string]string,
// *map[string][]string, *map[string]any, *core.Meta, *any,
// *json.RawMessage, **struct{}, *time.Time, an [Embedded] or a [Member]. Unknown
// members are deferred errors (ignored when Lenient); a member's own
// error stops the decoding. Null is no error and sets nothing (the
// caller clears a pointer first).
func (d *Decoder) Fields(val []byte, strct, typ string, names []string, ptrs ...any) error {
	if isNull(val) {
		return nil
	}
	if val[0] != '{' {
		d.wrong(describe(val), typ)
		return nil
	}
	ms, err := jsonscan.SplitMembers(val)
	if err != nil {
		return err
	}
	outer, depth := d.strct, len(d.path)
	for _, m := range ms {
		k := canonical(m.Key, names)
		if k < 0 {
			if !d.Lenient {
				d.save(errors.New("json: unknown field " + strconv.Quote(m.Key)))
			}
			continue
		}
		d.strct, d.path = strct, append(d.path[:depth], names[k])
		if err := d.field(trim(m.Val), ptrs[k]); err != nil {
			return err
		}
		d.strct, d.path = outer, d.path[:depth]
	}
	return nil
}

// field decodes val into the member pointer p (see Fields).
func (d *Decoder) field(val []byte, p any) error {
	switch p := p.(type) {
	case *string:
		d.String(val, p)
	case *bool:
		d.Bool(val, p)
	case *int:
		d.Int(val, p)
	case *int64:
		d.Int64(val, p)
	case **Millis:
		return d.Millis(val, p)
	case *[]string:
		d.Strings(val, p)
	case *map[string]string:
		return d.StringMap(val, p)
	case *map[string][]string:
		return d.StringsMap(val, p)
	case *map[string]any:
		return d.AnyMap(val, p, "map[string]interface {}")
	case *core.Meta:
		return d.AnyMap(val, (*map[string]any)(p), "core.Meta")
	case *any:
		return d.Any(val, p)
	case *json.RawMessage:
		d.Raw(val, (*[]byte)(p))
	case **struct{}:
		return d.Empty(val, p)
	case *time.Time:
		// encoding/json calls time's UnmarshalJSON, null included
		return p.UnmarshalJSON(val)
	case Embedded:
		if n := len(d.path); n > 0 {
			last := d.path[n-1]
			d.path = append(d.path[:n-1], p.Field, last)
		}
		return d.field(val, p.Ptr)
	case Member:
		return p(d, val)
	default:
		panic("bridge: Fields: unsupported member type")
	}
	return nil
}

// canonical returns the index of the name in names key matches, exactly
// or else case-insensitively, or -1.
func canonical(key string, names []string) int {
	for i, n := range names {
		if n == key {
			return i
		}
	}
	for i, n := range names {
		if strings.EqualFold(n, key) {
			return i
		}
	}
	return -1
}

func trim(b []byte) []byte {
	i := jsonscan.SkipSpace(b, 0)
	j := len(b)
	for j > i && (b[j-1] == ' ' || b[j-1] == '\t' || b[j-1] == '\n' || b[j-1] == '\r') {
		j--
	}
	return b[i:j]
}

// String decodes a string member.
func (d *Decoder) String(val []byte, p *string) {
	if isNull(val) {
		return
	}
	if val[0] != '"' {
		d.wrong(describe(val), "string")
		return
	}
	s, err := jsonscan.Unquote(val)
	if err != nil {
		d.wrong("string", "string")
		return
	}
	*p = s
}

// Bool decodes a boolean member.
func (d *Decoder) Bool(val []byte, p *bool) {
	switch string(val) {
	case "null":
	case "true":
		*p = true
	case "false":
		*p = false
	default:
		d.wrong(describe(val), "bool")
	}
}

// Int decodes an integer member (a Go int).
func (d *Decoder) Int(val []byte, p *int) {
	if isNull(val) {
		return
	}
	if describe(val) != "number" {
		d.wrong(describe(val), "int")
		return
	}
	n, err := strconv.ParseInt(string(val), 10, 64)
	if err != nil || int64(int(n)) != n {
		d.wrong("number "+string(val), "int")
		return
	}
	*p = int(n)
}

// Int64 decodes an integer member (a Go int64).
func (d *Decoder) Int64(val []byte, p *int64) {
	if isNull(val) {
		return
	}
	if describe(val) != "number" {
		d.wrong(describe(val), "int64")
		return
	}
	n, err := strconv.ParseInt(string(val), 10, 64)
	if err != nil {
		d.wrong("number "+string(val), "int64")
		return
	}
	*p = n
}

// Millis decodes a duration member: null clears it, anything but a
// finite number stops the decoding ([Millis.UnmarshalJSON]).
func (d *Decoder) Millis(val []byte, p **Millis) error {
	if isNull(val) {
		*p = nil
		return nil
	}
	if *p == nil {
		*p = new(Millis)
	}
	return (*p).UnmarshalJSON(val)
}

// Strings decodes an array of strings; null clears it.
func (d *Decoder) Strings(val []byte, p *[]string) {
	if isNull(val) {
		*p = nil
		return
	}
	if val[0] != '[' {
		d.wrong(describe(val), "[]string")
		return
	}
	items, _ := jsonscan.Elements(val)
	out := make([]string, len(items))
	for i, it := range items {
		d.String(trim(it), &out[i])
	}
	*p = out
}

// StringMap decodes an object of strings into a map[string]string,
// merging into an existing one; null clears it.
func (d *Decoder) StringMap(val []byte, p *map[string]string) error {
	if isNull(val) {
		*p = nil
		return nil
	}
	if val[0] != '{' {
		d.wrong(describe(val), "map[string]string")
		return nil
	}
	ms, err := jsonscan.SplitMembers(val)
	if err != nil {
		return err
	}
	if *p == nil {
		*p = make(map[string]string, len(ms))
	}
	for _, m := range ms {
		var s string
		d.String(trim(m.Val), &s)
		(*p)[m.Key] = s
	}
	return nil
}

// AnyMap decodes an object of any values (numbers as float64) into a map,
// merging into an existing one; null clears it. typ names the map type.
func (d *Decoder) AnyMap(val []byte, p *map[string]any, typ string) error {
	if isNull(val) {
		*p = nil
		return nil
	}
	if val[0] != '{' {
		d.wrong(describe(val), typ)
		return nil
	}
	v, err := jsonscan.Decode(val)
	if err != nil {
		return err
	}
	m := v.(map[string]any)
	if *p == nil {
		*p = m
		return nil
	}
	for k, x := range m {
		(*p)[k] = x
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
	if val[0] != '{' {
		d.wrong(describe(val), "map[string][]string")
		return nil
	}
	ms, err := jsonscan.SplitMembers(val)
	if err != nil {
		return err
	}
	if *p == nil {
		*p = make(map[string][]string, len(ms))
	}
	for _, m := range ms {
		v := trim(m.Val)
		if isNull(v) {
			(*p)[m.Key] = nil
			continue
		}
		if v[0] != '[' {
			d.wrong(describe(v), "[]string")
			continue
		}
		var ss []string
		d.Strings(v, &ss)
		(*p)[m.Key] = ss
	}
	return nil
}

// Raw copies the member's JSON as it is (null included), as a
// json.RawMessage field keeps it.
func (d *Decoder) Raw(val []byte, p *[]byte) {
	*p = append((*p)[:0], val...)
}

// Empty decodes a *struct{} member: an object without members.
func (d *Decoder) Empty(val []byte, p **struct{}) error {
	if isNull(val) {
		*p = nil
		return nil
	}
	if *p == nil {
		*p = &struct{}{}
	}
	return d.Fields(val, "", "struct {}", nil)
}

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
		if !errors.As(serr, &je) || !strings.HasSuffix(je.Msg, " after top-level value") {
			return jsonscan.StdError(b[i:], serr, true)
		}
		trailing = true
		end = i + je.Offset
	}
	d := &Decoder{}
	if err := v.DecodeSchema(d, trim(b[i:end])); err != nil {
		return err
	}
	if d.saved != nil {
		return d.saved
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
	if err := v.DecodeSchema(d, trim(b)); err != nil {
		return err
	}
	return d.saved
}

var clientConfigNames = []string{
	"clientInfo", "protocolVersions", "capabilities", "handlers", "samplingTools",
	"elicitationModes", "noElicitationDefaults", "roots", "notifications", "messages",
	"logLevel", "requestTimeoutMs", "maxTotalTimeoutMs", "probeTimeoutMs", "maxInputRounds",
	"disableCache", "disableOutputValidation", "retry", "keepAliveMs",
	"maxQueuedNotifications", "maxServerRequests", "tasks",
}

// DecodeSchema decodes c strictly.
func (c *ClientConfig) DecodeSchema(d *Decoder, val []byte) error {
	return d.Fields(val, "ClientConfig", "bridge.ClientConfig", clientConfigNames,
		Member(func(d *Decoder, v []byte) error {
			if isNull(v) {
				c.ClientInfo = nil
				return nil
			}
			if c.ClientInfo == nil {
				c.ClientInfo = new(core.Implementation)
			}
			return decodeImplementation(d, v, c.ClientInfo)
		}),
		&c.ProtocolVersions,
		Member(func(d *Decoder, v []byte) error {
			if isNull(v) {
				c.Capabilities = nil
				return nil
			}
			if c.Capabilities == nil {
				c.Capabilities = new(core.ClientCapabilities)
			}
			return decodeClientCapabilities(d, v, c.Capabilities)
		}),
		Member(func(d *Decoder, v []byte) error {
			h := &c.Handlers
			return d.Fields(v, "Handlers", "bridge.Handlers", handlersNames, &h.Sampling, &h.Elicitation, &h.Roots)
		}),
		&c.SamplingTools, &c.ElicitationModes, &c.NoElicitationDefaults,
		Member(func(d *Decoder, v []byte) error { return decodeRoots(d, v, &c.Roots) }),
		&c.Notifications, &c.Messages, &c.LogLevel, &c.RequestTimeoutMs, &c.MaxTotalTimeoutMs,
		&c.ProbeTimeoutMs, &c.MaxInputRounds, &c.DisableCache, &c.DisableOutputValidation,
		Member(func(d *Decoder, v []byte) error {
			if isNull(v) {
				c.Retry = nil
				return nil
			}
			if c.Retry == nil {
				c.Retry = new(RetryConfig)
			}
			return decodeRetry(d, v, c.Retry)
		}),
		&c.KeepAliveMs, &c.MaxQueuedNotifications, &c.MaxServerRequests, &c.Tasks)
}

var handlersNames = []string{"sampling", "elicitation", "roots"}

var retryNames = []string{"attempts", "delayMs", "maxDelayMs"}

func decodeRetry(d *Decoder, val []byte, r *RetryConfig) error {
	return d.Fields(val, "RetryConfig", "bridge.RetryConfig", retryNames, &r.Attempts, &r.DelayMs, &r.MaxDelayMs)
}

var implementationNames = []string{"name", "title", "version", "description", "websiteUrl", "icons"}

func decodeImplementation(d *Decoder, val []byte, impl *core.Implementation) error {
	return d.Fields(val, "Implementation", "core.Implementation", implementationNames,
		&impl.Name, &impl.Title, &impl.Version, &impl.Description, &impl.WebsiteURL,
		Member(func(d *Decoder, v []byte) error { return decodeIcons(d, v, &impl.Icons) }))
}

var iconNames = []string{"src", "mimeType", "sizes", "theme"}

func decodeIcons(d *Decoder, val []byte, p *[]core.Icon) error {
	if isNull(val) {
		*p = nil
		return nil
	}
	if val[0] != '[' {
		d.wrong(describe(val), "[]core.Icon")
		return nil
	}
	items, _ := jsonscan.Elements(val)
	out := make([]core.Icon, len(items))
	for i, it := range items {
		ic := &out[i]
		if err := d.Fields(trim(it), "Icon", "core.Icon", iconNames, &ic.Src, &ic.MimeType, &ic.Sizes, &ic.Theme); err != nil {
			return err
		}
	}
	*p = out
	return nil
}

var rootNames = []string{"uri", "name", "_meta"}

func decodeRoot(d *Decoder, val []byte, r *core.Root) error {
	return d.Fields(val, "Root", "core.Root", rootNames, &r.URI, &r.Name, &r.Meta)
}

func decodeRoots(d *Decoder, val []byte, p *[]*core.Root) error {
	if isNull(val) {
		*p = nil
		return nil
	}
	if val[0] != '[' {
		d.wrong(describe(val), "[]*core.Root")
		return nil
	}
	items, _ := jsonscan.Elements(val)
	out := make([]*core.Root, len(items))
	for i, it := range items {
		if v := trim(it); !isNull(v) {
			out[i] = new(core.Root)
			if err := decodeRoot(d, v, out[i]); err != nil {
				return err
			}
		}
	}
	*p = out
	return nil
}

var clientCapabilitiesNames = []string{"experimental", "extensions", "roots", "sampling", "elicitation", "tasks"}

func decodeClientCapabilities(d *Decoder, val []byte, c *core.ClientCapabilities) error {
	return d.Fields(val, "ClientCapabilities", "core.ClientCapabilities", clientCapabilitiesNames,
		&c.Experimental, &c.Extensions,
		Member(func(d *Decoder, v []byte) error {
			if isNull(v) {
				c.Roots = nil
				return nil
			}
			if c.Roots == nil {
				c.Roots = new(core.RootsCapability)
			}
			return d.Fields(v, "RootsCapability", "core.RootsCapability", listChangedNames, &c.Roots.ListChanged)
		}),
		Member(func(d *Decoder, v []byte) error {
			if isNull(v) {
				c.Sampling = nil
				return nil
			}
			if c.Sampling == nil {
				c.Sampling = new(core.SamplingCapability)
			}
			return d.Fields(v, "SamplingCapability", "core.SamplingCapability", samplingNames, &c.Sampling.Context, &c.Sampling.Tools)
		}),
		Member(func(d *Decoder, v []byte) error {
			if isNull(v) {
				c.Elicitation = nil
				return nil
			}
			if c.Elicitation == nil {
				c.Elicitation = new(core.ElicitationCapability)
			}
			return decodeElicitation(d, v, c.Elicitation)
		}),
		&c.Tasks)
}

func decodeElicitation(d *Decoder, val []byte, e *core.ElicitationCapability) error {
	return d.Fields(val, "ElicitationCapability", "core.ElicitationCapability", elicitationNames,
		Member(func(d *Decoder, v []byte) error {
			if isNull(v) {
				e.Form = nil
				return nil
			}
			if e.Form == nil {
				e.Form = new(core.FormElicitationCapability)
			}
			return d.Fields(v, "FormElicitationCapability", "core.FormElicitationCapability", applyDefaultsNames, &e.Form.ApplyDefaults)
		}),
		&e.URL)
}

var (
	listChangedNames   = []string{"listChanged"}
	samplingNames      = []string{"context", "tools"}
	elicitationNames   = []string{"form", "url"}
	applyDefaultsNames = []string{"applyDefaults"}
)

var connectConfigNames = []string{
	"url", "transport", "protocolVersions", "headers", "maxMessageSize", "retryMs",
	"maxReconnects", "credentials", "fetchMode", "auth",
}

// DecodeSchema decodes c strictly.
func (c *ConnectConfig) DecodeSchema(d *Decoder, val []byte) error {
	return d.Fields(val, "ConnectConfig", "bridge.ConnectConfig", connectConfigNames,
		&c.URL, &c.Transport, &c.ProtocolVersions, &c.Headers, &c.MaxMessageSize, &c.RetryMs,
		&c.MaxReconnects, &c.Credentials, &c.FetchMode,
		Member(func(d *Decoder, v []byte) error {
			if isNull(v) {
				c.Auth = nil
				return nil
			}
			if c.Auth == nil {
				c.Auth = new(AuthConfig)
			}
			return decodeAuth(d, v, c.Auth)
		}))
}

var authConfigNames = []string{
	"grant", "userAgent", "redirectUri", "callbackUrl", "clientId", "clientSecret",
	"authMethod", "issuer", "privateKeyPem", "clientMetadataUrl", "clientName",
	"applicationType", "scopes", "noOfflineAccess", "dpop", "dpopKeyPem", "assertion",
	"idjag", "maxAuthorizations", "authorizationTimeoutMs", "allowInsecureHttp",
	"allowPrivateAddresses", "store", "persist", "log",
}

func decodeAuth(d *Decoder, val []byte, a *AuthConfig) error {
	return d.Fields(val, "AuthConfig", "bridge.AuthConfig", authConfigNames,
		&a.Grant, &a.UserAgent, &a.RedirectURI, &a.CallbackURL, &a.ClientID, &a.ClientSecret,
		&a.AuthMethod, &a.Issuer, &a.PrivateKeyPEM, &a.ClientMetadataURL, &a.ClientName,
		&a.ApplicationType, &a.Scopes, &a.NoOfflineAccess, &a.DPoP, &a.DPoPKeyPEM, &a.Assertion,
		Member(func(d *Decoder, v []byte) error {
			if isNull(v) {
				a.IDJAG = nil
				return nil
			}
			if a.IDJAG == nil {
				a.IDJAG = new(IDJAGConfig)
			}
			return decodeIDJAG(d, v, a.IDJAG)
		}),
		&a.MaxAuthorizations, &a.AuthorizationTimeoutMs, &a.AllowInsecureHTTP,
		&a.AllowPrivateAddresses, &a.Store, &a.Persist, &a.Log)
}

var idjagNames = []string{"tokenEndpoint", "clientId", "clientSecret", "subjectToken", "subjectTokenType"}

func decodeIDJAG(d *Decoder, val []byte, c *IDJAGConfig) error {
	return d.Fields(val, "IDJAGConfig", "bridge.IDJAGConfig", idjagNames,
		&c.TokenEndpoint, &c.ClientID, &c.ClientSecret, &c.SubjectToken, &c.SubjectTokenType)
}

var callOptionsNames = []string{
	"timeoutMs", "maxTotalTimeoutMs", "resetTimeoutOnProgress", "noCache", "meta",
	"noTaskWait", "progress",
}

// DecodeSchema decodes o strictly.
func (o *CallOptions) DecodeSchema(d *Decoder, val []byte) error {
	return d.Fields(val, "CallOptions", "bridge.CallOptions", callOptionsNames, o.FieldPtrs()...)
}

// CallOptionsNames are the members of a CallOptions, in the order of
// [CallOptions.FieldPtrs], for hosts' objects that embed one.
var CallOptionsNames = callOptionsNames

// FieldPtrs returns pointers to o's members for [Decoder.Fields], in the
// order of CallOptionsNames.
func (o *CallOptions) FieldPtrs() []any {
	return []any{&o.TimeoutMs, &o.MaxTotalTimeoutMs, &o.ResetTimeoutOnProgress, &o.NoCache, &o.Meta, &o.NoTaskWait, &o.Progress}
}

var errorNames = []string{"kind", "code", "message", "data", "status"}

// DecodeError decodes an *Error member (a host's answer): null clears it.
func DecodeError(d *Decoder, val []byte, p **Error) error {
	if isNull(val) {
		*p = nil
		return nil
	}
	if *p == nil {
		*p = new(Error)
	}
	e := *p
	return d.Fields(val, "Error", "bridge.Error", errorNames, &e.Kind, &e.Code, &e.Message, &e.Data, &e.Status)
}
