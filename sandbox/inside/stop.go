//go:build linux

package inside

import (
	"bytes"
	"os"
	"runtime"
	"strconv"
	"sync"
	"time"

	"golang.org/x/sys/unix"

	"judge/sandbox/internal/kernel"
)

// stopper freezes the processes of a sandbox's PID namespace (a slot's,
// or a one-program init's) with SIGSTOP without tearing their writes. A
// stop signal makes a write(2) that is blocked on a full pipe or
// terminal return at once with what it wrote so far: a short write,
// which a bot calling write(2) without retrying turns into a torn line.
// (The cgroup freezers, v1's and v2's cgroup.freeze, do the same: they
// wake sleeping tasks with a fake signal; so the judge does not use
// them in namespaces.) So a process with a thread in a writing
// system call is not stopped at once: it is looked at again, sooner then
// less often, until it has left the call, while the freeze lasts. A
// process in a write is not computing anyway.
type stopper struct {
	mu  sync.Mutex
	on  bool
	gen int
}

// freeze stops every process of the namespace but the init, now or as
// soon as it is not writing.
func (s *stopper) freeze() {
	s.mu.Lock()
	s.on = true
	s.gen++
	g := s.gen
	s.mu.Unlock()
	go s.stopLoop(g)
}

// thaw lets every process run again.
func (s *stopper) thaw() {
	s.mu.Lock()
	s.on = false
	s.gen++
	_ = unix.Kill(-1, unix.SIGCONT)
	s.mu.Unlock()
}

func (s *stopper) stopLoop(g int) {
	measureComputing()
	wait := 50 * time.Microsecond
	seen := map[string]sched{} // running thread → its figures when first seen running
	start := time.Now()
	for pass := 0; ; pass++ {
		s.mu.Lock()
		if !s.on || s.gen != g {
			s.mu.Unlock()
			return
		}
		deferred, running := stopScan(seen)
		s.mu.Unlock()
		if deferred == 0 && pass > 0 {
			// A second pass catches what was forked during the first.
			return
		}
		if deferred > 0 {
			time.Sleep(wait)
			switch {
			case running == ran && time.Since(start) < closeWatch:
				// Looked at closely: it may be computing.
			case running != idle:
				// Waiting for a CPU, or getting little of one: it
				// computes little meanwhile, and looks at it need not
				// add to the load.
				wait = min(2*wait, time.Millisecond)
			default:
				wait = min(2*wait, 10*time.Millisecond)
			}
		}
	}
}

// computing is how much CPU time a thread seen running may use before
// its process is stopped whatever it does: minComputing, or on a machine
// whose kernel copies slowly (an emulator), what writing copyUnits MiB
// into a pipe that is emptied costs there (measureComputing). A thread
// woken in a write (the judge read some of its output) is running too,
// the kernel does not say where: it uses a few microseconds to copy what
// fits and sleeps again in its write, or it waits its turn for a CPU,
// using none, or, when the judge reads as fast as it writes, it copies
// on without sleeping, which an emulated kernel makes slow. One that
// computes uses this up at once.
//
// A process is never stopped for the time passing: a running thread
// that has not used computing has computed next to nothing, however long
// the machine keeps it waiting for a CPU, and it may be in a write, even
// preempted in the middle of one; a stop would tear it.
var (
	computing     = minComputing
	computingOnce sync.Once
)

const (
	minComputing = 2 * time.Millisecond
	copyUnits    = 4
)

// measureComputing sets computing, once, from the CPU time a thread
// takes to write in one call into a pipe that another thread empties 4
// KiB at a time, waking it for every page as the judge reading a bot's
// output may (writeCost), per MiB, the better of two: 0.3 to 0.4 ms on
// the machines this was written on, where computing is minComputing.
func measureComputing() {
	computingOnce.Do(func() {
		var best time.Duration
		for try := 0; try < 2; try++ {
			d := writeCost()
			if d <= 0 {
				return
			}
			if try == 0 || d < best {
				best = d
			}
		}
		computing = max(minComputing, best*(1<<20/costBytes)*copyUnits)
	})
}

// costBytes is what writeCost writes.
const costBytes = 256 << 10

// writeCost is the CPU time of a thread that writes costBytes in one
// call into a pipe that the calling thread empties 4 KiB at a time,
// pausing 20 µs after each read, or 0 if that fails.
func writeCost() time.Duration {
	var p [2]int
	if unix.Pipe2(p[:], unix.O_CLOEXEC) != nil {
		return 0
	}
	defer unix.Close(p[0])
	var d time.Duration
	done := make(chan struct{})
	go func() {
		defer close(done)
		defer unix.Close(p[1])
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		buf := make([]byte, costBytes)
		t0, ok0 := threadCPU()
		for off := 0; off < len(buf); {
			n, err := unix.Write(p[1], buf[off:])
			if err == unix.EINTR {
				continue
			}
			if err != nil || n <= 0 {
				return
			}
			off += n
		}
		if t1, ok1 := threadCPU(); ok0 && ok1 {
			d = t1 - t0
		}
	}()
	buf := make([]byte, 4096)
	pause := unix.Timespec{Nsec: 20000}
	for {
		n, err := unix.Read(p[0], buf)
		if err == unix.EINTR {
			continue
		}
		if err != nil || n <= 0 {
			break
		}
		_ = unix.Nanosleep(&pause, nil)
	}
	<-done
	return d
}

// threadCPU is the CPU time of the calling thread.
func threadCPU() (time.Duration, bool) {
	var ts unix.Timespec
	if unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts) != nil {
		return 0, false
	}
	return time.Duration(ts.Nano()), true
}

// closeWatch is how long running threads that get a CPU are looked at
// every 50 µs; then every millisecond.
const closeWatch = 100 * time.Millisecond

// How the running threads of the processes left running fared.
const (
	idle   = iota // none is running
	queued        // some are, none has had a CPU since first seen running
	ran           // some have had a CPU since
)

// sched is a thread's time on a CPU and count of times it got one
// (schedstat's first and third fields), and how many times it gave up
// its CPU to sleep (status's voluntary_ctxt_switches).
type sched struct{ ran, runs, slept int64 }

// stopScan sends SIGSTOP to every process of the namespace but the init
// that is not stopped yet and not writing, and returns how many it left
// running for now and how their running threads fared. A process with a
// thread in a writing system call is left alone while its other threads
// sleep; one with a running thread (which may be in a write) is left
// alone until its running threads have used computing of CPU time since
// each was first seen running (seen holds that first figure, by thread).
func stopScan(seen map[string]sched) (deferred, running int) {
	d, err := os.Open("/proc")
	if err != nil {
		_ = unix.Kill(-1, unix.SIGSTOP)
		return 0, idle
	}
	names, _ := d.Readdirnames(-1)
	d.Close()
	var buf [512]byte
	for _, name := range names {
		pid, err := strconv.Atoi(name)
		if err != nil || pid == 1 {
			continue
		}
		if st := kernel.ProcState("/proc/"+name+"/stat", buf[:]); st == 'T' || st == 't' || st == 'Z' || st == 'X' || st == 0 {
			continue
		}
		nrun, moved, inWrite := threads(pid, buf[:], seen)
		if (nrun == busy || nrun == 0 && inWrite == 0) && !writing(pid, buf[:], seen) {
			_ = unix.Kill(pid, unix.SIGSTOP)
			continue
		}
		deferred++
		switch {
		case nrun > 0 && moved:
			running = ran
		case nrun > 0 && running == idle:
			running = queued
		}
	}
	return deferred, running
}

// busy is what threads returns for a process with a thread that computes.
const busy = -1

// threads counts the threads of pid that are running, and those asleep
// in a system call that writes; running is busy when its running threads
// have used computing of CPU time, together, since each was first seen
// running, and moved says one of them has had a CPU since.
func threads(pid int, buf []byte, seen map[string]sched) (running int, moved bool, inWrite int) {
	dir := "/proc/" + strconv.Itoa(pid) + "/task"
	d, err := os.Open(dir)
	if err != nil {
		return 0, false, 0
	}
	tids, _ := d.Readdirnames(-1)
	d.Close()
	var used int64 // CPU time of its running threads since each was first seen running
	for _, tid := range tids {
		b := kernel.ReadInto(dir+"/"+tid+"/syscall", buf)
		key := name(pid, tid)
		if bytes.HasPrefix(b, []byte("running")) {
			// schedstat: time on a CPU in nanoseconds, time waiting for
			// one, times it got one.
			if f := bytes.Fields(kernel.ReadInto(dir+"/"+tid+"/schedstat", buf)); len(f) >= 3 {
				ns, err1 := strconv.ParseInt(string(f[0]), 10, 64)
				runs, err2 := strconv.ParseInt(string(f[2]), 10, 64)
				slept := sleeps(dir+"/"+tid+"/status", buf)
				if err1 == nil && err2 == nil && slept >= 0 {
					now := sched{ran: ns, runs: runs, slept: slept}
					switch first, ok := seen[key]; {
					case !ok || slept != first.slept:
						// Seen running for the first time, or it has
						// slept since: a writer that the judge's reads
						// wake again and again, copying a little each
						// time. Its CPU time counts from now.
						seen[key] = now
						moved = moved || ok
					default:
						used += ns - first.ran
						moved = moved || ns != first.ran || runs != first.runs
					}
				}
			}
			running++
			continue
		}
		// Asleep: the next time it is seen running starts afresh.
		delete(seen, key)
		end := bytes.IndexByte(b, ' ')
		if end < 0 {
			continue
		}
		nr, err := strconv.Atoi(string(b[:end]))
		if err == nil && writeCalls[nr] {
			inWrite++
		}
	}
	if used >= int64(computing) {
		return busy, true, 0
	}
	return running, moved, inWrite
}

// writing says whether a thread of pid is asleep in a writing system
// call now. It is asked again right before a stop: on a loaded machine
// the scan that found the process computing may be long past, and the
// process may have gone on into a write meanwhile (a bot computes its
// next line, then writes it), which the stop would tear. What is left of
// that race is the moment between this look and the signal. A thread
// that shows as running but has slept since the scan (seen) may be in a
// write the judge's reads keep waking: it counts as writing.
func writing(pid int, buf []byte, seen map[string]sched) bool {
	dir := "/proc/" + strconv.Itoa(pid) + "/task"
	d, err := os.Open(dir)
	if err != nil {
		return false
	}
	tids, _ := d.Readdirnames(-1)
	d.Close()
	for _, tid := range tids {
		b := kernel.ReadInto(dir+"/"+tid+"/syscall", buf)
		if bytes.HasPrefix(b, []byte("running")) {
			if first, ok := seen[name(pid, tid)]; ok && sleeps(dir+"/"+tid+"/status", buf) != first.slept {
				return true
			}
			continue
		}
		if end := bytes.IndexByte(b, ' '); end > 0 {
			if nr, err := strconv.Atoi(string(b[:end])); err == nil && writeCalls[nr] {
				return true
			}
		}
	}
	return false
}

// sleeps is how many times the thread whose status file is path gave up
// its CPU to sleep (voluntary_ctxt_switches), or -1. A thread that
// computes never does; one in a write to a full pipe does each time the
// pipe fills, and /proc shows it running while it copies.
func sleeps(path string, buf []byte) int64 {
	var big [2048]byte
	if len(buf) < len(big) {
		buf = big[:]
	}
	b := kernel.ReadInto(path, buf)
	const key = "\nvoluntary_ctxt_switches:"
	i := bytes.Index(b, []byte(key))
	if i < 0 {
		return -1
	}
	b = b[i+len(key):]
	if j := bytes.IndexByte(b, '\n'); j >= 0 {
		b = b[:j]
	}
	n, err := strconv.ParseInt(string(bytes.TrimSpace(b)), 10, 64)
	if err != nil {
		return -1
	}
	return n
}

func name(pid int, tid string) string { return strconv.Itoa(pid) + "/" + tid }

// writeCalls are the system calls that may write part of a buffer and
// return short when a signal comes.
var writeCalls = map[int]bool{
	unix.SYS_WRITE: true, unix.SYS_WRITEV: true, unix.SYS_PWRITE64: true, unix.SYS_PWRITEV: true,
	unix.SYS_PWRITEV2: true, unix.SYS_SENDTO: true, unix.SYS_SENDMSG: true, unix.SYS_SENDMMSG: true,
	unix.SYS_SENDFILE: true, unix.SYS_SPLICE: true, unix.SYS_VMSPLICE: true, unix.SYS_TEE: true,
	unix.SYS_COPY_FILE_RANGE: true,
}
