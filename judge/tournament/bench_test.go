package tournament

import (
	"context"
	"fmt"
	"judge/judge/procbot"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"judge/judge/judgetest"
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
		use(&o, testLanguages(b), procbot.Options{Level: level})
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
