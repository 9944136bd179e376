//go:build linux

package inside

import (
	"bytes"
	"fmt"
	"sort"
	"unsafe"

	"golang.org/x/sys/unix"
)

// traces are what a program could leave in the namespaces of the thread
// that started it, for the next program to find: every entry of the
// trees of /tmp, /dev/shm and /dev/mqueue (POSIX message queues), at any
// depth, hidden or not, with what its inode tells (type, mode, owner,
// links, size, times, attributes) and its extended attributes; and
// System V IPC objects. The trees hold, when a thread is made ready, the
// directories the init made there to show the judge's directories and
// files that lie under /tmp (the mount points, whose contents are the
// judge's and read-only, are not looked into), and nothing else. A file
// a program writes at any depth is an entry more in one of those
// directories or in one it made in them; what it changes of theirs
// (their mode, times, attributes) the inode says. A program can neither
// mount nor leave a process behind, and its other traces are in files it
// was given, or die with it.
type traces struct {
	entries []traceEntry
	// The trees' roots, kept open: a look at a tree that holds nothing
	// then looks up no path (each lookup checked by Landlock), and opens
	// nothing.
	roots [len(traceDirs)]int
	buf   []byte
}

// traceEntry is one entry of a tree of traceDirs.
type traceEntry struct {
	path string
	// mount marks a mount point (another file system than its tree's):
	// only its path counts.
	mount bool
	st    unix.Statx_t
	xattr string // its extended attributes, names and values
}

var traceDirs = [...]string{"/tmp", "/dev/shm", "/dev/mqueue"}

// mqueueMagic is the file system type of a POSIX message queue mount.
const mqueueMagic = 0x19800202

// takeTraces notes the calling thread's traces, or returns nil when it
// cannot see them all (no message queue file system at /dev/mqueue, a
// tree it cannot read) or there are System V IPC objects.
func takeTraces() *traces {
	var fs unix.Statfs_t
	if err := unix.Statfs("/dev/mqueue", &fs); err != nil || fs.Type != mqueueMagic {
		return nil
	}
	tr := &traces{roots: [len(traceDirs)]int{-1, -1, -1}, buf: make([]byte, 4096)}
	for i, d := range traceDirs {
		fd, err := openDir(unix.AT_FDCWD, d)
		if err != nil {
			tr.close()
			return nil
		}
		tr.roots[i] = fd
		if !walkRoot(fd, d, tr.buf, func(e *traceEntry) bool {
			tr.entries = append(tr.entries, *e)
			return true
		}) {
			tr.close()
			return nil
		}
	}
	if n, err := sysvObjects(); err != nil || n != 0 {
		tr.close()
		return nil
	}
	return tr
}

// close lets go of the trees' roots (nil: nothing to do).
func (tr *traces) close() {
	if tr == nil {
		return
	}
	for i, fd := range tr.roots {
		if fd >= 0 {
			unix.Close(fd)
		}
		tr.roots[i] = -1
	}
}

// same says whether the calling thread's traces are still tr (false for
// a nil tr). It stops at the first difference: a program that left
// thousands of files costs no more than one that left one.
func (tr *traces) same() bool {
	if tr == nil {
		return false
	}
	i := 0
	for k, d := range traceDirs {
		if !walkRoot(tr.roots[k], d, tr.buf, func(e *traceEntry) bool {
			if i >= len(tr.entries) || !e.equal(&tr.entries[i]) {
				return false
			}
			i++
			return true
		}) {
			return false
		}
	}
	if i != len(tr.entries) {
		return false
	}
	n, err := sysvObjects()
	return err == nil && n == 0
}

func (e *traceEntry) equal(o *traceEntry) bool {
	return e.path == o.path && e.mount == o.mount && e.st == o.st && e.xattr == o.xattr
}

// traceStatx is what statx is asked of an entry.
const traceStatx = unix.STATX_BASIC_STATS | unix.STATX_BTIME

// walkTree calls fn with every entry of the tree at root, root first,
// the entries of each directory in the order of their names, without
// looking into mounts (entries of another file system than root's). It
// stops, and returns false, when fn does, or when an entry cannot be
// read. The trees are mounted noatime: looking changes nothing of them.
func walkTree(root string, fn func(*traceEntry) bool) bool {
	fd, err := openDir(unix.AT_FDCWD, root)
	if err != nil {
		return false
	}
	defer unix.Close(fd)
	return walkRoot(fd, root, make([]byte, 4096), fn)
}

// openDir opens the directory path (relative to dirfd) to be read.
func openDir(dirfd int, path string) (int, error) {
	return unix.Openat(dirfd, path, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_CLOEXEC, 0)
}

// walkRoot is walkTree of the tree whose root, at path root, is open as
// the directory rootFd, with buf to read what it needs: the root is
// looked at through rootFd, the entries below by their paths.
func walkRoot(rootFd int, root string, buf []byte, fn func(*traceEntry) bool) bool {
	var e traceEntry
	if err := unix.Statx(rootFd, "", unix.AT_EMPTY_PATH|unix.AT_SYMLINK_NOFOLLOW, traceStatx, &e.st); err != nil {
		return false
	}
	major, minor := e.st.Dev_major, e.st.Dev_minor
	var walk func(path string, fd int, e *traceEntry) bool
	walk = func(path string, fd int, e *traceEntry) bool {
		e.path = path
		if e.st.Dev_major != major || e.st.Dev_minor != minor {
			e.mount, e.st = true, unix.Statx_t{}
			return fn(e)
		}
		x, ok := xattrsOf(path, fd, buf)
		if !ok {
			return false
		}
		e.xattr = x
		if !fn(e) {
			return false
		}
		if e.st.Mode&unix.S_IFMT != unix.S_IFDIR {
			return true
		}
		names, ok := dirNames(path, fd, buf)
		if !ok {
			return false
		}
		for _, name := range names {
			var c traceEntry
			p := path + "/" + name
			if err := unix.Statx(unix.AT_FDCWD, p, unix.AT_SYMLINK_NOFOLLOW, traceStatx, &c.st); err != nil {
				return false
			}
			if !walk(p, -1, &c) {
				return false
			}
		}
		return true
	}
	return walk(root, rootFd, &e)
}

// dirNames lists the directory path, sorted, with buf to read it: from
// its start through fd when it is open (≥ 0), else opened by its path.
func dirNames(path string, fd int, buf []byte) ([]string, bool) {
	if fd >= 0 {
		if _, err := unix.Seek(fd, 0, 0); err != nil {
			return nil, false
		}
	} else {
		var err error
		if fd, err = openDir(unix.AT_FDCWD, path); err != nil {
			return nil, false
		}
		defer unix.Close(fd)
	}
	var names []string
	for {
		n, err := unix.ReadDirent(fd, buf)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return nil, false
		}
		if n == 0 {
			break
		}
		_, _, names = unix.ParseDirent(buf[:n], -1, names)
	}
	sort.Strings(names)
	return names, true
}

// xattrsOf lists the extended attributes of path (through fd when it is
// open, ≥ 0), names and values, with buf to read them; false when they
// cannot be read, or do not fit in buf.
func xattrsOf(path string, fd int, buf []byte) (string, bool) {
	var n int
	var err error
	if fd >= 0 {
		n, err = unix.Flistxattr(fd, buf)
	} else {
		n, err = unix.Llistxattr(path, buf)
	}
	switch {
	case err == unix.ENOTSUP || err == unix.EOPNOTSUPP:
		return "", true
	case err != nil:
		return "", false
	case n == 0:
		return "", true
	}
	var out bytes.Buffer
	names := append([]byte(nil), buf[:n]...)
	for name := range bytes.SplitSeq(bytes.TrimSuffix(names, []byte{0}), []byte{0}) {
		var v int
		var err error
		if fd >= 0 {
			v, err = unix.Fgetxattr(fd, string(name), buf)
		} else {
			v, err = unix.Lgetxattr(path, string(name), buf)
		}
		if err != nil {
			return "", false
		}
		fmt.Fprintf(&out, "%s=%q\x00", name, buf[:v])
	}
	return out.String(), true
}

// sysvObjects counts the System V shared memory segments, semaphore sets
// and message queues of the calling thread's IPC namespace.
func sysvObjects() (int, error) {
	const shmInfo, semInfo, msgInfo = 14, 19, 12 // SHM_INFO, SEM_INFO, MSG_INFO
	var buf [64]int32                            // larger than shm_info, seminfo, msginfo
	if _, _, e := unix.RawSyscall(unix.SYS_SHMCTL, 0, shmInfo, uintptr(unsafe.Pointer(&buf[0]))); e != 0 {
		return 0, fmt.Errorf("shmctl: %w", e)
	}
	n := int(buf[0]) // shm_info.used_ids
	buf = [64]int32{}
	if _, _, e := unix.RawSyscall6(unix.SYS_SEMCTL, 0, 0, semInfo, uintptr(unsafe.Pointer(&buf[0])), 0, 0); e != 0 {
		return 0, fmt.Errorf("semctl: %w", e)
	}
	n += int(buf[7]) // seminfo.semusz: the sets in use
	buf = [64]int32{}
	if _, _, e := unix.RawSyscall(unix.SYS_MSGCTL, 0, msgInfo, uintptr(unsafe.Pointer(&buf[0]))); e != 0 {
		return 0, fmt.Errorf("msgctl: %w", e)
	}
	return n + int(buf[0]), nil // msginfo.msgpool: the queues in use
}
