//go:build linux

package sandbox

import (
	"fmt"
	"testing"

	"golang.org/x/sys/unix"
)

// TestReadsStdin reads syscall files of /proc as the kernel writes them.
func TestReadsStdin(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		file string
		want bool
	}{
		{"0 0x0 0x7ffd1c2b3000 0x1000 0x0 0x0 0x0 0x7ffd1c2b2f58 0x7f3a1b2c3d4e\n", true},  // read(0, ...)
		{"19 0x0 0x7ffd1c2b3000 0x2 0x0 0x0 0x0 0x7ffd1c2b2f58 0x7f3a1b2c3d4e\n", true},    // readv(0, ...)
		{"17 0x0 0x7ffd1c2b3000 0x10 0x0 0x0 0x0 0x7ffd1c2b2f58 0x7f3a1b2c3d4e\n", true},   // pread64(0, ...)
		{"0 0x3 0x7ffd1c2b3000 0x1000 0x0 0x0 0x0 0x7ffd1c2b2f58 0x7f3a1b2c3d4e\n", false}, // read(3, ...)
		{"1 0x0 0x7ffd1c2b3000 0x1000 0x0 0x0 0x0 0x7ffd1c2b2f58 0x7f3a1b2c3d4e\n", false}, // write(0, ...)
		{"202 0x7f3a1b2c3d4e 0x80 0x2 0x0 0x0 0x0 0x7ffd1c2b2f58 0x7f3a1b2c3d4e\n", false}, // futex
		{"running\n", false},
		{"-1 0x7ffd1c2b2f58 0x7f3a1b2c3d4e\n", false}, // blocked, not in a system call
		{"", false},
		{"0 0x", false},
		{"0 0x0", true},
		{"0 00 0x1", false},
	} {
		if got := readsStdin([]byte(c.file)); got != c.want {
			t.Errorf("%q: %v, want %v", c.file, got, c.want)
		}
	}
}

// FuzzReadsStdin: a syscall file as the kernel writes it (the number in
// decimal, the arguments in hex with 0x, spaces between) is read right,
// and any bytes are read without a panic.
func FuzzReadsStdin(f *testing.F) {
	f.Add(uint64(0), uint64(0), "0x7ffd1c2b3000 0x1000\n", []byte("running\n"))
	f.Add(uint64(17), uint64(3), "", []byte("0 0x"))
	f.Fuzz(func(t *testing.T, nr, fd uint64, tail string, raw []byte) {
		_ = readsStdin(raw)
		file := fmt.Sprintf("%d 0x%x", nr, fd)
		if tail != "" {
			file += " " + tail
		}
		want := fd == 0 && (nr == unix.SYS_READ || nr == unix.SYS_READV || nr == unix.SYS_PREAD64)
		if got := readsStdin([]byte(file)); got != want {
			t.Fatalf("%q: %v, want %v", file, got, want)
		}
	})
}
