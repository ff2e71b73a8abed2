package sse_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
	"testing/iotest"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/mcpwasm/mcpwasm/internal/sse"
)

// result is everything observable from reading a stream to its end.
type result struct {
	Events   []sse.Event
	Err      string // "EOF", "too large", or the error text
	LastID   string
	Retry    time.Duration
	RetrySet bool
}

func errKind(err error) string {
	switch {
	case err == io.EOF:
		return "EOF"
	case errors.Is(err, sse.ErrEventTooLarge):
		return "too large"
	default:
		return err.Error()
	}
}

// collect reads src with a new Reader until Next fails.
func collect(tb testing.TB, src io.Reader, opts *sse.ReaderOptions) result {
	tb.Helper()
	r := sse.NewReader(src, opts)
	var res result
	for {
		ev, err := r.Next()
		if err != nil {
			res.Err = errKind(err)
			// Errors are sticky.
			_, err2 := r.Next()
			require.Equal(tb, err, err2, "error not sticky")
			break
		}
		require.NotNil(tb, ev.Data, "dispatched event with nil Data")
		res.Events = append(res.Events, ev)
	}
	res.LastID = r.LastEventID()
	res.Retry, res.RetrySet = r.Retry()
	return res
}

// randomChunkReader returns the data in chunks of 1..maxChunk bytes chosen
// by a fixed-seed generator.
type randomChunkReader struct {
	data     []byte
	rng      *rand.Rand
	maxChunk int
}

func newRandomChunkReader(data []byte, seed uint64, maxChunk int) *randomChunkReader {
	return &randomChunkReader{data: data, rng: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)), maxChunk: maxChunk}
}

func (r *randomChunkReader) Read(p []byte) (int, error) {
	if len(r.data) == 0 {
		return 0, io.EOF
	}
	n := 1 + r.rng.IntN(r.maxChunk)
	n = min(n, len(p), len(r.data))
	copy(p, r.data[:n])
	r.data = r.data[n:]
	return n, nil
}

// chunkSource hands over the data as chunks of 1..maxChunk bytes, some of
// them empty, through Chunk (the interface of the JavaScript fetch
// helper's bodies, which the Reader parses in place); the chunks are
// slices of one copy of the data, so a Reader that wrote into them would
// show in mem.
type chunkSource struct {
	mem      []byte
	data     []byte
	rng      *rand.Rand
	maxChunk int
	err      error // after the data; io.EOF if nil
}

func newChunkSource(data []byte, seed uint64, maxChunk int) *chunkSource {
	mem := bytes.Clone(data)
	return &chunkSource{mem: mem, data: mem, rng: rand.New(rand.NewPCG(seed, seed^0x51ed27)), maxChunk: maxChunk}
}

func (c *chunkSource) Chunk() ([]byte, error) {
	if len(c.data) == 0 {
		if c.err != nil {
			return nil, c.err
		}
		return nil, io.EOF
	}
	if c.rng.IntN(8) == 0 {
		return []byte{}, nil
	}
	n := min(1+c.rng.IntN(c.maxChunk), len(c.data))
	b := c.data[:n:n]
	c.data = c.data[n:]
	return b, nil
}

func (c *chunkSource) Read([]byte) (int, error) { panic("Read called on a chunk source") }

// chunksReader returns exactly the given chunks, one per Read call (p is
// always large enough in these tests).
type chunksReader struct {
	chunks []string
	err    error // returned after the chunks; io.EOF if nil
}

func (r *chunksReader) Read(p []byte) (int, error) {
	if len(r.chunks) == 0 {
		if r.err != nil {
			return 0, r.err
		}
		return 0, io.EOF
	}
	if len(p) < len(r.chunks[0]) {
		panic("chunksReader: buffer too small")
	}
	n := copy(p, r.chunks[0])
	r.chunks = r.chunks[1:]
	return n, nil
}

type readerVariant struct {
	name string
	make func(data []byte) io.Reader
}

// readerVariants are the ways the chunking-invariance tests feed a stream.
var readerVariants = []readerVariant{
	{"whole", func(b []byte) io.Reader { return bytes.NewReader(b) }},
	{"one-byte", func(b []byte) io.Reader { return iotest.OneByteReader(bytes.NewReader(b)) }},
	{"half", func(b []byte) io.Reader { return iotest.HalfReader(bytes.NewReader(b)) }},
	{"data-with-EOF", func(b []byte) io.Reader { return iotest.DataErrReader(bytes.NewReader(b)) }},
	{"random-small-1", func(b []byte) io.Reader { return newRandomChunkReader(b, 1, 4) }},
	{"random-small-2", func(b []byte) io.Reader { return newRandomChunkReader(b, 2, 7) }},
	{"random-medium", func(b []byte) io.Reader { return newRandomChunkReader(b, 3, 64) }},
	{"chunk-source-small", func(b []byte) io.Reader { return newChunkSource(b, 4, 5) }},
	{"chunk-source-big", func(b []byte) io.Reader { return newChunkSource(b, 5, 70000) }},
}

// parseAll parses input through every reader variant, requires that they
// all agree (events, final error, LastEventID and Retry), and returns the
// common result.
func parseAll(tb testing.TB, input string, opts *sse.ReaderOptions) result {
	tb.Helper()
	want := collect(tb, readerVariants[0].make([]byte(input)), opts)
	for _, v := range readerVariants[1:] {
		got := collect(tb, v.make([]byte(input)), opts)
		require.Equal(tb, want, got, "reader variant %q differs from %q", v.name, readerVariants[0].name)
	}
	return want
}

// ev builds an expected event.
func ev(typ, data, id string) sse.Event {
	return sse.Event{Type: typ, Data: []byte(data), ID: id}
}

// refParse is a deliberately naive reference implementation of the WHATWG
// algorithm working on the whole input at once: strip one BOM, split into
// lines, decode each line, process fields. limit <= 0 means the default.
func refParse(in []byte, limit int) result {
	if limit <= 0 {
		limit = 64 << 20
	}
	in = bytes.TrimPrefix(in, []byte("\xEF\xBB\xBF"))
	var (
		res              result
		data, typ, idBuf string
		size             int
	)
	for len(in) > 0 {
		var line []byte
		i := bytes.IndexAny(in, "\r\n")
		complete := i >= 0
		if complete {
			line = in[:i]
			if in[i] == '\r' && i+1 < len(in) && in[i+1] == '\n' {
				in = in[i+2:]
			} else {
				in = in[i+1:]
			}
		} else {
			line, in = in, nil
		}
		if len(line) == 0 || line[0] != ':' {
			size += len(line)
			if size > limit {
				res.Err = "too large"
				return res
			}
		}
		if !complete {
			break // incomplete line at EOF: discarded with the pending event
		}
		s := string(sse.AppendValidUTF8(nil, line))
		switch {
		case s == "":
			size = 0
			res.LastID = idBuf
			if data == "" {
				typ = ""
				continue
			}
			res.Events = append(res.Events, sse.Event{Type: typ, Data: []byte(strings.TrimSuffix(data, "\n")), ID: idBuf})
			data, typ = "", ""
		case s[0] == ':':
		default:
			name, value, found := strings.Cut(s, ":")
			if found {
				value = strings.TrimPrefix(value, " ")
			}
			switch name {
			case "event":
				typ = value
			case "data":
				data += value + "\n"
			case "id":
				if !strings.Contains(value, "\x00") {
					idBuf = value
				}
			case "retry":
				if value != "" && strings.Trim(value, "0123456789") == "" {
					ms, err := strconv.ParseUint(value, 10, 64)
					if err != nil || ms > math.MaxInt64/uint64(time.Millisecond) {
						res.Retry = math.MaxInt64
					} else {
						res.Retry = time.Duration(ms) * time.Millisecond
					}
					res.RetrySet = true
				}
			}
		}
	}
	res.Err = "EOF"
	return res
}

// normalizeEvents makes nil and empty Data compare equal.
func normalizeEvents(evs []sse.Event) []sse.Event {
	out := make([]sse.Event, len(evs))
	for i, e := range evs {
		if e.Data == nil {
			e.Data = []byte{}
		}
		out[i] = e
	}
	return out
}

func (r result) String() string {
	return fmt.Sprintf("%d events, err=%s, lastID=%q, retry=%v/%v", len(r.Events), r.Err, r.LastID, r.Retry, r.RetrySet)
}
