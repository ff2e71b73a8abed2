//go:build linux && !race

package rawsock

import (
	"errors"
	"io"
	"net"
	"os"
	"syscall"
	"unsafe"
)

// New returns what to read and write nc through: on Linux a rawSock, when
// nc gives access to its descriptor, else nc itself. It may be called
// concurrently; what it returns allows one Read and one Write at a time
// (both at once is fine), and nc's deadlines and Close apply to it.
func New(nc net.Conn) io.ReadWriter {
	sc, ok := nc.(syscall.Conn)
	if !ok {
		return nc
	}
	rc, err := sc.SyscallConn()
	if err != nil {
		return nc
	}
	s := &rawSock{nc: nc, rc: rc}
	s.readFn, s.writeFn = s.read, s.write
	return s
}

// rawSock reads and writes a connected TCP socket with raw system calls,
// waiting for it through the runtime's network poller as net.Conn does
// (deadlines included). net.Conn makes each read and write a blocking-kind
// system call (syscall.Read, syscall.Write): the scheduler's bookkeeping
// around it wakes the runtime's monitor thread when the process was idle,
// which in a sequential request loop it always is, at every call. The
// socket is in non-blocking mode, so a read or write returns at once
// (EAGAIN when it would block) and needs none of that: on a sequential
// echo call this saved ≈ 25 µs of the client's ≈ 75 µs of CPU
// (docs/architecture.md, "Socket reads and writes"). A rawSock allows
// one Read and one Write at a time, concurrently (a net.Conn allows
// more): an HTTP/1.1 connection belongs to one request at a time.
type rawSock struct {
	nc net.Conn
	rc syscall.RawConn

	// The read and the write in progress, and the functions the raw
	// connection calls, made once (a closure per call would cost three
	// allocations per read and per write).
	rp, wp     []byte
	rn, wn     int
	rerr, werr syscall.Errno
	readFn     func(fd uintptr) bool
	writeFn    func(fd uintptr) bool
}

// maxRawIO bounds the bytes one raw system call copies (see rawSock).
const maxRawIO = 256 << 10

func (s *rawSock) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	if len(p) > maxRawIO {
		p = p[:maxRawIO]
	}
	s.rp, s.rn, s.rerr = p, 0, 0
	err := s.rc.Read(s.readFn)
	s.rp = nil
	n, err := s.outcome("read", s.rn, err, s.rerr)
	if n == 0 && err == nil {
		return 0, io.EOF
	}
	return n, err
}

// read is readFn: one read into rp, or false to wait for the socket.
func (s *rawSock) read(fd uintptr) bool {
	for {
		n, _, e := syscall.RawSyscall(syscall.SYS_READ, fd, uintptr(unsafe.Pointer(&s.rp[0])), uintptr(len(s.rp)))
		switch e {
		case 0:
			s.rn = int(n)
		case syscall.EINTR:
			continue
		case syscall.EAGAIN:
			return false // wait until the socket is readable
		default:
			s.rerr = e
		}
		return true
	}
}

func (s *rawSock) Write(p []byte) (int, error) {
	s.wp, s.wn, s.werr = p, 0, 0
	err := s.rc.Write(s.writeFn)
	s.wp = nil
	return s.outcome("write", s.wn, err, s.werr)
}

// write is writeFn: writes wp from wn on, or false to wait for the socket.
func (s *rawSock) write(fd uintptr) bool {
	for s.wn < len(s.wp) {
		m, _, e := syscall.RawSyscall(syscall.SYS_WRITE, fd, uintptr(unsafe.Pointer(&s.wp[s.wn])), uintptr(min(len(s.wp)-s.wn, maxRawIO)))
		switch e {
		case 0:
			s.wn += int(m)
		case syscall.EINTR:
		case syscall.EAGAIN:
			return false // wait until the socket is writable
		default:
			s.werr = e
			return true
		}
	}
	return true
}

// outcome is what Read or Write returns: n bytes moved, and the raw
// connection's error (a deadline, a closed connection) or the system
// call's, worded by opError.
func (s *rawSock) outcome(op string, n int, err error, errno syscall.Errno) (int, error) {
	switch {
	case err != nil:
		return n, s.opError(op, err)
	case errno != 0:
		return n, s.opError(op, os.NewSyscallError(op, errno))
	}
	return n, nil
}

// opError words err as net.Conn does (the raw connection's own errors
// name the operation "raw-read" or "raw-write").
func (s *rawSock) opError(op string, err error) error {
	var oe *net.OpError
	if errors.As(err, &oe) {
		err = oe.Err
	}
	return &net.OpError{Op: op, Net: "tcp", Source: s.nc.LocalAddr(), Addr: s.nc.RemoteAddr(), Err: err}
}
