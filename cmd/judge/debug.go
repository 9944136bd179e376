package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"judge/judge"
	"judge/judge/procbot"
)

func (m *Main) debug(ctx context.Context, args []string) error {
	fs := m.newFlags("debug", "REPLAY [--seat S] [--turn N] -- CMD...",
		"Runs CMD (the bot, or the bot under a debugger: python3 -m pdb bot.py, gdb --args\n"+
			"./bot) as the seat of REPLAY, with the input it had in the match: the game is\n"+
			"played again through the recorded moves, and the bot's queries are answered from\n"+
			"it as the match answered them, up to the end of turn N; then the bot's input is\n"+
			"the terminal's. What the bot writes that is not the protocol (a debugger's prompt\n"+
			"and output) reaches the terminal, and what is typed there reaches the bot, so a\n"+
			"debugger stops where the bot went wrong, with the same board. By default the seat\n"+
			"that failed (else the loser) and the turn it failed at (else its last). The bot\n"+
			"runs outside the sandbox, with JUDGE_SEED as in the match.")
	gameDir, configFile := replayGameFlags(fs)
	seat := fs.Int("seat", -1, "the seat to play (default: the one that failed, else the loser, else 0)")
	upTo := fs.Int("turn", 0, "the last turn served (default: the turn the seat failed at, else its last)")
	quiet := fs.Bool("quiet", false, "print nothing of the judge's own but where the bot parts from the match")
	var argv []string
	for i, a := range args {
		if a == "--" {
			args, argv = args[:i], args[i+1:]
			break
		}
	}
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if err := addPluginGames(*configFile, nil); err != nil {
		return err
	}
	if len(pos) != 1 || len(argv) == 0 {
		return fmt.Errorf("%w: want a replay file, then -- and the bot's command (judge debug game.json -- python3 bot.py)", errUsage)
	}
	rp, err := readReplay(pos[0])
	if err != nil {
		return err
	}
	v, err := replayGame(m.Stderr, rp, *gameDir)
	if err != nil {
		return fmt.Errorf("%s: %w", pos[0], err)
	}
	if *seat < 0 {
		*seat = defaultSeat(rp)
	}
	rr, err := judge.NewRerun(v.Game, rp, *seat)
	if err != nil {
		return fmt.Errorf("%s: %w", pos[0], err)
	}
	if *upTo <= 0 {
		*upTo = lastTurn(rp, *seat)
	}
	// The judge's words and the bot's stderr go to the same place, a
	// whole line at a time.
	errw := &stderrMux{w: m.Stderr}
	say := func(format string, a ...any) {
		text := strings.TrimRight(fmt.Sprintf(format, a...), "\n")
		errw.say(fmt.Sprintf("judge: %s\n", strings.ReplaceAll(text, "\n", "\njudge: ")))
	}
	if !*quiet {
		say("%s as seat %d (%s) of %s, its turns up to %d; then the terminal is its input", strings.Join(argv, " "), *seat,
			judge.PrintableLine(rp.Bots[*seat].Name), pos[0], *upTo)
	}

	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Env = procbot.LineEnv(append(os.Environ(), "JUDGE_SEED="+strconv.FormatUint(judge.SeatSeed(rp.Seed, *seat), 10)))
	cmd.Stderr = errw
	cmd.WaitDelay = time.Second
	in, err := cmd.StdinPipe()
	if err != nil {
		return err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	d := &debugSession{m: m, rr: rr, upTo: *upTo, quiet: *quiet, in: in, say: say, serving: rr.Turn() > 0 && rr.Turn() <= *upTo}
	if m.Stdin != nil {
		go d.forward(m.Stdin)
	}
	if err := d.serve(out); err != nil {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		return err
	}
	err = cmd.Wait()
	errw.flush()
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		if !*quiet {
			say("the bot ended (%s) at turn %d", ee.ProcessState, d.turnSeen)
		}
	case err != nil:
		return err
	}
	return nil
}

// defaultSeat is the seat judge debug plays by default: the first that
// failed, else the loser of a two-seat match, else 0.
func defaultSeat(rp *judge.Replay) int {
	for i, p := range rp.Outcome.Players {
		if p.Status != judge.OK {
			return i
		}
	}
	if w := rp.Outcome.Winner; w >= 0 && len(rp.Bots) == 2 {
		return 1 - w
	}
	return 0
}

// lastTurn is the turn the seat failed at, else its last turn.
func lastTurn(rp *judge.Replay, seat int) int {
	last := 0
	for _, t := range rp.Turns {
		for _, mv := range t.Moves {
			if mv.Seat != seat {
				continue
			}
			last = t.Turn
			if mv.Status != judge.OK {
				return last
			}
		}
	}
	return last
}

// debugSession carries a bot's lines between the rerun, the bot and the
// terminal.
type debugSession struct {
	m     *Main
	rr    *judge.Rerun
	upTo  int
	quiet bool
	say   func(string, ...any)

	mu       sync.Mutex // guards in, serving, atPrompt, termDone
	in       io.WriteCloser
	serving  bool // the rerun answers the bot's lines
	atPrompt bool // the bot's last output is a line it has not ended: a prompt
	termDone bool // the terminal's input has ended
	closed   bool
	turnSeen int
}

// forward sends what is typed on the terminal to the bot. Its end closes
// the bot's input once the rerun needs it no more, or the bot waits at a
// prompt.
func (d *debugSession) forward(r io.Reader) {
	br := bufio.NewReader(r)
	for {
		line, err := br.ReadBytes('\n')
		if len(line) > 0 {
			d.mu.Lock()
			if !d.closed {
				_, _ = d.in.Write(line)
			}
			d.mu.Unlock()
		}
		if err != nil {
			d.mu.Lock()
			d.termDone = true
			d.closeIfDone()
			d.mu.Unlock()
			return
		}
	}
}

// closeIfDone closes the bot's input when the terminal's has ended and
// nothing more is to be answered; d.mu is held.
func (d *debugSession) closeIfDone() {
	if d.termDone && !d.closed && (!d.serving || d.atPrompt) {
		d.closed = true
		_ = d.in.Close()
	}
}

// serve reads the bot's output to its end: protocol lines go to the
// rerun while it serves, everything else to the terminal. A line left
// unended for a moment (a debugger's prompt) is shown as it is, and what
// follows it begins a line: the bot's query after pdb's "(Pdb) ".
func (d *debugSession) serve(out io.Reader) error {
	chunks := make(chan []byte)
	go func() {
		defer close(chunks)
		for {
			buf := make([]byte, 32<<10)
			n, err := out.Read(buf)
			if n > 0 {
				chunks <- buf[:n]
			}
			if err != nil {
				return
			}
		}
	}()
	var pending []byte
	idle := time.NewTimer(time.Hour)
	defer idle.Stop()
	for {
		select {
		case b, ok := <-chunks:
			if !ok {
				if len(pending) > 0 {
					d.m.Stdout.Write(pending)
				}
				return nil
			}
			d.mu.Lock()
			d.atPrompt = false
			d.mu.Unlock()
			pending = append(pending, b...)
			for {
				i := strings.IndexByte(string(pending), '\n')
				if i < 0 {
					break
				}
				line := string(pending[:i])
				pending = pending[i+1:]
				if err := d.line(line); err != nil {
					return err
				}
			}
			idle.Reset(50 * time.Millisecond)
		case <-idle.C:
			if len(pending) > 0 {
				d.m.Stdout.Write(pending)
				pending = pending[:0]
				d.mu.Lock()
				d.atPrompt = true
				d.closeIfDone()
				d.mu.Unlock()
			}
		}
	}
}

// prompts are debuggers' prompts that a bot's line may follow on the same
// line when the debugger did not wait for the terminal: "(Pdb) ",
// "(gdb) ", "ipdb> ".
var prompts = regexp.MustCompile(`^(?:\([A-Za-z0-9_-]+\) |[A-Za-z0-9_-]*> )+`)

// line handles one whole line of the bot's output.
func (d *debugSession) line(text string) error {
	d.mu.Lock()
	serving := d.serving
	d.mu.Unlock()
	if !serving {
		fmt.Fprintln(d.m.Stdout, text)
		return nil
	}
	if m := prompts.FindString(text); m != "" && !d.rr.Protocol(text) && d.rr.Protocol(text[len(m):]) {
		// A debugger's prompt, the bot's line after it: the prompt is
		// the debugger's, the line the bot's.
		io.WriteString(d.m.Stdout, m)
		text = text[len(m):]
	}
	turn := d.rr.Turn()
	if turn != d.turnSeen {
		d.turnSeen = turn
		if turn == d.upTo && !d.quiet {
			d.say("turn %d, the last served; the game as the bot finds it:\n%s", turn, d.rr.State().Render())
		}
	}
	s, err := d.rr.Line(text)
	if err != nil {
		return err
	}
	last := turn == d.upTo && !d.quiet
	switch s.Kind {
	case judge.LineOther:
		fmt.Fprintln(d.m.Stdout, text)
	case judge.LineQuery:
		d.mu.Lock()
		if !d.closed {
			_, _ = io.WriteString(d.in, s.Answer+"\n")
		}
		d.mu.Unlock()
		if last {
			d.say("bot> %s", judge.PrintableLine(text))
			for _, a := range strings.Split(s.Answer, "\n") {
				d.say("   < %s", judge.PrintableLine(a))
			}
		}
	default:
		if last {
			d.say("bot> %s", judge.PrintableLine(text))
		}
	}
	if s.Note != "" {
		d.say("turn %d: %s", turn, judge.Printable(s.Note))
	}
	if s.Kind == judge.LineEnd && (d.rr.Turn() == 0 || d.rr.Turn() > d.upTo) {
		if !d.quiet {
			d.say("turn %d is over: from here the bot's input is the terminal's", turn)
		}
		d.mu.Lock()
		d.serving = false
		d.closeIfDone()
		d.mu.Unlock()
	}
	return nil
}

// stderrMux puts the judge's lines and the bot's stderr in one stream
// without splitting a line of the bot's: what the bot writes goes out a
// whole line at a time, and a line it leaves unended (a prompt) once it
// has waited promptWait, or when the bot has ended (flush).
type stderrMux struct {
	mu      sync.Mutex
	w       io.Writer
	partial []byte
	timer   *time.Timer
}

// promptWait is how long a line the bot has not ended waits for its end.
const promptWait = 100 * time.Millisecond

// Write takes what the bot writes on its stderr.
func (s *stderrMux) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.partial = append(s.partial, p...)
	if i := bytes.LastIndexByte(s.partial, '\n'); i >= 0 {
		_, _ = s.w.Write(s.partial[:i+1])
		s.partial = append(s.partial[:0], s.partial[i+1:]...)
	}
	if len(s.partial) > 0 && s.timer == nil {
		s.timer = time.AfterFunc(promptWait, s.flush)
	}
	return len(p), nil
}

// say writes the judge's text, whole lines, between two of the bot's.
func (s *stderrMux) say(text string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, _ = io.WriteString(s.w, text)
}

// flush writes what the bot left of a line.
func (s *stderrMux) flush() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.timer != nil {
		s.timer.Stop()
		s.timer = nil
	}
	if len(s.partial) > 0 {
		_, _ = s.w.Write(s.partial)
		s.partial = s.partial[:0]
	}
}
