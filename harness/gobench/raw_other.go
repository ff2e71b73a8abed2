//go:build unix && !linux

package main

import (
	"io"
	"net"
)

func newRawIO(nc net.Conn) io.ReadWriter { return nc }
