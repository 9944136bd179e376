//go:build linux

package kernel

import (
	"bytes"
	"os"
	"slices"
	"strconv"
	"testing"
	"time"

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

// parseStatFields is ParseStat as it was, splitting with bytes.Fields:
// the reference the fuzz test compares it with.
func parseStatFields(b []byte) (time.Duration, int, bool) {
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return 0, 0, false
	}
	f := bytes.Fields(b[i+1:])
	if len(f) < 18 {
		return 0, 0, false
	}
	cu, err1 := strconv.ParseInt(string(f[13]), 10, 64)
	cs, err2 := strconv.ParseInt(string(f[14]), 10, 64)
	n, err3 := strconv.Atoi(string(f[17]))
	if err1 != nil || err2 != nil || err3 != nil {
		return 0, 0, false
	}
	return time.Duration(cu+cs) * (time.Second / userHZ), n, true
}

func TestParseStatOfSelf(t *testing.T) {
	b, err := os.ReadFile("/proc/self/stat")
	if err != nil {
		t.Fatal(err)
	}
	_, threads, ok := ParseStat(b)
	if !ok || threads < 1 {
		t.Fatalf("ParseStat(%q) = %d threads, %v", b, threads, ok)
	}
	if allocs := testing.AllocsPerRun(100, func() { ParseStat(b) }); allocs != 0 {
		t.Errorf("ParseStat allocates %v times", allocs)
	}
}

func FuzzParseStat(f *testing.F) {
	f.Add([]byte("1234 (bot) S 1 1234 1234 0 -1 4194560 100 0 0 0 5 3 12 7 20 0 1 0 100 1000 10 18446744073709551615\n"))
	f.Add([]byte("1 (a) b) R 0 0 0 0 0 0 0 0 0 0 0 0 -5 +6 0 0 3"))
	f.Add([]byte("1 (x) S 1 2 3 4 5 6 7 8 9 10 11 12 13 9223372036854775807 1 2 99999999999999999999"))
	f.Fuzz(func(t *testing.T, b []byte) {
		for _, c := range b {
			if c >= 0x80 {
				t.Skip() // a stat file is ASCII; bytes.Fields also splits on Unicode spaces
			}
		}
		d, n, ok := ParseStat(b)
		wd, wn, wok := parseStatFields(b)
		if ok != wok || ok && (d != wd || n != wn) {
			t.Fatalf("ParseStat(%q) = %v, %d, %v; with bytes.Fields %v, %d, %v", b, d, n, ok, wd, wn, wok)
		}
	})
}
