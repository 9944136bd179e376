//go:build !unix

package plugin

import "os/exec"

func setGroup(*exec.Cmd) {}

// killGroup kills the referee (no process groups here).
func killGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		_ = cmd.Process.Kill()
	}
}
