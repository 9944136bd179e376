//go:build linux

package inside

import "golang.org/x/sys/unix"

// deniedSyscalls are the system calls the filter denies on this
// architecture.
var deniedSyscalls = append([]int{unix.SYS_IOPL, unix.SYS_IOPERM, unix.SYS_USELIB}, commonDenied...)
