package main

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"judge/games"
	"judge/judge"
	"judge/judge/httpbot"
	"judge/judge/procbot"
	"judge/judge/replayview"
)

func (m *Main) match(ctx context.Context, args []string) error {
	fs := m.newFlags("match", "--game NAME [flags] BOT BOT...",
		"Plays one match. Each BOT is the path of an executable, a source file or folder\n"+
			"(built as judge tournament builds it, with configs/languages.toml), or a quoted\n"+
			"command line such as \"python3 bot.py\". The exit status is 0 whenever the match\n"+
			"was played, whatever the bots did. Bots need not flush: by default (--io auto)\n"+
			"a bot's stdout is a pipe on which C and C++ stdio, Python and Ruby send every\n"+
			"line as it ends (a pty for a static program that is not Go).")
	mf := addMatchFileFlags(fs)
	of := addOneMatchFlags(fs, "bot")
	asJSON := fs.Bool("json", false, "print the result as one JSON object")
	stderrAll := fs.Bool("stderr", false, "print all that each bot wrote on stderr, turn by turn (a failing bot's last lines are printed without it)")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}

	su, err := mf.load(m.Host, m.Stderr)
	if err != nil {
		return err
	}
	if len(pos) == 0 {
		return fmt.Errorf("%w: no bots given", errUsage)
	}
	if err := su.fitSeats(len(pos)); err != nil {
		return err
	}
	if err := of.checkReplay(); err != nil {
		return err
	}
	mt := su.match
	mt.Seed = of.seedOf()
	if mt.Entrants, err = entrants(ctx, pos, su.proc); err != nil {
		return err
	}
	// Per turn, a bot's stderr is kept with the transcript.
	mt.Trace = *of.trace || *stderrAll
	mt.Serve = procbot.OneCPU

	res, err := judge.Run(ctx, mt)
	if sig, ok := interrupted(ctx); ok && err != nil {
		return fmt.Errorf("%v: the match was not finished, and its bots were stopped", sig)
	}
	if err != nil {
		return err
	}
	if err := of.writeReplay(res.Replay); err != nil {
		return err
	}
	// What the bots wrote goes to the terminal, not into --json's object.
	w := m.Stdout
	if *asJSON {
		w = m.Stderr
	}
	if *of.trace && *of.replay == "" || *stderrAll {
		printTranscript(w, res.Replay, transcript{lines: *of.trace && *of.replay == "", stderr: *stderrAll})
	}
	if *asJSON {
		enc := json.NewEncoder(m.Stdout)
		return enc.Encode(res)
	}
	printResult(m, mt.Game, res)
	return nil
}

// transcript is what printTranscript prints of each bot's turns.
type transcript struct {
	lines  bool // its protocol lines
	stderr bool // what it wrote on stderr
}

// printTranscript prints, turn by turn, what tr says of each bot,
// labelled by seat and turn, escaped.
func printTranscript(w io.Writer, rp *judge.Replay, tr transcript) {
	lines, stderr := tr.lines, tr.stderr
	traces := replayview.TurnTraces(rp)
	for i, t := range rp.Turns {
		for _, mv := range t.Moves {
			var seat []judge.TraceLine
			if lines && traces != nil {
				seat = traces[i][mv.Seat]
			}
			if len(seat) == 0 && (!stderr || mv.Stderr == "" && mv.StderrCut == 0) {
				continue
			}
			fmt.Fprintf(w, "turn %d, seat %d (%s):\n", t.Turn, mv.Seat, judge.PrintableLine(rp.Bots[mv.Seat].Name))
			for _, l := range seat {
				arrow := traceArrow(l.Dir)
				for _, line := range strings.Split(l.Line, "\n") {
					fmt.Fprintf(w, "  %s %s\n", arrow, judge.PrintableLine(line))
				}
			}
			if stderr {
				for _, line := range strings.Split(strings.TrimSuffix(mv.Stderr, "\n"), "\n") {
					if mv.Stderr != "" {
						fmt.Fprintf(w, "  stderr: %s\n", judge.PrintableLine(line))
					}
				}
				if mv.StderrCut > 0 {
					fmt.Fprintf(w, "  stderr: ✂ %d bytes not kept\n", mv.StderrCut)
				}
			}
		}
	}
}

func randomSeed() uint64 {
	var b [8]byte
	if _, err := rand.Read(b[:]); err != nil {
		return uint64(time.Now().UnixNano())
	}
	return binary.LittleEndian.Uint64(b[:]) >> 1
}

// printResult writes a result for people, the seats named as the viewer
// names them; what the bots wrote is escaped (judge.Printable). A seat
// that failed has its stderr's last lines under its line, unless its
// reason quotes them.
func printResult(m *Main, g games.Game, res *judge.Result) {
	name := func(s string) string { return s }
	if g != nil && res.Replay != nil {
		if st, err := g.New(res.Params, res.Seed); err == nil {
			name = judge.Namer(st, res.Replay)
			games.Close(st)
		}
	}
	fmt.Fprintf(m.Stdout, "%s (%s), seed %d: ", res.Game, formatParams(res.Params), res.Seed)
	if res.Winner >= 0 && res.Winner < len(res.Players) {
		fmt.Fprintf(m.Stdout, "seat %d (%s) wins", res.Winner, judge.PrintableLine(res.Players[res.Winner].Name))
	} else {
		fmt.Fprint(m.Stdout, "no winner")
	}
	fmt.Fprintf(m.Stdout, " after %s: %s\n", games.Plural(res.Turns, "turn", "turns"), judge.Printable(name(res.Reason)))
	for i, p := range res.Players {
		fmt.Fprintf(m.Stdout, "  seat %d  %-20s %-8s score %g", i, judge.PrintableLine(p.Name), p.Status, p.Score)
		if p.Reason != "" {
			fmt.Fprintf(m.Stdout, "  %s", judge.Printable(p.Reason))
		}
		fmt.Fprintln(m.Stdout)
		if p.Detail != "" {
			fmt.Fprintf(m.Stdout, "  seat %d's server answered: %s\n", i, judge.PrintableLine(p.Detail))
		}
		if res.Replay != nil && i < len(res.Replay.Bots) && p.Status != judge.OK && !strings.Contains(p.Reason, "; stderr: ") {
			if tail := judge.LastLines([]byte(res.Replay.Bots[i].Stderr), stderrTail, 4000); tail != "" {
				fmt.Fprintf(m.Stdout, "  seat %d's stderr, its last lines (it failed at turn %d):\n", i, p.Turn)
				for _, l := range strings.Split(tail, "\n") {
					fmt.Fprintf(m.Stdout, "    %s\n", judge.PrintableLine(l))
				}
			}
		}
	}
	if res.Replay != nil {
		for i, b := range res.Replay.Bots {
			if b.Sandbox == httpbot.Outside {
				fmt.Fprintf(m.Stdout, "  seat %d is a web bot: it ran on its own server, outside the sandbox\n", i)
			}
		}
	}
}

// stderrTail is how many lines of a failing bot's stderr judge match
// prints.
const stderrTail = 10

func formatParams(p games.Params) string {
	keys := make([]string, 0, len(p))
	for k := range p {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	for i, k := range keys {
		if i > 0 {
			b.WriteByte(' ')
		}
		fmt.Fprintf(&b, "%s=%d", judge.PrintableLine(k), p[k])
	}
	return b.String()
}

// paramFlag collects --param NAME=VALUE flags.
type paramFlag games.Params

func (p *paramFlag) String() string { return "" }

func (p *paramFlag) Set(s string) error {
	name, val, ok := strings.Cut(s, "=")
	if !ok {
		return fmt.Errorf("want NAME=VALUE, got %q", s)
	}
	n, err := strconv.Atoi(strings.TrimSpace(val))
	if err != nil {
		return fmt.Errorf("%s: want a whole number, got %q", name, val)
	}
	if *p == nil {
		*p = paramFlag{}
	}
	(*p)[strings.TrimSpace(name)] = n
	return nil
}

// checkWritable checks, before a match is played, that a file can be
// written at path: its directory exists and is writable.
func checkWritable(path string) error {
	dir := filepath.Dir(path)
	st, err := os.Stat(dir)
	if err != nil {
		return err
	}
	if !st.IsDir() {
		return fmt.Errorf("%s is not a directory", dir)
	}
	f, err := os.CreateTemp(dir, ".judge-check-*")
	if err != nil {
		return err
	}
	f.Close()
	return os.Remove(f.Name())
}
