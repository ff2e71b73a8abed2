package manager

import (
	"bytes"
	"encoding/json"
	"strings"
	"sync"
)

// lineWriter hands what is written to it to emit line by line (without
// the line end); a line longer than maxLine is emitted in pieces.
type lineWriter struct {
	emit func(string)
	mu   sync.Mutex
	buf  []byte
}

const maxLine = 64 << 10

func (w *lineWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf = append(w.buf, p...)
	for {
		i := bytes.IndexByte(w.buf, '\n')
		if i < 0 {
			break
		}
		w.emit(strings.TrimRight(string(w.buf[:i]), "\r"))
		w.buf = w.buf[i+1:]
	}
	for len(w.buf) > maxLine {
		w.emit(string(w.buf[:maxLine]))
		w.buf = w.buf[maxLine:]
	}
	if len(w.buf) == 0 {
		w.buf = nil
	}
	return len(p), nil
}

// equalJSON reports whether a and b encode to the same JSON.
func equalJSON(a, b any) bool {
	x, err1 := json.Marshal(a)
	y, err2 := json.Marshal(b)
	return err1 == nil && err2 == nil && bytes.Equal(x, y)
}
