package battleship

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"

	"judge/games"
)

// MaxLen is the length of the longest ship.
const MaxLen = 6

// Ship is one ship: its top-left cell, its length, and whether it lies
// down (along y) or across (along x). A ship of length 1 lies across.
type Ship struct {
	X, Y, Len int
	Down      bool
}

// End is the ship's other end, bottom-right.
func (s Ship) End() (x, y int) {
	if s.Down {
		return s.X, s.Y + s.Len - 1
	}
	return s.X + s.Len - 1, s.Y
}

// String gives the ship in the notation of PlaceShip, top-left end first:
// "x1,y1-x2,y2".
func (s Ship) String() string {
	x2, y2 := s.End()
	return strconv.Itoa(s.X) + "," + strconv.Itoa(s.Y) + "-" + strconv.Itoa(x2) + "," + strconv.Itoa(y2)
}

// Cell returns the i-th cell of the ship from its top-left end.
func (s Ship) Cell(i int) (x, y int) {
	if s.Down {
		return s.X, s.Y + i
	}
	return s.X + i, s.Y
}

// Fits reports whether the ship lies within a w×h board.
func (s Ship) Fits(w, h int) bool {
	x2, y2 := s.End()
	return s.X >= 0 && s.Y >= 0 && x2 < w && y2 < h
}

// ParseShip reads a ship in either notation of PlaceShip: the two ends,
// "x1,y1-x2,y2" in any order (one word), or "x y length orientation" (four
// words, x y the top-left cell, orientation across or down). It checks the
// shape (a straight line of 1..MaxLen cells) but not the board.
func ParseShip(args []string) (Ship, error) {
	switch len(args) {
	case 1:
		a, b, ok := strings.Cut(args[0], "-")
		if !ok {
			// A negative coordinate would be cut at its minus sign; say so
			// rather than "no dash".
			return Ship{}, fmt.Errorf("ship %q: want two ends x1,y1-x2,y2", args[0])
		}
		x1, y1, err1 := ParsePoint(a)
		x2, y2, err2 := ParsePoint(b)
		if err := errors.Join(err1, err2); err != nil {
			return Ship{}, fmt.Errorf("ship %q: want two ends x1,y1-x2,y2 with whole numbers from 0", args[0])
		}
		var s Ship
		switch {
		case x1 == x2:
			s = Ship{X: x1, Y: min(y1, y2), Len: abs(y2-y1) + 1, Down: y1 != y2}
		case y1 == y2:
			s = Ship{X: min(x1, x2), Y: y1, Len: abs(x2-x1) + 1}
		default:
			return Ship{}, fmt.Errorf("ship %s is not straight: its ends must share a row or a column", args[0])
		}
		if s.Len > MaxLen {
			return Ship{}, fmt.Errorf("ship %s is %d cells long; the longest is %d", args[0], s.Len, MaxLen)
		}
		return s, nil
	case 4:
		x, err1 := strconv.Atoi(args[0])
		y, err2 := strconv.Atoi(args[1])
		n, err3 := strconv.Atoi(args[2])
		if errors.Join(err1, err2, err3) != nil || x < 0 || y < 0 || x > 1e9 || y > 1e9 {
			return Ship{}, fmt.Errorf("ship %q: want x y length orientation, x y length whole numbers from 0", strings.Join(args, " "))
		}
		if n < 1 || n > MaxLen {
			return Ship{}, fmt.Errorf("ship %q: length %d is not 1..%d", strings.Join(args, " "), n, MaxLen)
		}
		s := Ship{X: x, Y: y, Len: n}
		switch strings.ToLower(args[3]) {
		case "across":
		case "down":
			s.Down = n > 1
		default:
			return Ship{}, fmt.Errorf("ship %q: orientation %q is neither across nor down", strings.Join(args, " "), args[3])
		}
		return s, nil
	}
	return Ship{}, fmt.Errorf("want one ship x1,y1-x2,y2 (or x y length across|down), got %d words", len(args))
}

// ParsePoint reads "x,y", two whole numbers from 0.
func ParsePoint(s string) (x, y int, err error) {
	a, b, ok := strings.Cut(s, ",")
	if !ok {
		return 0, 0, fmt.Errorf("%q: want x,y", s)
	}
	x, err1 := atou(a)
	y, err2 := atou(b)
	if err1 != nil || err2 != nil {
		return 0, 0, fmt.Errorf("%q: want x,y with whole numbers from 0", s)
	}
	return x, y, nil
}

// atou reads a whole number from 0 written in decimal digits only, at
// most 9 of them (so that sums of coordinates never overflow).
func atou(s string) (int, error) {
	if s == "" || len(s) > 9 {
		return 0, errors.New("bad number")
	}
	n := 0
	for _, c := range []byte(s) {
		if c < '0' || c > '9' {
			return 0, errors.New("bad number")
		}
		n = n*10 + int(c-'0')
	}
	return n, nil
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// Fleet lists the lengths of the ships of counts (counts[l] ships of
// length l), longest first.
func Fleet(counts [MaxLen + 1]int) []int {
	var f []int
	for l := MaxLen; l >= 1; l-- {
		for i := 0; i < counts[l]; i++ {
			f = append(f, l)
		}
	}
	return f
}

// CheckFleet tells why ships are not a legal fleet for a w×h board and
// the lengths of fleet, or returns nil. The reason names the first ship at
// fault.
func CheckFleet(w, h int, fleet []int, ships []Ship) error {
	owner := make(map[[2]int]int)
	for i, s := range ships {
		if !s.Fits(w, h) {
			return fmt.Errorf("ship %s leaves the %d×%d board (cells 0..%d, 0..%d)", s, w, h, w-1, h-1)
		}
		for j := 0; j < s.Len; j++ {
			x, y := s.Cell(j)
			if k, ok := owner[[2]int{x, y}]; ok {
				return fmt.Errorf("ship %s overlaps ship %s at %d,%d", s, ships[k], x, y)
			}
			owner[[2]int{x, y}] = i
		}
	}
	var want, got [MaxLen + 1]int
	for _, l := range fleet {
		want[l]++
	}
	for _, s := range ships {
		got[s.Len]++
	}
	for l := MaxLen; l >= 1; l-- {
		if got[l] > want[l] {
			var extra Ship
			n := 0
			for _, s := range ships {
				if s.Len == l {
					if n++; n > want[l] {
						extra = s
						break
					}
				}
			}
			return fmt.Errorf("ship %s is one ship of length %d too many: the fleet has %d (%s)", extra, l, want[l], lengths(fleet))
		}
	}
	for l := MaxLen; l >= 1; l-- {
		if got[l] < want[l] {
			return fmt.Errorf("%s of length %d missing: the fleet has %d (%s), %d placed", games.Plural(want[l]-got[l], "ship", "ships"), l, want[l], lengths(fleet), got[l])
		}
	}
	return nil
}

func lengths(fleet []int) string {
	if len(fleet) == 0 {
		return "no ships"
	}
	s := make([]string, len(fleet))
	for i, l := range fleet {
		s[i] = strconv.Itoa(l)
	}
	return "lengths " + strings.Join(s, " ")
}

// RandomFleet places ships of the fleet's lengths at random on a w×h
// board without overlap. It reports false when it finds no placement.
func RandomFleet(w, h int, fleet []int, rng *rand.Rand) ([]Ship, bool) {
	for try := 0; try < 50; try++ {
		if ships, ok := randomTry(w, h, fleet, rng); ok {
			return ships, true
		}
	}
	return packFleet(w, h, fleet, 200000)
}

func randomTry(w, h int, fleet []int, rng *rand.Rand) ([]Ship, bool) {
	used := make([]bool, w*h)
	var ships []Ship
	for _, l := range fleet {
		placed := false
		for attempt := 0; attempt < 100 && !placed; attempt++ {
			s := Ship{X: rng.IntN(w), Y: rng.IntN(h), Len: l, Down: l > 1 && rng.IntN(2) == 1}
			if free(s, w, h, used) {
				mark(s, w, used)
				ships = append(ships, s)
				placed = true
			}
		}
		if !placed {
			return nil, false
		}
	}
	return ships, true
}

func free(s Ship, w, h int, used []bool) bool {
	if !s.Fits(w, h) {
		return false
	}
	for i := 0; i < s.Len; i++ {
		x, y := s.Cell(i)
		if used[y*w+x] {
			return false
		}
	}
	return true
}

func mark(s Ship, w int, used []bool) {
	for i := 0; i < s.Len; i++ {
		x, y := s.Cell(i)
		used[y*w+x] = !used[y*w+x]
	}
}

// packFleet searches for a placement by backtracking, longest ships
// first, in at most budget steps.
func packFleet(w, h int, fleet []int, budget int) ([]Ship, bool) {
	f := slices.Clone(fleet)
	slices.SortFunc(f, func(a, b int) int { return b - a })
	used := make([]bool, w*h)
	ships := make([]Ship, 0, len(f))
	var rec func(i, from int) bool
	rec = func(i, from int) bool {
		if i == len(f) {
			return true
		}
		// Ships of the same length go in increasing cell order.
		start := 0
		if i > 0 && f[i] == f[i-1] {
			start = from
		}
		for c := start; c < 2*w*h; c++ {
			if budget--; budget < 0 {
				return false
			}
			s := Ship{X: (c / 2) % w, Y: (c / 2) / w, Len: f[i], Down: c%2 == 1}
			if s.Down && s.Len == 1 {
				continue
			}
			if !free(s, w, h, used) {
				continue
			}
			mark(s, w, used)
			ships = append(ships, s)
			if rec(i+1, c+1) {
				return true
			}
			ships = ships[:len(ships)-1]
			mark(s, w, used)
		}
		return false
	}
	if rec(0, 0) {
		return ships, true
	}
	return nil, false
}
