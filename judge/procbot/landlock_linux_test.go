package procbot_test

import "golang.org/x/sys/unix"

// landlockABI is the kernel's Landlock ABI, 0 without Landlock.
func landlockABI() int {
	v, _, e := unix.Syscall(unix.SYS_LANDLOCK_CREATE_RULESET, 0, 0, unix.LANDLOCK_CREATE_RULESET_VERSION)
	if e != 0 {
		return 0
	}
	return int(v)
}
