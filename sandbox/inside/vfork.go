//go:build linux

package inside

import "golang.org/x/sys/unix"

// cloneFlags make the child share the parent's memory, the parent
// waiting, until it executes the program (vfork_*.s): nothing of the
// init's memory is copied, or torn down at the exec.
const cloneFlags = unix.CLONE_VM | unix.CLONE_VFORK | uintptr(unix.SIGCHLD)

// vfork is clone(flags), for cloneFlags (vfork_amd64.s, vfork_arm64.s).
func vfork(trap, flags uintptr) (pid, errno uintptr)
