package tournament

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"judge/judge/judgetest"
	"judge/sandbox"
)

// BenchmarkTournament measures the throughput of a two-bot tic-tac-toe
// tournament between random C bots (32 matches) at 1 and 2 jobs, with and
// without the sandbox, and counts the timeouts: there must be none. Each
// iteration plays the tournament at 1 job then at 2; "scaling" is the
// ratio of their throughputs (goal ≥ 1.8 on 2 CPUs).
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
	for _, level := range []sandbox.Level{sandbox.Auto, sandbox.None} {
		name := "sandbox"
		if level == sandbox.None {
			name = "none"
		}
		b.Run(name, func(b *testing.B) {
			var matches [3]int
			var el [3]time.Duration
			timeouts := 0
			for i := 0; i < b.N; i++ {
				for _, jobs := range []int{1, 2} {
					out := filepath.Join(tempDir(b), "out")
					o := options(b, out, tempDir(b), args)
					o.Rounds = 16
					o.Jobs = jobs
					o.Proc.Level = level
					start := time.Now()
					st, err := Run(context.Background(), o)
					el[jobs] += time.Since(start)
					if err != nil {
						b.Fatal(err)
					}
					matches[jobs] += st.Matches
					for _, r := range st.Standings {
						timeouts += r.Failures.Timeout
					}
					os.RemoveAll(out)
				}
			}
			rate := func(j int) float64 { return float64(matches[j]) / el[j].Seconds() }
			b.ReportMetric(rate(1), "jobs1-matches/s")
			b.ReportMetric(rate(2), "jobs2-matches/s")
			b.ReportMetric(rate(2)/rate(1), "scaling")
			b.ReportMetric(float64(timeouts), "timeouts")
		})
	}
}
