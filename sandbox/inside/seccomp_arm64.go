package inside

import "golang.org/x/sys/unix"

var deniedSyscalls = commonDenied
