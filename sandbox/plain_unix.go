//go:build linux || darwin

package sandbox

import (
	"errors"
	"fmt"

	"golang.org/x/sys/unix"
)

// kill ends a program run with no sandbox: its process group, and
// itself should it have left the group.
func (pp *plainProc) kill() {
	_ = unix.Kill(-pp.pid, unix.SIGKILL)
	_ = unix.Kill(pp.pid, unix.SIGKILL)
	_ = unix.Kill(-pp.pid, unix.SIGCONT)
}

// freeze stops (or continues) the program's process group.
func (pp *plainProc) freeze(stop bool) error {
	sig := unix.SIGCONT
	if stop {
		sig = unix.SIGSTOP
	}
	if err := unix.Kill(-pp.pid, sig); err != nil && !errors.Is(err, unix.ESRCH) {
		return fmt.Errorf("sandbox: freeze: %w", err)
	}
	return nil
}
