//go:build unix

package procbot_test

import (
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"judge/judge/judgetest"
	"judge/judge/procbot"
)

// A script whose #! line names what is not a program — a FIFO, a
// directory, a socket, a device, at the end of a chain of scripts too —
// cannot start, and says why at once, whatever its output: the judge
// never opens such a file to read it (opening a FIFO waits for a writer,
// for ever and deaf to signals).
func TestShebangOfASpecialFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o755); err != nil {
		t.Fatal(err)
	}
	sock := filepath.Join(dir, "sock")
	ln, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	script := func(name, interp string) string {
		t.Helper()
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte("#!"+interp+" -x\necho '#END'\n"), 0o755); err != nil {
			t.Fatal(err)
		}
		return p
	}
	middle := script("middle", fifo)
	cases := []struct {
		name, bot, names, kind string
	}{
		{"a FIFO", script("tofifo", fifo), fifo, "a FIFO (named pipe)"},
		{"a directory", script("todir", dir), dir, "a directory"},
		{"a socket", script("tosock", sock), sock, "a socket"},
		{"a device", script("todev", "/dev/zero"), "/dev/zero", "a character device"},
		{"a FIFO through a script", script("chain", middle), fifo, "a FIFO (named pipe)"},
	}
	for _, c := range cases {
		for _, io := range []procbot.IO{procbot.AutoIO, procbot.PTY, procbot.Pipe} {
			t.Run(fmt.Sprintf("%s/%s", c.name, io), func(t *testing.T) {
				done := make(chan error, 1)
				go func() {
					p, err := judgetest.Host().Start(t.Context(), procbot.Spec{Name: "bot", Argv: []string{c.bot}}, procbot.Options{Host: judgetest.Host(), IO: io}, 1)
					if err == nil {
						p.Stop(0)
					}
					done <- err
				}()
				var err error
				select {
				case err = <-done:
				case <-time.After(20 * time.Second):
					// Let a judge that waits in the FIFO's open go.
					if f, err := os.OpenFile(fifo, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
						f.Close()
					}
					t.Fatalf("Start still waits after 20s")
				}
				if err == nil || !strings.Contains(err.Error(), c.names) || !strings.Contains(err.Error(), c.kind) {
					t.Errorf("Start: %v; want an error saying that %s is %s", err, c.names, c.kind)
				}
			})
		}
	}
}
