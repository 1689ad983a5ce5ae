//go:build unix

package cmdpolicy

import (
	"os/exec"
	"syscall"
)

// ownGroup makes the command the leader of a new process group, so that
// what it starts is killed with it, and on Linux has it killed when
// prerel dies.
func ownGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	dieWithParent(cmd.SysProcAttr)
}

// killGroup kills the command's process group, and the command itself
// should it have left the group.
func killGroup(cmd *exec.Cmd) {
	if cmd.Process == nil {
		return
	}
	syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	cmd.Process.Kill()
}
