//go:build linux

package inside

// vfork is clone(a1, a2) or clone3(a1, a2) (trap) for a child that
// shares the parent's memory, the parent waiting, until it executes a
// program (vfork_amd64.s, vfork_arm64.s): nothing of the init's memory
// is copied, or torn down at the exec.
func vfork(trap, a1, a2 uintptr) (pid, errno uintptr)
