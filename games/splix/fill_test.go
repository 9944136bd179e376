package splix

import (
	"bytes"
	"fmt"
	"testing"
)

// sameFill fills seat in two copies of s, fast and slow, and reports how
// they differ.
func sameFill(s *State, seat int) error {
	fast, slow := s.Clone(), s.Clone()
	fast.fillFast(seat)
	slow.fillSlow(seat)
	if !bytes.Equal(fast.owner, slow.owner) {
		return fmt.Errorf("seat %d: fast fill gives\n%s\nslow fill gives\n%s\nfrom\n%s", seat, fast.Draw(), slow.Draw(), s.Draw())
	}
	for i := range s.p {
		if fast.p[i].land != slow.p[i].land {
			return fmt.Errorf("seat %d: land %d fast, %d slow", i, fast.p[i].land, slow.p[i].land)
		}
	}
	if err := fast.checkLand(); err != nil {
		return fmt.Errorf("after the fast fill: %v", err)
	}
	return nil
}

// pattern builds an n×n board whose cell c is seat 0's when bit c of bits
// is set, else seat 1's or no one's; seat 1's head is at cell head (none
// when head < 0). Seat 0's head is anywhere: fill does not look at it.
func pattern(n int, bits uint64, head int) *State {
	s := empty(n, 10, 2)
	for c := 0; c < n*n; c++ {
		switch {
		case bits&(1<<c) != 0:
			s.setOwner(c, 1)
		case c%3 == 0:
			s.setOwner(c, 2)
		}
	}
	s.p[0].alive = true
	if head >= 0 {
		s.p[1].alive = true
		s.p[1].x, s.p[1].y = head%n, head/n
	}
	return s
}

func TestFillExhaustive(t *testing.T) {
	// Every 4×4 board with no head inside, and every 3×3 board with the
	// other head anywhere or nowhere.
	for bits := uint64(0); bits < 1<<16; bits++ {
		if err := sameFill(pattern(4, bits, -1), 0); err != nil {
			t.Fatal(err)
		}
	}
	for bits := uint64(0); bits < 1<<9; bits++ {
		for head := -1; head < 9; head++ {
			if err := sameFill(pattern(3, bits, head), 0); err != nil {
				t.Fatal(err)
			}
		}
	}
	// 5×5 boards with the other head in the middle, a sample of patterns.
	for bits := uint64(0); bits < 1<<25; bits += 977 {
		if err := sameFill(pattern(5, bits, 12), 0); err != nil {
			t.Fatal(err)
		}
	}
}

func TestFillWithLooseBox(t *testing.T) {
	// The box kept for a player may be larger than its land (land taken
	// by others); filling must not depend on it.
	for bits := uint64(0); bits < 1<<16; bits += 7 {
		s := pattern(4, bits, 5)
		want := s.Clone()
		want.fillSlow(0)
		s.p[0].box = box{0, 0, 3, 3}
		s.fillFast(0)
		if !bytes.Equal(s.owner, want.owner) {
			t.Fatalf("with the whole board as box:\n%s\nwant\n%s", s.Draw(), want.Draw())
		}
	}
}

// FuzzFill compares the fast and the slow fill on boards read from bytes:
// the first byte gives the size, then one byte per cell (owner: none, seat
// 0, 1 or 2), then the heads of seats 1 and 2.
func FuzzFill(f *testing.F) {
	f.Add([]byte{7, 0, 1, 1, 1, 0, 0, 0, 1, 0, 1, 2, 1})
	f.Add(bytes.Repeat([]byte{9, 1, 0, 1, 2, 1, 1, 0}, 20))
	ring := []byte{12}
	for y := 0; y < 15; y++ {
		for x := 0; x < 15; x++ {
			v := byte(0)
			if x == 3 || y == 3 || x == 11 || y == 11 {
				v = 1
			}
			ring = append(ring, v)
		}
	}
	f.Add(append(ring, 7*15+7, 0))
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) == 0 {
			return
		}
		n := 3 + int(data[0])%18
		data = data[1:]
		at := func(i int) byte {
			if i < len(data) {
				return data[i]
			}
			return 0
		}
		s := empty(n, 10, 3)
		for c := 0; c < n*n; c++ {
			if o := at(c) % 4; o > 0 {
				s.setOwner(c, o)
			}
		}
		s.p[0].alive = true
		for j := 1; j < 3; j++ {
			h := int(at(n*n+j-1))*7919 + j
			if h%5 == 0 {
				continue // no head
			}
			s.p[j].alive = true
			s.p[j].x, s.p[j].y = h%n, (h/n)%n
		}
		for seat := 0; seat < 3; seat++ {
			if err := sameFill(s, seat); err != nil {
				t.Fatal(err)
			}
		}
	})
}

// FuzzGame plays a game by walkers twice, filling fast in one copy and
// slow in the other, and compares them every turn.
func FuzzGame(f *testing.F) {
	for seed := uint64(1); seed <= 6; seed++ {
		f.Add(seed, uint8(seed*7), uint8(2+seed%4))
	}
	f.Fuzz(func(t *testing.T, seed uint64, size, players uint8) {
		n := 12 + int(size)%25
		k := 2 + int(players)%4
		fast, err := New(n, 400, k, seed)
		if err != nil {
			t.Skip(err)
		}
		slow := fast.Clone()
		slow.slow = true
		ws := newWalkers(seed, k)
		for !fast.Outcome().Over {
			dirs := fast.walk(ws)
			fast.step(dirs)
			slow.step(dirs)
			if err := fast.check(); err != nil {
				t.Fatalf("turn %d: %v\n%s", fast.turn, err, fast.Render())
			}
			if !bytes.Equal(fast.owner, slow.owner) || !bytes.Equal(fast.trail, slow.trail) {
				t.Fatalf("turn %d: fast fill\n%s\nslow fill\n%s", fast.turn, fast.Draw(), slow.Draw())
			}
		}
		if a, b := fast.Outcome(), slow.Outcome(); fmt.Sprint(a) != fmt.Sprint(b) {
			t.Fatalf("outcomes %+v and %+v", a, b)
		}
	})
}
