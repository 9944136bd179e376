package splix

import "fmt"

// step plays one turn: every living player moves one cell in its
// direction of dirs, all at once.
//
// Deaths are decided first, all from the board as it was before the move;
// then the dead leave the board, the living move, trails that came home
// become land, and enclosed areas are filled. A player whose move ends on
// its own land is safe: nothing kills it this turn.
func (s *State) step(dirs []Dir) {
	if s.lag {
		s.stepLag(dirs)
		return
	}
	k := len(s.p)
	var (
		to      [MaxPlayers]int  // cell moved to, -1 off the board
		safe    [MaxPlayers]bool // moved onto its own land
		dead    [MaxPlayers]bool
		why     [MaxPlayers]string
		killers [MaxPlayers]uint8 // bit j: seat j's move killed this one
	)
	die := func(i int, reason string, by int) {
		if !dead[i] {
			dead[i], why[i] = true, reason
		}
		if by >= 0 && by != i {
			killers[i] |= 1 << by
		}
	}
	for i := 0; i < k; i++ {
		p := &s.p[i]
		if !p.alive {
			continue
		}
		d := dirs[i] % 4
		x, y := p.x+dx[d], p.y+dy[d]
		if x < 0 || y < 0 || x >= s.n || y >= s.n {
			to[i] = -1
			die(i, "moved off the board", -1)
			continue
		}
		to[i] = y*s.n + x
		safe[i] = s.owner[to[i]] == uint8(i+1)
	}
	// Trails: onto one's own is death, onto another's kills its player.
	for i := 0; i < k; i++ {
		if !s.p[i].alive || to[i] < 0 {
			continue
		}
		switch t := int(s.trail[to[i]]) - 1; {
		case t == i:
			die(i, "crossed its own trail", -1)
		case t >= 0 && !safe[t]:
			die(t, fmt.Sprintf("its trail was cut by seat %d", i), i)
		}
	}
	// Head-on: two players onto the same cell, or swapping cells.
	for i := 0; i < k; i++ {
		if !s.p[i].alive || to[i] < 0 {
			continue
		}
		for j := i + 1; j < k; j++ {
			if !s.p[j].alive || to[j] < 0 {
				continue
			}
			pi, pj := s.p[i].y*s.n+s.p[i].x, s.p[j].y*s.n+s.p[j].x
			if to[i] != to[j] && (to[i] != pj || to[j] != pi) {
				continue
			}
			if !safe[i] {
				die(i, fmt.Sprintf("head-on with seat %d", j), j)
			}
			if !safe[j] {
				die(j, fmt.Sprintf("head-on with seat %d", i), i)
			}
		}
	}

	deaths := false
	for i := 0; i < k; i++ {
		if !dead[i] {
			continue
		}
		deaths = true
		for j := 0; j < k; j++ {
			if killers[i]&(1<<j) != 0 {
				s.p[j].kills++
			}
		}
		s.kill(i, why[i])
	}
	// Trails that came home become land.
	var home [MaxPlayers]bool
	for i := 0; i < k; i++ {
		p := &s.p[i]
		if p.alive && safe[i] && len(p.trail) > 0 {
			home[i] = true
			for _, c := range p.trail {
				s.trail[c] = 0
				s.setOwner(int(c), uint8(i+1))
			}
			p.trail = p.trail[:0]
		}
	}
	// Move; a head off its own land draws trail.
	for i := 0; i < k; i++ {
		p := &s.p[i]
		if !p.alive {
			continue
		}
		c := to[i]
		p.x, p.y, p.head = c%s.n, c/s.n, dirs[i]%4
		if s.owner[c] != uint8(i+1) {
			s.trail[c] = uint8(i + 1)
			p.trail = append(p.trail, int32(c))
		}
	}
	// Fill: after a death the whole board is looked at again, for every
	// player; otherwise for those who came home.
	for i := 0; i < k; i++ {
		if s.p[i].alive && (deaths || home[i]) {
			s.fill(i)
		}
	}
	s.turn++
	s.settle()
}

// kill takes seat off the board: its land and trail become empty.
func (s *State) kill(seat int, reason string) {
	p := &s.p[seat]
	own := uint8(seat + 1)
	if p.land > 0 {
		for y := p.box.y0; y <= p.box.y1; y++ {
			row := s.owner[y*s.n : y*s.n+s.n]
			for x := p.box.x0; x <= p.box.x1; x++ {
				if row[x] == own {
					row[x] = 0
				}
			}
		}
	}
	for _, c := range p.trail {
		s.trail[c] = 0
	}
	p.trail, p.land, p.box = nil, 0, noBox
	p.alive, p.death, p.died = false, reason, s.turn
}

// setOwner gives cell c to seat o-1 (o = 0: to no one), keeping the land
// counts and boxes.
func (s *State) setOwner(c int, o uint8) {
	old := s.owner[c]
	if old == o {
		return
	}
	if old != 0 {
		s.p[old-1].land--
	}
	if o != 0 {
		p := &s.p[o-1]
		p.land++
		p.box.add(c%s.n, c/s.n)
	}
	s.owner[c] = o
}

// fill gives seat every area its land encloses (cells not its own that
// cannot reach the edge of the board without crossing its land), except
// areas holding a living player's head: another player's, or seat's own
// when it is out on its trail.
func (s *State) fill(seat int) {
	if s.slow {
		s.fillSlow(seat)
		return
	}
	s.fillFast(seat)
}
