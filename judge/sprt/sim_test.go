package sprt

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

var simulate = flag.Int("simulate", 0, "TestSimulate: runs of the default test per Elo gap (0: skip)")

// game is one game's result for B, from a model where B scores s per game
// and draws a share of the games that the gap leaves to chance.
func game(r *rand.Rand, s, drawRate float64) float64 {
	d := drawRate * 2 * min(s, 1-s)
	switch u := r.Float64(); {
	case u < s-d/2:
		return 1
	case u < s+d/2:
		return 0.5
	}
	return 0
}

// run plays pairs until t decides or maxPairs; the games it took and the
// verdict.
func simRun(r *rand.Rand, t Test, s, drawRate float64, maxPairs int) (int, Verdict) {
	var p Penta
	for k := 1; k <= maxPairs; k++ {
		p.Add(game(r, s, drawRate), game(r, s, drawRate))
		if d := t.Judge(p); d.Verdict != Continue {
			return 2 * k, d.Verdict
		}
	}
	return 2 * maxPairs, Continue
}

// TestSimulate prints, for a few Elo gaps, the games the default test
// takes (median and 90th percentile, at most 20000) and how often it
// accepts each hypothesis: go test ./judge/sprt -run Simulate -simulate 400.
func TestSimulate(t *testing.T) {
	if *simulate == 0 {
		t.Skip("-simulate N runs it")
	}
	for _, tt := range []Test{{Elo0: 0, Elo1: 5, Alpha: .05, Beta: .05}, Default} {
		fmt.Printf("elo0 %g, elo1 %g, early %g (draws: 20%% of the games left to chance)\n", tt.Elo0, tt.Elo1, tt.Early)
		fmt.Println("| gap (Elo) | median games | 90% | H1 | H0 | undecided at 20000 |")
		for _, gap := range []float64{-800, -200, 0, 5, 50, 100, 200, 400, 800} {
			r := rand.New(rand.NewPCG(uint64(gap+1000), 7))
			var games []int
			var n [3]int
			for range *simulate {
				g, v := simRun(r, tt, ScoreOf(gap), 0.2, 10000)
				games = append(games, g)
				n[v]++
			}
			slices.Sort(games)
			pc := func(k int) string { return fmt.Sprintf("%.1f%%", 100*float64(k)/float64(*simulate)) }
			fmt.Printf("| %+g | %d | %d | %s | %s | %s |\n", gap, games[len(games)/2], games[len(games)*9/10], pc(n[H1]), pc(n[H0]), pc(n[Continue]))
		}
	}
}

// BenchmarkDefault409to5 runs the default test on games drawn at the odds
// of a bot that won 409 of 414 until it decides; games/op is the mean
// number of games it took (under 60 wanted; the main test alone took 414).
func BenchmarkDefault409to5(b *testing.B) {
	r := rand.New(rand.NewPCG(409, 5))
	games, wrong := 0, 0
	for b.Loop() {
		var p Penta
		for {
			p.Add(game(r, 409.0/414, 0), game(r, 409.0/414, 0))
			if d := Default.Judge(p); d.Verdict != Continue {
				if d.Verdict != H1 {
					wrong++
				}
				break
			}
		}
		games += 2 * p.Pairs()
	}
	b.ReportMetric(float64(games)/float64(b.N), "games/op")
	b.ReportMetric(float64(wrong)/float64(b.N), "H0/op")
}
