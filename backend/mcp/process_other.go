//go:build !unix

package mcp

import "os/exec"

func ownProcessGroup(*exec.Cmd) {}

// terminate has no polite signal to send outside Unix.
func terminate(cmd *exec.Cmd) { _ = cmd.Process.Kill() }

func kill(cmd *exec.Cmd) { _ = cmd.Process.Kill() }
