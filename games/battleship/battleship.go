// Package battleship is Battleship as botsarena plays it: on a width×height
// grid each player hides a fleet of straight ships, then the players take
// turns firing one shot at the other's grid. A shot is a miss, a hit, or a
// hit that sinks a ship (all its cells hit). The first to sink the whole
// enemy fleet wins.
//
// Turn 1 is the placement: both players place their fleets at once. From
// turn 2 on, seat 0 fires on even turns and seat 1 on odd turns. Each
// player may fire at most width×height shots (enough to hit every cell
// once); when both have, the game ends and whoever hit more enemy ship
// cells wins, equal hits being a draw. Under botsarena's rules
// (Game.Botsarena) there is no such cap, and a sunk ship is gone.
//
// Coordinates are (x, y) from 0, (0,0) the top-left cell, x to the right
// and y downwards, as in gomoku.
//
// Queries: CurrentTurn, Params, MySeat, Phase, Fleet, MyShips, MyBoard,
// Board, SymbolAt x y, ShipsRemaining, MyShots, OpponentShots, LastShot,
// LastMove. Commands: PlaceShip x1,y1-x2,y2 (or PlaceShip x y length
// across|down), one per ship, on turn 1; Shoot x y (or Shoot x,y), the last
// valid one binding, on the later turns. See docs/protocol/battleship.md.
//
// Hidden information stays hidden: a seat's answers and the errors of its
// commands depend only on its own fleet and on the results of the shots
// fired so far. Render shows everything.
package battleship

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"judge/games"
)

// Game is Battleship. The zero value is ready to use.
type Game struct {
	// Contest judges shots as the Ruby contest's runner does (Board#try):
	// a Shoot of numbers inside the board that is not a cell, such as
	// 0.0 0.0, is a wasted shot rather than no shot (see Wasted).
	Contest bool
	// Botsarena plays as botsarena's act.php does: no cap on the shots
	// (the game goes on until a fleet is sunk; see MaxShots for the
	// judge's bound), and a sunk ship is gone, so that a shot at one of
	// its cells is a miss.
	Botsarena bool
}

// Name implements games.Game.
func (Game) Name() string { return "battleship" }

// Describe implements games.Game.
func (Game) Describe() string {
	return "Battleship: hide a fleet, then shoot one cell a turn; sink the whole enemy fleet to win"
}

// Limits of the parameters.
const (
	MaxSize  = 100 // width and height
	MaxShips = 10  // ships of one length
)

// Params implements games.Game. The defaults are the classic fleet of
// lengths 5, 4, 3, 3, 2 on 10×10.
func (Game) Params() []games.ParamSpec {
	ps := []games.ParamSpec{
		{Name: "width", Default: 10, Min: 1, Max: MaxSize, Doc: "columns, x from 0 (left) to width-1"},
		{Name: "height", Default: 10, Min: 1, Max: MaxSize, Doc: "rows, y from 0 (top) to height-1"},
	}
	def := [MaxLen + 1]int{2: 1, 3: 2, 4: 1, 5: 1}
	for l := 1; l <= MaxLen; l++ {
		ps = append(ps, games.ParamSpec{
			Name: "ship" + strconv.Itoa(l), Default: def[l], Min: 0, Max: MaxShips,
			Doc: "number of ships of length " + strconv.Itoa(l),
		})
	}
	return ps
}

// New implements games.Game. The seed is unused: the game has no chance.
func (g Game) New(p games.Params, _ uint64) (games.State, error) {
	p, err := games.Resolve(g.Params(), p)
	if err != nil {
		return nil, err
	}
	var counts [MaxLen + 1]int
	for l := 1; l <= MaxLen; l++ {
		counts[l] = p["ship"+strconv.Itoa(l)]
	}
	s, err := New(p["width"], p["height"], counts)
	if err != nil {
		return nil, err
	}
	s.contest, s.arena = g.Contest, g.Botsarena
	return s, nil
}

// New starts a game on a w×h grid with counts[l] ships of length l. It
// fails when the fleet is empty or the judge finds no way to place it.
func New(w, h int, counts [MaxLen + 1]int) (*State, error) {
	fleet := Fleet(counts)
	if len(fleet) == 0 {
		return nil, errors.New("the fleet is empty: set at least one of ship1..ship6")
	}
	cells := 0
	for _, l := range fleet {
		cells += l
	}
	if cells > w*h {
		return nil, fmt.Errorf("the fleet (%s) has %d cells, more than the %d×%d grid", lengths(fleet), cells, w, h)
	}
	if _, ok := packFleet(w, h, fleet, 1_000_000); !ok {
		return nil, fmt.Errorf("the fleet (%s) cannot be placed on the %d×%d grid", lengths(fleet), w, h)
	}
	s := &State{w: w, h: h, counts: counts, fleet: fleet, turn: 1, forfeitTurn: -1}
	s.out.Winner = -1
	for i := range s.seas {
		s.seas[i] = newSea(w, h)
	}
	return s, nil
}

// Result is what a shot did.
type Result byte

// The results of a shot.
const (
	Miss Result = iota
	Hit
	Sunk // a hit that sank the ship
)

func (r Result) String() string {
	switch r {
	case Hit:
		return "hit"
	case Sunk:
		return "sunk"
	}
	return "miss"
}

// Shot is one shot and its result.
type Shot struct {
	X, Y   int // -1 for a wasted shot
	Result Result
	// Wasted is a shot of the contest's rules at no cell (0.0 0.0): a
	// miss of no cell.
	Wasted bool
}

// sea is one player's waters: its ships and the shots they received.
type sea struct {
	ships    []Ship
	owner    []int16 // owner[y*w+x]: index of the ship there, or -1
	shot     []bool  // cells the opponent has shot
	hits     []int   // cells hit, per ship
	afloat   int     // ships not sunk
	hitCells int     // distinct ship cells hit
}

func newSea(w, h int) sea {
	s := sea{owner: make([]int16, w*h), shot: make([]bool, w*h)}
	for i := range s.owner {
		s.owner[i] = -1
	}
	return s
}

func (s *sea) clone() sea {
	c := *s
	c.ships = append([]Ship(nil), s.ships...)
	c.owner = append([]int16(nil), s.owner...)
	c.shot = append([]bool(nil), s.shot...)
	c.hits = append([]int(nil), s.hits...)
	return c
}

// State is a game in progress.
type State struct {
	w, h        int
	counts      [MaxLen + 1]int
	fleet       []int // lengths, longest first
	turn        int   // counted from 1; 1 is the placement
	seas        [2]sea
	shots       [2][]Shot // shots[s]: the shots seat s fired, in order
	out         games.Outcome
	forfeitTurn int  // the turn a forfeit ended the game, or -1
	contest     bool // shots as the Ruby contest's runner takes them
	arena       bool // botsarena's rules: no cap, sunk ships gone
}

// Clone returns an independent copy.
func (s *State) Clone() *State {
	c := *s
	c.fleet = append([]int(nil), s.fleet...)
	for i := range s.seas {
		c.seas[i] = s.seas[i].clone()
		c.shots[i] = append([]Shot(nil), s.shots[i]...)
	}
	c.out.Scores = append([]float64(nil), s.out.Scores...)
	return &c
}

// Size returns the width and height of the grid.
func (s *State) Size() (w, h int) { return s.w, s.h }

// FleetLengths lists the lengths of the ships each player places, longest
// first.
func (s *State) FleetLengths() []int { return append([]int(nil), s.fleet...) }

// Placing reports whether this is the placement turn.
func (s *State) Placing() bool { return s.turn == 1 }

// Ships returns seat's fleet (empty before the placement).
func (s *State) Ships(seat int) []Ship { return append([]Ship(nil), s.seas[seat].ships...) }

// Shots returns the shots seat fired, in order.
func (s *State) Shots(seat int) []Shot { return append([]Shot(nil), s.shots[seat]...) }

// MaxShots is the number of shots each player may fire: width×height.
// botsarena has no cap: under its rules the bound is ArenaShots times
// that, which only a bot that fires at the same cells forever reaches
// (botsarena would play on for ever); random shots sink a fleet long
// before.
func (s *State) MaxShots() int {
	if s.arena {
		return ArenaShots * s.w * s.h
	}
	return s.w * s.h
}

// ArenaShots is the bound of botsarena's game, in grids: see MaxShots.
const ArenaShots = 100

// Seats implements games.State.
func (s *State) Seats() int { return 2 }

// Turn implements games.State.
func (s *State) Turn() int { return s.turn }

// ToMove is the seat that fires this turn, or -1 on the placement turn.
func (s *State) ToMove() int {
	if s.turn == 1 {
		return -1
	}
	return (s.turn - 2) % 2
}

// Movers implements games.State.
func (s *State) Movers() []int {
	switch {
	case s.out.Over:
		return nil
	case s.turn == 1:
		return []int{0, 1}
	}
	return []int{s.ToMove()}
}

// Query implements games.State. Multi-line answers with a variable
// number of lines start with that number on a line of its own.
func (s *State) Query(seat int, l games.Line) (string, error) {
	switch l.Verb {
	case "CurrentTurn":
		return strconv.Itoa(s.turn), nil
	case "Params":
		b := []string{strconv.Itoa(s.w), strconv.Itoa(s.h)}
		for n := 1; n <= MaxLen; n++ {
			b = append(b, strconv.Itoa(s.counts[n]))
		}
		return strings.Join(b, " "), nil
	case "MySeat":
		return strconv.Itoa(seat), nil
	case "Phase":
		if s.turn == 1 {
			return "place", nil
		}
		return "fire", nil
	case "Fleet":
		return joinInts(s.fleet), nil
	case "MyShips":
		var b strings.Builder
		b.WriteString(strconv.Itoa(len(s.seas[seat].ships)))
		for _, sh := range s.seas[seat].ships {
			b.WriteByte('\n')
			b.WriteString(sh.String())
		}
		return b.String(), nil
	case "MyBoard":
		return s.grid(func(i int) byte { return s.seas[seat].mine(i) }), nil
	case "Board":
		return s.grid(func(i int) byte { return s.seas[1-seat].theirs(i) }), nil
	case "SymbolAt", "CellAt":
		x, y, ok := s.point(l.Args)
		if !ok {
			return "!", nil
		}
		return string(s.seas[1-seat].theirs(y*s.w + x)), nil
	case "ShipsRemaining":
		var left []int
		sea := &s.seas[1-seat]
		if len(sea.ships) == 0 {
			left = append(left, s.fleet...)
		}
		for i, sh := range sea.ships {
			if sea.hits[i] < sh.Len {
				left = append(left, sh.Len)
			}
		}
		sortDesc(left)
		return joinInts(left), nil
	case "MyShots":
		return shotList(s.shots[seat]), nil
	case "OpponentShots":
		return shotList(s.shots[1-seat]), nil
	case "LastShot":
		sh := s.shots[seat]
		if len(sh) == 0 {
			return "-1 -1 none", nil
		}
		last := sh[len(sh)-1]
		return strconv.Itoa(last.X) + " " + strconv.Itoa(last.Y) + " " + last.Result.String(), nil
	case "LastMove":
		sh := s.shots[1-seat]
		if len(sh) == 0 {
			return "-1 -1", nil
		}
		last := sh[len(sh)-1]
		return strconv.Itoa(last.X) + " " + strconv.Itoa(last.Y), nil
	}
	return "", games.ErrNotQuery
}

// Queries implements games.Verbs.
func (s *State) Queries() []string {
	return []string{"CurrentTurn", "Params", "MySeat", "Phase", "Fleet", "MyShips", "MyBoard", "Board",
		"SymbolAt", "CellAt", "ShipsRemaining", "MyShots", "OpponentShots", "LastShot", "LastMove"}
}

// Commands implements games.Verbs.
func (s *State) Commands() []string { return []string{"PlaceShip", "Shoot"} }

// mine is cell i of a player's own sea as that player sees it.
func (sea *sea) mine(i int) byte {
	switch {
	case sea.owner[i] >= 0 && sea.shot[i]:
		return 'x'
	case sea.owner[i] >= 0:
		return 'S'
	case sea.shot[i]:
		return 'o'
	}
	return '-'
}

// theirs is cell i of a sea as the opponent who shoots at it sees it.
func (sea *sea) theirs(i int) byte {
	switch {
	case !sea.shot[i]:
		return '-'
	case sea.owner[i] >= 0:
		return 'x'
	}
	return 'o'
}

func (s *State) grid(cell func(i int) byte) string {
	b := make([]byte, 0, 2*s.w*s.h)
	for y := 0; y < s.h; y++ {
		if y > 0 {
			b = append(b, '\n')
		}
		for x := 0; x < s.w; x++ {
			if x > 0 {
				b = append(b, ' ')
			}
			b = append(b, cell(y*s.w+x))
		}
	}
	return string(b)
}

func shotList(shots []Shot) string {
	var b strings.Builder
	b.WriteString(strconv.Itoa(len(shots)))
	for _, sh := range shots {
		fmt.Fprintf(&b, "\n%d %d %s", sh.X, sh.Y, sh.Result)
	}
	return b.String()
}

func joinInts(v []int) string {
	s := make([]string, len(v))
	for i, n := range v {
		s[i] = strconv.Itoa(n)
	}
	return strings.Join(s, " ")
}

func sortDesc(v []int) {
	for i := 1; i < len(v); i++ {
		for j := i; j > 0 && v[j] > v[j-1]; j-- {
			v[j], v[j-1] = v[j-1], v[j]
		}
	}
}

// point parses "x y" or "x,y" and reports whether it is on the grid.
func (s *State) point(args []string) (x, y int, ok bool) {
	x, y, err := parseShot(args)
	if err != nil || x >= s.w || y >= s.h {
		return 0, 0, false
	}
	return x, y, true
}

// parseShot reads the target of Shoot: "x y" (two words) or "x,y" (one).
func parseShot(args []string) (x, y int, err error) {
	switch len(args) {
	case 1:
		x, y, err = ParsePoint(args[0])
		if err != nil {
			return 0, 0, fmt.Errorf("target %q: want x y (or x,y), whole numbers from 0", args[0])
		}
		return x, y, nil
	case 2:
		x, err1 := atou(args[0])
		y, err2 := atou(args[1])
		if err1 != nil || err2 != nil {
			return 0, 0, fmt.Errorf("target %q: want x y (or x,y), whole numbers from 0", args[0]+" "+args[1])
		}
		return x, y, nil
	}
	return 0, 0, fmt.Errorf("want a target x y (or x,y), got %d words", len(args))
}

// Render implements games.State: both grids with every ship and shot,
// and the shots so far. It shows what the players must not see.
func (s *State) Render() string {
	var b strings.Builder
	switch {
	case s.out.Over:
		// The last turn played: a shot ends its turn, a forfeit does not.
		last := s.turn - 1
		if s.forfeitTurn >= 0 {
			last = s.forfeitTurn
		}
		fmt.Fprintf(&b, "game over after turn %d: %s\n", last, s.out.Reason)
	case s.turn == 1:
		b.WriteString("turn 1: placement\n")
	default:
		fmt.Fprintf(&b, "turn %d: seat %d fires\n", s.turn, s.ToMove())
	}
	pad := 2*s.w - 1
	fmt.Fprintf(&b, "%-*s   %s\n", pad, "seat 0", "seat 1")
	for y := 0; y < s.h; y++ {
		for p := 0; p < 2; p++ {
			if p == 1 {
				b.WriteString("   ")
			}
			for x := 0; x < s.w; x++ {
				if x > 0 {
					b.WriteByte(' ')
				}
				b.WriteByte(s.seas[p].spectator(y*s.w + x))
			}
		}
		b.WriteByte('\n')
	}
	for p := 0; p < 2; p++ {
		fmt.Fprintf(&b, "seat %d: %s, %s hit, %d of %s afloat\n",
			p, games.Plural(len(s.shots[p]), "shot", "shots"), games.Plural(s.seas[1-p].hitCells, "ship cell", "ship cells"),
			s.seas[p].afloat, games.Plural(len(s.seas[p].ships), "ship", "ships"))
	}
	return b.String()
}

// spectator is cell i as Render shows it: '#' marks a sunk ship.
func (sea *sea) spectator(i int) byte {
	if o := sea.owner[i]; o >= 0 && sea.hits[o] == sea.ships[o].Len {
		return '#'
	}
	return sea.mine(i)
}

// Orders implements games.State.
func (s *State) Orders(seat int) games.Orders { return &orders{s: s, seat: seat} }

type orders struct {
	s       *State
	seat    int
	ships   []Ship  // placement: the ships taken
	refused []error // placement: PlaceShip commands refused
	move    games.Move
	lastErr error
	// noFleet is why a contest player's host read no fleet in what its
	// new_game returned (NoFleet).
	noFleet string
}

func (o *orders) Command(l games.Line) error {
	switch l.Verb {
	case "PlaceShip":
		if !o.s.Placing() {
			return o.refuse(l, errors.New("ships are placed on turn 1 only; now use Shoot"), false)
		}
		sh, err := ParseShip(l.Args)
		if err != nil {
			return o.refuse(l, err, true)
		}
		if !sh.Fits(o.s.w, o.s.h) {
			return o.refuse(l, fmt.Errorf("ship %s leaves the %d×%d board (cells 0..%d, 0..%d)", sh, o.s.w, o.s.h, o.s.w-1, o.s.h-1), true)
		}
		o.ships = append(o.ships, sh)
		return nil
	case "NoFleet":
		// The contest's host, for a player whose new_game returned what
		// the contest's runner reads as no fleet at all: why, in its words.
		if !o.s.contest || !o.s.Placing() {
			break
		}
		o.noFleet = strings.Join(l.Args, " ")
		return nil
	case "Shoot":
		if o.s.Placing() {
			return o.refuse(l, errors.New("turn 1 is for placing ships with PlaceShip; shooting starts on turn 2"), false)
		}
		x, y, err := o.s.checkShot(l.Args)
		switch {
		case err == errWasted:
			o.move = games.Move{strings.TrimSpace("Shoot " + strings.Join(l.Args, " "))}
			return nil
		case err != nil:
			return o.refuse(l, err, false)
		}
		o.move = games.Move{"Shoot " + strconv.Itoa(x) + " " + strconv.Itoa(y)}
		return nil
	}
	return fmt.Errorf("%q: %w", l.Verb, games.ErrUnknown)
}

// refuse records why a command was refused; a refused PlaceShip makes the
// whole fleet illegal.
func (o *orders) refuse(l games.Line, err error, fleet bool) error {
	o.lastErr = fmt.Errorf("%s: %w", l, err)
	if fleet {
		o.refused = append(o.refused, o.lastErr)
	}
	return err
}

func (o *orders) Commit() (games.Move, error) {
	if !o.s.Placing() {
		if o.move != nil {
			return o.move, nil
		}
		if o.lastErr != nil {
			return nil, fmt.Errorf("no valid Shoot before #END (last one was %v)", o.lastErr)
		}
		return nil, errors.New("no Shoot before #END")
	}
	if len(o.refused) > 0 {
		more := ""
		if n := len(o.refused); n > 1 {
			more = fmt.Sprintf(" (and %d more refused)", n-1)
		}
		return nil, fmt.Errorf("illegal fleet: %v%s", o.refused[0], more)
	}
	if len(o.ships) == 0 && o.noFleet != "" {
		return nil, fmt.Errorf("no fleet: %s (the contest's runner reads %d arrays [x, y, length, :across or :down])", o.noFleet, len(o.s.fleet))
	}
	if len(o.ships) == 0 {
		why := fmt.Errorf("no PlaceShip before #END: place %d ships (%s)", len(o.s.fleet), lengths(o.s.fleet))
		if o.lastErr != nil {
			why = fmt.Errorf("%w; the last command was %v", why, o.lastErr)
		}
		return nil, why
	}
	if err := CheckFleet(o.s.w, o.s.h, o.s.fleet, o.ships); err != nil {
		return nil, fmt.Errorf("illegal fleet: %w", err)
	}
	m := make(games.Move, len(o.ships))
	for i, sh := range o.ships {
		m[i] = "PlaceShip " + sh.String()
	}
	return m, nil
}

// errWasted is checkShot's answer for a wasted shot.
var errWasted = errors.New("a wasted shot")

// decimal is a number as the contest's host writes one: digits, a
// fraction, an exponent. Compiled at its first use, not at every start
// of the judge's binary.
var decimal = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?$`)
})

// checkShot tells why Shoot with args cannot be played now. Under the
// contest's rules, args that are no cell but numbers inside the board
// are errWasted.
func (s *State) checkShot(args []string) (x, y int, err error) {
	x, y, err = parseShot(args)
	if err != nil && s.contest && s.wasted(args) {
		return -1, -1, errWasted
	}
	if err != nil {
		return 0, 0, err
	}
	if x >= s.w || y >= s.h {
		return 0, 0, fmt.Errorf("shot %d,%d is off the %d×%d board (cells 0..%d, 0..%d)", x, y, s.w, s.h, s.w-1, s.h-1)
	}
	return x, y, nil
}

// wasted reports whether args are a wasted shot under the contest's
// rules (Board#valid_move?): numbers, any count of them, each from 0 up
// to the board's size (the contest's board is square: the smaller side
// here), that are not a cell.
func (s *State) wasted(args []string) bool {
	size := float64(min(s.w, s.h))
	for _, a := range args {
		for _, f := range strings.Split(a, ",") {
			v, err := strconv.ParseFloat(f, 64)
			if !decimal().MatchString(f) || err != nil || v >= size {
				return false
			}
		}
	}
	return true
}

// Apply implements games.State.
func (s *State) Apply(moves map[int]games.Move) error {
	if s.out.Over {
		return errors.New("game is over")
	}
	if s.Placing() {
		var fleets [2][]Ship
		for seat := 0; seat < 2; seat++ {
			m, ok := moves[seat]
			if !ok {
				return fmt.Errorf("no fleet for seat %d", seat)
			}
			for _, line := range m {
				l := games.ParseLine(line)
				if l.Verb != "PlaceShip" {
					return fmt.Errorf("seat %d: %q is not PlaceShip", seat, line)
				}
				sh, err := ParseShip(l.Args)
				if err != nil {
					return fmt.Errorf("seat %d: %w", seat, err)
				}
				fleets[seat] = append(fleets[seat], sh)
			}
			if err := CheckFleet(s.w, s.h, s.fleet, fleets[seat]); err != nil {
				return fmt.Errorf("seat %d: %w", seat, err)
			}
		}
		for seat, f := range fleets {
			s.Place(seat, f)
		}
		s.turn++
		return nil
	}
	seat := s.ToMove()
	m, ok := moves[seat]
	if !ok || len(m) != 1 {
		return fmt.Errorf("want one move of seat %d, got %q", seat, m)
	}
	l := games.ParseLine(m[0])
	if l.Verb != "Shoot" {
		return fmt.Errorf("move %q is not Shoot", m[0])
	}
	x, y, err := s.checkShot(l.Args)
	switch {
	case err == errWasted:
		s.Waste()
		return nil
	case err != nil:
		return err
	}
	s.Fire(x, y)
	return nil
}

// Place sets seat's fleet, which must be legal (see CheckFleet). It does
// not end the placement turn; Apply does.
func (s *State) Place(seat int, ships []Ship) {
	sea := newSea(s.w, s.h)
	sea.ships = append([]Ship(nil), ships...)
	sea.hits = make([]int, len(ships))
	sea.afloat = len(ships)
	for i, sh := range ships {
		for j := 0; j < sh.Len; j++ {
			x, y := sh.Cell(j)
			sea.owner[y*s.w+x] = int16(i)
		}
	}
	s.seas[seat] = sea
}

// Fire fires the shot of the seat to move at (x, y), a cell of the grid,
// and ends the turn. It returns the result.
func (s *State) Fire(x, y int) Result {
	seat := s.ToMove()
	sea := &s.seas[1-seat]
	i := y*s.w + x
	r := Miss
	if o := sea.owner[i]; o >= 0 && !(s.arena && sea.hits[o] == sea.ships[o].Len) {
		r = Hit
		if !sea.shot[i] {
			sea.hitCells++
			sea.hits[o]++
			if sea.hits[o] == sea.ships[o].Len {
				r = Sunk
				sea.afloat--
			}
		}
	}
	sea.shot[i] = true
	s.shots[seat] = append(s.shots[seat], Shot{X: x, Y: y, Result: r})
	s.turn++
	s.afterShot(seat)
	return r
}

// Waste fires a wasted shot (see Game.Contest) for the seat to move: it
// hits nothing, counts as a shot and ends the turn.
func (s *State) Waste() {
	seat := s.ToMove()
	s.shots[seat] = append(s.shots[seat], Shot{X: -1, Y: -1, Result: Miss, Wasted: true})
	s.turn++
	s.afterShot(seat)
}

// afterShot ends the game when seat's shot sank the fleet or was the last
// of the cap.
func (s *State) afterShot(seat int) {
	sea := &s.seas[1-seat]
	switch {
	case sea.afloat == 0:
		s.finish(seat, fmt.Sprintf("seat %d sank the whole fleet of seat %d", seat, 1-seat))
	case len(s.shots[1]) == s.MaxShots():
		a, b := s.seas[1].hitCells, s.seas[0].hitCells
		why := fmt.Sprintf("each seat fired its %s; seat 0 hit %s, seat 1 hit %d", games.Plural(s.MaxShots(), "shot", "shots"), games.Plural(a, "ship cell", "ship cells"), b)
		switch {
		case a > b:
			s.finish(0, why)
		case b > a:
			s.finish(1, why)
		default:
			s.finish(-1, why)
		}
	}
}

func (s *State) finish(winner int, reason string) {
	s.out = games.Outcome{Over: true, Winner: winner, Scores: games.TwoPlayerScores(winner), Reason: reason}
}

// Forfeit implements games.State: the other seat wins. When both seats
// forfeit the same turn (both fleets illegal, say), both lose.
func (s *State) Forfeit(seat int) {
	if s.out.Over {
		if s.forfeitTurn == s.turn && s.out.Winner == seat {
			s.out = games.Outcome{Over: true, Winner: -1, Scores: []float64{0, 0}, Reason: "both seats forfeited"}
		}
		return
	}
	s.finish(1-seat, fmt.Sprintf("seat %d forfeited", seat))
	s.forfeitTurn = s.turn
}

// Outcome implements games.State.
func (s *State) Outcome() games.Outcome { return s.out }
