//go:build linux

package inside

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"

	"golang.org/x/sys/unix"

	"judge/sandbox/internal/wire"
)

// devices are the device files of the sandbox's /dev.
var devices = []string{"null", "zero", "full", "random", "urandom"}

// devPaths are the paths of /dev that a program may read and write: the
// whole of a sandbox's own /dev, which holds nothing else; at level basic,
// which shows the machine's, only its devices, and not its terminals
// (/dev/tty, the judge's controlling terminal, which its programs share,
// nor /dev/pts) nor its disks.
func devPaths(basic bool) []string {
	if !basic {
		return []string{"/dev"}
	}
	p := make([]string, len(devices))
	for i, d := range devices {
		p[i] = "/dev/" + d
	}
	return p
}

// The staging root's directories: the machine's tree, and the sandbox's
// root as it is built.
const (
	oldRoot = "/oldroot"
	newRoot = "/newroot"
)

// setupRoot builds the sandbox's file system in a fresh tmpfs and makes it
// the root: the system directories and the judge's mounts read-only (but
// for writable ones), a private size-capped /tmp, a fresh /proc, a
// minimal /dev. Nothing else of the machine stays reachable.
func setupRoot(cfg *wire.Config) error {
	if err := stageRoot(); err != nil {
		return err
	}
	if err := showSystemDirs(); err != nil {
		return err
	}
	tmpOpts := tmpOptions(cfg.TmpSize)
	if err := mountFresh(tmpOpts); err != nil {
		return err
	}
	ms := append([]wire.Mount(nil), cfg.Mounts...)
	sort.Slice(ms, func(i, j int) bool { return len(ms[i].Dst) < len(ms[j].Dst) })
	for _, m := range ms {
		if err := showMount(m); err != nil {
			return err
		}
	}
	return enterNewRoot()
}

// stageRoot makes a staging tmpfs the root, with the machine's tree
// under oldRoot to take the system directories from; the sandbox's root
// is built in newRoot, which finally becomes the root on its own.
func stageRoot() error {
	if err := unix.Mount("", "/", "", unix.MS_REC|unix.MS_PRIVATE, ""); err != nil {
		return fmt.Errorf("making mounts private: %w", err)
	}
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
	if err := unix.Mount("tmpfs", newRoot, "tmpfs", unix.MS_NOSUID|unix.MS_NODEV, "size=1m,mode=755"); err != nil {
		return fmt.Errorf("root tmpfs: %w", err)
	}
	return nil
}

// showSystemDirs shows the system directories read-only in the new root,
// and the symbolic links among them as they are.
func showSystemDirs() error {
	const old, root = oldRoot, newRoot
	for _, d := range wire.SystemDirs {
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
	return nil
}

// tmpOptions are the mount options of a private /tmp or /dev/shm of at
// most size bytes (0 for the kernel's default).
func tmpOptions(size int64) string {
	opts := "mode=1777"
	if size > 0 {
		opts += fmt.Sprintf(",size=%d", size)
	}
	return opts
}

// mountFresh mounts the new root's own /proc, /tmp (with tmpOpts) and
// /dev.
func mountFresh(tmpOpts string) error {
	const old, root = oldRoot, newRoot
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
	return nil
}

// showMount shows one of the judge's mounts in the new root.
func showMount(m wire.Mount) error {
	dst := filepath.Join(newRoot, m.Dst)
	src := filepath.Join(oldRoot, m.Src)
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
	if err := mountPoint(dst, m.Dst, isDir); err != nil {
		return err
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
		return nil
	}
	if err := bind(src, dst, m.Write); err != nil {
		return fmt.Errorf("%s: %w", m.Dst, err)
	}
	return nil
}

// enterNewRoot makes the new root's /dev read-only, makes it the root,
// lets go of the staging root and the machine's tree under it, and makes
// the root read-only.
func enterNewRoot() error {
	if err := unix.Mount("", newRoot+"/dev", "", unix.MS_REMOUNT|unix.MS_RDONLY|unix.MS_NOSUID|unix.MS_NOEXEC, "mode=755,size=64k"); err != nil {
		return fmt.Errorf("read-only /dev: %w", err)
	}
	if err := os.Chdir(newRoot); err != nil {
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

// mountPoint makes an empty directory, or file, at path to mount on;
// errors name it as name.
func mountPoint(path, name string, dir bool) error {
	if dir {
		if err := os.MkdirAll(path, 0o755); err != nil {
			return fmt.Errorf("mount point %s: %w", name, err)
		}
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("mount point %s: %w", name, err)
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDONLY, 0o644)
	if err != nil {
		return fmt.Errorf("mount point %s: %w", name, err)
	}
	return f.Close()
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
	// Where a reused sandbox shows each program's POSIX message queues
	// (slot.go).
	if err := os.Mkdir(filepath.Join(dir, "mqueue"), 0o755); err != nil {
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

// restrict makes the mount at dst private, and read-only unless write,
// with no set-user-id or device files. Private first: a tree the judge
// cloned as root (open_tree) is a peer of the machine's mount it was
// cloned from, shared on systemd's machines, and every mount made on it
// in the sandbox (a program's fresh /tmp over a directory shown at /tmp)
// would appear on the machine too.
func restrict(dst string, write bool) error {
	if err := unix.Mount("", dst, "", unix.MS_REC|unix.MS_PRIVATE, ""); err != nil {
		return fmt.Errorf("making %s private: %w", dst, err)
	}
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
