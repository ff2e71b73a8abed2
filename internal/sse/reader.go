package sse

import (
	"bytes"
	"errors"
	"io"
	"math"
	"time"
	"unicode/utf8"

	"github.com/mcpwasm/mcpwasm/internal/errf"
	"github.com/mcpwasm/mcpwasm/internal/nozero"
)

const (
	// defaultMaxEventSize is the value used when ReaderOptions.MaxEventSize
	// is zero or negative.
	defaultMaxEventSize = 64 << 20

	// readBufMin is the size of the read buffer a Reader starts with, and
	// readBufSize the size it doubles up to while reads fill it: most
	// streams carry one small message (a request's answer), and a 32 KB
	// buffer per stream was most of the memory a native call allocated
	// (cleared, and collected, at every call).
	readBufMin  = 4 << 10
	readBufSize = 32 << 10

	// maxRetainedBuf is the largest scratch buffer capacity kept between
	// events; larger buffers are handed to the caller or dropped so that one
	// huge event does not pin memory for the lifetime of the Reader.
	maxRetainedBuf = 256 << 10

	// maxEmptyReads is the number of consecutive (0, nil) results from the
	// underlying reader tolerated before giving up with io.ErrNoProgress.
	maxEmptyReads = 100
)

// ErrEventTooLarge is returned, wrapped with detail via %w, by [Reader.Next]
// when one event exceeds [ReaderOptions.MaxEventSize]. Test for it with
// errors.Is.
var ErrEventTooLarge = errors.New("sse: event too large")

// errInvalidRead is reported when the underlying reader returns an
// impossible byte count.
var errInvalidRead = errors.New("sse: underlying reader returned invalid count")

// Event is one dispatched event.
//
// Event values are plain data and may be copied and used from any goroutine.
type Event struct {
	// Type is the value of the last "event" field of the event; "" means the
	// default type "message".
	Type string
	// Data is the event's data lines joined with "\n" (no trailing newline).
	// For an event returned by [Reader.Next] it is never nil (an event with a
	// single empty data line, such as an MCP priming event, has an empty,
	// non-nil Data). It is owned by the caller and remains valid after later
	// calls to Next.
	Data []byte
	// ID is the last-event-ID buffer at dispatch time. It persists across
	// events: an event without an "id" field carries the ID of the most
	// recent "id" field.
	ID string
}

// ReaderOptions configures a [Reader]. The zero value (or a nil pointer)
// selects the defaults. NewReader copies what it needs, so an options value
// may be shared and reused.
type ReaderOptions struct {
	// MaxEventSize bounds the bytes buffered for one event (data + field
	// lines). Precisely: the total length of the non-comment lines received
	// since the previous blank line, excluding line terminators, may not
	// exceed MaxEventSize; the check is made as bytes arrive, so an endless
	// line is caught as well. Comment lines are discarded without buffering
	// and never count. Because field names and the separator count, a data
	// value of exactly MaxEventSize bytes does not fit. 0 (or a negative
	// value) means the default, 64 MiB; use math.MaxInt for no practical
	// limit.
	MaxEventSize int
	// Buf, when not empty, is the read buffer the Reader starts with (all
	// of its length; it still doubles up to 32 KiB as reads fill it).
	// Nothing the Reader returns refers to it, so the caller may use it
	// again for another Reader once it no longer calls this one (a pool
	// of buffers saves a 4 KiB allocation per stream). Ignored when r
	// hands over its own chunks.
	Buf []byte
}

type parseState uint8

const (
	stateLineStart  parseState = iota // at the first byte of a line
	stateName                         // reading a field name
	stateValueStart                   // just after the ':' (one space may be skipped)
	stateValue                        // reading a field value
	stateComment                      // discarding a comment line
)

type fieldKind uint8

const (
	fieldUnknown fieldKind = iota
	fieldData
	fieldEvent
	fieldID
	fieldRetry
)

// Reader parses a Server-Sent Events stream from an io.Reader.
//
// A Reader is not safe for concurrent use: Next, LastEventID and Retry must
// not be called concurrently with each other from multiple goroutines
// without external synchronization. Distinct Readers are independent.
//
// Next blocks in the underlying Read. The Reader never closes its source; to
// abandon a stream (for example on context cancellation), close the source
// (such as the HTTP response body) from another goroutine, which makes the
// pending Read, and so Next, fail.
type Reader struct {
	src     io.Reader
	chunks  chunkSource // src, when it hands over chunks (then buf is the current one)
	buf     []byte      // read buffer: readBufMin bytes, doubled up to readBufSize
	filled  bool        // the last read filled buf
	rpos    int         // next unread byte in buf
	wpos    int         // end of valid bytes in buf
	readErr error       // error from src, reported once buf is drained
	err     error       // sticky error returned by Next

	bomChecked bool // the optional leading BOM has been handled
	skipLF     bool // previous line ended in CR: an immediately following LF is part of that line end

	state parseState
	field fieldKind
	name  []byte // field name being read
	val   []byte // value of an event/id/retry field being read

	maxEventSize int
	eventSize    int // bytes of non-comment lines since the last blank line

	data      []byte   // data buffer (each data line's value followed by "\n")
	pend      [][]byte // pieces of the current data line, in chunks not yet copied to data
	pendLen   int      // their total length
	dataMixed bool     // data may hold bytes outside ASCII (it is then checked for UTF-8)
	eventType string   // event type buffer
	typeCache string   // last event type string allocated, reused when repeated
	idBuf     string   // last-event-ID buffer
	lastID    string   // last event ID string (idBuf as of the last blank line)

	retry    time.Duration
	retrySet bool
}

// NewReader returns a Reader that parses the event stream read from r.
// opts may be nil, which selects the defaults; opts is only read during the
// call. The Reader does its own buffering, so r need not be buffered. The
// returned Reader is not safe for concurrent use.
func NewReader(r io.Reader, opts *ReaderOptions) *Reader {
	limit := defaultMaxEventSize
	if opts != nil && opts.MaxEventSize > 0 {
		limit = opts.MaxEventSize
	}
	if c, ok := r.(chunkSource); ok {
		return &Reader{src: r, chunks: c, maxEventSize: limit}
	}
	buf := []byte(nil)
	if opts != nil && len(opts.Buf) > 0 {
		buf = opts.Buf
	} else {
		buf = make([]byte, readBufMin)
	}
	return &Reader{src: r, buf: buf, maxEventSize: limit}
}

// chunkSource is a source that hands over what it read in chunks the
// Reader may keep (the JavaScript fetch helper's bodies, whose chunks were
// copied into the module once already): the Reader parses each in place
// instead of copying it into a buffer of its own. Chunk blocks like Read
// and returns io.EOF (unwrapped) at the end.
type chunkSource interface {
	Chunk() ([]byte, error)
}

// Next reads until the next event is dispatched and returns it.
//
// It returns io.EOF (unwrapped) when the stream ends cleanly; an incomplete
// event at the end of the stream (one without its terminating blank line) is
// discarded, as the specification requires. Other errors from the
// underlying reader are returned wrapped with %w; an oversized event yields
// an error wrapping [ErrEventTooLarge]. Events that were complete before a
// read error are returned before the error. Errors are sticky: once Next has
// returned an error, every later call returns the same error.
//
// Next must not be called concurrently with other methods of r.
func (r *Reader) Next() (Event, error) {
	if r.err != nil {
		return Event{}, r.err
	}
	if !r.bomChecked {
		r.skipBOM()
	}
	for {
		if ev, ok := r.parse(); ok {
			return ev, nil
		}
		if r.err != nil {
			return Event{}, r.err
		}
		// The buffer is drained.
		if r.readErr != nil {
			if r.readErr == io.EOF { // io.Reader contract: EOF is returned unwrapped
				r.fail(io.EOF)
			} else {
				r.fail(errf.Errorf("sse: reading event stream: %w", r.readErr))
			}
			return Event{}, r.err
		}
		r.fill()
	}
}

// LastEventID returns the current last event ID: the value of the most
// recent valid "id" field, as of the most recent blank line. It is updated
// by every block terminated by a blank line, including blocks that dispatch
// no event (for example "id: 7\n\n"). An "id" field in an incomplete block
// at the end of the stream is not reflected, because that block is
// discarded. This is the value to send in a Last-Event-ID header when
// reconnecting.
//
// LastEventID must not be called concurrently with other methods of r.
func (r *Reader) LastEventID() string {
	return r.lastID
}

// Retry returns the reconnection time from the most recent valid "retry"
// field seen so far and whether any valid retry field has been seen. As in
// the specification, a retry field takes effect as soon as its line has
// been read, even if the block it is in is never dispatched. Values too
// large for a time.Duration saturate at the maximum Duration.
//
// Retry must not be called concurrently with other methods of r.
func (r *Reader) Retry() (time.Duration, bool) {
	return r.retry, r.retrySet
}

// fill reads more bytes into the buffer. It must be called only when the
// buffer has room; Next calls it only after draining the buffer.
func (r *Reader) fill() {
	if r.chunks != nil {
		r.fillChunk()
		return
	}
	if r.rpos == r.wpos {
		r.rpos, r.wpos = 0, 0
		if r.filled && len(r.buf) < readBufSize {
			// The last read filled the buffer: the stream has more to say.
			r.buf = make([]byte, min(2*len(r.buf), readBufSize))
		}
	}
	for i := 0; i < maxEmptyReads; i++ {
		n, err := r.src.Read(r.buf[r.wpos:])
		if n < 0 || n > len(r.buf)-r.wpos {
			r.readErr = errInvalidRead
			return
		}
		r.wpos += n
		r.filled = r.wpos == len(r.buf)
		if err != nil {
			r.readErr = err
			return
		}
		if n > 0 {
			return
		}
	}
	r.readErr = io.ErrNoProgress
}

// fillChunk takes the source's next chunk as the buffer (after what is
// left of the current one, which only a partial BOM leaves).
func (r *Reader) fillChunk() {
	for i := 0; i < maxEmptyReads; i++ {
		c, err := r.chunks.Chunk()
		if len(c) > 0 {
			if rest := r.buf[r.rpos:r.wpos]; len(rest) > 0 {
				c = append(rest[:len(rest):len(rest)], c...)
			}
			r.buf, r.rpos, r.wpos = c, 0, len(c)
		}
		if err != nil {
			r.readErr = err
			return
		}
		if len(c) > 0 {
			return
		}
	}
	r.readErr = io.ErrNoProgress
}

var bom = []byte{0xEF, 0xBB, 0xBF}

// skipBOM strips one leading UTF-8 byte order mark. It reads only as many
// bytes as needed to decide, so it never blocks on a stream whose first
// byte already rules out a BOM.
func (r *Reader) skipBOM() {
	for {
		avail := r.buf[r.rpos:r.wpos]
		if len(avail) >= len(bom) || !bytes.HasPrefix(bom, avail) || r.readErr != nil {
			if bytes.HasPrefix(avail, bom) {
				r.rpos += len(bom)
			}
			r.bomChecked = true
			return
		}
		r.fill()
	}
}

// grow accounts for n more bytes of the current event. It reports false,
// and sets the sticky error, if the event becomes too large.
func (r *Reader) grow(n int) bool {
	r.eventSize += n
	if r.eventSize > r.maxEventSize {
		r.fail(errf.Errorf("%w: more than %d bytes in one event", ErrEventTooLarge, r.maxEventSize))
		return false
	}
	return true
}

// fail sets the sticky error and releases the buffers, which are never
// used again (and may be large after an oversized event).
func (r *Reader) fail(err error) {
	r.err = err
	r.buf, r.rpos, r.wpos = nil, 0, 0
	r.data, r.name, r.val = nil, nil, nil
	r.pend, r.pendLen = nil, 0
}

// parse consumes buffered bytes until an event is dispatched (ok is true),
// the buffer is drained, or an error is set.
func (r *Reader) parse() (ev Event, ok bool) {
	for r.rpos < r.wpos {
		b := r.buf[r.rpos:r.wpos]
		if r.skipLF {
			r.skipLF = false
			if b[0] == '\n' {
				r.rpos++
				continue
			}
		}
		switch r.state {
		case stateLineStart:
			switch c := b[0]; c {
			case '\n', '\r':
				r.endLine(c)
				if ev, ok := r.blankLine(); ok {
					return ev, true
				}
			case ':':
				r.rpos++
				r.state = stateComment
			default:
				r.name = r.name[:0]
				r.state = stateName
			}

		case stateComment:
			i := indexEOL(b)
			if i < 0 {
				r.rpos = r.wpos
				return Event{}, false
			}
			r.rpos += i
			r.endLine(b[i])

		case stateName:
			i := 0
			for i < len(b) && b[i] != ':' && b[i] != '\n' && b[i] != '\r' {
				i++
			}
			if !r.grow(i) {
				return Event{}, false
			}
			r.name = append(r.name, b[:i]...)
			r.rpos += i
			if i == len(b) {
				return Event{}, false
			}
			r.field = classify(r.name)
			if cap(r.name) > maxRetainedBuf {
				r.name = nil
			}
			r.val = r.val[:0]
			if c := b[i]; c == ':' {
				if !r.grow(1) {
					return Event{}, false
				}
				r.rpos++
				r.state = stateValueStart
			} else {
				// No colon: the whole line is the name, the value is empty.
				r.finishField()
				r.endLine(c)
			}

		case stateValueStart:
			if b[0] == ' ' {
				if !r.grow(1) {
					return Event{}, false
				}
				r.rpos++
			}
			r.state = stateValue

		case stateValue:
			i, ascii := scanLine(b)
			seg := b
			if i >= 0 {
				seg = b[:i]
			}
			if !r.grow(len(seg)) {
				return Event{}, false
			}
			switch r.field {
			case fieldData:
				r.addData(seg, i >= 0)
				r.dataMixed = r.dataMixed || !ascii
			case fieldEvent, fieldID, fieldRetry:
				r.val = append(r.val, seg...)
			}
			r.rpos += len(seg)
			if i >= 0 {
				r.finishField()
				r.endLine(b[i])
			}
		}
	}
	return Event{}, false
}

// maxPend bounds the pieces of one data line kept in their chunks.
const maxPend = 64

// addData adds seg, a piece of the current data line (its last when
// ends), to the event's data. A line that goes on past the end of a chunk
// (a multi-megabyte result arrives in chunks of 64 KB) is kept where it is,
// in the chunks, which are the Reader's to keep, and copied once when it
// ends, into data grown once to the size it needs: appending each piece as
// it came copied a 1 MB line about twice over and zeroed as much again.
// Up to maxPend pieces are kept; past that they are copied as they come.
func (r *Reader) addData(seg []byte, ends bool) {
	if !ends && r.chunks != nil && len(r.pend) < maxPend {
		r.pend = append(r.pend, seg)
		r.pendLen += len(seg)
		return
	}
	need := len(r.data) + r.pendLen + len(seg) + 1 // and the "\n" finishField adds
	if need > cap(r.data) {
		n := need
		if !ends || len(r.data) > 0 {
			// More is coming (more pieces, or lines after this one):
			// double, so that a long event is copied a bounded number
			// of times.
			n = max(need, 2*cap(r.data))
		}
		r.data = nozero.Grow(r.data, n)
	}
	for k, p := range r.pend {
		r.data = append(r.data, p...)
		r.pend[k] = nil
	}
	r.pend, r.pendLen = r.pend[:0], 0
	r.data = append(r.data, seg...)
}

// endLine consumes the line terminator byte c at r.rpos.
func (r *Reader) endLine(c byte) {
	r.rpos++
	r.skipLF = c == '\r'
	r.state = stateLineStart
}

func classify(name []byte) fieldKind {
	switch string(name) {
	case "data":
		return fieldData
	case "event":
		return fieldEvent
	case "id":
		return fieldID
	case "retry":
		return fieldRetry
	}
	return fieldUnknown
}

// finishField processes a complete field whose value is in r.val (or has
// already been appended to r.data for data fields).
func (r *Reader) finishField() {
	switch r.field {
	case fieldData:
		r.data = append(r.data, '\n')
	case fieldEvent:
		r.eventType = toString(r.val, r.typeCache)
		r.typeCache = r.eventType
	case fieldID:
		if bytes.IndexByte(r.val, 0) < 0 {
			r.idBuf = toString(r.val, r.idBuf)
		}
	case fieldRetry:
		if d, ok := parseRetry(r.val); ok {
			r.retry, r.retrySet = d, true
		}
	}
	if cap(r.val) > maxRetainedBuf {
		r.val = nil
	}
}

// toString returns b as a string after UTF-8 replacement, reusing prev
// (without allocating) when it is equal.
func toString(b []byte, prev string) string {
	if !utf8.Valid(b) {
		b = appendValidUTF8(nil, b)
	}
	if string(b) == prev {
		return prev
	}
	return string(b)
}

// parseRetry interprets a retry field value: only non-empty strings of ASCII
// digits are valid. The result saturates at the maximum time.Duration.
func parseRetry(b []byte) (time.Duration, bool) {
	if len(b) == 0 {
		return 0, false
	}
	const maxMs = int64(math.MaxInt64 / int64(time.Millisecond))
	var ms int64
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		if ms <= maxMs {
			ms = ms*10 + int64(c-'0')
		}
	}
	if ms > maxMs {
		return time.Duration(math.MaxInt64), true
	}
	return time.Duration(ms) * time.Millisecond, true
}

// blankLine runs the dispatch steps for a blank line.
func (r *Reader) blankLine() (Event, bool) {
	r.eventSize = 0
	r.lastID = r.idBuf
	if len(r.data) == 0 {
		r.eventType = ""
		return Event{}, false
	}
	d := r.data[:len(r.data)-1] // strip the trailing "\n"
	mixed := r.dataMixed
	r.dataMixed = false
	var out []byte
	switch {
	case mixed && !utf8.Valid(d):
		out = appendValidUTF8(make([]byte, 0, len(d)+8), d)
	case cap(r.data) > maxRetainedBuf:
		// Hand the large buffer to the caller instead of copying it, and
		// do not retain it.
		out = d
		r.data = nil
	default:
		out = make([]byte, len(d))
		copy(out, d)
	}
	if cap(r.data) > maxRetainedBuf {
		r.data = nil
	} else {
		r.data = r.data[:0]
	}
	ev := Event{Type: r.eventType, Data: out, ID: r.idBuf}
	r.eventType = ""
	return ev, true
}
