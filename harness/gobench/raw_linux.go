//go:build linux

package main

import (
	"io"
	"net"
	"syscall"
	"unsafe"
)

// rawIO reads and writes a connected socket with raw system calls (no
// scheduler bookkeeping around them), waiting through the runtime's poller
// when the socket is not ready: the cheapest way a Go process can move the
// bytes (transport/fetch's rawSock does the same, with the checks a library
// needs).
type rawIO struct {
	rc     syscall.RawConn
	p      []byte
	n      int
	errno  syscall.Errno
	rf, wf func(fd uintptr) bool
}

func newRawIO(nc net.Conn) io.ReadWriter {
	sc, ok := nc.(syscall.Conn)
	if !ok {
		return nc
	}
	rc, err := sc.SyscallConn()
	if err != nil {
		return nc
	}
	r := &rawIO{rc: rc}
	r.rf = func(fd uintptr) bool { return r.sys(syscall.SYS_READ, fd) }
	r.wf = func(fd uintptr) bool { return r.sys(syscall.SYS_WRITE, fd) }
	return r
}

// sys makes one read or write of p, or returns false to wait for fd.
func (r *rawIO) sys(trap, fd uintptr) bool {
	for {
		n, _, e := syscall.RawSyscall(trap, fd, uintptr(unsafe.Pointer(&r.p[0])), uintptr(len(r.p)))
		switch e {
		case syscall.EINTR:
			continue
		case syscall.EAGAIN:
			return false
		case 0:
			r.n = int(n)
		}
		r.errno = e
		return true
	}
}

func (r *rawIO) do(p []byte, f func(uintptr) bool, read bool) (int, error) {
	r.p, r.n, r.errno = p, 0, 0
	var err error
	if read {
		err = r.rc.Read(f)
	} else {
		err = r.rc.Write(f)
	}
	r.p = nil
	switch {
	case err != nil:
		return r.n, err
	case r.errno != 0:
		return r.n, r.errno
	case read && r.n == 0:
		return 0, io.EOF
	}
	return r.n, nil
}

func (r *rawIO) Read(p []byte) (int, error) { return r.do(p, r.rf, true) }

func (r *rawIO) Write(p []byte) (int, error) {
	for done := 0; done < len(p); {
		n, err := r.do(p[done:], r.wf, false)
		done += n
		if err != nil {
			return done, err
		}
	}
	return len(p), nil
}
