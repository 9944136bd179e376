package tournament

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"judge/judge/judgetest"
)

// spread is the largest difference between two bots' played counts.
func spread(played []int) int {
	lo, hi := played[0], played[0]
	for _, c := range played {
		lo, hi = min(lo, c), max(hi, c)
	}
	return hi - lo
}

// The round robin and gauntlet schedules keep the bots' played counts
// level all along: within 2 after every match (within 1 at the end of
// every slot), also when jobs matches run at once and finish in any
// order. Every pair still plays once in each seat order each round.
func TestScheduleLevelsPlayedCounts(t *testing.T) {
	for n := 2; n <= 12; n++ {
		for _, tb := range []int{-1, 0, n - 1} {
			for rounds := 1; rounds <= 3; rounds++ {
				format := RoundRobin
				if tb >= 0 {
					format = Gauntlet
				}
				p := Plan{Format: format, Names: make([]string, n), Rounds: rounds, Seed: 1, TestBot: tb}
				for i := range p.Names {
					p.Names[i] = fmt.Sprintf("b%d", i)
				}
				sched, err := p.Schedule()
				if err != nil {
					t.Fatal(err)
				}
				seen := map[[2]int]int{}
				for _, f := range sched {
					seen[[2]int{f.Seats[0], f.Seats[1]}]++
				}
				for k, c := range seen {
					if c != rounds {
						t.Fatalf("n=%d tb=%d: %v played %d times in %d rounds", n, tb, k, c, rounds)
					}
				}
				for _, jobs := range []int{1, 2, 4} {
					if jobs > max(1, n/2) {
						continue // bots must play several matches at once
					}
					if w := playedSpread(sched, n, tb, jobs); w > 2 {
						t.Errorf("%s of %d bots, %d rounds, %d jobs: played counts %d apart", format, n, rounds, jobs, w)
					}
				}
			}
		}
	}
}

// playedSpread plays sched in a simulation, jobs matches at once in
// schedule order, each lasting 1 to 3 units of time at random (so they
// finish out of order), and returns how far apart the played counts of
// the bots other than tb came, at worst, over 20 draws.
func playedSpread(sched []Fixture, n, tb, jobs int) int {
	type running struct {
		end float64
		f   Fixture
	}
	worst := 0
	for draw := 0; draw < 20; draw++ {
		r := rand.New(rand.NewPCG(uint64(n), uint64(draw)))
		played := make([]int, n)
		var now float64
		var run []running
		for next := 0; next < len(sched) || len(run) > 0; {
			for len(run) < jobs && next < len(sched) {
				run = append(run, running{now + 1 + 2*r.Float64(), sched[next]})
				next++
			}
			first := 0
			for i := range run {
				if run[i].end < run[first].end {
					first = i
				}
			}
			now = run[first].end
			for _, s := range run[first].f.Seats {
				played[s]++
			}
			run = append(run[:first], run[first+1:]...)
			var field []int
			for b, c := range played {
				if b != tb {
					field = append(field, c)
				}
			}
			if len(field) > 0 {
				worst = max(worst, spread(field))
			}
		}
	}
	return worst
}

// fieldDir makes a directory of several bots for tictactoe: the random
// example built beforehand under several names, and alpha.c, its source,
// built by the tournament.
func fieldDir(t *testing.T, names ...string) (dir string, args []string) {
	t.Helper()
	root := judgetest.Root(t)
	dir = tempDir(t)
	src, err := os.ReadFile(filepath.Join(root, "examples/gomoku/random.c"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "alpha.c"), src, 0o644); err != nil {
		t.Fatal(err)
	}
	args = append(args, filepath.Join(dir, "alpha.c"))
	exe := judgetest.Bot(t, "examples/gomoku/random.c")[0]
	for _, n := range names {
		if err := copyFile(exe, filepath.Join(dir, n)); err != nil {
			t.Fatal(err)
		}
		args = append(args, filepath.Join(dir, n))
	}
	return dir, args
}

// matchRecords are the match records of the log in out, in the order
// they were written.
func matchRecords(t *testing.T, out string) []*MatchRecord {
	t.Helper()
	recs, bad, err := ReadLog(filepath.Join(out, LogName))
	if err != nil || bad != 0 {
		t.Fatalf("%v, %d bad lines", err, bad)
	}
	var ms []*MatchRecord
	for _, r := range recs {
		if r.Kind == KindMatch {
			ms = append(ms, r.Match)
		}
	}
	return ms
}

// A real round robin records its matches in an order that keeps every
// bot's played count within 2 of the others' at every point.
func TestTournamentLevelsPlayedCounts(t *testing.T) {
	_, args := fieldDir(t, "beta", "gamma", "delta", "epsilon")
	out := filepath.Join(tempDir(t), "out")
	o := options(t, out, tempDir(t), args)
	o.Jobs = 2
	if _, err := Run(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	ms := matchRecords(t, out)
	if len(ms) != 40 {
		t.Fatalf("%d matches recorded, want 40", len(ms))
	}
	played := map[string]int{"alpha": 0, "beta": 0, "gamma": 0, "delta": 0, "epsilon": 0}
	worst := 0
	for i, m := range ms {
		for _, p := range m.Players {
			played[p.Name]++
		}
		var counts []int
		for _, c := range played {
			counts = append(counts, c)
		}
		if d := spread(counts); d > 2 {
			t.Errorf("after %d matches played counts %v", i+1, played)
		}
		worst = max(worst, spread(counts))
	}
	t.Logf("largest spread of played counts: %d", worst)
}
