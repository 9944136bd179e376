package plugin

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"time"
)

// Process is a referee program started by a Starter: its pipes, and how
// to end it.
type Process struct {
	Stdin  io.WriteCloser
	Stdout io.Reader
	Stderr io.Reader
	// Stop kills the program and every process it started (its process
	// group or its sandbox), waits for them, and closes the pipes. It is
	// called once.
	Stop func()
	// Exited, when not nil, says how the program ended, once Stop has
	// returned: "exit code 3", "killed by SIGKILL (killed): out of
	// memory".
	Exited func() string
	// Near, when not nil, puts the program on the CPUs of the calling
	// thread. The judge calls it at the first call of each match it
	// referees, from the match's thread: a match served on one CPU then
	// wakes its referee there, as it does its bots.
	Near func()
}

// Starter starts a referee program: argv run from dir, its memory
// bounded by memory bytes where the starter can bound it. The judge's
// starter runs it in the sandbox bots run in (procbot.Host.StartReferee);
// ExecStarter runs it as a plain child process.
type Starter func(ctx context.Context, argv []string, dir string, memory int64) (*Process, error)

// processExitWait bounds the wait for a killed referee's pipes.
const processExitWait = 5 * time.Second

// ExecStarter starts a referee as a plain child process in a process
// group of its own, with no sandbox: for tests, and for machines where
// the sandbox cannot run. The memory bound is not enforced.
func ExecStarter(_ context.Context, argv []string, dir string, _ int64) (*Process, error) {
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = dir
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "LANG=C.UTF-8", "PYTHONUNBUFFERED=1"}
	setGroup(cmd)
	// Its stdin a file, as its stdout is: the judge then serves both on
	// the calling goroutine (pipeIO).
	inR, stdin, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	cmd.Stdin = inR
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		inR.Close()
		stdin.Close()
		return nil, err
	}
	// Its stderr a pipe of our own, not StderrPipe's, which Wait closes
	// as the referee ends: what it wrote last, often why it ended, would
	// be lost to a reader not yet at it. This one is read to its end and
	// closed there.
	stderrR, stderrW, err := os.Pipe()
	if err != nil {
		inR.Close()
		stdin.Close()
		return nil, err
	}
	cmd.Stderr = stderrW
	err = cmd.Start()
	inR.Close()
	stderrW.Close()
	if err != nil {
		stdin.Close()
		stderrR.Close()
		return nil, fmt.Errorf("referee %s: %w", argv[0], err)
	}
	done := make(chan struct{})
	return &Process{Stdin: stdin, Stdout: stdout, Stderr: closeAtEnd{stderrR}, Stop: func() {
		killGroup(cmd)
		stdin.Close()
		go func() { _ = cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(processExitWait):
		}
	}, Exited: func() string {
		select {
		case <-done:
		default:
			return "" // not reaped in time
		}
		if code := cmd.ProcessState.ExitCode(); code >= 0 {
			return fmt.Sprintf("exit code %d", code)
		}
		return cmd.ProcessState.String() // "signal: killed"
	}}, nil
}

// closeAtEnd is a pipe's read end that closes itself once it has read
// the end.
type closeAtEnd struct{ f *os.File }

func (c closeAtEnd) Read(b []byte) (int, error) {
	n, err := c.f.Read(b)
	if err != nil {
		c.f.Close()
	}
	return n, err
}

// startProcess starts a referee program through start and speaks to it.
func startProcess(ctx context.Context, start Starter, argv []string, dir string, memory int64, timeout time.Duration) (transport, error) {
	p, err := start(ctx, argv, dir, memory)
	if err != nil {
		return nil, err
	}
	t := newTail(StderrTail)
	copied := make(chan struct{})
	go func() {
		defer close(copied)
		_, _ = io.Copy(t, p.Stderr)
	}()
	stop := func() {
		p.Stop()
		select {
		case <-copied:
		case <-time.After(processExitWait):
		}
	}
	if d, ok := newPipeIO(p.Stdin, p.Stdout, timeout, t, stop); ok {
		d.exited, d.nearFn = p.Exited, p.Near
		return d, nil
	}
	l := newLines(p.Stdin, p.Stdout, timeout, t, stop)
	l.exited, l.nearFn = p.Exited, p.Near
	return l, nil
}
