package human

import "golang.org/x/sys/unix"

// The ioctls that read and set a terminal's attributes.
const (
	termiosGet = unix.TCGETS
	termiosSet = unix.TCSETS
)
