package arena

import (
	"os"

	"golang.org/x/sys/windows"
)

// lockFile takes the exclusive lock of f without waiting; it goes with
// the process, however it ends. Windows's locks are mandatory: the byte
// locked is far past the end of any file, so that others may still read
// it.
func lockFile(f *os.File) error {
	return windows.LockFileEx(windows.Handle(f.Fd()), windows.LOCKFILE_EXCLUSIVE_LOCK|windows.LOCKFILE_FAIL_IMMEDIATELY,
		0, 1, 0, &windows.Overlapped{Offset: 0xffffffff, OffsetHigh: 0x7fffffff})
}
