//go:build unix

package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"time"

	"github.com/mcpwasm/mcpwasm/internal/jsonscan"
	"github.com/mcpwasm/mcpwasm/internal/rawsock"
)

// rawClient is the floor under every client on a given server: the
// handshake and tools/list go through bareClient (untimed), then each echo
// call is request bytes put together in one reused buffer from a prebuilt
// head, written with one Write, and the answer read into another reused
// buffer and searched for its result by byte comparison, the socket read
// and written as transport/fetch does (internal/rawsock: raw system calls
// on Linux) — no HTTP library on the timed path and of JSON only the
// text's escaping (jsonscan.AppendString), one allocation (the text it
// returns) and a few hundred instructions of its own per call. What it measures is the server's cycle plus the socket's and the
// wake-ups': a client with any real work to do cannot be faster against
// the same server, so "raw ÷ Go SDK" is the most any client can reach in
// that row.
//
// It knows only what the bench's servers answer to tools/call echo: a
// JSON body with Content-Length, or an event stream in chunks whose event
// holds the result; anything else is an error, not a measurement.
type rawClient struct {
	*bareClient
	sock     io.ReadWriter // the connection, through rawsock as the library has it
	head     []byte        // the request up to its Content-Length field
	out, in  []byte        // reused
	deadline time.Time
}

// maxRawAnswer bounds one answer of the raw client.
const maxRawAnswer = 1 << 20

func dialRaw(ctx context.Context, rawURL, version string) (*rawClient, error) {
	b, err := dialBare(ctx, rawURL, version)
	if err != nil {
		return nil, err
	}
	head := "POST " + b.path + " HTTP/1.1\r\nHost: " + b.host + "\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n"
	if b.legacy {
		head += "Mcp-Session-Id: " + b.session + "\r\nMcp-Protocol-Version: " + legacyVersion + "\r\n"
	} else {
		head += "Mcp-Protocol-Version: " + modernVersion + "\r\nMcp-Method: tools/call\r\nMcp-Name: echo\r\n"
	}
	return &rawClient{bareClient: b, sock: rawsock.New(b.conn), head: []byte(head), in: make([]byte, 0, 16<<10)}, nil
}

func (c *rawClient) echo(ctx context.Context, text string) (string, error) {
	// The connection's deadline follows the call's, renewed only when it
	// is nearer than half the call timeout (a deadline set per call costs
	// the poller a timer per call; none would let a stuck server hang the
	// round).
	if dl, ok := ctx.Deadline(); ok && time.Until(c.deadline) < callTimeout/2 {
		c.deadline = dl
		if err := c.conn.SetDeadline(dl); err != nil {
			return "", err
		}
	}
	c.id++
	var body [512]byte
	bb := append(body[:0], `{"jsonrpc":"2.0","id":`...)
	bb = strconv.AppendInt(bb, int64(c.id), 10)
	bb = append(bb, `,"method":"tools/call","params":{"name":"echo","arguments":{"text":`...)
	bb = jsonscan.AppendString(bb, text)
	bb = append(bb, '}')
	if !c.legacy {
		bb = append(bb, ","+bareMeta...)
	}
	bb = append(bb, "}}"...)
	out := append(c.out[:0], c.head...)
	out = append(out, "Content-Length: "...)
	out = strconv.AppendInt(out, int64(len(bb)), 10)
	out = append(out, "\r\n\r\n"...)
	out = append(out, bb...)
	c.out = out
	if _, err := c.sock.Write(out); err != nil {
		return "", err
	}
	data, err := c.readAnswer()
	if err != nil {
		return "", err
	}
	return rawEchoText(data, c.id)
}

// readAnswer reads one HTTP/1.1 answer whole into c.in and returns its
// body (de-chunked in place when it came in chunks).
func (c *rawClient) readAnswer() ([]byte, error) {
	in := c.in[:0]
	headEnd, bodyLen, chunked := -1, -1, false
	for {
		if headEnd < 0 {
			if i := bytes.Index(in, []byte("\r\n\r\n")); i >= 0 {
				headEnd = i + 4
				var err error
				if bodyLen, chunked, err = rawHead(in[:i]); err != nil {
					return nil, err
				}
			}
		}
		if headEnd >= 0 {
			if !chunked && len(in)-headEnd >= bodyLen {
				c.in = in
				return in[headEnd : headEnd+bodyLen], nil
			}
			if chunked {
				if body, done, err := dechunk(in[headEnd:]); err != nil || done {
					c.in = in
					return body, err
				}
			}
		}
		if len(in) == cap(in) {
			if cap(in) >= maxRawAnswer {
				return nil, fmt.Errorf("an answer over %d bytes", maxRawAnswer)
			}
			in = append(in, make([]byte, cap(in))...)[:len(in)]
		}
		n, err := c.sock.Read(in[len(in):cap(in)])
		in = in[:len(in)+n]
		if err != nil {
			return nil, err
		}
	}
}

// rawHead checks an answer's head (status 200, kept alive) and returns its
// Content-Length or that it comes in chunks.
func rawHead(head []byte) (bodyLen int, chunked bool, err error) {
	status, fields, _ := bytes.Cut(head, []byte("\r\n"))
	if !bytes.HasPrefix(status, []byte("HTTP/1.1 200 ")) {
		return 0, false, fmt.Errorf("answer %.80q", status)
	}
	bodyLen = -1
	for len(fields) > 0 {
		var line []byte
		line, fields, _ = bytes.Cut(fields, []byte("\r\n"))
		name, value, _ := bytes.Cut(line, []byte(":"))
		value = bytes.TrimSpace(value)
		switch {
		case bytes.EqualFold(name, []byte("Content-Length")):
			n, err := strconv.Atoi(string(value))
			if err != nil || n < 0 || n > maxRawAnswer {
				return 0, false, fmt.Errorf("Content-Length %.40q", value)
			}
			bodyLen = n
		case bytes.EqualFold(name, []byte("Transfer-Encoding")):
			chunked = bytes.EqualFold(value, []byte("chunked"))
		case bytes.EqualFold(name, []byte("Connection")):
			if bytes.EqualFold(value, []byte("close")) {
				return 0, false, errors.New("the server closes the connection")
			}
		}
	}
	if bodyLen < 0 && !chunked {
		return 0, false, errors.New("an answer with neither Content-Length nor chunks")
	}
	return bodyLen, chunked, nil
}

// dechunk reports whether p holds a whole chunked body and, when it does,
// returns the body: the chunks' data moved together at p's start (p is
// left as it was until then, as more of it may still come).
func dechunk(p []byte) (body []byte, done bool, err error) {
	for pass := 0; pass < 2; pass++ {
		r, w := 0, 0
		for {
			i := bytes.Index(p[r:], []byte("\r\n"))
			if i < 0 {
				return nil, false, nil
			}
			size, err := strconv.ParseUint(string(bytes.TrimSpace(p[r:r+i])), 16, 31)
			if err != nil {
				return nil, false, fmt.Errorf("chunk size %.20q", p[r:r+i])
			}
			start := r + i + 2
			if len(p) < start+int(size)+2 {
				return nil, false, nil
			}
			if size == 0 {
				if pass == 1 {
					return p[:w], true, nil
				}
				break
			}
			if pass == 1 {
				w += copy(p[w:], p[start:start+int(size)])
			}
			r = start + int(size) + 2
		}
	}
	panic("unreachable")
}

// rawEchoText returns the text of an echo result for request id, found in
// body (a JSON-RPC message, or an event stream whose event holds it).
func rawEchoText(body []byte, id int) (string, error) {
	var idField [32]byte
	f := strconv.AppendInt(append(idField[:0], `"id":`...), int64(id), 10)
	i := bytes.Index(body, f)
	if i < 0 || i+len(f) >= len(body) || (body[i+len(f)] != ',' && body[i+len(f)] != '}') {
		return "", fmt.Errorf("no answer to request %d in %.200q", id, body)
	}
	r := bytes.Index(body, []byte(`"result":`))
	if r < 0 {
		return "", fmt.Errorf("not a result: %.200q", body)
	}
	t := bytes.Index(body[r:], []byte(`"text":"`))
	if t < 0 {
		return "", fmt.Errorf("a result with no text: %.200q", body)
	}
	s := body[r+t+len(`"text":"`):]
	for j := 0; j < len(s); j++ {
		switch s[j] {
		case '\\':
			j++
		case '"':
			return string(s[:j]), nil // the JSON form: the bench's texts need no escapes
		}
	}
	return "", fmt.Errorf("an unterminated text in %.200q", body)
}
