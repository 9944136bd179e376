package tournament

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"regexp"
	"sort"
	"strings"
)

// Format is how a tournament draws its matches.
type Format string

// The formats.
const (
	// RoundRobin plays every pair of bots, in both seat orders, every round.
	RoundRobin Format = "roundrobin"
	// Gauntlet plays one bot (the test bot) against every other, in both
	// seat orders, every round.
	Gauntlet Format = "gauntlet"
	// Swiss pairs bots with equal scores each round, avoiding rematches;
	// each pairing plays both seat orders.
	Swiss Format = "swiss"
	// Groups draws groups of up to k players at random so that every bot
	// plays the same number of games (multiplayer games).
	Groups Format = "groups"
	// SPRT plays pairs of games between two bots until a sequential test
	// decides (see RunSPRT); it is not a tournament format of its own.
	SPRT Format = "sprt"
)

// ParseFormat checks a format name. "rr" and "round-robin" are accepted
// for round robin.
func ParseFormat(s string) (Format, error) {
	switch strings.ToLower(s) {
	case "roundrobin", "round-robin", "rr":
		return RoundRobin, nil
	case "gauntlet":
		return Gauntlet, nil
	case "swiss":
		return Swiss, nil
	case "groups", "multiplayer":
		return Groups, nil
	}
	return "", fmt.Errorf("unknown format %q (want roundrobin, gauntlet, swiss or groups)", s)
}

// Fixture is one scheduled match: who plays, in which seats, in which
// round. Its ID is its identity: unique in the tournament, the key of its
// record in the results log, the base name of its replay, and (with the
// tournament seed) the source of its seed.
type Fixture struct {
	ID    string `json:"id"`
	Round int    `json:"round"`           // from 1
	Group int    `json:"group,omitempty"` // groups format: the group's number in its round, from 1
	Seats []int  `json:"-"`               // entrant index of each seat
	Index int    `json:"-"`               // position in the whole schedule

	// seedLabel, when set, replaces the ID as the source of the seed, so
	// that fixtures can share one (an SPRT pair).
	seedLabel string
}

// Seed is the fixture's match seed: a hash of the tournament seed and the
// fixture's identity, so any match can be played again alone.
func (f Fixture) Seed(tournamentSeed uint64) uint64 {
	if f.seedLabel != "" {
		return DeriveSeed(tournamentSeed, f.seedLabel)
	}
	return DeriveSeed(tournamentSeed, f.ID)
}

// DeriveSeed hashes a seed and a label into a new seed (63 bits, so it
// prints the same as a signed number).
func DeriveSeed(seed uint64, label string) uint64 {
	h := sha256.New()
	var b [8]byte
	binary.LittleEndian.PutUint64(b[:], seed)
	h.Write(b[:])
	h.Write([]byte(label))
	return binary.LittleEndian.Uint64(h.Sum(nil)) >> 1
}

// rng is a generator seeded from the tournament seed and a label.
func rng(seed uint64, label string) *rand.Rand {
	return rand.New(rand.NewPCG(DeriveSeed(seed, label), DeriveSeed(seed, label+"/2")))
}

var unsafeName = regexp.MustCompile(`[^A-Za-z0-9._+-]+`)

// fileSafe makes a bot name fit in a file name.
func fileSafe(name string) string {
	s := unsafeName.ReplaceAllString(name, "_")
	if s == "" || s[0] == '.' {
		s = "_" + s
	}
	return s
}

// fixtureID names a fixture: r003-botA-vs-botB, r002-g004-a-vs-b-vs-c.
func fixtureID(round, group int, names []string, seats []int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "r%03d", round)
	if group > 0 {
		fmt.Fprintf(&b, "-g%03d", group)
	}
	for i, s := range seats {
		if i == 0 {
			b.WriteByte('-')
		} else {
			b.WriteString("-vs-")
		}
		b.WriteString(fileSafe(names[s]))
	}
	return b.String()
}

// Plan is what decides a tournament's schedule.
type Plan struct {
	Format    Format
	Names     []string // the entrants, in order
	Rounds    int
	Seed      uint64
	TestBot   int // entrant index, or -1; gauntlet needs one, other formats keep only its matches
	GroupSize int // groups: players per match
}

// Size is the number of matches in the plan's schedule (Swiss: if every
// round pairs every bot it can); math.MaxInt when it does not fit an int.
func (p Plan) Size() int {
	n, per := len(p.Names), 0
	switch p.Format {
	case RoundRobin, Gauntlet:
		pairs := n * (n - 1) / 2
		if p.TestBot >= 0 {
			pairs = n - 1
		}
		per = 2 * pairs
	case Groups:
		per, _ = GroupsPerRound(n, p.GroupSize, p.TestBot)
	case Swiss:
		per = n / 2 * 2
	}
	if per <= 0 || p.Rounds <= 0 {
		return 0
	}
	if p.Rounds > math.MaxInt/per {
		return math.MaxInt
	}
	return per * p.Rounds
}

// checkSize refuses a plan of more than MaxMatches matches.
func (p Plan) checkSize() error {
	size := p.Size()
	if size <= MaxMatches {
		return nil
	}
	many := fmt.Sprint(size)
	if size == math.MaxInt {
		many = "too many"
	}
	return fmt.Errorf("%d rounds of %d bots make %s matches, more than the %d a tournament may have: ask for fewer rounds (or games)",
		p.Rounds, len(p.Names), many, MaxMatches)
}

// Schedule lists every fixture of a plan that does not depend on results:
// all of them for round robin, gauntlet and groups. Swiss rounds are drawn
// one at a time by SwissRound. A plan of more than MaxMatches matches is
// refused before any is drawn.
func (p Plan) Schedule() ([]Fixture, error) {
	n := len(p.Names)
	if err := p.checkSize(); err != nil {
		return nil, err
	}
	var out []Fixture
	add := func(round, group int, seats ...int) {
		out = append(out, Fixture{
			ID:    fixtureID(round, group, p.Names, seats),
			Round: round, Group: group,
			Seats: append([]int(nil), seats...),
			Index: len(out),
		})
	}
	switch p.Format {
	case RoundRobin, Gauntlet:
		if n < 2 {
			return nil, fmt.Errorf("%s needs at least 2 bots, got %d", p.Format, n)
		}
		if p.Format == Gauntlet && p.TestBot < 0 {
			return nil, fmt.Errorf("gauntlet needs a test bot")
		}
		pairs := pairOrder(n, p.TestBot)
		for r := 1; r <= p.Rounds; r++ {
			// Every pair once in one seat order, then once in the other;
			// which comes first alternates round by round.
			for pass := 0; pass < 2; pass++ {
				for _, pr := range pairs {
					if (r+pass)%2 == 1 {
						add(r, 0, pr[0], pr[1])
					} else {
						add(r, 0, pr[1], pr[0])
					}
				}
			}
		}
	case Groups:
		for r := 1; r <= p.Rounds; r++ {
			groups, err := GroupRound(n, p.GroupSize, p.TestBot, rng(p.Seed, fmt.Sprintf("groups/r%d", r)))
			if err != nil {
				return nil, err
			}
			for g, seats := range groups {
				add(r, g+1, seats...)
			}
		}
	case Swiss:
		return nil, fmt.Errorf("swiss rounds depend on results: draw them with SwissRound")
	default:
		return nil, fmt.Errorf("unknown format %q", p.Format)
	}
	return out, nil
}

// pairOrder lists the pairs a round plays (every pair, or those of the
// test bot when testBot >= 0) in an order that keeps the bots' played
// counts level: the circle method draws n-1 slots (n when n is odd) in
// which every bot plays at most once, and the slots come one after the
// other, the pairs of bots that rested before first in their slot. Each
// pair is given in the seat order of its first match in odd
// rounds; that order alternates from slot to slot.
func pairOrder(n, testBot int) [][2]int {
	var out [][2]int
	if testBot >= 0 {
		for j := 0; j < n; j++ {
			if j == testBot {
				continue
			}
			if len(out)%2 == 0 {
				out = append(out, [2]int{testBot, j})
			} else {
				out = append(out, [2]int{j, testBot})
			}
		}
		return out
	}
	m := n + n%2 // with an odd field, bot m-1 is no one: its partner rests
	ring := make([]int, m)
	for i := range ring {
		ring[i] = i
	}
	played := make([]int, n)
	for slot := 0; slot < m-1; slot++ {
		var pairs [][2]int
		for k := 0; k < m/2; k++ {
			a, b := ring[k], ring[m-1-k]
			if a >= n || b >= n {
				continue
			}
			if a > b {
				a, b = b, a
			}
			if slot%2 == 1 {
				a, b = b, a
			}
			pairs = append(pairs, [2]int{a, b})
		}
		// The bots behind (those that rested) first.
		sort.SliceStable(pairs, func(i, j int) bool {
			return played[pairs[i][0]]+played[pairs[i][1]] < played[pairs[j][0]]+played[pairs[j][1]]
		})
		for _, pr := range pairs {
			played[pr[0]]++
			played[pr[1]]++
		}
		out = append(out, pairs...)
		// Keep ring[0] in place, turn the others one step.
		last := ring[m-1]
		copy(ring[2:], ring[1:m-1])
		ring[1] = last
	}
	return out
}

// GroupsPerRound is how many games one round of the groups format has,
// and how many of them each bot plays (each bot but the test bot, which
// plays them all).
func GroupsPerRound(n, k, testBot int) (games, each int) {
	if testBot >= 0 {
		n, k = n-1, k-1
	}
	if n <= 0 || k <= 0 {
		return 0, 0
	}
	l := lcm(n, k)
	return l / k, l / n
}

// GroupRound draws one round of the groups format: lcm(n,k)/k games of k
// distinct players in which every bot plays lcm(n,k)/n times (with a test
// bot, it is in every game and the others share the other seats equally).
// Seat order within a game is random too.
func GroupRound(n, k, testBot int, r *rand.Rand) ([][]int, error) {
	if k < 2 || k > n {
		return nil, fmt.Errorf("groups of %d players need at least %d bots and k >= 2 (have %d bots)", k, max(k, 2), n)
	}
	var pool []int
	for i := 0; i < n; i++ {
		if i != testBot {
			pool = append(pool, i)
		}
	}
	size := k
	if testBot >= 0 {
		size = k - 1
	}
	games, each := GroupsPerRound(n, k, testBot)
	quota := make(map[int]int, len(pool))
	for _, b := range pool {
		quota[b] = each
	}
	out := make([][]int, 0, games)
	for g := 0; g < games; g++ {
		// The bots with the most games left, ties broken at random: this
		// keeps every quota at most the number of games left, so the
		// round always completes.
		cand := append([]int(nil), pool...)
		r.Shuffle(len(cand), func(i, j int) { cand[i], cand[j] = cand[j], cand[i] })
		sort.SliceStable(cand, func(i, j int) bool { return quota[cand[i]] > quota[cand[j]] })
		grp := append([]int(nil), cand[:size]...)
		for _, b := range grp {
			quota[b]--
		}
		if testBot >= 0 {
			grp = append(grp, testBot)
		}
		r.Shuffle(len(grp), func(i, j int) { grp[i], grp[j] = grp[j], grp[i] })
		out = append(out, grp)
	}
	return out, nil
}

func gcd(a, b int) int {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

func lcm(a, b int) int { return a / gcd(a, b) * b }

// SwissRound draws round `round` of a Swiss tournament from the results
// so far: points[i] is bot i's Swiss score (a pairing's points plus one
// per bye), met holds the pairs that already played, byes counts byes.
// Bots are ranked by points (ties in a random order drawn from the seed),
// an odd bot out gets a bye (the lowest ranked with the fewest byes), and
// the rest are paired top down avoiding rematches when possible. Each
// pairing plays both seat orders: the fixtures come back in that order.
func (p Plan) SwissRound(round int, points []float64, met map[[2]int]bool, byes []int) (fix []Fixture, bye int) {
	n := len(p.Names)
	r := rng(p.Seed, fmt.Sprintf("swiss/r%d", round))
	order := r.Perm(n)
	sort.SliceStable(order, func(i, j int) bool { return points[order[i]] > points[order[j]] })
	bye = -1
	if n%2 == 1 {
		best := -1
		for i := n - 1; i >= 0; i-- {
			if best < 0 || byes[order[i]] < byes[order[best]] {
				best = i
			}
		}
		bye = order[best]
		order = append(order[:best:best], order[best+1:]...)
	}
	pairs, ok := pairSwiss(order, met, 1_000_000)
	if !ok {
		pairs = nil
		for i := 0; i+1 < len(order); i += 2 {
			pairs = append(pairs, [2]int{order[i], order[i+1]})
		}
	}
	for _, pr := range pairs {
		a, b := pr[0], pr[1]
		fix = append(fix,
			Fixture{ID: fixtureID(round, 0, p.Names, []int{a, b}), Round: round, Seats: []int{a, b}},
			Fixture{ID: fixtureID(round, 0, p.Names, []int{b, a}), Round: round, Seats: []int{b, a}})
	}
	return fix, bye
}

// pairSwiss pairs the bots of order top down, each with the highest
// ranked bot it has not met, backtracking when that leaves someone
// without a partner. It gives up after budget steps.
func pairSwiss(order []int, met map[[2]int]bool, budget int) ([][2]int, bool) {
	used := make([]bool, len(order))
	var pairs [][2]int
	var try func() bool
	try = func() bool {
		budget--
		if budget < 0 {
			return false
		}
		first := -1
		for i, u := range used {
			if !u {
				first = i
				break
			}
		}
		if first < 0 {
			return true
		}
		used[first] = true
		for j := first + 1; j < len(order); j++ {
			if used[j] || met[pairKey(order[first], order[j])] {
				continue
			}
			used[j] = true
			pairs = append(pairs, [2]int{order[first], order[j]})
			if try() {
				return true
			}
			pairs = pairs[:len(pairs)-1]
			used[j] = false
		}
		used[first] = false
		return false
	}
	if try() {
		return pairs, true
	}
	return nil, false
}

func pairKey(a, b int) [2]int {
	if a > b {
		a, b = b, a
	}
	return [2]int{a, b}
}
