// Package ratings fits ratings on the Elo scale to games between bots:
// Bradley–Terry for two-player games, Plackett–Luce for more, with 95%
// intervals, and a weak prior when the games do not determine every
// rating. It knows no tournament and no arena: both rate with it.
package ratings

import (
	"errors"
	"math"
	"sort"
	"strconv"
	"strings"
)

// Ratings are on the Elo scale: a difference of 400 points means odds of
// 10 to 1, and the average bot is at 1500 (when the prior is used, the
// average weighted by how much the games say of each bot).
const (
	eloBase  = 1500.0
	eloScale = 400 / math.Ln10 // Elo points per unit of natural log-strength
	z95      = 1.959963984540054
	// priorGames is the weight of the prior used when the maximum
	// likelihood estimate does not exist: each bot gets this many
	// virtual draws against a virtual bot fixed at 1500.
	priorGames = 1.0
)

// Rating is one bot's fitted strength.
type Rating struct {
	Elo  float64 // 1500 + 400·log10(strength)
	Low  float64 // 95% confidence interval
	High float64
	SE   float64 // standard error, Elo points
}

// Fit is the result of a rating fit.
type Fit struct {
	Ratings []Rating
	Prior   bool // the data did not determine every rating: the prior was used
	// When it was, the bots that won every game (ranked above every
	// other in each), lost every game, and played none: empty when
	// none did, and a group of bots won every game against the others
	// or never met them.
	Unbeaten, Winless, Unplayed []int
	Iter                        int // Newton steps taken
}

// Game is one match as the rating fit sees it: who played and the score
// each got; higher scores rank higher, equal scores tie.
type Game struct {
	Players []int
	Scores  []float64
}

// stage is one Plackett–Luce choice: winner picked first out of set, with
// a weight (ties are spread over every order of the tied players).
type stage struct {
	set    []int
	winner int
	w      float64
}

// stages breaks games into weighted Plackett–Luce choices, merging equal
// ones. A game ranks its players by score; players with equal scores are
// taken in every order with equal weight, so in a two-player game a draw
// counts as half a win for each side.
func stages(gs []Game) []stage {
	idx := map[string]int{}
	var out []stage
	addStage := func(set []int, winner int, w float64) {
		if len(set) < 2 || w == 0 {
			return
		}
		s := append([]int(nil), set...)
		sort.Ints(s)
		var kb strings.Builder
		for _, x := range s {
			kb.WriteString(strconv.Itoa(x))
			kb.WriteByte(',')
		}
		kb.WriteByte('>')
		kb.WriteString(strconv.Itoa(winner))
		k := kb.String()
		if i, ok := idx[k]; ok {
			out[i].w += w
			return
		}
		idx[k] = len(out)
		out = append(out, stage{set: s, winner: winner, w: w})
	}
	for _, g := range gs {
		// Tiers of equal score, best first.
		ord := make([]int, len(g.Players))
		for i := range ord {
			ord[i] = i
		}
		sort.SliceStable(ord, func(a, b int) bool { return g.Scores[ord[a]] > g.Scores[ord[b]] })
		var tiers [][]int
		for i, o := range ord {
			if i == 0 || g.Scores[o] != g.Scores[ord[i-1]] {
				tiers = append(tiers, nil)
			}
			tiers[len(tiers)-1] = append(tiers[len(tiers)-1], g.Players[o])
		}
		for t, tier := range tiers {
			var rest []int // the players of the lower tiers
			for _, lower := range tiers[t+1:] {
				rest = append(rest, lower...)
			}
			m := len(tier)
			// In a uniformly random order of the tier, the chance that
			// exactly the subset U comes first and then w is
			// |U|!·(m-|U|-1)!/m!.
			for mask := 0; mask < 1<<m; mask++ {
				u := popcount(mask)
				if u == m {
					continue
				}
				p := fact(u) * fact(m-u-1) / fact(m)
				var set []int
				for i, x := range tier {
					if mask&(1<<i) == 0 {
						set = append(set, x)
					}
				}
				set = append(set, rest...)
				for i, x := range tier {
					if mask&(1<<i) == 0 {
						addStage(set, x, p)
					}
				}
			}
		}
	}
	return out
}

func popcount(x int) int {
	n := 0
	for ; x != 0; x &= x - 1 {
		n++
	}
	return n
}

func fact(n int) float64 {
	f := 1.0
	for i := 2; i <= n; i++ {
		f *= float64(i)
	}
	return f
}

// FitRatings fits a Plackett–Luce model (Bradley–Terry when every game
// has two players) to the games of n bots by maximum likelihood, with
// Newton's method, and gives each bot's rating with a 95% confidence
// interval from the inverse of the observed information (ratings
// constrained to average 1500).
//
// The maximum likelihood estimate exists only when every bot has both
// beaten (or tied) and been beaten by (or tied) the others in a chain
// that links them all (the comparison graph is strongly connected).
// When it does not — a bot that won or lost everything, a bot with no
// games — each bot gets priorGames virtual draws against a virtual bot
// fixed at 1500, which keeps every rating finite; Fit.Prior says so. The
// ratings are then placed so that their average, weighted by how much
// the games say of each, is 1500, and their intervals are those of each
// rating less that average: the games tell the bots apart, only the
// prior sets their level, which would otherwise add the same few
// hundred points to every interval however many games were played.
func FitRatings(n int, gs []Game) Fit {
	if n == 0 {
		return Fit{}
	}
	st := stages(gs)
	prior := !stronglyConnected(n, st)
	theta := make([]float64, n)
	ll := func(th []float64) float64 {
		v, _, _ := derivs(n, st, th, prior, valueOnly)
		return v
	}
	fit := Fit{Prior: prior}
	if prior {
		fit.Unbeaten, fit.Winless, fit.Unplayed = extremes(n, st)
	}
	cur := ll(theta)
	for fit.Iter = 0; fit.Iter < 200; fit.Iter++ {
		_, g, h := derivs(n, st, theta, prior, secondOrder)
		info := negate(h)
		if !prior {
			addConst(info, 1/float64(n)) // the sum-zero constraint
		}
		step, err := solve(info, g)
		if err != nil {
			break
		}
		maxStep := 0.0
		for _, s := range step {
			maxStep = math.Max(maxStep, math.Abs(s))
		}
		// Newton with step halving: the log-likelihood is concave, so a
		// short enough step along the Newton direction always improves it.
		t := 1.0
		next := make([]float64, n)
		var nv float64
		for k := 0; k < 50; k++ {
			for i := range next {
				next[i] = theta[i] + t*step[i]
			}
			if !prior {
				center(next)
			}
			nv = ll(next)
			if nv >= cur-1e-12 {
				break
			}
			t /= 2
		}
		theta, cur = next, nv
		if maxStep*t < 1e-10 {
			break
		}
	}
	_, _, h := derivs(n, st, theta, prior, secondOrder)
	info := negate(h)
	var cov [][]float64
	if prior {
		// The games tell the ratings apart, only the prior's few
		// virtual draws set their level. The ratings are each taken
		// less their average weighted by how much the games say of each
		// (the information's diagonal): a bot that won or lost
		// everything, whose rating only the prior bounds, weighs
		// little. Their covariance is A·Σ·Aᵀ, A = I - 1·wᵀ: what the
		// games say, narrowing as they accrue.
		w := make([]float64, n)
		sum := 0.0
		for i := range w {
			w[i] = info[i][i]
			sum += w[i]
		}
		for i := range w {
			w[i] /= sum
		}
		cov, _ = inverse(info)
		if cov != nil {
			cov = relative(cov, w)
		}
		level := 0.0
		for i, x := range theta {
			level += w[i] * x
		}
		for i := range theta {
			theta[i] -= level
		}
	} else {
		// Moore–Penrose inverse of the information, whose null space is
		// the all-ones vector: (I + J/n)^-1 - J/n.
		addConst(info, 1/float64(n))
		cov, _ = inverse(info)
		if cov != nil {
			addConst(cov, -1/float64(n))
		}
	}
	fit.Ratings = make([]Rating, n)
	for i := range theta {
		r := Rating{Elo: eloBase + eloScale*theta[i]}
		if cov != nil && cov[i][i] > 0 {
			r.SE = eloScale * math.Sqrt(cov[i][i])
		}
		r.Low, r.High = r.Elo-z95*r.SE, r.Elo+z95*r.SE
		fit.Ratings[i] = r
	}
	return fit
}

// order is how far derivs goes: the log-likelihood alone, or with its
// gradient and Hessian.
type order int

const (
	valueOnly order = iota
	secondOrder
)

// derivs computes the log-likelihood of th and, to secondOrder, its
// gradient and Hessian. With prior, each bot also has priorGames virtual
// draws against a virtual bot of strength 0.
func derivs(n int, st []stage, th []float64, prior bool, o order) (float64, []float64, [][]float64) {
	full := o == secondOrder
	var (
		v float64
		g []float64
		h [][]float64
	)
	if full {
		g = make([]float64, n)
		h = make([][]float64, n)
		for i := range h {
			h[i] = make([]float64, n)
		}
	}
	p := make([]float64, 0, 8)
	for _, s := range st {
		// log-sum-exp over the set, stably.
		m := math.Inf(-1)
		for _, x := range s.set {
			m = math.Max(m, th[x])
		}
		sum := 0.0
		for _, x := range s.set {
			sum += math.Exp(th[x] - m)
		}
		lse := m + math.Log(sum)
		v += s.w * (th[s.winner] - lse)
		if !full {
			continue
		}
		p = p[:0]
		for _, x := range s.set {
			p = append(p, math.Exp(th[x]-lse))
		}
		g[s.winner] += s.w
		for a, x := range s.set {
			g[x] -= s.w * p[a]
			h[x][x] -= s.w * p[a]
			for b, y := range s.set {
				h[x][y] += s.w * p[a] * p[b]
			}
		}
	}
	if prior {
		for i := 0; i < n; i++ {
			// priorGames draws against strength 0: half a win each way.
			q := 1 / (1 + math.Exp(-th[i])) // chance i beats the virtual bot
			v += priorGames * (0.5*math.Log(q) + 0.5*math.Log(1-q))
			if full {
				g[i] += priorGames * (0.5 - q)
				h[i][i] -= priorGames * q * (1 - q)
			}
		}
	}
	return v, g, h
}

// extremes are the bots never ranked below another, never ranked above
// another, and in no game, by the stages.
func extremes(n int, st []stage) (unbeaten, winless, unplayed []int) {
	above, below := make([]bool, n), make([]bool, n)
	for _, s := range st {
		for _, x := range s.set {
			if x != s.winner {
				above[s.winner], below[x] = true, true
			}
		}
	}
	for i := range n {
		switch {
		case !above[i] && !below[i]:
			unplayed = append(unplayed, i)
		case !below[i]:
			unbeaten = append(unbeaten, i)
		case !above[i]:
			winless = append(winless, i)
		}
	}
	return unbeaten, winless, unplayed
}

// stronglyConnected reports whether every bot can be reached from every
// other by following "ranked at least as high as" edges of the stages.
func stronglyConnected(n int, st []stage) bool {
	fwd := make([][]int, n)
	back := make([][]int, n)
	for _, s := range st {
		for _, x := range s.set {
			if x != s.winner {
				fwd[s.winner] = append(fwd[s.winner], x)
				back[x] = append(back[x], s.winner)
			}
		}
	}
	reach := func(adj [][]int) bool {
		seen := make([]bool, n)
		stack := []int{0}
		seen[0] = true
		count := 1
		for len(stack) > 0 {
			x := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			for _, y := range adj[x] {
				if !seen[y] {
					seen[y] = true
					count++
					stack = append(stack, y)
				}
			}
		}
		return count == n
	}
	return reach(fwd) && reach(back)
}

// relative is A·a·Aᵀ, A = I - 1·wᵀ: the covariance of x - wᵀx·1 when a
// is that of x.
func relative(a [][]float64, w []float64) [][]float64 {
	n := len(a)
	aw := make([]float64, n) // a·w
	waw := 0.0               // wᵀ·a·w
	for i := range a {
		for j := range a[i] {
			aw[i] += a[i][j] * w[j]
		}
		waw += w[i] * aw[i]
	}
	out := make([][]float64, n)
	for i := range a {
		out[i] = make([]float64, n)
		for j := range a[i] {
			out[i][j] = a[i][j] - aw[i] - aw[j] + waw
		}
	}
	return out
}

func negate(a [][]float64) [][]float64 {
	out := make([][]float64, len(a))
	for i := range a {
		out[i] = make([]float64, len(a[i]))
		for j := range a[i] {
			out[i][j] = -a[i][j]
		}
	}
	return out
}

func addConst(a [][]float64, c float64) {
	for i := range a {
		for j := range a[i] {
			a[i][j] += c
		}
	}
}

func center(x []float64) {
	m := 0.0
	for _, v := range x {
		m += v
	}
	m /= float64(len(x))
	for i := range x {
		x[i] -= m
	}
}

var errSingular = errors.New("singular matrix")

// solve solves a·x = b by Gaussian elimination with partial pivoting.
func solve(a [][]float64, b []float64) ([]float64, error) {
	n := len(b)
	m := make([][]float64, n)
	for i := range a {
		m[i] = append(append(make([]float64, 0, n+1), a[i]...), b[i])
	}
	if err := eliminate(m, n); err != nil {
		return nil, err
	}
	x := make([]float64, n)
	for i := range x {
		x[i] = m[i][n]
	}
	return x, nil
}

// inverse inverts a by Gauss–Jordan elimination.
func inverse(a [][]float64) ([][]float64, error) {
	n := len(a)
	m := make([][]float64, n)
	for i := range a {
		m[i] = make([]float64, 2*n)
		copy(m[i], a[i])
		m[i][n+i] = 1
	}
	if err := eliminate(m, n); err != nil {
		return nil, err
	}
	out := make([][]float64, n)
	for i := range out {
		out[i] = m[i][n:]
	}
	return out, nil
}

// eliminate reduces the first n columns of m to the identity.
func eliminate(m [][]float64, n int) error {
	for c := 0; c < n; c++ {
		p := c
		for r := c + 1; r < n; r++ {
			if math.Abs(m[r][c]) > math.Abs(m[p][c]) {
				p = r
			}
		}
		if math.Abs(m[p][c]) < 1e-300 {
			return errSingular
		}
		m[c], m[p] = m[p], m[c]
		piv := m[c][c]
		for j := range m[c] {
			m[c][j] /= piv
		}
		for r := 0; r < n; r++ {
			if r == c || m[r][c] == 0 {
				continue
			}
			f := m[r][c]
			for j := range m[r] {
				m[r][j] -= f * m[c][j]
			}
		}
	}
	return nil
}
