package splix

// scratch holds the buffers of fillFast, reused from turn to turn.
type scratch struct {
	mark  []int32 // per cell of the box: 0 unseen, -1 outside, k area k
	stack []int32
	cells []int32
	// fillNear's marks: a cell is seen in this call when stamp is gen,
	// comp tells which of the call's areas it is in.
	stamp []uint32
	comp  []int32
	gen   uint32
}

func (s *State) scratch() *scratch {
	if s.sc == nil {
		s.sc = &scratch{mark: make([]int32, s.n*s.n)}
	}
	return s.sc
}

// fillFast is fill looking only at the box around seat's land, one cell
// wider each way. Cells of the box's rim that are not seat's are outside
// (they are outside the land's box, or on the edge of the board); what is
// not seat's and cannot reach them is enclosed.
func (s *State) fillFast(seat int) {
	p := &s.p[seat]
	if p.land == 0 {
		p.box = noBox
		return
	}
	own := uint8(seat + 1)
	n := s.n
	x0, y0 := max(p.box.x0-1, 0), max(p.box.y0-1, 0)
	x1, y1 := min(p.box.x1+1, n-1), min(p.box.y1+1, n-1)
	w, h := x1-x0+1, y1-y0+1
	sc := s.scratch()
	mark := sc.mark[:w*h]
	clear(mark)
	stack := sc.stack[:0]
	owner := s.owner
	at := func(li int) int { return (y0+li/w)*n + x0 + li%w }

	seed := func(lx, ly int) {
		li := ly*w + lx
		if mark[li] == 0 && owner[(y0+ly)*n+x0+lx] != own {
			mark[li] = -1
			stack = append(stack, int32(li))
		}
	}
	for lx := 0; lx < w; lx++ {
		seed(lx, 0)
		seed(lx, h-1)
	}
	for ly := 1; ly < h-1; ly++ {
		seed(0, ly)
		seed(w-1, ly)
	}
	// flood spreads mark v from the cells on the stack to every cell of
	// the box not seat's, appending what it reaches to cells when asked.
	flood := func(v int32, collect bool) {
		for len(stack) > 0 {
			li := int(stack[len(stack)-1])
			stack = stack[:len(stack)-1]
			if collect {
				sc.cells = append(sc.cells, int32(li))
			}
			lx, ly := li%w, li/w
			g := (y0+ly)*n + x0 + lx
			if lx > 0 && mark[li-1] == 0 && owner[g-1] != own {
				mark[li-1] = v
				stack = append(stack, int32(li-1))
			}
			if lx < w-1 && mark[li+1] == 0 && owner[g+1] != own {
				mark[li+1] = v
				stack = append(stack, int32(li+1))
			}
			if ly > 0 && mark[li-w] == 0 && owner[g-n] != own {
				mark[li-w] = v
				stack = append(stack, int32(li-w))
			}
			if ly < h-1 && mark[li+w] == 0 && owner[g+n] != own {
				mark[li+w] = v
				stack = append(stack, int32(li+w))
			}
		}
	}
	flood(-1, false)

	tight := noBox
	area := int32(0)
	for ly := 0; ly < h; ly++ {
		for lx := 0; lx < w; lx++ {
			li := ly*w + lx
			if owner[(y0+ly)*n+x0+lx] == own {
				tight.add(x0+lx, y0+ly)
				continue
			}
			if mark[li] != 0 {
				continue
			}
			area++
			mark[li] = area
			stack = append(stack, int32(li))
			sc.cells = sc.cells[:0]
			flood(area, true)
			if s.headIn(mark, area, x0, y0, w, h) {
				continue
			}
			for _, c := range sc.cells {
				s.setOwner(at(int(c)), own)
			}
			// The area lies inside the land's box: tight needs no widening.
		}
	}
	sc.stack = stack
	p.box = tight
}

// headIn reports whether a living player's head is in area of the box
// (x0, y0, w, h). Seat's own head counts: it is in an area of cells not
// its own only when seat is out on its trail, and the trail is in that
// area too.
func (s *State) headIn(mark []int32, area int32, x0, y0, w, h int) bool {
	for j := range s.p {
		q := &s.p[j]
		if !q.alive {
			continue
		}
		lx, ly := q.x-x0, q.y-y0
		if lx >= 0 && ly >= 0 && lx < w && ly < h && mark[ly*w+lx] == area {
			return true
		}
	}
	return false
}

// fillSlow is fill done the obvious way over the whole board: the slow
// reference that fillFast is tested against.
func (s *State) fillSlow(seat int) {
	n := s.n
	own := uint8(seat + 1)
	outside := make([]bool, n*n)
	var queue []int
	for c := 0; c < n*n; c++ {
		x, y := c%n, c/n
		if (x == 0 || y == 0 || x == n-1 || y == n-1) && s.owner[c] != own {
			outside[c] = true
			queue = append(queue, c)
		}
	}
	var buf [4]int
	neighbours := func(c int) []int {
		x, y := c%n, c/n
		out := buf[:0]
		if x > 0 {
			out = append(out, c-1)
		}
		if x < n-1 {
			out = append(out, c+1)
		}
		if y > 0 {
			out = append(out, c-n)
		}
		if y < n-1 {
			out = append(out, c+n)
		}
		return out
	}
	for len(queue) > 0 {
		c := queue[0]
		queue = queue[1:]
		for _, d := range neighbours(c) {
			if !outside[d] && s.owner[d] != own {
				outside[d] = true
				queue = append(queue, d)
			}
		}
	}
	seen := make([]bool, n*n)
	for c := 0; c < n*n; c++ {
		if seen[c] || outside[c] || s.owner[c] == own {
			continue
		}
		area := []int{c}
		seen[c] = true
		for i := 0; i < len(area); i++ {
			for _, d := range neighbours(area[i]) {
				if !seen[d] && s.owner[d] != own {
					seen[d] = true
					area = append(area, d)
				}
			}
		}
		blocked := false
		for _, a := range area {
			for j := range s.p {
				if q := &s.p[j]; q.alive && q.y*n+q.x == a {
					blocked = true
				}
			}
		}
		if !blocked {
			for _, a := range area {
				s.setOwner(a, own)
			}
		}
	}
}
