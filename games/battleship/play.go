package battleship

import (
	"embed"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"judge/games"
)

// Play implements games.Playable: the fleet, one ship a question, in the
// placement; then both grids and "x y" → Shoot x y.
func (Game) Play(s games.PlaySeat) (games.Plan, error) {
	a, err := s.Asks("Phase", "Params")
	if err != nil {
		return games.Plan{}, err
	}
	var w, h int
	if _, err := fmt.Sscan(a[1], &w, &h); err != nil {
		return games.Plan{}, fmt.Errorf("battleship: Params answered %q: %w", a[1], err)
	}
	if a[0] == "place" {
		return placement(s, w, h)
	}
	view := s.View
	// Grid p of the view is seat p's waters.
	if view == nil || len(view.Grids) < 2 || s.Seat > 1 {
		return games.Plan{}, errors.New("battleship: no view of the board")
	}
	theirs, mine := games.GridText(view.Grids[1-s.Seat], nil), games.GridText(view.Grids[s.Seat], nil)
	b, err := s.Asks("LastShot", "OpponentShots", "ShipsRemaining")
	if err != nil {
		return games.Plan{}, err
	}
	var news []string
	if f := strings.Fields(b[0]); len(f) == 3 && f[2] != "none" {
		news = append(news, fmt.Sprintf("Your last shot, at %s %s: %s.", f[0], f[1], f[2]))
	}
	if l := strings.Split(b[1], "\n"); len(l) > 1 {
		if f := strings.Fields(l[len(l)-1]); len(f) == 3 {
			news = append(news, fmt.Sprintf("%s fired at %s %s: %s.", s.OpponentFirst(), f[0], f[1], f[2]))
		}
	}
	tail := fmt.Sprintf("The opponent's ships afloat: %s.", b[2])
	grids := seaNames(view.Grids, s.Seat)
	return games.Plan{News: strings.Join(news, "\n"), Text: games.SideBySide("Your shots (x hit, o miss)", games.DrawGrid(theirs, true),
		"Your waters (S ship, x hit, o miss)", games.DrawGrid(mine, true)) + "\n" + tail,
		Status: fmt.Sprintf("Against %s: shoot in their waters (your shots). Their ships afloat: %s.", s.Opponent(), b[2]),
		Help:   help,
		Board:  func() games.View { return games.View{Grids: grids, Marks: view.Marks} },
		Steps:  []games.Step{{Prompt: "your shot (x y)", Parse: readShot, Click: games.ClickCell, Grid: 1 - s.Seat}}}, nil
}

// help is how a person answers on a page that draws, in either phase.
const help = "Place a ship by clicking its two ends (Escape lets go of the first), or all at random; then shoot by clicking a cell of the opponent's waters. You may also type moves (x1,y1-x2,y2 for a ship, x y for a shot)."

// seaNames are the two seas of a view (grid p is seat p's waters) named
// for the person in seat.
func seaNames(gs []games.Grid, seat int) []games.Grid {
	out := slices.Clone(gs)
	for p := range out {
		out[p].Name = "The opponent's waters (your shots)"
		if p == seat {
			out[p].Name = "Your waters"
		}
	}
	return out
}

func readShot(in string) ([]string, error) {
	x, y, err := games.ReadCell(in)
	if err != nil {
		return nil, err
	}
	return []string{fmt.Sprintf("Shoot %d %d", x, y)}, nil
}

// fleet is the fleet a person is placing, to check each ship as it is
// typed.
type fleet struct {
	w, h   int
	at     map[[2]int]bool
	placed int // how many ships
}

// placement asks for each ship of the fleet.
func placement(s games.PlaySeat, w, h int) (games.Plan, error) {
	f, err := s.Ask("Fleet")
	if err != nil {
		return games.Plan{}, err
	}
	fl := &fleet{w: w, h: h, at: map[[2]int]bool{}}
	var lengths []int
	for _, s := range strings.Fields(f) {
		n, err := strconv.Atoi(s)
		if err != nil {
			return games.Plan{}, fmt.Errorf("battleship: Fleet answered %q", f)
		}
		lengths = append(lengths, n)
	}
	head := fmt.Sprintf("Place your fleet on the %d×%d grid: ships of lengths %s, one at a time.\n", w, h, f)
	var v strings.Builder
	v.WriteString(head)
	v.WriteString("Type a ship's two ends, x1,y1-x2,y2 (such as 0,0-4,0), or its top-left cell and\n")
	v.WriteString("across or down (such as 0 0 across, or 0 0 5 down with its length);\n")
	v.WriteString("random places the rest of the fleet at random.\n")
	v.WriteString(fl.draw())
	p := games.Plan{Text: v.String(), Status: fmt.Sprintf("Against %s. ", s.Opponent()) + head + "Click each ship's two ends, or place the rest of the fleet at random.",
		Help: help, Board: func() games.View { return fl.board(s.View, s.Seat) }}
	for i, n := range lengths {
		p.Steps = append(p.Steps, games.Step{
			Prompt: fmt.Sprintf("ship of length %d", n),
			Parse: func(in string) ([]string, error) {
				if strings.EqualFold(in, "random") {
					return fl.random(lengths[i:], s.IntN)
				}
				return fl.place(in, n)
			},
			After: fl.draw,
			Click: games.ClickShip,
			Grid:  s.Seat,
			Skip:  func() bool { return fl.placed > i },
		})
	}
	return p, nil
}

// board is the placement as drawn: the fleet so far in the seat's
// waters, beside the opponent's (as the game's view has them, else
// empty).
func (fl *fleet) board(view *games.View, seat int) games.View {
	mine := games.Grid{Kind: games.KindSea, W: fl.w, H: fl.h, Cells: make([]byte, fl.w*fl.h)}
	for i := range mine.Cells {
		mine.Cells[i] = '-'
		if fl.at[[2]int{i % fl.w, i / fl.w}] {
			mine.Cells[i] = 'S'
		}
	}
	grids := make([]games.Grid, 2)
	for p := range grids {
		grids[p] = games.Grid{Kind: games.KindSea, W: fl.w, H: fl.h, Cells: []byte(strings.Repeat("-", fl.w*fl.h))}
		if view != nil && p < len(view.Grids) && view.Grids[p].W == fl.w && view.Grids[p].H == fl.h {
			grids[p] = view.Grids[p]
		}
	}
	grids[seat] = mine
	return games.View{Grids: seaNames(grids, seat)}
}

// random places ships of the lengths at random where they fit, and gives
// their commands. intN draws a number in [0, n).
func (fl *fleet) random(lengths []int, intN func(n int) int) ([]string, error) {
	if intN == nil {
		return nil, errors.New("random is not offered here: type the ships yourself")
	}
	at, placed := maps.Clone(fl.at), fl.placed
	var cmds []string
	for _, n := range lengths {
		var fits []string
		for y := range fl.h {
			for x := range fl.w {
				for _, d := range []string{"across", "down"} {
					if fl.free(x, y, n, d == "down") {
						fits = append(fits, fmt.Sprintf("%d %d %s", x, y, d))
					}
				}
			}
		}
		if len(fits) == 0 {
			fl.at, fl.placed = at, placed
			return nil, fmt.Errorf("no room is left for a ship of length %d: type the ships yourself", n)
		}
		c, err := fl.place(fits[intN(len(fits))], n)
		if err != nil {
			return nil, err
		}
		cmds = append(cmds, c...)
	}
	return cmds, nil
}

// free says whether a ship of length n from x y, across or down, is on
// the grid and clear of the ships placed.
func (fl *fleet) free(x, y, n int, down bool) bool {
	for k := range n {
		cx, cy := x+k, y
		if down {
			cx, cy = x, y+k
		}
		if cx >= fl.w || cy >= fl.h || fl.at[[2]int{cx, cy}] {
			return false
		}
	}
	return true
}

func (fl *fleet) draw() string {
	cells := make([][]string, fl.h)
	for y := range cells {
		cells[y] = make([]string, fl.w)
		for x := range cells[y] {
			cells[y][x] = "-"
			if fl.at[[2]int{x, y}] {
				cells[y][x] = "S"
			}
		}
	}
	return strings.Join(games.DrawGrid(cells, true), "\n")
}

// place reads a ship of length n and, when it fits, adds it.
func (fl *fleet) place(in string, n int) ([]string, error) {
	x1, y1, x2, y2, err := parseShip(in, n)
	if err != nil {
		return nil, err
	}
	if x1 > x2 || y1 > y2 {
		x1, y1, x2, y2 = x2, y2, x1, y1
	}
	var cells [][2]int
	for x := x1; x <= x2; x++ {
		for y := y1; y <= y2; y++ {
			if x < 0 || y < 0 || x >= fl.w || y >= fl.h {
				return nil, fmt.Errorf("%d,%d-%d,%d leaves the %d×%d grid (x 0..%d, y 0..%d)", x1, y1, x2, y2, fl.w, fl.h, fl.w-1, fl.h-1)
			}
			if fl.at[[2]int{x, y}] {
				return nil, fmt.Errorf("%d,%d-%d,%d overlaps a ship you placed at %d,%d", x1, y1, x2, y2, x, y)
			}
			cells = append(cells, [2]int{x, y})
		}
	}
	for _, c := range cells {
		fl.at[c] = true
	}
	fl.placed++
	return []string{fmt.Sprintf("PlaceShip %d,%d-%d,%d", x1, y1, x2, y2)}, nil
}

// parseShip reads "x1,y1-x2,y2" or "x y [length] across|down" for a ship
// of length n.
func parseShip(in string, n int) (x1, y1, x2, y2 int, err error) {
	if a, b, ok := strings.Cut(in, "-"); ok {
		if x1, y1, err = games.ReadCell(a); err == nil {
			x2, y2, err = games.ReadCell(b)
		}
		if err != nil {
			return 0, 0, 0, 0, fmt.Errorf("%q: type the two ends as x1,y1-x2,y2, such as 0,0-%d,0", in, n-1)
		}
		switch {
		case x1 != x2 && y1 != y2:
			return 0, 0, 0, 0, fmt.Errorf("%q is not straight: its ends must share a row or a column", in)
		case max(x1-x2, x2-x1, y1-y2, y2-y1)+1 != n:
			return 0, 0, 0, 0, fmt.Errorf("%q is %d long: this ship's length is %d", in, max(x1-x2, x2-x1, y1-y2, y2-y1)+1, n)
		}
		return x1, y1, x2, y2, nil
	}
	f := strings.FieldsFunc(strings.ToLower(in), func(r rune) bool { return r == ' ' || r == ',' || r == '\t' })
	usage := fmt.Errorf("%q: type the ship's two ends, such as 0,0-%d,0, or its top-left cell and a direction, such as 0 0 across or 0 0 %d down", in, n-1, n)
	if len(f) != 3 && len(f) != 4 {
		return 0, 0, 0, 0, usage
	}
	var nums []int
	for _, s := range f[:len(f)-1] {
		v, err := strconv.Atoi(s)
		if err != nil {
			return 0, 0, 0, 0, usage
		}
		nums = append(nums, v)
	}
	if len(nums) == 3 && nums[2] != n {
		return 0, 0, 0, 0, fmt.Errorf("%q: this ship's length is %d, not %d", in, n, nums[2])
	}
	x1, y1 = nums[0], nums[1]
	switch f[len(f)-1] {
	case "across", "a", "h", "horizontal", "right":
		return x1, y1, x1 + n - 1, y1, nil
	case "down", "d", "v", "vertical":
		return x1, y1, x1, y1 + n - 1, nil
	}
	return 0, 0, 0, 0, usage
}

// Palette implements games.Painter: water, ships, hits, misses and the
// cells of sunk ships.
func (Game) Palette() games.Palette {
	return games.Palette{
		'-': {Glyph: "-", Colour: "#9fcbe8"},
		'S': {Glyph: "S", Colour: "#7a7f87"},
		'x': {Glyph: "x", Colour: "#e0201c"},
		'o': {Glyph: "o", Colour: "#ffffff"},
		'#': {Glyph: "#", Colour: "#6b1b1b"},
	}
}

// starterFiles are the game's parts of starter bots, one a language.
//
//go:embed starter/*.txt
var starterFiles embed.FS

// Starter implements games.Starter.
func (Game) Starter() games.StarterSpec {
	return games.StarterSpec{Title: "Battleship",
		Queries: []string{"CurrentTurn", "Params", "MySeat", "Phase", "Fleet", "SymbolAt 0 0", "ShipsRemaining", "LastShot", "LastMove"},
		Example: []string{"PlaceShip 0,0-4,0", "PlaceShip 0,2-3,2", "PlaceShip 0,4-2,4", "PlaceShip 0,6-2,6", "PlaceShip 0,8-1,8"},
		Move:    "PlaceShip x1,y1-x2,y2 for each ship of the Fleet on the first turn; then Shoot x y at a cell not shot yet",
		Code:    games.StarterCode(starterFiles),
		Calls: "calls {place_fleet} on the first turn (put your placement there)\n" +
			"and {choose_shot} on every other (put your strategy there)."}
}
