//go:build linux

package sandbox

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestCgroupLayouts drives each cgroup version's files in a directory
// of the test's, laid out as the kernel lays out a sandbox's cgroup: what
// each writes for a limit, a freeze and a thaw, and what it reads of the
// CPU time, the OOM kills, the tasks and the peak.
func TestCgroupLayouts(t *testing.T) {
	t.Parallel()
	type file struct{ path, text string }
	for _, c := range []struct {
		name  string
		ver   func(base string) cgroupVersion
		ctrls []string // the hierarchies, "" for v2's one
		files []file   // what the kernel shows, relative to the cgroup
		wrote []file   // what the limits, a freeze and a thaw leave
		cpu   time.Duration
		peak  int64
	}{
		{
			name: "v1",
			ver: func(base string) cgroupVersion {
				return cgroupV1{base: map[string]string{"memory": base + "/memory", "pids": base + "/pids", "freezer": base + "/freezer", "cpuacct": base + "/cpuacct"}}
			},
			ctrls: []string{"memory", "pids", "freezer", "cpuacct"},
			files: []file{
				{"cpuacct/cpuacct.usage", "1500000\n"},
				{"memory/memory.oom_control", "oom_kill_disable 0\nunder_oom 0\noom_kill 2\n"},
				{"memory/memory.max_usage_in_bytes", "4096\n"},
				{"pids/pids.current", "3\n"},
			},
			wrote: []file{
				{"memory/memory.limit_in_bytes", "1048576"},
				{"memory/memory.memsw.limit_in_bytes", "1048576"},
				{"pids/pids.max", "7"},
				{"freezer/freezer.state", "THAWED"},
			},
			cpu: 1500 * time.Microsecond, peak: 4096,
		},
		{
			name:  "v2",
			ver:   func(base string) cgroupVersion { return cgroupV2{base: base + "/unified", pids: true} },
			ctrls: []string{""},
			files: []file{
				{"cpu.stat", "usage_usec 1500\nuser_usec 1000\nsystem_usec 500\n"},
				{"memory.events", "low 0\nhigh 0\nmax 4\noom 2\noom_kill 2\n"},
				{"memory.peak", "4096\n"},
				{"pids.current", "3\n"},
			},
			wrote: []file{
				{"memory.max", "1048576"},
				{"memory.swap.max", "0"},
				{"pids.max", "7"},
				{"cgroup.freeze", "0"},
			},
			cpu: 1500 * time.Microsecond, peak: 4096,
		},
	} {
		t.Run(c.name, func(t *testing.T) {
			base := t.TempDir()
			sys := &cgroupSys{ver: c.ver(base)}
			cg := sys.named()
			if len(cg.dirs) != len(c.ctrls) {
				t.Fatalf("dirs %v, want one for each of %q", cg.dirs, c.ctrls)
			}
			for _, ctrl := range c.ctrls {
				if d := cg.dirs[ctrl]; !strings.HasPrefix(filepath.Base(d), "judge-sb-") {
					t.Errorf("the cgroup's %q directory %s is not a judge-sb- one", ctrl, d)
				}
				if err := os.MkdirAll(cg.dirs[ctrl], 0o755); err != nil {
					t.Fatal(err)
				}
			}
			root := func(rel string) string {
				ctrl, rest, ok := strings.Cut(rel, "/")
				if !ok {
					return filepath.Join(cg.dirs[""], rel)
				}
				return filepath.Join(cg.dirs[ctrl], rest)
			}
			for _, f := range c.files {
				if err := os.WriteFile(root(f.path), []byte(f.text), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			// The files the kernel shows, which the judge writes: their
			// mode is the kernel's, not the judge's (which writes a file
			// it does not find with no permissions: a normal user could
			// not read it back).
			for _, f := range c.wrote {
				if err := os.WriteFile(root(f.path), nil, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if err := cg.limitMemory(1 << 20); err != nil {
				t.Fatal(err)
			}
			if err := cg.setPids(7); err != nil {
				t.Fatal(err)
			}
			if err := cg.freeze(true); err != nil {
				t.Fatal(err)
			}
			if err := cg.freeze(false); err != nil {
				t.Fatal(err)
			}
			for _, f := range c.wrote {
				if b, err := os.ReadFile(root(f.path)); err != nil || string(b) != f.text {
					t.Errorf("%s: %q, %v; want %q", f.path, b, err, f.text)
				}
			}
			if d, err := cg.cpu(); err != nil || d != c.cpu {
				t.Errorf("cpu() = %v, %v; want %v", d, err, c.cpu)
			}
			if n := cg.oomKills(); n != 2 || !cg.oom() {
				t.Errorf("oomKills() = %d, oom() = %v; want 2, true", n, cg.oom())
			}
			if n, ok := cg.tasks(); n != 3 || !ok {
				t.Errorf("tasks() = %d, %v; want 3", n, ok)
			}
			if n := cg.peak(); n != c.peak {
				t.Errorf("peak() = %d, want %d", n, c.peak)
			}
			if d := cg.procsDir(); d == "" {
				t.Error("no directory lists the cgroup's processes")
			}
			cg.closeFiles()
		})
	}
}

// TestCgroupV2SlotInit: on v2 a reused sandbox's init lives in a cgroup
// of its own inside the slot's, which enables the controllers of its
// children; on v1 it lives in the slot's.
func TestCgroupV2SlotInit(t *testing.T) {
	t.Parallel()
	top := &cgroup{dirs: map[string]string{"": t.TempDir()}}
	// As the kernel shows it (see TestCgroupLayouts).
	if err := os.WriteFile(filepath.Join(top.dirs[""], "cgroup.subtree_control"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	init, err := cgroupV2{}.initOf(top)
	if err != nil {
		t.Fatal(err)
	}
	if init.dirs[""] != filepath.Join(top.dirs[""], "init") {
		t.Errorf("the init's cgroup is %s", init.dirs[""])
	}
	if b, err := os.ReadFile(filepath.Join(top.dirs[""], "cgroup.subtree_control")); err != nil || string(b) != "+memory +pids" {
		t.Errorf("cgroup.subtree_control: %q, %v", b, err)
	}
	if st, err := os.Stat(init.dirs[""]); err != nil || !st.IsDir() {
		t.Errorf("the init's cgroup was not made: %v", err)
	}
	if init, _ := (cgroupV1{}).initOf(top); init != top {
		t.Error("on v1 the init has a cgroup of its own")
	}
}
