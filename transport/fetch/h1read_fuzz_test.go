//go:build !js && !wasip1

package fetch

import (
	"bytes"
	"context"
	"io"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpwasm/mcpwasm/internal/callctx"
)

// bytesConn is a net.Conn that reads the bytes a server sent and discards
// what is written.
type bytesConn struct{ r *bytes.Reader }

func (c bytesConn) Read(p []byte) (int, error)     { return c.r.Read(p) }
func (bytesConn) Write(p []byte) (int, error)      { return len(p), nil }
func (bytesConn) Close() error                     { return nil }
func (bytesConn) LocalAddr() net.Addr              { return &net.TCPAddr{} }
func (bytesConn) RemoteAddr() net.Addr             { return &net.TCPAddr{} }
func (bytesConn) SetDeadline(time.Time) error      { return nil }
func (bytesConn) SetReadDeadline(time.Time) error  { return nil }
func (bytesConn) SetWriteDeadline(time.Time) error { return nil }

// FuzzH1Answer: any bytes a server sends as an answer are read as a head
// and a body, or refused with an error, without a panic and without
// reading past what was sent; a head that is accepted has a status of
// three digits and lower-case field names, and a body of announced length
// is that long.
func FuzzH1Answer(f *testing.F) {
	for _, s := range []string{
		"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\nok",
		"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2;x=y\r\nab\r\n1\r\nc\r\n0\r\nX-T: 1\r\n\r\n",
		"HTTP/1.0 200 OK\r\nConnection: keep-alive\r\nContent-Length: 0\r\n\r\n",
		"HTTP/1.1 103 Early Hints\r\nLink: </x>\r\n\r\nHTTP/1.1 204 No Content\r\n\r\n",
		"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n\r\ndata: x\n\n",
		"HTTP/1.1 200 OK\nContent-Length: 3\nContent-Length: 3\n\nabc",
		"HTTP/1.1 200 OK\r\nX: a\r\n b\r\n\r\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		c := newH1Conn(newH1Doer(), "", bytesConn{bytes.NewReader(in)})
		c.limit = h1MaxHeaderBytes
		defer c.d.CloseIdleConnections() // (a body read to its end puts c back, arming the sweeper)
		var hd h1Head
		var err error
		for i := 0; i <= h1MaxInterim; i++ {
			if hd, err = c.readHead(); err != nil || hd.status >= 200 {
				break
			}
		}
		if err != nil {
			return
		}
		require.GreaterOrEqual(t, hd.status, 100)
		require.Less(t, hd.status, 1000)
		for k := range hd.header {
			assert.Equal(t, strings.ToLower(k), k)
		}
		c.limit = -1
		body, err := io.ReadAll(newH1Body(c, hd, callctx.AfterEnd(context.Background(), func() {})))
		assert.LessOrEqual(t, len(body), len(in))
		if err == nil && hd.length >= 0 {
			assert.Equal(t, hd.length, int64(len(body)))
		}
	})
}
