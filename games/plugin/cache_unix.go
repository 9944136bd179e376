//go:build unix

package plugin

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
)

// privateDir makes dir, the judge's own (mode 0700; the folders above it,
// if new, 0755), and checks that no other user can change what is in it:
// it and every folder above it belong to the judge's user or to root, it
// is written by its owner alone, and a folder above it that others may
// write is sticky (as /tmp is), so that no other user can move it away.
func privateDir(dir string) error {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		return err
	}
	if err := os.Mkdir(dir, 0o700); err != nil && !errors.Is(err, os.ErrExist) {
		return err
	}
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return err
	}
	uid := uint32(os.Geteuid())
	for p := real; ; p = filepath.Dir(p) {
		fi, err := os.Lstat(p)
		if err != nil {
			return err
		}
		st, ok := fi.Sys().(*syscall.Stat_t)
		if !ok {
			return fmt.Errorf("%s: no owner", p)
		}
		perm := fi.Mode().Perm()
		switch {
		case !fi.IsDir():
			return fmt.Errorf("%s is not a folder", p)
		case p == real && (st.Uid != uid || perm&0o022 != 0):
			return fmt.Errorf("%s: mode %v, owner %d: want the judge's own (%d), written by it alone", p, perm, st.Uid, uid)
		case st.Uid != uid && st.Uid != 0:
			return fmt.Errorf("%s belongs to user %d", p, st.Uid)
		case perm&0o022 != 0 && fi.Mode()&os.ModeSticky == 0:
			return fmt.Errorf("%s: others may write it (mode %v)", p, perm)
		}
		if filepath.Dir(p) == p {
			return nil
		}
	}
}
