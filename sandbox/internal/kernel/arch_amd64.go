//go:build linux

package kernel

import "golang.org/x/sys/unix"

// AuditArch is the seccomp audit architecture of this machine, and X32Bit
// the bit of the syscall numbers of its 32-bit ABI, if any.
const (
	AuditArch = unix.AUDIT_ARCH_X86_64
	X32Bit    = 0x40000000 // the x32 syscall ABI
)
