//go:build linux

package procbot_test

import (
	"context"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"judge/games"
	"judge/games/catalog"
	"judge/judge"
	"judge/judge/judgetest"
	"judge/judge/procbot"
	"judge/sandbox"

	"golang.org/x/sys/unix"
)

const benchQueries = 100000 // per turn, as the performance goal states

// BenchmarkQueryCost measures the judge's cost per query against the
// physical floor measured in the same run: a C parent and the same C bot,
// arranged as the judge arranges a bot (stdin a pipe; stdout a raw pty or
// a pipe; both on one CPU), answering one short line per query. Each
// iteration is one turn of 100,000 queries through each of: the floor,
// the floor spread over the CPUs (as a parent that does not pin does it),
// the judge without the sandbox, the judge with it. The judge's modes are
// pty, pipe and auto (the default, a pipe with libstdbuf preloaded into
// the bot), auto against the bare pipe's floor. Metrics: ns/query of
// each, "ratio" (judge over floor; goals ≤ 1.1 on a pty, ≤ 1.2 on pipes),
// "spread-ratio" (judge over the spread floor), "sandbox-ratio"
// (sandboxed over not; goal ≤ 1.05) and "sandboxed-ratio" (sandboxed over
// floor: for auto, the judge's defaults against a bare C pipe).
func BenchmarkQueryCost(b *testing.B) {
	floor := judgetest.Bot(b, "judge/procbot/testdata/bench/floor.c")[0]
	bot := judgetest.Bot(b, "judge/procbot/testdata/bench/querybot.c")
	v, err := catalog.Lookup("tictactoe")
	if err != nil {
		b.Fatal(err)
	}
	params, _ := v.Resolve(nil)
	var set unix.CPUSet
	if err := unix.SchedGetaffinity(0, &set); err != nil {
		b.Fatal(err)
	}
	cpu := 0
	for !set.IsSet(cpu) {
		cpu++
	}
	floorTurn := func(b *testing.B, mode procbot.IO, pin bool) float64 {
		var args []string
		if pin {
			args = []string{"-cpu", strconv.Itoa(cpu)}
		}
		floorMode := string(mode)
		if mode == procbot.AutoIO {
			floorMode = string(procbot.Pipe)
		}
		args = append(append(args, floorMode), bot...)
		args = append(args, strconv.Itoa(benchQueries), "once")
		out, err := exec.Command(floor, args...).Output()
		if err != nil {
			b.Fatalf("floor: %v", err)
		}
		f, err := strconv.ParseFloat(strings.TrimSpace(string(out)), 64)
		if err != nil {
			b.Fatalf("floor said %q", out)
		}
		return f
	}
	judgeTurn := func(b *testing.B, mode procbot.IO, level sandbox.Level, seed int) float64 {
		argv := append(append([]string(nil), bot...), strconv.Itoa(benchQueries))
		res, err := judge.Run(context.Background(), judge.Match{
			Game: v.Game, Name: v.Name, Params: params, Seed: uint64(seed), Serve: procbot.OneCPU,
			Limits: judge.TurnLimits{Turn: judge.DefaultTurnLimits.Turn, FirstTurn: 60e9,
				Output: 1 << 30, Stderr: 1 << 10, Grace: judge.DefaultTurnLimits.Grace},
			Entrants: entrants(procbot.Options{Host: judgetest.Host(), IO: mode, Level: level},
				procbot.Spec{Name: "querybot", Argv: argv}, procbot.Spec{Name: "opponent", Argv: append(append([]string(nil), bot...), "0")}),
		})
		if err != nil {
			b.Fatal(err)
		}
		first := res.Replay.Turns[0].Moves[0]
		if first.Status != judge.OK || first.Queries != benchQueries+1+9 {
			b.Fatalf("first turn: %+v", first)
		}
		return float64(first.WallUS) * 1000 / float64(first.Queries)
	}
	for _, mode := range []procbot.IO{procbot.PTY, procbot.Pipe, procbot.AutoIO} {
		b.Run(string(mode), func(b *testing.B) {
			var floorNS, spreadNS, judgeNS, sandboxNS float64
			var ratios, spreadRatios, sbRatios, sbFloorRatios []float64
			for i := 0; i < b.N; i++ {
				f := floorTurn(b, mode, true)
				sf := floorTurn(b, mode, false)
				j := judgeTurn(b, mode, sandbox.None, i)
				sb := judgeTurn(b, mode, sandbox.Auto, i)
				floorNS += f
				spreadNS += sf
				judgeNS += j
				sandboxNS += sb
				ratios = append(ratios, j/f)
				spreadRatios = append(spreadRatios, j/sf)
				sbRatios = append(sbRatios, sb/j)
				sbFloorRatios = append(sbFloorRatios, sb/f)
			}
			// The machine is noisy: the ratios are the medians of the
			// iterations' ratios, each measured back to back.
			median := func(x []float64) float64 { slices.Sort(x); return x[len(x)/2] }
			n := float64(b.N)
			b.ReportMetric(floorNS/n, "floor-ns/query")
			b.ReportMetric(spreadNS/n, "spread-floor-ns/query")
			b.ReportMetric(judgeNS/n, "judge-ns/query")
			b.ReportMetric(sandboxNS/n, "sandboxed-ns/query")
			b.ReportMetric(median(spreadRatios), "spread-ratio")
			b.ReportMetric(median(ratios), "ratio")
			b.ReportMetric(median(sbRatios), "sandbox-ratio")
			b.ReportMetric(median(sbFloorRatios), "sandboxed-ratio")
		})
	}
}

// BenchmarkGame plays whole games between the random C example bots,
// with and without the sandbox, and reports the median time of a game
// (start of the bots to their exit). Goals: Connect Four ≤ 4 ms and
// Battleship 10×10 ≤ 20 ms without the sandbox.
func BenchmarkGame(b *testing.B) {
	for _, g := range []struct{ variant, bot string }{
		{"connect4", "examples/connect4/random.c"},
		{"battleship", "examples/battleship/random.c"},
		{"tictactoe", "examples/gomoku/random.c"},
	} {
		bot := judgetest.Bot(b, g.bot)
		v, err := catalog.Lookup(g.variant)
		if err != nil {
			b.Fatal(err)
		}
		params, _ := v.Resolve(nil)
		for _, level := range []sandbox.Level{sandbox.None, sandbox.Auto} {
			name := string(level)
			if level == sandbox.Auto {
				name = "sandbox"
			}
			b.Run(g.variant+"/"+name, func(b *testing.B) {
				times := make([]time.Duration, 0, b.N)
				for i := 0; i < b.N; i++ {
					start := time.Now()
					res, err := judge.Run(context.Background(), judge.Match{
						Game: v.Game, Name: v.Name, Params: params, Seed: uint64(i), Limits: judge.DefaultTurnLimits, Serve: procbot.OneCPU,
						Entrants: entrants(procbot.Options{Host: judgetest.Host(), Level: level}, procbot.Spec{Name: "a", Argv: bot}, procbot.Spec{Name: "b", Argv: bot}),
					})
					if err != nil {
						b.Fatal(err)
					}
					times = append(times, time.Since(start))
					for _, p := range res.Players {
						if p.Status != judge.OK {
							b.Fatalf("%s: %s", p.Status, p.Reason)
						}
					}
				}
				slices.Sort(times)
				b.ReportMetric(float64(times[len(times)/2].Microseconds())/1000, "ms/game-median")
			})
		}
	}
}

// entrants are bot programs run as o says.
func entrants(o procbot.Options, specs ...procbot.Spec) []judge.Entrant {
	var es []judge.Entrant
	for _, s := range specs {
		es = append(es, procbot.Bot{Spec: s, Options: o})
	}
	return es
}

// BenchmarkSplix measures a whole Splix game at the contest's size
// (200×200, 2000 turns) between five C bots that ask Position and View
// every turn (testdata/bench/splixbot.c), back to back in each iteration:
// without the sandbox on pipes (--sandbox none --io pipe), without it on
// ptys, without it with io auto (pipes, libstdbuf preloaded), with the
// sandbox on pipes, with the sandbox on ptys (the defaults before io
// auto), and with the judge's defaults (the best sandbox, io auto). Each
// game starts its bots (sandboxes are reused: one game is played before
// timing). Metrics: seconds a game of each, and the medians of the
// iterations' ratios to the first: "pty-ratio", "auto-ratio",
// "sandbox-ratio", "sandbox-pty-ratio" and "ratio" (the defaults; goal
// ≤ 1.15).
func BenchmarkSplix(b *testing.B) {
	bot := judgetest.Bot(b, "judge/procbot/testdata/bench/splixbot.c")
	v, err := catalog.Lookup("splix")
	if err != nil {
		b.Fatal(err)
	}
	params, err := v.Resolve(games.Params{"players": 5})
	if err != nil {
		b.Fatal(err)
	}
	game := func(o procbot.Options, seed uint64) time.Duration {
		var es []judge.Entrant
		for i := 0; i < 5; i++ {
			es = append(es, procbot.Bot{Spec: procbot.Spec{Name: "bot" + strconv.Itoa(i), Argv: bot}, Options: o})
		}
		start := time.Now()
		res, err := judge.Run(context.Background(), judge.Match{
			Game: v.Game, Name: v.Name, Params: params, Seed: seed, Limits: judge.DefaultTurnLimits, Entrants: es,
		})
		if err != nil {
			b.Fatal(err)
		}
		for _, p := range res.Players {
			if p.Status != judge.OK {
				b.Fatalf("%s: %s", p.Status, p.Reason)
			}
		}
		return time.Since(start)
	}
	configs := []struct {
		name string
		o    procbot.Options
	}{
		{"none-pipe", procbot.Options{Host: judgetest.Host(), Level: sandbox.None, IO: procbot.Pipe}},
		{"none-pty", procbot.Options{Host: judgetest.Host(), Level: sandbox.None, IO: procbot.PTY}},
		{"none-auto", procbot.Options{Host: judgetest.Host(), Level: sandbox.None}},
		{"sandbox-pipe", procbot.Options{Host: judgetest.Host(), IO: procbot.Pipe}},
		{"sandbox-pty", procbot.Options{Host: judgetest.Host(), IO: procbot.PTY}},
		{"default", procbot.Options{Host: judgetest.Host()}},
	}
	game(configs[len(configs)-1].o, 0) // ready sandboxes, as in a tournament
	total := make([]time.Duration, len(configs))
	ratios := make([][]float64, len(configs))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		d := make([]time.Duration, len(configs))
		for j, c := range configs {
			d[j] = game(c.o, uint64(i))
			total[j] += d[j]
			ratios[j] = append(ratios[j], d[j].Seconds()/d[0].Seconds())
		}
	}
	median := func(r []float64) float64 {
		r = slices.Clone(r)
		slices.Sort(r)
		return r[len(r)/2]
	}
	for j, c := range configs {
		b.ReportMetric(total[j].Seconds()/float64(b.N), "s/game-"+c.name)
	}
	b.ReportMetric(median(ratios[1]), "pty-ratio")
	b.ReportMetric(median(ratios[2]), "auto-ratio")
	b.ReportMetric(median(ratios[3]), "sandbox-ratio")
	b.ReportMetric(median(ratios[4]), "sandbox-pty-ratio")
	b.ReportMetric(median(ratios[5]), "ratio")
}
