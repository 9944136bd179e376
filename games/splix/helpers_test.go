package splix

import (
	"fmt"
	"math/rand/v2"
	"slices"
)

// check verifies what the state keeps by itself against the board, and
// the rules' invariants.
func (s *State) check() error {
	if err := s.checkLand(); err != nil {
		return err
	}
	n := s.n
	trails := make([][]int32, len(s.p))
	for c, t := range s.trail {
		if t == 0 {
			continue
		}
		// By the controller's rules, a fill after a death may take the area
		// a player is out in, its trail included, until it moves.
		if s.owner[c] == t && !s.lag {
			return fmt.Errorf("seat %d has a trail on its own land at %d %d", t-1, c%n, c/n)
		}
		trails[t-1] = append(trails[t-1], int32(c))
	}
	heads := map[int]int{}
	for i := range s.p {
		p := &s.p[i]
		mine := slices.Clone(p.trail)
		slices.Sort(mine)
		if !slices.Equal(mine, trails[i]) {
			return fmt.Errorf("seat %d keeps trail %v, the board has %v", i, mine, trails[i])
		}
		if !p.alive {
			if p.land > 0 || len(trails[i]) > 0 {
				return fmt.Errorf("dead seat %d still has land or trail", i)
			}
			continue
		}
		c := p.y*n + p.x
		if j, ok := heads[c]; ok {
			return fmt.Errorf("seats %d and %d share a cell", j, i)
		}
		heads[c] = i
		onLand := s.owner[c] == uint8(i+1)
		if s.lag {
			// The cell under the head becomes trail when the head leaves.
			if s.trail[c] == uint8(i+1) {
				return fmt.Errorf("seat %d's head at %d %d is on its own trail", i, p.x, p.y)
			}
			continue
		}
		if !onLand && s.trail[c] != uint8(i+1) {
			return fmt.Errorf("seat %d's head at %d %d is neither on its land nor its trail", i, p.x, p.y)
		}
		if onLand != (len(p.trail) == 0) {
			return fmt.Errorf("seat %d: on its land %v, trail of %d", i, onLand, len(p.trail))
		}
	}
	return nil
}

// checkLand verifies the land counts and boxes.
func (s *State) checkLand() error {
	n := s.n
	land := make([]int, len(s.p))
	for c, o := range s.owner {
		if o == 0 {
			continue
		}
		if int(o) > len(s.p) {
			return fmt.Errorf("cell %d owned by seat %d", c, o-1)
		}
		land[o-1]++
		b := s.p[o-1].box
		if x, y := c%n, c/n; x < b.x0 || x > b.x1 || y < b.y0 || y > b.y1 {
			return fmt.Errorf("seat %d owns %d %d outside its box %+v", o-1, x, y, b)
		}
	}
	for i := range s.p {
		if s.p[i].land != land[i] {
			return fmt.Errorf("seat %d counts %d land, owns %d", i, s.p[i].land, land[i])
		}
	}
	return nil
}

// walker is a policy for tests and benchmarks: rectangular loops out of
// its land and back, a random safe move when the plan is unsafe.
type walker struct {
	rng  *rand.Rand
	plan []Dir
	home [2]int // the last cell of its land it stood on
}

func newWalkers(seed uint64, k int) []*walker {
	ws := make([]*walker, k)
	for i := range ws {
		ws[i] = &walker{rng: rand.New(rand.NewPCG(seed, uint64(i)))}
	}
	return ws
}

// ok reports whether moving d from (x, y) neither leaves the board nor
// crosses seat's own trail.
func (s *State) ok(seat, x, y int, d Dir) bool {
	x, y = x+dx[d], y+dy[d]
	return x >= 0 && y >= 0 && x < s.n && y < s.n && s.trail[y*s.n+x] != uint8(seat+1)
}

func (w *walker) move(s *State, seat int) Dir {
	x, y, h, _ := s.Head(seat)
	onLand := s.Owner(x, y) == seat
	if onLand {
		w.home = [2]int{x, y}
	}
	if onLand && len(w.plan) == 0 {
		d := Dir(w.rng.IntN(4))
		side := d.Right()
		if w.rng.IntN(2) == 0 {
			side = d.Left()
		}
		a, b := 1+w.rng.IntN(8), 1+w.rng.IntN(8)
		for range a {
			w.plan = append(w.plan, d)
		}
		for range b {
			w.plan = append(w.plan, side)
		}
		for range a {
			w.plan = append(w.plan, d.Reverse())
		}
	}
	var want Dir
	switch {
	case len(w.plan) > 0:
		want, w.plan = w.plan[0], w.plan[1:]
	case !onLand:
		// Head home, the greedy way.
		want = h
		best := 1 << 30
		for _, d := range []Dir{North, East, South, West} {
			if !s.ok(seat, x, y, d) {
				continue
			}
			dist := abs(x+dx[d]-w.home[0]) + abs(y+dy[d]-w.home[1])
			if dist < best {
				best, want = dist, d
			}
		}
	default:
		want = Dir(w.rng.IntN(4))
	}
	if w.rng.IntN(30) == 0 || !s.ok(seat, x, y, want) {
		w.plan = w.plan[:0]
		var safe []Dir
		for _, d := range []Dir{North, East, South, West} {
			if s.ok(seat, x, y, d) {
				safe = append(safe, d)
			}
		}
		if len(safe) > 0 {
			want = safe[w.rng.IntN(len(safe))]
		}
	}
	return want
}

// moves gives every living seat's move by its walker.
func (s *State) walk(ws []*walker) []Dir {
	dirs := make([]Dir, len(s.p))
	for i := range s.p {
		if s.p[i].alive {
			dirs[i] = ws[i].move(s, i)
		}
	}
	return dirs
}
