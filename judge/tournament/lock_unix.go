//go:build unix

package tournament

import (
	"os"

	"golang.org/x/sys/unix"
)

// errLocked is lockFile's error when another process holds the lock.
var errLocked error = unix.EWOULDBLOCK

// lockFile takes the exclusive lock of f (flock) without waiting; it
// goes with the process, however it ends.
func lockFile(f *os.File) error { return unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB) }
