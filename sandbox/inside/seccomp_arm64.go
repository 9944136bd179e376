//go:build linux

package inside

// deniedSyscalls are the system calls the filter denies on this
// architecture.
var deniedSyscalls = commonDenied
