package bridge

import (
	"errors"
	"io"
	"strconv"
	"strings"

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

func isNull(val []byte) bool { return len(val) == 4 && string(val) == "null" }

// Object decodes the JSON object val, a struct named strct (Go type typ
// in messages), calling member with the canonical name (one of names,
// matched exactly, then case-insensitively) and value of each member.
// Unknown members are deferred errors; member's own errors stop the
// decoding. Null is no error and calls nothing (the caller clears a
// pointer first).
func (d *Decoder) Object(val []byte, strct, typ string, names []string, member func(name string, val []byte) error) error {
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
		name := canonical(m.Key, names)
		if name == "" {
			if d.Lenient {
				continue
			}
			d.save(errors.New("json: unknown field " + strconv.Quote(m.Key)))
			continue
		}
		d.strct, d.path = strct, append(d.path[:depth], name)
		if err := member(name, trim(m.Val)); err != nil {
			return err
		}
		d.strct, d.path = outer, d.path[:depth]
	}
	return nil
}

// Embedded runs f, the decoding of the current member, as a member of the
// embedded struct field named field (encoding/json's messages name it in
// the path).
func (d *Decoder) Embedded(field string, f func() error) error {
	n := len(d.path)
	if n == 0 {
		return f()
	}
	last := d.path[n-1]
	d.path = append(d.path[:n-1], field, last)
	return f()
}

// canonical returns the name of names key matches, exactly or else
// case-insensitively, or "".
func canonical(key string, names []string) string {
	for _, n := range names {
		if n == key {
			return n
		}
	}
	for _, n := range names {
		if strings.EqualFold(n, key) {
			return n
		}
	}
	return ""
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
	return d.Object(val, "", "struct {}", nil, func(string, []byte) error { return nil })
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

// object decodes a pointer-to-struct member: null clears it, otherwise
// the struct is allocated (or merged into) and decoded by dec.
func object[T any](d *Decoder, val []byte, p **T, dec func(d *Decoder, val []byte, v *T) error) error {
	if isNull(val) {
		*p = nil
		return nil
	}
	if *p == nil {
		*p = new(T)
	}
	return dec(d, val, *p)
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
	return d.Object(val, "ClientConfig", "bridge.ClientConfig", clientConfigNames, func(name string, v []byte) error {
		switch name {
		case "clientInfo":
			return object(d, v, &c.ClientInfo, decodeImplementation)
		case "protocolVersions":
			d.Strings(v, &c.ProtocolVersions)
		case "capabilities":
			return object(d, v, &c.Capabilities, decodeClientCapabilities)
		case "handlers":
			return d.Object(v, "Handlers", "bridge.Handlers", handlersNames, func(name string, v []byte) error {
				switch name {
				case "sampling":
					d.Bool(v, &c.Handlers.Sampling)
				case "elicitation":
					d.Bool(v, &c.Handlers.Elicitation)
				default:
					d.Bool(v, &c.Handlers.Roots)
				}
				return nil
			})
		case "samplingTools":
			d.Bool(v, &c.SamplingTools)
		case "elicitationModes":
			d.Strings(v, &c.ElicitationModes)
		case "noElicitationDefaults":
			d.Bool(v, &c.NoElicitationDefaults)
		case "roots":
			return decodeRoots(d, v, &c.Roots)
		case "notifications":
			d.Strings(v, &c.Notifications)
		case "messages":
			d.Bool(v, &c.Messages)
		case "logLevel":
			d.String(v, &c.LogLevel)
		case "requestTimeoutMs":
			return d.Millis(v, &c.RequestTimeoutMs)
		case "maxTotalTimeoutMs":
			return d.Millis(v, &c.MaxTotalTimeoutMs)
		case "probeTimeoutMs":
			return d.Millis(v, &c.ProbeTimeoutMs)
		case "maxInputRounds":
			d.Int(v, &c.MaxInputRounds)
		case "disableCache":
			d.Bool(v, &c.DisableCache)
		case "disableOutputValidation":
			d.Bool(v, &c.DisableOutputValidation)
		case "retry":
			return object(d, v, &c.Retry, decodeRetry)
		case "keepAliveMs":
			return d.Millis(v, &c.KeepAliveMs)
		case "maxQueuedNotifications":
			d.Int(v, &c.MaxQueuedNotifications)
		case "maxServerRequests":
			d.Int(v, &c.MaxServerRequests)
		case "tasks":
			d.Bool(v, &c.Tasks)
		}
		return nil
	})
}

var handlersNames = []string{"sampling", "elicitation", "roots"}

var retryNames = []string{"attempts", "delayMs", "maxDelayMs"}

func decodeRetry(d *Decoder, val []byte, r *RetryConfig) error {
	return d.Object(val, "RetryConfig", "bridge.RetryConfig", retryNames, func(name string, v []byte) error {
		switch name {
		case "attempts":
			d.Int(v, &r.Attempts)
		case "delayMs":
			return d.Millis(v, &r.DelayMs)
		default:
			return d.Millis(v, &r.MaxDelayMs)
		}
		return nil
	})
}

var implementationNames = []string{"name", "title", "version", "description", "websiteUrl", "icons"}

func decodeImplementation(d *Decoder, val []byte, impl *core.Implementation) error {
	return d.Object(val, "Implementation", "core.Implementation", implementationNames, func(name string, v []byte) error {
		switch name {
		case "name":
			d.String(v, &impl.Name)
		case "title":
			d.String(v, &impl.Title)
		case "version":
			d.String(v, &impl.Version)
		case "description":
			d.String(v, &impl.Description)
		case "websiteUrl":
			d.String(v, &impl.WebsiteURL)
		default:
			return decodeIcons(d, v, &impl.Icons)
		}
		return nil
	})
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
		err := d.Object(trim(it), "Icon", "core.Icon", iconNames, func(name string, v []byte) error {
			switch name {
			case "src":
				d.String(v, &ic.Src)
			case "mimeType":
				d.String(v, &ic.MimeType)
			case "sizes":
				d.Strings(v, &ic.Sizes)
			default:
				d.String(v, &ic.Theme)
			}
			return nil
		})
		if err != nil {
			return err
		}
	}
	*p = out
	return nil
}

var rootNames = []string{"uri", "name", "_meta"}

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
		err := object(d, trim(it), &out[i], func(d *Decoder, val []byte, r *core.Root) error {
			return d.Object(val, "Root", "core.Root", rootNames, func(name string, v []byte) error {
				switch name {
				case "uri":
					d.String(v, &r.URI)
				case "name":
					d.String(v, &r.Name)
				default:
					return d.AnyMap(v, (*map[string]any)(&r.Meta), "core.Meta")
				}
				return nil
			})
		})
		if err != nil {
			return err
		}
	}
	*p = out
	return nil
}

var clientCapabilitiesNames = []string{"experimental", "extensions", "roots", "sampling", "elicitation", "tasks"}

func decodeClientCapabilities(d *Decoder, val []byte, c *core.ClientCapabilities) error {
	return d.Object(val, "ClientCapabilities", "core.ClientCapabilities", clientCapabilitiesNames, func(name string, v []byte) error {
		switch name {
		case "experimental":
			return d.AnyMap(v, &c.Experimental, "map[string]interface {}")
		case "extensions":
			return d.AnyMap(v, &c.Extensions, "map[string]interface {}")
		case "roots":
			return object(d, v, &c.Roots, func(d *Decoder, val []byte, r *core.RootsCapability) error {
				return d.Object(val, "RootsCapability", "core.RootsCapability", listChangedNames, func(_ string, v []byte) error {
					d.Bool(v, &r.ListChanged)
					return nil
				})
			})
		case "sampling":
			return object(d, v, &c.Sampling, func(d *Decoder, val []byte, s *core.SamplingCapability) error {
				return d.Object(val, "SamplingCapability", "core.SamplingCapability", samplingNames, func(name string, v []byte) error {
					if name == "context" {
						return d.Empty(v, &s.Context)
					}
					return d.Empty(v, &s.Tools)
				})
			})
		case "elicitation":
			return object(d, v, &c.Elicitation, func(d *Decoder, val []byte, e *core.ElicitationCapability) error {
				return d.Object(val, "ElicitationCapability", "core.ElicitationCapability", elicitationNames, func(name string, v []byte) error {
					if name == "url" {
						return d.Empty(v, &e.URL)
					}
					return object(d, v, &e.Form, func(d *Decoder, val []byte, f *core.FormElicitationCapability) error {
						return d.Object(val, "FormElicitationCapability", "core.FormElicitationCapability", applyDefaultsNames, func(_ string, v []byte) error {
							d.Bool(v, &f.ApplyDefaults)
							return nil
						})
					})
				})
			})
		default:
			d.Raw(v, (*[]byte)(&c.Tasks))
		}
		return nil
	})
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
	return d.Object(val, "ConnectConfig", "bridge.ConnectConfig", connectConfigNames, func(name string, v []byte) error {
		return c.member(d, name, v)
	})
}

// member decodes one member of a ConnectConfig (also the members of
// hosts' objects that embed one).
func (c *ConnectConfig) member(d *Decoder, name string, v []byte) error {
	switch name {
	case "url":
		d.String(v, &c.URL)
	case "transport":
		d.String(v, &c.Transport)
	case "protocolVersions":
		d.Strings(v, &c.ProtocolVersions)
	case "headers":
		return d.StringMap(v, &c.Headers)
	case "maxMessageSize":
		d.Int(v, &c.MaxMessageSize)
	case "retryMs":
		return d.Millis(v, &c.RetryMs)
	case "maxReconnects":
		d.Int(v, &c.MaxReconnects)
	case "credentials":
		d.String(v, &c.Credentials)
	case "fetchMode":
		d.String(v, &c.FetchMode)
	case "auth":
		return object(d, v, &c.Auth, decodeAuth)
	}
	return nil
}

var authConfigNames = []string{
	"grant", "userAgent", "redirectUri", "callbackUrl", "clientId", "clientSecret",
	"authMethod", "issuer", "privateKeyPem", "clientMetadataUrl", "clientName",
	"applicationType", "scopes", "noOfflineAccess", "dpop", "dpopKeyPem", "assertion",
	"idjag", "maxAuthorizations", "authorizationTimeoutMs", "allowInsecureHttp",
	"allowPrivateAddresses", "store", "persist", "log",
}

func decodeAuth(d *Decoder, val []byte, a *AuthConfig) error {
	return d.Object(val, "AuthConfig", "bridge.AuthConfig", authConfigNames, func(name string, v []byte) error {
		switch name {
		case "grant":
			d.String(v, &a.Grant)
		case "userAgent":
			d.String(v, &a.UserAgent)
		case "redirectUri":
			d.String(v, &a.RedirectURI)
		case "callbackUrl":
			d.String(v, &a.CallbackURL)
		case "clientId":
			d.String(v, &a.ClientID)
		case "clientSecret":
			d.String(v, &a.ClientSecret)
		case "authMethod":
			d.String(v, &a.AuthMethod)
		case "issuer":
			d.String(v, &a.Issuer)
		case "privateKeyPem":
			d.String(v, &a.PrivateKeyPEM)
		case "clientMetadataUrl":
			d.String(v, &a.ClientMetadataURL)
		case "clientName":
			d.String(v, &a.ClientName)
		case "applicationType":
			d.String(v, &a.ApplicationType)
		case "scopes":
			d.Strings(v, &a.Scopes)
		case "noOfflineAccess":
			d.Bool(v, &a.NoOfflineAccess)
		case "dpop":
			d.Bool(v, &a.DPoP)
		case "dpopKeyPem":
			d.String(v, &a.DPoPKeyPEM)
		case "assertion":
			d.String(v, &a.Assertion)
		case "idjag":
			return object(d, v, &a.IDJAG, decodeIDJAG)
		case "maxAuthorizations":
			d.Int(v, &a.MaxAuthorizations)
		case "authorizationTimeoutMs":
			return d.Millis(v, &a.AuthorizationTimeoutMs)
		case "allowInsecureHttp":
			d.Bool(v, &a.AllowInsecureHTTP)
		case "allowPrivateAddresses":
			d.Bool(v, &a.AllowPrivateAddresses)
		case "store":
			d.Raw(v, (*[]byte)(&a.Store))
		case "persist":
			d.Bool(v, &a.Persist)
		case "log":
			d.Bool(v, &a.Log)
		}
		return nil
	})
}

var idjagNames = []string{"tokenEndpoint", "clientId", "clientSecret", "subjectToken", "subjectTokenType"}

func decodeIDJAG(d *Decoder, val []byte, c *IDJAGConfig) error {
	return d.Object(val, "IDJAGConfig", "bridge.IDJAGConfig", idjagNames, func(name string, v []byte) error {
		switch name {
		case "tokenEndpoint":
			d.String(v, &c.TokenEndpoint)
		case "clientId":
			d.String(v, &c.ClientID)
		case "clientSecret":
			d.String(v, &c.ClientSecret)
		case "subjectToken":
			d.String(v, &c.SubjectToken)
		default:
			d.String(v, &c.SubjectTokenType)
		}
		return nil
	})
}

var callOptionsNames = []string{
	"timeoutMs", "maxTotalTimeoutMs", "resetTimeoutOnProgress", "noCache", "meta",
	"noTaskWait", "progress",
}

// DecodeSchema decodes o strictly.
func (o *CallOptions) DecodeSchema(d *Decoder, val []byte) error {
	return d.Object(val, "CallOptions", "bridge.CallOptions", callOptionsNames, func(name string, v []byte) error {
		return o.member(d, name, v)
	})
}

// CallOptionsNames are the members of a CallOptions, for hosts' objects
// that embed one (with [CallOptions.DecodeMember]).
var CallOptionsNames = callOptionsNames

// DecodeMember decodes the member name (one of CallOptionsNames) of a
// CallOptions embedded in a host's object.
func (o *CallOptions) DecodeMember(d *Decoder, name string, v []byte) error {
	return o.member(d, name, v)
}

// member decodes one member of a CallOptions (also the members of hosts'
// objects that embed one).
func (o *CallOptions) member(d *Decoder, name string, v []byte) error {
	switch name {
	case "timeoutMs":
		return d.Millis(v, &o.TimeoutMs)
	case "maxTotalTimeoutMs":
		return d.Millis(v, &o.MaxTotalTimeoutMs)
	case "resetTimeoutOnProgress":
		d.Bool(v, &o.ResetTimeoutOnProgress)
	case "noCache":
		d.Bool(v, &o.NoCache)
	case "meta":
		return d.AnyMap(v, (*map[string]any)(&o.Meta), "core.Meta")
	case "noTaskWait":
		d.Bool(v, &o.NoTaskWait)
	case "progress":
		d.Bool(v, &o.Progress)
	}
	return nil
}

var errorNames = []string{"kind", "code", "message", "data", "status"}

// DecodeError decodes an *Error member (a host's answer): null clears it.
func DecodeError(d *Decoder, val []byte, p **Error) error {
	return object(d, val, p, func(d *Decoder, val []byte, e *Error) error {
		return d.Object(val, "Error", "bridge.Error", errorNames, func(name string, v []byte) error {
			switch name {
			case "kind":
				d.String(v, &e.Kind)
			case "code":
				d.Int64(v, &e.Code)
			case "message":
				d.String(v, &e.Message)
			case "data":
				d.Raw(v, (*[]byte)(&e.Data))
			default:
				d.Int(v, &e.Status)
			}
			return nil
		})
	})
}
