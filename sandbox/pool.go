//go:build linux

package sandbox

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"golang.org/x/sys/unix"

	"judge/sandbox/internal/kernel"
	"judge/sandbox/internal/wire"
)

// A pool keeps ready sandboxes (slots) at the levels with namespaces: the
// namespaces, the file system and the cgroup are built once per slot, by
// an init started once per slot (inside/slot.go), and every program runs
// in a slot that is free, so that starting one costs a fork and an exec
// in a sandbox that is already there. Slots are keyed by their shape, all
// of Spec but the command, its environment, working directory and
// standard files: the directories shown, the limits, the level. A program
// that ends leaves nothing in its slot (see inside/slot.go), which goes
// back to the pool; a slot whose init died, or whose cgroup still holds a
// process, is destroyed instead.

// Whether ready sandboxes work here, at each level, is found once per
// Host, by running /bin/true in one (reuseCheck). Where they do not (a
// machine whose cgroups refuse what the pool needs), each program gets a
// sandbox of its own, as at level basic, and ReuseProblem says why.
type reuseChecks struct {
	mu     sync.Mutex
	checks map[Level]error // the levels checked, and what was found
}

// reuseWorks reports whether ready sandboxes work at level l, checking
// once; a check that ctx ended is not kept.
func (h *Host) reuseWorks(ctx context.Context, l Level) bool {
	h.reuse.mu.Lock()
	defer h.reuse.mu.Unlock()
	if _, done := h.reuse.checks[l]; !done {
		err := h.reuseCheck(ctx, l)
		if ctx.Err() != nil {
			return false
		}
		h.reuse.checks[l] = err
	}
	return h.reuse.checks[l] == nil
}

// reuseCheck runs /bin/true in a ready sandbox at level l.
func (h *Host) reuseCheck(ctx context.Context, l Level) error {
	spec := Spec{Argv: []string{"/bin/true"}, Level: l, Limits: DefaultLimits, Env: []string{}}
	sh, run, err := h.prepare(ctx, spec)
	if err != nil || sh == nil {
		return err
	}
	p, err := h.startPooled(ctx, spec, sh, run)
	if err != nil {
		return err
	}
	select {
	case <-p.Done():
	case <-time.After(10 * time.Second):
		p.Kill()
		<-p.Done()
		return errors.New("sandbox: /bin/true did not end in a ready sandbox within 10 s")
	}
	if e := p.Exit(); e.Code != 0 || e.Signal != 0 {
		return fmt.Errorf("sandbox: /bin/true in a ready sandbox: %v", e)
	}
	return nil
}

// ReuseProblem says why programs do not run in ready sandboxes, reused
// from one program to the next, at the best level here (nil when they
// do, or when the level has no namespaces, where nothing is reused). It
// checks once, the first time it or a Start needs it.
func (h *Host) ReuseProblem() error {
	l := h.Probe().Level
	if l.rank() < Namespaces.rank() || h.opts.NoReuse {
		return nil
	}
	h.reuseWorks(context.Background(), l)
	h.reuse.mu.Lock()
	defer h.reuse.mu.Unlock()
	return h.reuse.checks[l]
}

// CheckReuse finds out, once, whether ready sandboxes work at level
// (Auto: the best here), as the first Start at that level would: run
// ahead, in the background, it takes that check (a sandbox built, and a
// program run in it) off the first program's start. It does nothing at
// levels without namespaces.
func (h *Host) CheckReuse(level Level) {
	pr := h.Probe()
	if level == Auto || level.rank() > pr.Level.rank() {
		level = pr.Level
	}
	if level.rank() < Namespaces.rank() || h.opts.NoReuse {
		return
	}
	h.reuseWorks(context.Background(), level)
}

// Pool sizes: idle slots kept per shape, and in all.
const (
	maxIdlePerShape = 8
	maxIdle         = 16
)

type slotPool struct {
	mu       sync.Mutex
	idle     map[string][]*slot
	nIdle    int
	seq      uint64 // counts the slots put back: an idle slot's age
	building map[string]int
	builds   sync.WaitGroup // the slots being built in the background
	closed   bool           // Close was called: no slot is kept
	closing  chan struct{}  // closed by Close: the builds in the background end
	fault    error          // Options.SlotFault
}

func newSlotPool(fault error) *slotPool {
	return &slotPool{idle: map[string][]*slot{}, building: map[string]int{}, closing: make(chan struct{}), fault: fault}
}

// shape is what a slot is built for.
type shape struct {
	cfg    wire.Config // the slot's config: mounts, rlimits, Landlock, seccomp
	limits Limits      // the cgroup limits
	cgs    *cgroupSys
	pool   *slotPool // where its slots go back
	level  Level
	desc   string
	key    string
}

// slot is a ready sandbox: its init, the control socket to it, its
// status pipe and its cgroup.
type slot struct {
	shape *shape
	cmd   *exec.Cmd
	ctl   *os.File // SOCK_SEQPACKET: a byte per command, or a run request with three files
	stR   *os.File
	rd    *bufio.Reader
	cg    *cgroup  // the slot's cgroup, nil without cgroups (see createSlot)
	initC *cgroup  // where the init is: cg on v1, inside it on v2
	run   *cgroup  // inside cg: the programs, and their limits
	ids   []fileID // of the mounted paths when the slot was built
	exit  chan waited
	ended waited // how the init ended, after destroy
	// The init's resource limits when it was ready, before any program
	// ran (see inside/intact.go); limitsOK says they could be read.
	limits   kernel.LimitSet
	limitsOK bool
	idleSeq  uint64 // when it was last put back in the pool (slotPool.seq)
}

// pooled is a program run in a slot.
type pooled struct {
	p     *Process
	slot  *slot
	ctlMu sync.Mutex // for the slot's control socket
	// The slot's cgroup counters when the program started.
	cpuBase  time.Duration
	oomBase  int64
	released bool // under ctlMu: the program ended and the slot is no longer its
	// Without a cgroup (level namespaces): the program's CPU time, and
	// whether it was alone in its sandbox at the last cpuTime.
	sole  *soleClock
	alone atomic.Bool
}

// intact reports whether the init's resource limits are still those it
// had when the slot was ready.
func (s *slot) intact() bool {
	if !s.limitsOK {
		return true
	}
	l, err := kernel.LimitsOf(s.cmd.Process.Pid)
	return err == nil && l == s.limits
}

// fileID identifies a file, to notice a directory replaced since a slot
// showing it was built.
type fileID struct{ dev, ino uint64 }

func idOf(path string) fileID {
	var st unix.Stat_t
	if unix.Stat(path, &st) != nil {
		return fileID{}
	}
	return fileID{uint64(st.Dev), st.Ino}
}

// fresh reports whether the paths the slot shows are still the ones it
// was built with.
func (s *slot) fresh() bool {
	for i, m := range s.shape.cfg.Mounts {
		if idOf(m.Src) != s.ids[i] {
			return false
		}
	}
	return true
}

// take returns an idle slot of shape key, or nil.
func (pl *slotPool) take(key string) *slot {
	pl.mu.Lock()
	defer pl.mu.Unlock()
	for {
		list := pl.idle[key]
		if len(list) == 0 {
			return nil
		}
		s := list[len(list)-1]
		pl.idle[key] = list[:len(list)-1]
		pl.nIdle--
		if s.fresh() {
			return s
		}
		go s.destroy()
	}
}

// put returns a clean slot to the pool. When the pool is full, the slot
// idle the longest goes, whatever its shape: the shapes of programs no
// longer started (a bot replaced, another tournament's) age out, and the
// shapes in use keep as many slots as they use, up to maxIdlePerShape.
func (pl *slotPool) put(s *slot) {
	pl.mu.Lock()
	key := s.shape.key
	if len(pl.idle[key]) >= maxIdlePerShape || pl.closed {
		pl.mu.Unlock()
		s.destroy()
		return
	}
	var evict *slot
	if pl.nIdle >= maxIdle {
		oldest := ""
		for k, list := range pl.idle {
			if len(list) > 0 && (oldest == "" || list[0].idleSeq < pl.idle[oldest][0].idleSeq) {
				oldest = k
			}
		}
		evict = pl.idle[oldest][0]
		pl.idle[oldest] = pl.idle[oldest][1:]
		if len(pl.idle[oldest]) == 0 {
			delete(pl.idle, oldest)
		}
		pl.nIdle--
	}
	pl.seq++
	s.idleSeq = pl.seq
	pl.idle[key] = append(pl.idle[key], s)
	pl.nIdle++
	pl.mu.Unlock()
	if evict != nil {
		go evict.destroy()
	}
}

// refill builds, in the background, one slot of sh when none is idle and
// none is being built.
func (pl *slotPool) refill(sh *shape) {
	pl.mu.Lock()
	if len(pl.idle[sh.key]) > 0 || pl.building[sh.key] > 0 || pl.closed {
		pl.mu.Unlock()
		return
	}
	pl.building[sh.key]++
	pl.builds.Add(1)
	pl.mu.Unlock()
	go func() {
		defer pl.builds.Done()
		// The build ends when the Host is closed: no one waits for it.
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		go func() {
			select {
			case <-pl.closing:
				cancel()
			case <-ctx.Done():
			}
		}()
		s, err := buildSlot(ctx, sh)
		pl.mu.Lock()
		pl.building[sh.key]--
		pl.mu.Unlock()
		if err == nil {
			pl.put(s)
		}
	}()
}

// ReleaseIdle ends every idle sandbox kept ready for reuse (their inits,
// their cgroups). Running programs are not affected; the pool fills again
// as programs start.
func (h *Host) ReleaseIdle() {
	pool := h.pool
	pool.mu.Lock()
	var all []*slot
	for k, list := range pool.idle {
		all = append(all, list...)
		delete(pool.idle, k)
	}
	pool.nIdle = 0
	pool.mu.Unlock()
	for _, s := range all {
		s.destroy()
	}
}

// Close ends every sandbox kept ready for reuse and removes their
// cgroups, ending those being built and waiting for them; from then on, a sandbox is
// ended with its program. A program that is done with its Host closes
// it before it exits: the inits of ready sandboxes die with the program
// that started them, but their cgroups would stay until the next judge
// removed them. Other Hosts' sandboxes are not touched.
func (h *Host) Close() {
	h.pool.mu.Lock()
	if !h.pool.closed {
		h.pool.closed = true
		close(h.pool.closing)
	}
	h.pool.mu.Unlock()
	h.pool.builds.Wait()
	h.ReleaseIdle()
}

// Prewarm builds up to n ready sandboxes for programs started with spec
// (its command does not matter, only what shapes the sandbox: level,
// directories shown, limits), so that the first Start of such programs
// is as fast as the next ones. At levels without namespaces it does
// nothing. It stops, with ctx's error, when ctx ends.
func (h *Host) Prewarm(ctx context.Context, spec Spec, n int) error {
	if len(spec.Argv) == 0 {
		spec.Argv = []string{"/bin/true"}
	}
	sh, _, err := h.prepare(ctx, spec)
	if err != nil || sh == nil {
		return err
	}
	for i := 0; i < n; i++ {
		h.pool.mu.Lock()
		full := len(h.pool.idle[sh.key]) >= maxIdlePerShape
		h.pool.mu.Unlock()
		if full {
			break
		}
		s, err := buildSlot(ctx, sh)
		if err != nil {
			return err
		}
		h.pool.put(s)
	}
	return nil
}

// buildSlot starts the init of a new slot of shape sh and waits until it
// is ready, or until ctx ends: then the init is killed, and the error
// wraps ctx's.
func buildSlot(ctx context.Context, sh *shape) (*slot, error) {
	if err := sh.pool.fault; err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("sandbox: building a sandbox: %w", err)
	}
	pair, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_SEQPACKET|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return nil, fmt.Errorf("sandbox: %w", err)
	}
	// The judge's end waits in the runtime's poller, not in a system
	// call that holds a thread: starts of several bots at once.
	_ = unix.SetNonblock(pair[0], true)
	ctl, ctlChild := os.NewFile(uintptr(pair[0]), "control"), os.NewFile(uintptr(pair[1]), "control")
	stR, stW, err := os.Pipe()
	if err != nil {
		ctl.Close()
		ctlChild.Close()
		return nil, fmt.Errorf("sandbox: %w", err)
	}
	cfg := sh.cfg
	cfg.Mounts = append([]wire.Mount(nil), sh.cfg.Mounts...)
	s := &slot{shape: sh, ctl: ctl, stR: stR, exit: make(chan waited, 1)}
	var extra []*os.File
	for i := range cfg.Mounts {
		m := &cfg.Mounts[i]
		s.ids = append(s.ids, idOf(m.Src))
		if f := cloneTree(m.Src); f != nil {
			extra = append(extra, f)
			m.FD = 4 + len(extra)
		}
	}
	id, gid := initIDs()
	flags := uintptr(nsCloneFlags)
	if sh.cgs != nil {
		var err error
		if extra, err = s.makeCgroups(&cfg, extra, id, gid); err != nil {
			ctl.Close()
			ctlChild.Close()
			stR.Close()
			stW.Close()
			for _, f := range extra {
				f.Close()
			}
			if s.cg != nil {
				s.removeCgroups()
			}
			return nil, err
		}
		if sh.cgs.ver.programJoinsRun() {
			// The init shares the judge's cgroup namespace (runFiles).
			flags &^= syscall.CLONE_NEWCGROUP
		}
	}
	cmd := &exec.Cmd{
		Path:        "/proc/self/exe",
		Args:        []string{wire.SlotName},
		Env:         initEnv,
		ExtraFiles:  append([]*os.File{ctlChild, stW}, extra...),
		SysProcAttr: initAttr(flags, id, gid),
	}
	err = cmd.Start()
	ctlChild.Close()
	stW.Close()
	for _, f := range extra {
		f.Close()
	}
	if err != nil {
		ctl.Close()
		stR.Close()
		if s.cg != nil {
			s.removeCgroups()
		}
		return nil, fmt.Errorf("sandbox: starting the sandbox's init: %w", err)
	}
	s.cmd = cmd
	go func() { s.exit <- waitCmd(cmd) }()
	// The init reads its config and builds the sandbox (mounts, the
	// cgroups' files): killed when ctx ends meanwhile, it ends the wait.
	stop := context.AfterFunc(ctx, func() { _ = cmd.Process.Kill() })
	err = s.awaitReady(&cfg)
	if !stop() {
		s.destroy()
		return nil, fmt.Errorf("sandbox: building a sandbox: %w", ctx.Err())
	}
	if err != nil {
		s.destroy()
		return nil, err
	}
	return s, nil
}

// makeCgroups makes the slot's cgroups: the programs go into run, the
// init stays out of it, of its limits and of its counters (createSlot).
// It tells the init in cfg where run is, through files it appends to
// extra (the files the init is started with, from descriptor 5 on), and
// returns extra; the files it made are in extra also on error.
func (s *slot) makeCgroups(cfg *wire.Config, extra []*os.File, id, gid int) ([]*os.File, error) {
	sh := s.shape
	var err error
	if s.cg, s.initC, s.run, err = sh.cgs.createSlot(sh.limits); err != nil {
		return extra, err
	}
	return sh.cgs.ver.runFiles(s, cfg, extra, id, gid)
}

// awaitReady puts the slot's started init in its cgroup, sends it cfg
// and waits until it says it is ready; then it notes the init's limits.
func (s *slot) awaitReady(cfg *wire.Config) error {
	if s.initC != nil {
		// Before it reads its config: it has started nothing yet.
		if err := s.initC.attach(s.cmd.Process.Pid); err != nil {
			return err
		}
	}
	b, _ := json.Marshal(cfg)
	if _, err := s.ctl.Write(b); err != nil {
		return fmt.Errorf("sandbox: configuring the init: %w", err)
	}
	s.rd = bufio.NewReader(s.stR)
	m, err := s.read()
	switch {
	case err != nil:
		return fmt.Errorf("sandbox: the init ended before it was ready: %w", err)
	case m.Err != "":
		return fmt.Errorf("sandbox: %s", m.Err)
	}
	if l, err := kernel.LimitsOf(s.cmd.Process.Pid); err == nil {
		s.limits, s.limitsOK = l, true
	}
	return nil
}

// read reads the init's next message.
func (s *slot) read() (wire.Message, error) {
	var m wire.Message
	line, err := s.rd.ReadBytes('\n')
	if err == nil {
		err = json.Unmarshal(line, &m)
	}
	return m, err
}

// destroy ends the slot's init and removes its cgroup.
func (s *slot) destroy() {
	s.ctl.Close()
	if s.cmd != nil && s.cmd.Process != nil {
		_ = s.cmd.Process.Signal(syscall.SIGKILL)
		if s.cg != nil {
			_ = s.cg.freeze(false)
		}
		s.ended = <-s.exit
	}
	s.stR.Close()
	if s.cg != nil {
		s.removeCgroups()
	}
}

// removeCgroups kills what is left in the slot's cgroups and removes
// them, the inner ones first.
func (s *slot) removeCgroups() {
	for _, c := range []*cgroup{s.run, s.initC, s.cg} {
		if c != nil && (c != s.cg || s.initC != s.cg) {
			c.killAll()
		}
	}
	_ = s.cg.freeze(false)
	if s.run != nil {
		s.run.remove()
	}
	if s.initC != nil && s.initC != s.cg {
		s.initC.remove()
	}
	s.cg.remove()
}

// shapeCache keeps what prepare worked out for a spec, by the spec and
// the judge's working directory (shapeKey): a bot starts once a match
// with the same spec but for its seed in its environment, and working it
// out again looks at its files, its program in PATH, and encodes a key,
// about 30 µs a start. What it keeps is never changed by those who take
// it; each start gets its own environment. A file that changed since
// (replaced, removed, made unreadable) shows when the slot that shows it
// is taken (slot.fresh), when a slot is built, or when the program
// executes; a start with a kept shape that fails is tried once more with
// the shape worked out again, whose error says what changed.
type shapeCache struct {
	mu sync.Mutex
	m  map[string]preparedShape
}

type preparedShape struct {
	sh  *shape
	run *wire.Run
}

// maxShapes bounds the cache: past it, it starts again empty.
const maxShapes = 256

// shapeKey is what prepare's shape depends on: all of spec but its
// standard files, wall time and environment, of which only the
// variables that choose the program count (PATH, PYENV_VERSION: a bot's
// seed, different every match, does not); and the working directory that
// relative paths are taken from.
func shapeKey(spec Spec) (string, bool) {
	cwd, err := syscall.Getwd()
	if err != nil {
		return "", false
	}
	var b strings.Builder
	list := func(l []string) {
		b.WriteString(strconv.Itoa(len(l)))
		for _, x := range l {
			b.WriteByte(0)
			b.WriteString(x)
		}
		b.WriteByte(1)
	}
	list(spec.Argv)
	list(spec.ReadOnly)
	list(spec.Writable)
	for _, kv := range spec.Env {
		if strings.HasPrefix(kv, "PATH=") || strings.HasPrefix(kv, "PYENV_VERSION=") {
			b.WriteString(kv)
			b.WriteByte(0)
		}
	}
	l := spec.Limits
	fmt.Fprintf(&b, "%s\x00%s\x00%s\x00%d/%d/%d/%d/%d", spec.Dir, cwd, spec.Level, l.Memory, l.Procs, l.FileSize, l.OpenFiles, l.TmpSize)
	return b.String(), true
}

// prepare works out the shape of the sandbox spec needs and what to run
// in it; a nil shape means spec is not run in a slot. A spec worked out
// before is taken from the Host's cache.
func (h *Host) prepare(ctx context.Context, spec Spec) (*shape, *wire.Run, error) {
	sh, run, _, err := h.prepareKept(ctx, spec)
	return sh, run, err
}

// prepareKept is prepare, saying whether the shape was kept from before.
func (h *Host) prepareKept(ctx context.Context, spec Spec) (*shape, *wire.Run, bool, error) {
	key, ok := shapeKey(spec)
	if ok {
		h.shapes.mu.Lock()
		p, found := h.shapes.m[key]
		h.shapes.mu.Unlock()
		if found {
			run := *p.run
			run.Env = spec.Env
			if run.Env == nil {
				run.Env = []string{}
			}
			return p.sh, &run, true, nil
		}
	}
	sh, run, err := h.prepareSpec(ctx, spec)
	if ok && err == nil && sh != nil {
		h.shapes.mu.Lock()
		if h.shapes.m == nil || len(h.shapes.m) >= maxShapes {
			h.shapes.m = map[string]preparedShape{}
		}
		h.shapes.m[key] = preparedShape{sh, run}
		h.shapes.mu.Unlock()
	}
	return sh, run, false, err
}

// forgetShape drops what prepare kept for spec.
func (h *Host) forgetShape(spec Spec) {
	if key, ok := shapeKey(spec); ok {
		h.shapes.mu.Lock()
		delete(h.shapes.m, key)
		h.shapes.mu.Unlock()
	}
}

// prepareSpec is prepare, worked out.
func (h *Host) prepareSpec(ctx context.Context, spec Spec) (*shape, *wire.Run, error) {
	level, err := ParseLevel(string(spec.Level))
	if err != nil {
		return nil, nil, fmt.Errorf("sandbox: %w", err)
	}
	pr, err := h.probe(ctx)
	if err != nil {
		return nil, nil, err
	}
	if level == Auto {
		level = pr.Level
	}
	if level.rank() < Namespaces.rank() || level.rank() > pr.Level.rank() || h.opts.NoReuse {
		return nil, nil, nil
	}
	cfg, ro, rw, err := configFor(spec)
	if err != nil {
		return nil, nil, err
	}
	var cgs *cgroupSys
	if level == Full {
		s, err := h.cgroups(ctx)
		if err != nil {
			return nil, nil, err
		}
		if s.memory || s.pids {
			cgs = s
		}
	}
	if cfg.Mounts, err = mountsFor(ro, rw); err != nil {
		return nil, nil, err
	}
	cfg.Mode = wire.ModeSlot
	showNamespaced(cfg, rw)
	h.protect(cfg, pr)
	cfg.Rlimits = initRlimits(spec.Limits, cgs, true)
	run := &wire.Run{Path: cfg.Path, Argv: cfg.Argv, Dir: cfg.Dir, Env: cfg.Env}
	cfg.Path, cfg.Argv, cfg.Dir, cfg.Env = "", nil, "", nil
	sh := &shape{cfg: *cfg, limits: spec.Limits, cgs: cgs, pool: h.pool, level: level}
	sh.limits.Wall = 0
	key, _ := json.Marshal(struct {
		C wire.Config
		L Limits
		V Level
	}{*cfg, sh.limits, level})
	sh.key = string(key)
	sh.desc = describe(level, pr, cgs)
	return sh, run, nil
}

// startPooled runs spec in a slot of its shape: an idle one, else a new
// one; either way another is built in the background for the next start.
func (h *Host) startPooled(ctx context.Context, spec Spec, sh *shape, run *wire.Run) (*Process, error) {
	pool := h.pool
	for attempt := 0; ; attempt++ {
		s := pool.take(sh.key)
		warm := s != nil
		if s == nil {
			var err error
			if s, err = buildSlot(ctx, sh); err != nil {
				return nil, err
			}
		}
		pool.refill(sh)
		p, err, slotOK := s.start(spec, run)
		if err == nil {
			p.warm = warm
			return p, nil
		}
		if slotOK {
			pool.put(s)
			return nil, err
		}
		s.destroy()
		if !warm || attempt > maxIdlePerShape {
			return nil, err
		}
		// An idle slot that died (killed from outside: at level basic
		// without Landlock's signal scope, a program of the same user
		// can kill every idle init at once): the next one, or a new one.
	}
}

// start runs the program in slot s. slotOK says, on error, that the slot
// is still good.
func (s *slot) start(spec Spec, run *wire.Run) (p *Process, err error, slotOK bool) {
	var fds [3]int
	var null *os.File
	for i, f := range [3]*os.File{spec.Stdin, spec.Stdout, spec.Stderr} {
		if f == nil {
			if null == nil {
				if null, err = os.OpenFile(os.DevNull, os.O_RDWR, 0); err != nil {
					return nil, fmt.Errorf("sandbox: %w", err), true
				}
				defer null.Close()
			}
			f = null
		}
		fds[i] = int(f.Fd())
	}
	req, err := run.AppendBinary(nil)
	if err != nil {
		return nil, fmt.Errorf("sandbox: %w", err), true
	}
	b := &pooled{slot: s}
	p = &Process{level: s.shape.level, desc: s.shape.desc, done: make(chan struct{}), b: b}
	b.p = p
	if s.run != nil {
		b.cpuBase, _ = s.run.cpu()
		b.oomBase = s.run.oomKills()
		s.run.resetPeak()
	}
	rc, err := s.ctl.SyscallConn()
	if err != nil {
		return nil, fmt.Errorf("sandbox: %w", err), false
	}
	var serr error
	if err := rc.Write(func(fd uintptr) bool {
		serr = unix.Sendmsg(int(fd), req, unix.UnixRights(fds[:]...), nil, 0)
		return serr != unix.EAGAIN
	}); err != nil || serr != nil {
		if err == nil {
			err = serr
		}
		return nil, fmt.Errorf("sandbox: the sandbox's init: %w", err), false
	}
	pid, err, slotOK := s.started(spec.Argv[0])
	if err != nil {
		return nil, err, slotOK
	}
	p.pid = pid
	if s.run == nil {
		b.sole = newSoleClock(s.cmd.Process.Pid, pid)
	}
	if _, err := s.ctl.Write([]byte{'G'}); err != nil {
		return nil, fmt.Errorf("sandbox: the init ended early: %w", err), false
	}
	go b.wait()
	p.wallTimer(spec.Limits.Wall)
	return p, nil, true
}

// started reads the init's answer to a run request: the program's pid
// outside the sandbox, read from the pidfd the init sends, or why it
// could not start (slotOK: the slot is still good).
func (s *slot) started(name string) (pid int, err error, slotOK bool) {
	bp := replyBufs.Get().(*[]byte)
	defer replyBufs.Put(bp)
	buf := *bp
	var oobBuf [64]byte
	oob := oobBuf[:unix.CmsgSpace(4)]
	var n, oobn int
	rc, err := s.ctl.SyscallConn()
	if err == nil {
		var rerr error
		err = rc.Read(func(fd uintptr) bool {
			n, oobn, _, _, rerr = unix.Recvmsg(int(fd), buf, oob, unix.MSG_CMSG_CLOEXEC|unix.MSG_DONTWAIT)
			return rerr != unix.EAGAIN && rerr != unix.EINTR
		})
		if err == nil {
			err = rerr
		}
	}
	if err == nil && n == 0 {
		err = io.EOF
	}
	if err != nil {
		return 0, fmt.Errorf("sandbox: the init ended before starting %s: %w", name, err), false
	}
	switch buf[0] {
	case 'E':
		return 0, fmt.Errorf("sandbox: %s", buf[1:n]), true
	case 'X':
		return 0, fmt.Errorf("%w: %s", ErrSandbox, buf[1:n]), false
	case 'P':
		msgs, _ := unix.ParseSocketControlMessage(oob[:oobn])
		for _, m := range msgs {
			fds, _ := unix.ParseUnixRights(&m)
			for _, fd := range fds {
				// Linux 6.13 tells it in one call; before, fdinfo does.
				info := unix.PidfdInfo{Mask: unix.PIDFD_INFO_PID}
				if unix.IoctlPidfdInfo(fd, &info) == nil && info.Mask&unix.PIDFD_INFO_PID != 0 && info.Pid > 0 {
					unix.Close(fd)
					return int(info.Pid), nil, true
				}
				b := kernel.ReadInto("/proc/self/fdinfo/"+strconv.Itoa(fd), buf)
				unix.Close(fd)
				for line := range bytes.Lines(b) {
					if v, ok := bytes.CutPrefix(line, []byte("Pid:")); ok {
						if n, err := strconv.Atoi(string(bytes.TrimSpace(v))); err == nil && n > 0 {
							return n, nil, true
						}
					}
				}
			}
		}
	}
	// No pidfd: the program is the init's only child.
	kids := waitChildren(s.cmd.Process.Pid)
	if len(kids) != 1 {
		return 0, fmt.Errorf("sandbox: the program vanished as it started (%d processes)", len(kids)), false
	}
	return kids[0], nil, true
}

// replyBufs hold the init's answers to run requests (started): an error's
// text may be long, and a start should not allocate 64 KiB for a pid.
var replyBufs = sync.Pool{New: func() any { b := make([]byte, 64<<10); return &b }}

// wait waits for the program of a slot to end, records how, and
// gives the slot back to the pool when it is clean.
func (b *pooled) wait() {
	p, s := b.p, b.slot
	m, err := s.read()
	for err == nil && !m.Done {
		m, err = s.read()
	}
	e := Exit{Code: -1}
	clean := err == nil
	if clean {
		e = exitOf(m)
	}
	b.ctlMu.Lock()
	b.released = true
	b.ctlMu.Unlock()
	if b.sole != nil {
		b.sole.close()
	}
	if s.run != nil {
		e.OOM = s.run.oomKills() > b.oomBase
		if d, err := s.run.cpu(); err == nil {
			e.CPU = d - b.cpuBase
		}
		if n := s.run.peak(); n > 0 {
			e.MaxRSS = n
		}
		// Nothing may be left where the programs run (no thread of the
		// init goes there: on v1 the forked child joins it itself). The
		// count of tasks is cheap to read; a v1 list of processes is not.
		if n, ok := s.run.tasks(); !ok || n > 0 {
			for _, pid := range s.run.pidList() {
				if pid != s.cmd.Process.Pid {
					clean = false
				}
			}
		}
	}
	if clean && !s.intact() {
		// The program changed the init (which seccomp should have
		// kept it from): no program runs in this slot again.
		clean = false
	}
	if !clean {
		s.destroy()
		if w := s.ended; w.ok && err != nil {
			p.mu.Lock()
			killed := p.killed
			p.mu.Unlock()
			if killed {
				// The judge killed the init, after the program failed to
				// end when told to.
				e.Code, e.Signal = fromWaitStatus(w.status)
			} else {
				// The init died on its own: not something the program
				// did, as far as the judge can tell.
				var ie Exit
				ie.Code, ie.Signal = fromWaitStatus(w.status)
				e.Err = fmt.Errorf("%w: its init ended (%v) while the program ran", ErrSandbox, ie)
			}
		}
	} else {
		s.shape.pool.put(s)
	}
	p.finish(e)
}

// kill kills the program of a slot and everything it started; the init
// survives for the next program. If the init does not report the end in
// time, the slot is destroyed.
func (b *pooled) kill() {
	init := b.slot.cmd.Process
	b.ctlMu.Lock()
	if !b.released {
		// The init thaws and kills the programs it stopped.
		if _, err := b.slot.ctl.Write([]byte{'K'}); err != nil {
			_ = init.Signal(syscall.SIGKILL)
		}
	}
	b.ctlMu.Unlock()
	go func() {
		select {
		case <-b.p.done:
		case <-time.After(2 * time.Second):
			_ = init.Signal(syscall.SIGKILL)
		}
	}()
}

func (b *pooled) freeze(on bool) error {
	b.ctlMu.Lock()
	defer b.ctlMu.Unlock()
	if b.released {
		return nil
	}
	// The init stops the programs without tearing their writes
	// (inside/stop.go), which a cgroup freezer, v1's or v2's, would.
	return b.p.sendFreeze(b.slot.ctl, on)
}

func (b *pooled) cpuTime() (time.Duration, bool) {
	if b.slot.run != nil {
		if d, err := b.slot.run.cpu(); err == nil {
			return d - b.cpuBase, true
		}
		return 0, false
	}
	d, alone, err := b.sole.read()
	b.alone.Store(alone)
	return d, err == nil
}

// countsAll: a cgroup's accounting, or without one, a program alone in
// its sandbox at the last cpuTime.
func (b *pooled) countsAll() bool {
	if b.slot.run != nil {
		return b.slot.run.sys.cpu
	}
	return b.alone.Load()
}

// pids are what the program started: a few reads, where the descendants
// of a reused sandbox's init are a read per thread of it and a v1
// cgroup's list of processes is costly to build. An orphan adopted by
// the init is not counted.
func (b *pooled) pids() []int { return append([]int{b.p.pid}, descendants(b.p.pid)...) }

func (b *pooled) leftovers() []string { return nil }
