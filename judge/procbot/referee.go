package procbot

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"judge/sandbox"
)

// Referee is a plugin game's referee program running in the sandbox: its
// pipes, and how to end it.
type Referee struct {
	Stdin  io.WriteCloser
	Stdout io.Reader
	Stderr io.Reader
	proc   *sandbox.Process
	closed []*os.File
}

// refereeKillWait bounds the wait for a killed referee to be gone.
const refereeKillWait = 5 * time.Second

// StartReferee starts a referee program on h as bots start
// (sandbox.Host.Start): argv run from dir at level, which sees dir
// read-only and nothing else of ours, with the limits of a bot but for
// its memory (memory bytes; zero for a bot's). It is the one place where
// the judge starts a referee.
func (h *Host) StartReferee(ctx context.Context, argv []string, dir string, memory int64, level Level) (*Referee, error) {
	if len(argv) == 0 {
		return nil, errors.New("empty referee command")
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	lim := sandbox.DefaultLimits
	if memory > 0 {
		lim.Memory = memory
	}
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("stdin pipe: %w", err)
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		return nil, fmt.Errorf("stdout pipe: %w", err)
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		outR.Close()
		outW.Close()
		return nil, fmt.Errorf("stderr pipe: %w", err)
	}
	// The child's ends are the child's alone once it runs.
	defer inR.Close()
	defer outW.Close()
	defer errW.Close()
	proc, err := h.Sandbox().Start(ctx, sandbox.Spec{
		Argv: argv, Dir: dir, Env: Env(nil, 0, lim.Memory),
		Stdin: inR, Stdout: outW, Stderr: errW,
		Limits:   lim,
		Level:    level,
		ReadOnly: sandbox.PathsOf(argv, dir),
	})
	if err != nil {
		inW.Close()
		outR.Close()
		errR.Close()
		return nil, err
	}
	return &Referee{Stdin: inW, Stdout: outR, Stderr: errR, proc: proc, closed: []*os.File{inW, outR, errR}}, nil
}

// Stop kills the referee and all it started, waits for them (within a
// bound), and closes the pipes.
func (r *Referee) Stop() {
	r.proc.Kill()
	select {
	case <-r.proc.Done():
	case <-time.After(refereeKillWait):
	}
	for _, f := range r.closed {
		f.Close()
	}
}

// Near puts the referee on the CPUs of the calling thread: a match's,
// when it runs on one CPU (OneCPU), so that the calls of the match wake
// it there. The judge calls it at a match's first call.
func (r *Referee) Near() { nearCaller(r.proc.Pid()) }

// Exit is how the referee ended, once it has.
func (r *Referee) Exit() Exit { return r.proc.Exit() }
