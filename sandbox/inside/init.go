//go:build linux

// Package inside is the sandbox's side within its namespaces: the init
// that the judge's binary becomes when package sandbox runs it again
// (Main), which builds the sandbox's file system (mount.go), starts the
// program under Landlock (landlock.go), a seccomp filter (seccomp.go) and
// its limits, from a thread of its own (fork.go), or at level basic
// through a restricted parent (exec.go), and reports how it ended; and
// the init of a reusable sandbox (slot.go), which runs one program after
// another, freezes them without tearing their writes (stop.go) and
// checks that none changed it (intact.go). The judge talks to it only over the files it is started
// with, in the terms of package sandbox/internal/wire.
package inside

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"os/signal"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"

	"judge/sandbox/internal/kernel"
	"judge/sandbox/internal/wire"
)

// Main runs the sandbox's init when the program was started as one (the
// judge's binary run again by package sandbox as wire.InitName or
// wire.SlotName), and never returns then; otherwise it returns at once.
// Package sandbox's Init calls it. A program's restricted parent
// (wire.ExecName) was run earlier, by this package's init.
func Main() {
	if len(os.Args) != 1 {
		return
	}
	switch os.Args[0] {
	case wire.InitName:
		runInit()
	case wire.SlotName:
		runSlot()
	}
}

// runInit is the sandbox's init: PID 1 of the namespaces (or a
// subreaper without them). It prepares the file system, starts the
// program through runExec, relays freeze commands, reaps everything, and
// when the program ends, ends the rest and reports.
func runInit() {
	ctl := os.NewFile(3, "control")
	st := os.NewFile(4, "status")
	closeOnExecFrom3()
	fail := func(err error) {
		wire.WriteMsg(st, wire.Message{Err: err.Error()})
		os.Exit(1)
	}
	cfg, err := wire.ReadConfig(ctl)
	if err != nil {
		fail(err)
	}
	ns := cfg.Mode == wire.ModeInit || cfg.Mode == wire.ModeProbe
	if ns {
		if err := enterRoot(cfg); err != nil {
			fail(err)
		}
	}
	if cfg.Mode == wire.ModeProbe {
		answerProbe(cfg, st, fail)
	}
	if !ns {
		_ = unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
	}
	catchSignals()

	spareThreads(8)
	var bot int
	if ns {
		bot, err = startProgram(cfg)
	} else {
		bot, err = startStaged(cfg)
	}
	if err != nil {
		fail(err)
	}
	// The program holds its standard files now; the init lets go of
	// them, so that the judge sees them close when the program closes
	// them.
	if !nullStdio() {
		for fd := 0; fd < 3; fd++ {
			unix.Close(fd)
		}
	}
	wire.WriteMsg(st, wire.Message{Pid: bot})

	// The judge looks the program up among the init's children before it
	// says go ('G'): until then the program is not reaped.
	goOn := make(chan struct{})
	go relayControl(ctl, ns, bot, goOn)
	<-goOn
	status := reapAll(ns, bot)
	var ru unix.Rusage
	_ = unix.Getrusage(unix.RUSAGE_CHILDREN, &ru)
	wire.WriteMsg(st, wire.Message{
		Done:   true,
		Status: int(status),
		UserUS: ru.Utime.Sec*1e6 + ru.Utime.Usec,
		SysUS:  ru.Stime.Sec*1e6 + ru.Stime.Usec,
		MaxRSS: ru.Maxrss * 1024,
	})
	os.Exit(0)
}

// answerProbe is the init of the judge's probe (Mode "probe"), which has
// entered its root: it tries the seccomp filter, reports, and exits.
func answerProbe(cfg *wire.Config, st *os.File, fail func(error)) {
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
	wire.WriteMsg(st, wire.Message{Info: strings.Join(info, "; ")})
	os.Exit(0)
}

// nullStdio points the init's standard files at /dev/null, and reports
// whether it could.
func nullStdio() bool {
	null, err := os.OpenFile("/dev/null", os.O_RDWR, 0)
	if err != nil {
		return false
	}
	for fd := 0; fd < 3; fd++ {
		_ = unix.Dup3(int(null.Fd()), fd, 0)
	}
	null.Close()
	return true
}

// relayControl reads the judge's commands on ctl: go ('G', closes goOn),
// stop ('S') and continue ('C') every process of the sandbox: of its
// namespace, without tearing their writes (stop.go), or without one, of
// bot's process group, with SIGSTOP. When ctl ends (the judge is gone or
// wants the end) it kills the rest and exits.
func relayControl(ctl *os.File, ns bool, bot int, goOn chan struct{}) {
	var stop stopper
	stopAll := func(on bool) {
		switch {
		case ns && on:
			stop.freeze()
		case ns:
			stop.thaw()
		case on:
			_ = unix.Kill(-bot, unix.SIGSTOP)
		default:
			_ = unix.Kill(-bot, unix.SIGCONT)
		}
	}
	buf := make([]byte, 64)
	for {
		n, err := ctl.Read(buf)
		for _, c := range buf[:n] {
			switch c {
			case 'G':
				close(goOn)
			case 'S':
				stopAll(true)
			case 'C':
				stopAll(false)
			}
		}
		if err != nil {
			// The judge is gone or wants the end.
			killRest(ns, bot)
			os.Exit(1)
		}
	}
}

// reapAll reaps every child until none is left, killing the rest once
// bot has ended, and returns bot's wait status.
func reapAll(ns bool, bot int) unix.WaitStatus {
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
	return status
}

// enterRoot makes the namespaces of an init ready for programs: the
// root file system of cfg, the host name, the loopback.
func enterRoot(cfg *wire.Config) error {
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
// ignored in the programs it starts. Not those whose default is to be
// ignored, which the runtime ignores unless notified: SIGCHLD (three for
// every program a slot runs, stopped, continued and ended), SIGURG (the
// runtime's own preemption), SIGWINCH; each notified one wakes the
// goroutine that drains them, on a thread of its own.
func catchSignals() {
	sigs := make(chan os.Signal, 16)
	go func() {
		for range sigs {
		}
	}()
	var caught []os.Signal
	for n := unix.Signal(1); n < 65; n++ {
		switch n {
		case unix.SIGCHLD, unix.SIGURG, unix.SIGWINCH, unix.SIGKILL, unix.SIGSTOP:
		default:
			caught = append(caught, n)
		}
	}
	signal.Notify(sigs, caught...)
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
// judge's binary again (runExec), which execs it: at level basic, where
// the init shares the host's /proc, so that Landlock's rule for
// /proc/self names the program's own.
func startStaged(cfg *wire.Config) (int, error) {
	return startStagedWith(cfg, os.Stdin, os.Stdout, os.Stderr)
}

// startStagedWith is startStaged with the program's standard files.
func startStagedWith(cfg *wire.Config, stdin, stdout, stderr *os.File) (int, error) {
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
	proc, err := os.StartProcess("/proc/self/exe", []string{wire.ExecName}, &os.ProcAttr{
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

// startProgram restricts one thread of the init (restrictSelf) and
// starts the program from it (forkStart), which saves starting the
// judge's binary once more. The thread is never used again.
func startProgram(cfg *wire.Config) (int, error) {
	type result struct {
		pid int
		err error
	}
	ch := make(chan result, 1)
	goOffMain(func() { // never unlocked: the thread is spoiled
		pid, err := func() (int, error) {
			r, err := restrictSelf(cfg)
			if err != nil {
				return 0, err
			}
			run := wire.Run{Path: cfg.Path, Argv: cfg.Argv, Dir: cfg.Dir, Env: cfg.Env}
			return forkStart(cfg, run, r, -1, [3]int{0, 1, 2}, nil, cfg.Rlimits)
		}()
		ch <- result{pid, err}
		// The thread stays, parked, as the parent of the program: the
		// judge finds the program among its children.
		select {}
	})
	res := <-ch
	return res.pid, res.err
}

// killRest kills every process the program left: the whole namespace, or
// without one, its process group and whatever was reparented to the init
// (a subreaper), until none is left.
func killRest(ns bool, bot int) {
	if ns {
		killAll()
		return
	}
	_ = unix.Kill(-bot, unix.SIGKILL)
	_ = unix.Kill(-bot, unix.SIGCONT)
	for i := 0; i < 1000; i++ {
		kids := kernel.Children(os.Getpid())
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

// killAll kills every process of the PID namespace but the init, frozen
// ones too.
func killAll() {
	_ = unix.Kill(-1, unix.SIGKILL)
	_ = unix.Kill(-1, unix.SIGCONT)
}

// closeOnExecFrom3 marks every file descriptor from 3 up close-on-exec:
// the ones this process was started with, which it hands on by number
// where a program needs them, and any the judge itself inherited without
// the flag from whoever started it (a shell's 7>log, make's jobserver),
// at any number, which no program may get.
func closeOnExecFrom3() {
	if unix.CloseRange(3, math.MaxUint32, unix.CLOSE_RANGE_CLOEXEC) == nil {
		return
	}
	// Before Linux 5.11: the descriptors open now, as /proc lists them,
	// or else every number up to the limit on open files, and past it
	// (an inherited descriptor may lie above a limit lowered since).
	if entries, err := os.ReadDir("/proc/self/fd"); err == nil {
		for _, e := range entries {
			if fd, err := strconv.Atoi(e.Name()); err == nil && fd >= 3 {
				unix.CloseOnExec(fd)
			}
		}
		return
	}
	n := uint64(4096)
	var lim unix.Rlimit
	if unix.Getrlimit(unix.RLIMIT_NOFILE, &lim) == nil && lim.Max > n && lim.Max < 1<<20 {
		n = lim.Max
	}
	for fd := 3; uint64(fd) < n; fd++ {
		unix.CloseOnExec(fd)
	}
}

// The judge's binary, run again as a program's restricted parent, becomes
// one here, before the packages that only the judge needs (its database,
// its web server, its players) are initialized: Go initializes a package
// once the packages it imports are, and those of this one are few. A
// restricted parent starts for every program at level basic; skipping
// the rest takes about a quarter off its CPU time
// (docs/benchmarks.md). The inits wait for Main, which package sandbox's
// Init calls: during the packages' initialization the main goroutine is
// locked to the main thread, which would cost them a hand-off between
// threads at every wait, where runExec runs on one thread anyway.
func init() {
	if len(os.Args) == 1 && os.Args[0] == wire.ExecName {
		runExec()
	}
}
