package procbot

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"strconv"
	"sync"
	"time"

	"github.com/creack/pty"
	"golang.org/x/sys/unix"

	"judge/judge"
	"judge/sandbox"
)

// IO says what a bot's standard output is.
type IO string

// The two kinds of bot output.
const (
	// PTY makes the bot's stdout a raw pseudo-terminal, so that the C and
	// Python runtimes flush every line by themselves.
	PTY IO = "pty"
	// Pipe makes it a plain pipe: faster, but a bot must flush.
	Pipe IO = "pipe"
)

// ParseIO checks an io mode name ("" is PTY).
func ParseIO(s string) (IO, error) {
	switch IO(s) {
	case "", PTY:
		return PTY, nil
	case Pipe:
		return Pipe, nil
	}
	return "", fmt.Errorf("%q is not \"pty\" or \"pipe\"", s)
}

// Options are how bots run: the same for every bot of a match.
type Options struct {
	IO  IO                // "" for PTY
	Env map[string]string // added to every bot's environment
	// Level caps the isolation: sandbox.Auto for the strongest the
	// machine allows, sandbox.None for no sandbox at all.
	Level  sandbox.Level
	Limits sandbox.Limits // zero for sandbox.DefaultLimits
	Stderr int            // bytes of stderr kept (the tail); 0 for 64 KiB
}

// Bot is a bot program as the entrant of a match.
type Bot struct {
	Spec    Spec
	Options Options
}

// Info implements judge.Entrant.
func (b Bot) Info() (judge.BotInfo, error) {
	sum, err := b.Spec.Hash()
	if err != nil {
		return judge.BotInfo{}, err
	}
	return judge.BotInfo{Name: b.Spec.Name, Command: b.Spec.Argv, SHA256: sum}, nil
}

// ErrSandbox marks a match's error caused by a bot's sandbox, not by the
// bot: its init died. The sandbox is rebuilt for the next start, and the
// match may be played again.
var ErrSandbox = sandbox.ErrSandbox

// Start implements judge.Entrant: it starts the program in the sandbox,
// frozen until its first turn.
func (b Bot) Start(_ context.Context, s judge.Seat) (judge.Player, error) {
	return Start(b.Spec, b.Options, s.Seed)
}

// killWait bounds the wait for a killed sandbox to be gone, and stderrWait
// the wait for the end of a bot's stderr once it is: a grandchild that
// escaped the process group may hold it open for ever.
const (
	killWait   = 5 * time.Second
	stderrWait = 300 * time.Millisecond
	// exitWait is how long a bot that closed a stream has to end by
	// itself, so that the reason can tell how it ended.
	exitWait = 300 * time.Millisecond
)

// Player is a running bot program: its process, the judge's ends of its
// standard files, and its captured stderr. It implements judge.Player.
type Player struct {
	proc   *sandbox.Process
	out    *os.File      // the judge reads the bot's stdout here
	outR   *fdReader     // over out
	r      *bufio.Reader // over outR
	in     *os.File      // the judge writes the bot's stdin here
	errR   *os.File      // the bot's stderr
	stderr *tailBuffer
	errEnd chan struct{} // closed once stderr is read to its end
	freeze bool          // stop the bot between its turns
	// A bot is left unfrozen between its turns until it is found
	// computing meanwhile (see EndTurn): idle says it was left so at
	// the end of its last turn, with idleCPU used so far; ponders that it
	// computed between two turns, and is frozen between turns from then
	// on.
	idle    bool
	idleCPU time.Duration
	ponders bool

	turn     judge.Turn
	cpu0     time.Duration
	stopWake func() bool
	clock    clock

	stopOnce sync.Once
	final    judge.Final
}

// Start starts spec with a minimal environment (see Env), frozen.
func Start(spec Spec, o Options, seed uint64) (*Player, error) {
	if o.Limits == (sandbox.Limits{}) {
		o.Limits = sandbox.DefaultLimits
	}
	if o.Stderr == 0 {
		o.Stderr = judge.DefaultLimits.Stderr
	}
	mode, err := ParseIO(string(o.IO))
	if err != nil {
		return nil, err
	}
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("stdin pipe: %w", err)
	}
	defer inR.Close()
	var outR, outW *os.File
	if mode == PTY {
		outR, outW, err = openRawPTY()
	} else {
		outR, outW, err = os.Pipe()
	}
	if err != nil {
		inW.Close()
		return nil, err
	}
	defer outW.Close()
	errR, errW, err := os.Pipe()
	if err != nil {
		inW.Close()
		outR.Close()
		return nil, fmt.Errorf("stderr pipe: %w", err)
	}
	defer errW.Close()

	proc, err := sandbox.Start(sandbox.Spec{
		Argv: spec.Argv, Dir: spec.Dir, Env: Env(o.Env, seed),
		Stdin: inR, Stdout: outW, Stderr: errW,
		Limits: o.Limits,
		Level:  o.Level,
		// The bot sees its own files (read-only), nothing else of ours.
		ReadOnly: sandbox.PathsOf(spec.Argv, spec.Dir),
	})
	if err != nil {
		inW.Close()
		outR.Close()
		errR.Close()
		return nil, err
	}
	fr, err := newFDReader(outR)
	if err != nil {
		proc.Kill()
		<-proc.Done()
		inW.Close()
		outR.Close()
		errR.Close()
		return nil, err
	}
	p := &Player{
		proc:   proc,
		out:    outR,
		outR:   fr,
		r:      bufio.NewReaderSize(fr, judge.MaxLine),
		in:     inW,
		errR:   errR,
		stderr: newTailBuffer(o.Stderr),
		errEnd: make(chan struct{}),
		// Frozen until its turn: no bot computes on another's time. It
		// is part of the sandbox: without one (level none) nothing is
		// frozen, which saves about 70 µs of wake-ups a turn
		// (BenchmarkGame).
		freeze: proc.Level() != sandbox.None,
	}
	go func() {
		defer close(p.errEnd)
		_, _ = io.Copy(p.stderr, errR)
	}()
	if p.freeze {
		_ = proc.Freeze()
	}
	return p, nil
}

// Env is the whole environment of a bot: PATH, HOME and LANG from the
// judge's, JUDGE_SEED, and what the configuration adds. Nothing else of the
// judge's environment reaches a bot.
func Env(extra map[string]string, seed uint64) []string {
	env := map[string]string{
		"PATH": "/usr/local/bin:/usr/bin:/bin",
		"HOME": "/tmp",
		"LANG": "C.UTF-8",
	}
	for _, k := range []string{"PATH", "HOME", "LANG"} {
		if v, ok := os.LookupEnv(k); ok {
			env[k] = v
		}
	}
	env["JUDGE_SEED"] = strconv.FormatUint(seed, 10)
	for k, v := range extra {
		env[k] = v
	}
	out := make([]string, 0, len(env))
	for k, v := range env {
		out = append(out, k+"="+v)
	}
	sort.Strings(out)
	return out
}

// Pid is the process id of the bot's program, as the judge sees it.
func (p *Player) Pid() int { return p.proc.Pid() }

// Protection implements judge.Protected.
func (p *Player) Protection() string { return p.proc.Protection() }

// BeginTurn implements judge.Player: the bot is thawed, its reads and
// writes get the turn's deadline.
func (p *Player) BeginTurn(ctx context.Context, t judge.Turn) error {
	p.turn = t
	p.clock.begin(p.proc)
	p.outR.extend = p.extend
	if err := p.outR.setDeadline(t.Deadline, t.Shared); err != nil {
		return err
	}
	if err := p.in.SetWriteDeadline(t.Deadline); err != nil {
		return err
	}
	// Ctrl-C and the like wake a read that is waiting.
	p.stopWake = context.AfterFunc(ctx, p.outR.cancel)
	if p.freeze && !p.idle {
		// A bot that cannot be thawed has ended: its next read says how.
		_ = p.proc.Thaw()
	}
	p.cpu0, _ = p.proc.CPUTime()
	if p.idle && p.cpu0-p.idleCPU > idleSlack {
		p.ponders = true
	}
	p.idle = false
	return nil
}

// ReadLine implements judge.Player.
func (p *Player) ReadLine(ctx context.Context) ([]byte, error) {
	p.clock.judgeDone()
	line, err := p.r.ReadSlice('\n')
	switch {
	case err == nil:
		p.clock.judgeBusy()
		return line[:len(line)-1], nil
	case errors.Is(err, bufio.ErrBufferFull):
		return nil, judge.Faultf(judge.Protocol, "a line longer than %d bytes (starting %q)", judge.MaxLine, clip(line))
	case errors.Is(err, errCanceled):
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, err
	case errors.Is(err, os.ErrDeadlineExceeded):
		reason := p.timeoutReason("no #END")
		if len(line) > 0 {
			reason += fmt.Sprintf("; its last output %q has no newline", clip(line))
		} else if p.proc.Blocked() == "read stdin" {
			reason += "; it was waiting for an answer, so its last line probably never reached the judge: end every line with a newline and flush stdout (fflush(stdout), print(..., flush=True), System.out.flush())"
		}
		return nil, &judge.Fault{Status: judge.Timeout, Reason: reason}
	case errors.Is(err, io.EOF):
		return nil, p.closed("closed its standard output")
	}
	return nil, judge.Faultf(judge.Crash, "reading its output: %v", err)
}

// WriteAnswer implements judge.Player.
func (p *Player) WriteAnswer(ctx context.Context, text []byte) error {
	// One write: the answer and its newline.
	buf := append(text, '\n')
	for {
		n, err := p.in.Write(buf)
		if errors.Is(err, os.ErrDeadlineExceeded) {
			// Late: the bot, or the machine?
			if d, ok := p.extend(); ok {
				if err := p.in.SetWriteDeadline(d); err != nil {
					return err
				}
				buf = buf[n:]
				continue
			}
		}
		return p.writeFault(ctx, err)
	}
}

// writeFault turns a failed answer into the bot's fault.
func (p *Player) writeFault(ctx context.Context, err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, os.ErrDeadlineExceeded):
		return &judge.Fault{Status: judge.Timeout, Reason: p.timeoutReason("did not read its answers")}
	case ctx.Err() != nil:
		return ctx.Err()
	}
	return p.closed("closed its standard input")
}

// closed is the fault of a bot whose stdout or stdin is closed: it ends
// the seat at once. A bot that exits within a moment is told how it
// ended (a crash, its memory limit); one that does not is killed. When
// the sandbox itself failed (its init died), it is the judge's error,
// not the bot's fault.
func (p *Player) closed(what string) error {
	t := time.NewTimer(exitWait)
	defer t.Stop()
	f := &judge.Fault{Status: judge.Crash, Reason: what}
	select {
	case <-p.proc.Done():
		e := p.proc.Exit()
		if e.Err != nil {
			return e.Err
		}
		f.Reason = e.String()
		if e.OOM {
			f.Status = judge.Memory
		}
	case <-t.C:
		f.Reason += " while still running: it was killed"
		p.kill()
	}
	p.waitStderr()
	if text, _ := p.stderr.Bytes(); len(text) > 0 {
		f.Reason += "; stderr: " + judge.LastLines(text, 5, 600)
	}
	return f
}

// EndTurn implements judge.Player: the bot is frozen again and its CPU
// time for the turn measured.
func (p *Player) EndTurn(context.Context) (judge.Usage, error) {
	if p.stopWake != nil {
		p.stopWake()
		p.stopWake = nil
	}
	var u judge.Usage
	cpu1, err := p.proc.CPUTime()
	if err == nil {
		u = judge.Usage{CPU: cpu1 - p.cpu0, CPUKnown: true}
	}
	q := p.clock.queued(p.proc)
	u.Waited = q + p.clock.judging() + p.clock.late()
	noteTurn(q, p.turn.Limit)
	if p.freeze {
		// Freezing a bot that waits for its next turn on its stdin, as
		// bots do, changes nothing but the cost of the turn: it cannot
		// run before the judge writes to it. So a bot is left as it is,
		// and its CPU time at the start of its next turn says whether
		// anything of it ran meanwhile (computing after #END, a thread or
		// a child computing while another waits): if so, it is frozen
		// between its turns from then on.
		if !p.ponders && err == nil && p.proc.CountsAll() {
			p.idle, p.idleCPU = true, cpu1
		} else {
			_ = p.proc.Freeze()
		}
	}
	return u, nil
}

// idleSlack is how much CPU time a bot left unfrozen between two turns
// may use without being found computing meanwhile: what it takes to
// wake up in its read.
const idleSlack = time.Millisecond

// Stop implements judge.Player: stdin is closed, the bot has grace to exit
// by itself, then its whole sandbox is killed. It returns once the bot is
// reaped and its stderr read, or a bounded time after the kill.
func (p *Player) Stop(grace time.Duration) judge.Final {
	p.stopOnce.Do(func() {
		_ = p.proc.Thaw() // to exit by itself, it must run
		p.in.Close()
		if grace > 0 {
			t := time.NewTimer(grace)
			select {
			case <-p.proc.Done():
			case <-t.C:
			}
			t.Stop()
		}
		p.kill()
		p.outR.close()
		p.out.Close()
		p.waitStderr()
		text, total := p.stderr.Bytes()
		p.final = judge.Final{Stderr: text, StderrBytes: total}
	})
	return p.final
}

// Exit is how the bot ended; valid once Stop has returned.
func (p *Player) Exit() sandbox.Exit { return p.proc.Exit() }

// kill ends the sandbox and waits, a bounded time, for it to be gone.
func (p *Player) kill() {
	p.proc.Kill()
	t := time.NewTimer(killWait)
	defer t.Stop()
	select {
	case <-p.proc.Done():
	case <-t.C:
	}
}

// waitStderr waits for the end of the bot's stderr, a bounded time: then
// it stops reading, whatever still holds the pipe open.
func (p *Player) waitStderr() {
	t := time.NewTimer(stderrWait)
	defer t.Stop()
	select {
	case <-p.errEnd:
		return
	case <-t.C:
	}
	p.errR.Close() // wakes the copier
	<-p.errEnd
}

// openRawPTY opens a pseudo-terminal in raw mode: no echo, no CR/LF
// translation, no line editing or length limit. The master end comes back
// non-blocking, so reads can have deadlines.
func openRawPTY() (master, slave *os.File, err error) {
	m, s, err := pty.Open()
	if err != nil {
		return nil, nil, fmt.Errorf("open pty: %w", err)
	}
	defer func() {
		if err != nil {
			m.Close()
			s.Close()
		}
	}()
	if err := MakeRaw(s); err != nil {
		return nil, nil, err
	}
	// pty.Open used the master's Fd, which made it blocking; take a fresh
	// non-blocking descriptor so the runtime poller serves it.
	fd, err := unix.FcntlInt(m.Fd(), unix.F_DUPFD_CLOEXEC, 0)
	if err != nil {
		return nil, nil, fmt.Errorf("pty dup: %w", err)
	}
	if err := unix.SetNonblock(fd, true); err != nil {
		unix.Close(fd)
		return nil, nil, fmt.Errorf("pty nonblock: %w", err)
	}
	m.Close()
	return os.NewFile(uintptr(fd), "/dev/ptmx"), s, nil
}

// MakeRaw puts the terminal f in raw mode (cfmakeraw, and no output
// processing at all).
func MakeRaw(f *os.File) error {
	t, err := unix.IoctlGetTermios(int(f.Fd()), unix.TCGETS)
	if err != nil {
		return fmt.Errorf("pty termios: %w", err)
	}
	t.Iflag &^= unix.IGNBRK | unix.BRKINT | unix.PARMRK | unix.ISTRIP | unix.INLCR | unix.IGNCR | unix.ICRNL | unix.IXON
	t.Oflag &^= unix.OPOST
	t.Lflag &^= unix.ECHO | unix.ECHONL | unix.ICANON | unix.ISIG | unix.IEXTEN
	t.Cflag &^= unix.CSIZE | unix.PARENB
	t.Cflag |= unix.CS8
	t.Cc[unix.VMIN] = 1
	t.Cc[unix.VTIME] = 0
	if err := unix.IoctlSetTermios(int(f.Fd()), unix.TCSETS, t); err != nil {
		return fmt.Errorf("pty raw mode: %w", err)
	}
	return nil
}

// tailBuffer keeps the last cap bytes written to it and counts the rest.
type tailBuffer struct {
	mu    sync.Mutex
	buf   []byte
	cap   int
	total int64
}

func newTailBuffer(n int) *tailBuffer { return &tailBuffer{cap: n} }

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.total += int64(len(p))
	if t.cap <= 0 {
		return len(p), nil
	}
	if len(p) >= t.cap {
		t.buf = append(t.buf[:0], p[len(p)-t.cap:]...)
		return len(p), nil
	}
	if over := len(t.buf) + len(p) - t.cap; over > 0 {
		t.buf = append(t.buf[:0], t.buf[over:]...)
	}
	t.buf = append(t.buf, p...)
	return len(p), nil
}

// Bytes returns what is kept and how many bytes were written in all.
func (t *tailBuffer) Bytes() ([]byte, int64) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return append([]byte(nil), t.buf...), t.total
}

// clip shortens a line for a message.
func clip(b []byte) string {
	const max = 80
	if len(b) > max {
		return string(b[:max]) + "…"
	}
	return string(b)
}

var _ judge.Player = (*Player)(nil)

// ParseLevel checks a sandbox level name ("" and "auto" mean the
// strongest the machine allows).
func ParseLevel(s string) (sandbox.Level, error) { return sandbox.ParseLevel(s) }

// HardCap is the multiple of its limit a turn may last in all, however
// long the machine keeps the bot waiting: the wall-clock bound of a turn.
const HardCap = 3

// clock tells a bot's own time in a turn from the time the machine kept
// it waiting: runnable but not running (its run-queue delay, from
// schedstat) or waiting for the judge to answer it.
type clock struct {
	start   time.Time
	rq0     time.Duration // the sandbox's run-queue time at the start
	rqKnown bool
	judge   time.Duration // the judge's time with a line of the bot's in hand
	busy    time.Time     // since when the judge holds one; zero when not
	self0   time.Duration // the judge's own threads' run-queue time at the start
}

func (c *clock) begin(proc *sandbox.Process) {
	*c = clock{start: time.Now(), self0: selfQueued()}
	if w, err := proc.Waited(); err == nil {
		c.rq0, c.rqKnown = w, true
	}
}

// judgeBusy: the judge has a line of the bot's to handle.
func (c *clock) judgeBusy() { c.busy = time.Now() }

// judgeDone: the judge is ready for the bot's next line.
func (c *clock) judgeDone() {
	if !c.busy.IsZero() {
		c.judge += time.Since(c.busy)
		c.busy = time.Time{}
	}
}

// queued is the run-queue time of the bot's processes so far in the turn.
func (c *clock) queued(proc *sandbox.Process) time.Duration {
	if !c.rqKnown {
		return 0
	}
	w, err := proc.Waited()
	if err != nil {
		return 0
	}
	return max(0, w-c.rq0) // threads that ended take their time with them
}

// late is the run-queue time of the judge's own threads so far in the
// turn: while the judge waits for a CPU, a bot waiting for its answer
// waits for the machine. (It counts every match of this judge: the bot
// gets the benefit of the doubt.)
func (c *clock) late() time.Duration { return max(0, selfQueued()-c.self0) }

// judging is the judge's time with the bot's lines in hand, the line it
// holds now included.
func (c *clock) judging() time.Duration {
	if c.busy.IsZero() {
		return c.judge
	}
	return c.judge + time.Since(c.busy)
}

// waited is all the time the machine kept the bot waiting in the turn.
func (c *clock) waited(proc *sandbox.Process) time.Duration {
	return c.queued(proc) + c.judging() + c.late()
}

// selfQueued is the run-queue time of every thread of the judge so far
// (schedstat's second field), or 0 where it cannot be read.
func selfQueued() time.Duration {
	// Five bots moving at once ask for it ten times a turn within a
	// moment: a reading serves for selfFresh.
	selfMu.Lock()
	defer selfMu.Unlock()
	if now := time.Now(); now.Sub(selfAt) > selfFresh {
		selfLast, _ = self.Of(os.Getpid())
		selfAt = now
	}
	return selfLast
}

// selfFresh is how long a reading of the judge's own run-queue time is
// used again: what a turn's clock may miss of the judge's lateness.
const selfFresh = 200 * time.Microsecond

var (
	selfMu   sync.Mutex
	selfAt   time.Time
	selfLast time.Duration
)

// self keeps the judge's own threads' schedstat files open; the Go
// runtime starts threads seldom, they are listed again after a while.
var self = sandbox.Waits{Relist: 100 * time.Millisecond}

// extend gives the turn a later deadline when the bot has not used its
// limit of its own time, within the hard cap.
func (p *Player) extend() (time.Time, bool) {
	now := time.Now()
	hard := p.clock.start.Add(HardCap * p.turn.Limit)
	if !now.Before(hard) {
		return time.Time{}, false
	}
	own := now.Sub(p.clock.start) - p.clock.waited(p.proc)
	if own >= p.turn.Limit {
		return time.Time{}, false
	}
	d := now.Add(p.turn.Limit - own)
	if d.After(hard) {
		d = hard
	}
	return d, true
}

// timeoutReason says what the bot did not do in time, with the figures.
func (p *Player) timeoutReason(what string) string {
	wall := time.Since(p.clock.start)
	q, j := p.clock.queued(p.proc), p.clock.judging()+p.clock.late()
	r := fmt.Sprintf("%s within %v of its own time", what, p.turn.Limit)
	if wall >= HardCap*p.turn.Limit {
		r = fmt.Sprintf("%s within %v, %d× its limit, of wall-clock time", what, HardCap*p.turn.Limit, HardCap)
	}
	r += fmt.Sprintf(" (%v in all, of which %v waiting for a CPU and %v for the judge", wall.Round(time.Millisecond), q.Round(time.Millisecond), j.Round(time.Millisecond))
	if cpu, err := p.proc.CPUTime(); err == nil {
		r += fmt.Sprintf("; it used %v of CPU", (cpu - p.cpu0).Round(time.Millisecond))
	}
	return r + ")"
}
