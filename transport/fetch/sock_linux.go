//go:build linux && !race

package fetch

import (
	"errors"
	"io"
	"net"
	"os"
	"syscall"
	"unsafe"
)

// newSock returns what an h1Conn reads and writes through: on Linux a
// rawSock, when nc gives access to its descriptor, else nc itself.
func newSock(nc net.Conn) io.ReadWriter {
	sc, ok := nc.(syscall.Conn)
	if !ok {
		return nc
	}
	rc, err := sc.SyscallConn()
	if err != nil {
		return nc
	}
	return &rawSock{nc: nc, rc: rc}
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
// (docs/architecture.md, "Socket reads and writes"). A rawSock has the
// concurrency of a net.Conn: one reader and one writer at a time.
type rawSock struct {
	nc net.Conn
	rc syscall.RawConn
}

func (s *rawSock) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	var n uintptr
	var errno syscall.Errno
	err := s.rc.Read(func(fd uintptr) bool {
		for {
			n, _, errno = syscall.RawSyscall(syscall.SYS_READ, fd, uintptr(unsafe.Pointer(&p[0])), uintptr(len(p)))
			switch errno {
			case syscall.EINTR:
				continue
			case syscall.EAGAIN:
				return false // wait until the socket is readable
			}
			return true
		}
	})
	switch {
	case err != nil:
		return 0, s.opError("read", err)
	case errno != 0:
		return 0, s.opError("read", os.NewSyscallError("read", errno))
	case n == 0:
		return 0, io.EOF
	}
	return int(n), nil
}

func (s *rawSock) Write(p []byte) (int, error) {
	var n int
	var errno syscall.Errno
	err := s.rc.Write(func(fd uintptr) bool {
		for n < len(p) {
			m, _, e := syscall.RawSyscall(syscall.SYS_WRITE, fd, uintptr(unsafe.Pointer(&p[n])), uintptr(len(p)-n))
			switch e {
			case 0:
				n += int(m)
			case syscall.EINTR:
			case syscall.EAGAIN:
				return false // wait until the socket is writable
			default:
				errno = e
				return true
			}
		}
		return true
	})
	switch {
	case err != nil:
		return n, s.opError("write", err)
	case errno != 0:
		return n, s.opError("write", os.NewSyscallError("write", errno))
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
