//go:build linux

package sandbox

import (
	"bytes"
	"errors"
	"io"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/creack/pty"
)

// terminalEnv, set, makes TestTerminalOutOfReach its own child: the
// program to run and the terminal's device.
const terminalEnv = "JUDGE_TEST_TERMINAL"

// TestTerminalOutOfReach runs a judge, this test's child, on a terminal of
// its own, as a person runs one: its controlling terminal, which the
// programs it starts share at every level (a session of their own would
// cost every switch between judge and bot a scheduling group). At every
// level but none, a program that opens /dev/tty or the terminal's device
// to write to it and read from it finds neither; at none it reaches the
// terminal, which shows that the test would see it.
func TestTerminalOutOfReach(t *testing.T) {
	t.Parallel()
	if env := os.Getenv(terminalEnv); env != "" {
		terminalChild(t, env)
		return
	}
	argv, dir := build(t, "terminal.c")
	ptmx, tty, err := pty.Open()
	if err != nil {
		t.Skipf("no pseudo-terminal here: %v", err)
	}
	defer ptmx.Close()
	cmd := exec.Command(os.Args[0], "-test.run=^TestTerminalOutOfReach$", "-test.v")
	cmd.Env = append(os.Environ(), terminalEnv+"="+strings.Join(append(argv, dir, tty.Name()), "\n"))
	cmd.Stdin, cmd.Stdout, cmd.Stderr = tty, tty, tty
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 0}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	tty.Close()
	var screen bytes.Buffer
	read := make(chan error, 1)
	go func() {
		_, err := io.Copy(&screen, ptmx)
		read <- err
	}()
	waited := make(chan error, 1)
	go func() { waited <- cmd.Wait() }()
	var werr error
	select {
	case werr = <-waited:
	case <-time.After(2 * time.Minute):
		_ = cmd.Process.Kill()
		werr = <-waited
		t.Error("the judge on the terminal did not end within 2 minutes")
	}
	// The terminal's reader ends with EIO once no one holds it open.
	if err := <-read; err != nil && !errors.Is(err, syscall.EIO) {
		t.Errorf("reading the terminal: %v", err)
	}
	out := strings.ReplaceAll(screen.String(), "\r\n", "\n")
	if werr != nil {
		t.Fatalf("the judge on the terminal: %v\n%s", werr, out)
	}
	for _, l := range levels {
		for _, path := range []string{"/dev/tty", tty.Name()} {
			pwned := strings.Contains(out, "PWNED "+string(l)+" "+path+"\n")
			ran := strings.Contains(out, "level "+string(l)+" ran")
			switch {
			case !ran:
				t.Logf("level %s: not available here", l)
			case l == None && path == "/dev/tty" && !pwned:
				t.Errorf("at none the program did not reach its terminal through %s: the test sees nothing\n%s", path, out)
			case l != None && pwned:
				t.Errorf("at %s a program wrote to the judge's terminal through %s\n%s", l, path, out)
			}
		}
	}
}

// terminalChild is the judge on the terminal: it runs the program at
// every level available, and says which ran and what each reported.
func terminalChild(t *testing.T, env string) {
	f := strings.Split(env, "\n")
	argv, dir, ttyName := f[:len(f)-2], f[len(f)-2], f[len(f)-1]
	for _, l := range levels {
		if l.rank() > testHost.Probe().Level.rank() {
			continue
		}
		out, e := run(t, l, Spec{Argv: append(append([]string(nil), argv...), string(l), "/dev/tty", ttyName),
			ReadOnly: []string{dir}, Limits: hostileLimits})
		if e.Code != 0 {
			t.Errorf("level %s: %v\n%s", l, e, out)
		}
		t.Logf("level %s ran: %q", l, out)
	}
}
