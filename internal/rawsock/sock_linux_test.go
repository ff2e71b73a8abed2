//go:build linux && !race

package rawsock

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestSockIsRawOnLinux: TestSockReadsAndWrites covers the raw system calls
// on Linux, not net.Conn.
func TestSockIsRawOnLinux(t *testing.T) {
	s, _, _ := sockPair(t)
	assert.IsType(t, &rawSock{}, s)
}
