package tournament

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"judge/games/catalog"
	"judge/judge/bots"
	"judge/judge/judgetest"
	"judge/judge/procbot"
	"judge/sandbox"
)

// BenchmarkTournament measures the throughput of a two-bot tic-tac-toe
// tournament between random C bots (32 matches) at 1 and 2 jobs, with and
// without the sandbox, back to back in every iteration, and counts the
// timeouts: there must be none. Metrics: matches a second of each, the
// medians of the iterations' ratios of the sandboxed throughput to the
// other ("sandbox-ratio-jobsN", goal ≥ 0.7), and "scaling", 2 jobs over 1
// (goal ≥ 1.8 on 2 CPUs) without the sandbox and with it.
func BenchmarkTournament(b *testing.B) {
	exe := judgetest.Bot(b, "examples/gomoku/random.c")[0]
	dir := tempDir(b)
	var args []string
	for _, n := range []string{"alpha", "beta"} {
		if err := copyFile(exe, filepath.Join(dir, n)); err != nil {
			b.Fatal(err)
		}
		args = append(args, filepath.Join(dir, n))
	}
	timeouts := 0
	play := func(level sandbox.Level, jobs int) float64 {
		out := filepath.Join(tempDir(b), "out")
		defer os.RemoveAll(out)
		o := options(b, out, tempDir(b), args)
		o.Rounds = 16
		o.Jobs = jobs
		use(&o, testLanguages(b), procbot.Options{Host: judgetest.Host(), Level: level})
		start := time.Now()
		st, err := Run(context.Background(), o)
		el := time.Since(start)
		if err != nil {
			b.Fatal(err)
		}
		for _, r := range st.Standings {
			timeouts += r.Failures.Timeout
		}
		return float64(st.Matches) / el.Seconds()
	}
	type key struct {
		level sandbox.Level
		jobs  int
	}
	rates := map[key][]float64{}
	for i := 0; i < b.N; i++ {
		for _, jobs := range []int{1, 2} {
			for _, level := range []sandbox.Level{sandbox.None, sandbox.Auto} {
				k := key{level, jobs}
				rates[k] = append(rates[k], play(level, jobs))
			}
		}
	}
	median := func(f func(i int) float64) float64 {
		var r []float64
		for i := 0; i < b.N; i++ {
			r = append(r, f(i))
		}
		slices.Sort(r)
		return r[len(r)/2]
	}
	for _, jobs := range []int{1, 2} {
		none, boxed := rates[key{sandbox.None, jobs}], rates[key{sandbox.Auto, jobs}]
		b.ReportMetric(median(func(i int) float64 { return none[i] }), fmt.Sprintf("none-jobs%d-matches/s", jobs))
		b.ReportMetric(median(func(i int) float64 { return boxed[i] }), fmt.Sprintf("sandbox-jobs%d-matches/s", jobs))
		b.ReportMetric(median(func(i int) float64 { return boxed[i] / none[i] }), fmt.Sprintf("sandbox-ratio-jobs%d", jobs))
	}
	for _, level := range []sandbox.Level{sandbox.None, sandbox.Auto} {
		one, two := rates[key{level, 1}], rates[key{level, 2}]
		name := "none"
		if level == sandbox.Auto {
			name = "sandbox"
		}
		b.ReportMetric(median(func(i int) float64 { return two[i] / one[i] }), name+"-scaling")
	}
	b.ReportMetric(float64(timeouts), "timeouts")
}

// BenchmarkContest measures what the judge costs a game of the Ruby
// contest: a tournament between two of the contest players of testdata
// (lrug/ann and lrug/solo, who shoot row by row: every game the same, 82
// shots), at one job, with the defaults (the sandbox, io auto), against
// the same games played one after the other by testdata/bench/contest_game.rb,
// one plain Ruby process per game that loads both players and plays the
// contest's rules (ruby with its defaults, and ruby --disable-gems), back
// to back in every iteration. Metrics: the milliseconds a game of each (a
// tournament's time includes loading each player once before the first
// match) and the medians of the iterations' ratios of the judge's time a
// game to the plain process's ("judge/plain", goal ≤ 1.5, and
// "judge/plain-nogems"). Failures must be none.
func BenchmarkContest(b *testing.B) {
	judgetest.NeedTools(b, "ruby")
	root := judgetest.Root(b)
	dir := filepath.Join(tempDir(b), "contestants")
	copyReadable(b, filepath.Join(root, "judge/tournament/testdata/contest/lrug"), dir)
	players := []string{filepath.Join(dir, "ann/ann.rb"), filepath.Join(dir, "solo/player.rb")}
	driver := filepath.Join(root, "judge/tournament/testdata/bench/contest_game.rb")
	v, err := catalog.Lookup("battleship-contest")
	if err != nil {
		b.Fatal(err)
	}
	const rounds = 8 // two games a round, one in each seat order
	failures := 0
	judged := func() time.Duration {
		out := filepath.Join(tempDir(b), "out")
		defer os.RemoveAll(out)
		o := options(b, out, tempDir(b), []string{bots.RubyContestPrefix + players[0], bots.RubyContestPrefix + players[1]})
		o.Match.Game, o.Match.Name, o.Match.Params = v.Game, v.Name, v.Params
		o.Match.Limits.Turn, o.Match.Limits.FirstTurn = 5*time.Second, 10*time.Second
		o.Rounds, o.Jobs = rounds, 1
		start := time.Now()
		st, err := Run(context.Background(), o)
		el := time.Since(start)
		if err != nil {
			b.Fatal(err)
		}
		if st.Matches != 2*rounds {
			b.Fatalf("%d matches played, want %d", st.Matches, 2*rounds)
		}
		for _, r := range st.Standings {
			failures += r.Failures.Total
		}
		return el / time.Duration(st.Matches)
	}
	plain := func(flags ...string) time.Duration {
		start := time.Now()
		for i := 0; i < 2*rounds; i++ {
			first, second := players[i%2], players[1-i%2]
			cmd := exec.Command("ruby", append(flags, driver, first, second)...)
			cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + os.TempDir(), "LANG=C.UTF-8"}
			out, err := cmd.CombinedOutput()
			if err != nil || strings.TrimSpace(string(out)) != players[1] {
				b.Fatalf("ruby %s %s %s: %v, %q (want the winner %s)", driver, first, second, err, out, players[1])
			}
		}
		return time.Since(start) / time.Duration(2*rounds)
	}
	var games, plains, nogems []time.Duration
	for i := 0; i < b.N; i++ {
		games = append(games, judged())
		plains = append(plains, plain())
		nogems = append(nogems, plain("--disable-gems"))
	}
	median := func(f func(i int) float64) float64 {
		var r []float64
		for i := 0; i < b.N; i++ {
			r = append(r, f(i))
		}
		slices.Sort(r)
		return r[len(r)/2]
	}
	ms := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
	b.ReportMetric(median(func(i int) float64 { return ms(games[i]) }), "judge-ms/game")
	b.ReportMetric(median(func(i int) float64 { return ms(plains[i]) }), "plain-ms/game")
	b.ReportMetric(median(func(i int) float64 { return ms(nogems[i]) }), "plain-nogems-ms/game")
	b.ReportMetric(median(func(i int) float64 { return float64(games[i]) / float64(plains[i]) }), "judge/plain")
	b.ReportMetric(median(func(i int) float64 { return float64(games[i]) / float64(nogems[i]) }), "judge/plain-nogems")
	b.ReportMetric(float64(failures), "failures")
}
