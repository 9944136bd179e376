//go:build linux

package sandbox

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"strconv"
	"sync"
	"time"

	"golang.org/x/sys/unix"

	"judge/sandbox/internal/kernel"
)

// waitFiles is what a Waits keeps: each thread's schedstat file, open.
type waitFiles struct {
	mu     sync.Mutex
	listed time.Time
	byPid  map[int][]int
	files  map[int]int // thread id → descriptor of its schedstat
	seen   map[int]bool
	closed bool
}

// By is Of, and fills byThread, when it is not nil, with the Times of
// each thread read, by thread id (what was in it is dropped).
func (w *Waits) By(byThread map[int]Times, pids ...int) (time.Duration, error) {
	clear(byThread)
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		return 0, errors.New("sandbox: closed")
	}
	if w.files == nil {
		w.files, w.seen = map[int]int{}, map[int]bool{}
	}
	clear(w.seen)
	var total time.Duration
	var buf [128]byte
	read := false
	relist := w.Relist == 0 || time.Since(w.listed) > w.Relist || len(w.byPid) != len(pids)
	if relist {
		w.listed = time.Now()
		clear(w.byPid)
		if w.byPid == nil {
			w.byPid = map[int][]int{}
		}
	}
	for _, pid := range pids {
		tids, ok := w.byPid[pid]
		if !ok {
			tids = kernel.Tasks(pid, nil)
			w.byPid[pid] = tids
		}
		for _, tid := range tids {
			fd, ok := w.files[tid]
			if !ok {
				var err error
				fd, err = unix.Open(fmt.Sprintf("/proc/%d/task/%d/schedstat", pid, tid), unix.O_RDONLY|unix.O_CLOEXEC, 0)
				if err != nil {
					continue // ended meanwhile
				}
				w.files[tid] = fd
			}
			w.seen[tid] = true
			n, err := unix.Pread(fd, buf[:], 0)
			if err != nil || n <= 0 {
				w.listed = time.Time{} // it ended: list again next time
				continue
			}
			if t, ok := parseTimes(buf[:n]); ok {
				total += t.Waited
				read = true
				if byThread != nil {
					byThread[tid] = t
				}
			}
		}
	}
	for tid, fd := range w.files {
		if !w.seen[tid] {
			unix.Close(fd)
			delete(w.files, tid)
		}
	}
	if !read && len(pids) > 0 {
		if _, err := os.Stat("/proc/self/schedstat"); err != nil {
			return 0, ErrNoSchedstat
		}
	}
	return total, nil
}

// Close lets go of the files w keeps open; Of fails after it.
func (w *Waits) Close() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.closed = true
	for tid, fd := range w.files {
		unix.Close(fd)
		delete(w.files, tid)
	}
}

// parseTimes reads the first two fields of a schedstat line.
func parseTimes(b []byte) (Times, bool) {
	f := bytes.Fields(b)
	if len(f) < 2 {
		return Times{}, false
	}
	ran, err1 := strconv.ParseInt(string(f[0]), 10, 64)
	waited, err2 := strconv.ParseInt(string(f[1]), 10, 64)
	return Times{Ran: time.Duration(ran), Waited: time.Duration(waited)}, err1 == nil && err2 == nil
}
