//go:build !js && !wasip1

package rawsock

import (
	"bytes"
	"errors"
	"io"
	"net"
	"os"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// sockPair returns the two ends of a TCP connection on 127.0.0.1: the
// dialled one wrapped by New, as transport/fetch has it, and the accepted
// one.
func sockPair(t *testing.T) (io.ReadWriter, net.Conn, net.Conn) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer ln.Close()
	accepted := make(chan net.Conn, 1)
	go func() {
		c, err := ln.Accept()
		if err != nil {
			close(accepted)
			return
		}
		accepted <- c
	}()
	nc, err := net.Dial("tcp", ln.Addr().String())
	require.NoError(t, err)
	peer, ok := <-accepted
	require.True(t, ok, "accept failed")
	t.Cleanup(func() {
		nc.Close()
		peer.Close()
	})
	return New(nc), nc, peer
}

// TestSockReadsAndWrites checks that what New returns behaves as the
// net.Conn it wraps: bytes both ways, whole writes larger than the socket's
// buffers, the end of the stream, deadlines, a reset and a closed
// connection, with net.Conn's errors.
func TestSockReadsAndWrites(t *testing.T) {
	for _, tc := range []struct {
		name string
		run  func(t *testing.T, s io.ReadWriter, nc, peer net.Conn)
	}{
		{"bytes both ways", func(t *testing.T, s io.ReadWriter, _, peer net.Conn) {
			n, err := s.Write([]byte("ping"))
			require.NoError(t, err)
			assert.Equal(t, 4, n)
			got := make([]byte, 4)
			_, err = io.ReadFull(peer, got)
			require.NoError(t, err)
			assert.Equal(t, "ping", string(got))
			_, err = peer.Write([]byte("pong"))
			require.NoError(t, err)
			_, err = io.ReadFull(s, got)
			require.NoError(t, err)
			assert.Equal(t, "pong", string(got))
			n, err = s.Read(nil)
			assert.NoError(t, err, "a read of nothing")
			assert.Zero(t, n)
		}},
		{"a write larger than the socket buffers waits for the reader", func(t *testing.T, s io.ReadWriter, _, peer net.Conn) {
			big := bytes.Repeat([]byte("0123456789abcdef"), 1<<20) // 16 MiB
			got := make(chan []byte, 1)
			go func() {
				b, _ := io.ReadAll(io.LimitReader(peer, int64(len(big))))
				got <- b
			}()
			n, err := s.Write(big)
			require.NoError(t, err)
			assert.Equal(t, len(big), n)
			assert.True(t, bytes.Equal(big, <-got), "the reader got other bytes")
		}},
		{"the peer's close is the end of the stream", func(t *testing.T, s io.ReadWriter, _, peer net.Conn) {
			_, err := peer.Write([]byte("last"))
			require.NoError(t, err)
			require.NoError(t, peer.Close())
			b, err := io.ReadAll(s)
			require.NoError(t, err)
			assert.Equal(t, "last", string(b))
			n, err := s.Read(make([]byte, 8))
			assert.Zero(t, n)
			assert.Equal(t, io.EOF, err)
		}},
		{"a read waits and a deadline ends it", func(t *testing.T, s io.ReadWriter, nc, _ net.Conn) {
			require.NoError(t, nc.SetReadDeadline(time.Now().Add(30*time.Millisecond)))
			_, err := s.Read(make([]byte, 8))
			require.Error(t, err)
			assert.ErrorIs(t, err, os.ErrDeadlineExceeded)
			var oe *net.OpError
			require.ErrorAs(t, err, &oe)
			assert.Equal(t, "read", oe.Op)
			var ne net.Error
			require.ErrorAs(t, err, &ne)
			assert.True(t, ne.Timeout())
		}},
		{"a deadline in the past ends a read (how a request's end aborts it)", func(t *testing.T, s io.ReadWriter, nc, _ net.Conn) {
			done := make(chan error, 1)
			go func() {
				_, err := s.Read(make([]byte, 8))
				done <- err
			}()
			require.NoError(t, nc.SetDeadline(time.Unix(1, 0))) // in the past, as transport/fetch ends a request
			assert.ErrorIs(t, <-done, os.ErrDeadlineExceeded)
		}},
		{"a reset is the read's error", func(t *testing.T, s io.ReadWriter, _, peer net.Conn) {
			require.NoError(t, peer.(*net.TCPConn).SetLinger(0))
			require.NoError(t, peer.Close())
			_, err := io.ReadAll(s)
			require.Error(t, err)
			assert.ErrorIs(t, err, syscall.ECONNRESET)
			assert.Contains(t, err.Error(), "read tcp 127.0.0.1:")
			assert.Contains(t, err.Error(), "connection reset by peer")
		}},
		{"a closed connection", func(t *testing.T, s io.ReadWriter, nc, _ net.Conn) {
			require.NoError(t, nc.Close())
			_, err := s.Read(make([]byte, 8))
			assert.ErrorIs(t, err, net.ErrClosed)
			_, err = s.Write([]byte("x"))
			assert.ErrorIs(t, err, net.ErrClosed)
			var oe *net.OpError
			require.ErrorAs(t, err, &oe)
			assert.Equal(t, "write", oe.Op)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, nc, peer := sockPair(t)
			tc.run(t, s, nc, peer)
		})
	}
}

// TestSockErrorWording checks that an error is worded once, as net.Conn
// words it, not as the raw connection does ("raw-read").
func TestSockErrorWording(t *testing.T) {
	s, nc, _ := sockPair(t)
	require.NoError(t, nc.Close())
	_, err := s.Read(make([]byte, 1))
	require.Error(t, err)
	assert.NotContains(t, err.Error(), "raw-")
	var oe *net.OpError
	require.ErrorAs(t, err, &oe)
	assert.False(t, errors.As(oe.Err, new(*net.OpError)), "an OpError inside an OpError: %v", err)
}
