package jsonrpc

import (
	"bytes"
	"errors"
	"slices"
	"strconv"
	"strings"

	"github.com/mcpwasm/mcpwasm/internal/errf"
	"github.com/mcpwasm/mcpwasm/internal/jsonscan"
	"github.com/mcpwasm/mcpwasm/internal/rawjson"
)

// ID is a JSON-RPC request id: a string or an integer. The zero value is the
// absent id of a notification. IDs are small values; copy them freely.
type ID struct {
	str   string
	num   int64
	isStr bool
	ok    bool
}

// Int64ID returns an integer ID.
func Int64ID(n int64) ID { return ID{num: n, ok: true} }

// StringID returns a string ID.
func StringID(s string) ID { return ID{str: s, isStr: true, ok: true} }

// Int64 returns the id's number, and whether the id is a number (not a
// string, not absent).
func (id ID) Int64() (int64, bool) { return id.num, id.ok && !id.isStr }

// IsValid reports whether the ID is present.
func (id ID) IsValid() bool { return id.ok }

// Raw returns the ID as a Go value: an int64, a string, or nil when absent.
func (id ID) Raw() any {
	switch {
	case !id.ok:
		return nil
	case id.isStr:
		return id.str
	default:
		return id.num
	}
}

// String formats the ID for messages and logs.
func (id ID) String() string {
	switch {
	case !id.ok:
		return "<none>"
	case id.isStr:
		return strconv.Quote(id.str)
	default:
		return strconv.FormatInt(id.num, 10)
	}
}

// MarshalJSON encodes the ID as a JSON string or number (null when absent).
func (id ID) MarshalJSON() ([]byte, error) { return id.AppendJSON(nil), nil }

// AppendJSON appends the JSON encoding of the id to dst (null when absent).
func (id ID) AppendJSON(dst []byte) []byte {
	switch {
	case !id.ok:
		return append(dst, "null"...)
	case id.isStr:
		return strconv.AppendQuote(dst, id.str)
	default:
		return strconv.AppendInt(dst, id.num, 10)
	}
}

// UnmarshalJSON decodes a JSON string, integer or null.
func (id *ID) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	switch {
	case len(b) == 0 || string(b) == "null":
		*id = ID{}
		return nil
	case b[0] == '"':
		s, err := jsonscan.Unquote(b)
		if err != nil {
			return errf.Errorf("core: invalid JSON-RPC id %s", string(b))
		}
		*id = StringID(s)
		return nil
	}
	n, err := strconv.ParseInt(string(b), 10, 64)
	if err != nil {
		// Some peers send integral floats (1.0). Accept them if exact.
		f, ferr := strconv.ParseFloat(string(b), 64)
		if ferr != nil || f != float64(int64(f)) {
			return errf.Errorf("core: invalid JSON-RPC id %s", b)
		}
		n = int64(f)
	}
	*id = Int64ID(n)
	return nil
}

// Message is a JSON-RPC 2.0 message: a *Request (a request or, without an
// ID, a notification) or a *Response.
type Message interface{ isMessage() }

// Request is a JSON-RPC request, or a notification when ID is absent.
type Request struct {
	ID     ID
	Method string
	Params rawjson.RawMessage
}

// IsNotification reports whether the request carries no id.
func (r *Request) IsNotification() bool { return !r.ID.IsValid() }

func (*Request) isMessage() {}

// Response is a JSON-RPC response: exactly one of Result and Error is set on
// the wire.
//
// TransportErr is never encoded: a transport sets it on a Response it
// synthesises to fail one pending request (for example when the HTTP stream
// that should have carried the response broke).
type Response struct {
	ID           ID
	Result       rawjson.RawMessage
	Error        *Error
	TransportErr error

	// top holds Result's members when DecodeMessage recorded them (a
	// large result, see ResultMember), else nil.
	top *recorded
}

// recorded is what DecodeMessage recorded of a result: its members, its
// long strings, and the result they belong to (a Result replaced later
// has none).
type recorded struct {
	of   rawjson.RawMessage
	ms   []jsonscan.Member
	long []jsonscan.StringSpan // offsets relative to of; nil: not recorded
}

// LongMessage and LongString select what [DecodeMessage] records of a
// message's result for [Response.ResultStrings]: in a message of
// LongMessage bytes or more, the result's string values of LongString
// bytes or more.
const (
	LongMessage = 64 << 10
	LongString  = 16 << 10
)

// resultStrings returns the spans of long that lie in the result at
// data[off:off+n], relative to it.
func resultStrings(long []jsonscan.StringSpan, off, n int) []jsonscan.StringSpan {
	out := make([]jsonscan.StringSpan, 0, len(long)) // not nil: recorded
	for _, s := range long {
		if s.Start >= off && s.End <= off+n {
			s.Start -= off
			s.End -= off
			out = append(out, s)
		}
	}
	return out
}

// ResultStrings returns the string values of at least [LongString] bytes
// in r.Result (bounds relative to it, quotes included, in document order)
// and true, when DecodeMessage recorded them while it validated the
// message: it does so for a message of [LongMessage] bytes or more, so that
// a host that hands big strings on apart from the JSON text
// ([jsonscan.LongStrings]) does not scan them again. Otherwise (a smaller
// message, a result that is not an object, a Response made or changed
// since) it returns nil and false. A
// Response is read-only once delivered; ResultStrings may be called from
// any goroutine.
func (r *Response) ResultStrings() ([]jsonscan.StringSpan, bool) {
	t := r.recordedTop()
	if t == nil || t.long == nil {
		return nil, false
	}
	return t.long, true
}

// recordedTop returns what DecodeMessage recorded of r.Result, or nil
// when it recorded nothing or r.Result is no longer the result it
// recorded.
func (r *Response) recordedTop() *recorded {
	if t := r.top; t != nil && len(t.of) == len(r.Result) && len(r.Result) > 0 && &t.of[0] == &r.Result[0] {
		return t
	}
	return nil
}

// ResultMember returns the raw value of the top-level member name of
// r.Result (the first, when the name is repeated; nil when absent) and
// true, when DecodeMessage recorded the result's members: it does so for a
// result object of recordResultAt bytes or more, in the pass that
// validates the message, so that a caller looking for a member after a
// multi-megabyte one (servers put resultType after content) does not walk
// the result again. Otherwise (a smaller result, a Response made or
// changed since) it returns nil and false, and the caller looks for the
// member itself. A Response is read-only once delivered; ResultMember may
// be called from any goroutine.
func (r *Response) ResultMember(name string) (rawjson.RawMessage, bool) {
	t := r.recordedTop()
	if t == nil {
		return nil, false
	}
	for _, m := range t.ms {
		if m.Key == name {
			return m.Val, true
		}
	}
	return nil, true
}

// recordResultAt is the size from which DecodeMessage keeps a result's
// members: below it a walk of the result costs less than keeping them.
const recordResultAt = 16 << 10

func (*Response) isMessage() {}

// Error is the error object of a JSON-RPC error response.
type Error struct {
	Code    int64              `json:"code"`
	Message string             `json:"message"`
	Data    rawjson.RawMessage `json:"data,omitempty"`
}

// EncodeMessage encodes one message as JSON. It is safe for concurrent use.
func EncodeMessage(m Message) ([]byte, error) {
	n := 64
	switch m := m.(type) {
	case *Request:
		n += len(m.Method) + len(m.Params)
	case *Response:
		n += len(m.Result)
	}
	return AppendMessage(make([]byte, 0, n), m)
}

// AppendMessage appends the JSON encoding of m to dst.
func AppendMessage(dst []byte, m Message) ([]byte, error) {
	dst = append(dst, `{"jsonrpc":"2.0"`...)
	switch m := m.(type) {
	case *Request:
		if m.ID.IsValid() {
			dst = append(dst, `,"id":`...)
			dst = m.ID.AppendJSON(dst)
		}
		dst = append(dst, `,"method":`...)
		dst = jsonscan.AppendString(dst, m.Method)
		if len(m.Params) > 0 {
			dst = append(dst, `,"params":`...)
			dst = append(dst, m.Params...)
		}
	case *Response:
		dst = append(dst, `,"id":`...)
		dst = m.ID.AppendJSON(dst)
		if m.Error != nil {
			dst = append(dst, `,"error":{"code":`...)
			dst = strconv.AppendInt(dst, m.Error.Code, 10)
			dst = append(dst, `,"message":`...)
			dst = jsonscan.AppendString(dst, m.Error.Message)
			if len(m.Error.Data) > 0 {
				dst = append(dst, `,"data":`...)
				var err error
				if dst, err = jsonscan.AppendCompact(dst, m.Error.Data, true); err != nil {
					return nil, errors.New("json: error calling MarshalJSON for type json.RawMessage: " + err.Error())
				}
			}
			dst = append(dst, '}')
		} else {
			dst = append(dst, `,"result":`...)
			if len(m.Result) == 0 {
				dst = append(dst, "{}"...)
			} else {
				dst = append(dst, m.Result...)
			}
		}
	default:
		return nil, errors.New("core: cannot encode a message that is neither a *Request nor a *Response")
	}
	return append(dst, '}'), nil
}

type wireMessage struct {
	JSONRPC string             `json:"jsonrpc"`
	ID      rawjson.RawMessage `json:"id,omitempty"`
	Method  string             `json:"method,omitempty"`
	Params  rawjson.RawMessage `json:"params,omitempty"`
	Result  rawjson.RawMessage `json:"result,omitempty"`
	Error   *Error             `json:"error,omitempty"`
}

// ErrInvalidMessage is wrapped by DecodeMessage errors.
var ErrInvalidMessage = errors.New("jsonrpc: invalid message")

// invalid is the one constructor of the "ErrInvalidMessage: cause" errors
// (cause an error or a text).
//
//go:noinline
func invalid(cause any) error { return errf.Errorf("%w: %v", ErrInvalidMessage, cause) }

// DecodeMessage decodes one JSON-RPC message. The Params and Result of the
// returned message alias data. It validates the JSON once and splits the
// envelope without reflection (this runs for every message, and
// reflection-based decoding is slow in WebAssembly).
func DecodeMessage(data []byte) (Message, error) {
	data = bytes.TrimSpace(data)
	// One pass validates the message, splits its envelope and records the
	// members of its result.
	var top [6]jsonscan.Member
	var inner [8]jsonscan.Member
	rec := jsonscan.Recorder{Top: top[:0], Inner: inner[:0]}
	if len(data) > recordResultAt {
		rec.Name = `"result"` // (a smaller message has no result to record)
	}
	if len(data) >= LongMessage {
		rec.LongMin = LongString
	}
	rec, ok := jsonscan.ValidRecord(data, rec)
	if !ok {
		return nil, invalid(jsonscan.SyntaxError(data))
	}
	if data[0] != '{' {
		return nil, invalid("not a JSON object")
	}
	var w wireMessage
	if err := w.fill(rec.Top); err != nil {
		return nil, err
	}
	m, err := w.toMessage()
	if r, ok := m.(*Response); ok && len(r.Result) >= recordResultAt && rec.InnerAt == cap(data)-cap(r.Result) {
		// The recorded object is the result kept (not one of a repeated
		// name's earlier values).
		r.top = &recorded{of: r.Result, ms: append([]jsonscan.Member(nil), rec.Inner...)}
		if rec.LongMin > 0 {
			r.top.long = resultStrings(rec.Long, cap(data)-cap(r.Result), len(r.Result))
		}
	}
	return m, err
}

// split reads the members of one message, a valid JSON object.
func (w *wireMessage) split(data []byte) error {
	ms, err := jsonscan.SplitMembers(data)
	if err != nil {
		return invalid(err)
	}
	return w.fill(ms)
}

// fill reads the members of one message.
func (w *wireMessage) fill(ms []jsonscan.Member) error {
	var err error
	for _, m := range ms {
		switch m.Key {
		case "jsonrpc":
			if string(m.Val) == `"2.0"` {
				w.JSONRPC = "2.0" // every message's: not a string per message
			} else {
				w.JSONRPC = jsonscan.RawString(m.Val)
			}
		case "id":
			w.ID = m.Val
		case "method":
			w.Method = jsonscan.RawString(m.Val)
			if w.Method == "" && string(m.Val) != `""` {
				return invalid("method is not a string")
			}
		case "params":
			w.Params = m.Val
		case "result":
			w.Result = m.Val
		case "error":
			if string(m.Val) == "null" {
				continue
			}
			if w.Error, err = decodeError(m.Val); err != nil {
				return errf.Errorf("%w: error member: %v", ErrInvalidMessage, err)
			}
		}
	}
	return nil
}

// decodeError decodes the error object of a response as json.Unmarshal
// into an Error does (names matched exactly or else case-insensitively,
// the last repeated member wins, null leaves a member alone, the first
// member of the wrong kind reported), without reflection.
func decodeError(v []byte) (*Error, error) {
	var d jsonscan.Decoder
	if v[0] != '{' {
		d.Wrong(v, "jsonrpc.Error")
		return nil, d.Err
	}
	ms, err := jsonscan.SplitMembers(v)
	if err != nil {
		return nil, err
	}
	e := &Error{}
	for _, m := range ms {
		i := errorField(m.Key)
		if i < 0 {
			continue
		}
		d.Struct, d.Path = "Error", errorFieldPaths[i] // read only: the decoder never appends here
		switch i {
		case 0:
			d.Int64(m.Val, &e.Code)
		case 1:
			d.String(m.Val, &e.Message)
		default:
			e.Data = m.Val // null included, as a rawjson.RawMessage keeps it
		}
	}
	return e, d.Err
}

// errorFieldPaths are the error contexts of Error's members, in the order
// errorField numbers them.
var errorFieldPaths = [...][]string{{"code"}, {"message"}, {"data"}}

// errorField returns the index of the field of Error the member key
// selects (code, message, data), or -1.
func errorField(key string) int {
	for i, f := range [...]string{"code", "message", "data"} {
		if key == f || strings.EqualFold(key, f) {
			return i
		}
	}
	return -1
}

// DecodeMessages decodes a message or a JSON-RPC batch (an array of
// messages, allowed by the 2025-03-26 revision).
func DecodeMessages(data []byte) ([]Message, error) {
	return AppendMessages(nil, data)
}

// AppendMessages is DecodeMessages appending the messages to dst; on an
// error it returns dst as it was. A caller that passes room for one (a
// slice of a local array) decodes a message that is not a batch — nearly
// all of them — without a slice of its own.
func AppendMessages(dst []Message, data []byte) ([]Message, error) {
	data = bytes.TrimLeft(data, " \t\r\n")
	if len(data) == 0 || data[0] != '[' {
		m, err := DecodeMessage(data)
		if err != nil {
			return dst, err
		}
		return append(dst, m), nil
	}
	if err := jsonscan.SyntaxError(data); err != nil {
		return dst, invalid(err)
	}
	elems, err := jsonscan.Elements(data)
	if err != nil {
		return dst, invalid(err)
	}
	ws := make([]wireMessage, len(elems))
	for i, e := range elems {
		switch e[0] {
		case 'n': // null: an empty message, refused below
		case '{':
			if err := ws[i].split(e); err != nil {
				return dst, err
			}
		default:
			return dst, errf.Errorf("%w: json: cannot unmarshal %s into Go value of type jsonrpc.wireMessage", ErrInvalidMessage, jsonscan.KindName(e))
		}
	}
	out := slices.Grow(dst, len(ws))
	if out == nil {
		out = []Message{} // an empty batch decodes to no messages, not to nil
	}
	for i := range ws {
		m, err := ws[i].toMessage()
		if err != nil {
			return dst, err
		}
		out = append(out, m)
	}
	return out, nil
}

func (w *wireMessage) toMessage() (Message, error) {
	if w.JSONRPC != "2.0" {
		return nil, errf.Errorf("%w: jsonrpc member is %q, want \"2.0\"", ErrInvalidMessage, w.JSONRPC)
	}
	var id ID
	if len(w.ID) > 0 {
		if err := id.UnmarshalJSON(w.ID); err != nil {
			return nil, invalid(err)
		}
	}
	if w.Method != "" {
		if w.Result != nil || w.Error != nil {
			return nil, invalid("a message has both a method and a result or error")
		}
		return &Request{ID: id, Method: w.Method, Params: w.Params}, nil
	}
	if w.Error != nil {
		return &Response{ID: id, Error: w.Error}, nil
	}
	if w.Result != nil {
		if !id.IsValid() {
			return nil, invalid("a result without an id")
		}
		return &Response{ID: id, Result: w.Result}, nil
	}
	return nil, invalid("neither a method, a result nor an error")
}
