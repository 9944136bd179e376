//go:build linux

package sandbox

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/sys/unix"
)

// initThreads is what a sandbox's init, a Go program, needs of a pids
// limit for threads of its own, where it shares the program's.
const initThreads = 32

// cgroupSys is what the machine's cgroups offer this process: where the
// cgroups of sandboxes are made, and which controllers they have.
type cgroupSys struct {
	ver cgroupVersion // v1 or v2, nil for none

	memory, pids, freezer, cpu bool
	notes                      []string // why something is missing, for doctor

	// On a cgroup v2 machine (v2's memory controller, none of v1's):
	pureV2   bool
	scope    string // the scope systemd made for the judge, or ""
	scopeErr error  // why the judge asked systemd for a scope and got none

	// The sandboxes' cgroups are named after the judge's pid, the Host
	// (tag: several in one process make cgroups side by side) and a
	// count of those it made.
	tag uint32
	seq atomic.Int64
}

// v2Controllers are the controllers the sandboxes' cgroups need on v2.
var v2Controllers = []string{"memory", "pids"}

// leafName is the leaf of its delegated cgroup that the judge moves
// into, beside its sandboxes' cgroups.
const leafName = "supervisor"

// cgroups finds, once per Host, the cgroups this process may use. When
// ctx ends while it asks systemd for a scope, it returns ctx's error and
// finds them again the next time.
func (h *Host) cgroups(ctx context.Context) (*cgroupSys, error) {
	h.cgMu.Lock()
	defer h.cgMu.Unlock()
	if h.cg != nil {
		return h.cg, nil
	}
	s := findCgroups(ctx, h.bus)
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("sandbox: finding the cgroups: %w", err)
	}
	h.cg = s
	return s, nil
}

// mountInfo is one cgroup file system mount.
type mountInfo struct {
	root, point, fstype string
	opts                []string
}

func cgroupMounts() []mountInfo {
	f, err := os.Open("/proc/self/mountinfo")
	if err != nil {
		return nil
	}
	defer f.Close()
	var out []mountInfo
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		sep := -1
		for i, s := range fields {
			if s == "-" {
				sep = i
				break
			}
		}
		if sep < 0 || sep+3 >= len(fields)+1 || len(fields) < sep+3 {
			continue
		}
		fstype := fields[sep+1]
		if fstype != "cgroup" && fstype != "cgroup2" {
			continue
		}
		opts := []string{}
		if sep+3 < len(fields) {
			opts = strings.Split(fields[sep+3], ",")
		}
		out = append(out, mountInfo{root: unescape(fields[3]), point: unescape(fields[4]), fstype: fstype, opts: opts})
	}
	return out
}

// unescape undoes the octal escapes of /proc/self/mountinfo.
func unescape(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+3 < len(s) {
			if n, err := strconv.ParseUint(s[i+1:i+4], 8, 8); err == nil {
				b.WriteByte(byte(n))
				i += 3
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// ownCgroups maps each v1 controller, and "" for v2, to this process's
// cgroup path.
func ownCgroups() map[string]string {
	b, err := os.ReadFile("/proc/self/cgroup")
	if err != nil {
		return nil
	}
	out := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		parts := strings.SplitN(line, ":", 3)
		if len(parts) != 3 {
			continue
		}
		if parts[1] == "" {
			out[""] = parts[2]
			continue
		}
		for _, c := range strings.Split(parts[1], ",") {
			out[c] = parts[2]
		}
	}
	return out
}

// dirOf is the directory of cgroup path in mount m.
func dirOf(m mountInfo, path string) string {
	rel := path
	if m.root != "/" {
		rel = strings.TrimPrefix(path, m.root)
	}
	return filepath.Join(m.point, rel)
}

// findCgroups finds the cgroups this process may use, asking whom bus
// names for a scope where it needs one.
func findCgroups(ctx context.Context, bus func() (string, []busAddr)) *cgroupSys {
	s := &cgroupSys{tag: rand.Uint32()}
	mounts := cgroupMounts()
	own := ownCgroups()
	if len(mounts) == 0 || own == nil {
		s.notes = append(s.notes, "no cgroup file system is mounted")
		return s
	}
	for _, m := range mounts {
		if m.fstype != "cgroup2" {
			continue
		}
		p, ok := own[""]
		if !ok {
			continue
		}
		s.pureV2 = !v1Has(mounts, "memory") && offers(m.point, v2Controllers)
		dir, scope, notes, err := useV2(ctx, bus, m, p, os.Getpid(), v2Controllers, s.pureV2)
		s.notes = append(s.notes, notes...)
		if err != nil {
			s.scopeErr = err
			break
		}
		s.ver, s.scope = cgroupV2{base: dir, pids: true}, scope
		s.memory, s.pids, s.cpu = true, true, true
		s.freezer = true // cgroup.freeze, in every non-root v2 cgroup (level Basic's)
		cleanStale(dir)
		return s
	}
	// A hybrid or v1 host: the v1 controllers, each where this process is.
	v1 := map[string]string{}
	for _, ctrl := range []string{"memory", "pids", "freezer", "cpuacct"} {
		var found bool
		for _, m := range mounts {
			if m.fstype != "cgroup" || !contains(m.opts, ctrl) {
				continue
			}
			found = true
			p, ok := own[ctrl]
			if !ok {
				continue
			}
			dir := dirOf(m, p)
			if err := unix.Access(dir, unix.W_OK); err != nil {
				s.notes = append(s.notes, fmt.Sprintf("cgroup v1 %s: %s is not writable (%v)", ctrl, dir, err))
				continue
			}
			v1[ctrl] = dir
			cleanStale(dir)
			break
		}
		if !found {
			s.notes = append(s.notes, fmt.Sprintf("cgroup v1 %s: not mounted", ctrl))
		}
	}
	_, s.memory = v1["memory"]
	_, s.pids = v1["pids"]
	_, s.freezer = v1["freezer"]
	_, s.cpu = v1["cpuacct"]
	if len(v1) > 0 {
		s.ver = cgroupV1{base: v1}
	}
	return s
}

// useV2 finds where process pid, the judge, in cgroup own of the v2
// mount m, makes its sandboxes' cgroups, with controllers ctrls: its own
// cgroup (setupV2), or where that cannot be and ask says so, a scope of
// its own from systemd, reached as bus says (ownScope). It returns the
// directory, the scope made or "", and notes for doctor; err when
// neither works (or ctx ended), after which nothing the attempts made is
// left.
func useV2(ctx context.Context, bus func() (string, []busAddr), m mountInfo, own string, pid int, ctrls []string, ask bool) (dir, scope string, notes []string, err error) {
	// A Host made after another in the same process (the arena's beside
	// main's; the tests') finds the process in the leaf the first moved
	// it to, and the cgroup above it set up: that one is the base. The
	// leaf may hold other processes of the judge by then (its children
	// are born there), which would keep it from having controllers.
	if path.Base(own) == leafName && own != "/"+leafName {
		if up := dirOf(m, path.Dir(own)); enabled(up, ctrls) {
			if path.Base(path.Dir(own)) == scopeName(pid) {
				scope = scopeName(pid)
			}
			return up, scope, nil, nil
		}
	}
	dir, err = setupV2(dirOf(m, own), pid, ctrls, own == "/")
	if err == nil {
		return dir, "", nil, nil
	}
	notes = append(notes, "cgroup v2: "+err.Error())
	if !ask {
		return "", "", notes, err
	}
	who, addrs := bus()
	dir, scope, serr := ownScope(ctx, addrs, m, own, pid, ctrls)
	if serr != nil {
		err = fmt.Errorf("no scope of its own from %s: %w", who, serr)
		return "", "", append(notes, err.Error()), err
	}
	return dir, scope, nil, nil
}

// v1Has says whether a v1 hierarchy has controller ctrl (a hybrid host).
func v1Has(mounts []mountInfo, ctrl string) bool {
	for _, m := range mounts {
		if m.fstype == "cgroup" && contains(m.opts, ctrl) {
			return true
		}
	}
	return false
}

// offers says whether the cgroup directory dir has every controller of
// ctrls available.
func offers(dir string, ctrls []string) bool {
	b, err := os.ReadFile(filepath.Join(dir, "cgroup.controllers"))
	if err != nil {
		return false
	}
	have := strings.Fields(string(b))
	for _, c := range ctrls {
		if !contains(have, c) {
			return false
		}
	}
	return true
}

// setupV2 prepares a delegated v2 cgroup dir, where process pid is, for
// sandboxes: pid moves into a leaf of it ("no internal processes"), and
// the controllers ctrls are enabled for the sandboxes beside it
// (enterLeaf). The root cgroup (isRoot), which may hold processes, only
// has the controllers enabled.
func setupV2(dir string, pid int, ctrls []string, isRoot bool) (string, error) {
	if !offers(dir, ctrls) {
		return "", fmt.Errorf("%s does not offer the controllers %s (not delegated, or a hybrid host)", dir, strings.Join(ctrls, " and "))
	}
	if err := unix.Access(filepath.Join(dir, "cgroup.subtree_control"), unix.W_OK); err != nil {
		return "", fmt.Errorf("%s is not delegated to this user: %v", dir, err)
	}
	if isRoot {
		sub, _ := os.ReadFile(filepath.Join(dir, "cgroup.subtree_control"))
		for _, c := range ctrls {
			if !contains(strings.Fields(string(sub)), c) {
				if err := enable(dir, ctrls); err != nil {
					return "", err
				}
				break
			}
		}
		return dir, nil
	}
	if err := enterLeaf(dir, pid, ctrls); err != nil {
		return "", err
	}
	return dir, nil
}

// enabled says whether cgroup dir has controllers ctrls enabled for its
// children.
func enabled(dir string, ctrls []string) bool {
	b, err := os.ReadFile(filepath.Join(dir, "cgroup.subtree_control"))
	if err != nil {
		return false
	}
	for _, c := range ctrls {
		if !contains(strings.Fields(string(b)), c) {
			return false
		}
	}
	return true
}

// enable enables controllers ctrls for the children of cgroup dir.
func enable(dir string, ctrls []string) error {
	if len(ctrls) == 0 {
		return nil
	}
	v := "+" + strings.Join(ctrls, " +")
	if err := os.WriteFile(filepath.Join(dir, "cgroup.subtree_control"), []byte(v), 0); err != nil {
		return fmt.Errorf("enabling %s in %s: %w (other processes share the judge's cgroup)", strings.Join(ctrls, " and "), dir, err)
	}
	return nil
}

// enterLeaf moves process pid from cgroup dir into its leaf (leafName)
// and enables controllers ctrls in dir. When that fails, pid goes back to
// dir and the leaf, if it made it, is removed: nothing is left.
func enterLeaf(dir string, pid int, ctrls []string) error {
	leaf := filepath.Join(dir, leafName)
	made := true
	if err := os.Mkdir(leaf, 0o755); errors.Is(err, os.ErrExist) {
		made = false
	} else if err != nil {
		return err
	}
	undo := func() {
		_ = writeFile(filepath.Join(dir, "cgroup.procs"), int64(pid))
		if made {
			_ = unix.Rmdir(leaf)
		}
	}
	if err := writeFile(filepath.Join(leaf, "cgroup.procs"), int64(pid)); err != nil {
		undo()
		return fmt.Errorf("moving the judge into %s: %w", leaf, err)
	}
	if err := enable(dir, ctrls); err != nil {
		undo()
		return err
	}
	return nil
}

// cleanStale removes the empty cgroups of sandboxes whose judge died.
func cleanStale(dir string) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range ents {
		name := e.Name()
		if !e.IsDir() || !strings.HasPrefix(name, "judge-sb-") {
			continue
		}
		f := strings.Split(name, "-")
		if len(f) < 4 {
			continue
		}
		pid, err := strconv.Atoi(f[2])
		if err != nil || pid == os.Getpid() || unix.Kill(pid, 0) == nil {
			continue
		}
		// A reusable sandbox's cgroup holds its own (createSlot).
		for _, sub := range []string{"run", "init"} {
			_ = unix.Rmdir(filepath.Join(dir, name, sub))
		}
		_ = unix.Rmdir(filepath.Join(dir, name))
	}
}

// version is the cgroups' version, 1 or 2, or 0 for none: for reports.
func (s *cgroupSys) version() int {
	if s.ver == nil {
		return 0
	}
	return s.ver.number()
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// cgroup is the cgroup of one sandbox (one directory per v1 controller).
type cgroup struct {
	sys  *cgroupSys
	dirs map[string]string // v1 controller, or "" for v2 → directory

	filesMu sync.Mutex
	files   map[string]int // path → descriptor, of files read or written again and again (readAt, writeAt)
	// v2, under filesMu: the programs started in the cgroup (resetPeak),
	// whether memory.peak was reset for the last one, and whether it
	// cannot be (before Linux 6.12).
	started              int
	peakReset, peakFixed bool
}

// readAt reads a small file of the cgroup from its start through a
// descriptor kept open: a reused sandbox's cgroup is read at the end of
// every program, and opening costs more than reading.
func (c *cgroup) readAt(path string, buf []byte) ([]byte, error) {
	c.filesMu.Lock()
	defer c.filesMu.Unlock()
	return c.readKept(path, path, unix.O_RDONLY, buf)
}

// readKept reads a small file of the cgroup from its start through the
// descriptor kept under key (kept); the caller holds filesMu.
func (c *cgroup) readKept(key, path string, mode int, buf []byte) ([]byte, error) {
	fd, err := c.kept(key, path, mode)
	if err != nil {
		return nil, err
	}
	n, err := unix.Pread(fd, buf, 0)
	if err != nil {
		return nil, err
	}
	return buf[:n], nil
}

// writeAt writes v to a file of the cgroup through a descriptor kept
// open, as readAt reads.
func (c *cgroup) writeAt(path string, v int64) error {
	c.filesMu.Lock()
	defer c.filesMu.Unlock()
	fd, err := c.kept(path+" (written)", path, unix.O_WRONLY)
	if err != nil {
		return err
	}
	var buf [20]byte
	_, err = unix.Pwrite(fd, strconv.AppendInt(buf[:0], v, 10), 0)
	return err
}

// kept is the descriptor kept under key for path opened with mode,
// opened now if it is not yet; the caller holds filesMu.
func (c *cgroup) kept(key, path string, mode int) (int, error) {
	if fd, ok := c.files[key]; ok {
		return fd, nil
	}
	fd, err := unix.Open(path, mode|unix.O_CLOEXEC, 0)
	if err != nil {
		return -1, err
	}
	if c.files == nil {
		c.files = map[string]int{}
	}
	c.files[key] = fd
	return fd, nil
}

// readIntAt is readInt through readAt. It allocates nothing (the CPU
// time is read twice a turn for every bot).
func (c *cgroup) readIntAt(path string) (int64, error) {
	var buf [64]byte
	b, err := c.readAt(path, buf[:])
	if err != nil {
		return 0, err
	}
	return parseInt(b)
}

// readKeyAt is readKey through readAt. It allocates nothing but an
// error.
func (c *cgroup) readKeyAt(path, key string) (int64, error) {
	var buf [1024]byte
	b, err := c.readAt(path, buf[:])
	if err != nil {
		return 0, err
	}
	return parseKey(b, path, key)
}

// create makes the cgroup of a new sandbox with limit l.
func (s *cgroupSys) create(l Limits) (*cgroup, error) {
	c := s.named()
	if err := c.mkdir(); err != nil {
		c.remove()
		return nil, fmt.Errorf("sandbox: cgroup: %w", err)
	}
	if err := c.limitMemory(l.Memory); err != nil {
		c.remove()
		return nil, fmt.Errorf("sandbox: cgroup memory limit: %w", err)
	}
	return c, nil
}

// named is a new sandbox's cgroup, named but not made: a directory per
// v1 controller, or one on v2.
func (s *cgroupSys) named() *cgroup {
	name := fmt.Sprintf("judge-sb-%d-%08x-%d", os.Getpid(), s.tag, s.seq.Add(1))
	return &cgroup{sys: s, dirs: s.ver.dirs(name)}
}

// createSlot makes the cgroups of a reusable sandbox (pool.go): top, the
// slot's own, and run inside it, which holds the programs and carries
// the memory limit and the limit of tasks of l. The slot's init lives
// in init: top itself on v1, top/init on v2, where a cgroup whose
// children have limits may hold no process. A program that fills its
// limits so leaves the init alone, and the counters of run (CPU, memory,
// OOM kills) are the programs' only.
func (s *cgroupSys) createSlot(l Limits) (top, init, run *cgroup, err error) {
	top = s.named()
	fail := func(err error) (*cgroup, *cgroup, *cgroup, error) {
		if run != nil {
			run.remove()
		}
		if init != nil && init != top {
			init.remove()
		}
		top.remove()
		return nil, nil, nil, fmt.Errorf("sandbox: cgroup: %w", err)
	}
	if err := top.mkdir(); err != nil {
		return fail(err)
	}
	if init, err = s.ver.initOf(top); err != nil {
		return fail(err)
	}
	run = top.sub("run")
	if err := run.mkdir(); err != nil {
		return fail(err)
	}
	if err := run.limitMemory(l.Memory); err != nil {
		return fail(fmt.Errorf("memory limit: %w", err))
	}
	if l.Procs > 0 {
		if err := run.setPids(l.Procs); err != nil {
			return fail(fmt.Errorf("pids limit: %w", err))
		}
	}
	return top, init, run, nil
}

// sub is the cgroup name inside c (not made).
func (c *cgroup) sub(name string) *cgroup {
	out := &cgroup{sys: c.sys, dirs: map[string]string{}}
	for ctrl, d := range c.dirs {
		out.dirs[ctrl] = filepath.Join(d, name)
	}
	return out
}

// mkdir makes c's directories.
func (c *cgroup) mkdir() error {
	for _, d := range c.dirs {
		if err := os.Mkdir(d, 0o755); err != nil {
			return err
		}
	}
	return nil
}

// limitMemory sets c's memory limit, without swap; n <= 0 leaves it.
func (c *cgroup) limitMemory(n int64) error {
	if n <= 0 {
		return nil
	}
	return c.sys.ver.limitMemory(c, n)
}

// setPids limits the cgroup to n tasks.
func (c *cgroup) setPids(n int) error { return c.sys.ver.setPids(c, n) }

// tasks is the number of tasks in the cgroup (pids.current), where the
// pids controller tells it.
func (c *cgroup) tasks() (int64, bool) { return c.sys.ver.tasks(c) }

// attach moves process pid (all its threads) into the cgroup.
func (c *cgroup) attach(pid int) error {
	for _, d := range c.dirs {
		if err := writeFile(filepath.Join(d, "cgroup.procs"), int64(pid)); err != nil {
			return fmt.Errorf("sandbox: cgroup attach: %w", err)
		}
	}
	return nil
}

// freeze freezes (on) or thaws the cgroup's processes with the cgroup
// freezer. A freezer cuts a write(2) blocked on a full pipe short, as a
// stop signal does: the sandboxes in namespaces are stopped by their
// init instead (inside/stop.go), and it freezes only level Basic's
// programs on v2 (isolated.freeze). Thawing is part of every kill: on
// v1, frozen processes die only once thawed.
func (c *cgroup) freeze(on bool) error { return c.sys.ver.freeze(c, on) }

// cpu is the CPU time used by the cgroup's processes (cpu.stat's
// usage_usec on v2, cpuacct.usage on v1), read through a file kept open
// (readAt): it is read twice a turn of every bot.
func (c *cgroup) cpu() (time.Duration, error) { return c.sys.ver.cpu(c) }

// closeFiles closes the files the cgroup keeps open.
func (c *cgroup) closeFiles() {
	c.filesMu.Lock()
	for path, fd := range c.files {
		unix.Close(fd)
		delete(c.files, path)
	}
	c.filesMu.Unlock()
}

// oom reports whether the OOM killer acted in the cgroup.
func (c *cgroup) oom() bool { return c.sys.ver.oom(c) }

// oomKills counts the OOM killer's kills in the cgroup.
func (c *cgroup) oomKills() int64 { return c.sys.ver.oomKills(c) }

// resetPeak starts the peak of memory used afresh, for the program about
// to start: on v1 through memory.max_usage_in_bytes; on v2 by a write to
// memory.peak, which resets it for the descriptor that wrote (Linux 6.12),
// through which peak then reads it. Where v2 cannot reset it, the peak
// is the cgroup's since it was made, which is a program's own only for
// the first program in it.
func (c *cgroup) resetPeak() { c.sys.ver.resetPeak(c) }

// peakResetKey keeps the descriptor through which v2's memory.peak is
// reset and read (resetPeak).
const peakResetKey = "memory.peak (reset)"

// peak is the most memory the cgroup used since resetPeak (or since it
// was made, where resetPeak was never called), or 0 when unknown.
func (c *cgroup) peak() int64 { return c.sys.ver.peak(c) }

// procsDir is a directory whose cgroup.procs lists every process.
func (c *cgroup) procsDir() string { return c.sys.ver.procsDir(c) }

// pids lists the processes in the cgroup.
func (c *cgroup) pidList() []int {
	b, err := os.ReadFile(filepath.Join(c.procsDir(), "cgroup.procs"))
	if err != nil {
		return nil
	}
	var out []int
	for _, f := range strings.Fields(string(b)) {
		if n, err := strconv.Atoi(f); err == nil {
			out = append(out, n)
		}
	}
	return out
}

// killAll kills every process in the cgroup.
func (c *cgroup) killAll() {
	if c.sys.ver.killAll(c) {
		return
	}
	for i := 0; i < 10; i++ {
		pids := c.pidList()
		if len(pids) == 0 {
			return
		}
		for _, pid := range pids {
			_ = unix.Kill(pid, unix.SIGKILL)
		}
	}
}

// remove deletes the cgroup once its processes are gone.
func (c *cgroup) remove() {
	c.closeFiles()
	for _, d := range c.dirs {
		for i := 0; ; i++ {
			err := unix.Rmdir(d)
			if err == nil || errors.Is(err, unix.ENOENT) || i >= 200 {
				break
			}
			if i == 20 {
				c.killAll()
				_ = c.freeze(false)
			}
			time.Sleep(5 * time.Millisecond)
		}
	}
}

func writeFile(path string, v int64) error {
	return os.WriteFile(path, []byte(strconv.FormatInt(v, 10)), 0)
}

func readInt(path string) (int64, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, err
	}
	return parseInt(b)
}

// parseInt parses a cgroup file's integer, or "max" (-1), without
// allocating.
func parseInt(b []byte) (int64, error) {
	b = bytes.TrimSpace(b)
	if string(b) == "max" {
		return -1, nil
	}
	neg := len(b) > 0 && b[0] == '-'
	digits := b
	if neg {
		digits = b[1:]
	}
	if len(digits) == 0 || len(digits) > 18 {
		return strconv.ParseInt(string(b), 10, 64) // the error, or a number too long to add up here
	}
	var v int64
	for _, d := range digits {
		if d < '0' || d > '9' {
			return strconv.ParseInt(string(b), 10, 64)
		}
		v = 10*v + int64(d-'0')
	}
	if neg {
		v = -v
	}
	return v, nil
}

// readKey reads "key value" from a flat-keyed cgroup file.
func readKey(path, key string) (int64, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, err
	}
	return parseKey(b, path, key)
}

// parseKey finds "key value" in the flat-keyed contents b of path.
func parseKey(b []byte, path, key string) (int64, error) {
	for len(b) > 0 {
		var line []byte
		line, b, _ = bytes.Cut(b, []byte{'\n'})
		if k, v, ok := twoFields(line); ok && string(k) == key {
			return parseInt(v)
		}
	}
	return 0, fmt.Errorf("%s: no %s", path, key)
}

// twoFields splits a line of exactly two fields apart, separated by ASCII
// white space (what the kernel writes), without allocating.
func twoFields(line []byte) (k, v []byte, ok bool) {
	space := func(c byte) bool { return c == ' ' || c == '\t' || c == '\v' || c == '\f' || c == '\r' }
	var f [2][]byte
	n := 0
	for i := 0; i < len(line); {
		for i < len(line) && space(line[i]) {
			i++
		}
		start := i
		for i < len(line) && !space(line[i]) {
			i++
		}
		if i > start {
			if n == 2 {
				return nil, nil, false
			}
			f[n] = line[start:i]
			n++
		}
	}
	return f[0], f[1], n == 2
}
