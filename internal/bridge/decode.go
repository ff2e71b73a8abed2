package bridge

import (
	"encoding/json"
	"errors"
	"github.com/mcpwasm/mcpwasm/internal/errf"
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

// Member decodes one member whose Go type [Decoder.Fields] does not
// know (a nested object, an embedded one).
type Member func(d *Decoder, val []byte) error

// noCompare, a first field of zero size, makes a struct type not
// comparable: the module then carries no equality function for it (its
// type descriptor is linked because values are allocated or boxed, and a
// comparable struct's descriptor brings one, several hundred bytes of
// WebAssembly each).
type noCompare [0]func()

// Embedded is a member of an embedded struct field named Field:
// encoding/json's messages name that field in the path. Ptr is what
// Fields takes.
type Embedded struct {
	_     noCompare
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
	ms, ok, err := d.Object(val, typ)
	if !ok {
		return err
	}
	for _, m := range ms {
		k := canonical(m.Key, names)
		if k < 0 {
			if !d.Lenient {
				d.Fail(errors.New("json: unknown field " + strconv.Quote(m.Key)))
			}
			continue
		}
		outer, depth := d.Enter(strct, "", names[k])
		if err := d.field(jsonscan.TrimSpace(m.Val), ptrs[k]); err != nil {
			return err
		}
		d.Leave(outer, depth)
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
		d.AnyMap(val, p, "map[string]interface {}")
	case *core.Meta:
		d.AnyMap(val, (*map[string]any)(p), "core.Meta")
	case *any:
		d.Any(val, p)
	case *json.RawMessage:
		d.Raw(val, (*[]byte)(p))
	case **struct{}:
		return d.Empty(val, p)
	case *time.Time:
		// encoding/json calls time's UnmarshalJSON, null included
		return jsonscan.UnmarshalTime(val, p)
	case Embedded:
		if n := len(d.Path); n > 0 {
			last := d.Path[n-1]
			d.Path = append(d.Path[:n-1], p.Field, last)
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
		d.Wrong(val, "[]core.Icon")
		return nil
	}
	items, _ := jsonscan.Elements(val)
	out := make([]core.Icon, len(items))
	for i, it := range items {
		ic := &out[i]
		if err := d.Fields(jsonscan.TrimSpace(it), "Icon", "core.Icon", iconNames, &ic.Src, &ic.MimeType, &ic.Sizes, &ic.Theme); err != nil {
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
		d.Wrong(val, "[]*core.Root")
		return nil
	}
	items, _ := jsonscan.Elements(val)
	out := make([]*core.Root, len(items))
	for i, it := range items {
		if v := jsonscan.TrimSpace(it); !isNull(v) {
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
	e := jsonscan.Ptr(val, p)
	if e == nil {
		return nil
	}
	return d.Fields(val, "Error", "bridge.Error", errorNames, &e.Kind, &e.Code, &e.Message, &e.Data, &e.Status)
}
