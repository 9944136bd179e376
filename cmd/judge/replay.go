package main

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"judge/judge"
	"judge/judge/replayview"
)

func (m *Main) replay(ctx context.Context, args []string) error {
	fs := m.newFlags("replay", "[flags] FILE",
		"Plays a replay written by 'judge match --replay' back in the terminal: the board\n"+
			"after every turn, each bot's move, its time and status. The moves are checked\n"+
			"against the game's rules as they are replayed. 'judge view' shows the same in a\n"+
			"browser.")
	delay := fs.Duration("delay", 0, "pause between turns, e.g. 300ms")
	gameDir, configFile := replayGameFlags(fs)
	trace := fs.Bool("trace", false, "also print each bot's protocol transcript and stderr under its turns, if recorded")
	stdinOf := fs.Int("stdin-of", -1, "print only what the match wrote on this seat's stdin (the answers to its queries), from the replay's transcript (--trace)")
	upTo := fs.Int("turn", 0, "with --stdin-of: up to the end of this turn (default: to the end)")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if err := addPluginGames(*configFile, nil); err != nil {
		return err
	}
	if len(pos) != 1 {
		return fmt.Errorf("%w: want one replay file, got %d arguments", errUsage, len(pos))
	}
	rp, err := readReplay(pos[0])
	if err != nil {
		return err
	}
	if *stdinOf >= 0 {
		in, err := judge.StdinOf(rp, *stdinOf, *upTo)
		if err != nil {
			return fmt.Errorf("%s: %w", pos[0], err)
		}
		fmt.Fprint(m.Stdout, judge.Printable(in))
		return nil
	}
	v, err := replayGame(m.Stderr, rp, *gameDir)
	if err != nil {
		return fmt.Errorf("%s: %w", pos[0], err)
	}
	w := m.Stdout
	fmt.Fprintf(w, "%s (%s), seed %d\n", rp.Game, formatParams(rp.Params), rp.Seed)
	for i, b := range rp.Bots {
		fmt.Fprintf(w, "  seat %d: %s (%s)\n", i, judge.PrintableLine(b.Name), judge.PrintableLine(strings.Join(b.Command, " ")))
	}
	var traces [][][]judge.TraceLine
	if *trace {
		recorded := false
		for _, b := range rp.Bots {
			recorded = recorded || len(b.Trace) > 0
		}
		if recorded {
			traces = replayview.TurnTraces(rp)
		} else {
			fmt.Fprintln(w, "\nno transcripts: this replay was recorded without them (judge match --trace and\njudge tournament --trace keep them; or replay a match with judge match --trace and its seed)")
		}
	}
	name := func(s string) string { return s } // the seats in the game's words named, as judge match does
	err = replayview.Play(v.Game, rp, func(s replayview.Step) error {
		if s.Turn == nil {
			name = judge.Namer(s.State, rp)
			fmt.Fprintf(w, "\n%s\n", s.State.Render())
			return nil
		}
		if *delay > 0 {
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(*delay):
			}
		}
		fmt.Fprintf(w, "turn %d\n", s.Turn.Turn)
		for _, mv := range s.Turn.Moves {
			var lines []judge.TraceLine
			if traces != nil {
				lines = traces[s.Index-1][mv.Seat]
			}
			printMove(w, rp, mv, lines, *trace)
		}
		fmt.Fprintf(w, "%s\n", s.State.Render())
		return nil
	})
	if err != nil {
		return fmt.Errorf("%s: %w", pos[0], err)
	}
	o := rp.Outcome
	if o.Winner >= 0 {
		fmt.Fprintf(w, "seat %d (%s) wins: %s\n", o.Winner, judge.PrintableLine(rp.Bots[o.Winner].Name), judge.Printable(name(o.Reason)))
	} else {
		fmt.Fprintf(w, "no winner: %s\n", judge.Printable(name(o.Reason)))
	}
	for i, p := range o.Players {
		fmt.Fprintf(w, "  seat %d  %-20s %-8s score %g", i, judge.PrintableLine(p.Name), judge.PrintableLine(string(p.Status)), p.Score)
		if p.Reason != "" {
			fmt.Fprintf(w, "  %s", judge.Printable(p.Reason))
		}
		fmt.Fprintln(w)
	}
	return nil
}

// printMove prints one seat's move of a turn: what it played or how it
// failed, its time, what was refused, its transcript (lines) and, with
// trace, what it wrote on stderr.
func printMove(w io.Writer, rp *judge.Replay, mv judge.TurnMove, lines []judge.TraceLine, trace bool) {
	what := judge.PrintableLine(strings.Join(mv.Move, "; "))
	if mv.Status != judge.OK {
		what = fmt.Sprintf("%s: %s", judge.PrintableLine(string(mv.Status)), judge.Printable(mv.Reason))
	}
	clock := ""
	if mv.BankUS > 0 {
		clock += fmt.Sprintf(", bank %s left", time.Duration(mv.BankUS)*time.Microsecond)
	}
	if mv.Overrun {
		clock += ", an overrun"
	}
	fmt.Fprintf(w, "  seat %d %-12s %s  (%d queries, %s wall, %s cpu%s)\n", mv.Seat, judge.PrintableLine(rp.Bots[mv.Seat].Name), what,
		mv.Queries, time.Duration(mv.WallUS)*time.Microsecond, time.Duration(mv.CPUUS)*time.Microsecond, clock)
	for _, inv := range mv.Invalid {
		fmt.Fprintf(w, "      refused: %s\n", judge.Printable(inv))
	}
	for _, l := range lines {
		arrow := traceArrow(l.Dir)
		for _, line := range strings.Split(l.Line, "\n") {
			fmt.Fprintf(w, "      %10.3fms %s %s\n", float64(l.T)/1000, arrow, judge.PrintableLine(line))
		}
	}
	if trace && mv.Stderr != "" {
		for _, line := range strings.Split(strings.TrimSuffix(mv.Stderr, "\n"), "\n") {
			fmt.Fprintf(w, "      stderr: %s\n", judge.PrintableLine(line))
		}
	}
	if trace && mv.StderrCut > 0 {
		fmt.Fprintf(w, "      stderr: ✂ %d bytes not kept\n", mv.StderrCut)
	}
}

// traceArrow marks a transcript line by its direction: what the bot
// wrote, what it was answered, or what was cut.
func traceArrow(dir string) string {
	switch dir {
	case "in":
		return "   <"
	case "cut":
		return "  ✂ "
	}
	return "bot>"
}
