//go:build unix

package stdio

import (
	"os"
	"os/exec"
	"syscall"
)

// ownGroup makes cmd's process the leader of a process group of its own,
// so that the signals of Close reach the processes the server started
// too (a wrapper script, npx, a language runtime's launcher).
func ownGroup(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Setpgid = true
}

// signalGroup sends sig to the process group p leads (every process in
// it; p's pid is the group's id while any of them is alive).
func signalGroup(p *os.Process, sig syscall.Signal) error {
	return syscall.Kill(-p.Pid, sig)
}
