package sprt

import (
	"math"
	"strings"
	"testing"
)

func near(got, want, tol float64) bool { return math.Abs(got-want) <= tol }

// classic is the default test without the early ones.
var classic = Test{Elo0: 0, Elo1: 5, Alpha: 0.05, Beta: 0.05}

func TestBounds(t *testing.T) {
	lo, hi := classic.Bounds()
	// log(0.05/0.95) and log(0.95/0.05).
	if !near(lo, -2.9444389791664403, 1e-12) || !near(hi, 2.9444389791664403, 1e-12) {
		t.Errorf("bounds %v, %v; want ∓2.9444389791664403", lo, hi)
	}
	// With the early tests, the main one has 90% of the error rates:
	// log(0.045/0.955) and log(0.955/0.045); the early ones log(1/0.005).
	lo, hi = Default.Bounds()
	if !near(lo, -3.0550488507, 1e-9) || !near(hi, 3.0550488507, 1e-9) {
		t.Errorf("default bounds %v, %v; want ∓3.0550488507", lo, hi)
	}
	lo, hi = Default.EarlyBound()
	if !near(lo, math.Log(0.005), 1e-12) || !near(hi, -math.Log(0.005), 1e-12) {
		t.Errorf("early bounds %v, %v; want ∓%v", lo, hi, -math.Log(0.005))
	}
	lo, hi = Test{Elo0: 0, Elo1: 5, Alpha: 0.1, Beta: 0.01}.Bounds()
	if !near(lo, math.Log(0.01/0.9), 1e-12) || !near(hi, math.Log(0.99/0.1), 1e-12) {
		t.Errorf("bounds %v, %v for alpha 0.1, beta 0.01", lo, hi)
	}
}

func TestDecide(t *testing.T) {
	for _, c := range []struct {
		llr  float64
		want Verdict
	}{{0, Continue}, {2.9, Continue}, {-2.9, Continue}, {2.95, H1}, {-2.95, H0}, {100, H1}} {
		if got := classic.Decide(c.llr); got != c.want {
			t.Errorf("Decide(%v) = %v, want %v", c.llr, got, c.want)
		}
	}
}

func TestCheck(t *testing.T) {
	for _, c := range []struct {
		test Test
		ok   bool
	}{
		{Default, true},
		{Test{Elo0: -10, Elo1: 0, Alpha: 0.01, Beta: 0.2}, true},
		{Test{Elo0: 5, Elo1: 5, Alpha: 0.05, Beta: 0.05}, false},
		{Test{Elo0: 5, Elo1: 0, Alpha: 0.05, Beta: 0.05}, false},
		{Test{Elo0: 0, Elo1: 5, Alpha: 0, Beta: 0.05}, false},
		{Test{Elo0: 0, Elo1: 5, Alpha: 0.6, Beta: 0.5}, false},
		{Test{Elo0: 0, Elo1: 5000, Alpha: 0.05, Beta: 0.05}, false},
		{Test{Elo0: 0, Elo1: 5, Alpha: 0.05, Beta: 0.05, Early: -1}, false},
		{Test{Elo0: 0, Elo1: 5, Alpha: 0.05, Beta: 0.05, Early: 1200}, false},
		{Test{Elo0: 0, Elo1: 500, Alpha: 0.05, Beta: 0.05, Early: 200}, true}, // narrower than the test: none
	} {
		if err := c.test.Check(); (err == nil) != c.ok {
			t.Errorf("%+v: Check() = %v, want ok %v", c.test, err, c.ok)
		}
	}
}

func TestElo(t *testing.T) {
	if got := ScoreOf(0); got != 0.5 {
		t.Errorf("ScoreOf(0) = %v", got)
	}
	if got := ScoreOf(400); !near(got, 10.0/11, 1e-12) {
		t.Errorf("ScoreOf(400) = %v, want 10/11", got)
	}
	// 400·log10(3): a 75% score.
	if got := EloOf(0.75); !near(got, 190.848501887865, 1e-9) {
		t.Errorf("EloOf(0.75) = %v", got)
	}
	if !math.IsInf(EloOf(1), 1) || !math.IsInf(EloOf(0), -1) {
		t.Errorf("EloOf(1), EloOf(0) = %v, %v; want ±Inf", EloOf(1), EloOf(0))
	}
	for _, e := range []float64{-300, -5, 0, 17, 250} {
		if got := EloOf(ScoreOf(e)); !near(got, e, 1e-9) {
			t.Errorf("EloOf(ScoreOf(%v)) = %v", e, got)
		}
	}
}

func TestEstimate(t *testing.T) {
	// Mean 0.5, pair variance with half a pseudo-pair of each outcome
	// (7.8125/102.5): 0.5 ± 1.96·sqrt(0.07622/100).
	e := Penta{10, 20, 40, 20, 10}.Elo()
	if e.Score != 0.5 || e.Elo != 0 || !near(e.Error, 37.74762099975097, 1e-9) {
		t.Errorf("Elo() = %+v, want 0 ± 37.748", e)
	}
	if got := e.String(); got != "+0.0 ± 37.7" {
		t.Errorf("String() = %q", got)
	}
	// 408 games of identical bots, every one drawn: not ± 0.
	e = Penta{0, 0, 204, 0, 0}.Elo()
	if e.Elo != 0 || !near(e.Error, 3.709529133585872, 1e-9) || e.String() != "+0.0 ± 3.7" {
		t.Errorf("all drawn: %+v %q, want 0 ± 3.7", e, e.String())
	}
	// Every pair a loss and a draw: one outcome again, an interval still.
	if e = (Penta{0, 50, 0, 0, 0}).Elo(); !(e.Error > 0) || e.Lo >= e.Elo || e.Hi <= e.Elo {
		t.Errorf("all one outcome: %+v", e)
	}
	// The prior's weight fades: with 10000 pairs the interval is the
	// plain one, pair variance 0.075, within 0.1%.
	half := z95 * math.Sqrt(0.075/10000)
	plain := (EloOf(0.5+half) - EloOf(0.5-half)) / 2
	if e = (Penta{1000, 2000, 4000, 2000, 1000}).Elo(); !near(e.Error, plain, plain/1000) {
		t.Errorf("10000 pairs: ± %v, want %v", e.Error, plain)
	}
	e = Penta{0, 0, 0, 0, 3}.Elo()
	if !math.IsInf(e.Elo, 1) || e.String() != "+Inf" {
		t.Errorf("all won: %+v %q", e, e.String())
	}
	e = Penta{0, 0, 1, 0, 9}.Elo()
	if math.IsInf(e.Elo, 0) || !math.IsInf(e.Hi, 1) || !strings.HasSuffix(e.String(), ".. +Inf)") {
		t.Errorf("nearly all won: %+v %q", e, e.String())
	}
	if e := (Penta{}).Elo(); !math.IsInf(e.Error, 1) {
		t.Errorf("no pairs: %+v", e)
	}
}

func TestPentaAdd(t *testing.T) {
	var p Penta
	p.Add(0, 0)
	p.Add(0.5, 0)
	p.Add(1, 0)
	p.Add(0.5, 0.5)
	p.Add(1, 0.5)
	p.Add(1, 1)
	if want := (Penta{1, 1, 2, 1, 1}); p != want {
		t.Errorf("got %v, want %v", p, want)
	}
	if p.Pairs() != 6 {
		t.Errorf("Pairs() = %d", p.Pairs())
	}
}

// TestLLRKnown checks the LLR against values worked out another way.
func TestLLRKnown(t *testing.T) {
	for _, c := range []struct {
		name string
		got  float64
		want float64
		tol  float64
	}{
		// Without draws the constrained maximum likelihood is p(win) = s:
		// W·log(s1/s0) + L·log((1-s1)/(1-s0)), the classic SPRT.
		{"binomial 60-40, 0 vs 50", Trinomial{W: 60, L: 40}.LLR(Test{Elo0: 0, Elo1: 50, Alpha: .05, Beta: .05}), 1.8462591612129886, 2e-3},
		// Pairs only ever all won or all lost are a binomial over pairs.
		{"pairs 9 won, 1 lost, 0 vs 200", Penta{1, 0, 0, 0, 9}.LLR(Test{Elo0: 0, Elo1: 200, Alpha: .05, Beta: .05}), 3.0324803350189775, 2e-3},
		// Trinomials, against a direct search over the draw rate of the
		// distributions with means s0 and s1.
		{"trinomial 50/30/20, 0 vs 20", Trinomial{W: 50, D: 30, L: 20}.LLR(Test{Elo0: 0, Elo1: 20, Alpha: .05, Beta: .05}), 2.2417514512204377, 1e-6},
		{"trinomial 30/40/45, -5 vs 5", Trinomial{W: 30, D: 40, L: 45}.LLR(Test{Elo0: -5, Elo1: 5, Alpha: .05, Beta: .05}), -0.6619448738326383, 1e-6},
		// fastchess's normal approximation, by hand: mean 0.56, variance
		// 0.0714 over 500 pairs, s0 = 0.5, s1 = ScoreOf(10).
		{"approx 30/80/200/120/70, 0 vs 10", Penta{30, 80, 200, 120, 70}.ApproxLLR(Test{Elo0: 0, Elo1: 10, Alpha: .05, Beta: .05}), 5.320276721615837, 1e-9},
		{"no games", Penta{}.LLR(Default), 0, 0},
	} {
		if !near(c.got, c.want, c.tol) {
			t.Errorf("%s: LLR %v, want %v", c.name, c.got, c.want)
		}
	}
}

// TestLLRApprox checks the exact LLR against the normal approximation
// where the latter is good: many pairs, a small Elo window.
func TestLLRApprox(t *testing.T) {
	for _, p := range []Penta{
		{300, 900, 2000, 1000, 310},
		{50, 50, 50, 50, 50},
		{10, 300, 1500, 320, 12},
	} {
		for _, tt := range []Test{Default, {Elo0: -3, Elo1: 3, Alpha: .05, Beta: .05}, {Elo0: 0, Elo1: 10, Alpha: .05, Beta: .05}} {
			got, approx := p.LLR(tt), p.ApproxLLR(tt)
			if !near(got, approx, 0.02*math.Abs(approx)+0.05) {
				t.Errorf("%v %+v: LLR %v, approximation %v", p, tt, got, approx)
			}
		}
	}
}

// TestLLRMonotone: more wins for B never lower the LLR, and a sweep
// either way is decided.
func TestLLRMonotone(t *testing.T) {
	tt := Test{Elo0: 0, Elo1: 100, Alpha: .05, Beta: .05}
	var p Penta
	prev := p.LLR(tt)
	for i := 0; i < 20; i++ {
		p[4]++
		l := p.LLR(tt)
		if l <= prev {
			t.Fatalf("after %d pairs all won: LLR %v, not above %v", i+1, l, prev)
		}
		prev = l
	}
	if tt.Decide(prev) != H1 {
		t.Errorf("20 pairs all won, elo1 100: LLR %v, not H1", prev)
	}
	if l := (Penta{20, 0, 0, 0, 0}).LLR(tt); tt.Decide(l) != H0 {
		t.Errorf("20 pairs all lost: LLR %v, not H0", l)
	}
	// Equal strength: the LLR goes down, toward H0, for elo0 0 < elo1.
	if l := (Penta{100, 100, 100, 100, 100}).LLR(tt); l >= 0 {
		t.Errorf("even pairs: LLR %v, want negative", l)
	}
	// The LLR with zero variance is finite, unlike the approximation's.
	if l := (Penta{0, 0, 7, 0, 0}).LLR(tt); math.IsNaN(l) || math.IsInf(l, 0) {
		t.Errorf("all drawn: LLR %v", l)
	}
}

// results409to5 is 60 games at the odds of a bot that won 409 of 414:
// one lost (in the first pair, where it weighs most), the others won.
func results409to5() []float64 {
	out := make([]float64, 60)
	for i := range out {
		out[i] = 1
	}
	out[1] = 0
	return out
}

// TestJudgeWideGap: the default test tells a bot that wins 409 games of
// 414 stronger within 60 games, through its early test, where the main
// test alone (0 against 5 Elo) is still far from its bound.
func TestJudgeWideGap(t *testing.T) {
	r := results409to5()
	var p Penta
	games := 0
	var d Decision
	for i := 0; i < len(r); i += 2 {
		p.Add(r[i], r[i+1])
		if d = Default.Judge(p); d.Verdict != Continue {
			games = i + 2
			break
		}
	}
	if d.Verdict != H1 || !d.Early || games == 0 {
		t.Fatalf("after %d games of 409:5 (%v): %+v, want H1 by the early test", len(r), p, d)
	}
	t.Logf("H1 after %d games, pairs %v", games, p)
	if v := classic.Judge(p); v.Verdict != Continue || v.Early {
		t.Errorf("the main test alone: %+v, want no verdict yet", v)
	}
	// And the other way round: B that loses them all is told weaker.
	var q Penta
	d = Decision{}
	for i := 0; i < len(r) && d.Verdict == Continue; i += 2 {
		q.Add(1-r[i], 1-r[i+1])
		d = Default.Judge(q)
	}
	if d.Verdict != H0 || !d.Early {
		t.Errorf("60 games at 5:409: %+v, want H0 by the early test", d)
	}
}

// TestJudgeCloseCall: where the gap is not wide the early tests keep out
// of the way: two bots that draw every game are told apart by the main
// test, and a main-test verdict is the main test's.
func TestJudgeCloseCall(t *testing.T) {
	var p Penta
	var d Decision
	for d.Verdict == Continue && p.Pairs() < 1000 {
		p.Add(0.5, 0.5)
		d = Default.Judge(p)
	}
	if d.Verdict != H0 || d.Early {
		t.Fatalf("all drawn: %+v after %d pairs, want H0 by the main test", d, p.Pairs())
	}
	if lo, _ := Default.Bounds(); d.LLR > lo {
		t.Errorf("all drawn: H0 with LLR %v above the bound %v", d.LLR, lo)
	}
	t.Logf("all drawn: H0 after %d games", 2*p.Pairs())
}
