package ratings

import (
	"math"
	"math/rand/v2"
	"testing"
)

func games2(a, b, aWins, bWins, draws int) []Game {
	var out []Game
	for i := 0; i < aWins; i++ {
		out = append(out, Game{Players: []int{a, b}, Scores: []float64{1, 0}})
	}
	for i := 0; i < bWins; i++ {
		out = append(out, Game{Players: []int{b, a}, Scores: []float64{1, 0}})
	}
	for i := 0; i < draws; i++ {
		out = append(out, Game{Players: []int{a, b}, Scores: []float64{0.5, 0.5}})
	}
	return out
}

func near(t *testing.T, what string, got, want, tol float64) {
	t.Helper()
	if math.Abs(got-want) > tol {
		t.Errorf("%s = %.6f, want %.6f (±%g)", what, got, want, tol)
	}
}

// Two bots, 3 wins to 1: the maximum likelihood strength ratio is 3, so
// the Elo difference is 400·log10(3); the observed information of the
// difference is n·p·(1-p) = 4·¾·¼ = ¾, so under the sum-zero constraint
// each rating's variance is (1/¾)/4 = ⅓ in natural units.
func TestBradleyTerryTwoBots(t *testing.T) {
	fit := FitRatings(2, games2(0, 1, 3, 1, 0))
	if fit.Prior {
		t.Fatal("prior used on data with a finite MLE")
	}
	d := 400 * math.Log10(3)
	near(t, "rating A", fit.Ratings[0].Elo, 1500+d/2, 1e-6)
	near(t, "rating B", fit.Ratings[1].Elo, 1500-d/2, 1e-6)
	se := eloScale * math.Sqrt(1.0/3)
	near(t, "SE A", fit.Ratings[0].SE, se, 1e-6)
	near(t, "low A", fit.Ratings[0].Low, fit.Ratings[0].Elo-1.959964*se, 1e-3)
	near(t, "high A", fit.Ratings[0].High, fit.Ratings[0].Elo+1.959964*se, 1e-3)
}

// Three bots whose results fit strengths 9:3:1 exactly (A beats B 3 of 4,
// B beats C 3 of 4, A beats C 9 of 10): the likelihood equations hold at
// those strengths, so they are the MLE.
func TestBradleyTerryThreeBotsClosedForm(t *testing.T) {
	var gs []Game
	gs = append(gs, games2(0, 1, 6, 2, 0)...)
	gs = append(gs, games2(1, 2, 3, 1, 0)...)
	gs = append(gs, games2(0, 2, 9, 1, 0)...)
	fit := FitRatings(3, gs)
	th := []float64{math.Log(9), math.Log(3), 0}
	center(th)
	for i := range th {
		near(t, "rating", fit.Ratings[i].Elo, 1500+eloScale*th[i], 1e-6)
	}
	near(t, "A-C", fit.Ratings[0].Elo-fit.Ratings[2].Elo, 400*math.Log10(9), 1e-6)
}

// Draws count as half a win each way: 2 wins, 2 draws, 0 losses is the
// same as 3 wins and 1 loss.
func TestDrawsAreHalfWins(t *testing.T) {
	a := FitRatings(2, games2(0, 1, 2, 0, 2))
	b := FitRatings(2, games2(0, 1, 3, 1, 0))
	near(t, "rating", a.Ratings[0].Elo, b.Ratings[0].Elo, 1e-6)
}

func TestPriorWhenABotWinsEverything(t *testing.T) {
	fit := FitRatings(3, append(games2(0, 1, 5, 0, 0), games2(1, 2, 2, 2, 0)...))
	if !fit.Prior {
		t.Fatal("no prior for a bot that won every game")
	}
	for i, r := range fit.Ratings {
		if math.IsNaN(r.Elo) || math.IsInf(r.Elo, 0) || r.SE <= 0 || math.IsNaN(r.SE) {
			t.Errorf("bot %d: rating %v", i, r)
		}
	}
	if !(fit.Ratings[0].Elo > fit.Ratings[1].Elo) {
		t.Errorf("the unbeaten bot is not first: %v", fit.Ratings)
	}
	// A bot with no games at all sits at the prior's 1500.
	fit = FitRatings(3, games2(0, 1, 2, 2, 0))
	near(t, "no games", fit.Ratings[2].Elo, 1500, 1e-6)
}

func TestEmptyAndSingle(t *testing.T) {
	if fit := FitRatings(0, nil); len(fit.Ratings) != 0 {
		t.Error("ratings for no bots")
	}
	if fit := FitRatings(1, nil); fit.Ratings[0].Elo != 1500 {
		t.Errorf("one bot: %v", fit.Ratings)
	}
}

// Plackett–Luce for two players is Bradley–Terry.
func TestPlackettLuceTwoPlayersIsBradleyTerry(t *testing.T) {
	gs := games2(0, 1, 7, 3, 2)
	fit := FitRatings(2, gs)
	// Wins 7+1 of 12: ratio 8/4.
	near(t, "difference", fit.Ratings[0].Elo-fit.Ratings[1].Elo, 400*math.Log10(2), 1e-6)
}

// mmPlackettLuce is Hunter's (2004) MM algorithm for Plackett–Luce,
// a slow and obvious reference for the Newton fit.
func mmPlackettLuce(n int, gs []Game) []float64 {
	st := stages(gs)
	gamma := make([]float64, n)
	for i := range gamma {
		gamma[i] = 1
	}
	wins := make([]float64, n)
	for _, s := range st {
		wins[s.winner] += s.w
	}
	for it := 0; it < 20000; it++ {
		denom := make([]float64, n)
		for _, s := range st {
			sum := 0.0
			for _, x := range s.set {
				sum += gamma[x]
			}
			for _, x := range s.set {
				denom[x] += s.w / sum
			}
		}
		for i := range gamma {
			gamma[i] = wins[i] / denom[i]
		}
		// Normalize to geometric mean 1.
		m := 0.0
		for _, g := range gamma {
			m += math.Log(g)
		}
		m /= float64(n)
		for i := range gamma {
			gamma[i] /= math.Exp(m)
		}
	}
	out := make([]float64, n)
	for i, g := range gamma {
		out[i] = eloBase + eloScale*math.Log(g)
	}
	return out
}

func TestPlackettLuceMatchesMM(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	strength := []float64{3, 1, 0.5, 2, 1.5}
	n := len(strength)
	var gs []Game
	for g := 0; g < 300; g++ {
		k := 2 + r.IntN(4)
		players := r.Perm(n)[:k]
		scores := make([]float64, k)
		for i, p := range players {
			// Exponential noise on log-strength; round to make ties.
			scores[i] = math.Round(math.Log(strength[p]) - math.Log(r.ExpFloat64()))
		}
		gs = append(gs, Game{Players: players, Scores: scores})
	}
	fit := FitRatings(n, gs)
	if fit.Prior {
		t.Fatal("prior used")
	}
	ref := mmPlackettLuce(n, gs)
	for i := range ref {
		near(t, "rating", fit.Ratings[i].Elo, ref[i], 1e-3)
		if fit.Ratings[i].SE <= 0 {
			t.Errorf("bot %d: no standard error", i)
		}
	}
	// The gradient vanishes at the fit.
	th := make([]float64, n)
	for i, r := range fit.Ratings {
		th[i] = (r.Elo - eloBase) / eloScale
	}
	_, g, _ := derivs(n, stages(gs), th, false, secondOrder)
	for i, x := range g {
		near(t, "gradient", x, 0, 1e-6)
		_ = i
	}
}

// A tie of several players spreads over their orders: a three-way tie
// gives every player the same expected share.
func TestTiesInMultiplayer(t *testing.T) {
	st := stages([]Game{{Players: []int{0, 1, 2}, Scores: []float64{5, 5, 5}}})
	wins := make([]float64, 3)
	total := 0.0
	for _, s := range st {
		wins[s.winner] += s.w
		total += s.w
	}
	for i, w := range wins {
		near(t, "wins", w, 2.0/3, 1e-12)
		_ = i
	}
	near(t, "stages", total, 2, 1e-12)
}

// One bot that won every game puts the fit on its prior; the intervals
// of the others, who played each other evenly, still narrow as their
// games accrue (they are relative to the field, whose level only the
// prior sets), as the square root of their games.
func TestPriorIntervalsNarrow(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	width := func(perPair int) float64 {
		var gs []Game
		for i := range 6 {
			for j := range i {
				for range perPair {
					win := float64(r.IntN(2)) // i's score
					if j == 0 {
						win = 0
					}
					gs = append(gs, Game{Players: []int{i, j}, Scores: []float64{win, 1 - win}})
				}
			}
		}
		fit := FitRatings(6, gs)
		if !fit.Prior {
			t.Fatal("no prior, though bot 0 won every game")
		}
		w := 0.0
		for _, r := range fit.Ratings[1:] {
			w += r.High - r.Low
		}
		return w / 5
	}
	few, many := width(6), width(60)
	t.Logf("mean width of the others' intervals: %.0f at 30 games each, %.0f at 300", few, many)
	if many > few/2.5 {
		t.Errorf("intervals %.0f wide at 300 games each, %.0f at 30: they should narrow about as √10", many, few)
	}
}
