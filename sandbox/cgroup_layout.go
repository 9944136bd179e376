//go:build linux

package sandbox

import (
	"os"
	"time"

	"judge/sandbox/internal/wire"
)

// cgroupVersion is what differs between cgroup v1 and v2 for the
// sandboxes' cgroups: where a cgroup's files are, what they are called
// and what they say, and how a reused sandbox's init puts its programs
// in their cgroup. findCgroups chooses one, once per Host (cgroupV1,
// cgroupV2).
type cgroupVersion interface {
	// number is 1 or 2, for reports.
	number() int
	// where says, for reports, where the cgroups of controller ctrl
	// are made.
	where(ctrl string) string
	// dirs are the directories of a new cgroup named name, by v1
	// controller ("" on v2).
	dirs(name string) map[string]string
	// initOf is where a reused sandbox's init lives, made in its
	// cgroup top: top itself, or a cgroup inside it.
	initOf(top *cgroup) (*cgroup, error)
	limitMemory(c *cgroup, n int64) error
	setPids(c *cgroup, n int) error
	tasks(c *cgroup) (int64, bool)
	freeze(c *cgroup, on bool) error
	cpu(c *cgroup) (time.Duration, error)
	oom(c *cgroup) bool
	oomKills(c *cgroup) int64
	resetPeak(c *cgroup)
	peak(c *cgroup) int64
	procsDir(c *cgroup) string
	// killAll kills every process of c at once, where the version can
	// (ok); else the caller kills them one by one.
	killAll(c *cgroup) (ok bool)
	// programJoinsRun says whether a reused sandbox's program joins its
	// cgroup itself, between its fork and its exec, by a write to run's
	// cgroup.procs (v2, where a cgroup holds processes, not threads):
	// then the init shares the judge's cgroup namespace (runFiles) and
	// forks its programs itself (inside/fork.go). Otherwise (v1) the
	// thread that forks them joins run first.
	programJoinsRun() bool
	// runFiles opens what the init of slot s needs to put its programs
	// in their cgroup, appends them to extra (the files the init is
	// started with, from descriptor 5 on) and tells the init in cfg.
	runFiles(s *slot, cfg *wire.Config, extra []*os.File, id, gid int) ([]*os.File, error)
}
