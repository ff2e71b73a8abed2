//go:build (!linux || race) && !js && !wasip1

package fetch

import (
	"io"
	"net"
)

// newSock returns what an h1Conn reads and writes through: nc itself
// (sock_linux.go has the reason for the Linux twin). Race-detector builds
// use nc on Linux too: the syscall package's reads and writes tell the
// detector that what was written before a send happened before what is
// read after the answer, and raw system calls cannot.
func newSock(nc net.Conn) io.ReadWriter { return nc }
