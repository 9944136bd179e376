package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"sync"
	"time"

	"judge/judge"
	"judge/judge/bots/contest"
	"judge/judge/sprt"
	"judge/judge/tournament"
)

func (m *Main) sprt(ctx context.Context, args []string) error {
	fs := m.newFlags("sprt", "--game NAME [flags] A B",
		"Is B stronger than A? Plays pairs of games between them (the same seed twice,\n"+
			"the seats swapped) and after each pair runs a sequential probability ratio\n"+
			"test: H1 \"B is elo1 stronger\" against H0 \"B is at most elo0 stronger\", in\n"+
			"logistic Elo, with error rates alpha and beta. It stops as soon as the test\n"+
			"decides. A and B are bots as for 'judge tournament'. Every game is recorded\n"+
			"in --out; running the same command again resumes.")
	mf := addMatchFileFlags(fs)
	var (
		elo0      = fs.Float64("elo0", sprt.Default.Elo0, "H0: B is at most this much stronger (Elo)")
		elo1      = fs.Float64("elo1", sprt.Default.Elo1, "H1: B is this much stronger (Elo)")
		alpha     = fs.Float64("alpha", sprt.Default.Alpha, "chance of accepting H1 when H0 holds")
		beta      = fs.Float64("beta", sprt.Default.Beta, "chance of accepting H0 when H1 holds")
		early     = fs.Float64("early", sprt.Default.Early, "also stop early when B is this much stronger or weaker (Elo; 0: never), with a tenth of alpha and beta")
		maxGames  = fs.Int("max-games", tournament.DefaultSPRTMaxGames, "stop undecided after this many games")
		seed      = fs.Uint64("seed", 1, "seed; every game's seed derives from it")
		jobs      = fs.Int("jobs", 0, "games at once (default: one per CPU)")
		out       = fs.String("out", "", "output directory: results log, standings, replays (default "+tournament.SPRTRoot+"/GAME-B-vs-A-HASH, one per pair of bots, their contents and the seed)")
		cache     = fs.String("cache", "", "build cache directory (default OUT/cache)")
		languages = fs.String("languages", "", "how to build each language (default configs/languages.toml if present, else built in)")
		quiet     = fs.Bool("quiet", false, "no live line: only the verdict")
	)
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 2 {
		return fmt.Errorf("%w: want two bots, A and B, got %d", errUsage, len(pos))
	}
	su, err := mf.load(m.Host, m.Stderr)
	if err != nil {
		return err
	}
	mt := su.match
	test := sprt.Test{Elo0: *elo0, Elo1: *elo1, Alpha: *alpha, Beta: *beta, Early: *early}
	if err := test.Check(); err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	if *maxGames < 2 {
		return fmt.Errorf("%w: --max-games %d: want at least 2", errUsage, *maxGames)
	}
	langs, err := loadLanguages(su.proc.Host, *languages)
	if err != nil {
		return err
	}
	live := &liveLine{w: m.Stderr, terminal: isTerminal(m.Stderr), quiet: *quiet}
	o := tournament.SPRTOptions{
		Match: mt, A: pos[0], B: pos[1], Test: test, MaxGames: *maxGames, Seed: *seed, Jobs: *jobs, Out: *out, Cache: *cache,
		Log: m.Stderr, Live: live.update,
	}
	contest.UseSPRT(&o, langs, su.proc)
	st, err := tournament.RunSPRT(ctx, o)
	live.end(st)
	if st != nil && (err == nil || errors.Is(err, tournament.ErrInterrupted)) {
		fmt.Fprintln(m.Stdout, sprtLine(st))
		fmt.Fprintln(m.Stdout, verdict(st))
		if err == nil {
			fmt.Fprintf(m.Stderr, "games and replays: %s\n", st.Out)
		}
	}
	return err
}

// sprtLine is a test's state in one line.
func sprtLine(st *tournament.SPRTState) string {
	if st.Early {
		lo, hi := st.Test.EarlyBound()
		bound := fmt.Sprintf("past %.2f", hi)
		if st.Verdict == sprt.H0 {
			bound = fmt.Sprintf("past %.2f", lo)
		}
		return fmt.Sprintf("%s vs %s: %d games  W/D/L %d/%d/%d  Elo %s  LLR %.2f [%.2f, %.2f]  early test %s",
			judge.PrintableLine(st.B), judge.PrintableLine(st.A), st.Games(), st.W, st.D, st.L, st.Elo, st.LLR, st.Lower, st.Upper, bound)
	}
	return fmt.Sprintf("%s vs %s: %d games  W/D/L %d/%d/%d  Elo %s  LLR %.2f [%.2f, %.2f]",
		judge.PrintableLine(st.B), judge.PrintableLine(st.A), st.Games(), st.W, st.D, st.L, st.Elo, st.LLR, st.Lower, st.Upper)
}

// verdict says what a test found, for people.
func verdict(st *tournament.SPRTState) string {
	t := st.Test
	a, b := judge.PrintableLine(st.A), judge.PrintableLine(st.B)
	switch {
	case st.Early && st.Verdict == sprt.H1:
		return fmt.Sprintf("H1 accepted: %s is stronger than %s (by far: the early test of %g Elo decided; at %g%% risk of error)", b, a, t.Early, 100*t.Alpha)
	case st.Early && st.Verdict == sprt.H0:
		return fmt.Sprintf("H0 accepted: %s is not %g Elo stronger than %s (it is far weaker: the early test of %g Elo decided; at %g%% risk of error)", b, t.Elo1, a, t.Early, 100*t.Beta)
	}
	switch st.Verdict {
	case sprt.H1:
		return fmt.Sprintf("H1 accepted: %s is stronger than %s (by %g Elo or more, at %g%% risk of error)", b, a, t.Elo1, 100*t.Alpha)
	case sprt.H0:
		return fmt.Sprintf("H0 accepted: %s is not %g Elo stronger than %s (at most %g, at %g%% risk of error)", b, t.Elo1, a, t.Elo0, 100*t.Beta)
	}
	if st.Limited {
		return undecided(st)
	}
	return "no verdict yet: run the same command again to go on"
}

// undecided says why a test stopped at --max-games undecided: the
// hypotheses are close (whatever the score, telling them apart takes
// many games), and what the score so far suggests, with the test that
// would ask about it.
func undecided(st *tournament.SPRTState) string {
	t, e := st.Test, st.Elo
	a, b := judge.PrintableLine(st.A), judge.PrintableLine(st.B)
	s := fmt.Sprintf("no verdict after %d games (the --max-games limit): H0 (%s at most %g Elo stronger than %s) and H1 (%g Elo stronger) "+
		"are %g Elo apart, which takes many games to tell whatever the score; so far %s scored W/D/L %d/%d/%d, about %s Elo (95%%: %s .. %s)",
		st.Games(), b, t.Elo0, a, t.Elo1, t.Elo1-t.Elo0, b, st.W, st.D, st.L, eloWords(e.Elo), eloWords(e.Lo), eloWords(e.Hi))
	switch {
	case e.Lo > t.Elo1:
		n := roundElo(e.Lo)
		return s + fmt.Sprintf(": to ask whether %s is %g Elo stronger, test --elo1 %g (or allow more games)", b, n, n)
	case e.Hi < t.Elo0:
		n := roundElo(-e.Hi)
		return s + fmt.Sprintf(": %s looks weaker; to ask whether %s is %g Elo stronger, swap the bots and test --elo1 %g (or allow more games)", b, a, n, n)
	}
	return s + ": the bots are close so far; allow more games, or widen --elo0/--elo1"
}

// eloWords is an Elo difference with its sign: "+inf" for a score of 1.
func eloWords(elo float64) string {
	switch {
	case math.IsInf(elo, 1):
		return "+inf"
	case math.IsInf(elo, -1):
		return "-inf"
	}
	return fmt.Sprintf("%+.0f", elo)
}

// roundElo is an Elo difference rounded down to a round number: 250
// for 276, 40 for 47, at least 10.
func roundElo(elo float64) float64 {
	step := 10.0
	if elo >= 100 {
		step = 50
	}
	return max(10, math.Floor(elo/step)*step)
}

// liveLine shows a test's state as it goes: on a terminal one line
// rewritten in place, elsewhere a line every 10 seconds.
type liveLine struct {
	w        io.Writer
	terminal bool
	quiet    bool

	mu    sync.Mutex
	last  time.Time
	shown bool
}

func (l *liveLine) update(st *tournament.SPRTState) {
	if l.quiet {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	now := time.Now()
	every := 10 * time.Second
	if l.terminal {
		every = 100 * time.Millisecond
	}
	if now.Sub(l.last) < every {
		return
	}
	l.last = now
	line := sprtLine(st) + progressBar(st.LLR, st.Lower, st.Upper)
	if l.terminal {
		fmt.Fprintf(l.w, "\r%s\x1b[K", line)
		l.shown = true
	} else {
		fmt.Fprintln(l.w, line)
	}
}

func (l *liveLine) end(*tournament.SPRTState) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.shown {
		fmt.Fprint(l.w, "\r\x1b[K")
		l.shown = false
	}
}

// progressBar places the LLR between its bounds: "  H0 |····•···| H1".
func progressBar(llr, lo, hi float64) string {
	const width = 20
	i := int(math.Round((llr - lo) / (hi - lo) * width))
	i = min(max(i, 0), width)
	b := []rune("  H0 |" + string(repeatRune('·', width+1)) + "| H1")
	b[6+i] = '•'
	return string(b)
}

func repeatRune(r rune, n int) []rune {
	out := make([]rune, n)
	for i := range out {
		out[i] = r
	}
	return out
}
