package human

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"sort"
	"strconv"
	"strings"

	"judge/games"
	"judge/judge"
)

// playable are the games a person can play, by the name of the game (its
// variants share it: tictactoe is gomoku).
var playable = map[string]game{
	"gomoku":     {plan: gomokuPlan},
	"tictactoe":  {plan: gomokuPlan},
	"connect4":   {plan: connect4Plan},
	"battleship": {plan: battleshipPlan},
	"splix":      {plan: splixPlan},
}

// gameOf finds the game named name, or one of its variants
// (battleship-botsarena, splix-small).
func gameOf(name string) (game, bool) {
	if g, ok := playable[name]; ok {
		return g, true
	}
	if base, _, ok := strings.Cut(name, "-"); ok {
		g, ok := playable[base]
		return g, ok
	}
	return game{}, false
}

func gameNames() []string {
	var n []string
	for k := range playable {
		n = append(n, k)
	}
	sort.Strings(n)
	return n
}

// asks asks several queries.
func asks(q Querier, queries ...string) ([]string, error) {
	out := make([]string, len(queries))
	for i, s := range queries {
		a, err := q.Ask(s)
		if err != nil {
			return nil, err
		}
		out[i] = a
	}
	return out, nil
}

// board is grid g of the seat's view v, as cells for drawGrid: a game's
// board is drawn from its view, never from a second reading of its
// answers.
func board(game string, v *games.View, g int) ([][]string, error) {
	if v == nil || g >= len(v.Grids) {
		return nil, fmt.Errorf("%s: no view of the board", game)
	}
	return gridCells(v.Grids[g]), nil
}

// gridCells are the cells of a grid whose cells are characters (stones,
// discs, sea), one row a line.
func gridCells(g games.Grid) [][]string {
	out := make([][]string, g.H)
	for y := range out {
		out[y] = make([]string, g.W)
		for x := range out[y] {
			out[y][x] = string(g.Cells[y*g.W+x])
		}
	}
	return out
}

// rows splits a board answer into its rows of cells; cells are separated
// by spaces, or are single characters when there are none (Splix).
func rows(board string) [][]string {
	var out [][]string
	for _, l := range strings.Split(strings.TrimRight(board, "\n"), "\n") {
		if f := strings.Fields(l); len(f) > 1 || len(f) == 1 && len(f[0]) == 1 {
			out = append(out, f)
		} else {
			out = append(out, strings.Split(strings.TrimSpace(l), ""))
		}
	}
	return out
}

// drawGrid draws rows of cells under their column numbers, each row after
// its number (top row 0) when rowNums.
func drawGrid(cells [][]string, rowNums bool) []string {
	wide := 0
	for _, r := range cells {
		wide = max(wide, len(r))
	}
	w := max(len(strconv.Itoa(max(wide, len(cells))-1)), 1)
	margin := ""
	if rowNums {
		margin = strings.Repeat(" ", w+2)
	}
	var b strings.Builder
	b.WriteString(margin)
	for x := range wide {
		fmt.Fprintf(&b, "%*d ", w, x)
	}
	out := []string{strings.TrimRight(b.String(), " ")}
	for y, r := range cells {
		b.Reset()
		if rowNums {
			fmt.Fprintf(&b, "%*d  ", w, y)
		}
		for _, c := range r {
			fmt.Fprintf(&b, "%*s ", w, c)
		}
		out = append(out, strings.TrimRight(b.String(), " "))
	}
	return out
}

// sideBySide puts two drawings next to each other, with their titles.
func sideBySide(t1 string, a []string, t2 string, b []string) string {
	wide := len(t1)
	for _, l := range a {
		wide = max(wide, len(l))
	}
	a = append([]string{t1}, a...)
	b = append([]string{t2}, b...)
	var out strings.Builder
	for i := range max(len(a), len(b)) {
		var l, r string
		if i < len(a) {
			l = a[i]
		}
		if i < len(b) {
			r = b[i]
		}
		fmt.Fprintf(&out, "%-*s    %s\n", wide, l, r)
	}
	return strings.TrimRight(out.String(), "\n")
}

// cell reads "x y" or "x,y".
func cell(in string) (x, y int, err error) {
	f := strings.FieldsFunc(in, func(r rune) bool { return r == ' ' || r == ',' || r == '\t' })
	if len(f) != 2 {
		return 0, 0, fmt.Errorf("%q is not a cell: type two numbers, x (the column) then y (the row), such as 1 2", in)
	}
	x, err1 := strconv.Atoi(f[0])
	y, err2 := strconv.Atoi(f[1])
	if err1 != nil || err2 != nil {
		return 0, 0, fmt.Errorf("%q is not a cell: x and y are whole numbers, such as 1 2", in)
	}
	return x, y, nil
}

func other(sym string) string {
	if sym == "X" {
		return "O"
	}
	return "X"
}

// seatColors name the colours the boards are drawn in, seat by seat (the
// replay viewer's; TestSeatColors holds them to it).
var seatColors = []string{"red", "blue", "green", "orange", "purple"}

// colorOf names seat's colour.
func colorOf(seat int) string { return seatColors[seat%len(seatColors)] }

// opponent is the name of the other seat of a two-seat game.
func opponent(s judge.Seat) string {
	for _, o := range s.Opponents {
		return o
	}
	return "the opponent"
}

// opponentFirst is opponent at the start of a sentence.
func opponentFirst(s judge.Seat) string {
	if len(s.Opponents) == 0 {
		return "The opponent"
	}
	return opponent(s)
}

// symbolSeats says who plays which symbol, and in which colour, in a game
// of X and O: "You are X (red), against NAME (O, blue)".
func symbolSeats(s judge.Seat, sym string) string {
	me, them := s.Index, 1-s.Index
	if sym == "X" && me != 0 || sym == "O" && me != 1 {
		me, them = them, me // a seat that is not its symbol's
	}
	return fmt.Sprintf("You are %s (%s), against %s (%s, %s)", sym, colorOf(me), opponent(s), other(sym), colorOf(them))
}

// gomokuPlan: the board, and "x y" → PlaceSymbol x y.
func gomokuPlan(q Querier, s judge.Seat, view *games.View) (turnPlan, error) {
	cells, err := board("gomoku", view, 0)
	if err != nil {
		return turnPlan{}, err
	}
	a, err := asks(q, "MySymbol", "LastMove", "Params")
	if err != nil {
		return turnPlan{}, err
	}
	sym, last, params := a[0], a[1], strings.Fields(a[2])
	var news string
	if last != "-1 -1" {
		news = fmt.Sprintf("%s (%s) played %s.", opponentFirst(s), other(sym), last)
	}
	k := "?"
	if len(params) == 2 {
		k = params[1]
	}
	tail := fmt.Sprintf("You are %s: make %s in a row. A cell is x (the column) then y (the row).", sym, k)
	return turnPlan{news: news, view: strings.Join(drawGrid(cells, true), "\n") + "\n" + tail,
		status: fmt.Sprintf("%s: make %s in a row.", symbolSeats(s, sym), k), board: viewBoard(view),
		steps: []step{{prompt: "your move (x y)", parse: parseGomoku, click: ClickCell}}}, nil
}

// viewBoard draws the seat's view as it is.
func viewBoard(v *games.View) func() Board {
	return func() Board { return Board{Grids: v.Grids, Marks: v.Marks} }
}

func parseGomoku(in string) ([]string, error) {
	x, y, err := cell(in)
	if err != nil {
		return nil, err
	}
	return []string{fmt.Sprintf("PlaceSymbol %d %d", x, y)}, nil
}

// connect4Plan: the board, and a column → DropDisc c.
func connect4Plan(q Querier, s judge.Seat, view *games.View) (turnPlan, error) {
	cells, err := board("connect4", view, 0)
	if err != nil {
		return turnPlan{}, err
	}
	a, err := asks(q, "MySymbol", "LastMove")
	if err != nil {
		return turnPlan{}, err
	}
	sym, last := a[0], a[1]
	var news string
	if last != "-1" {
		news = fmt.Sprintf("%s (%s) dropped a disc in column %s.", opponentFirst(s), other(sym), last)
	}
	k := "four"
	if n, ok := s.Params["k"]; ok && n != 4 {
		k = strconv.Itoa(n)
	}
	return turnPlan{news: news, view: strings.Join(drawGrid(cells, false), "\n") + "\n" + fmt.Sprintf("You are %s.", sym),
		status: fmt.Sprintf("%s: %s in a row wins.", symbolSeats(s, sym), k), board: viewBoard(view),
		steps: []step{{prompt: "your column", parse: parseConnect4, click: ClickColumn}}}, nil
}

func parseConnect4(in string) ([]string, error) {
	c, err := strconv.Atoi(in)
	if err != nil {
		return nil, fmt.Errorf("%q is not a column: type its number, such as 3", in)
	}
	return []string{fmt.Sprintf("DropDisc %d", c)}, nil
}

// battleshipPlan: the fleet, one ship a question, in the placement; then
// both grids and "x y" → Shoot x y.
func battleshipPlan(q Querier, s judge.Seat, view *games.View) (turnPlan, error) {
	a, err := asks(q, "Phase", "Params")
	if err != nil {
		return turnPlan{}, err
	}
	var w, h int
	if _, err := fmt.Sscan(a[1], &w, &h); err != nil {
		return turnPlan{}, fmt.Errorf("battleship: Params answered %q: %w", a[1], err)
	}
	if a[0] == "place" {
		return placement(q, s, view, w, h)
	}
	// Grid p of the view is seat p's waters.
	theirs, err := board("battleship", view, 1-s.Index)
	if err != nil {
		return turnPlan{}, err
	}
	mine, err := board("battleship", view, s.Index)
	if err != nil {
		return turnPlan{}, err
	}
	b, err := asks(q, "LastShot", "OpponentShots", "ShipsRemaining")
	if err != nil {
		return turnPlan{}, err
	}
	var news []string
	if f := strings.Fields(b[0]); len(f) == 3 && f[2] != "none" {
		news = append(news, fmt.Sprintf("Your last shot, at %s %s: %s.", f[0], f[1], f[2]))
	}
	if l := strings.Split(b[1], "\n"); len(l) > 1 {
		if f := strings.Fields(l[len(l)-1]); len(f) == 3 {
			news = append(news, fmt.Sprintf("%s fired at %s %s: %s.", opponentFirst(s), f[0], f[1], f[2]))
		}
	}
	tail := fmt.Sprintf("The opponent's ships afloat: %s.", b[2])
	grids := seaNames(view.Grids, s.Index)
	return turnPlan{news: strings.Join(news, "\n"), view: sideBySide("Your shots (x hit, o miss)", drawGrid(theirs, true),
		"Your waters (S ship, x hit, o miss)", drawGrid(mine, true)) + "\n" + tail,
		status: fmt.Sprintf("Against %s: shoot in their waters (your shots). Their ships afloat: %s.", opponent(s), b[2]),
		board:  func() Board { return Board{Grids: grids, Marks: view.Marks} },
		steps:  []step{{prompt: "your shot (x y)", parse: parseShot, click: ClickCell, clickGrid: 1 - s.Index}}}, nil
}

// seaNames are the two seas of a Battleship view (grid p is seat p's
// waters) named for the person in seat.
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

func parseShot(in string) ([]string, error) {
	x, y, err := cell(in)
	if err != nil {
		return nil, err
	}
	return []string{fmt.Sprintf("Shoot %d %d", x, y)}, nil
}

// fleet is the fleet being placed, to check each ship as it is typed.
type fleet struct {
	w, h   int
	at     map[[2]int]bool
	placed int // how many ships
}

// placement asks for each ship of the fleet.
func placement(q Querier, s judge.Seat, view *games.View, w, h int) (turnPlan, error) {
	f, err := q.Ask("Fleet")
	if err != nil {
		return turnPlan{}, err
	}
	fl := &fleet{w: w, h: h, at: map[[2]int]bool{}}
	var lengths []int
	for _, s := range strings.Fields(f) {
		n, err := strconv.Atoi(s)
		if err != nil {
			return turnPlan{}, fmt.Errorf("battleship: Fleet answered %q", f)
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
	p := turnPlan{view: v.String(), status: fmt.Sprintf("Against %s. ", opponent(s)) + head + "Click each ship's two ends, or place the rest of the fleet at random.",
		board: func() Board { return fl.board(view, s.Index) }}
	for i, n := range lengths {
		p.steps = append(p.steps, step{
			prompt: fmt.Sprintf("ship of length %d", n),
			parse: func(in string) ([]string, error) {
				if strings.EqualFold(in, "random") {
					return fl.random(lengths[i:], rand.IntN)
				}
				return fl.place(in, n)
			},
			after:     fl.draw,
			click:     ClickShip,
			clickGrid: s.Index,
			skip:      func() bool { return fl.placed > i },
		})
	}
	return p, nil
}

// board is the placement as drawn: the fleet so far in the seat's
// waters, beside the opponent's (as the game's view has them, else
// empty).
func (fl *fleet) board(view *games.View, seat int) Board {
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
	return Board{Grids: seaNames(grids, seat)}
}

// random places ships of the lengths at random where they fit, and gives
// their commands. intN draws a number in [0, n).
func (fl *fleet) random(lengths []int, intN func(n int) int) ([]string, error) {
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
	return strings.Join(drawGrid(cells, true), "\n")
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
		if x1, y1, err = cell(a); err == nil {
			x2, y2, err = cell(b)
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

// splixPlan: the view around the head, and a direction → Move d. The
// game's own view shows the whole board, more than a seat sees: the person
// is shown the View query's window, as a bot.
func splixPlan(q Querier, _ judge.Seat, _ *games.View) (turnPlan, error) {
	a, err := asks(q, "MySeat", "CurrentTurn", "TurnsLeft", "Position", "Players", "View")
	if err != nil {
		return turnPlan{}, err
	}
	seat, turn, left, pos, players, view := a[0], a[1], a[2], a[3], a[4], a[5]
	var v, st strings.Builder
	s, _ := strconv.Atoi(seat)
	head := string(rune('A' + s))
	fmt.Fprintf(&v, "Turn %s, %s to play. You are seat %s: %s your head, %s your trail, %s your land.\n",
		turn, left, seat, head, strings.ToLower(head), seat)
	fmt.Fprintf(&st, "Turn %s, %s to play. You are seat %s (%s).", turn, left, seat, colorOf(s))
	if f := strings.Fields(pos); len(f) == 3 {
		fmt.Fprintf(&v, "You are at %s %s (x from the west, y from the south), heading %s.\n", f[0], f[1], f[2])
		fmt.Fprintf(&st, " At %s %s, heading %s.", f[0], f[1], f[2])
	}
	st.WriteString("\n")
	for _, l := range strings.Split(players, "\n") {
		f := strings.Fields(l)
		if len(f) != 7 {
			continue
		}
		who, color := "seat "+f[0], ""
		if n, err := strconv.Atoi(f[0]); err == nil {
			color = " (" + colorOf(n) + ")"
		}
		if f[0] == seat {
			who += " (you)"
		}
		fmt.Fprintf(&v, "  %s: %s, land %s, kills %s, score %s\n", who, f[1], f[4], f[5], f[6])
		fmt.Fprintf(&st, "%s%s: %s, land %s, kills %s, score %s\n", who, color, f[1], f[4], f[5], f[6])
	}
	st.WriteString("Steer with the arrow keys; north is up.")
	for _, r := range rows(view) {
		v.WriteString("  " + strings.Join(r, " ") + "\n")
	}
	v.WriteString("North is up; # is off the board.")
	return turnPlan{view: v.String(), status: st.String(), board: func() Board { return splixBoard(view) }, steps: []step{{
		prompt: "your move (n, e, s, w or an arrow key; Enter goes straight on)",
		parse:  parseSplix,
		key:    true,
	}}}, nil
}

// splixBoard is the View query's square as a grid of land (a cell is
// owner | trail<<4, as in the game's own view), the heads as marks; off
// the board is drawn as no one's land.
func splixBoard(view string) Board {
	rs := rows(view)
	h := len(rs)
	w := 0
	for _, r := range rs {
		w = max(w, len(r))
	}
	g := games.Grid{Name: "around you", Kind: games.KindLand, W: w, H: h, Cells: make([]byte, w*h)}
	var marks []games.Mark
	for y, r := range rs {
		for x, c := range r {
			if len(c) != 1 {
				continue
			}
			switch b := c[0]; {
			case b >= '0' && b <= '9':
				g.Cells[y*w+x] = b - '0' + 1
			case b >= 'a' && b <= 'z':
				g.Cells[y*w+x] = (b - 'a' + 1) << 4
			case b >= 'A' && b <= 'Z':
				marks = append(marks, games.Mark{X: x, Y: y, Seat: int(b - 'A'), Kind: games.MarkHead})
			}
		}
	}
	return Board{Grids: []games.Grid{g}, Marks: marks}
}

// parseSplix reads a direction: a letter, a word, or an arrow key's
// escape sequence (typed before Enter).
func parseSplix(in string) ([]string, error) {
	if i := strings.LastIndex(in, "\x1b"); i >= 0 {
		seq := in[i:]
		if len(seq) == 3 && (seq[1] == '[' || seq[1] == 'O') {
			if d, ok := map[byte]string{'A': "N", 'B': "S", 'C': "E", 'D': "W"}[seq[2]]; ok {
				return []string{"Move " + d}, nil
			}
		}
		return nil, fmt.Errorf("that key is not a direction: use the arrow keys, or n, e, s, w")
	}
	switch strings.ToLower(in) {
	case "":
		return nil, nil // no Move: straight on
	case "n", "north":
		return []string{"Move N"}, nil
	case "e", "east":
		return []string{"Move E"}, nil
	case "s", "south":
		return []string{"Move S"}, nil
	case "w", "west":
		return []string{"Move W"}, nil
	case "straight", "on":
		return []string{"Move STRAIGHT"}, nil
	}
	return nil, fmt.Errorf("%q is not a direction: type n, e, s or w (north, east, south, west), or use the arrow keys", in)
}
