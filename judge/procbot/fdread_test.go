//go:build linux

package procbot

import (
	"bufio"
	"errors"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"
)

// polled lists the descriptors of this process that the runtime's
// epoll instances watch (the "tfd" lines of their fdinfo).
func polled(t *testing.T) map[int]bool {
	t.Helper()
	fds, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Fatal(err)
	}
	watched := map[int]bool{}
	for _, e := range fds {
		link, err := os.Readlink("/proc/self/fd/" + e.Name())
		if err != nil || link != "anon_inode:[eventpoll]" {
			continue
		}
		f, err := os.Open("/proc/self/fdinfo/" + e.Name())
		if err != nil {
			continue
		}
		s := bufio.NewScanner(f)
		for s.Scan() {
			fields := strings.Fields(s.Text())
			if len(fields) >= 2 && fields[0] == "tfd:" {
				if fd, err := strconv.Atoi(fields[1]); err == nil {
					watched[fd] = true
				}
			}
		}
		f.Close()
	}
	return watched
}

// TestReaderJoinsPollerOnlyWhenShared plays turns in which the bot moves
// alone and turns in which it moves with others, in turn: its output is in
// the runtime poller only during the shared ones (a lone mover's lines
// would otherwise wake an idle thread of the judge each), every line is
// read in both, and a cancel wakes a read waiting in either.
func TestReaderJoinsPollerOnlyWhenShared(t *testing.T) {
	pr, pw, err := outPipe()
	if err != nil {
		t.Fatal(err)
	}
	defer pw.Close()
	defer pr.Close()
	r, err := newFDReader(pr)
	if err != nil {
		t.Fatal(err)
	}
	// The descriptors in the poller besides the runtime's own.
	base := polled(t)
	joined := func() []int {
		var extra []int
		for fd := range polled(t) {
			if !base[fd] {
				extra = append(extra, fd)
			}
		}
		return extra
	}
	if base[r.fd] {
		t.Fatalf("the output (fd %d) is in the poller from the start", r.fd)
	}
	buf := make([]byte, 64)
	for i, shared := range []bool{false, true, false, true, true, false} {
		if err := r.setDeadline(time.Now().Add(5*time.Second), shared); err != nil {
			t.Fatal(err)
		}
		switch extra := joined(); {
		case shared && len(extra) != 1:
			t.Errorf("turn %d, shared: %d descriptors joined the poller (%v), want 1", i, len(extra), extra)
		case !shared && len(extra) != 0:
			t.Errorf("turn %d, alone: descriptors %v are in the poller, want none", i, extra)
		}
		line := "Move " + strconv.Itoa(i) + "\n"
		go func() { time.Sleep(20 * time.Millisecond); pw.WriteString(line) }()
		n, err := r.Read(buf)
		if err != nil || string(buf[:n]) != line {
			t.Fatalf("turn %d (shared %v): read %q, %v; want %q", i, shared, buf[:n], err, line)
		}
	}

	// A turn that times out in each mode.
	for _, shared := range []bool{true, false} {
		if err := r.setDeadline(time.Now().Add(30*time.Millisecond), shared); err != nil {
			t.Fatal(err)
		}
		if n, err := r.Read(buf); !errors.Is(err, os.ErrDeadlineExceeded) {
			t.Errorf("shared %v, nothing written: read %q, %v; want a timeout", shared, buf[:n], err)
		}
	}
	r.close()
	if extra := joined(); len(extra) != 0 {
		t.Errorf("after close, descriptors %v are still in the poller", extra)
	}
}

// TestCancelWakesReadInEitherMode: a cancel wakes a read waiting for a
// lone mover's line in ppoll and one waiting in the runtime poller.
func TestCancelWakesReadInEitherMode(t *testing.T) {
	for _, shared := range []bool{false, true} {
		pr, pw, err := outPipe()
		if err != nil {
			t.Fatal(err)
		}
		r, err := newFDReader(pr)
		if err != nil {
			t.Fatal(err)
		}
		if err := r.setDeadline(time.Now().Add(time.Minute), shared); err != nil {
			t.Fatal(err)
		}
		done := make(chan error, 1)
		go func() { _, err := r.Read(make([]byte, 64)); done <- err }()
		time.Sleep(20 * time.Millisecond)
		r.cancel()
		select {
		case err := <-done:
			if !errors.Is(err, errCanceled) {
				t.Errorf("shared %v: a canceled read returned %v, want errCanceled", shared, err)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("shared %v: a canceled read did not return", shared)
		}
		r.close()
		pr.Close()
		pw.Close()
	}
}
