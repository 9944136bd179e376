//go:build linux

package kernel

import (
	"os"
	"slices"
	"strconv"
	"testing"

	"golang.org/x/sys/unix"
)

// direntNumbers is AppendDirentNumbers by the general parser: the
// reference the fuzz test compares it with.
func direntNumbers(buf []byte) []int {
	var out []int
	_, _, names := unix.ParseDirent(buf, -1, nil)
	for _, name := range names {
		if len(name) > 9 {
			continue
		}
		if n, err := strconv.Atoi(name); err == nil && name[0] != '+' && name[0] != '-' {
			out = append(out, n)
		}
	}
	return out
}

func TestTasksOfSelf(t *testing.T) {
	tids := Tasks(os.Getpid(), nil)
	if !slices.Contains(tids, unix.Gettid()) || !slices.Contains(tids, os.Getpid()) {
		t.Fatalf("Tasks(self) = %v: the calling thread %d or the leader is missing", tids, unix.Gettid())
	}
	fd, err := unix.Open("/proc/self/task", unix.O_RDONLY|unix.O_DIRECTORY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Close(fd)
	buf := make([]byte, 1<<16)
	n, err := unix.Getdents(fd, buf)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := AppendDirentNumbers(nil, buf[:n]), direntNumbers(buf[:n]); !slices.Equal(got, want) {
		t.Fatalf("AppendDirentNumbers = %v, ParseDirent gives %v", got, want)
	}
}

// dirent is a getdents64 record of name, reclen bytes long (0: the
// smallest that holds it, aligned to 8).
func dirent(ino uint64, name string, reclen int) []byte {
	if reclen == 0 {
		reclen = (19 + len(name) + 1 + 7) &^ 7
	}
	b := make([]byte, max(reclen, 19))
	for i := range 8 {
		b[i] = byte(ino >> (8 * i))
	}
	b[16], b[17] = byte(reclen), byte(reclen>>8)
	copy(b[19:], name)
	return b[:reclen]
}

func FuzzAppendDirentNumbers(f *testing.F) {
	f.Add(1, "1234", 2, "..", 3, "x1")
	f.Add(0, "77", 5, "0012", 6, "1234567890")
	f.Add(9, "+5", 9, "-5", 9, "")
	f.Fuzz(func(t *testing.T, i1 int, n1 string, i2 int, n2 string, i3 int, n3 string) {
		var buf []byte
		for _, e := range []struct {
			ino  int
			name string
		}{{i1, n1}, {i2, n2}, {i3, n3}} {
			if len(e.name) > 200 || slices.Contains([]byte(e.name), 0) {
				t.Skip()
			}
			buf = append(buf, dirent(uint64(e.ino), e.name, 0)...)
		}
		if got, want := AppendDirentNumbers(nil, buf), direntNumbers(buf); !slices.Equal(got, want) {
			t.Fatalf("AppendDirentNumbers = %v, ParseDirent gives %v", got, want)
		}
		// A record cut short is not read past.
		for cut := range len(buf) {
			_ = AppendDirentNumbers(nil, buf[:cut])
		}
	})
}
