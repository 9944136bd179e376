//go:build linux

package sandbox

import (
	"fmt"
	"os"
	"path/filepath"
	"time"

	"golang.org/x/sys/unix"

	"judge/sandbox/internal/wire"
)

// cgroupV2 is cgroup v2: one hierarchy, and a sandbox's cgroup one
// directory of it.
type cgroupV2 struct {
	base string // the directory that holds the sandboxes' cgroups
	pids bool   // the pids controller is there (pids.current)
}

func (v cgroupV2) number() int { return 2 }

func (v cgroupV2) where(string) string { return "cgroup v2 in " + v.base }

func (v cgroupV2) dirs(name string) map[string]string {
	return map[string]string{"": filepath.Join(v.base, name)}
}

// initOf: on v2 a cgroup whose children have limits may hold no
// process, so a reused sandbox's init lives in top/init, beside run.
func (v cgroupV2) initOf(top *cgroup) (*cgroup, error) {
	if err := os.WriteFile(filepath.Join(top.dirs[""], "cgroup.subtree_control"), []byte("+memory +pids"), 0); err != nil {
		return nil, err
	}
	init := top.sub("init")
	if err := init.mkdir(); err != nil {
		return nil, err
	}
	return init, nil
}

func (v cgroupV2) limitMemory(c *cgroup, n int64) error {
	d := c.dirs[""]
	if err := writeFile(filepath.Join(d, "memory.max"), n); err != nil {
		return err
	}
	_ = writeFile(filepath.Join(d, "memory.swap.max"), 0)
	return nil
}

func (v cgroupV2) setPids(c *cgroup, n int) error {
	return writeFile(filepath.Join(c.dirs[""], "pids.max"), int64(n))
}

func (v cgroupV2) tasks(c *cgroup) (int64, bool) {
	if !v.pids {
		return 0, false
	}
	n, err := c.readIntAt(filepath.Join(c.dirs[""], "pids.current"))
	return n, err == nil
}

func (v cgroupV2) freeze(c *cgroup, on bool) error {
	s := "0"
	if on {
		s = "1"
	}
	return os.WriteFile(filepath.Join(c.dirs[""], "cgroup.freeze"), []byte(s), 0)
}

func (v cgroupV2) cpu(c *cgroup) (time.Duration, error) {
	n, err := c.readKeyAt(filepath.Join(c.dirs[""], "cpu.stat"), "usage_usec")
	return time.Duration(n) * time.Microsecond, err
}

func (v cgroupV2) oom(c *cgroup) bool {
	n, _ := readKey(filepath.Join(c.dirs[""], "memory.events"), "oom_kill")
	return n > 0
}

func (v cgroupV2) oomKills(c *cgroup) int64 {
	n, _ := c.readKeyAt(filepath.Join(c.dirs[""], "memory.events"), "oom_kill")
	return n
}

// resetPeak: a write to memory.peak resets it for the descriptor that
// wrote (Linux 6.12), through which peak then reads it.
func (v cgroupV2) resetPeak(c *cgroup) {
	c.filesMu.Lock()
	defer c.filesMu.Unlock()
	c.started++
	c.peakReset = false
	if c.peakFixed {
		return
	}
	fd, err := c.kept(peakResetKey, filepath.Join(c.dirs[""], "memory.peak"), unix.O_RDWR)
	if err == nil {
		_, err = unix.Pwrite(fd, []byte("reset\n"), 0)
	}
	c.peakReset = err == nil
	c.peakFixed = err != nil
}

func (v cgroupV2) peak(c *cgroup) int64 {
	var buf [64]byte
	path := filepath.Join(c.dirs[""], "memory.peak")
	c.filesMu.Lock()
	defer c.filesMu.Unlock()
	var b []byte
	var err error
	switch {
	case c.peakReset:
		b, err = c.readKept(peakResetKey, path, unix.O_RDWR, buf[:])
	case c.started > 1:
		return 0 // the peak of earlier programs, maybe
	default:
		b, err = c.readKept(path, path, unix.O_RDONLY, buf[:])
	}
	if err != nil {
		return 0
	}
	n, _ := parseInt(b)
	return n
}

func (v cgroupV2) procsDir(c *cgroup) string { return c.dirs[""] }

func (v cgroupV2) killAll(c *cgroup) bool {
	return os.WriteFile(filepath.Join(c.dirs[""], "cgroup.kill"), []byte("1"), 0) == nil
}

func (v cgroupV2) programJoinsRun() bool { return true }

// runFiles: each program joins run between its fork and its exec, by a
// write to run's cgroup.procs, which the init opens from run's directory
// (inside/fork.go): run's and the slot's cgroup.procs must be writable
// by the init's user (the kernel checks the opener's rights, or before
// Linux 5.16 the writer's, the same user), and run visible from its
// cgroup namespace, which it therefore shares with the judge (a cgroup
// namespace would be rooted in init).
func (v cgroupV2) runFiles(s *slot, cfg *wire.Config, extra []*os.File, id, gid int) ([]*os.File, error) {
	d := s.run.dirs[""]
	for _, f := range []string{filepath.Join(d, "cgroup.procs"), filepath.Join(s.cg.dirs[""], "cgroup.procs")} {
		if err := os.Chown(f, id, gid); err != nil && os.Geteuid() == 0 {
			return extra, fmt.Errorf("sandbox: cgroup: %w", err)
		}
	}
	f, err := os.OpenFile(d, os.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return extra, fmt.Errorf("sandbox: cgroup: %w", err)
	}
	extra = append(extra, f)
	cfg.RunCgroup = 4 + len(extra)
	return extra, nil
}
