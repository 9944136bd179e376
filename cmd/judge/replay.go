package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"judge/judge"
)

func (m *Main) replay(ctx context.Context, args []string) error {
	fs := m.newFlags("replay", "[flags] FILE",
		"Plays a replay written by 'judge match --replay' back in the terminal: the board\n"+
			"after every turn, each bot's move, its time and status. The moves are checked\n"+
			"against the game's rules as they are replayed.")
	delay := fs.Duration("delay", 0, "pause between turns, e.g. 300ms")
	trace := fs.Bool("trace", false, "also print each bot's protocol transcript, if recorded")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return fmt.Errorf("%w: want one replay file, got %d arguments", errUsage, len(pos))
	}
	f, err := os.Open(pos[0])
	if err != nil {
		return err
	}
	defer f.Close()
	rp, err := judge.ReadReplay(f)
	if err != nil {
		return fmt.Errorf("%s: %w", pos[0], err)
	}
	initial, frames, err := judge.Playback(rp)
	if err != nil {
		return fmt.Errorf("%s: %w", pos[0], err)
	}
	w := m.Stdout
	fmt.Fprintf(w, "%s (%s), seed %d\n", rp.Game, formatParams(rp.Params), rp.Seed)
	for i, b := range rp.Bots {
		fmt.Fprintf(w, "  seat %d: %s (%s)\n", i, b.Name, strings.Join(b.Command, " "))
	}
	fmt.Fprintf(w, "\n%s\n", initial)
	for _, fr := range frames {
		if *delay > 0 {
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(*delay):
			}
		}
		fmt.Fprintf(w, "turn %d\n", fr.Turn.Turn)
		for _, mv := range fr.Turn.Moves {
			what := strings.Join(mv.Move, "; ")
			if mv.Status != judge.OK {
				what = fmt.Sprintf("%s: %s", mv.Status, mv.Reason)
			}
			fmt.Fprintf(w, "  seat %d %-12s %s  (%d queries, %s wall, %s cpu)\n", mv.Seat, rp.Bots[mv.Seat].Name, what,
				mv.Queries, time.Duration(mv.WallUS)*time.Microsecond, time.Duration(mv.CPUUS)*time.Microsecond)
			for _, inv := range mv.Invalid {
				fmt.Fprintf(w, "      refused: %s\n", inv)
			}
		}
		fmt.Fprintf(w, "%s\n", fr.Board)
	}
	o := rp.Outcome
	if o.Winner >= 0 {
		fmt.Fprintf(w, "seat %d (%s) wins: %s\n", o.Winner, rp.Bots[o.Winner].Name, o.Reason)
	} else {
		fmt.Fprintf(w, "no winner: %s\n", o.Reason)
	}
	for i, p := range o.Players {
		fmt.Fprintf(w, "  seat %d  %-20s %-8s score %g", i, p.Name, p.Status, p.Score)
		if p.Reason != "" {
			fmt.Fprintf(w, "  %s", p.Reason)
		}
		fmt.Fprintln(w)
	}
	if *trace {
		printTranscripts(w, rp)
	}
	return nil
}

// printTranscripts prints each seat's protocol lines, turn by turn: a
// seat's k-th turn is its lines up to its k-th #END.
func printTranscripts(w io.Writer, rp *judge.Replay) {
	any := false
	for _, b := range rp.Bots {
		any = any || len(b.Trace) > 0
	}
	if !any {
		fmt.Fprintln(w, "\nno transcripts: this replay was recorded without them (judge match --trace keeps them;\ntournaments do not: replay a match with judge match --trace and its seed to see one)")
		return
	}
	for i, b := range rp.Bots {
		fmt.Fprintf(w, "\ntranscript of seat %d (%s):\n", i, b.Name)
		if len(b.Trace) == 0 {
			fmt.Fprintln(w, "  (none recorded)")
			continue
		}
		var turns []int // the turns seat i moved in, in order
		for _, t := range rp.Turns {
			for _, mv := range t.Moves {
				if mv.Seat == i {
					turns = append(turns, t.Turn)
				}
			}
		}
		k, start := 0, true
		for _, l := range b.Trace {
			if start {
				if k < len(turns) {
					fmt.Fprintf(w, "  -- turn %d --\n", turns[k])
				} else {
					fmt.Fprintln(w, "  -- after its last turn --")
				}
				start = false
			}
			arrow := "bot>"
			if l.Dir == "in" {
				arrow = "   <"
			}
			for _, line := range strings.Split(l.Line, "\n") {
				fmt.Fprintf(w, "%10.3fms %s %s\n", float64(l.T)/1000, arrow, line)
			}
			if l.Dir != "in" && l.Line == "#END" {
				k++
				start = true
			}
		}
	}
}
