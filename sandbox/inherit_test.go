//go:build linux

package sandbox

import (
	"os"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// TestInheritedFilesStayOutside: a file the judge inherited from whoever
// started it, open without close-on-exec (a shell's 7>log, make's
// jobserver), at any descriptor number, never reaches a program, in a new
// sandbox as in a reused one. The program (testdata/hostile/openfds.c)
// lists the descriptors it was started with.
func TestInheritedFilesStayOutside(t *testing.T) {
	t.Parallel()
	f, err := os.Create(t.TempDir() + "/operator.log")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	// F_DUPFD, unlike Go's own descriptors, leaves close-on-exec off, as
	// an inherited descriptor has it: one low, one past 64, one past the
	// programs' limit on open files.
	var fds []string
	for _, from := range []int{10, 70, hostileLimits.OpenFiles + 100} {
		fd, err := unix.FcntlInt(f.Fd(), unix.F_DUPFD, from)
		if err != nil {
			t.Fatal(err)
		}
		defer unix.Close(fd)
		fds = append(fds, strconv.Itoa(fd))
	}
	for _, l := range []Level{Full, Namespaces, Basic} {
		t.Run(string(l), func(t *testing.T) {
			available(t, l)
			argv, dir := build(t, "openfds.c")
			for i := 0; i < 2; i++ { // a new sandbox, then a reused one
				out, e, _ := runArgv(t, testHost, l, argv, hostileLimits, dir)
				if e.Code != 0 {
					t.Fatalf("openfds: %v\n%s", e, out)
				}
				for _, open := range strings.Fields(out) {
					for _, fd := range fds {
						if open == fd {
							t.Errorf("run %d: the program has the judge's inherited descriptor %s (it has %q)", i+1, fd, strings.Fields(out))
						}
					}
				}
			}
		})
	}
}
