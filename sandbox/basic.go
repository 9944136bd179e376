//go:build linux

package sandbox

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"golang.org/x/sys/unix"

	"judge/sandbox/internal/kernel"
)

// basicProc are the paths of /proc that Landlock shows a program at level
// Basic, which has no PID namespace and no /proc of its own: its own
// process (/proc/self, resolved when the program is started; threads
// included) and the system-wide files runtimes read. Other processes'
// directories, the judge's included, are not shown.
var basicProc = []string{
	"/proc/self",
	"/proc/meminfo", "/proc/cpuinfo", "/proc/stat", "/proc/loadavg", "/proc/uptime",
	"/proc/version", "/proc/filesystems", "/proc/sys",
}

// Level Basic's temporary directories live in one well-known directory
// per user, each named after the judge that made it (pid and start
// time), so that those of a judge that died without removing them (kill
// -9) are found and removed by the next judge that starts a program at
// level Basic.
func basicTmpRoot() string {
	return filepath.Join(os.TempDir(), fmt.Sprintf("judge-basic-%d", os.Geteuid()))
}

// makeBasicTmp makes a private temporary directory for one program,
// after removing, the first time, those of judges that are gone.
func (h *Host) makeBasicTmp() (string, error) {
	root := basicTmpRoot()
	if err := os.MkdirAll(root, 0o711); err != nil {
		return "", err
	}
	h.sweepOnce.Do(func() { sweepBasicTmp(root) })
	return os.MkdirTemp(root, fmt.Sprintf("%d-%d-", os.Getpid(), startTime(os.Getpid())))
}

// sweepBasicTmp removes the directories of root whose judge (pid and
// start time in the name) no longer runs.
func sweepBasicTmp(root string) {
	ents, err := os.ReadDir(root)
	if err != nil {
		return
	}
	for _, e := range ents {
		f := strings.SplitN(e.Name(), "-", 3)
		if len(f) < 3 {
			continue
		}
		pid, err1 := strconv.Atoi(f[0])
		st, err2 := strconv.ParseUint(f[1], 10, 64)
		if err1 != nil || err2 != nil || pid <= 0 {
			continue
		}
		if startTime(pid) != st {
			os.RemoveAll(filepath.Join(root, e.Name()))
		}
	}
}

// startTime is the start time of process pid in clock ticks since boot
// (field 22 of /proc/PID/stat), or 0 when there is no such process or it
// has ended (a zombie: a judge killed with kill -9 whose parent has not
// reaped it yet).
func startTime(pid int) uint64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	i := strings.LastIndexByte(string(b), ')')
	if i < 0 {
		return 0
	}
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 20 || f[0] == "Z" || f[0] == "X" {
		return 0
	}
	n, _ := strconv.ParseUint(f[19], 10, 64)
	return n
}

// tmpPoll is how often the size of a Basic program's temporary directory
// is measured, and tmpMaxEntries the most entries it may hold.
const (
	tmpPoll       = 50 * time.Millisecond
	tmpMaxEntries = 10000
)

// watchTmp enforces limit on the disk space of dir, which has no file
// system of its own at level Basic: every tmpPoll it adds up the blocks
// of what dir holds, and once they pass limit (or dir holds more than
// tmpMaxEntries entries) the file size limit of every process of the
// sandbox is lowered to zero, so that any further growth of any file
// fails (SIGXFSZ, or EFBIG where it is ignored), as on a full disk; where
// the judge may not change the program's limits, the program is killed.
// TmpFull tells which programs it happened to. A program may write past
// the limit for up to one poll (each file bounded by Limits.FileSize)
// before that.
func (b *isolated) watchTmp(dir string, limit int64) {
	p := b.p
	if limit <= 0 {
		return
	}
	t := time.NewTicker(tmpPoll)
	defer t.Stop()
	full := false
	for {
		select {
		case <-p.done:
			return
		case <-t.C:
		}
		if !full {
			size, n := dirUsage(dir)
			full = size > limit || n > tmpMaxEntries
			if full {
				p.mu.Lock()
				p.tmpFull = true
				p.mu.Unlock()
			}
		}
		if full {
			// Again at every poll: for processes started since. Setting
			// another user's limits needs CAP_SYS_RESOURCE (a judge
			// running as root in a container may lack it): then the
			// sandbox is killed instead.
			zero := unix.Rlimit{}
			for _, pid := range descendants(b.init.Pid) {
				if err := unix.Prlimit(pid, unix.RLIMIT_FSIZE, &zero, nil); err != nil && err != unix.ESRCH {
					b.killBasicTree()
					return
				}
			}
		}
	}
}

// TmpFull reports whether the program filled its temporary directory
// (level Basic, where it is a directory of the host's /tmp with a size
// enforced by the judge).
func (p *Process) TmpFull() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.tmpFull
}

// dirUsage adds up the disk space (allocated blocks) of what dir holds
// and counts its entries, stopping past tmpMaxEntries.
func dirUsage(dir string) (size int64, n int) {
	_ = filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		n++
		if n > tmpMaxEntries {
			return filepath.SkipAll
		}
		var st unix.Stat_t
		if unix.Lstat(path, &st) == nil {
			size += st.Blocks * 512
		}
		return nil
	})
	return size, n
}

// descendants lists every process descended from pid (not pid itself).
func descendants(pid int) []int {
	var out []int
	seen := map[int]bool{pid: true}
	queue := []int{pid}
	for len(queue) > 0 {
		q := queue[0]
		queue = queue[1:]
		for _, c := range kernel.Children(q) {
			if !seen[c] {
				seen[c] = true
				out = append(out, c)
				queue = append(queue, c)
			}
		}
	}
	return out
}

// Notice is one line to print when programs run at level l, saying what
// the level lacks on the machine r describes, or "" when there is nothing
// to say (Auto, Full, Namespaces).
func (r *Report) Notice(l Level) string {
	switch l {
	case None:
		return "NO SANDBOX: the bots run as you, with your files, network and limits; use this only to debug bots you trust"
	case Basic:
	default:
		return ""
	}
	var lacks []string
	lacks = append(lacks, "no namespaces (the bots share the host's network, IPC and file system view)")
	if r.landlock == 0 {
		lacks = append(lacks, "no Landlock (they read every file the judge's user can, write where it can, and see every process in /proc)")
	} else if r.landlock < 4 {
		lacks = append(lacks, "no TCP restriction (Landlock ABI < 4)")
	}
	if !r.seccomp {
		lacks = append(lacks, "no seccomp filter")
	}
	if cg := r.cg; cg == nil || !cg.memory {
		lacks = append(lacks, "no memory cgroup (memory bounded by RLIMIT_DATA only)")
	}
	lacks = append(lacks, "tmp is a directory of the host's, its size checked every 50 ms rather than enforced by a file system")
	return "sandbox level basic: " + strings.Join(lacks, "; ")
}

// killBasicCgroup kills every process of a Basic sandbox's cgroup but
// its init, which reaps them and removes what is left: killed first, the
// init would leave the program a zombie for the host's init to reap.
func (b *isolated) killBasicCgroup() {
	for i := 0; i < 10; i++ {
		n := 0
		for _, pid := range b.cg.pidList() {
			if pid != b.init.Pid {
				_ = unix.Kill(pid, unix.SIGKILL)
				n++
			}
		}
		if n == 0 {
			return
		}
	}
}

// killBasicTree kills every process of a Basic sandbox but its init,
// which reaps the program, so that its exit says it was killed, then
// ends.
func (b *isolated) killBasicTree() {
	p := b.p
	p.mu.Lock()
	p.killed = true
	p.mu.Unlock()
	for i := 0; i < 10; i++ {
		pids := descendants(b.init.Pid)
		if len(pids) == 0 {
			return
		}
		for _, pid := range pids {
			_ = unix.Kill(pid, unix.SIGKILL)
		}
	}
}
