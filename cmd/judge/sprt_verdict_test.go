package main

import (
	"strings"
	"testing"

	"judge/judge/sprt"
	"judge/judge/tournament"
)

// A test stopped at --max-games says what is true of it: the hypotheses
// are close, whatever the score; what the score suggests; what to test.
func TestUndecided(t *testing.T) {
	for _, c := range []struct {
		name  string
		pairs [][2]float64 // B's scores, pair by pair
		want  []string
		not   []string
	}{
		{"B won every game", repeat([2]float64{1, 1}, 10),
			[]string{"no verdict after 20 games", "are 5 Elo apart", "W/D/L 20/0/0", "about +inf Elo", "test --elo1 250"},
			[]string{"too close", "close so far"}},
		{"B lost every game", repeat([2]float64{0, 0}, 10),
			[]string{"about -inf Elo", "b looks weaker", "swap the bots and test --elo1 250"},
			[]string{"close so far"}},
		{"even", repeat([2]float64{1, 0}, 10),
			[]string{"about +0 Elo", "the bots are close so far"},
			[]string{"--elo1 "}},
	} {
		t.Run(c.name, func(t *testing.T) {
			st := &tournament.SPRTState{A: "a", B: "b", Test: sprt.Default, Limited: true}
			var p sprt.Penta
			for _, x := range c.pairs {
				p.Add(x[0], x[1])
				for _, s := range x {
					switch s {
					case 1:
						st.W++
					case 0:
						st.L++
					default:
						st.D++
					}
				}
				st.Pairs++
			}
			st.Penta, st.Elo = p, p.Elo()
			got := verdict(st)
			for _, w := range c.want {
				if !strings.Contains(got, w) {
					t.Errorf("%q\nwant %q in it", got, w)
				}
			}
			for _, w := range c.not {
				if strings.Contains(got, w) {
					t.Errorf("%q\nhas %q", got, w)
				}
			}
		})
	}
}

func repeat(x [2]float64, n int) [][2]float64 {
	out := make([][2]float64, n)
	for i := range out {
		out[i] = x
	}
	return out
}
