//go:build !unix

package stdio

import (
	"os"
	"os/exec"
	"syscall"
)

// ownGroup does nothing where there are no process groups to signal:
// Close's signals reach the server process alone.
func ownGroup(*exec.Cmd) {}

// signalGroup sends sig to p alone.
func signalGroup(p *os.Process, sig syscall.Signal) error {
	if sig == syscall.SIGKILL {
		return p.Kill()
	}
	return p.Signal(sig)
}
