package sse_test

import (
	"bytes"
	"strings"
	"testing"
	"testing/iotest"
	"time"
	"unicode/utf8"

	"github.com/stretchr/testify/require"

	"github.com/mcpwasm/mcpwasm/internal/sse"
)

// FuzzReader checks that arbitrary input never panics, that the result does
// not depend on how the input is split into reads, that it matches the
// naive reference parser, and that dispatched events are well-formed.
func FuzzReader(f *testing.F) {
	for _, tc := range parseCases {
		f.Add([]byte(tc.in), uint16(0))
	}
	f.Add([]byte(chunkingStream[:4096]), uint16(0))
	f.Add([]byte(chunkingStream[:4096]), uint16(64))
	f.Add([]byte("data: "+strings.Repeat("x", 100)+"\n\ndata: y\n\n"), uint16(50))
	f.Add([]byte(": "+strings.Repeat("c", 100)+"\ndata: y\n\n"), uint16(10))
	f.Add([]byte("data: a\r\r\ndata: b\r\n\r\n"), uint16(7))

	f.Fuzz(func(t *testing.T, in []byte, limit uint16) {
		opts := &sse.ReaderOptions{MaxEventSize: int(limit)}
		whole := collect(t, bytes.NewReader(in), opts)
		oneByte := collect(t, iotest.OneByteReader(bytes.NewReader(in)), opts)
		require.Equal(t, whole, oneByte, "1-byte reads differ from whole input")
		chunked := collect(t, newRandomChunkReader(in, uint64(len(in)), 5), opts)
		require.Equal(t, whole, chunked, "random chunks differ from whole input")
		src := newChunkSource(in, uint64(len(in)), 9)
		require.Equal(t, whole, collect(t, src, opts), "a chunk source differs from whole input")
		require.Equal(t, in, src.mem, "the Reader wrote into a chunk")
		require.Equal(t, refParse(in, int(limit)), whole, "differs from reference parser")

		require.Contains(t, []string{"EOF", "too large"}, whole.Err)
		for _, e := range whole.Events {
			require.True(t, utf8.Valid(e.Data), "Data not valid UTF-8")
			require.False(t, bytes.ContainsAny(e.Data, "\r"), "Data contains CR")
			require.True(t, utf8.ValidString(e.Type) && utf8.ValidString(e.ID))
			require.False(t, strings.ContainsAny(e.Type, "\r\n"))
			require.False(t, strings.ContainsAny(e.ID, "\r\n\x00"))
		}
	})
}

// FuzzRoundTrip checks that AppendEvent output parses back to the event
// (with the documented CR normalization and UTF-8 replacement in Data).
func FuzzRoundTrip(f *testing.F) {
	f.Add("", []byte("hello"), "", uint32(0))
	f.Add("message", []byte("{\"jsonrpc\":\"2.0\"}"), "1", uint32(500))
	f.Add("", []byte(""), "prime", uint32(3000))
	f.Add(" t", []byte(" a\r\nb\rc\n\n"), " id", uint32(1))
	f.Add("ü", []byte("\xFF\xE2\x82\n:x"), "ïd", uint32(0))

	f.Fuzz(func(t *testing.T, typ string, data []byte, id string, retryMs uint32) {
		if strings.ContainsAny(typ, "\r\n") || strings.ContainsAny(id, "\r\n\x00") ||
			!utf8.ValidString(typ) || !utf8.ValidString(id) {
			t.Skip("not representable: CR/LF in type or id, NUL in id, or invalid UTF-8 in type or id")
		}
		retry := time.Duration(retryMs) * time.Millisecond
		stream := sse.AppendEvent(nil, sse.Event{Type: typ, Data: data, ID: id}, retry)
		// A second event checks that the type resets and the ID persists.
		stream = sse.AppendEvent(stream, sse.Event{Data: []byte("next")}, 0)

		res := collect(t, bytes.NewReader(stream), nil)
		require.Equal(t, "EOF", res.Err)
		require.Len(t, res.Events, 2)

		norm := strings.NewReplacer("\r\n", "\n", "\r", "\n").Replace(string(data))
		wantData := sse.AppendValidUTF8([]byte{}, []byte(norm))
		require.Equal(t, sse.Event{Type: typ, Data: wantData, ID: id}, res.Events[0])
		require.Equal(t, sse.Event{Data: []byte("next"), ID: id}, res.Events[1])
		require.Equal(t, id, res.LastID)
		require.Equal(t, retryMs > 0, res.RetrySet)
		if retryMs > 0 {
			require.Equal(t, retry, res.Retry)
		}
		// Chunking does not matter for encoder output either.
		require.Equal(t, res, collect(t, iotest.OneByteReader(bytes.NewReader(stream)), nil))
	})
}
