package sandbox

import "golang.org/x/sys/unix"

const (
	auditArch = unix.AUDIT_ARCH_X86_64
	x32Bit    = 0x40000000 // the x32 syscall ABI
)

var deniedSyscalls = append([]int{unix.SYS_IOPL, unix.SYS_IOPERM, unix.SYS_USELIB}, commonDenied...)
