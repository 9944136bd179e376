package main

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"encoding/json"
	"fmt"
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
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}

	su, err := mf.load(m.Stderr)
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
	mt.Trace = *of.trace
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
	if *asJSON {
		enc := json.NewEncoder(m.Stdout)
		return enc.Encode(res)
	}
	printResult(m, res)
	return nil
}

func randomSeed() uint64 {
	var b [8]byte
	if _, err := rand.Read(b[:]); err != nil {
		return uint64(time.Now().UnixNano())
	}
	return binary.LittleEndian.Uint64(b[:]) >> 1
}

// printResult writes a result for people; what the bots wrote is
// escaped (judge.Printable).
func printResult(m *Main, res *judge.Result) {
	fmt.Fprintf(m.Stdout, "%s (%s), seed %d: ", res.Game, formatParams(res.Params), res.Seed)
	if res.Winner >= 0 && res.Winner < len(res.Players) {
		fmt.Fprintf(m.Stdout, "seat %d (%s) wins", res.Winner, judge.PrintableLine(res.Players[res.Winner].Name))
	} else {
		fmt.Fprint(m.Stdout, "no winner")
	}
	fmt.Fprintf(m.Stdout, " after %d turns: %s\n", res.Turns, judge.Printable(res.Reason))
	for i, p := range res.Players {
		fmt.Fprintf(m.Stdout, "  seat %d  %-20s %-8s score %g", i, judge.PrintableLine(p.Name), p.Status, p.Score)
		if p.Reason != "" {
			fmt.Fprintf(m.Stdout, "  %s", judge.Printable(p.Reason))
		}
		fmt.Fprintln(m.Stdout)
		if p.Detail != "" {
			fmt.Fprintf(m.Stdout, "  seat %d's server answered: %s\n", i, judge.PrintableLine(p.Detail))
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
