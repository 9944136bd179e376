package splix

import "fmt"

// The rules of the Splix contest's controller, played when lag is set.
// They differ from step's in what the controller does, step by step
// (SplixBoard.getDeathsFromMoves, applyMoves, checkPlayerTrailsConnected
// and fillPlayerCapturedArea, called in that order by SplixGame.step):
//
//   - A cell becomes trail when the player moves off it, if it is not the
//     player's land then: the cell under the head is never trail.
//   - Moving onto the cell another player is leaving kills that player
//     unless its move ends on its own land, even when the cell left is its
//     land. Swapping cells is that, both ways.
//   - One killer is credited per death: the last one found, seats looked
//     at in order (the controller's order is its hash map's).
//   - A player on its land turns the trail joined to its head into land,
//     every turn, and looks for areas to fill next to what changed; after
//     a death every living player looks next to the dead player's land
//     and head. An area is filled when it cannot reach the edge, holds no
//     other living player's head, and no other player's trail lies on the
//     land around it.

// stepLag plays one turn by the controller's rules.
func (s *State) stepLag(dirs []Dir) {
	k, n := len(s.p), s.n
	var (
		from, to [MaxPlayers]int
		moving   [MaxPlayers]bool // alive and staying on the board
		canDie   [MaxPlayers]bool // moving, and not onto its own land
		dead     [MaxPlayers]bool
		why      [MaxPlayers]string
		by       [MaxPlayers]int // the credited killer, -1 for none
	)
	put := func(i int, reason string, killer int) {
		dead[i], why[i], by[i] = true, reason, killer
	}
	for i := 0; i < k; i++ {
		p := &s.p[i]
		if !p.alive {
			continue
		}
		d := dirs[i] % 4
		x, y := p.x+dx[d], p.y+dy[d]
		from[i] = p.y*n + p.x
		if x < 0 || y < 0 || x >= n || y >= n {
			put(i, "moved off the board", -1)
			continue
		}
		to[i], moving[i] = y*n+x, true
		canDie[i] = s.owner[to[i]] != uint8(i+1)
	}
	for i := 0; i < k; i++ {
		if !moving[i] {
			continue
		}
		if t := int(s.trail[to[i]]) - 1; t >= 0 && canDie[t] {
			if t == i {
				put(i, "crossed its own trail", -1)
			} else {
				put(t, fmt.Sprintf("its trail was cut by seat %d", i), i)
			}
		}
		for j := i + 1; j < k; j++ {
			if !moving[j] || manhattan(from[i], from[j], n) >= 3 {
				continue
			}
			if to[i] == to[j] {
				if canDie[i] {
					put(i, fmt.Sprintf("head-on with seat %d", j), j)
				}
				if canDie[j] {
					put(j, fmt.Sprintf("head-on with seat %d", i), i)
				}
			}
			swap := to[i] == from[j] && to[j] == from[i]
			if to[j] == from[i] && canDie[i] {
				put(i, leftCell(j, swap), j)
			}
			if to[i] == from[j] && canDie[j] {
				put(j, leftCell(i, swap), i)
			}
		}
	}

	var areas [MaxPlayers][]int32
	for i := 0; i < k; i++ {
		if !dead[i] {
			continue
		}
		if by[i] >= 0 {
			s.p[by[i]].kills++
		}
		areas[i] = s.killArea(i, why[i])
	}
	// Move: the cell left becomes trail unless it is the player's land.
	for i := 0; i < k; i++ {
		p := &s.p[i]
		if !p.alive {
			continue
		}
		if s.owner[from[i]] != uint8(i+1) {
			s.claim(from[i], i)
		}
		p.x, p.y, p.head = to[i]%n, to[i]/n, dirs[i]%4
	}
	// Home: the trail joined to the head becomes land, then fill.
	for i := 0; i < k; i++ {
		if p := &s.p[i]; p.alive && s.owner[to[i]] == uint8(i+1) {
			s.fillNear(i, s.bringHome(i, to[i]))
		}
	}
	for d := 0; d < k; d++ {
		if !dead[d] {
			continue
		}
		for i := 0; i < k; i++ {
			if s.p[i].alive {
				s.fillNear(i, areas[d])
			}
		}
	}
	s.turn++
	s.settle()
}

func leftCell(killer int, swap bool) string {
	if swap {
		return fmt.Sprintf("head-on with seat %d", killer)
	}
	return fmt.Sprintf("seat %d moved onto the cell it was leaving", killer)
}

func manhattan(a, b, n int) int { return abs(a%n-b%n) + abs(a/n-b/n) }

// claim makes cell c seat's trail, taking it off any other player's.
func (s *State) claim(c, seat int) {
	t := s.trail[c]
	if t == uint8(seat+1) {
		return
	}
	if t != 0 {
		s.dropTrail(c, int(t)-1)
	}
	s.trail[c] = uint8(seat + 1)
	s.p[seat].trail = append(s.p[seat].trail, int32(c))
}

// dropTrail takes cell c off seat's trail.
func (s *State) dropTrail(c, seat int) {
	s.trail[c] = 0
	tr := s.p[seat].trail
	for k, v := range tr {
		if int(v) == c {
			s.p[seat].trail = append(tr[:k], tr[k+1:]...)
			break
		}
	}
}

// bringHome turns the trail of seat joined to its head, at c on its land,
// into land, and returns the cells changed: c and that trail. Whatever
// trail is under the head goes, as in the controller.
func (s *State) bringHome(seat, c int) []int32 {
	own := uint8(seat + 1)
	n := s.n
	if t := s.trail[c]; t != 0 {
		s.dropTrail(c, int(t)-1)
	}
	changed := []int32{int32(c)}
	for k := 0; k < len(changed); k++ {
		c := int(changed[k])
		x, y := c%n, c/n
		for d := range 4 {
			nx, ny := x+dx[d], y+dy[d]
			if nx < 0 || ny < 0 || nx >= n || ny >= n || s.trail[ny*n+nx] != own {
				continue
			}
			s.dropTrail(ny*n+nx, seat)
			s.setOwner(ny*n+nx, own)
			changed = append(changed, int32(ny*n+nx))
		}
	}
	return changed
}

// killArea kills seat and returns what it leaves: its land and its head.
func (s *State) killArea(seat int, reason string) []int32 {
	p := &s.p[seat]
	own := uint8(seat + 1)
	var area []int32
	if p.land > 0 {
		for y := p.box.y0; y <= p.box.y1; y++ {
			for x := p.box.x0; x <= p.box.x1; x++ {
				if s.owner[y*s.n+x] == own {
					area = append(area, int32(y*s.n+x))
				}
			}
		}
	}
	area = append(area, int32(p.y*s.n+p.x))
	s.kill(seat, reason)
	return area
}

// fillNear gives seat the areas next to the cells changed that its land
// encloses: groups of cells not its own, joined side by side, that cannot
// reach the edge of the board, hold no other living player's head, and
// touch no land of seat's with another player's trail on it. The areas
// looked at are those of the cells changed, of their neighbours, and of
// the neighbours of those that are seat's land (the controller's flood
// starts at each neighbour of the cells changed, its own land included).
func (s *State) fillNear(seat int, changed []int32) {
	if s.slow {
		s.fillNearSlow(seat, changed)
		return
	}
	p := &s.p[seat]
	if !p.alive || p.land == 0 {
		return
	}
	own := uint8(seat + 1)
	n := s.n
	sc := s.scratch()
	if sc.stamp == nil {
		sc.stamp = make([]uint32, n*n)
		sc.comp = make([]int32, n*n)
	}
	sc.gen++
	if sc.gen == 0 {
		clear(sc.stamp)
		sc.gen = 1
	}
	gen, b := sc.gen, p.box
	var heads [MaxPlayers]int
	nh := 0
	for j := range s.p {
		if q := &s.p[j]; q.alive && j != seat {
			heads[nh], nh = q.y*n+q.x, nh+1
		}
	}
	comp := int32(0)
	eval := func(start int) {
		if s.owner[start] == own || sc.stamp[start] == gen {
			return
		}
		comp++
		sc.stamp[start], sc.comp[start] = gen, comp
		stack, cells := append(sc.stack[:0], int32(start)), sc.cells[:0]
		fill := true
	flood:
		for len(stack) > 0 {
			c := int(stack[len(stack)-1])
			stack = stack[:len(stack)-1]
			cells = append(cells, int32(c))
			x, y := c%n, c/n
			if x == 0 || y == 0 || x == n-1 || y == n-1 || x < b.x0 || x > b.x1 || y < b.y0 || y > b.y1 {
				fill = false // it reaches the edge
				break
			}
			for _, h := range heads[:nh] {
				if h == c {
					fill = false
					break flood
				}
			}
			for d := range 4 {
				nc := (y+dy[d])*n + x + dx[d]
				switch {
				case s.owner[nc] == own:
					if t := s.trail[nc]; t != 0 && t != own {
						fill = false
						break flood
					}
				case sc.stamp[nc] != gen:
					sc.stamp[nc], sc.comp[nc] = gen, comp
					stack = append(stack, int32(nc))
				case sc.comp[nc] != comp:
					fill = false // an area already found not to be filled
					break flood
				}
			}
		}
		if fill {
			for _, c := range cells {
				s.setOwner(int(c), own)
			}
		}
		sc.stack, sc.cells = stack, cells
	}
	near := func(c int, then func(int)) {
		x, y := c%n, c/n
		for d := range 4 {
			if nx, ny := x+dx[d], y+dy[d]; nx >= 0 && ny >= 0 && nx < n && ny < n {
				then(ny*n + nx)
			}
		}
	}
	start := func(c int) {
		if s.owner[c] != own {
			eval(c)
			return
		}
		near(c, eval)
	}
	for _, c := range changed {
		start(int(c))
		near(int(c), start)
	}
}

// fillNearSlow is fillNear done the obvious way, each area followed over
// the whole board: the slow reference that fillNear is tested against.
func (s *State) fillNearSlow(seat int, changed []int32) {
	p := &s.p[seat]
	if !p.alive || p.land == 0 {
		return
	}
	own := uint8(seat + 1)
	n := s.n
	neighbours := func(c int) []int {
		var out []int
		x, y := c%n, c/n
		for d := range 4 {
			if nx, ny := x+dx[d], y+dy[d]; nx >= 0 && ny >= 0 && nx < n && ny < n {
				out = append(out, ny*n+nx)
			}
		}
		return out
	}
	var starts []int
	add := func(c int) {
		if s.owner[c] != own {
			starts = append(starts, c)
			return
		}
		for _, d := range neighbours(c) {
			if s.owner[d] != own {
				starts = append(starts, d)
			}
		}
	}
	for _, c := range changed {
		add(int(c))
		for _, d := range neighbours(int(c)) {
			add(d)
		}
	}
	seen := make([]bool, n*n) // in an area already looked at
	for _, c := range starts {
		if s.owner[c] == own || seen[c] {
			continue
		}
		area := []int{c}
		seen[c] = true
		fill := true
		for i := 0; i < len(area); i++ {
			a := area[i]
			if x, y := a%n, a/n; x == 0 || y == 0 || x == n-1 || y == n-1 {
				fill = false
			}
			for j := range s.p {
				if q := &s.p[j]; q.alive && j != seat && q.y*n+q.x == a {
					fill = false
				}
			}
			for _, d := range neighbours(a) {
				switch {
				case s.owner[d] == own:
					if t := s.trail[d]; t != 0 && t != own {
						fill = false
					}
				case !seen[d]:
					seen[d] = true
					area = append(area, d)
				}
			}
		}
		if fill {
			for _, a := range area {
				s.setOwner(a, own)
			}
		}
	}
}
