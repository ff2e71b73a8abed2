package sse_test

import (
	"bytes"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpwasm/mcpwasm/internal/sse"
)

func TestAppendEvent(t *testing.T) {
	tests := []struct {
		name  string
		ev    sse.Event
		retry time.Duration
		want  string
	}{
		{name: "data only", ev: ev("", "hello", ""), want: "data: hello\n\n"},
		{name: "all fields", ev: ev("message", "a\nb", "42"), retry: 500 * time.Millisecond, want: "id: 42\nevent: message\nretry: 500\ndata: a\ndata: b\n\n"},
		{name: "empty data", ev: ev("", "", "p"), want: "id: p\ndata:\n\n"},
		{name: "nil data", ev: sse.Event{ID: "p"}, want: "id: p\ndata:\n\n"},
		{name: "trailing newline", ev: ev("", "a\n", ""), want: "data: a\ndata:\n\n"},
		{name: "CR, CRLF and LF split lines", ev: ev("", "a\r\nb\rc\nd", ""), want: "data: a\ndata: b\ndata: c\ndata: d\n\n"},
		{name: "CR LF CR", ev: ev("", "a\r\n\rb", ""), want: "data: a\ndata:\ndata: b\n\n"},
		{name: "leading space kept", ev: ev(" t", " x", " i"), want: "id:  i\nevent:  t\ndata:  x\n\n"},
		{name: "retry truncated to ms", ev: ev("", "x", ""), retry: 1500 * time.Microsecond, want: "retry: 1\ndata: x\n\n"},
		{name: "negative retry omitted", ev: ev("", "x", ""), retry: -time.Second, want: "data: x\n\n"},
		{name: "newline in id replaced", ev: ev("", "x", "a\nid: evil"), want: "id: a\uFFFDid: evil\ndata: x\n\n"},
		{name: "NUL in id replaced", ev: ev("", "x", "a\x00b"), want: "id: a\uFFFDb\ndata: x\n\n"},
		{name: "CRLF in type replaced", ev: ev("x\r\ndata: evil", "x", ""), want: "event: x\uFFFD\uFFFDdata: evil\ndata: x\n\n"},
		{name: "NUL in type kept", ev: ev("a\x00b", "x", ""), want: "event: a\x00b\ndata: x\n\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := sse.AppendEvent(nil, tc.ev, tc.retry)
			assert.Equal(t, tc.want, string(got))
			// Appending keeps the prefix.
			got = sse.AppendEvent([]byte("prefix"), tc.ev, tc.retry)
			assert.Equal(t, "prefix"+tc.want, string(got))
			// Whatever was written parses as exactly one event.
			res := parseAll(t, tc.want, nil)
			require.Len(t, res.Events, 1)
		})
	}
}

func TestAppendEventRoundTrip(t *testing.T) {
	tests := []struct {
		name  string
		ev    sse.Event
		retry time.Duration
		want  sse.Event // what the parser returns
	}{
		{name: "simple", ev: ev("", "hello", ""), want: ev("", "hello", "")},
		{name: "all fields", ev: ev("notify", "{\n\"a\": 1\n}", "id-7"), retry: 2 * time.Second, want: ev("notify", "{\n\"a\": 1\n}", "id-7")},
		{name: "priming", ev: ev("", "", "prime"), retry: 500 * time.Millisecond, want: ev("", "", "prime")},
		{name: "blank lines in data", ev: ev("", "\n\n", ""), want: ev("", "\n\n", "")},
		{name: "colons and spaces", ev: ev(" : ", " : x :", " : "), want: ev(" : ", " : x :", " : ")},
		{name: "comment-like data", ev: ev("", ":not a comment\n: nor this", ""), want: ev("", ":not a comment\n: nor this", "")},
		{name: "CR normalized to LF", ev: ev("", "a\r\nb\rc", ""), want: ev("", "a\nb\nc", "")},
		{name: "BOM in data", ev: ev("", "\uFEFFx", ""), want: ev("", "\uFEFFx", "")},
		{name: "unicode", ev: ev("ünï", "世界 😀", "ïd"), want: ev("ünï", "世界 😀", "ïd")},
		{name: "invalid UTF-8 replaced", ev: ev("", "a\xFFb", ""), want: ev("", "a\uFFFDb", "")},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			stream := sse.AppendEvent(nil, tc.ev, tc.retry)
			res := parseAll(t, string(stream), nil)
			require.Equal(t, "EOF", res.Err)
			require.Len(t, res.Events, 1)
			assert.Equal(t, tc.want, res.Events[0])
			assert.Equal(t, tc.want.ID, res.LastID)
			assert.Equal(t, tc.retry > 0, res.RetrySet)
			if tc.retry > 0 {
				assert.Equal(t, tc.retry, res.Retry)
			}
		})
	}
}

func TestAppendEventStream(t *testing.T) {
	var stream []byte
	stream = sse.AppendEvent(stream, ev("", "", "0"), 250*time.Millisecond)
	stream = sse.AppendEvent(stream, ev("message", "one", "1"), 0)
	stream = sse.AppendEvent(stream, ev("", "two", ""), 0) // empty ID: the previous one persists
	stream = sse.AppendEvent(stream, ev("", "three\nlines\n", "3"), 0)

	res := parseAll(t, string(stream), nil)
	require.Equal(t, "EOF", res.Err)
	assert.Equal(t, []sse.Event{
		ev("", "", "0"),
		ev("message", "one", "1"),
		ev("", "two", "1"),
		ev("", "three\nlines\n", "3"),
	}, res.Events)
	assert.Equal(t, "3", res.LastID)
	assert.Equal(t, 250*time.Millisecond, res.Retry)
	assert.True(t, bytes.HasSuffix(stream, []byte("\n\n")))
}
