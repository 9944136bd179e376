// Package sprt is the statistics of a sequential probability ratio test
// between two bots, as chess engine testers run them: games are played in
// pairs (the same seed, seats swapped), each pair's result is one of five
// outcomes (the pentanomial model), and after every pair the generalized
// log-likelihood ratio (GSPRT) of "B is elo1 stronger than A" against "B
// is elo0 stronger" is compared with two bounds set by the error rates
// alpha and beta. Elo is logistic: a score s is -400·log10(1/s - 1).
//
// The package is pure: counts in, numbers out.
package sprt

import (
	"errors"
	"fmt"
	"math"
)

// Test is the hypotheses and error rates of a test: H0 is "B is Elo0
// stronger than A", H1 "B is Elo1 stronger"; Alpha is the chance of
// accepting H1 when H0 holds, Beta of accepting H0 when H1 holds.
//
// Early, when above Elo1 - Elo0, lets a wide gap end the test in a few
// games: beside the test of Elo1 against Elo0 (the main test) run two
// one-sided tests as wide as Early, one of Elo0 + Early against Elo0
// that can only accept H1, one of Elo1 - Early against Elo1 that can only
// accept H0. Each takes EarlyShare of the error rates, and the main test
// the rest, so that Alpha and Beta still bound the whole.
type Test struct {
	Elo0, Elo1  float64
	Alpha, Beta float64
	Early       float64
}

// Default is the test the command line uses unless told otherwise.
var Default = Test{Elo0: 0, Elo1: 5, Alpha: 0.05, Beta: 0.05, Early: 200}

// EarlyShare is the part of Alpha (and of Beta) the early tests take.
const EarlyShare = 0.1

// early reports whether t runs the early tests.
func (t Test) early() bool { return t.Early > t.Elo1-t.Elo0 }

// main is the main test's error rates: all of t's, or what the early
// tests leave.
func (t Test) main() (alpha, beta float64) {
	if t.early() {
		return t.Alpha * (1 - EarlyShare), t.Beta * (1 - EarlyShare)
	}
	return t.Alpha, t.Beta
}

// Check reports what is wrong with t, if anything.
func (t Test) Check() error {
	switch {
	case !(t.Alpha > 0 && t.Alpha < 1) || !(t.Beta > 0 && t.Beta < 1):
		return fmt.Errorf("alpha %g and beta %g: each must be between 0 and 1", t.Alpha, t.Beta)
	case t.Alpha+t.Beta >= 1:
		return fmt.Errorf("alpha %g + beta %g: must be less than 1", t.Alpha, t.Beta)
	case !(t.Elo0 < t.Elo1):
		return fmt.Errorf("elo0 %g must be less than elo1 %g", t.Elo0, t.Elo1)
	case math.Abs(t.Elo0) >= 1200 || math.Abs(t.Elo1) >= 1200:
		return errors.New("elo0 and elo1 must be within ±1200")
	case t.Early < 0 || t.early() && (math.Abs(t.Elo0+t.Early) >= 1200 || math.Abs(t.Elo1-t.Early) >= 1200):
		return fmt.Errorf("early %g: must be 0 (none) or such that elo0 + early and elo1 - early are within ±1200", t.Early)
	}
	return nil
}

// Bounds are the main test's stopping bounds on its LLR: at or below
// lower it accepts H0, at or above upper H1.
func (t Test) Bounds() (lower, upper float64) {
	a, b := t.main()
	return math.Log(b / (1 - a)), math.Log((1 - b) / a)
}

// EarlyBound is the early tests' bound: the LLR of the wide H1 against
// H0 at or above it accepts H1, that of the wide H0 against H1 at or
// below minus it accepts H0. A one-sided test that stops at log(1/a)
// errs with chance at most a (Ville's inequality): a = EarlyShare·Alpha
// (and ·Beta for the other).
func (t Test) EarlyBound() (lower, upper float64) {
	return math.Log(EarlyShare * t.Beta), -math.Log(EarlyShare * t.Alpha)
}

// Verdict is where a test stands.
type Verdict int

const (
	Continue Verdict = iota // no decision yet
	H0                      // B is not Elo1 stronger (it is at most Elo0 stronger)
	H1                      // B is Elo1 stronger
)

func (v Verdict) String() string {
	switch v {
	case H0:
		return "H0"
	case H1:
		return "H1"
	}
	return "continue"
}

// Decide compares the main test's LLR with its bounds.
func (t Test) Decide(llr float64) Verdict {
	lo, hi := t.Bounds()
	switch {
	case llr >= hi:
		return H1
	case llr <= lo:
		return H0
	}
	return Continue
}

// Decision is what a test makes of the pairs so far.
type Decision struct {
	Verdict Verdict
	LLR     float64 // the main test's
	// Early says that an early test took the verdict: the gap is wider
	// than Early, either way.
	Early bool
}

// Judge is t's decision on the pairs p: the main test's, or an early
// test's when one decides first (see Test).
func (t Test) Judge(p Penta) Decision {
	d := Decision{LLR: p.LLR(t)}
	d.Verdict = t.Decide(d.LLR)
	if d.Verdict != Continue || !t.early() {
		return d
	}
	lo, hi := t.EarlyBound()
	s0, s1 := ScoreOf(t.Elo0), ScoreOf(t.Elo1)
	switch {
	case llr(p[:], pentaScores, s0, ScoreOf(t.Elo0+t.Early)) >= hi:
		d.Verdict, d.Early = H1, true
	case llr(p[:], pentaScores, ScoreOf(t.Elo1-t.Early), s1) <= lo:
		d.Verdict, d.Early = H0, true
	}
	return d
}

// Penta counts pairs of games by B's total score in the pair: [0] both
// lost, [1] a loss and a draw, [2] two draws or a win and a loss, [3] a
// win and a draw, [4] both won.
type Penta [5]int

// pentaScores are the outcomes' scores per game.
var pentaScores = []float64{0, 0.25, 0.5, 0.75, 1}

// Add counts a pair whose two games B scored a and b in (each 0, 0.5 or 1).
func (p *Penta) Add(a, b float64) {
	i := int(math.Round(2 * (a + b)))
	p[min(max(i, 0), 4)]++
}

// Pairs is the number of pairs counted.
func (p Penta) Pairs() int { return p[0] + p[1] + p[2] + p[3] + p[4] }

// LLR is the pentanomial GSPRT log-likelihood ratio of t's H1 against its
// H0 for these pairs.
func (p Penta) LLR(t Test) float64 {
	return llr(p[:], pentaScores, ScoreOf(t.Elo0), ScoreOf(t.Elo1))
}

// Trinomial counts single games by B's result.
type Trinomial struct{ W, D, L int }

// LLR is the trinomial GSPRT log-likelihood ratio of t's H1 against its
// H0 for these games, treating them as independent.
func (g Trinomial) LLR(t Test) float64 {
	return llr([]int{g.L, g.D, g.W}, []float64{0, 0.5, 1}, ScoreOf(t.Elo0), ScoreOf(t.Elo1))
}

// ScoreOf is the expected score per game of a side elo Elo stronger.
func ScoreOf(elo float64) float64 { return 1 / (1 + math.Pow(10, -elo/400)) }

// EloOf is the Elo difference a score per game means: ±Inf at 1 and 0.
func EloOf(score float64) float64 {
	switch {
	case score >= 1:
		return math.Inf(1)
	case score <= 0:
		return math.Inf(-1)
	}
	return -400*math.Log10(1/score-1) + 0 // + 0: no -0
}

// regularized is what a zero count becomes, so that an outcome not seen
// yet is not taken as impossible (as fishtest and OpenBench do).
const regularized = 1e-3

// llr is the generalized log-likelihood ratio of the mean score being s1
// against its being s0, for counts of outcomes with the given scores: the
// log of the likelihoods of the maximum-likelihood distributions with
// those means. The distribution of mean s nearest the observed one q is
// p_i = q_i / (1 + θ(a_i - s)), θ the root of Σ q_i (a_i - s)/(1 + θ(a_i - s)).
func llr(counts []int, scores []float64, s0, s1 float64) float64 {
	total := 0
	for _, c := range counts {
		total += c
	}
	if total == 0 {
		return 0
	}
	n := make([]float64, len(counts))
	sum := 0.0
	for i, c := range counts {
		n[i] = float64(c)
		if c == 0 {
			n[i] = regularized
		}
		sum += n[i]
	}
	q := make([]float64, len(n))
	for i := range n {
		q[i] = n[i] / sum
	}
	t0, t1 := theta(q, scores, s0), theta(q, scores, s1)
	out := 0.0
	for i := range n {
		out += n[i] * (math.Log1p(t0*(scores[i]-s0)) - math.Log1p(t1*(scores[i]-s1)))
	}
	return out
}

// theta solves Σ q_i (a_i - s)/(1 + θ(a_i - s)) = 0 for θ by bisection:
// the sum falls from +∞ to -∞ across the interval where every 1 + θ(a_i - s)
// is positive (all q_i > 0, and s strictly inside the scores' range).
func theta(q, a []float64, s float64) float64 {
	lo, hi := math.Inf(-1), math.Inf(1)
	for _, x := range a {
		d := x - s
		switch {
		case d > 0:
			lo = max(lo, -1/d)
		case d < 0:
			hi = min(hi, -1/d)
		}
	}
	f := func(th float64) float64 {
		v := 0.0
		for i := range q {
			d := a[i] - s
			v += q[i] * d / (1 + th*d)
		}
		return v
	}
	for range 200 {
		mid := lo + (hi-lo)/2
		if mid == lo || mid == hi {
			break
		}
		if f(mid) > 0 {
			lo = mid
		} else {
			hi = mid
		}
	}
	return lo + (hi-lo)/2
}

// ApproxLLR is the normal approximation of the pentanomial LLR that
// fastchess computes: (s1 - s0)(2ŝ - s0 - s1) / (2σ²/N), with ŝ the mean
// score per game and σ² the variance of a pair's mean score. It is 0
// while the variance is 0. Close to LLR once the counts are large.
func (p Penta) ApproxLLR(t Test) float64 {
	n := float64(p.Pairs())
	if n == 0 {
		return 0
	}
	mean, variance := p.moments()
	if variance == 0 {
		return 0
	}
	s0, s1 := ScoreOf(t.Elo0), ScoreOf(t.Elo1)
	return (s1 - s0) * (2*mean - s0 - s1) / (2 * variance / n)
}

// moments are the mean and variance of a pair's mean score.
func (p Penta) moments() (mean, variance float64) {
	n := float64(p.Pairs())
	for i, c := range p {
		mean += float64(c) / n * pentaScores[i]
	}
	for i, c := range p {
		d := pentaScores[i] - mean
		variance += float64(c) / n * d * d
	}
	return mean, variance
}

// priorPairs is the pseudo-count of pairs added to each of the five
// outcomes when the interval's variance is estimated (intervalVariance).
const priorPairs = 0.5

// intervalVariance is the variance of a pair's mean score about mean, as
// the interval uses it: estimated with priorPairs more pairs of each
// outcome, a Jeffreys-style prior. The plain estimate is 0 when every
// pair had one outcome (408 games of two identical bots, all drawn) and
// the interval would have no width, as if 204 pairs proved the bots
// exactly equal; with the prior, 204 drawn pairs give ±3.7 Elo, and the
// prior's weight fades as pairs are added.
func (p Penta) intervalVariance(mean float64) float64 {
	n := float64(p.Pairs()) + priorPairs*float64(len(p))
	v := 0.0
	for i, c := range p {
		d := pentaScores[i] - mean
		v += (float64(c) + priorPairs) / n * d * d
	}
	return v
}

// Estimate is B's Elo over A with a 95% confidence interval, from the
// pairs' scores: Elo ± Error, Error half the interval's width (infinite
// when the score is 0 or 1, where the interval is open).
type Estimate struct {
	Score float64 // B's mean score per game
	Elo   float64
	Error float64
	Lo    float64 // the interval, in Elo
	Hi    float64
}

// z95 is the two-sided 95% quantile of the normal distribution.
const z95 = 1.959963984540054

// Elo estimates B's Elo over A from the pairs.
func (p Penta) Elo() Estimate {
	n := float64(p.Pairs())
	if n == 0 {
		return Estimate{Score: 0.5, Error: math.Inf(1), Lo: math.Inf(-1), Hi: math.Inf(1)}
	}
	mean, _ := p.moments()
	half := z95 * math.Sqrt(p.intervalVariance(mean)/n)
	e := Estimate{Score: mean, Elo: EloOf(mean), Lo: EloOf(mean - half), Hi: EloOf(mean + half)}
	e.Error = (e.Hi - e.Lo) / 2
	if math.IsInf(e.Elo, 0) {
		e.Error = math.Inf(1)
	}
	return e
}

// String is "+12.3 ± 4.5", or the interval when it is open at one end:
// "+596.5 (95%: +310 .. +inf)".
func (e Estimate) String() string {
	switch {
	case math.IsInf(e.Elo, 0):
		return fmt.Sprintf("%+.0f", e.Elo)
	case math.IsInf(e.Error, 0):
		return fmt.Sprintf("%+.1f (95%%: %+.0f .. %+.0f)", e.Elo, e.Lo, e.Hi)
	}
	return fmt.Sprintf("%+.1f ± %.1f", e.Elo, e.Error)
}
