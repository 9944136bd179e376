package sandbox

import (
	"bytes"
	"os"
	"strconv"
	"sync"
	"time"

	"golang.org/x/sys/unix"
)

// stopper freezes the processes of a slot's PID namespace with SIGSTOP
// without tearing their writes. A stop signal makes a write(2) that is
// blocked on a full pipe or terminal return at once with what it wrote so
// far: a short write, which a bot calling write(2) without retrying turns
// into a torn line. (The cgroup freezer does the same: it wakes sleeping
// tasks with a fake signal.) So a process with a thread in a writing
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
	wait := 50 * time.Microsecond
	seen := map[string]int64{} // running thread → its CPU time when first seen running
	start := time.Now()
	for pass := 0; ; pass++ {
		s.mu.Lock()
		if !s.on || s.gen != g {
			s.mu.Unlock()
			return
		}
		deferred, running := stopScan(seen, time.Since(start) > runningWait)
		s.mu.Unlock()
		if deferred == 0 && pass > 0 {
			// A second pass catches what was forked during the first.
			return
		}
		if deferred > 0 {
			time.Sleep(wait)
			if !running {
				wait = min(2*wait, 10*time.Millisecond)
			}
		}
	}
}

// computing is how much CPU time a thread seen running may use before
// its process is stopped whatever it does. A thread woken in a write (the
// judge read some of its output) is running too, the kernel does not say
// where: it uses a few microseconds to copy what fits and sleeps again in
// its write, or it waits its turn for a CPU, using none. One that computes
// uses this up at once.
const computing = 2 * time.Millisecond

// runningWait is how long a process with a running thread is left
// running at most, whatever its CPU time says.
const runningWait = 100 * time.Millisecond

// stopScan sends SIGSTOP to every process of the namespace but the init
// that is not stopped yet and not writing, and returns how many it left
// running for now. A process with a thread in a writing system call is
// left alone while its other threads sleep; one with a running thread
// (which may be in a write) is left alone until that thread has used
// computing of CPU time since it was first seen running (seen holds that
// first figure, by thread), or until force.
func stopScan(seen map[string]int64, force bool) (deferred int, running bool) {
	d, err := os.Open("/proc")
	if err != nil {
		_ = unix.Kill(-1, unix.SIGSTOP)
		return 0, false
	}
	names, _ := d.Readdirnames(-1)
	d.Close()
	var buf [512]byte
	for _, name := range names {
		pid, err := strconv.Atoi(name)
		if err != nil || pid == 1 {
			continue
		}
		if st := procState("/proc/"+name+"/stat", buf[:]); st == 'T' || st == 't' || st == 'Z' || st == 'X' || st == 0 {
			continue
		}
		nrun, inWrite := threads(pid, buf[:], seen)
		if nrun == busy || nrun == 0 && inWrite == 0 || nrun > 0 && force {
			_ = unix.Kill(pid, unix.SIGSTOP)
			continue
		}
		deferred++
		running = running || nrun > 0
	}
	return deferred, running
}

// busy is what threads returns for a process with a thread that computes.
const busy = -1

// procState is the state letter of a stat file of /proc, or 0.
func procState(path string, buf []byte) byte {
	b := readInto(path, buf)
	i := bytes.LastIndexByte(b, ')')
	if i < 0 || i+2 >= len(b) {
		return 0
	}
	return b[i+2]
}

// threads counts the threads of pid that are running, and those asleep
// in a system call that writes; running is busy when its running threads
// have used computing of CPU time, together, since each was first seen
// running.
func threads(pid int, buf []byte, seen map[string]int64) (running, inWrite int) {
	dir := "/proc/" + strconv.Itoa(pid) + "/task"
	d, err := os.Open(dir)
	if err != nil {
		return 0, 0
	}
	tids, _ := d.Readdirnames(-1)
	d.Close()
	var ran int64 // CPU time of its running threads since each was first seen running
	for _, tid := range tids {
		b := readInto(dir+"/"+tid+"/syscall", buf)
		if bytes.HasPrefix(b, []byte("running")) {
			// schedstat: time on a CPU, in nanoseconds, first.
			ss := readInto(dir+"/"+tid+"/schedstat", buf)
			if i := bytes.IndexByte(ss, ' '); i > 0 {
				if ns, err := strconv.ParseInt(string(ss[:i]), 10, 64); err == nil {
					key := name(pid, tid)
					if first, ok := seen[key]; ok {
						ran += ns - first
					} else {
						seen[key] = ns
					}
				}
			}
			running++
			continue
		}
		end := bytes.IndexByte(b, ' ')
		if end < 0 {
			continue
		}
		nr, err := strconv.Atoi(string(b[:end]))
		if err == nil && writeCalls[nr] {
			inWrite++
		}
	}
	if ran >= int64(computing) {
		return busy, 0
	}
	return running, inWrite
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

// readInto reads a small file into buf.
func readInto(path string, buf []byte) []byte {
	fd, err := unix.Open(path, unix.O_RDONLY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil
	}
	n, _ := unix.Read(fd, buf)
	unix.Close(fd)
	if n < 0 {
		n = 0
	}
	return buf[:n]
}
