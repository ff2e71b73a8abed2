package sse_test

import (
	"bytes"
	"errors"
	"io"
	"math"
	"strings"
	"testing"
	"testing/iotest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpwasm/mcpwasm/internal/sse"
)

type parseCase struct {
	name     string
	in       string
	want     []sse.Event
	lastID   string
	retry    time.Duration
	retrySet bool
}

// parseCases are the specification rules, one case per behaviour. Each is
// parsed through every reader variant (see parseAll), checked against
// refParse, and used as a fuzz seed.
var parseCases = []parseCase{
	{name: "empty stream", in: ""},
	{name: "only blank lines", in: "\n\n\r\n\r\r"},
	{name: "single event", in: "data: hello\n\n", want: []sse.Event{ev("", "hello", "")}},
	{name: "no space after colon", in: "data:hello\n\n", want: []sse.Event{ev("", "hello", "")}},
	{name: "only one leading space removed", in: "data:  hello\n\n", want: []sse.Event{ev("", " hello", "")}},
	{name: "tab is not removed", in: "data:\thello\n\n", want: []sse.Event{ev("", "\thello", "")}},
	{name: "trailing spaces kept", in: "data: a  \n\n", want: []sse.Event{ev("", "a  ", "")}},
	{name: "value of spaces", in: "data:   \n\n", want: []sse.Event{ev("", "  ", "")}},
	{name: "colon in value", in: "data: a:b: c\n\n", want: []sse.Event{ev("", "a:b: c", "")}},
	{name: "value starting with colon", in: "data::x\n\n", want: []sse.Event{ev("", ":x", "")}},
	{name: "multi-line data", in: "data: a\ndata: b\ndata: c\n\n", want: []sse.Event{ev("", "a\nb\nc", "")}},
	{name: "data without colon", in: "data\n\n", want: []sse.Event{ev("", "", "")}},
	{name: "data with empty value", in: "data:\n\n", want: []sse.Event{ev("", "", "")}},
	{name: "two data lines without colon", in: "data\ndata\n\n", want: []sse.Event{ev("", "\n", "")}},
	{name: "trailing empty data line", in: "data: a\ndata:\n\n", want: []sse.Event{ev("", "a\n", "")}},
	{name: "leading empty data line", in: "data\ndata: a\n\n", want: []sse.Event{ev("", "\na", "")}},
	{name: "NUL in data kept", in: "data: a\x00b\n\n", want: []sse.Event{ev("", "a\x00b", "")}},
	{name: "several events", in: "data: 1\n\ndata: 2\n\ndata: 3\n\n", want: []sse.Event{ev("", "1", ""), ev("", "2", ""), ev("", "3", "")}},
	{name: "extra blank lines", in: "\n\n\ndata: a\n\n\n\n\ndata: b\n\n\n", want: []sse.Event{ev("", "a", ""), ev("", "b", "")}},

	// Comments and keep-alives.
	{name: "comments only", in: ":\n: ping\n\n:keep-alive\r\n\r\n"},
	{name: "comment inside event", in: "data: a\n: comment\ndata: b\n\n", want: []sse.Event{ev("", "a\nb", "")}},
	{name: "comment does not dispatch", in: "data: a\n:\n", want: nil},
	{name: "comment with data-like text", in: ": data: x\n\n", want: nil},
	{name: "comment with CR", in: ": a\rdata: x\r\r", want: []sse.Event{ev("", "x", "")}},

	// Priming events (MCP Streamable HTTP).
	{
		name: "priming event", in: "id: x\nretry: 500\ndata: \n\n",
		want: []sse.Event{ev("", "", "x")}, lastID: "x", retry: 500 * time.Millisecond, retrySet: true,
	},
	{
		name: "priming event then message", in: "id: p1\nretry: 3000\ndata:\n\nid: p2\nevent: message\ndata: {\"jsonrpc\":\"2.0\"}\n\n",
		want:   []sse.Event{ev("", "", "p1"), ev("message", `{"jsonrpc":"2.0"}`, "p2")},
		lastID: "p2", retry: 3 * time.Second, retrySet: true,
	},

	// Event type.
	{name: "event type", in: "event: add\ndata: 1\n\n", want: []sse.Event{ev("add", "1", "")}},
	{name: "event type after data", in: "data: 1\nevent: add\n\n", want: []sse.Event{ev("add", "1", "")}},
	{name: "event type resets after dispatch", in: "event: add\ndata: 1\n\ndata: 2\n\n", want: []sse.Event{ev("add", "1", ""), ev("", "2", "")}},
	{name: "event type resets on blank line without data", in: "event: x\n\ndata: 2\n\n", want: []sse.Event{ev("", "2", "")}},
	{name: "last event field wins", in: "event: a\nevent: b\ndata: x\n\n", want: []sse.Event{ev("b", "x", "")}},
	{name: "event field without value", in: "event: a\nevent\ndata: x\n\n", want: []sse.Event{ev("", "x", "")}},
	{name: "event type message kept verbatim", in: "event: message\ndata: x\n\n", want: []sse.Event{ev("message", "x", "")}},
	{name: "event type with leading space", in: "event:  sp\ndata: x\n\n", want: []sse.Event{ev(" sp", "x", "")}},
	{name: "event type only, no dispatch", in: "event: x\n\n", want: nil},

	// IDs.
	{name: "id", in: "id: 1\ndata: a\n\n", want: []sse.Event{ev("", "a", "1")}, lastID: "1"},
	{
		name: "id persists across events", in: "id: 1\ndata: a\n\ndata: b\n\nid: 2\ndata: c\n\ndata: d\n\n",
		want: []sse.Event{ev("", "a", "1"), ev("", "b", "1"), ev("", "c", "2"), ev("", "d", "2")}, lastID: "2",
	},
	{name: "id after data in same block", in: "data: a\nid: 7\n\n", want: []sse.Event{ev("", "a", "7")}, lastID: "7"},
	{name: "id without colon resets", in: "id: 1\ndata: a\n\nid\ndata: b\n\n", want: []sse.Event{ev("", "a", "1"), ev("", "b", "")}},
	{name: "empty id resets", in: "id: 1\ndata: a\n\nid:\ndata: b\n\n", want: []sse.Event{ev("", "a", "1"), ev("", "b", "")}},
	{
		name: "id with NUL ignored", in: "id: 1\ndata: a\n\nid: 2\x003\ndata: b\n\n",
		want: []sse.Event{ev("", "a", "1"), ev("", "b", "1")}, lastID: "1",
	},
	{name: "id with only NUL ignored", in: "id: 1\nid: \x00\ndata: a\n\n", want: []sse.Event{ev("", "a", "1")}, lastID: "1"},
	{name: "id-only block updates LastEventID", in: "id: 5\n\n", lastID: "5"},
	{
		name: "id-only block then event", in: "id: 5\n\ndata: a\n\n",
		want: []sse.Event{ev("", "a", "5")}, lastID: "5",
	},
	{name: "id with leading space", in: "id:  5\ndata: a\n\n", want: []sse.Event{ev("", "a", " 5")}, lastID: " 5"},
	{name: "last id field wins", in: "id: 1\nid: 2\ndata: a\n\n", want: []sse.Event{ev("", "a", "2")}, lastID: "2"},
	{
		name: "id in incomplete final block is discarded", in: "id: 1\ndata: a\n\nid: 9\ndata: b\n",
		want: []sse.Event{ev("", "a", "1")}, lastID: "1",
	},

	// retry.
	{name: "retry", in: "retry: 1000\n", retry: time.Second, retrySet: true},
	{name: "retry zero", in: "retry:0\n\n", retry: 0, retrySet: true},
	{name: "retry leading zeros", in: "retry: 007\n\n", retry: 7 * time.Millisecond, retrySet: true},
	{name: "retry latest wins", in: "retry: 100\nretry: 200\n\n", retry: 200 * time.Millisecond, retrySet: true},
	{name: "retry persists past invalid values", in: "retry: 100\n\nretry: abc\n\nretry: -5\n\n", retry: 100 * time.Millisecond, retrySet: true},
	{name: "retry in incomplete block still applies", in: "data: a\n\nretry: 300\n", want: []sse.Event{ev("", "a", "")}, retry: 300 * time.Millisecond, retrySet: true},
	{name: "retry on unterminated last line ignored", in: "retry: 300", want: nil},
	{name: "retry does not dispatch", in: "retry: 10\n\n", retry: 10 * time.Millisecond, retrySet: true},
	{name: "retry saturates", in: "retry: 99999999999999999999999999\n", retry: math.MaxInt64, retrySet: true},
	{name: "retry largest exact", in: "retry: 9223372036854\n", retry: 9223372036854 * time.Millisecond, retrySet: true},
	{name: "retry just above largest", in: "retry: 9223372036855\n", retry: math.MaxInt64, retrySet: true},
	{name: "retry invalid unit", in: "retry: 5s\n"},
	{name: "retry invalid negative", in: "retry: -1\n"},
	{name: "retry invalid plus", in: "retry: +5\n"},
	{name: "retry invalid decimal", in: "retry: 1.5\n"},
	{name: "retry invalid hex", in: "retry: 0x10\n"},
	{name: "retry invalid empty", in: "retry:\n"},
	{name: "retry invalid no colon", in: "retry\n"},
	{name: "retry invalid one space", in: "retry: \n"},
	{name: "retry invalid two leading spaces", in: "retry:  500\n"},
	{name: "retry invalid trailing space", in: "retry: 500 \n"},
	{name: "retry invalid non-ASCII digit", in: "retry: \u0663\n"},
	{name: "retry invalid fullwidth digit", in: "retry: \uff15\n"},

	// Unknown fields and field-name rules.
	{name: "unknown fields ignored", in: "foo: bar\ndata: a\nbaz\n\n", want: []sse.Event{ev("", "a", "")}},
	{name: "unknown field only", in: "foo\n\n", want: nil},
	{name: "field names are case-sensitive", in: "Data: a\nDATA: b\nEvent: x\nID: 1\nRetry: 5\ndata: c\n\n", want: []sse.Event{ev("", "c", "")}},
	{name: "space before colon is part of the name", in: "data : a\ndata: b\n\n", want: []sse.Event{ev("", "b", "")}},
	{name: "leading space before name", in: " data: a\ndata: b\n\n", want: []sse.Event{ev("", "b", "")}},
	{name: "empty field name", in: ":x\ndata: b\n\n", want: []sse.Event{ev("", "b", "")}},

	// Line endings.
	{name: "CRLF", in: "data: a\r\ndata: b\r\n\r\n", want: []sse.Event{ev("", "a\nb", "")}},
	{name: "CR", in: "data: a\rdata: b\r\r", want: []sse.Event{ev("", "a\nb", "")}},
	{name: "mixed endings", in: "data: a\rdata: b\r\ndata: c\n\r\n", want: []sse.Event{ev("", "a\nb\nc", "")}},
	{name: "LF CR is two line ends", in: "data: a\n\rdata: b\n\n", want: []sse.Event{ev("", "a", ""), ev("", "b", "")}},
	{name: "CR CR LF", in: "data: a\r\r\ndata: b\r\n\r\n", want: []sse.Event{ev("", "a", ""), ev("", "b", "")}},
	{name: "CRLF blank lines", in: "data: a\r\n\r\n\r\n\r\ndata: b\r\n\r\n", want: []sse.Event{ev("", "a", ""), ev("", "b", "")}},
	{name: "CR after field name", in: "data\rdata\r\r", want: []sse.Event{ev("", "\n", "")}},
	{name: "CR after colon", in: "data:\r\r", want: []sse.Event{ev("", "", "")}},
	{name: "id with CRLF", in: "id: 1\r\ndata: a\r\n\r\n", want: []sse.Event{ev("", "a", "1")}, lastID: "1"},

	// End of stream.
	{name: "missing final blank line", in: "data: a\n\ndata: b\n", want: []sse.Event{ev("", "a", "")}},
	{name: "missing final line end", in: "data: a\n\ndata: b", want: []sse.Event{ev("", "a", "")}},
	{name: "single unterminated line", in: "data: a", want: nil},
	{name: "ends with CR", in: "data: a\r\r", want: []sse.Event{ev("", "a", "")}},
	{name: "ends with single CR", in: "data: a\r", want: nil},

	// Byte order mark.
	{name: "BOM stripped", in: "\xEF\xBB\xBFdata: a\n\n", want: []sse.Event{ev("", "a", "")}},
	{name: "BOM then comment", in: "\xEF\xBB\xBF: hi\ndata: a\n\n", want: []sse.Event{ev("", "a", "")}},
	{name: "BOM then blank line", in: "\xEF\xBB\xBF\ndata: a\n\n", want: []sse.Event{ev("", "a", "")}},
	{name: "BOM only", in: "\xEF\xBB\xBF"},
	{name: "only one BOM stripped", in: "\xEF\xBB\xBF\xEF\xBB\xBFdata: a\n\ndata: b\n\n", want: []sse.Event{ev("", "b", "")}},
	{name: "BOM mid-stream not stripped", in: "data: a\n\n\xEF\xBB\xBFdata: b\n\n", want: []sse.Event{ev("", "a", "")}},
	{name: "BOM inside data kept", in: "data: \xEF\xBB\xBFx\n\n", want: []sse.Event{ev("", "\uFEFFx", "")}},
	{name: "partial BOM is not a BOM", in: "\xEF\xBBdata: a\n\ndata: b\n\n", want: []sse.Event{ev("", "b", "")}},
	{name: "partial BOM at EOF", in: "\xEF\xBB"},
	{name: "BOM without trailing bytes then data", in: "\xEF\xBB\xBF\n", want: nil},

	// UTF-8 decoding (WHATWG: one U+FFFD per maximal invalid subpart).
	{name: "valid UTF-8 passes through", in: "data: héllo 世界 😀\n\n", want: []sse.Event{ev("", "héllo 世界 😀", "")}},
	{name: "invalid byte replaced", in: "data: a\xFFb\n\n", want: []sse.Event{ev("", "a\uFFFDb", "")}},
	{name: "truncated sequence is one replacement", in: "data: \xE2\x82A\n\n", want: []sse.Event{ev("", "\uFFFDA", "")}},
	{name: "truncated sequence before line end", in: "data: \xF0\x9F\x98\ndata: x\n\n", want: []sse.Event{ev("", "\uFFFD\nx", "")}},
	{name: "surrogate encoding replaced per byte", in: "data: \xED\xA0\x80\n\n", want: []sse.Event{ev("", "\uFFFD\uFFFD\uFFFD", "")}},
	{name: "overlong replaced per byte", in: "data: \xC0\xAF\n\n", want: []sse.Event{ev("", "\uFFFD\uFFFD", "")}},
	{name: "invalid UTF-8 in event type", in: "event: \xE2\x82\ndata: x\n\n", want: []sse.Event{ev("\uFFFD", "x", "")}},
	{name: "invalid UTF-8 in id", in: "id: a\xC3b\ndata: x\n\n", want: []sse.Event{ev("", "x", "a\uFFFDb")}, lastID: "a\uFFFDb"},
	{name: "invalid UTF-8 in field name", in: "dat\xE1: x\ndata: y\n\n", want: []sse.Event{ev("", "y", "")}},
}

func TestParse(t *testing.T) {
	for _, tc := range parseCases {
		t.Run(tc.name, func(t *testing.T) {
			got := parseAll(t, tc.in, nil)
			assert.Equal(t, "EOF", got.Err)
			assert.Equal(t, normalizeEvents(tc.want), normalizeEvents(got.Events))
			assert.Equal(t, tc.lastID, got.LastID, "LastEventID")
			assert.Equal(t, tc.retrySet, got.RetrySet, "retry set")
			assert.Equal(t, tc.retry, got.Retry, "retry")
			// The naive reference implementation agrees.
			assert.Equal(t, got, refParse([]byte(tc.in), 0), "reference parser")
		})
	}
}

func TestEOFIsUnwrapped(t *testing.T) {
	r := sse.NewReader(strings.NewReader("data: a\n\n"), nil)
	_, err := r.Next()
	require.NoError(t, err)
	_, err = r.Next()
	require.Equal(t, io.EOF, err) //nolint:errorlint // io.EOF must be returned unwrapped
}

func TestLastEventIDAndRetryBetweenEvents(t *testing.T) {
	r := sse.NewReader(strings.NewReader("id: 1\nretry: 10\ndata: a\n\nid: 2\n\nretry: 20\nid: 3\ndata: b\n\n"), nil)
	assert.Equal(t, "", r.LastEventID())
	_, ok := r.Retry()
	assert.False(t, ok)

	e, err := r.Next()
	require.NoError(t, err)
	assert.Equal(t, ev("", "a", "1"), e)
	assert.Equal(t, "1", r.LastEventID())
	d, ok := r.Retry()
	assert.True(t, ok)
	assert.Equal(t, 10*time.Millisecond, d)

	e, err = r.Next()
	require.NoError(t, err)
	assert.Equal(t, ev("", "b", "3"), e)
	assert.Equal(t, "3", r.LastEventID())
	d, _ = r.Retry()
	assert.Equal(t, 20*time.Millisecond, d)

	_, err = r.Next()
	require.ErrorIs(t, err, io.EOF)
	assert.Equal(t, "3", r.LastEventID())
}

// TestCRLFSplitAcrossReads feeds explicit chunk boundaries between a CR
// and the LF that follows it: the pair must count as one line end.
func TestCRLFSplitAcrossReads(t *testing.T) {
	tests := []struct {
		name   string
		chunks []string
		want   []sse.Event
	}{
		{
			name:   "CR|LF inside an event",
			chunks: []string{"data: a\r", "\ndata: b\r", "\n\r", "\n"},
			want:   []sse.Event{ev("", "a\nb", "")},
		},
		{
			// The blank line's CR ends one read and dispatches; the LF that
			// starts the next read belongs to it and must not be a second
			// (blank) line end.
			name:   "CR|LF on the dispatching blank line",
			chunks: []string{"data: a\r\r", "\ndata: b\r", "\ndata: c\n\n"},
			want:   []sse.Event{ev("", "a", ""), ev("", "b\nc", "")},
		},
		{
			name:   "CR|LF after field name without colon",
			chunks: []string{"data\r", "\ndata: x\r", "\n\r", "\n"},
			want:   []sse.Event{ev("", "\nx", "")},
		},
		{
			name:   "CR|LF after comment",
			chunks: []string{"data: a\r", "\n: c\r", "\ndata: b\r\n\r", "\n"},
			want:   []sse.Event{ev("", "a\nb", "")},
		},
		{
			name:   "CR|LF after colon",
			chunks: []string{"data:\r", "\ndata: b\r\n\r", "\n"},
			want:   []sse.Event{ev("", "\nb", "")},
		},
		{
			name:   "CR| then CR is a blank line",
			chunks: []string{"data: a\r", "\rdata: b\n\n"},
			want:   []sse.Event{ev("", "a", ""), ev("", "b", "")},
		},
		{
			name:   "every byte its own read",
			chunks: strings.Split("data: a\r\ndata: b\r\n\r\n", ""),
			want:   []sse.Event{ev("", "a\nb", "")},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := collect(t, &chunksReader{chunks: tc.chunks}, nil)
			assert.Equal(t, "EOF", got.Err)
			assert.Equal(t, tc.want, got.Events)
			whole := collect(t, strings.NewReader(strings.Join(tc.chunks, "")), nil)
			assert.Equal(t, whole, got, "chunked differs from whole")
		})
	}
}

// chunkingStream exercises every rule in one stream, with CR/LF pairs at
// many positions so that random chunkings split them.
var chunkingStream = func() string {
	var b strings.Builder
	b.WriteString("\xEF\xBB\xBF: stream start\r\n")
	b.WriteString("id: p0\rretry: 500\r\ndata: \r\n\r\n")
	for i := 0; i < 50; i++ {
		for _, tc := range parseCases {
			if strings.HasPrefix(tc.in, "\xEF\xBB\xBF") || strings.HasSuffix(tc.name, "at EOF") {
				continue
			}
			b.WriteString(tc.in)
			// Terminate whatever the case left open, with varying endings.
			b.WriteString([]string{"\r\n\r\n", "\n\n", "\r\r", "\r\n\n", "\n\r"}[i%5])
		}
	}
	b.WriteString("id: last\r\ndata: tail\r")
	return b.String()
}()

func TestChunkingInvariance(t *testing.T) {
	in := []byte(chunkingStream)
	want := collect(t, bytes.NewReader(in), nil)
	require.Equal(t, "EOF", want.Err)
	require.Greater(t, len(want.Events), 1000)
	require.Equal(t, refParse(in, 0), want, "reference parser")

	for _, v := range readerVariants {
		t.Run(v.name, func(t *testing.T) {
			assert.Equal(t, want, collect(t, v.make(in), nil))
		})
	}
	for seed := uint64(100); seed < 120; seed++ {
		t.Run("seed", func(t *testing.T) {
			got := collect(t, newRandomChunkReader(in, seed, 1+int(seed%13)), nil)
			assert.Equal(t, want, got, "seed %d", seed)
		})
	}
}

func TestLargeEvents(t *testing.T) {
	const size = 8 << 20
	big := bytes.Repeat([]byte("0123456789abcdef"), size/16)

	var lines bytes.Buffer
	var wantLines bytes.Buffer
	for i := 0; i < size/1024; i++ {
		line := big[:1023]
		lines.WriteString("data: ")
		lines.Write(line)
		lines.WriteString("\r\n")
		if i > 0 {
			wantLines.WriteByte('\n')
		}
		wantLines.Write(line)
	}

	tests := []struct {
		name string
		in   []byte
		want []byte
	}{
		{name: "one 8 MiB data line", in: append(append([]byte("data: "), big...), "\n\n"...), want: big},
		{name: "8 MiB in 1 KiB lines", in: append(lines.Bytes(), "\r\n"...), want: wantLines.Bytes()},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			stream := append([]byte("id: big\nevent: blob\n"), tc.in...)
			stream = append(stream, "data: small\n\n"...)
			for _, src := range []io.Reader{
				bytes.NewReader(stream),
				newRandomChunkReader(stream, 7, 100_000),
			} {
				r := sse.NewReader(src, nil)
				e, err := r.Next()
				require.NoError(t, err)
				assert.Equal(t, "blob", e.Type)
				assert.Equal(t, "big", e.ID)
				require.Equal(t, len(tc.want), len(e.Data))
				require.True(t, bytes.Equal(tc.want, e.Data), "data differs")

				// The large Data stays valid after the next event.
				e2, err := r.Next()
				require.NoError(t, err)
				assert.Equal(t, ev("", "small", "big"), e2)
				require.True(t, bytes.Equal(tc.want, e.Data), "data changed by later Next")

				_, err = r.Next()
				require.ErrorIs(t, err, io.EOF)
			}
		})
	}
}

func TestDataRemainsValid(t *testing.T) {
	r := sse.NewReader(strings.NewReader("data: first\n\ndata: SECOND\n\ndata: third!\n\n"), nil)
	var got [][]byte
	for {
		e, err := r.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		require.NoError(t, err)
		got = append(got, e.Data)
	}
	assert.Equal(t, [][]byte{[]byte("first"), []byte("SECOND"), []byte("third!")}, got)
}

// infiniteReader returns an endless stream of b.
type infiniteReader struct{ b byte }

func (r infiniteReader) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = r.b
	}
	return len(p), nil
}

func TestEventTooLarge(t *testing.T) {
	const limit = 1024
	long := strings.Repeat("x", 2*limit)
	var manyLines strings.Builder
	for i := 0; i < 200; i++ {
		manyLines.WriteString("data: 0123456789\n")
	}

	tests := []struct {
		name string
		in   string
		opts *sse.ReaderOptions
		want []sse.Event // events before the error
		ok   bool        // no error expected (io.EOF)
	}{
		{name: "one long data line", in: "data: " + long + "\n\n"},
		{name: "long unterminated line", in: "data: " + long},
		{name: "many data lines", in: manyLines.String() + "\n"},
		{name: "long event type", in: "event: " + long + "\ndata: x\n\n"},
		{name: "long id", in: "id: " + long + "\ndata: x\n\n"},
		{name: "long unknown field", in: "foo: " + long + "\ndata: x\n\n"},
		{name: "long field name", in: long + ": x\ndata: x\n\n"},
		{name: "many id lines", in: strings.Repeat("id: 1234567\n", 200) + "\n"},
		{
			name: "events before the large one are delivered",
			in:   "data: a\n\ndata: b\n\ndata: " + long + "\n\ndata: c\n\n",
			want: []sse.Event{ev("", "a", ""), ev("", "b", "")},
		},
		{name: "exactly at the limit", in: "data: " + strings.Repeat("y", limit-6) + "\n\n", want: []sse.Event{ev("", strings.Repeat("y", limit-6), "")}, ok: true},
		{name: "one byte over the limit", in: "data: " + strings.Repeat("y", limit-5) + "\n\n"},
		{name: "comments do not count", in: ": " + long + "\ndata: a\n:" + long + "\n\n", want: []sse.Event{ev("", "a", "")}, ok: true},
		{name: "limit is per event", in: strings.Repeat("data: "+strings.Repeat("z", 1000)+"\n\n", 10), want: repeatEvent(ev("", strings.Repeat("z", 1000), ""), 10), ok: true},
		{name: "blank line without data resets the count", in: strings.Repeat("id: "+strings.Repeat("i", 1000)+"\n\n", 5), ok: true},
		{name: "default limit allows 1 MiB", in: "data: " + strings.Repeat("d", 1<<20) + "\n\n", opts: &sse.ReaderOptions{}, want: []sse.Event{ev("", strings.Repeat("d", 1<<20), "")}, ok: true},
		{name: "negative limit means default", in: "data: " + long + "\n\n", opts: &sse.ReaderOptions{MaxEventSize: -1}, want: []sse.Event{ev("", long, "")}, ok: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			opts := tc.opts
			if opts == nil {
				opts = &sse.ReaderOptions{MaxEventSize: limit}
			}
			got := parseAll(t, tc.in, opts)
			assert.Equal(t, tc.want, got.Events)
			if tc.ok {
				assert.Equal(t, "EOF", got.Err)
			} else {
				assert.Equal(t, "too large", got.Err)
			}
			assert.Equal(t, got, refParse([]byte(tc.in), opts.MaxEventSize), "reference parser")
		})
	}

	t.Run("error wraps ErrEventTooLarge and is sticky", func(t *testing.T) {
		r := sse.NewReader(strings.NewReader("data: "+long+"\n\n"), &sse.ReaderOptions{MaxEventSize: limit})
		_, err := r.Next()
		require.ErrorIs(t, err, sse.ErrEventTooLarge)
		assert.Contains(t, err.Error(), "1024")
		_, err2 := r.Next()
		assert.Equal(t, err, err2)
	})

	t.Run("endless line does not grow memory", func(t *testing.T) {
		r := sse.NewReader(infiniteReader{'x'}, &sse.ReaderOptions{MaxEventSize: 1 << 20})
		_, err := r.Next()
		require.ErrorIs(t, err, sse.ErrEventTooLarge)
	})

	t.Run("endless comment is not an error", func(t *testing.T) {
		// A comment is discarded as it streams; the reader keeps reading
		// until the source fails.
		src := io.MultiReader(strings.NewReader(":"), io.LimitReader(infiniteReader{'c'}, 10<<20), strings.NewReader("\ndata: a\n\n"))
		r := sse.NewReader(src, &sse.ReaderOptions{MaxEventSize: 1024})
		e, err := r.Next()
		require.NoError(t, err)
		assert.Equal(t, ev("", "a", ""), e)
	})
}

func repeatEvent(e sse.Event, n int) []sse.Event {
	out := make([]sse.Event, n)
	for i := range out {
		out[i] = e
	}
	return out
}

var errBoom = errors.New("boom")

func TestReadErrors(t *testing.T) {
	tests := []struct {
		name    string
		src     func() io.Reader
		want    []sse.Event
		wantErr error
	}{
		{
			name: "error after complete events",
			src: func() io.Reader {
				return &chunksReader{chunks: []string{"data: a\n\n", "data: b\n\ndata: partial"}, err: errBoom}
			},
			want:    []sse.Event{ev("", "a", ""), ev("", "b", "")},
			wantErr: errBoom,
		},
		{
			// TimeoutReader returns the data on the first read and times out
			// on the second.
			name:    "timeout after data",
			src:     func() io.Reader { return iotest.TimeoutReader(strings.NewReader("data: a\n\n")) },
			want:    []sse.Event{ev("", "a", "")},
			wantErr: iotest.ErrTimeout,
		},
		{
			name: "data returned with the error is parsed first",
			src: func() io.Reader {
				return io.MultiReader(strings.NewReader("data: a\n"), &dataAndErrReader{data: "\ndata: b\n\n", err: errBoom})
			},
			want:    []sse.Event{ev("", "a", ""), ev("", "b", "")},
			wantErr: errBoom,
		},
		{
			name:    "unexpected EOF is an error",
			src:     func() io.Reader { return &chunksReader{chunks: []string{"data: a"}, err: io.ErrUnexpectedEOF} },
			wantErr: io.ErrUnexpectedEOF,
		},
		{
			name:    "reader making no progress",
			src:     func() io.Reader { return zeroReader{} },
			wantErr: io.ErrNoProgress,
		},
		{
			name:    "immediate error",
			src:     func() io.Reader { return iotest.ErrReader(errBoom) },
			wantErr: errBoom,
		},
		{
			name:    "invalid read count",
			src:     func() io.Reader { return badCountReader{} },
			wantErr: nil, // any non-EOF error
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := sse.NewReader(tc.src(), nil)
			var got []sse.Event
			var err error
			for {
				var e sse.Event
				e, err = r.Next()
				if err != nil {
					break
				}
				got = append(got, e)
			}
			assert.Equal(t, tc.want, got)
			require.Error(t, err)
			assert.NotErrorIs(t, err, io.EOF)
			if tc.wantErr != nil {
				assert.ErrorIs(t, err, tc.wantErr)
			}
			_, err2 := r.Next()
			assert.Equal(t, err, err2, "error not sticky")
		})
	}
}

type dataAndErrReader struct {
	data string
	err  error
}

func (r *dataAndErrReader) Read(p []byte) (int, error) {
	n := copy(p, r.data)
	r.data = r.data[n:]
	if r.data == "" {
		return n, r.err
	}
	return n, nil
}

type zeroReader struct{}

func (zeroReader) Read([]byte) (int, error) { return 0, nil }

type badCountReader struct{}

func (badCountReader) Read(p []byte) (int, error) { return len(p) + 1, nil }

// TestNoReadAhead checks that Next returns a complete event without
// reading further, so a live stream never blocks on the next event.
func TestNoReadAhead(t *testing.T) {
	for _, first := range []string{"data: a\n\n", "\xEF\xBB\xBFdata: a\n\n", "data: a\r\r", "data: a\r\n\r\n"} {
		src := &chunksReader{chunks: []string{first}, err: errors.New("read past the first event")}
		r := sse.NewReader(src, nil)
		e, err := r.Next()
		require.NoError(t, err, "%q", first)
		assert.Equal(t, ev("", "a", ""), e)
	}
	// A first read of one non-BOM byte does not make the BOM check block.
	src := &chunksReader{chunks: []string{"d", "ata: a\n\n"}, err: errors.New("read past the first event")}
	e, err := sse.NewReader(src, nil).Next()
	require.NoError(t, err)
	assert.Equal(t, ev("", "a", ""), e)
}

// TestReadBufferGrowsOnlyForBigStreams: a stream of one small message keeps
// the small buffer; reads that fill it make it grow, up to its maximum.
func TestReadBufferGrowsOnlyForBigStreams(t *testing.T) {
	tests := []struct {
		name   string
		stream []byte
		want   int
	}{
		{"one small answer", []byte("event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n\n"), sse.ReadBufMin},
		{"a 1 MiB event", append(append([]byte("data: "), bytes.Repeat([]byte("x"), 1<<20)...), "\n\n"...), sse.ReadBufSize},
		{"one byte over the small buffer", append(append([]byte("data: "), bytes.Repeat([]byte("x"), sse.ReadBufMin)...), "\n\n"...), 2 * sse.ReadBufMin},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := sse.NewReader(bytes.NewReader(tt.stream), nil)
			e, err := r.Next()
			require.NoError(t, err)
			assert.Equal(t, len(tt.stream)-len("data: \n\n")-bytes.Index(tt.stream, []byte("data: ")), len(e.Data))
			assert.Equal(t, tt.want, sse.BufLen(r))
			_, err = r.Next()
			require.ErrorIs(t, err, io.EOF)
		})
	}
}

func TestChunkSource(t *testing.T) {
	t.Run("the chunks are parsed in place, never written", func(t *testing.T) {
		in := []byte(chunkingStream)
		src := newChunkSource(in, 7, 300)
		require.Equal(t, collect(t, bytes.NewReader(in), nil), collect(t, src, nil))
		require.Equal(t, in, src.mem)
	})
	t.Run("a partial BOM split across chunks", func(t *testing.T) {
		src := newChunkSource([]byte("\xEF\xBB\xBFdata: a\n\n"), 1, 1)
		require.Equal(t, []sse.Event{ev("", "a", "")}, collect(t, src, nil).Events)
	})
	t.Run("an error after the data", func(t *testing.T) {
		src := newChunkSource([]byte("data: a\n\ndata: b"), 2, 3)
		src.err = errors.New("reset")
		res := collect(t, src, nil)
		require.Equal(t, []sse.Event{ev("", "a", "")}, res.Events)
		require.Equal(t, "sse: reading event stream: reset", res.Err)
	})
	t.Run("long data lines across chunks", func(t *testing.T) {
		big := strings.Repeat("0123456789abcdef", 1<<16) // 1 MB
		in := []byte("data: " + big + "\n\n" +           // one line in many chunks
			"data: a\ndata: " + big[:300<<10] + "\ndata: " + big[:100<<10] + "\n\n" + // lines after lines
			"data: " + big[:10<<10] + "\r\n\r\n") // in 1-byte chunks below: more pieces than are kept
		want := collect(t, bytes.NewReader(in), nil)
		require.Len(t, want.Events, 3)
		for _, maxChunk := range []int{1, 7, 64 << 10} {
			got := collect(t, newChunkSource(in, uint64(maxChunk), maxChunk), nil)
			require.Equal(t, want, got, "chunks of up to %d bytes", maxChunk)
		}
		// A line of 1 MB in chunks of up to 64 KB is copied once, into a
		// buffer of the size it needs (its "\n" included).
		r := sse.NewReader(newChunkSource(in, 3, 64<<10), nil)
		e, err := r.Next()
		require.NoError(t, err)
		assert.Equal(t, big, string(e.Data))
		assert.Equal(t, len(e.Data)+1, cap(e.Data))
	})
	t.Run("a source that makes no progress", func(t *testing.T) {
		_, err := sse.NewReader(emptyChunks{}, nil).Next()
		require.ErrorIs(t, err, io.ErrNoProgress)
	})
}

type emptyChunks struct{}

func (emptyChunks) Chunk() ([]byte, error)   { return nil, nil }
func (emptyChunks) Read([]byte) (int, error) { panic("Read called on a chunk source") }

// TestCallersBuffer: a Reader reads into the buffer it is given
// (ReaderOptions.Buf), and nothing it returned refers to that buffer: a
// second Reader using it again leaves the first one's events intact, and
// a buffer smaller than an event still parses it (the Reader grows its
// own).
func TestCallersBuffer(t *testing.T) {
	buf := make([]byte, 16)
	read := func(stream string) []sse.Event {
		t.Helper()
		r := sse.NewReader(strings.NewReader(stream), &sse.ReaderOptions{Buf: buf})
		var evs []sse.Event
		for {
			ev, err := r.Next()
			if errors.Is(err, io.EOF) {
				return evs
			}
			require.NoError(t, err)
			evs = append(evs, ev)
		}
	}
	first := read("event: a\nid: 1\ndata: " + strings.Repeat("x", 100) + "\n\ndata: short\n\n")
	assert.Equal(t, "event: a", string(buf[:8]), "the Reader read into the given buffer")
	second := read("event: b\ndata: " + strings.Repeat("y", 100) + "\n\n")
	require.Len(t, first, 2)
	assert.Equal(t, "a", first[0].Type)
	assert.Equal(t, "1", first[0].ID)
	assert.Equal(t, strings.Repeat("x", 100), string(first[0].Data))
	assert.Equal(t, "short", string(first[1].Data))
	require.Len(t, second, 1)
	assert.Equal(t, strings.Repeat("y", 100), string(second[0].Data))
}
