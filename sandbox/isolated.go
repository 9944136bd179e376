//go:build linux

package sandbox

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"

	"judge/sandbox/internal/kernel"
	"judge/sandbox/internal/wire"
)

// nobody is the id a program runs as when the judge runs as root.
const nobody = 65534

// nsFlagsAll are the namespaces of an isolated sandbox.
const nsCloneFlags = syscall.CLONE_NEWUSER | syscall.CLONE_NEWPID | syscall.CLONE_NEWNS |
	syscall.CLONE_NEWNET | syscall.CLONE_NEWIPC | syscall.CLONE_NEWUTS | syscall.CLONE_NEWCGROUP

// initEnv is the environment of a sandbox's init: a Go program that
// needs few threads, and whose race detector (in tests) does not linger
// at exit.
var initEnv = []string{"GOMAXPROCS=2", "GORACE=atexit_sleep_ms=0"}

// initCaps are the capabilities the init keeps, in its own user namespace
// only, to build the sandbox: the usual rules of exec as root do not grant
// them when the judge's binary belongs to an id not mapped there.
var initCaps = []uintptr{unix.CAP_SYS_ADMIN, unix.CAP_NET_ADMIN, unix.CAP_SETPCAP,
	unix.CAP_DAC_OVERRIDE, unix.CAP_CHOWN, unix.CAP_FOWNER, unix.CAP_SYS_CHROOT}

// isolated is a program run under an init of its own, at level Full,
// Namespaces or Basic: the judge's binary run again (package
// sandbox/inside), PID 1 of the sandbox's namespaces, or without them a
// subreaper.
type isolated struct {
	p      *Process
	init   *os.Process // the sandbox's init
	ctl    *os.File    // commands to the init; closing it ends the sandbox
	ctlMu  sync.Mutex
	cg     *cgroup // nil without cgroups
	tmpDir string  // the private /tmp at level Basic, removed at the end
}

// isolatedPlan describes a sandbox of one program before its init
// starts: what the init is told, how it is started, and what the judge
// prepared for it.
type isolatedPlan struct {
	cfg    *wire.Config
	ns     bool // the init runs in namespaces of its own
	sys    *syscall.SysProcAttr
	extra  []*os.File // more files for the init: the trees cloned for it
	tmpDir string     // level Basic: the program's private tmp
	cgs    *cgroupSys // the cgroups to use, nil for none
}

// startIsolated runs spec under an init at level Full, Namespaces or
// Basic (which uses cgroups too where the machine has them).
func (h *Host) startIsolated(ctx context.Context, spec Spec, level Level, pr *Report) (*Process, error) {
	if !initCalled.Load() {
		return nil, errors.New("sandbox: sandbox.Init was not called at the start of main (or TestMain)")
	}
	if level.rank() >= Namespaces.rank() && !h.opts.NoReuse && h.reuseWorks(ctx, level) {
		sh, run, kept, err := h.prepareKept(ctx, spec)
		if err != nil {
			return nil, err
		}
		if sh != nil {
			p, err := h.startPooled(ctx, spec, sh, run)
			if err == nil || !kept || ctx.Err() != nil {
				return p, err
			}
			// Something changed since the shape was worked out: again,
			// so that the error says what.
			h.forgetShape(spec)
			if sh, run, err = h.prepare(ctx, spec); err != nil {
				return nil, err
			}
			if sh != nil {
				return h.startPooled(ctx, spec, sh, run)
			}
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("sandbox: %w", err)
	}
	pl, err := h.planIsolated(ctx, spec, level, pr)
	if err != nil {
		return nil, err
	}
	p := &Process{level: level, done: make(chan struct{})}
	b := &isolated{p: p, tmpDir: pl.tmpDir}
	p.b = b
	cmd, stR, err := b.launch(spec, pl)
	if err != nil {
		return nil, err
	}
	abort := func(err error) (*Process, error) {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		b.ctl.Close()
		stR.Close()
		b.cleanup()
		return nil, err
	}
	// The cgroups used: nil where there are none, or level Basic does
	// without.
	cgs, err := b.joinCgroup(pl.cgs, level, spec.Limits)
	if err != nil {
		return abort(err)
	}
	pl.cfg.Rlimits = initRlimits(spec.Limits, cgs, pl.ns)
	rd, err := b.configure(pl.cfg, stR, spec.Argv[0], pl.ns)
	if err != nil {
		return abort(err)
	}
	if _, err := b.ctl.Write([]byte{'G'}); err != nil {
		return abort(fmt.Errorf("sandbox: the init ended early: %w", err))
	}
	p.desc = describe(level, pr, cgs)
	go b.wait(cmd, rd, stR)
	if b.tmpDir != "" {
		go b.watchTmp(b.tmpDir, spec.Limits.TmpSize)
	}
	p.wallTimer(spec.Limits.Wall)
	return p, nil
}

// planIsolated describes the sandbox of spec at level: the init's
// config but for the limits, the namespaces, the trees cloned for the
// init, level Basic's private tmp.
func (h *Host) planIsolated(ctx context.Context, spec Spec, level Level, pr *Report) (*isolatedPlan, error) {
	pl := &isolatedPlan{ns: level.rank() >= Namespaces.rank(), sys: &syscall.SysProcAttr{}}
	if level == Full || level == Basic {
		s, err := h.cgroups(ctx)
		if err != nil {
			return nil, err
		}
		if s.memory || s.pids {
			pl.cgs = s
		}
	}
	cfg, ro, rw, err := configFor(spec)
	if err != nil {
		return nil, err
	}
	pl.cfg = cfg
	if pl.ns {
		cfg.Mode = wire.ModeInit
		id, gid := initIDs()
		pl.sys = initAttr(nsCloneFlags, id, gid)
		if cfg.Mounts, err = mountsFor(ro, rw); err != nil {
			return nil, err
		}
		for i := range cfg.Mounts {
			if f := cloneTree(cfg.Mounts[i].Src); f != nil {
				pl.extra = append(pl.extra, f)
				cfg.Mounts[i].FD = 4 + len(pl.extra)
			}
		}
		showNamespaced(cfg, rw)
	} else {
		cfg.Mode = wire.ModeReaper
		pl.sys.Setpgid = true
		tmp, err := h.makeBasicTmp()
		if err != nil {
			return nil, fmt.Errorf("sandbox: %w", err)
		}
		pl.tmpDir = tmp
		if os.Geteuid() == 0 {
			cfg.Uid, cfg.Gid = nobody, nobody
			_ = os.Chown(tmp, nobody, nobody)
		}
		cfg.Env = withTmp(cfg.Env, tmp)
		cfg.RO = append(append([]string(nil), wire.SystemDirs...), ro...)
		cfg.RW = append([]string{tmp}, rw...)
		cfg.Proc = basicProc
		cfg.Basic = true
	}
	h.protect(cfg, pr)
	return pl, nil
}

// launch starts the init of pl with spec's standard files, and returns
// it and the read end of its status pipe. On error, nothing of pl is
// left.
func (b *isolated) launch(spec Spec, pl *isolatedPlan) (*exec.Cmd, *os.File, error) {
	closeExtra := func() {
		for _, f := range pl.extra {
			f.Close()
		}
	}
	ctlR, ctlW, err := os.Pipe()
	if err != nil {
		closeExtra()
		b.cleanup()
		return nil, nil, fmt.Errorf("sandbox: %w", err)
	}
	stR, stW, err := os.Pipe()
	if err != nil {
		ctlR.Close()
		ctlW.Close()
		closeExtra()
		b.cleanup()
		return nil, nil, fmt.Errorf("sandbox: %w", err)
	}
	cmd := &exec.Cmd{
		Path:        "/proc/self/exe",
		Args:        []string{wire.InitName},
		Env:         initEnv,
		Stdin:       spec.Stdin,
		Stdout:      spec.Stdout,
		Stderr:      spec.Stderr,
		ExtraFiles:  append([]*os.File{ctlR, stW}, pl.extra...),
		SysProcAttr: pl.sys,
	}
	err = cmd.Start()
	ctlR.Close()
	stW.Close()
	closeExtra()
	if err != nil {
		ctlW.Close()
		stR.Close()
		b.cleanup()
		return nil, nil, fmt.Errorf("sandbox: starting the sandbox's init: %w", err)
	}
	b.init = cmd.Process
	b.ctl = ctlW
	return cmd, stR, nil
}

// cleanup removes what the judge made for the sandbox: its private tmp
// and its cgroup.
func (b *isolated) cleanup() {
	if b.tmpDir != "" {
		os.RemoveAll(b.tmpDir)
	}
	if b.cg != nil {
		b.cg.remove()
	}
}

// joinCgroup makes the sandbox's cgroup in cgs (none when nil), puts the
// init in it and sets its process limit; it returns the cgroups used,
// nil where there are none or level Basic does without.
func (b *isolated) joinCgroup(cgs *cgroupSys, level Level, l Limits) (*cgroupSys, error) {
	if cgs == nil {
		return nil, nil
	}
	cg, err := cgs.create(l)
	if err != nil && level == Basic {
		// Basic asks for cgroups where they work, and does without.
		return nil, nil
	} else if err != nil {
		return cgs, err
	}
	b.cg = cg
	if err := cg.attach(b.init.Pid); err != nil {
		return cgs, err
	}
	if l.Procs > 0 {
		if err := cg.setPids(l.Procs + initThreads); err != nil {
			return cgs, fmt.Errorf("sandbox: cgroup pids limit: %w", err)
		}
	}
	return cgs, nil
}

// configure sends the init its config and reads its answer: the program
// (named name) started, whose pid it records, or why not.
func (b *isolated) configure(cfg *wire.Config, stR *os.File, name string, ns bool) (*bufio.Reader, error) {
	j, _ := json.Marshal(cfg)
	if _, err := b.ctl.Write(append(j, '\n')); err != nil {
		return nil, fmt.Errorf("sandbox: configuring the init: %w", err)
	}
	rd := bufio.NewReader(stR)
	var m wire.Message
	line, err := rd.ReadBytes('\n')
	if err == nil {
		err = json.Unmarshal(line, &m)
	}
	switch {
	case err != nil:
		return nil, fmt.Errorf("sandbox: the init ended before starting %s: %w", name, err)
	case m.Err != "":
		return nil, fmt.Errorf("sandbox: %s", m.Err)
	}
	b.p.pid = m.Pid
	if ns {
		kids := waitChildren(b.init.Pid)
		if len(kids) == 0 {
			return nil, errors.New("sandbox: the program vanished as it started")
		}
		b.p.pid = kids[0]
	}
	return rd, nil
}

// waitChildren lists the children of pid, waiting up to 100 ms for one.
func waitChildren(pid int) []int {
	kids := kernel.Children(pid)
	for i := 0; len(kids) == 0 && i < 100; i++ {
		time.Sleep(time.Millisecond)
		kids = kernel.Children(pid)
	}
	return kids
}

// exitOf is how a program ended, as its init reported (m.Done).
func exitOf(m wire.Message) Exit {
	e := Exit{Code: -1}
	e.Code, e.Signal = fromWaitStatus(syscall.WaitStatus(m.Status))
	e.CPU = durationUS(m.UserUS + m.SysUS)
	e.MaxRSS = m.MaxRSS
	return e
}

// wait waits for the init to end and records how the program ended.
func (b *isolated) wait(cmd *exec.Cmd, rd *bufio.Reader, stR *os.File) {
	p := b.p
	w := waitCmd(cmd)
	var final wire.Message
	for {
		line, err := rd.ReadBytes('\n')
		if len(line) > 0 {
			var m wire.Message
			if json.Unmarshal(line, &m) == nil && m.Done {
				final = m
			}
		}
		if err != nil {
			break
		}
	}
	stR.Close()
	b.ctlMu.Lock()
	b.ctl.Close()
	b.ctlMu.Unlock()
	e := Exit{Code: -1}
	if final.Done {
		e = exitOf(final)
	} else if w.ok {
		// The init itself was killed (by the judge, or for memory).
		e.Code, e.Signal = fromWaitStatus(w.status)
		e.CPU = w.cpu
	}
	if p.level.rank() < Namespaces.rank() {
		_ = unix.Kill(-p.pid, unix.SIGKILL)
	}
	if b.cg != nil {
		e.OOM = b.cg.oom()
		if d, err := b.cg.cpu(); err == nil {
			e.CPU = d
		}
		if n := b.cg.peak(); n > 0 {
			e.MaxRSS = n
		}
		b.cg.killAll()
		_ = b.cg.freeze(false)
		b.cg.remove()
	}
	if b.tmpDir != "" {
		os.RemoveAll(b.tmpDir)
	}
	p.mu.Lock()
	killed := p.killed
	p.mu.Unlock()
	if !final.Done && w.ok && !killed && !e.OOM && p.level.rank() >= Namespaces.rank() {
		// PID 1 of its namespace, which no process inside can kill, and
		// not by the judge nor for memory: the sandbox failed.
		e.Err = fmt.Errorf("%w: its init ended (%v) while the program ran", ErrSandbox, e)
	}
	p.finish(e)
}

func (b *isolated) kill() {
	p := b.p
	if p.level.rank() >= Namespaces.rank() {
		// The kernel ends the whole PID namespace with its init.
		_ = b.init.Signal(syscall.SIGKILL)
	} else {
		if b.cg != nil {
			b.killBasicCgroup()
		}
		_ = unix.Kill(-p.pid, unix.SIGKILL)
		b.ctlMu.Lock()
		_ = b.ctl.Close() // the init kills what is left and exits
		b.ctlMu.Unlock()
	}
	// Frozen processes die only once thawed.
	if b.cg != nil {
		_ = b.cg.freeze(false)
	}
	if p.level.rank() < Namespaces.rank() {
		_ = unix.Kill(-p.pid, unix.SIGCONT)
	}
}

func (b *isolated) freeze(on bool) error {
	// In namespaces, the init stops every process of its PID namespace
	// with SIGSTOP, but none while it is inside a write (inside/stop.go):
	// the cgroup freezers, v2's cgroup.freeze as v1's FROZEN, cut such a
	// write short, and v1's costs about 0.2 ms, a hundred times the
	// judge's part of the init's stop (BenchmarkFreezeThaw). At level
	// Basic, where a stop signal tears writes as well, cgroup v2's
	// freezer also holds the processes that left the program's process
	// group, which the init's SIGSTOP of the group misses.
	if b.p.level == Basic && b.cg != nil && b.cg.sys.version() == 2 {
		return b.cg.freeze(on)
	}
	b.ctlMu.Lock()
	defer b.ctlMu.Unlock()
	return b.p.sendFreeze(b.ctl, on)
}

func (b *isolated) cpuTime() (time.Duration, bool) {
	if b.cg != nil {
		if d, err := b.cg.cpu(); err == nil {
			return d, true
		}
	}
	return 0, false
}

func (b *isolated) countsAll() bool { return b.cg != nil && b.cg.sys.cpu }

func (b *isolated) pids() []int {
	if b.cg == nil {
		return descendants(b.init.Pid)
	}
	var pids []int
	for _, pid := range b.cg.pidList() {
		if pid != b.init.Pid {
			pids = append(pids, pid)
		}
	}
	return pids
}

func (b *isolated) leftovers() []string {
	var out []string
	if b.cg != nil {
		for _, d := range b.cg.dirs {
			if _, err := os.Stat(d); err == nil {
				out = append(out, d)
			}
		}
	}
	if b.tmpDir != "" {
		if _, err := os.Stat(b.tmpDir); err == nil {
			out = append(out, b.tmpDir)
		}
	}
	return out
}

// initIDs are the ids outside that a sandbox's init, root of its user
// namespace, is: the judge's own, or nobody's when the judge is root.
func initIDs() (id, gid int) {
	if os.Geteuid() == 0 {
		return nobody, nobody
	}
	return os.Geteuid(), os.Getegid()
}

// initAttr starts a sandbox's init in new namespaces (flags) as the root
// of its user namespace, which is id and gid outside, with initCaps.
func initAttr(flags uintptr, id, gid int) *syscall.SysProcAttr {
	return &syscall.SysProcAttr{
		Cloneflags:                 flags,
		UidMappings:                []syscall.SysProcIDMap{{ContainerID: 0, HostID: id, Size: 1}},
		GidMappings:                []syscall.SysProcIDMap{{ContainerID: 0, HostID: gid, Size: 1}},
		GidMappingsEnableSetgroups: false,
		// A process group of its own, in the judge's session: a session
		// of its own would also be a scheduling autogroup of its own,
		// and every switch between the judge and a bot would cross
		// groups (8 % of a query). The session's terminal, /dev/tty,
		// is not in the sandbox's /dev (TestTerminalOutOfReach).
		Setpgid:     true,
		AmbientCaps: initCaps,
		// Become the namespace's root, which is id outside: until then
		// the child keeps the judge's credentials.
		Credential: &syscall.Credential{Uid: 0, Gid: 0, NoSetGroups: true},
	}
}
