package inside

import "golang.org/x/sys/unix"

var deniedSyscalls = append([]int{unix.SYS_IOPL, unix.SYS_IOPERM, unix.SYS_USELIB}, commonDenied...)
