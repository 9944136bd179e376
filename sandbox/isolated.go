package sandbox

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
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
func startIsolated(spec Spec, level Level, pr *Report, auto bool) (*Process, error) {
	if !initCalled {
		return nil, errors.New("sandbox: sandbox.Init was not called at the start of main (or TestMain)")
	}
	if level.rank() >= Namespaces.rank() && pooling && reuseWorks(level) {
		sh, run, err := prepare(spec)
		if err != nil {
			return nil, err
		}
		if sh != nil {
			return startPooled(spec, sh, run)
		}
	}
	pl, err := planIsolated(spec, level, pr)
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
	cgs, err := b.joinCgroup(pl.cgs, level, spec.Limits)
	if err != nil {
		return abort(err)
	}
	lim := spec.Limits
	nproc := pl.ns && (b.cg == nil || !cgs.pids)
	if nproc && lim.Procs > 0 {
		lim.Procs += initThreads
	}
	pl.cfg.Rlimits = rlimitsFor(lim, b.cg != nil && cgs.memory, nproc)
	// Without namespaces, Landlock is applied in the process that execs
	// the program, so that /proc/self is the program's own.
	pl.cfg.Direct = pl.ns && !bindsInit(pl.cfg.Rlimits)
	rd, err := b.configure(pl.cfg, stR, spec.Argv[0], pl.ns)
	if err != nil {
		return abort(err)
	}
	if _, err := b.ctl.Write([]byte{'G'}); err != nil {
		return abort(fmt.Errorf("sandbox: the init ended early: %w", err))
	}
	var cgSys *cgroupSys
	if b.cg != nil {
		cgSys = cgs
	}
	p.desc = describe(level, pr, cgSys)
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
func planIsolated(spec Spec, level Level, pr *Report) (*isolatedPlan, error) {
	pl := &isolatedPlan{ns: level.rank() >= Namespaces.rank(), sys: &syscall.SysProcAttr{}}
	if level == Full || level == Basic {
		if s := cgroups(); s.memory || s.pids {
			pl.cgs = s
		}
	}
	cfg, ro, rw, err := configFor(spec)
	if err != nil {
		return nil, err
	}
	pl.cfg = cfg
	if pl.ns {
		cfg.Mode = "init"
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
		cfg.Mode = "reaper"
		pl.sys.Setpgid = true
		tmp, err := makeBasicTmp()
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
	}
	protect(cfg, pr)
	return pl, nil
}

// mountsFor lists the paths shown read-only (ro) and writable (rw) as
// mounts, at the same paths.
func mountsFor(ro, rw []string) ([]wire.Mount, error) {
	var ms []wire.Mount
	for i, list := range [][]string{ro, rw} {
		for _, path := range list {
			if _, err := os.Stat(path); err != nil {
				return nil, fmt.Errorf("sandbox: %w", err)
			}
			ms = append(ms, wire.Mount{FD: -1, Src: path, Dst: path, Write: i == 1})
		}
	}
	return ms, nil
}

// cloneTree clones the mount tree at path for an init when the judge
// runs as root: the init runs as nobody and may not reach path. Nil when
// there is no need, or the clone failed (the init then tries path).
func cloneTree(path string) *os.File {
	if os.Geteuid() != 0 {
		return nil
	}
	fd, err := unix.OpenTree(unix.AT_FDCWD, path, unix.OPEN_TREE_CLONE|unix.OPEN_TREE_CLOEXEC|unix.AT_RECURSIVE)
	if err != nil {
		return nil
	}
	return os.NewFile(uintptr(fd), path)
}

// showNamespaced sets what Landlock lets a program in namespaces read
// (everything it sees) and write (its /tmp, /dev/shm and rw).
func showNamespaced(cfg *wire.Config, rw []string) {
	cfg.RO = []string{"/"}
	cfg.RW = append([]string{"/tmp", "/dev/shm"}, rw...)
}

// protect turns on the Landlock and seccomp the machine has (pr).
func protect(cfg *wire.Config, pr *Report) {
	if pr.landlock >= 1 {
		cfg.Landlock = pr.landlock
	}
	cfg.Seccomp = pr.seccomp && !noSeccomp
}

// bindsInit reports whether one of rs would bind the init too, were it
// set there: then a restricted parent sets them (the config is not
// Direct).
func bindsInit(rs []wire.Rlimit) bool {
	for _, r := range rs {
		if r.Resource == unix.RLIMIT_DATA || r.Resource == unix.RLIMIT_NPROC ||
			r.Resource == unix.RLIMIT_NOFILE && r.Value < wire.InitFiles {
			return true
		}
	}
	return false
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
// nil where level Basic does without.
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
	// cgroup v2's freezer is asynchronous and cheap. v1's write of FROZEN
	// takes about 0.2 ms, a hundred times the init's SIGSTOP of every
	// process in the namespace (BenchmarkFreezeThaw): on v1 the init does it.
	if b.cg != nil && b.cg.sys.version == 2 && b.cg.canFreeze() {
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

// findProgram resolves argv0 the way execvp would, but among the
// directories visible accepts, so that a program found outside the
// sandbox first (a pyenv shim in the judge's PATH) does not hide the one
// inside it.
func findProgram(argv0, base string, env []string, visible func(string) bool) (string, error) {
	if strings.Contains(argv0, "/") {
		p := argv0
		if !filepath.IsAbs(p) {
			p = filepath.Join(base, p)
		}
		if !visible(p) {
			return "", fmt.Errorf("sandbox: %s is not shown to the program (add its directory to the read-only paths)", p)
		}
		return p, nil
	}
	path := os.Getenv("PATH")
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "PATH="); ok {
			path = v
		}
	}
	var hidden string
	for _, dir := range filepath.SplitList(path) {
		if dir == "" || !filepath.IsAbs(dir) {
			continue
		}
		p := filepath.Join(dir, argv0)
		st, err := os.Stat(p)
		if err != nil || st.IsDir() || st.Mode()&0o111 == 0 {
			continue
		}
		if visible(p) {
			return p, nil
		}
		if hidden == "" {
			hidden = p
		}
	}
	if hidden != "" {
		return "", fmt.Errorf("sandbox: %s is %s, which the sandbox does not show (add its installation to the read-only paths)", argv0, hidden)
	}
	return "", fmt.Errorf("sandbox: %s: %w", argv0, exec.ErrNotFound)
}

// othersCanRead checks that a program running as nobody can use path.
func othersCanRead(path string) error {
	st, err := os.Stat(path)
	if err != nil {
		return fmt.Errorf("sandbox: %w", err)
	}
	need := os.FileMode(0o004)
	if st.IsDir() || st.Mode()&0o111 != 0 {
		need |= 0o001
	}
	if st.Mode().Perm()&need != need {
		return fmt.Errorf("sandbox: %s is %v; as the judge runs as root, programs run as nobody and need it readable by others (chmod o+rX)", path, st.Mode().Perm())
	}
	return nil
}

// withTmp points TMPDIR (and HOME when it is /tmp) at the private tmp.
func withTmp(env []string, tmp string) []string {
	out := make([]string, 0, len(env)+1)
	for _, kv := range env {
		if strings.HasPrefix(kv, "TMPDIR=") || kv == "HOME=/tmp" {
			continue
		}
		out = append(out, kv)
	}
	out = append(out, "TMPDIR="+tmp)
	for _, kv := range env {
		if kv == "HOME=/tmp" {
			out = append(out, "HOME="+tmp)
		}
	}
	return out
}

func isDir(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
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
		Setsid:                     true,
		AmbientCaps:                initCaps,
		// Become the namespace's root, which is id outside: until then
		// the child keeps the judge's credentials.
		Credential: &syscall.Credential{Uid: 0, Gid: 0, NoSetGroups: true},
	}
}

// PathsOf lists what a command needs to see, for Spec.ReadOnly: dir, and
// for every argument naming an existing file its directory, or the
// directory it names (a Java class path). Arguments are taken relative to
// dir, or to the current directory when dir is empty.
func PathsOf(argv []string, dir string) []string {
	var out []string
	seen := map[string]bool{}
	add := func(p string) {
		if p, err := filepath.Abs(p); err == nil && !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	if dir != "" {
		add(dir)
	}
	for i, a := range argv {
		if a == "" || strings.HasPrefix(a, "-") || i == 0 && !strings.Contains(a, "/") {
			continue
		}
		p := a
		if !filepath.IsAbs(p) && dir != "" {
			p = filepath.Join(dir, p)
		}
		st, err := os.Stat(p)
		switch {
		case err != nil:
		case st.IsDir():
			add(p)
		default:
			add(filepath.Dir(p))
		}
	}
	return out
}

// pyenvProgram resolves a program that the judge's PATH finds first as a
// pyenv shim (a script that runs pyenv, which the sandbox does not show)
// to the interpreter it stands for, with its installation directory.
// Only the global version ($PYENV_VERSION, else $PYENV_ROOT/version)
// counts. It returns "" when argv0 is no pyenv shim.
func pyenvProgram(argv0 string, env []string) (real, install string) {
	if strings.Contains(argv0, "/") {
		return "", ""
	}
	path, err := exec.LookPath(argv0)
	if err != nil || filepath.Base(filepath.Dir(path)) != "shims" {
		return "", ""
	}
	root := filepath.Dir(filepath.Dir(path))
	version := os.Getenv("PYENV_VERSION")
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "PYENV_VERSION="); ok {
			version = v
		}
	}
	if version == "" {
		b, err := os.ReadFile(filepath.Join(root, "version"))
		if err != nil {
			return "", ""
		}
		version = strings.TrimSpace(strings.SplitN(string(b), "\n", 2)[0])
	}
	install = filepath.Join(root, "versions", version)
	real = filepath.Join(install, "bin", argv0)
	if st, err := os.Stat(real); err != nil || st.IsDir() {
		return "", ""
	}
	return real, install
}

// configFor works out what the init of spec's sandbox is told: the
// program, its arguments (made absolute when they name visible files), its
// directory and environment, and the directories shown read-only and
// writable.
func configFor(spec Spec) (cfg *wire.Config, ro, rw []string, err error) {
	cwd, err := os.Getwd()
	if err != nil {
		return nil, nil, nil, fmt.Errorf("sandbox: %w", err)
	}
	abs := func(p string) string {
		if filepath.IsAbs(p) {
			return filepath.Clean(p)
		}
		return filepath.Join(cwd, p)
	}
	base := cwd
	if spec.Dir != "" {
		base = abs(spec.Dir)
	}
	for _, p := range spec.ReadOnly {
		p = abs(p)
		// The system's directories are shown read-only anyway, some
		// through symbolic links (/bin to usr/bin): one of them is not
		// shown again (a program such as /bin/cat).
		system := false
		for _, d := range wire.SystemDirs {
			system = system || wire.Under(p, d)
		}
		if !system {
			ro = append(ro, p)
		}
	}
	for _, p := range spec.Writable {
		rw = append(rw, abs(p))
	}
	visible := func(p string) bool {
		for _, d := range append(append(append([]string(nil), wire.SystemDirs...), ro...), rw...) {
			if wire.Under(p, d) {
				return true
			}
		}
		return false
	}
	cfg = &wire.Config{Env: spec.Env, Uid: -1, Gid: -1, TmpSize: spec.Limits.TmpSize}
	if cfg.Env == nil {
		cfg.Env = []string{}
	}
	// The program and the arguments that name files.
	cfg.Argv = append([]string(nil), spec.Argv...)
	for i := 1; i < len(cfg.Argv); i++ {
		if a := cfg.Argv[i]; !filepath.IsAbs(a) && a != "" && !strings.HasPrefix(a, "-") {
			p := filepath.Join(base, a)
			if _, err := os.Stat(p); err == nil && visible(p) {
				cfg.Argv[i] = p
			}
		}
	}
	if real, install := pyenvProgram(spec.Argv[0], spec.Env); real != "" {
		// The interpreter the user's shell would run, not the system's.
		ro = append(ro, install)
	}
	cfg.Path, err = findProgram(spec.Argv[0], base, spec.Env, visible)
	if err != nil {
		return nil, nil, nil, err
	}
	if real, _ := pyenvProgram(spec.Argv[0], spec.Env); real != "" {
		// Python finds its library from argv[0].
		cfg.Path, cfg.Argv[0] = real, real
	}
	switch {
	case spec.Dir != "" && visible(base):
		cfg.Dir = base
	case spec.Dir != "":
		return nil, nil, nil, fmt.Errorf("sandbox: working directory %s is not shown to the program (add it to the read-only paths)", base)
	case visible(cwd):
		cfg.Dir = cwd
	case len(ro) > 0 && isDir(ro[0]):
		cfg.Dir = ro[0]
	default:
		cfg.Dir = "/"
	}
	if os.Geteuid() == 0 {
		for _, p := range append([]string{cfg.Path}, ro...) {
			if err := othersCanRead(p); err != nil {
				return nil, nil, nil, err
			}
		}
	}
	return cfg, ro, rw, nil
}
