package sandbox

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// The names the program is run again under, as os.Args[0], to be the
// sandbox's init and, briefly, the program's restricted parent.
const (
	initName = "judge-sandbox-init"
	execName = "judge-sandbox-exec"
)

// initFiles is the open-file limit below which the init does not take
// the program's limit on itself (config.Direct): it holds descriptors of
// its own (the Go runtime's, its control socket, the files of a run
// request), and a program's limit is then set by its restricted parent.
const initFiles = 64

// initCalled is set by Init, so that Start can refuse to run an init that
// would not recognize itself.
var initCalled bool

// Init must be called first thing in main (and in TestMain of every test
// binary that starts sandboxed processes): when the program was started
// as a sandbox's init it runs the init and never returns; otherwise it
// returns at once.
func Init() {
	initCalled = true
	if len(os.Args) != 1 {
		return
	}
	switch os.Args[0] {
	case initName:
		runInit()
	case execName:
		runExec()
	case slotName:
		runSlot()
	}
}

// config is what the judge tells the init, and the init the program's
// restricted parent.
type config struct {
	Mode    string      `json:"mode"` // "init" (PID 1 of namespaces), "reaper" (no namespaces), "probe"
	Path    string      `json:"path"`
	Argv    []string    `json:"argv"`
	Dir     string      `json:"dir"`
	Env     []string    `json:"env"`
	Mounts  []mountSpec `json:"mounts,omitempty"`
	TmpSize int64       `json:"tmp_size,omitempty"`
	Rlimits []rlimit    `json:"rlimits,omitempty"`
	// Base are limits (resource, soft, hard) the restricted parent sets
	// before Rlimits: a reused sandbox's programs get every limit from
	// the init's record, not from what the init has now.
	Base     [][3]uint64 `json:"base,omitempty"`
	Landlock int         `json:"landlock,omitempty"` // ABI to use; 0 for none
	RO       []string    `json:"ro,omitempty"`       // Landlock: read and execute
	RW       []string    `json:"rw,omitempty"`       // Landlock: everything
	Proc     []string    `json:"proc,omitempty"`     // Landlock: the paths of /proc shown (all when empty)
	Seccomp  bool        `json:"seccomp,omitempty"`
	Direct   bool        `json:"direct,omitempty"` // the init applies the restrictions itself (no rlimit would bind it)
	// A reusable sandbox's init (slot.go): where its programs start. On
	// cgroup v1, the tasks files of the cgroup run, one per controller;
	// on v2, the directory of run. Descriptors; 0 for none.
	RunTasks  []int `json:"run_tasks,omitempty"`
	InitTasks []int `json:"init_tasks,omitempty"` // v1: the init's own, to go back to
	RunCgroup int   `json:"run_cgroup,omitempty"`
	Uid       int   `json:"uid"` // -1 to keep
	Gid       int   `json:"gid"`
}

// mountSpec is a file or directory to show at Dst: a mount tree the judge
// cloned (FD in the init, or -1), else the path Src.
type mountSpec struct {
	FD    int    `json:"fd"`
	Src   string `json:"src,omitempty"`
	Dst   string `json:"dst"`
	Write bool   `json:"write,omitempty"`
}

// message is what the init tells the judge: the program started (Pid),
// could not (Err), or ended (Done).
type message struct {
	Err    string `json:"err,omitempty"`
	Pid    int    `json:"pid,omitempty"`
	Done   bool   `json:"done,omitempty"`
	Status int    `json:"status,omitempty"` // wait status
	UserUS int64  `json:"user_us,omitempty"`
	SysUS  int64  `json:"sys_us,omitempty"`
	MaxRSS int64  `json:"max_rss,omitempty"`
	Info   string `json:"info,omitempty"`
}

func readConfig(f *os.File) (*config, error) {
	line, err := bufio.NewReader(f).ReadBytes('\n')
	if err != nil {
		return nil, fmt.Errorf("reading the sandbox config: %w", err)
	}
	var c config
	if err := json.Unmarshal(line, &c); err != nil {
		return nil, fmt.Errorf("sandbox config: %w", err)
	}
	return &c, nil
}

func writeMsg(w io.Writer, m message) {
	b, _ := json.Marshal(m)
	_, _ = w.Write(append(b, '\n'))
}

// runInit is the sandbox's init: PID 1 of the namespaces (or a
// subreaper without them). It prepares the file system, starts the
// program through runExec, relays freeze commands, reaps everything, and
// when the program ends, ends the rest and reports.
func runInit() {
	ctl := os.NewFile(3, "control")
	st := os.NewFile(4, "status")
	for fd := 3; fd < 64; fd++ {
		unix.CloseOnExec(fd)
	}
	fail := func(err error) {
		writeMsg(st, message{Err: err.Error()})
		os.Exit(1)
	}
	cfg, err := readConfig(ctl)
	if err != nil {
		fail(err)
	}
	ns := cfg.Mode == "init" || cfg.Mode == "probe"
	if ns {
		if err := enterRoot(cfg); err != nil {
			fail(err)
		}
	}
	if cfg.Mode == "probe" {
		runtime.LockOSThread()
		var info []string
		if cfg.Seccomp {
			if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
				fail(fmt.Errorf("no_new_privs: %w", err))
			}
			if err := installSeccomp(); err != nil {
				info = append(info, "seccomp: "+err.Error())
			}
		}
		writeMsg(st, message{Info: strings.Join(info, "; ")})
		os.Exit(0)
	}
	if !ns {
		_ = unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
	}
	catchSignals()

	spareThreads(8)
	var bot int
	if cfg.Direct {
		bot, err = startDirect(cfg, ns)
	} else {
		bot, err = startStaged(cfg)
	}
	if err != nil {
		fail(err)
	}
	// The program holds its standard files now; the init lets go of
	// them, so that the judge sees them close when the program closes
	// them.
	if null, err := os.OpenFile("/dev/null", os.O_RDWR, 0); err == nil {
		for fd := 0; fd < 3; fd++ {
			_ = unix.Dup3(int(null.Fd()), fd, 0)
		}
		null.Close()
	} else {
		for fd := 0; fd < 3; fd++ {
			unix.Close(fd)
		}
	}
	writeMsg(st, message{Pid: bot})

	stopAll := func(sig unix.Signal) {
		if ns {
			_ = unix.Kill(-1, sig)
		} else {
			_ = unix.Kill(-bot, sig)
		}
	}
	// The judge looks the program up among the init's children before it
	// says go ('G'): until then the program is not reaped.
	goOn := make(chan struct{})
	go func() {
		buf := make([]byte, 64)
		for {
			n, err := ctl.Read(buf)
			for _, c := range buf[:n] {
				switch c {
				case 'G':
					close(goOn)
				case 'S':
					stopAll(unix.SIGSTOP)
				case 'C':
					stopAll(unix.SIGCONT)
				}
			}
			if err != nil {
				// The judge is gone or wants the end.
				killRest(ns, bot)
				os.Exit(1)
			}
		}
	}()

	<-goOn
	var status unix.WaitStatus
	for {
		var ws unix.WaitStatus
		pid, err := unix.Wait4(-1, &ws, 0, nil)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			break
		}
		if pid == bot {
			status = ws
			killRest(ns, bot)
		}
	}
	var ru unix.Rusage
	_ = unix.Getrusage(unix.RUSAGE_CHILDREN, &ru)
	writeMsg(st, message{
		Done:   true,
		Status: int(status),
		UserUS: ru.Utime.Sec*1e6 + ru.Utime.Usec,
		SysUS:  ru.Stime.Sec*1e6 + ru.Stime.Usec,
		MaxRSS: ru.Maxrss * 1024,
	})
	os.Exit(0)
}

// enterRoot makes the namespaces of an init ready for programs: the
// root file system of cfg, the host name, the loopback.
func enterRoot(cfg *config) error {
	_ = unix.Prctl(unix.PR_SET_DUMPABLE, 0, 0, 0, 0)
	if err := setupRoot(cfg); err != nil {
		return err
	}
	_ = unix.Sethostname([]byte("sandbox"))
	if err := loopbackUp(); err != nil {
		return fmt.Errorf("loopback: %w", err)
	}
	return nil
}

// catchSignals keeps an init from dying of the signals a program may
// send it: every signal. The kernel spares the init of a PID namespace
// only the signals it has no handler for, and the Go runtime has one for
// every signal; a SIGILL or SIGSEGV sent with kill or tgkill (as a
// program can to the thread of the init that forked it, which shares
// its Landlock domain while it lives) would make the runtime crash
// unless notified. Caught, not ignored: an ignored signal would stay
// ignored in the programs it starts.
func catchSignals() {
	sigs := make(chan os.Signal, 16)
	go func() {
		for range sigs {
		}
	}()
	signal.Notify(sigs)
}

// spareThreads makes the Go runtime create n threads now and keep them
// idle: once the program has used up the processes its cgroup allows, the
// init could not create one.
func spareThreads(n int) {
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			runtime.LockOSThread()
			time.Sleep(time.Millisecond)
			runtime.UnlockOSThread()
		}()
	}
	wg.Wait()
}

// startStaged starts the program through a restricted parent, the
// judge's binary again (runExec), which execs it: rlimits on memory and
// processes must not bind the init.
func startStaged(cfg *config) (int, error) {
	return startStagedWith(cfg, os.Stdin, os.Stdout, os.Stderr)
}

// startStagedWith is startStaged with the program's standard files.
func startStagedWith(cfg *config, stdin, stdout, stderr *os.File) (int, error) {
	cfgR, cfgW, err := os.Pipe()
	if err != nil {
		return 0, err
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		return 0, err
	}
	sys := &syscall.SysProcAttr{Setpgid: true}
	if cfg.RunCgroup > 0 {
		sys.UseCgroupFD, sys.CgroupFD = true, cfg.RunCgroup
	}
	if cfg.Uid >= 0 {
		sys.Credential = &syscall.Credential{Uid: uint32(cfg.Uid), Gid: uint32(cfg.Gid), Groups: []uint32{}}
	}
	proc, err := os.StartProcess("/proc/self/exe", []string{execName}, &os.ProcAttr{
		Dir:   "/",
		Env:   []string{},
		Files: []*os.File{stdin, stdout, stderr, cfgR, errW},
		Sys:   sys,
	})
	cfgR.Close()
	errW.Close()
	if err != nil {
		return 0, fmt.Errorf("starting %s: %w", cfg.Argv[0], err)
	}
	b, _ := json.Marshal(cfg)
	_, _ = cfgW.Write(append(b, '\n'))
	cfgW.Close()
	msg, _ := io.ReadAll(errR)
	errR.Close()
	if len(msg) > 0 {
		var ws unix.WaitStatus
		_, _ = unix.Wait4(proc.Pid, &ws, 0, nil)
		return 0, errors.New(string(msg))
	}
	return proc.Pid, nil
}

// startDirect restricts one thread of the init (no_new_privs, Landlock,
// no capabilities, seccomp: all per thread) and forks the program from
// it, which saves starting the judge's binary once more. The thread is
// never used again.
func startDirect(cfg *config, ns bool) (int, error) {
	for _, r := range cfg.Rlimits {
		lim := unix.Rlimit{Cur: r.Value, Max: r.Value}
		if err := unix.Setrlimit(r.Resource, &lim); err != nil {
			return 0, fmt.Errorf("setrlimit %d: %w", r.Resource, err)
		}
	}
	type result struct {
		pid int
		err error
	}
	ch := make(chan result, 1)
	go func() {
		runtime.LockOSThread() // never unlocked: the thread is spoiled
		pid, err := func() (int, error) {
			if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
				return 0, fmt.Errorf("no_new_privs: %w", err)
			}
			if cfg.Landlock > 0 {
				if err := applyLandlock(cfg.Landlock, cfg.RO, cfg.RW, cfg.Proc); err != nil {
					return 0, fmt.Errorf("landlock: %w", err)
				}
			}
			if ns {
				if err := dropCaps(); err != nil {
					return 0, fmt.Errorf("dropping capabilities: %w", err)
				}
			}
			if cfg.Seccomp {
				if err := installSeccomp(); err != nil {
					return 0, fmt.Errorf("seccomp: %w", err)
				}
			}
			sys := &syscall.SysProcAttr{Setpgid: true}
			if cfg.Uid >= 0 {
				sys.Credential = &syscall.Credential{Uid: uint32(cfg.Uid), Gid: uint32(cfg.Gid), Groups: []uint32{}}
			}
			pid, err := syscall.ForkExec(cfg.Path, cfg.Argv, &syscall.ProcAttr{
				Dir: cfg.Dir, Env: cfg.Env, Files: []uintptr{0, 1, 2}, Sys: sys,
			})
			if err != nil {
				return 0, fmt.Errorf("exec %s: %w", cfg.Path, err)
			}
			return pid, nil
		}()
		ch <- result{pid, err}
		// The thread stays, parked, as the parent of the program: the
		// judge finds the program among its children.
		select {}
	}()
	r := <-ch
	return r.pid, r.err
}

// killRest kills every process the program left: the whole namespace, or
// without one, its process group and whatever was reparented to the init
// (a subreaper), until none is left.
func killRest(ns bool, bot int) {
	if ns {
		_ = unix.Kill(-1, unix.SIGKILL)
		_ = unix.Kill(-1, unix.SIGCONT)
		return
	}
	_ = unix.Kill(-bot, unix.SIGKILL)
	_ = unix.Kill(-bot, unix.SIGCONT)
	for i := 0; i < 1000; i++ {
		kids := children(os.Getpid())
		if len(kids) == 0 {
			return
		}
		for _, k := range kids {
			_ = unix.Kill(k, unix.SIGKILL)
			_ = unix.Kill(k, unix.SIGCONT)
			var ws unix.WaitStatus
			_, _ = unix.Wait4(k, &ws, unix.WNOHANG, nil)
		}
		time.Sleep(time.Millisecond)
	}
}

// children lists the child processes of pid (of all its threads).
func children(pid int) []int {
	var out []int
	var buf [4096]byte
	for _, tid := range listTasks(pid, nil) {
		fd, err := unix.Open(fmt.Sprintf("/proc/%d/task/%d/children", pid, tid), unix.O_RDONLY|unix.O_CLOEXEC, 0)
		if err != nil {
			continue
		}
		var b []byte
		for {
			n, err := unix.Read(fd, buf[:])
			if err != nil || n <= 0 {
				break
			}
			b = append(b, buf[:n]...)
		}
		unix.Close(fd)
		for _, f := range strings.Fields(string(b)) {
			if n, err := strconv.Atoi(f); err == nil {
				out = append(out, n)
			}
		}
	}
	return out
}

// runExec is the program's restricted parent: it applies rlimits,
// no_new_privs, Landlock, drops every capability, installs the seccomp
// filter and execs the program, all in one thread.
func runExec() {
	runtime.LockOSThread()
	errPipe := os.NewFile(4, "error")
	unix.CloseOnExec(3)
	unix.CloseOnExec(4)
	fail := func(err error) {
		_, _ = errPipe.WriteString(err.Error())
		os.Exit(127)
	}
	cfg, err := readConfig(os.NewFile(3, "config"))
	if err != nil {
		fail(err)
	}
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		fail(fmt.Errorf("no_new_privs: %w", err))
	}
	if cfg.Landlock > 0 {
		if err := applyLandlock(cfg.Landlock, cfg.RO, cfg.RW, cfg.Proc); err != nil {
			fail(fmt.Errorf("landlock: %w", err))
		}
	}
	if cfg.Mode == "init" {
		if err := dropCaps(); err != nil {
			fail(fmt.Errorf("dropping capabilities: %w", err))
		}
	}
	if err := os.Chdir(cfg.Dir); err != nil {
		fail(fmt.Errorf("working directory: %w", err))
	}
	if cfg.Seccomp {
		if err := installSeccomp(); err != nil {
			fail(fmt.Errorf("seccomp: %w", err))
		}
	}
	// Last, so that the rlimits bind the Go runtime as little as can be:
	// everything exec needs is made first, and from the first setrlimit to
	// the exec nothing is allocated and no collection runs. (A runtime
	// that grew its heap past a low RLIMIT_DATA in that window would die
	// of "out of memory", as a race-enabled test binary did under load.)
	path, err := syscall.BytePtrFromString(cfg.Path)
	if err != nil {
		fail(fmt.Errorf("exec %s: %w", cfg.Path, err))
	}
	argv, err := syscall.SlicePtrFromStrings(cfg.Argv)
	if err != nil {
		fail(fmt.Errorf("exec %s: %w", cfg.Path, err))
	}
	envv, err := syscall.SlicePtrFromStrings(cfg.Env)
	if err != nil {
		fail(fmt.Errorf("exec %s: %w", cfg.Path, err))
	}
	res := make([]int, 0, len(cfg.Base)+len(cfg.Rlimits))
	lims := make([]unix.Rlimit, 0, cap(res))
	for _, b := range cfg.Base {
		res = append(res, int(b[0]))
		lims = append(lims, unix.Rlimit{Cur: b[1], Max: b[2]})
	}
	for _, r := range cfg.Rlimits {
		res = append(res, r.Resource)
		lims = append(lims, unix.Rlimit{Cur: r.Value, Max: r.Value})
	}
	debug.SetGCPercent(-1)
	for i, r := range res {
		_, _, e := unix.RawSyscall(unix.SYS_SETRLIMIT, uintptr(r), uintptr(unsafe.Pointer(&lims[i])), 0)
		if e != 0 {
			fail(fmt.Errorf("setrlimit %d: %w", r, e))
		}
	}
	_, _, e := unix.RawSyscall(unix.SYS_EXECVE, uintptr(unsafe.Pointer(path)),
		uintptr(unsafe.Pointer(&argv[0])), uintptr(unsafe.Pointer(&envv[0])))
	fail(fmt.Errorf("exec %s: %w", cfg.Path, e))
}

// dropCaps leaves the thread with no capabilities, now or after exec, even
// as root of its user namespace.
func dropCaps() error {
	last := 40
	if b, err := os.ReadFile("/proc/sys/kernel/cap_last_cap"); err == nil {
		if n, err := strconv.Atoi(strings.TrimSpace(string(b))); err == nil {
			last = n
		}
	}
	for c := 0; c <= last; c++ {
		if err := unix.Prctl(unix.PR_CAPBSET_DROP, uintptr(c), 0, 0, 0); err != nil && err != unix.EINVAL {
			return err
		}
	}
	_ = unix.Prctl(unix.PR_CAP_AMBIENT, unix.PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0)
	const secbits = 1<<0 | 1<<1 | 1<<2 | 1<<3 | 1<<5 // NOROOT, NO_SETUID_FIXUP, KEEP_CAPS off, all locked
	if err := unix.Prctl(unix.PR_SET_SECUREBITS, secbits, 0, 0, 0); err != nil {
		return err
	}
	hdr := unix.CapUserHeader{Version: unix.LINUX_CAPABILITY_VERSION_3}
	var data [2]unix.CapUserData
	return unix.Capset(&hdr, &data[0])
}

// loopbackUp brings up the network namespace's own loopback.
func loopbackUp() error {
	fd, err := unix.Socket(unix.AF_INET, unix.SOCK_DGRAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return err
	}
	defer unix.Close(fd)
	ifr, err := unix.NewIfreq("lo")
	if err != nil {
		return err
	}
	ifr.SetUint16(unix.IFF_UP | unix.IFF_LOOPBACK | unix.IFF_RUNNING)
	return unix.IoctlIfreq(fd, unix.SIOCSIFFLAGS, ifr)
}

// under reports whether path p is dir or inside it.
func under(p, dir string) bool {
	if dir == "/" {
		return true
	}
	return p == dir || strings.HasPrefix(p, dir+"/")
}
