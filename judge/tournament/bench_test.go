package tournament

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"judge/judge/judgetest"
)

// BenchmarkTournament measures the throughput of a two-bot tic-tac-toe
// tournament between random C bots (32 matches) at 1 and 2 jobs, and
// counts the timeouts: there must be none. Compare matches/s between the
// two for the scaling (docs/benchmarks.md).
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
	for _, jobs := range []int{1, 2} {
		b.Run(fmt.Sprintf("jobs=%d", jobs), func(b *testing.B) {
			var matches, timeouts int
			var el time.Duration
			for i := 0; i < b.N; i++ {
				out := filepath.Join(tempDir(b), "out")
				o := options(b, out, tempDir(b), args)
				o.Rounds = 16
				o.Jobs = jobs
				start := time.Now()
				st, err := Run(context.Background(), o)
				el += time.Since(start)
				if err != nil {
					b.Fatal(err)
				}
				matches += st.Matches
				for _, r := range st.Standings {
					timeouts += r.Failures.Timeout
				}
				os.RemoveAll(out)
			}
			b.ReportMetric(float64(matches)/el.Seconds(), "matches/s")
			b.ReportMetric(float64(timeouts), "timeouts")
		})
	}
}
