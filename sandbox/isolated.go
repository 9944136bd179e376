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
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// nobody is the id a program runs as when the judge runs as root.
const nobody = 65534

// nsFlagsAll are the namespaces of an isolated sandbox.
const nsCloneFlags = syscall.CLONE_NEWUSER | syscall.CLONE_NEWPID | syscall.CLONE_NEWNS |
	syscall.CLONE_NEWNET | syscall.CLONE_NEWIPC | syscall.CLONE_NEWUTS | syscall.CLONE_NEWCGROUP

// initCaps are the capabilities the init keeps, in its own user namespace
// only, to build the sandbox: the usual rules of exec as root do not grant
// them when the judge's binary belongs to an id not mapped there.
var initCaps = []uintptr{unix.CAP_SYS_ADMIN, unix.CAP_NET_ADMIN, unix.CAP_SETPCAP,
	unix.CAP_DAC_OVERRIDE, unix.CAP_CHOWN, unix.CAP_FOWNER, unix.CAP_SYS_CHROOT}

// startIsolated runs spec under an init at level Full, Namespaces or
// Basic (which uses cgroups too where the machine has them).
func startIsolated(spec Spec, level Level, pr *Report, auto bool) (*Process, error) {
	if !initCalled {
		return nil, errors.New("sandbox: sandbox.Init was not called at the start of main (or TestMain)")
	}
	ns := level.rank() >= Namespaces.rank()
	var cgs *cgroupSys
	if level == Full || level == Basic {
		if s := cgroups(); s.memory || s.pids {
			cgs = s
		}
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
	cfg, ro, rw, err := configFor(spec)
	if err != nil {
		return nil, err
	}
	root := os.Geteuid() == 0
	p := &Process{level: level, done: make(chan struct{})}
	var extra []*os.File
	closeExtra := func() {
		for _, f := range extra {
			f.Close()
		}
	}
	sys := &syscall.SysProcAttr{}
	if ns {
		cfg.Mode = "init"
		id, gid := initIDs()
		sys = initAttr(nsCloneFlags, id, gid)
		for i, list := range [][]string{ro, rw} {
			for _, path := range list {
				if _, err := os.Stat(path); err != nil {
					closeExtra()
					return nil, fmt.Errorf("sandbox: %w", err)
				}
				ms := mountSpec{FD: -1, Src: path, Dst: path, Write: i == 1}
				if root {
					// The init runs as nobody and may not reach path:
					// the judge clones the tree for it.
					fd, err := unix.OpenTree(unix.AT_FDCWD, path, unix.OPEN_TREE_CLONE|unix.OPEN_TREE_CLOEXEC|unix.AT_RECURSIVE)
					if err == nil {
						extra = append(extra, os.NewFile(uintptr(fd), path))
						ms.FD = 4 + len(extra)
					}
				}
				cfg.Mounts = append(cfg.Mounts, ms)
			}
		}
		cfg.RO = []string{"/"}
		cfg.RW = append([]string{"/tmp", "/dev/shm"}, rw...)
	} else {
		cfg.Mode = "reaper"
		sys.Setpgid = true
		tmp, err := makeBasicTmp()
		if err != nil {
			return nil, fmt.Errorf("sandbox: %w", err)
		}
		p.tmpDir = tmp
		if root {
			cfg.Uid, cfg.Gid = nobody, nobody
			_ = os.Chown(tmp, nobody, nobody)
		}
		cfg.Env = withTmp(cfg.Env, tmp)
		cfg.RO = append(append([]string(nil), systemDirs...), ro...)
		cfg.RW = append([]string{tmp}, rw...)
		cfg.Proc = basicProc
	}
	if pr.landlock >= 1 {
		cfg.Landlock = pr.landlock
	}
	cfg.Seccomp = pr.seccomp && !noSeccomp
	cleanup := func() {
		closeExtra()
		if p.tmpDir != "" {
			os.RemoveAll(p.tmpDir)
		}
		if p.cg != nil {
			p.cg.remove()
		}
	}

	ctlR, ctlW, err := os.Pipe()
	if err != nil {
		cleanup()
		return nil, fmt.Errorf("sandbox: %w", err)
	}
	stR, stW, err := os.Pipe()
	if err != nil {
		ctlR.Close()
		ctlW.Close()
		cleanup()
		return nil, fmt.Errorf("sandbox: %w", err)
	}
	cmd := &exec.Cmd{
		Path:        "/proc/self/exe",
		Args:        []string{initName},
		Env:         []string{"GOMAXPROCS=2", "GORACE=atexit_sleep_ms=0"},
		Stdin:       spec.Stdin,
		Stdout:      spec.Stdout,
		Stderr:      spec.Stderr,
		ExtraFiles:  append([]*os.File{ctlR, stW}, extra...),
		SysProcAttr: sys,
	}
	err = cmd.Start()
	ctlR.Close()
	stW.Close()
	closeExtra()
	extra = nil
	if err != nil {
		ctlW.Close()
		stR.Close()
		cleanup()
		return nil, fmt.Errorf("sandbox: starting the sandbox's init: %w", err)
	}
	p.init = cmd.Process
	p.ctl = ctlW
	abort := func(err error) (*Process, error) {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		ctlW.Close()
		stR.Close()
		cleanup()
		return nil, err
	}
	if cgs != nil {
		cg, err := cgs.create(spec.Limits)
		if err != nil && level == Basic {
			// Basic asks for cgroups where they work, and does without.
			cgs, cg = nil, nil
		} else if err != nil {
			return abort(err)
		}
		p.cg = cg
	}
	if p.cg != nil {
		cg := p.cg
		if err := cg.attach(cmd.Process.Pid); err != nil {
			return abort(err)
		}
		if spec.Limits.Procs > 0 {
			if err := cg.setPids(spec.Limits.Procs + initThreads); err != nil {
				return abort(fmt.Errorf("sandbox: cgroup pids limit: %w", err))
			}
		}
	}
	lim := spec.Limits
	cgMem := p.cg != nil && cgs.memory
	nproc := ns && (p.cg == nil || !cgs.pids)
	if nproc && lim.Procs > 0 {
		lim.Procs += initThreads
	}
	cfg.Rlimits = rlimitsFor(lim, cgMem, nproc)
	cfg.Direct = true
	for _, r := range cfg.Rlimits {
		if r.Resource == unix.RLIMIT_DATA || r.Resource == unix.RLIMIT_NPROC ||
			r.Resource == unix.RLIMIT_NOFILE && r.Value < initFiles {
			cfg.Direct = false
		}
	}
	if !ns {
		// Landlock is applied in the process that execs the program, so
		// that /proc/self is the program's own.
		cfg.Direct = false
	}
	b, _ := json.Marshal(cfg)
	if _, err := ctlW.Write(append(b, '\n')); err != nil {
		return abort(fmt.Errorf("sandbox: configuring the init: %w", err))
	}
	rd := bufio.NewReader(stR)
	var m message
	line, err := rd.ReadBytes('\n')
	if err == nil {
		err = json.Unmarshal(line, &m)
	}
	switch {
	case err != nil:
		return abort(fmt.Errorf("sandbox: the init ended before starting %s: %w", spec.Argv[0], err))
	case m.Err != "":
		return abort(fmt.Errorf("sandbox: %s", m.Err))
	}
	p.pid = m.Pid
	if ns {
		kids := children(cmd.Process.Pid)
		for i := 0; len(kids) == 0 && i < 100; i++ {
			time.Sleep(time.Millisecond)
			kids = children(cmd.Process.Pid)
		}
		if len(kids) == 0 {
			return abort(errors.New("sandbox: the program vanished as it started"))
		}
		p.pid = kids[0]
	}
	if _, err := ctlW.Write([]byte{'G'}); err != nil {
		return abort(fmt.Errorf("sandbox: the init ended early: %w", err))
	}
	var cgSys *cgroupSys
	if p.cg != nil {
		cgSys = cgs
	}
	p.desc = describe(level, pr, cgSys)
	go p.waitIsolated(cmd, rd, stR)
	if p.tmpDir != "" {
		go p.watchTmp(p.tmpDir, spec.Limits.TmpSize)
	}
	p.wallTimer(spec.Limits.Wall)
	return p, nil
}

// waitIsolated waits for the init to end and records how the program
// ended.
func (p *Process) waitIsolated(cmd *exec.Cmd, rd *bufio.Reader, stR *os.File) {
	w := waitCmd(cmd)
	var final message
	for {
		line, err := rd.ReadBytes('\n')
		if len(line) > 0 {
			var m message
			if json.Unmarshal(line, &m) == nil && m.Done {
				final = m
			}
		}
		if err != nil {
			break
		}
	}
	stR.Close()
	p.ctlMu.Lock()
	p.ctl.Close()
	p.ctlMu.Unlock()
	e := Exit{Code: -1}
	if final.Done {
		e.Code, e.Signal = fromWaitStatus(syscall.WaitStatus(final.Status))
		e.CPU = durationUS(final.UserUS + final.SysUS)
		e.MaxRSS = final.MaxRSS
	} else if w.ok {
		// The init itself was killed (by the judge, or for memory).
		e.Code, e.Signal = fromWaitStatus(w.status)
		e.CPU = w.cpu
	}
	if p.level.rank() < Namespaces.rank() {
		_ = unix.Kill(-p.pid, unix.SIGKILL)
	}
	if p.cg != nil {
		e.OOM = p.cg.oom()
		if d, err := p.cg.cpu(); err == nil {
			e.CPU = d
		}
		if n := p.cg.peak(); n > 0 {
			e.MaxRSS = n
		}
		p.cg.killAll()
		_ = p.cg.freeze(false)
		p.cg.remove()
	}
	if p.tmpDir != "" {
		os.RemoveAll(p.tmpDir)
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
func configFor(spec Spec) (cfg *config, ro, rw []string, err error) {
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
		for _, d := range systemDirs {
			system = system || under(p, d)
		}
		if !system {
			ro = append(ro, p)
		}
	}
	for _, p := range spec.Writable {
		rw = append(rw, abs(p))
	}
	visible := func(p string) bool {
		for _, d := range append(append(append([]string(nil), systemDirs...), ro...), rw...) {
			if under(p, d) {
				return true
			}
		}
		return false
	}
	cfg = &config{Env: spec.Env, Uid: -1, Gid: -1, TmpSize: spec.Limits.TmpSize}
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
