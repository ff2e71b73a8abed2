package sse_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/mcpwasm/mcpwasm/internal/sse"
)

// benchStream returns n events with ~size bytes of JSON data each.
func benchStream(n, size int) []byte {
	var b []byte
	payload := `{"jsonrpc":"2.0","method":"notifications/message","params":{"data":"` + strings.Repeat("x", size-70) + `"}}`
	for i := 0; i < n; i++ {
		b = sse.AppendEvent(b, sse.Event{Type: "message", ID: fmt.Sprint(i), Data: []byte(payload)}, 0)
		if i%10 == 0 {
			b = append(b, ": ping\n\n"...)
		}
	}
	return b
}

func benchRead(b *testing.B, stream []byte, wantEvents int) {
	b.Helper()
	b.SetBytes(int64(len(stream)))
	b.ReportAllocs()
	src := bytes.NewReader(stream)
	chunks := &benchChunks{}
	for b.Loop() {
		var r *sse.Reader
		if b.Name() == "BenchmarkReaderLargeEventChunks" {
			chunks.rest = stream
			r = sse.NewReader(chunks, nil)
		} else {
			src.Reset(stream)
			r = sse.NewReader(src, nil)
		}
		n := 0
		for {
			_, err := r.Next()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				b.Fatal(err)
			}
			n++
		}
		if n != wantEvents {
			b.Fatalf("got %d events, want %d", n, wantEvents)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*wantEvents), "ns/event")
}

// BenchmarkReader parses 1000 events of ~1 KiB each.
func BenchmarkReader(b *testing.B) {
	benchRead(b, benchStream(1000, 1024), 1000)
}

// BenchmarkReaderSmallEvents parses 1000 events of ~100 bytes each.
func BenchmarkReaderSmallEvents(b *testing.B) {
	benchRead(b, benchStream(1000, 100), 1000)
}

// BenchmarkReaderLargeEvent parses one 8 MiB event.
func BenchmarkReaderLargeEvent(b *testing.B) {
	benchRead(b, benchStream(1, 8<<20), 1)
}

// BenchmarkReaderLargeEventChunks parses one 8 MiB event handed over in
// 64 KiB chunks (as the JavaScript fetch helper's bodies hand them).
func BenchmarkReaderLargeEventChunks(b *testing.B) {
	benchRead(b, benchStream(1, 8<<20), 1)
}

// benchChunks hands rest over in chunks of 64 KiB.
type benchChunks struct{ rest []byte }

func (c *benchChunks) Chunk() ([]byte, error) {
	if len(c.rest) == 0 {
		return nil, io.EOF
	}
	n := min(64<<10, len(c.rest))
	b := c.rest[:n:n]
	c.rest = c.rest[n:]
	return b, nil
}

func (c *benchChunks) Read([]byte) (int, error) { panic("Read called on a chunk source") }

func BenchmarkAppendEvent(b *testing.B) {
	ev := sse.Event{Type: "message", ID: "12345", Data: bytes.Repeat([]byte("0123456789abcde\n"), 64)}
	b.ReportAllocs()
	buf := make([]byte, 0, 4096)
	for b.Loop() {
		buf = sse.AppendEvent(buf[:0], ev, 0)
	}
	b.SetBytes(int64(len(buf)))
}
