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
	seen := map[int]int{} // pid → times seen running
	for pass := 0; ; pass++ {
		s.mu.Lock()
		if !s.on || s.gen != g {
			s.mu.Unlock()
			return
		}
		deferred := stopScan(seen)
		s.mu.Unlock()
		if deferred == 0 && pass > 0 {
			// A second pass catches what was forked during the first.
			return
		}
		if deferred > 0 {
			time.Sleep(wait)
			if pass > 4 {
				wait = min(2*wait, 10*time.Millisecond)
			}
		}
	}
}

// runningLooks is how many looks a running process gets before it is
// stopped whatever it does: a thread woken in a write (the judge read
// some of its output) is running too, for the few microseconds it takes
// to copy what fits and sleep again in its write.
const runningLooks = 10

// stopScan sends SIGSTOP to every process of the namespace but the init
// that is not stopped yet and not writing, and returns how many it left
// running for now. A process with a thread in a writing system call is
// left alone while its other threads sleep; one seen running (which may
// be in a write, the kernel does not say) is looked at again a few times
// first (seen counts the looks).
func stopScan(seen map[int]int) int {
	d, err := os.Open("/proc")
	if err != nil {
		_ = unix.Kill(-1, unix.SIGSTOP)
		return 0
	}
	names, _ := d.Readdirnames(-1)
	d.Close()
	deferred := 0
	var buf [512]byte
	for _, name := range names {
		pid, err := strconv.Atoi(name)
		if err != nil || pid == 1 {
			continue
		}
		if st := procState("/proc/"+name+"/stat", buf[:]); st == 'T' || st == 't' || st == 'Z' || st == 'X' || st == 0 {
			continue
		}
		running, inWrite := threads(pid, buf[:])
		if running > 0 {
			seen[pid]++
			if seen[pid] < runningLooks {
				deferred++
				continue
			}
		} else if inWrite > 0 {
			deferred++
			continue
		}
		_ = unix.Kill(pid, unix.SIGSTOP)
	}
	return deferred
}

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
// in a system call that writes.
func threads(pid int, buf []byte) (running, inWrite int) {
	dir := "/proc/" + strconv.Itoa(pid) + "/task"
	d, err := os.Open(dir)
	if err != nil {
		return 0, 0
	}
	tids, _ := d.Readdirnames(-1)
	d.Close()
	for _, tid := range tids {
		if procState(dir+"/"+tid+"/stat", buf) == 'R' {
			running++
			continue
		}
		b := readInto(dir+"/"+tid+"/syscall", buf)
		end := bytes.IndexByte(b, ' ')
		if end < 0 {
			if bytes.HasPrefix(b, []byte("running")) {
				running++
			}
			continue
		}
		nr, err := strconv.Atoi(string(b[:end]))
		if err == nil && writeCalls[nr] {
			inWrite++
		}
	}
	return running, inWrite
}

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
