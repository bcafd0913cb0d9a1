//go:build unix

package mcp

import (
	"os/exec"
	"syscall"
)

// ownProcessGroup puts the server in a process group of its own, so that
// stopping it also stops what it started (npx → node, uvx → python).
func ownProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

func terminate(cmd *exec.Cmd) { _ = syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM) }

func kill(cmd *exec.Cmd) { _ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
