//go:build linux

package inside

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"runtime"
	"sort"
	"strconv"
	"syscall"
	"time"

	"golang.org/x/sys/unix"

	"judge/sandbox/internal/kernel"
	"judge/sandbox/internal/wire"
)

// runSlot is the init of a reusable sandbox: PID 1 of its namespaces. It
// builds the file system once, then runs one program after another, each
// on command (a packet with a wire.Run and the program's three
// standard files). Programs are started from a thread that nothing else
// uses (readyThread), with a mount namespace of its own copied from the
// slot's, with a fresh /tmp, /dev/shm and /dev/mqueue, an IPC namespace
// of its own, and the restrictions of restrictSelf and forkStart. When
// the program ends, the init kills every process left in the PID namespace
// and reaps them all before it reports, so that the next program finds
// nothing of it: its processes die with it, and the thread starts the
// next program only if the program left nothing in its namespaces (no
// file at any depth of /tmp, /dev/shm or /dev/mqueue, no System V IPC
// object: see traces); otherwise the thread ends, its namespaces with
// it, and a new one is made for the next program.
func runSlot() {
	const ctl = 3
	st := os.NewFile(4, "status")
	closeOnExecFrom3()
	cfg, intact, err := setUpSlot(ctl)
	if err != nil {
		wire.WriteMsg(st, wire.Message{Err: err.Error()})
		os.Exit(1)
	}
	nullStdio()
	wire.WriteMsg(st, wire.Message{Info: "ready"})

	var stop stopper
	goOn := make(chan struct{}, 1)
	// The thread that starts the next program is made ready between
	// programs (prepareThread); the reader of the control socket hands it
	// the run request, and it answers the judge itself: a start costs two
	// wake-ups, the thread's and the judge's.
	readyCh := make(chan *readyThread, 1)
	ctlFile := pollable(ctl)
	if ctlFile != nil && pidfdWaits() {
		// Every wait of the init is in the poller or a channel (the
		// control socket, the program's end, the ready thread): one P
		// serves, and spares the runtime the wake-ups of idle threads
		// looking for work on the second (a tenth of the sandbox's CPU
		// time in a tournament of short matches).
		runtime.GOMAXPROCS(1)
	}
	go slotControl(ctl, ctlFile, &stop, goOn, readyCh)

	var next *readyThread
	for {
		stop.thaw() // nothing of a freeze of the previous program goes on
		var before unix.Rusage
		_ = unix.Getrusage(unix.RUSAGE_CHILDREN, &before)
		// No program runs now: what the last one changed is there to see.
		spoiled := intact.check()
		if next == nil {
			next = prepareThread(cfg, ctl)
		}
		next.spoiled = spoiled
		readyCh <- next
		r := <-next.done // the judge has been answered
		if r.err != nil {
			next = nil // the thread ended
			continue
		}
		<-goOn
		status, botRU := reapProgram(r.pid, r.pidfd)
		var after unix.Rusage
		_ = unix.Getrusage(unix.RUSAGE_CHILDREN, &after)
		us := func(t unix.Timeval) int64 { return t.Sec*1e6 + t.Usec }
		wire.WriteMsg(st, wire.Message{
			Done:   true,
			Status: int(status),
			UserUS: us(after.Utime) - us(before.Utime),
			SysUS:  us(after.Stime) - us(before.Stime),
			MaxRSS: botRU.Maxrss * 1024,
		})
	}
}

// setUpSlot reads the slot's config from ctl, builds its file system,
// and notes what every program starts from: the limits, and the init's
// state that no program may change.
func setUpSlot(ctl int) (*wire.Config, *initState, error) {
	buf := make([]byte, 4<<20)
	n, _, _, _, err := unix.Recvmsg(ctl, buf, nil, 0)
	if err != nil || n == 0 {
		return nil, nil, fmt.Errorf("reading the sandbox config: %v", err)
	}
	var cfg wire.Config
	if err := json.Unmarshal(buf[:n], &cfg); err != nil {
		return nil, nil, fmt.Errorf("sandbox config: %w", err)
	}
	if err := enterRoot(&cfg); err != nil {
		return nil, nil, err
	}
	catchSignals()
	spareThreads(8)
	// The limits every program starts from, set anew for each by its
	// forked child (forkStart): the init's own, as the judge gave them,
	// before any program ran.
	base, err := kernel.LimitsOf(0)
	if err != nil {
		return nil, nil, err
	}
	cfg.Base = baseLimits(&base)
	intact, err := captureState()
	if err != nil {
		return nil, nil, err
	}
	return &cfg, intact, nil
}

// slotControl reads the judge's commands on the control socket: a byte
// (go, stop, continue, kill) or a run request with three files, which
// it hands to the ready thread. When the socket ends (the judge is gone
// or wants the end), it kills every process and exits.
func slotControl(ctl int, ctlFile *os.File, stop *stopper, goOn chan<- struct{}, readyCh <-chan *readyThread) {
	buf := make([]byte, 4<<20)
	oob := make([]byte, unix.CmsgSpace(3*4))
	var rc syscall.RawConn
	rcErr := errors.New("no poller")
	if ctlFile != nil {
		rc, rcErr = ctlFile.SyscallConn()
	}
	for {
		var n, oobn int
		var err error
		if rcErr != nil {
			n, oobn, _, _, err = unix.Recvmsg(ctl, buf, oob, unix.MSG_CMSG_CLOEXEC)
		} else if perr := rc.Read(func(fd uintptr) bool {
			n, oobn, _, _, err = unix.Recvmsg(int(fd), buf, oob, unix.MSG_CMSG_CLOEXEC|unix.MSG_DONTWAIT)
			return err != unix.EAGAIN
		}); perr != nil {
			err = perr
		}
		if err == unix.EINTR {
			continue
		}
		if err != nil || n == 0 {
			// The judge is gone or wants the end.
			killAll()
			os.Exit(0)
		}
		if n == 1 {
			switch buf[0] {
			case 'G':
				goOn <- struct{}{}
			case 'S':
				stop.freeze()
			case 'C':
				stop.thaw()
			case 'K':
				stop.thaw()
				killAll()
			}
			continue
		}
		var req runRequest
		if msgs, err := unix.ParseSocketControlMessage(oob[:oobn]); err == nil {
			for _, m := range msgs {
				if fds, err := unix.ParseUnixRights(&m); err == nil {
					req.fds = append(req.fds, fds...)
				}
			}
		}
		if err := req.run.UnmarshalBinary(buf[:n]); err != nil || len(req.fds) != 3 {
			for _, fd := range req.fds {
				unix.Close(fd)
			}
			// A request the judge did not send, or files the init
			// could not take (its open-file limit): the slot is not
			// to be used again.
			reply(ctl, 'X', fmt.Sprintf("bad run request (%v, %d files)", err, len(req.fds)), -1)
			continue
		}
		t := <-readyCh
		t.run <- req
	}
}

// pollable is the control socket as a file whose reads wait in the Go
// runtime's poller, or nil where it cannot be made non-blocking: a
// goroutine parked in the poller leaves its P idle, where one blocked in
// recvmsg keeps it, and the runtime's monitor thread then wakes every
// 20 µs or so to take it back. Writes to the socket (reply) stay plain
// system calls.
func pollable(ctl int) *os.File {
	if err := unix.SetNonblock(ctl, true); err != nil {
		return nil
	}
	return os.NewFile(uintptr(ctl), "control")
}

// reapProgram waits for the program bot to end (through its pidfd, -1
// for none, which it closes), then kills and reaps every process left in
// the namespace, and returns how bot ended.
func reapProgram(bot, pidfd int) (unix.WaitStatus, unix.Rusage) {
	var status unix.WaitStatus
	var botRU unix.Rusage
	awaitExit(pidfd)
	ending, left := false, false
	for {
		var ws unix.WaitStatus
		var ru unix.Rusage
		flags := 0
		if ending {
			flags = unix.WNOHANG
		}
		if left {
			// What is left may still be forking: kill again until
			// nothing is left.
			killAll()
		}
		pid, err := unix.Wait4(-1, &ws, flags, &ru)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			break // ECHILD: nothing is left in the namespace but the init
		}
		if pid == 0 {
			// Once bot is reaped, the processes it left are the init's
			// children (they were given to it as bot ended).
			left = true
			time.Sleep(50 * time.Microsecond)
			continue
		}
		if pid == bot {
			status, botRU = ws, ru
			ending = true
		}
	}
	return status, botRU
}

// awaitExit returns once the program whose pidfd is fd has ended (not
// reaped yet), or at once where fd cannot be waited on in the Go
// runtime's poller (or is -1); it closes fd. A goroutine blocked in
// wait4 for the length of a match keeps its P, and the runtime's monitor
// thread takes it back every 10 ms and then looks again every 20 µs for a
// while: most of an idle init's wake-ups. Parked in the poller, it leaves
// every P idle, and the monitor sleeps.
func awaitExit(fd int) {
	if fd < 0 {
		return
	}
	f := os.NewFile(uintptr(fd), "pidfd")
	defer f.Close()
	rc, err := f.SyscallConn()
	if err != nil {
		return
	}
	_ = rc.Read(func(fd uintptr) bool {
		var si unix.Siginfo
		// WNOWAIT: the program is reaped by reapProgram's wait4.
		err := unix.Waitid(unix.P_PIDFD, int(fd), &si, unix.WEXITED|unix.WNOHANG|unix.WNOWAIT, nil)
		return err != nil || si.Signo != 0 // ended, or nothing to wait for
	})
}

// pidfdWaits says whether awaitExit can wait in the poller here.
func pidfdWaits() bool {
	fd, err := unix.PidfdOpen(os.Getpid(), unix.PIDFD_NONBLOCK)
	if err != nil {
		return false
	}
	unix.Close(fd)
	return true
}

// readyThread is a thread of a slot's init made ready to start programs
// (prepareThread): it waits for a program's command and starts it, again
// and again while no program leaves anything in its namespaces.
type readyThread struct {
	run  chan runRequest
	done chan runResult
	// spoiled is what intact.check found before the next program (set
	// by the init before it hands the thread on), or nil.
	spoiled error
}

type runRequest struct {
	run wire.Run
	fds []int
}

type runResult struct {
	pid   int
	pidfd int // the program's pidfd, non-blocking, or -1
	err   error
}

// prepareThread makes a new thread ready to start programs of a slot
// (serve).
func prepareThread(cfg *wire.Config, ctl int) *readyThread {
	t := &readyThread{run: make(chan runRequest), done: make(chan runResult, 1)}
	goOffMain(func() { t.serve(cfg, ctl, nil) })
	return t
}

// serve is the life of a ready thread. It takes a mount and an IPC
// namespace of its own with a fresh /tmp, /dev/shm and /dev/mqueue, and
// restricts itself (restrictSelf). Then, for each program, it waits for
// the command, forks the program (forkStart: into the programs' cgroup),
// answers the judge on ctl (reply),
// and tells the init on done. At the next command (which the init hands
// on only once it has reaped the program and everything it started),
// the thread first looks at what the last program left in its
// namespaces (traces): after a program that left something, the command
// goes to a new thread, taking first, and this one ends, its namespaces
// with it. Looking then rather than at the program's end spares the init
// two hand-offs between its threads a program. What fails in the
// preparing is told at the start, and the thread ends; so it does after
// any start that failed.
//
// It runs locked to its thread (goOffMain), never unlocked: the thread
// ends with the goroutine, and its namespaces and restrictions with it.
func (t *readyThread) serve(cfg *wire.Config, ctl int, first *runRequest) {
	err := prepareSelf(cfg)
	var r *restrictions
	if err == nil {
		r, err = restrictSelf(cfg)
	}
	var clean *traces
	if err == nil {
		clean = takeTraces()
	}
	defer clean.close()
	for started := false; ; started = true {
		var req runRequest
		if first != nil {
			req, first = *first, nil
		} else {
			req = <-t.run
		}
		// The init hands the thread a command only once the program
		// it started last has ended and been reaped, with everything
		// it started: nothing changes the thread's namespaces now.
		if started && !clean.same() {
			goOffMain(func() { t.serve(cfg, ctl, &req) })
			return
		}
		pid, pidfd := 0, -1
		if t.spoiled == nil && err == nil {
			pid, err = forkProgram(cfg, r, req.run, req.fds)
		}
		for _, fd := range req.fds {
			unix.Close(fd)
		}
		switch {
		case t.spoiled != nil:
			err = t.spoiled
			reply(ctl, 'X', err.Error(), -1)
		case err != nil:
			reply(ctl, 'E', err.Error(), -1)
		default:
			// A pidfd tells the judge the program's pid outside; the
			// init waits on the same for the program's end.
			if pidfd, err = unix.PidfdOpen(pid, unix.PIDFD_NONBLOCK); err == nil {
				reply(ctl, 'P', strconv.Itoa(pid), pidfd)
			} else {
				pidfd, err = -1, nil
				reply(ctl, 'N', strconv.Itoa(pid), -1)
			}
		}
		t.done <- runResult{pid, pidfd, err}
		if err != nil {
			return
		}
	}
}

// reply answers a run request on the control socket: kind 'P' (the
// program started: its pid inside, and a pidfd), 'N' (started, no pidfd),
// 'E' (it could not: why) or 'X' (it could not, and the slot is not to be
// used again: why).
func reply(ctl int, kind byte, text string, fd int) {
	var oob []byte
	if fd >= 0 {
		oob = unix.UnixRights(fd)
	}
	msg := append([]byte{kind}, text...)
	for {
		err := unix.Sendmsg(ctl, msg, oob, nil, 0)
		if err != unix.EAGAIN && err != unix.EINTR {
			return
		}
		// The socket is non-blocking (pollable) and its buffer full.
		_, _ = unix.Poll([]unix.PollFd{{Fd: int32(ctl), Events: unix.POLLOUT}}, -1)
	}
}

// prepareSelf is the preparing of a ready thread (serve).
func prepareSelf(cfg *wire.Config) error {
	if err := unix.Unshare(unix.CLONE_NEWNS | unix.CLONE_NEWIPC); err != nil {
		return fmt.Errorf("unshare: %w", err)
	}
	// The directories shown inside /tmp or /dev/shm (a bot built in a
	// temporary directory) are taken along onto the fresh ones.
	var inside []wire.Mount
	var trees []int
	defer func() {
		for _, fd := range trees {
			unix.Close(fd)
		}
	}()
	ms := append([]wire.Mount(nil), cfg.Mounts...)
	sort.Slice(ms, func(i, j int) bool { return len(ms[i].Dst) < len(ms[j].Dst) })
	for _, m := range ms {
		if !wire.Under(m.Dst, "/tmp") && !wire.Under(m.Dst, "/dev/shm") {
			continue
		}
		fd, err := unix.OpenTree(unix.AT_FDCWD, m.Dst, unix.OPEN_TREE_CLONE|unix.OPEN_TREE_CLOEXEC|unix.AT_RECURSIVE)
		if err != nil {
			return fmt.Errorf("%s: open_tree: %w", m.Dst, err)
		}
		inside = append(inside, m)
		trees = append(trees, fd)
	}
	tmpOpts := tmpOptions(cfg.TmpSize)
	// No access times: the thread looks through them between programs
	// (traces), and a time that only a look changed would hide one that
	// a program set.
	if err := unix.Mount("tmpfs", "/tmp", "tmpfs", unix.MS_NOSUID|unix.MS_NODEV|unix.MS_NOATIME, tmpOpts); err != nil {
		return fmt.Errorf("mounting /tmp: %w", err)
	}
	if err := unix.Mount("tmpfs", "/dev/shm", "tmpfs", unix.MS_NOSUID|unix.MS_NODEV|unix.MS_NOEXEC|unix.MS_NOATIME, tmpOpts); err != nil {
		return fmt.Errorf("mounting /dev/shm: %w", err)
	}
	// The new IPC namespace's message queues, shown where Linux shows
	// them, for the thread to see what a program left there (traces).
	// Without them the thread serves one program.
	_ = unix.Mount("mqueue", "/dev/mqueue", "mqueue", unix.MS_NOSUID|unix.MS_NODEV|unix.MS_NOEXEC|unix.MS_NOATIME, "")
	for i, m := range inside {
		var st unix.Stat_t
		if err := unix.Fstat(trees[i], &st); err != nil {
			return fmt.Errorf("%s: %w", m.Dst, err)
		}
		if err := mountPoint(m.Dst, m.Dst, st.Mode&unix.S_IFMT == unix.S_IFDIR); err != nil {
			return err
		}
		if err := unix.MoveMount(trees[i], "", unix.AT_FDCWD, m.Dst, unix.MOVE_MOUNT_F_EMPTY_PATH); err != nil {
			return fmt.Errorf("%s: move_mount: %w", m.Dst, err)
		}
		if err := restrict(m.Dst, m.Write); err != nil {
			return fmt.Errorf("%s: %w", m.Dst, err)
		}
	}
	return nil
}

// forkProgram starts the program from a ready thread.
func forkProgram(cfg *wire.Config, r *restrictions, run wire.Run, fds []int) (int, error) {
	if len(fds) != 3 {
		return 0, errors.New("want three standard files")
	}
	cgroup := -1
	if cfg.RunCgroup > 0 {
		cgroup = cfg.RunCgroup // v2
	}
	return forkStart(cfg, run, r, cgroup, [3]int{fds[0], fds[1], fds[2]}, cfg.Base, cfg.Rlimits)
}
