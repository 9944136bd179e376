//go:build unix

package procbot

import (
	"os"
	"syscall"
)

// ownedByUs says whether the file of st belongs to the judge's user.
func ownedByUs(st os.FileInfo) bool {
	sys, ok := st.Sys().(*syscall.Stat_t)
	return ok && int(sys.Uid) == os.Geteuid()
}
