package bots

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
)

// What a build leaves is untrusted: its compiler ran on an entrant's
// sources, and the sandbox's user could write in its src and out
// directories. The judge looks at it only once every process of the
// build has ended (procbot.Host.RunTool), and then:
//
//   - it walks the build's directory without following links and refuses
//     a build that left anything but directories and regular files of
//     one name each (a symbolic link, a hard link, a FIFO, a socket, a
//     device), as the submission's compile error;
//   - it gives every file and directory to itself (when it runs as root:
//     the sandbox's user, nobody, made them) with plain modes, no setuid,
//     so that no later program of the sandbox's user can change the build;
//   - the files it writes itself (built.json, KEY.failed) are made new
//     (O_EXCL) in directories only it can write, and every file it reads
//     from the cache is opened without following links (O_NOFOLLOW) and
//     must be a regular file of bounded size.

// maxJudgeFile bounds a file the judge reads back from the build cache:
// built.json, KEY.failed.
const maxJudgeFile = 1 << 20

// maxBuildEntries bounds the files and directories of one build.
const maxBuildEntries = 20000

// workDir is a build's directory while it is made, KEY.tmp-N in the
// cache, locked as long as the build runs: RemoveStaleBuilds removes only
// those whose lock nobody holds.
type workDir struct {
	path string
	lock *os.File
}

// newWork makes and locks a new work directory in cache, named prefix.tmp-N.
func newWork(cache, prefix string) (*workDir, error) {
	for try := 0; ; try++ {
		dir, err := os.MkdirTemp(cache, prefix+".tmp-")
		if err != nil {
			return nil, err
		}
		f, ok, err := lockDir(dir)
		if err == nil && ok {
			// Removed by RemoveStaleBuilds between its making and its
			// lock: the lock holds a directory with no name.
			st, serr := os.Lstat(dir)
			fst, ferr := f.Stat()
			if serr == nil && ferr == nil && os.SameFile(st, fst) {
				if err := os.Chmod(dir, 0o755); err != nil {
					f.Close()
					removeTree(dir)
					return nil, err
				}
				return &workDir{path: dir, lock: f}, nil
			}
			f.Close()
		}
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return nil, err
		}
		if try == 10 {
			return nil, fmt.Errorf("%s: cannot make a work directory that stays", cache)
		}
	}
}

// close removes the work directory, unless kept (it has become the build),
// and lets go of its lock.
func (w *workDir) close(keep bool) {
	if !keep {
		removeTree(w.path)
	}
	w.lock.Close()
}

// removeTree removes dir and all it holds, following no link, also
// directories the build made unreadable (by their owner, when it is the
// judge's user).
func removeTree(dir string) {
	if os.RemoveAll(dir) == nil {
		return
	}
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if st, lerr := os.Lstat(p); lerr == nil && st.IsDir() {
			_ = os.Chmod(p, 0o700)
		}
		return nil
	})
	_ = os.RemoveAll(dir)
}

// RemoveStaleBuilds removes the work directories (KEY.tmp-N) that builds
// left in the build cache when the judge running them was killed (kill
// -9, a machine that stopped): every live build holds a lock on its own,
// and only those whose lock nobody holds are removed. So it may be called
// at any time, by any process, on a cache that other judges are building
// in. Build calls it at a process's first build into a cache; an arena or
// a tournament may call it as it starts. Off Unix it does nothing.
func RemoveStaleBuilds(cache string) error {
	if !canLock {
		return nil
	}
	entries, err := os.ReadDir(cache)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		return err
	}
	var errs []error
	for _, e := range entries {
		if !e.IsDir() || !strings.Contains(e.Name(), ".tmp-") {
			continue
		}
		dir := filepath.Join(cache, e.Name())
		f, ok, err := lockDir(dir)
		if err != nil {
			if !errors.Is(err, fs.ErrNotExist) {
				errs = append(errs, err)
			}
			continue
		}
		if ok {
			removeTree(dir)
			f.Close()
		}
	}
	return errors.Join(errs...)
}

// swept are the caches RemoveStaleBuilds ran on in this process.
var swept sync.Map

// sweepOnce runs RemoveStaleBuilds on cache once per process.
func sweepOnce(cache string) {
	if _, done := swept.LoadOrStore(cache, true); !done {
		_ = RemoveStaleBuilds(cache)
	}
}

// treeUsage is what a walk of a build's directory found.
type treeUsage struct {
	bytes   int64    // disk space: the larger of size and blocks, each file
	entries int      // files and directories
	odd     []string // what is not a directory or a regular file of one name, at most 3
	err     error    // a directory that could not be read
}

// walkTree walks the directory root holds, following no link, up to
// maxBuildEntries entries.
func walkTree(root *os.Root) treeUsage {
	var u treeUsage
	err := fs.WalkDir(root.FS(), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if u.entries++; u.entries > maxBuildEntries {
			return fs.SkipAll
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		links, _, _, blocks := fileFacts(info)
		u.bytes += max(info.Size(), blocks)
		kind := ""
		switch m := info.Mode(); {
		case m.IsDir():
		case !m.IsRegular():
			kind = fileKind(m)
		case links > 1:
			kind = fmt.Sprintf("a file with %d names: a hard link", links)
		}
		if kind != "" && len(u.odd) < 3 {
			u.odd = append(u.odd, fmt.Sprintf("%s (%s)", p, kind))
		}
		return nil
	})
	u.err = err
	return u
}

// fileKind says what a file that is neither a directory nor a regular
// file is.
func fileKind(m fs.FileMode) string {
	switch {
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a block device"
	}
	return "a special file"
}

// checkTree is why the build in dir is refused, "" when it holds only
// directories and regular files of one name each, and, when limit is
// positive, at most limit bytes of them (stopped: the build went over a
// limit). Its processes have all ended.
func checkTree(dir string, limit int64) (why string, stopped bool, err error) {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return "", false, err
	}
	defer root.Close()
	u := walkTree(root)
	switch {
	case u.err != nil:
		return fmt.Sprintf("the build left what the judge cannot read: %v", relError(u.err, dir)), false, nil
	case u.entries > maxBuildEntries:
		return fmt.Sprintf("the build made more than %d files and directories", maxBuildEntries), true, nil
	case len(u.odd) > 0:
		return fmt.Sprintf("the build left %s: a build may leave only regular files and directories", strings.Join(u.odd, ", ")), false, nil
	case limit > 0 && u.bytes > limit:
		return fmt.Sprintf("the build wrote more than %d MiB in its directory", limit>>20), true, nil
	}
	return "", false, nil
}

// relError is err with dir's path taken out of it.
func relError(err error, dir string) string {
	return strings.ReplaceAll(err.Error(), dir+string(filepath.Separator), "")
}

// settleTree makes a checked build the judge's: every file and directory
// owned by the judge when it runs as root, directories 0755, files 0644
// or 0755 (executable when any execute bit was set), no setuid or setgid.
// The tree holds no link (checkTree), and nothing else changes it.
func settleTree(dir string) error {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return err
	}
	defer root.Close()
	uid, gid := judgeOwner()
	return fs.WalkDir(root.FS(), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		_, fuid, fgid, _ := fileFacts(info)
		if uid >= 0 && (fuid != uid || fgid != gid) {
			if err := root.Lchown(p, uid, gid); err != nil {
				return err
			}
		}
		mode := fs.FileMode(0o644)
		if info.IsDir() || info.Mode()&0o111 != 0 {
			mode = 0o755
		}
		if info.Mode()&(fs.ModePerm|fs.ModeSetuid|fs.ModeSetgid|fs.ModeSticky) != mode {
			return root.Chmod(p, mode)
		}
		return nil
	})
}

// readJudgeFile reads a file the judge wrote into the cache, name in dir:
// never through a link, and only a regular file of at most maxJudgeFile
// bytes.
func readJudgeFile(dir, name string) ([]byte, error) {
	f, err := openIn(dir, name, os.O_RDONLY|nonBlock, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is %s, not a regular file", f.Name(), fileKind(st.Mode()))
	}
	b, err := io.ReadAll(io.LimitReader(f, maxJudgeFile+1))
	if err != nil {
		return nil, err
	}
	if len(b) > maxJudgeFile {
		return nil, fmt.Errorf("%s is larger than %d bytes", f.Name(), maxJudgeFile)
	}
	return b, nil
}

// writeJudgeFile writes a new file name in dir, which must not exist yet:
// made with O_EXCL, so never through a link.
func writeJudgeFile(dir, name string, data []byte) error {
	f, err := openIn(dir, name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
