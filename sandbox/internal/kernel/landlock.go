//go:build linux

package kernel

import (
	"unsafe"

	"golang.org/x/sys/unix"
)

// Landlock is used through its three system calls directly: the rules
// must bind only the thread that execs the program.

// LandlockCreateRuleset is landlock_create_ruleset(2).
func LandlockCreateRuleset(attr *unix.LandlockRulesetAttr, size uintptr, flags int) (int, error) {
	fd, _, e := unix.Syscall(unix.SYS_LANDLOCK_CREATE_RULESET, uintptr(unsafe.Pointer(attr)), size, uintptr(flags))
	if e != 0 {
		return -1, e
	}
	return int(fd), nil
}

// LandlockAddPath is landlock_add_rule(2) of a path rule.
func LandlockAddPath(ruleset int, attr *unix.LandlockPathBeneathAttr) error {
	_, _, e := unix.Syscall6(unix.SYS_LANDLOCK_ADD_RULE, uintptr(ruleset), unix.LANDLOCK_RULE_PATH_BENEATH, uintptr(unsafe.Pointer(attr)), 0, 0, 0)
	if e != 0 {
		return e
	}
	return nil
}

// LandlockRestrictSelf is landlock_restrict_self(2).
func LandlockRestrictSelf(ruleset int) error {
	_, _, e := unix.Syscall(unix.SYS_LANDLOCK_RESTRICT_SELF, uintptr(ruleset), 0, 0)
	if e != 0 {
		return e
	}
	return nil
}

// LandlockABI is the Landlock ABI version of the kernel, or 0.
func LandlockABI() int {
	v, err := LandlockCreateRuleset(nil, 0, unix.LANDLOCK_CREATE_RULESET_VERSION)
	if err != nil {
		return 0
	}
	return v
}
