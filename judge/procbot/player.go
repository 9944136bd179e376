package procbot

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"judge/judge"
	"judge/sandbox"
)

// IO says what a bot's standard output is.
type IO string

// The modes of bot output.
const (
	// AutoIO, the default, gives a bot a pipe, with an environment that
	// makes its runtime flush every line (see stdio.go), and a pty where
	// that cannot work: a statically linked program that is not Go, or a
	// machine without coreutils' libstdbuf.
	AutoIO IO = "auto"
	// PTY makes the bot's stdout a raw pseudo-terminal, so that the C and
	// Python runtimes flush every line by themselves.
	PTY IO = "pty"
	// Pipe makes it a plain pipe, with nothing added: a bot must flush.
	Pipe IO = "pipe"
)

// ParseIO checks an io mode name ("" is AutoIO).
func ParseIO(s string) (IO, error) {
	switch IO(s) {
	case "", AutoIO:
		return AutoIO, nil
	case PTY:
		return PTY, nil
	case Pipe:
		return Pipe, nil
	}
	return "", fmt.Errorf("%q is not \"auto\", \"pty\" or \"pipe\"", s)
}

// Options are how bots run: the same for every bot of a match.
type Options struct {
	IO  IO                // "" for AutoIO
	Env map[string]string // added to every bot's environment
	// Level caps the isolation: sandbox.Auto for the strongest the
	// machine allows, sandbox.None for no sandbox at all.
	Level  sandbox.Level
	Limits sandbox.Limits // zero for sandbox.DefaultLimits
	Stderr int            // bytes of stderr kept (the tail); 0 for 64 KiB
	// Host starts the bots (NewHost); a bot whose Options have none
	// cannot start.
	Host *Host
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

// Start implements judge.Entrant: it starts the program in the sandbox
// of b.Options.Host, frozen until its first turn. It gives up, with an
// error that wraps ctx's, when ctx ends before the program has started.
func (b Bot) Start(ctx context.Context, s judge.Seat) (judge.Player, error) {
	return b.Options.Host.Start(ctx, b.Spec, b.Options, s.Seed)
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
	host   *Host
	proc   *sandbox.Process
	out    *os.File        // the judge reads the bot's stdout here
	outR   *fdReader       // over out
	r      *bufio.Reader   // over outR
	in     *os.File        // the judge writes the bot's stdin here
	inRC   syscall.RawConn // in's, for writes that do not wait (writeNow)
	errR   *os.File        // the bot's stderr
	stderr *tailBuffer
	errEnd chan struct{} // closed once stderr is read to its end
	dir    string        // the bot's directory, absolute, with a slash; "" for none
	io     IO            // PTY or Pipe
	freeze bool          // stop the bot between its turns
	// A bot is left unfrozen between its turns until it is found
	// computing meanwhile (see EndTurn): idle says it was left so at
	// the end of its last turn, with idleCPU used so far; ponders that it
	// computed between two turns, and is frozen between turns from then
	// on.
	idle    bool
	idleCPU time.Duration
	ponders bool
	started time.Time // when its process started

	turn     judge.Turn
	lines    int    // complete lines read this turn
	last     []byte // the last of them, its first judge.ClipLine bytes
	cpu0     time.Duration
	stopWake func() bool
	clock    clock

	stopOnce sync.Once
	final    judge.Final

	// writeNow's write, made once: its buffer and its result.
	rawWrite func(fd uintptr)
	wBuf     []byte
	wN       int
	wErr     error
}

// Start starts spec with a minimal environment (see Env), as o says (but
// for o.Host: h starts it). The bot runs from its start, loading, until
// Settle. It gives up, with an error that wraps ctx's, when ctx ends
// before the program has started.
func (h *Host) Start(ctx context.Context, spec Spec, o Options, seed uint64) (*Player, error) {
	if h == nil {
		return nil, errNoHost
	}
	if o.Limits == (sandbox.Limits{}) {
		o.Limits = sandbox.DefaultLimits
	}
	if o.Stderr == 0 {
		o.Stderr = judge.DefaultTurnLimits.Stderr
	}
	mode, err := ParseIO(string(o.IO))
	if err != nil {
		return nil, err
	}
	mode, shims, ro, err := h.shape(spec, mode)
	if err != nil {
		return nil, err
	}
	inR, inW, err := stdinPipe()
	if err != nil {
		return nil, fmt.Errorf("stdin pipe: %w", err)
	}
	defer inR.Close()
	var outR, outW *os.File
	if mode == PTY {
		outR, outW, err = openRawPTY()
	} else {
		outR, outW, err = outPipe()
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

	env := Env(o.Env, seed, o.Limits.Memory)
	if shims {
		env = lineEnv(env)
	}
	proc, err := h.sb.Start(ctx, sandbox.Spec{
		Argv: spec.Argv, Dir: spec.Dir, Env: env,
		Stdin: inR, Stdout: outW, Stderr: errW,
		Limits:   o.Limits,
		Level:    o.Level,
		ReadOnly: ro,
	})
	if err != nil {
		inW.Close()
		outR.Close()
		errR.Close()
		return nil, err
	}
	started := time.Now()
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
		host:    h,
		clock:   clock{self: &h.self},
		proc:    proc,
		io:      mode,
		out:     outR,
		outR:    fr,
		r:       bufio.NewReaderSize(fr, judge.MaxLine),
		in:      inW,
		errR:    errR,
		stderr:  newTailBuffer(o.Stderr, jvmLine(env)),
		errEnd:  make(chan struct{}),
		dir:     dirPrefix(spec.Dir),
		freeze:  proc.Level() != sandbox.None,
		started: started,
	}
	go func() {
		defer close(p.errEnd)
		_, _ = io.Copy(p.stderr, errR)
	}()
	go p.watchStdin()
	return p, nil
}

// shape is how a bot's program runs, as far as it shapes its sandbox:
// its output's IO (mode, made exact), whether the line-buffering shims
// are in it, and the files it sees read-only (its own, and the shims').
// A program whose interpreter is not one is the bot's error, at once.
func (h *Host) shape(spec Spec, mode IO) (IO, bool, []string, error) {
	if len(spec.Argv) == 0 {
		return "", false, nil, errors.New("empty bot command")
	}
	// What the program runs, a script's interpreter, is looked at before
	// it starts.
	interp := ""
	if prog, err := lookPath(inDir(spec.Argv[0], spec.Dir)); err == nil {
		if interp, err = interpreterOf(prog, spec.Dir); err != nil {
			return "", false, nil, fmt.Errorf("bot %s: %w", spec.Argv[0], err)
		}
	}
	mode, shims := h.chooseIO(mode, interp)
	// The bot sees its own files (read-only), nothing else of ours.
	ro := sandbox.PathsOf(spec.Argv, spec.Dir)
	if shims {
		ro = append(ro, lineBuffering().ruby)
	}
	return mode, shims, ro, nil
}

// Prewarm implements judge.Prewarmer: it readies a sandbox of the shape
// the bot's program runs in (sandbox.Host.Prewarm), which its first start
// then takes, as quick as the next ones.
func (b Bot) Prewarm(ctx context.Context) error {
	h, o := b.Options.Host, b.Options
	if h == nil {
		return errNoHost
	}
	mode, err := ParseIO(string(o.IO))
	if err != nil {
		return err
	}
	_, _, ro, err := h.shape(b.Spec, mode)
	if err != nil {
		return err
	}
	return h.sb.Prewarm(ctx, sandbox.Spec{Argv: b.Spec.Argv, Dir: b.Spec.Dir, Limits: o.SandboxLimits(), Level: o.Level, ReadOnly: ro}, 1)
}

// watchStdin tells the reader of the bot's output once the bot's stdin
// has no reader left: the bot closed it, or ended. The judge would
// otherwise learn it only by writing an answer, and a bot that closes
// its stdin and then says nothing would hold its seat until its time
// limit. It waits in the runtime poller, which reports the pipe's error
// (POLLERR: no reader) to a read wait, and ends once the judge closes
// its end.
func (p *Player) watchStdin() {
	rc, err := p.in.SyscallConn()
	if err != nil {
		return
	}
	if !canWatchWriter {
		return
	}
	if rc.Read(noReader) != nil {
		// Closed by the judge, or an error event of the poller (the
		// pipe was full): look once more, if it is still open.
		closed := false
		if rc.Control(func(fd uintptr) { closed = noReader(fd) }) != nil || !closed {
			return
		}
	}
	p.outR.inClosed()
}

// Env is the whole environment of a bot: BaseEnv, JUDGE_SEED,
// RuntimeEnv(memory) for a memory limit of memory bytes, and what the
// configuration adds (which may replace any of them). Nothing of the
// judge's own environment reaches a bot on Linux and macOS; on Windows
// only SystemEnv and PATH do.
func Env(extra map[string]string, seed uint64, memory int64) []string {
	env := BaseEnv()
	env["JUDGE_SEED"] = strconv.FormatUint(seed, 10)
	for k, v := range RuntimeEnv(memory) {
		env[k] = v
	}
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

// RuntimeEnv is what a bot's environment tells the runtimes that would
// otherwise size themselves from the machine, whatever the bot's command
// line, for a memory limit of memory bytes (0: none):
//
//   - JAVA_TOOL_OPTIONS, which every JVM reads before its command line (so
//     that options given there win): the heap, thread stacks and collector
//     of the java run line of configs/languages.toml, and the JVM's own
//     messages on stderr. Under an RLIMIT_DATA (sandbox levels namespaces
//     and basic) a JVM that plans for the machine's RAM cannot start. The
//     JVM says "Picked up JAVA_TOOL_OPTIONS: ..." first on stderr, whatever
//     its options (every variable it reads options from makes it say so):
//     the bot's stderr is kept without that line (jvmLine).
//   - GOMEMLIMIT, half the limit: Go's collector then works to keep the
//     heap there, where it would otherwise let it grow to twice what is
//     live, and the memory it maps (which RLIMIT_DATA counts, used or not)
//     stays within the limit.
func RuntimeEnv(memory int64) map[string]string {
	java := "-XX:+DisplayVMOutputToStderr -Xlog:disable -Xlog:all=warning:stderr"
	if memory <= 0 {
		return map[string]string{"JAVA_TOOL_OPTIONS": java}
	}
	mb := max(memory>>20, 1)
	return map[string]string{
		"JAVA_TOOL_OPTIONS": fmt.Sprintf("-XX:MaxRAM=%dm -XX:MaxRAMPercentage=40 -Xss%dm -XX:+UseSerialGC %s", mb, min(max(mb/64, 1), 64), java),
		"GOMEMLIMIT":        fmt.Sprintf("%dMiB", max(mb/2, 1)),
	}
}

// jvmLine is the line a JVM started with the environment env writes
// first on its stderr, to say that it read JAVA_TOOL_OPTIONS: the judge's
// words, not the bot's, left out of the bot's stderr when it comes first.
func jvmLine(env []string) []byte {
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "JAVA_TOOL_OPTIONS="); ok {
			return []byte("Picked up JAVA_TOOL_OPTIONS: " + v + "\n")
		}
	}
	return nil
}

// IO is what the bot's stdout is: PTY or Pipe.
func (p *Player) IO() IO { return p.io }

// Pid is the process id of the bot's program, as the judge sees it.
func (p *Player) Pid() int { return p.proc.Pid() }

// Protection implements judge.Protected.
func (p *Player) Protection() string { return p.proc.Protection() }

// BeginTurn implements judge.Player: the bot is thawed, its reads and
// writes get the turn's deadline.
func (p *Player) BeginTurn(ctx context.Context, t judge.Turn) error {
	p.turn = t
	p.lines, p.last = 0, p.last[:0]
	p.clock.begin(p.proc)
	p.cpu0 = p.clock.cpu0
	p.outR.extend = p.extend
	p.outR.late = p.clock.judgeLate
	if err := p.outR.setDeadline(t.Deadline, t.Shared); err != nil {
		return err
	}
	if err := p.in.SetWriteDeadline(t.Deadline); err != nil && !errors.Is(err, os.ErrNoDeadline) {
		return err // every system's pipes take one but Windows's (stdinPipe)
	}
	// Ctrl-C and the like wake a read that is waiting.
	p.stopWake = context.AfterFunc(ctx, p.outR.cancel)
	if p.freeze && !p.idle {
		// A bot that cannot be thawed has ended: its next read says how.
		_ = p.proc.Thaw()
	}
	// Something of it ran while it was idle, or may have: a process of
	// its sandbox that its CPU time does not count (a sandbox without a
	// cgroup counts a program alone in it).
	if p.idle && (p.clock.cpuKnown && p.cpu0-p.idleCPU > idleSlack || !p.proc.CountsAll()) {
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
		line = line[:len(line)-1]
		p.lines++
		p.last = append(p.last[:0], line[:min(len(line), judge.ClipLine)]...)
		return line, nil
	case errors.Is(err, bufio.ErrBufferFull):
		return nil, judge.Faultf(judge.Protocol, "a line longer than %d bytes (starting %q)", judge.MaxLine, judge.Clip(string(line), judge.ClipLine))
	case errors.Is(err, errCanceled):
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, err
	case errors.Is(err, os.ErrDeadlineExceeded):
		reason := p.timeoutReason("no #END")
		if len(line) > 0 {
			reason += fmt.Sprintf("; its last output %q has no newline", judge.Clip(string(line), judge.ClipLine))
		} else if p.proc.Blocked() == "read stdin" {
			reason += p.waitingHint()
		}
		return nil, &judge.Fault{Status: judge.Timeout, Reason: reason}
	case errors.Is(err, io.EOF):
		return nil, p.closed("closed its standard output")
	case errors.Is(err, errInClosed):
		return nil, p.closed("closed its standard input")
	}
	return nil, judge.Faultf(judge.Crash, "reading its output: %v", err)
}

// waitingHint is what a timeout's reason adds for a bot that was
// waiting for input, with no partial line pending. Its lines that
// arrived tell the two cases apart: a bot whose lines all arrived (every
// answer written) ended its turn without #END, or wrote #END and did not
// flush it; a bot with nothing read this turn did not flush at all.
func (p *Player) waitingHint() string {
	const flush = "flush stdout after it (fflush(stdout), print(..., flush=True), System.out.flush())"
	if p.lines > 0 {
		return fmt.Sprintf("; its line %q arrived, and then it waited for input with no #END: a turn ends with the line #END; write it, and %s",
			judge.Clip(string(p.last), judge.ClipLine), flush)
	}
	return "; nothing arrived this turn and it was waiting for input, so its lines probably never reached the judge: end every line with a newline and " + flush
}

// WriteAnswer implements judge.Player.
func (p *Player) WriteAnswer(ctx context.Context, text []byte) error {
	// The answer is ready: from now on the bot's time is its own again
	// (a bot that does not read its answers runs out its time).
	p.clock.judgeDone()
	// One write: the answer and its newline; first without the runtime's
	// poller, whose bookkeeping is most of a write's cost.
	buf := append(text, '\n')
	if n, ok := p.writeNow(buf); ok {
		if buf = buf[n:]; len(buf) == 0 {
			return nil
		}
	}
	for {
		n, err := p.in.Write(buf)
		if errors.Is(err, os.ErrDeadlineExceeded) {
			// The runtime does not try a write past its deadline: one
			// that fits is made now, whoever was late.
			buf = buf[n:]
			if m, ok := p.writeNow(buf); ok {
				if buf = buf[m:]; len(buf) == 0 {
					return nil
				}
			}
			// Late: the bot, or the machine?
			if d, ok := p.extend(); ok {
				if err := p.in.SetWriteDeadline(d); err != nil {
					return err
				}
				continue
			}
		}
		return p.writeFault(ctx, err)
	}
}

// writeNow writes what fits of b to the bot's stdin without waiting,
// deadline or not.
func (p *Player) writeNow(b []byte) (int, bool) {
	if p.inRC == nil {
		rc, err := p.in.SyscallConn()
		if err != nil {
			return 0, false
		}
		p.inRC = rc
		p.rawWrite = func(fd uintptr) { p.wN, p.wErr = writeFD(fd, p.wBuf) }
	}
	// A function made once and fields, not a closure over b: nothing of
	// a query's answer is allocated.
	p.wBuf = b
	err := p.inRC.Control(p.rawWrite)
	n, werr := p.wN, p.wErr
	p.wBuf, p.wErr = nil, nil
	if err != nil || werr != nil || n < 0 {
		return 0, false
	}
	return n, true
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
		switch {
		case e.OOM:
			f.Status = judge.Memory
		case !e.Signaled() && !e.Wall && e.Code == 0:
			f.Reason = p.endedEarly()
		}
	case <-t.C:
		p.kill()
		// On a loaded machine its end may take longer to be reported
		// than it had: one that ended by itself meanwhile (a crash, a
		// core dump being written) is told as such, not as killed.
		if e, ok := p.ended(); ok && (e.Signaled() && e.Signal != syscall.SIGKILL || e.OOM) {
			f.Reason = e.String()
			if e.OOM {
				f.Status = judge.Memory
			}
		} else {
			f.Reason += " while still running: it was killed"
		}
	}
	p.waitStderr()
	if text, _ := p.stderr.Bytes(); len(text) > 0 {
		f.Reason += "; stderr: " + judge.LastLines(p.relative(text), 5, 600)
	}
	return f
}

// relative is text the bot wrote, the paths under its directory made
// relative to it: what a reason and a replay keep of its stderr names its
// files as its author knows them, and nothing of where the judge keeps
// them.
func (p *Player) relative(text []byte) []byte {
	if p.dir == "" || !bytes.Contains(text, []byte(p.dir)) {
		return text
	}
	return bytes.ReplaceAll(text, []byte(p.dir), nil)
}

// dirPrefix is dir, a bot's directory, made absolute and ending in a
// slash, as it begins the paths of the bot's files in what the bot
// writes (a Python traceback names its script by its absolute path): a
// crash's reason names them relative to it ("bot.py", not
// /srv/arena/builds/KEY/src/bot.py). "" for none, or the root.
func dirPrefix(dir string) string {
	if dir == "" {
		return ""
	}
	abs, err := filepath.Abs(dir)
	if err != nil || abs == string(filepath.Separator) {
		return ""
	}
	return abs + string(filepath.Separator)
}

// endedEarly is the reason of a bot that exited with status 0 while the
// game went on.
func (p *Player) endedEarly() string {
	return fmt.Sprintf("it ended before the game did: it exited with status 0 at turn %d "+
		"(a bot plays every turn: after #END, read the next turn's input, until the judge closes it)", p.turn.Number)
}

// ended is how the bot ended, once it has.
func (p *Player) ended() (sandbox.Exit, bool) {
	select {
	case <-p.proc.Done():
		return p.proc.Exit(), true
	default:
		return sandbox.Exit{}, false
	}
}

// EndTurn implements judge.Player: the bot is frozen again and its CPU
// time for the turn measured.
func (p *Player) EndTurn(context.Context) (judge.Usage, error) {
	if p.stopWake != nil {
		p.stopWake()
		p.stopWake = nil
	}
	var u judge.Usage
	f := p.clock.measure(p.proc)
	cpu1, err := f.cpuAt, f.cpuErr
	if err == nil && p.clock.cpuKnown {
		u = judge.Usage{CPU: cpu1 - p.cpu0, CPUKnown: true}
	}
	u.Waited = f.cpuWait + f.judgeWait
	p.host.late.note(f.cpuWait, p.turn.Limit)
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

// TurnStderr implements judge.StderrByTurn: what the bot wrote on its
// stderr since the last call. What the bot wrote before the judge read its
// #END is in the pipe by then, unless a child of the bot still writes; the
// bytes the pipe holds are waited for, a bounded time (stderrWait), so
// that they count in this turn and not in the next.
func (p *Player) TurnStderr() ([]byte, int64) {
	if pending := p.stderrPending(); pending > 0 {
		want := p.stderr.written() + int64(pending)
		t := time.NewTimer(stderrWait)
		defer t.Stop()
		tick := time.NewTicker(200 * time.Microsecond)
		defer tick.Stop()
	wait:
		for p.stderr.written() < want {
			select {
			case <-p.errEnd:
				break wait
			case <-t.C:
				break wait
			case <-tick.C:
			}
		}
	}
	text, cut, _ := p.stderr.take()
	return p.relative(text), cut
}

// stderrPending is how many bytes the bot's stderr pipe holds, not yet
// read by the copier (pipeBytes); 0 when it cannot tell.
func (p *Player) stderrPending() int {
	rc, err := p.errR.SyscallConn()
	if err != nil {
		return 0
	}
	n := 0
	_ = rc.Control(func(fd uintptr) {
		n = pipeBytes(fd)
	})
	return n
}

// settleWithin is how long a bot may load after its start, in parallel
// with the other bots of its match, before it is stopped until its first
// turn: enough for a C or Python program (a JVM goes on loading in its
// first turn). Settle looks whether it waits for input at once, then
// after settlePoll, then half as long again each time, up to
// settlePollMax.
const (
	settleWithin  = 50 * time.Millisecond
	settlePoll    = 100 * time.Microsecond
	settlePollMax = 2 * time.Millisecond
)

// Settle implements judge.Settler. A bot runs from its start, and the
// bots of a match load at once, on every CPU, before OneCPU gives the
// match one. Once a bot waits for its input it is left idle, as between
// turns (see EndTurn); else it is frozen settleWithin after its start,
// and goes on loading in its first turn. Without a sandbox nothing is
// frozen, and where the judge cannot see what a bot waits for (off
// Linux) nothing is waited for.
func (p *Player) Settle(ctx context.Context) {
	if !seesBlocked {
		return
	}
	for wait := settlePoll; ; wait = min(wait*3/2, settlePollMax) {
		if p.proc.Blocked() == "read stdin" {
			if !p.freeze {
				return
			}
			if cpu, err := p.proc.CPUTime(); err == nil && p.proc.CountsAll() {
				p.idle, p.idleCPU = true, cpu
				return
			}
			break
		}
		left := settleWithin - time.Since(p.started)
		if left <= 0 || ctx.Err() != nil {
			break
		}
		nap(min(wait, left))
	}
	if p.freeze {
		_ = p.proc.Freeze()
	}
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
		p.final = judge.Final{Stderr: p.relative(text), StderrBytes: total}
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

// tailBuffer keeps the last cap bytes written to it and counts the rest.
// It also keeps, for TurnStderr, the first judge.TraceTurnBytes written
// since the last take, and counts what it left out of them. The line
// skip, when the stream starts with it, is left out: it is not the
// program's (jvmLine).
type tailBuffer struct {
	mu      sync.Mutex
	buf     []byte
	cap     int
	total   int64 // written and kept or counted
	raw     int64 // written, skip included
	skip    []byte
	matched int // bytes of skip seen so far, held back
	turn    []byte
	turnCut int64
}

func newTailBuffer(n int, skip []byte) *tailBuffer { return &tailBuffer{cap: n, skip: skip} }

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	n := len(p)
	t.raw += int64(n)
	if t.skip != nil {
		k := min(len(p), len(t.skip)-t.matched)
		if bytes.Equal(p[:k], t.skip[t.matched:t.matched+k]) {
			t.matched += k
			if t.matched < len(t.skip) {
				return n, nil
			}
			t.skip, p = nil, p[k:]
		} else {
			// Not the line after all: what was held back is the program's.
			held := t.skip[:t.matched]
			t.skip = nil
			t.keep(held)
		}
	}
	t.keep(p)
	return n, nil
}

// keep adds p to the tail and to the turn's text; t.mu is held.
func (t *tailBuffer) keep(p []byte) {
	t.total += int64(len(p))
	room := max(0, judge.TraceTurnBytes-len(t.turn))
	t.turn = append(t.turn, p[:min(room, len(p))]...)
	t.turnCut += int64(len(p) - min(room, len(p)))
	if t.cap <= 0 {
		return
	}
	if len(p) >= t.cap {
		t.buf = append(t.buf[:0], p[len(p)-t.cap:]...)
		return
	}
	if over := len(t.buf) + len(p) - t.cap; over > 0 {
		t.buf = append(t.buf[:0], t.buf[over:]...)
	}
	t.buf = append(t.buf, p...)
}

// take returns what was written since the last take (its first
// judge.TraceTurnBytes), how many bytes of it were left out, and how many
// were written in all.
func (t *tailBuffer) take() ([]byte, int64, int64) {
	t.mu.Lock()
	defer t.mu.Unlock()
	text, cut := t.turn, t.turnCut
	t.turn, t.turnCut = nil, 0
	return text, cut, t.total
}

// written is how many bytes were written in all, a skipped line's too:
// what was read of the pipe.
func (t *tailBuffer) written() int64 {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.raw
}

// Bytes returns what is kept and how many bytes were written in all.
func (t *tailBuffer) Bytes() ([]byte, int64) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return append([]byte(nil), t.buf...), t.total
}

var (
	_ judge.Player       = (*Player)(nil)
	_ judge.StderrByTurn = (*Player)(nil)
)

// ParseLevel checks a sandbox level name ("" and "auto" mean the
// strongest the machine allows).
func ParseLevel(s string) (sandbox.Level, error) { return sandbox.ParseLevel(s) }
