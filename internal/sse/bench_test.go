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
	for b.Loop() {
		src.Reset(stream)
		r := sse.NewReader(src, nil)
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

func BenchmarkAppendEvent(b *testing.B) {
	ev := sse.Event{Type: "message", ID: "12345", Data: bytes.Repeat([]byte("0123456789abcde\n"), 64)}
	b.ReportAllocs()
	buf := make([]byte, 0, 4096)
	for b.Loop() {
		buf = sse.AppendEvent(buf[:0], ev, 0)
	}
	b.SetBytes(int64(len(buf)))
}
