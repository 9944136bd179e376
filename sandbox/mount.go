package sandbox

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"

	"golang.org/x/sys/unix"
)

// systemDirs are shown read-only in every isolated sandbox: programs,
// libraries, interpreters and their configuration.
var systemDirs = []string{"/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc"}

// devices are the device files of the sandbox's /dev.
var devices = []string{"null", "zero", "full", "random", "urandom"}

// setupRoot builds the sandbox's file system in a fresh tmpfs and makes it
// the root: the system directories and the judge's mounts read-only (but
// for writable ones), a private size-capped /tmp, a fresh /proc, a
// minimal /dev. Nothing else of the machine stays reachable.
func setupRoot(cfg *config) error {
	if err := unix.Mount("", "/", "", unix.MS_REC|unix.MS_PRIVATE, ""); err != nil {
		return fmt.Errorf("making mounts private: %w", err)
	}
	// A staging tmpfs becomes the root, with the machine's tree under
	// /oldroot to take the system directories from; the sandbox's root is
	// built in /newroot, which finally becomes the root on its own.
	if err := unix.Mount("tmpfs", "/tmp", "tmpfs", unix.MS_NOSUID|unix.MS_NODEV, "size=1m,mode=755"); err != nil {
		return fmt.Errorf("staging tmpfs: %w", err)
	}
	for _, d := range []string{"/tmp/oldroot", "/tmp/newroot"} {
		if err := os.Mkdir(d, 0o755); err != nil {
			return err
		}
	}
	if err := unix.PivotRoot("/tmp", "/tmp/oldroot"); err != nil {
		return fmt.Errorf("pivot_root to the staging tmpfs: %w", err)
	}
	if err := os.Chdir("/"); err != nil {
		return err
	}
	const old, root = "/oldroot", "/newroot"
	if err := unix.Mount("tmpfs", root, "tmpfs", unix.MS_NOSUID|unix.MS_NODEV, "size=1m,mode=755"); err != nil {
		return fmt.Errorf("root tmpfs: %w", err)
	}
	for _, d := range systemDirs {
		st, err := os.Lstat(old + d)
		if err != nil {
			continue
		}
		if st.Mode()&os.ModeSymlink != 0 {
			target, err := os.Readlink(old + d)
			if err != nil {
				return err
			}
			if err := os.Symlink(target, root+d); err != nil {
				return err
			}
			continue
		}
		if !st.IsDir() {
			continue
		}
		if err := os.Mkdir(root+d, 0o755); err != nil {
			return err
		}
		if err := bind(old+d, root+d, false); err != nil {
			return err
		}
	}
	tmpOpts := "mode=1777"
	if cfg.TmpSize > 0 {
		tmpOpts += fmt.Sprintf(",size=%d", cfg.TmpSize)
	}
	for _, d := range []string{"/proc", "/dev", "/tmp"} {
		if err := os.Mkdir(root+d, 0o755); err != nil {
			return err
		}
	}
	if err := unix.Mount("proc", root+"/proc", "proc", unix.MS_NOSUID|unix.MS_NODEV|unix.MS_NOEXEC, ""); err != nil {
		return fmt.Errorf("mounting /proc: %w", err)
	}
	if err := unix.Mount("tmpfs", root+"/tmp", "tmpfs", unix.MS_NOSUID|unix.MS_NODEV, tmpOpts); err != nil {
		return fmt.Errorf("mounting /tmp: %w", err)
	}
	if err := setupDev(old+"/dev", root+"/dev", tmpOpts); err != nil {
		return fmt.Errorf("/dev: %w", err)
	}
	ms := append([]mountSpec(nil), cfg.Mounts...)
	sort.Slice(ms, func(i, j int) bool { return len(ms[i].Dst) < len(ms[j].Dst) })
	for _, m := range ms {
		dst := filepath.Join(root, m.Dst)
		src := filepath.Join(old, m.Src)
		var isDir bool
		if m.FD >= 0 {
			var st unix.Stat_t
			if err := unix.Fstat(m.FD, &st); err != nil {
				return fmt.Errorf("%s: %w", m.Dst, err)
			}
			isDir = st.Mode&unix.S_IFMT == unix.S_IFDIR
		} else {
			st, err := os.Stat(src)
			if err != nil {
				return err
			}
			isDir = st.IsDir()
		}
		if isDir {
			if err := os.MkdirAll(dst, 0o755); err != nil {
				return fmt.Errorf("mount point %s: %w", m.Dst, err)
			}
		} else {
			if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
				return fmt.Errorf("mount point %s: %w", m.Dst, err)
			}
			f, err := os.OpenFile(dst, os.O_CREATE|os.O_RDONLY, 0o644)
			if err != nil {
				return fmt.Errorf("mount point %s: %w", m.Dst, err)
			}
			f.Close()
		}
		if m.FD >= 0 {
			// A tree the judge cloned (open_tree), for paths this user
			// could not reach.
			if err := unix.MoveMount(m.FD, "", unix.AT_FDCWD, dst, unix.MOVE_MOUNT_F_EMPTY_PATH); err != nil {
				return fmt.Errorf("%s: move_mount: %w", m.Dst, err)
			}
			unix.Close(m.FD)
			if err := restrict(dst, m.Write); err != nil {
				return fmt.Errorf("%s: %w", m.Dst, err)
			}
			continue
		}
		if err := bind(src, dst, m.Write); err != nil {
			return fmt.Errorf("%s: %w", m.Dst, err)
		}
	}
	if err := unix.Mount("", root+"/dev", "", unix.MS_REMOUNT|unix.MS_RDONLY|unix.MS_NOSUID|unix.MS_NOEXEC, "mode=755,size=64k"); err != nil {
		return fmt.Errorf("read-only /dev: %w", err)
	}
	if err := os.Chdir(root); err != nil {
		return err
	}
	if err := unix.PivotRoot(".", "."); err != nil {
		return fmt.Errorf("pivot_root: %w", err)
	}
	// The staging root, and the machine's tree under it, go away.
	if err := unix.Unmount(".", unix.MNT_DETACH); err != nil {
		return fmt.Errorf("detaching the old root: %w", err)
	}
	if err := os.Chdir("/"); err != nil {
		return err
	}
	if err := unix.Mount("", "/", "", unix.MS_REMOUNT|unix.MS_RDONLY|unix.MS_NOSUID|unix.MS_NODEV, "size=1m,mode=755"); err != nil {
		return fmt.Errorf("read-only root: %w", err)
	}
	return nil
}

// setupDev fills dir (a fresh tmpfs) with the few devices a program needs.
func setupDev(host, dir, shmOpts string) error {
	if err := unix.Mount("tmpfs", dir, "tmpfs", unix.MS_NOSUID|unix.MS_NOEXEC, "mode=755,size=64k"); err != nil {
		return err
	}
	for _, d := range devices {
		f, err := os.OpenFile(filepath.Join(dir, d), os.O_CREATE|os.O_RDONLY, 0o666)
		if err != nil {
			return err
		}
		f.Close()
		if err := unix.Mount(filepath.Join(host, d), filepath.Join(dir, d), "", unix.MS_BIND, ""); err != nil {
			return fmt.Errorf("%s: %w", d, err)
		}
	}
	for name, target := range map[string]string{
		"fd": "/proc/self/fd", "stdin": "/proc/self/fd/0", "stdout": "/proc/self/fd/1",
		"stderr": "/proc/self/fd/2", "core": "/proc/kcore",
	} {
		if name == "core" {
			continue
		}
		if err := os.Symlink(target, filepath.Join(dir, name)); err != nil {
			return err
		}
	}
	shm := filepath.Join(dir, "shm")
	if err := os.Mkdir(shm, 0o755); err != nil {
		return err
	}
	return unix.Mount("tmpfs", shm, "tmpfs", unix.MS_NOSUID|unix.MS_NODEV|unix.MS_NOEXEC, shmOpts)
}

// bind shows src at dst, read-only unless write, never with set-user-id
// or device files.
func bind(src, dst string, write bool) error {
	if err := unix.Mount(src, dst, "", unix.MS_BIND|unix.MS_REC, ""); err != nil {
		return fmt.Errorf("bind mount: %w", err)
	}
	return restrict(dst, write)
}

// restrict makes the mount at dst read-only unless write, with no
// set-user-id or device files.
func restrict(dst string, write bool) error {
	attr := unix.MountAttr{Attr_set: unix.MOUNT_ATTR_NOSUID | unix.MOUNT_ATTR_NODEV}
	if !write {
		attr.Attr_set |= unix.MOUNT_ATTR_RDONLY
	}
	err := unix.MountSetattr(-1, dst, unix.AT_RECURSIVE, &attr)
	if err == nil {
		return nil
	}
	if err != unix.ENOSYS {
		return fmt.Errorf("mount_setattr %s: %w", dst, err)
	}
	// Before Linux 5.12: remount, keeping the flags the kernel locked.
	var sfs unix.Statfs_t
	if err := unix.Statfs(dst, &sfs); err != nil {
		return err
	}
	flags := uintptr(unix.MS_REMOUNT | unix.MS_BIND | unix.MS_NOSUID | unix.MS_NODEV)
	if !write {
		flags |= unix.MS_RDONLY
	}
	for st, ms := range map[int64]uintptr{
		unix.ST_NOEXEC: unix.MS_NOEXEC, unix.ST_NOATIME: unix.MS_NOATIME,
		unix.ST_NODIRATIME: unix.MS_NODIRATIME, unix.ST_RELATIME: unix.MS_RELATIME,
	} {
		if sfs.Flags&st != 0 {
			flags |= ms
		}
	}
	if err := unix.Mount("", dst, "", flags, ""); err != nil {
		return fmt.Errorf("read-only remount %s: %w", dst, err)
	}
	return nil
}
