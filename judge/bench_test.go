package judge_test

import (
	"context"
	"os/exec"
	"strconv"
	"strings"
	"testing"

	"judge/games/catalog"
	"judge/judge"
	"judge/judge/judgetest"
)

const benchQueries = 100000

// BenchmarkQueryCost measures the judge's cost per query against the
// physical floor measured in the same run: a C parent and the same C bot,
// arranged as the judge arranges a bot (stdin a pipe; stdout a raw pty or
// a pipe), answering one short line per query. Each iteration is one turn
// of 100,000 queries through each. Metrics: floor-ns/query,
// judge-ns/query and their ratio (goal: ≤ 1.1 on a pty, ≤ 1.2 on pipes).
func BenchmarkQueryCost(b *testing.B) {
	floor := judgetest.Bot(b, "judge/testdata/bench/floor.c")[0]
	bot := judgetest.Bot(b, "judge/testdata/bench/querybot.c")
	v, err := catalog.Lookup("tictactoe")
	if err != nil {
		b.Fatal(err)
	}
	params, _ := v.Resolve(nil)
	for _, mode := range []judge.IO{judge.PTY, judge.Pipe} {
		b.Run(string(mode), func(b *testing.B) {
			var floorNS, judgeNS float64
			for i := 0; i < b.N; i++ {
				args := append([]string{string(mode)}, bot...)
				args = append(args, strconv.Itoa(benchQueries), "once")
				out, err := exec.Command(floor, args...).Output()
				if err != nil {
					b.Fatalf("floor: %v", err)
				}
				f, err := strconv.ParseFloat(strings.TrimSpace(string(out)), 64)
				if err != nil {
					b.Fatalf("floor said %q", out)
				}
				floorNS += f

				argv := append(append([]string(nil), bot...), strconv.Itoa(benchQueries))
				res, err := judge.Run(context.Background(), judge.Match{
					Variant: v, Params: params, Seed: uint64(i), IO: mode,
					Limits: judge.Limits{Turn: judge.DefaultLimits.Turn, FirstTurn: 60e9,
						Output: 1 << 30, Stderr: 1 << 10, Grace: judge.DefaultLimits.Grace},
					Bots: []judge.BotSpec{{Name: "querybot", Argv: argv}, {Name: "opponent", Argv: append(append([]string(nil), bot...), "0")}},
				})
				if err != nil {
					b.Fatal(err)
				}
				first := res.Replay.Turns[0].Moves[0]
				if first.Status != judge.OK || first.Queries != benchQueries+1+9 {
					b.Fatalf("first turn: %+v", first)
				}
				judgeNS += float64(first.WallUS) * 1000 / float64(first.Queries)
			}
			n := float64(b.N)
			b.ReportMetric(floorNS/n, "floor-ns/query")
			b.ReportMetric(judgeNS/n, "judge-ns/query")
			b.ReportMetric(judgeNS/floorNS, "ratio")
		})
	}
}
