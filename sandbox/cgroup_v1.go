//go:build linux

package sandbox

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"golang.org/x/sys/unix"

	"judge/sandbox/internal/wire"
)

// cgroupV1 is cgroup v1: a hierarchy per controller, and a sandbox's
// cgroup a directory in each.
type cgroupV1 struct {
	// controller (memory, pids, freezer, cpuacct) → the directory that
	// holds the sandboxes' cgroups
	base map[string]string
}

func (v cgroupV1) number() int { return 1 }

func (v cgroupV1) where(ctrl string) string { return "cgroup v1 in " + v.base[ctrl] }

func (v cgroupV1) dirs(name string) map[string]string {
	d := map[string]string{}
	for ctrl, base := range v.base {
		d[ctrl] = filepath.Join(base, name)
	}
	return d
}

// initOf: on v1 a reused sandbox's init lives in its top cgroup, beside
// run.
func (v cgroupV1) initOf(top *cgroup) (*cgroup, error) { return top, nil }

func (v cgroupV1) limitMemory(c *cgroup, n int64) error {
	d, ok := c.dirs["memory"]
	if !ok {
		return nil
	}
	if err := writeFile(filepath.Join(d, "memory.limit_in_bytes"), n); err != nil {
		return err
	}
	_ = writeFile(filepath.Join(d, "memory.memsw.limit_in_bytes"), n)
	return nil
}

func (v cgroupV1) setPids(c *cgroup, n int) error {
	d, ok := c.dirs["pids"]
	if !ok {
		return nil
	}
	return writeFile(filepath.Join(d, "pids.max"), int64(n))
}

func (v cgroupV1) tasks(c *cgroup) (int64, bool) {
	d, ok := c.dirs["pids"]
	if !ok {
		return 0, false
	}
	n, err := c.readIntAt(filepath.Join(d, "pids.current"))
	return n, err == nil
}

func (v cgroupV1) freeze(c *cgroup, on bool) error {
	d, ok := c.dirs["freezer"]
	if !ok {
		return nil
	}
	s := "THAWED"
	if on {
		s = "FROZEN"
	}
	return os.WriteFile(filepath.Join(d, "freezer.state"), []byte(s), 0)
}

func (v cgroupV1) cpu(c *cgroup) (time.Duration, error) {
	d, ok := c.dirs["cpuacct"]
	if !ok {
		return 0, errors.New("no cpuacct controller")
	}
	n, err := c.readIntAt(filepath.Join(d, "cpuacct.usage"))
	return time.Duration(n), err
}

func (v cgroupV1) oom(c *cgroup) bool {
	d, ok := c.dirs["memory"]
	if !ok {
		return false
	}
	n, _ := readKey(filepath.Join(d, "memory.oom_control"), "oom_kill")
	return n > 0
}

func (v cgroupV1) oomKills(c *cgroup) int64 {
	d, ok := c.dirs["memory"]
	if !ok {
		return 0
	}
	n, _ := c.readKeyAt(filepath.Join(d, "memory.oom_control"), "oom_kill")
	return n
}

// resetPeak: v1's memory.max_usage_in_bytes is reset by a write.
func (v cgroupV1) resetPeak(c *cgroup) {
	if d, ok := c.dirs["memory"]; ok {
		_ = c.writeAt(filepath.Join(d, "memory.max_usage_in_bytes"), 0)
	}
}

func (v cgroupV1) peak(c *cgroup) int64 {
	if d, ok := c.dirs["memory"]; ok {
		n, _ := c.readIntAt(filepath.Join(d, "memory.max_usage_in_bytes"))
		return n
	}
	return 0
}

func (v cgroupV1) procsDir(c *cgroup) string {
	for _, ctrl := range []string{"pids", "freezer", "memory", "cpuacct"} {
		if d, ok := c.dirs[ctrl]; ok {
			return d
		}
	}
	return ""
}

// killAll: v1 has no cgroup.kill.
func (v cgroupV1) killAll(*cgroup) bool { return false }

func (v cgroupV1) programJoinsRun() bool { return false }

// runFiles: the child the init forks for a program moves itself into
// run as its first step, before it executes the program, by a write to
// a tasks file of run (one per controller). The files are opened here,
// with the judge's rights.
func (v cgroupV1) runFiles(s *slot, cfg *wire.Config, extra []*os.File, _, _ int) ([]*os.File, error) {
	for ctrl, d := range s.run.dirs {
		f, err := os.OpenFile(filepath.Join(d, "tasks"), os.O_WRONLY|unix.O_CLOEXEC, 0)
		if err != nil {
			return extra, fmt.Errorf("sandbox: cgroup %s: %w", ctrl, err)
		}
		extra = append(extra, f)
		cfg.RunTasks = append(cfg.RunTasks, 4+len(extra))
	}
	return extra, nil
}
