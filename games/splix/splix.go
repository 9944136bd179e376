// Package splix is a Splix-like territory game for 2 to 5 players who all
// move at the same time on a square board.
//
// Each player starts on a 5×5 square of its own land. Moving out of its
// land it draws a trail; coming back onto its land turns the trail into
// land and fills every area its land now encloses, other players' land
// included, unless another player's head is inside. Players die by moving
// off the board, by moving onto their own trail, by having their trail
// crossed, and in head-on collisions. A player scores 300 per kill plus the
// land it owns at the end; a player that dies scores 0.
//
// The rules are a pure step function: Next (and Apply, its in-place form)
// takes the state and one direction per living player and gives the next
// state. See docs/protocol/splix.md for the rules in full and the protocol:
// queries CurrentTurn, TurnsLeft, Params, MySeat, Position, Board, Trails,
// View, CellAt x y, Players; command Move N|E|S|W|LEFT|RIGHT|STRAIGHT.
//
// Coordinates: (0,0) is the south-west (bottom-left) corner, x grows east,
// y grows north. Grids are written with the northern row (y = size-1) first.
package splix

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"sync"

	"judge/games"
)

// Rules that the Splix king-of-the-hill contest fixes.
const (
	MaxPlayers = 5
	KillScore  = 300 // points for each player killed
	BaseRadius = 2   // a player starts on a (2r+1)×(2r+1) square of land
	ViewRadius = 10  // View shows (2r+1)×(2r+1) cells around the player
)

// Game is the splix game. The zero value is ready to use.
type Game struct{}

// Name implements games.Game.
func (Game) Name() string { return "splix" }

// Describe implements games.Game.
func (Game) Describe() string {
	return "Splix territory game, 2-5 players moving at once: enclose land, cut trails; 300×kills + land"
}

// Params implements games.Game.
func (Game) Params() []games.ParamSpec {
	return []games.ParamSpec{
		{Name: "size", Default: 64, Min: 10, Max: 200, Doc: "board side: cells 0..size-1 each way (the king-of-the-hill contest uses 200)"},
		{Name: "turns", Default: 2000, Min: 1, Max: 100000, Doc: "turns in a game (the king-of-the-hill contest uses 2000)"},
		{Name: "players", Default: 2, Min: 2, Max: MaxPlayers, Doc: "number of players (seats)"},
		{Name: "lag", Default: 0, Max: 1, Doc: "1: the contest's controller's rules, a cell becoming trail when the player leaves it; 0: the cell under the head is trail at once (the named games set 1)"},
	}
}

// New implements games.Game: start positions and headings come from seed.
func (g Game) New(p games.Params, seed uint64) (games.State, error) {
	p, err := games.Resolve(g.Params(), p)
	if err != nil {
		return nil, err
	}
	s, err := New(p["size"], p["turns"], p["players"], seed)
	if err != nil {
		return nil, err
	}
	s.lag = p["lag"] == 1
	return s, nil
}

// Dir is a direction of movement.
type Dir uint8

// The four directions, clockwise. North is y+1, East is x+1.
const (
	North Dir = iota
	East
	South
	West
)

var (
	dx = [4]int{0, 1, 0, -1}
	dy = [4]int{1, 0, -1, 0}
)

// Left is d turned a quarter to the left.
func (d Dir) Left() Dir { return (d + 3) % 4 }

// Right is d turned a quarter to the right.
func (d Dir) Right() Dir { return (d + 1) % 4 }

// Reverse is the opposite of d.
func (d Dir) Reverse() Dir { return (d + 2) % 4 }

// String is the direction's letter: N, E, S or W.
func (d Dir) String() string { return string("NESW"[d%4]) }

// ParseDir reads a direction: N, E, S, W (or NORTH, EAST, SOUTH, WEST), or
// LEFT, RIGHT, STRAIGHT relative to heading; case does not matter.
func ParseDir(word string, heading Dir) (Dir, error) {
	switch strings.ToUpper(word) {
	case "N", "NORTH":
		return North, nil
	case "E", "EAST":
		return East, nil
	case "S", "SOUTH":
		return South, nil
	case "W", "WEST":
		return West, nil
	case "LEFT":
		return heading.Left(), nil
	case "RIGHT":
		return heading.Right(), nil
	case "STRAIGHT":
		return heading, nil
	}
	return 0, fmt.Errorf("%q is not a direction (N, E, S, W, LEFT, RIGHT or STRAIGHT)", word)
}

// box is a rectangle of cells, x0..x1 × y0..y1; empty when x0 > x1.
type box struct{ x0, y0, x1, y1 int }

var noBox = box{x0: 1 << 30, y0: 1 << 30, x1: -1, y1: -1}

func (b *box) add(x, y int) {
	b.x0, b.x1 = min(b.x0, x), max(b.x1, x)
	b.y0, b.y1 = min(b.y0, y), max(b.y1, y)
}

// player is one seat.
type player struct {
	x, y  int // head; kept after death
	head  Dir // direction of the last move: what STRAIGHT repeats
	alive bool
	kills int
	land  int     // cells owned
	trail []int32 // cells of the trail, in the order drawn
	box   box     // holds every cell of its land (maybe more)
	death string  // how it died
	died  int     // the turn it died in
}

// State is a game in progress.
type State struct {
	n, turns int
	turn     int     // counted from 1
	owner    []uint8 // owner[y*n+x]: seat+1 of the land's owner, 0 for none
	trail    []uint8 // trail[y*n+x]: seat+1 of the trail's player, 0 for none
	p        []player
	out      games.Outcome
	// lag plays the contest controller's rules (see lag.go): a cell
	// becomes trail when the player leaves it, not when it steps on it.
	lag  bool
	slow bool     // fill with the slow reference (tests)
	sc   *scratch // flood-fill buffers; never shared between states
	// The answers to Board and Trails, the same for every seat, and to
	// each seat's View, drawn at most once a turn, when first asked for:
	// five bots asking for a 200×200 board each turn ask for 40 KB five
	// times, and bots that never ask cost nothing.
	texts *gridTexts
}

// gridTexts are the board's drawings for one turn. Seats moving at once
// query the state at once: each drawing is made once, guarded.
type gridTexts struct {
	boardOnce, trailsOnce sync.Once
	board, trails         string
	// Each seat's View, drawn once a turn too.
	viewOnce [MaxPlayers]sync.Once
	views    [MaxPlayers]string
}

// boardText is the answer to Board.
func (s *State) boardText() string {
	t := s.texts
	t.boardOnce.Do(func() { t.board = s.grid(s.owner) })
	return t.board
}

// trailsText is the answer to Trails.
func (s *State) trailsText() string {
	t := s.texts
	t.trailsOnce.Do(func() { t.trails = s.grid(s.trail) })
	return t.trails
}

// New starts a size×size game of players players lasting turns turns,
// with start positions and headings drawn from seed. Bases are 5×5 squares
// that do not overlap; 5 players need size >= 15.
func New(size, turns, players int, seed uint64) (*State, error) {
	if players < 1 || players > MaxPlayers {
		return nil, fmt.Errorf("%d players: want 1..%d", players, MaxPlayers)
	}
	if size < 2*BaseRadius+1 {
		return nil, fmt.Errorf("size %d is too small", size)
	}
	rng := rand.New(rand.NewPCG(seed, 0x5eed5711c))
	centers, err := starts(rng, size, players)
	if err != nil {
		return nil, err
	}
	s := empty(size, turns, players)
	for i, c := range centers {
		p := &s.p[i]
		p.x, p.y, p.alive = c[0], c[1], true
		p.head = Dir(rng.IntN(4))
		for y := c[1] - BaseRadius; y <= c[1]+BaseRadius; y++ {
			for x := c[0] - BaseRadius; x <= c[0]+BaseRadius; x++ {
				s.setOwner(y*size+x, uint8(i+1))
			}
		}
	}
	s.settle()
	return s, nil
}

func empty(size, turns, players int) *State {
	s := &State{
		n: size, turns: turns, turn: 1,
		owner: make([]uint8, size*size),
		trail: make([]uint8, size*size),
		p:     make([]player, players),
	}
	for i := range s.p {
		s.p[i].box = noBox
	}
	s.out.Winner = -1
	return s
}

// starts picks the centers of the players' bases: inside the board and at
// least 5 cells apart each way (so bases do not overlap), spread further
// when the board allows.
func starts(rng *rand.Rand, size, k int) ([][2]int, error) {
	lo, hi := BaseRadius, size-1-BaseRadius // centers in lo..hi
	span := hi - lo + 1
	apart := func(pts [][2]int, c [2]int, d int) bool {
		for _, q := range pts {
			if max(abs(q[0]-c[0]), abs(q[1]-c[1])) < d {
				return false
			}
		}
		return true
	}
	for _, d := range []int{max(2*BaseRadius+1, size/4), 2*BaseRadius + 1} {
		for attempt := 0; attempt < 50; attempt++ {
			var pts [][2]int
			for tries := 0; tries < 200 && len(pts) < k; tries++ {
				c := [2]int{lo + rng.IntN(span), lo + rng.IntN(span)}
				if apart(pts, c, d) {
					pts = append(pts, c)
				}
			}
			if len(pts) == k {
				return pts, nil
			}
		}
	}
	// A grid of bases side by side: always enough when it holds k.
	step := 2*BaseRadius + 1
	var grid [][2]int
	for y := lo; y <= hi; y += step {
		for x := lo; x <= hi; x += step {
			grid = append(grid, [2]int{x, y})
		}
	}
	if len(grid) < k {
		return nil, fmt.Errorf("a %d×%d board has no room for %d bases of %d×%d", size, size, k, step, step)
	}
	rng.Shuffle(len(grid), func(i, j int) { grid[i], grid[j] = grid[j], grid[i] })
	return grid[:k], nil
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// Clone returns an independent copy.
func (s *State) Clone() *State {
	c := *s
	c.owner = append([]uint8(nil), s.owner...)
	c.trail = append([]uint8(nil), s.trail...)
	c.p = append([]player(nil), s.p...)
	for i := range c.p {
		c.p[i].trail = append([]int32(nil), s.p[i].trail...)
	}
	c.out.Scores = append([]float64(nil), s.out.Scores...)
	c.sc = nil
	c.texts = &gridTexts{}
	return &c
}

// Size is the side of the board.
func (s *State) Size() int { return s.n }

// Owner is the seat owning (x, y), or -1.
func (s *State) Owner(x, y int) int { return int(s.owner[y*s.n+x]) - 1 }

// TrailAt is the seat whose trail covers (x, y), or -1.
func (s *State) TrailAt(x, y int) int { return int(s.trail[y*s.n+x]) - 1 }

// Head is where seat's head is, where it heads, and whether it is alive.
func (s *State) Head(seat int) (x, y int, d Dir, alive bool) {
	p := &s.p[seat]
	return p.x, p.y, p.head, p.alive
}

// Land is the number of cells seat owns.
func (s *State) Land(seat int) int { return s.p[seat].land }

// Kills is the number of players seat has killed.
func (s *State) Kills(seat int) int { return s.p[seat].kills }

// Score is what seat would score if the game ended now.
func (s *State) Score(seat int) int {
	p := &s.p[seat]
	if !p.alive {
		return 0
	}
	return KillScore*p.kills + p.land
}

// Seats implements games.State.
func (s *State) Seats() int { return len(s.p) }

// Turn implements games.State.
func (s *State) Turn() int { return s.turn }

// Movers implements games.State: every living player.
func (s *State) Movers() []int {
	if s.out.Over {
		return nil
	}
	var m []int
	for i := range s.p {
		if s.p[i].alive {
			m = append(m, i)
		}
	}
	return m
}

// Query implements games.State.
func (s *State) Query(seat int, l games.Line) (string, error) {
	switch l.Verb {
	case "CurrentTurn":
		return strconv.Itoa(s.turn), nil
	case "TurnsLeft":
		return strconv.Itoa(max(0, s.turns-s.turn+1)), nil
	case "Params":
		return fmt.Sprintf("%d %d %d", s.n, s.turns, len(s.p)), nil
	case "MySeat":
		return strconv.Itoa(seat), nil
	case "Position":
		p := &s.p[seat]
		if !p.alive {
			return "-1 -1 " + p.head.String(), nil
		}
		return fmt.Sprintf("%d %d %s", p.x, p.y, p.head), nil
	case "Board":
		return s.boardText(), nil
	case "Trails":
		return s.trailsText(), nil
	case "View":
		t := s.texts
		t.viewOnce[seat].Do(func() { t.views[seat] = s.view(seat) })
		return t.views[seat], nil
	case "CellAt":
		return s.cellAt(l.Args), nil
	case "Players":
		return s.players(seat), nil
	case "LastMove":
		return s.lastMoves(seat), nil
	}
	return "", games.ErrNotQuery
}

// Queries implements games.Verbs.
func (s *State) Queries() []string {
	return []string{"CurrentTurn", "TurnsLeft", "Params", "MySeat", "Position", "Board", "Trails", "View", "CellAt", "Players", "LastMove"}
}

// Commands implements games.Verbs.
func (s *State) Commands() []string { return []string{"Move"} }

// grid writes a per-cell seat layer, northern row first: '.' for none,
// the seat's digit otherwise.
func (s *State) grid(layer []uint8) string {
	n := s.n
	var b strings.Builder
	b.Grow((n+1)*n - 1)
	row := make([]byte, n+1)
	row[n] = '\n'
	for y := n - 1; y >= 0; y-- {
		for x, v := range layer[y*n : y*n+n] {
			row[x] = seatChars[v]
		}
		if y == 0 {
			row = row[:n]
		}
		b.Write(row)
	}
	return b.String()
}

var seatChars = [...]byte{'.', '0', '1', '2', '3', '4'}

func seatChar(v uint8) byte { return seatChars[v] }

// sees reports whether seat's view shows (x, y).
func (s *State) sees(seat, x, y int) bool {
	p := &s.p[seat]
	return abs(p.x-x) <= ViewRadius && abs(p.y-y) <= ViewRadius
}

// glyph is one cell as View and Render draw it: the head of a player (A-E),
// else a trail (a-e), else land (0-4), else '.'.
func (s *State) glyph(x, y int, heads bool) byte {
	if heads {
		for j := range s.p {
			if q := &s.p[j]; q.alive && q.x == x && q.y == y {
				return 'A' + byte(j)
			}
		}
	}
	c := y*s.n + x
	if t := s.trail[c]; t != 0 {
		return 'a' + t - 1
	}
	return seatChar(s.owner[c])
}

// view is the square of side 2*ViewRadius+1 centred on seat's head,
// northern row first, '#' off the board.
func (s *State) view(seat int) string {
	p := &s.p[seat]
	side := 2*ViewRadius + 1
	b := make([]byte, 0, (side+1)*side)
	for y := p.y + ViewRadius; y >= p.y-ViewRadius; y-- {
		if y < p.y+ViewRadius {
			b = append(b, '\n')
		}
		for x := p.x - ViewRadius; x <= p.x+ViewRadius; x++ {
			if x < 0 || y < 0 || x >= s.n || y >= s.n {
				b = append(b, '#')
				continue
			}
			b = append(b, s.glyph(x, y, true))
		}
	}
	return string(b)
}

func (s *State) cellAt(args []string) string {
	x, y, ok := games.ParseXY(args)
	if !ok || x < 0 || y < 0 || x >= s.n || y >= s.n {
		return "!"
	}
	c := y*s.n + x
	return string([]byte{seatChar(s.owner[c]), ' ', seatChar(s.trail[c])})
}

// players is one line per seat: seat, alive or dead, head position (-1 -1
// when dead or out of the asker's view), land, kills, score.
func (s *State) players(seat int) string {
	var b strings.Builder
	me := &s.p[seat]
	for j := range s.p {
		q := &s.p[j]
		if j > 0 {
			b.WriteByte('\n')
		}
		state, x, y := "dead", -1, -1
		if q.alive {
			state = "alive"
			if j == seat || me.alive && s.sees(seat, q.x, q.y) {
				x, y = q.x, q.y
			}
		}
		fmt.Fprintf(&b, "%d %s %d %d %d %d %d", j, state, x, y, q.land, q.kills, s.Score(j))
	}
	return b.String()
}

// lastMoves is one line per seat: the seat and the direction of its last
// move, for the seats whose head Players shows (else "-"; "-" too before
// the first move and for the dead).
func (s *State) lastMoves(seat int) string {
	var b strings.Builder
	me := &s.p[seat]
	for j := range s.p {
		q := &s.p[j]
		if j > 0 {
			b.WriteByte('\n')
		}
		d := "-"
		if s.turn > 1 && q.alive && (j == seat || me.alive && s.sees(seat, q.x, q.y)) {
			d = q.head.String()
		}
		fmt.Fprintf(&b, "%d %s", j, d)
	}
	return b.String()
}

// Render implements games.State: the board as View draws it (every head
// shown), then one line per player.
func (s *State) Render() string {
	var b strings.Builder
	for y := s.n - 1; y >= 0; y-- {
		for x := 0; x < s.n; x++ {
			b.WriteByte(s.glyph(x, y, true))
		}
		b.WriteByte('\n')
	}
	fmt.Fprintf(&b, "turn %d of %d\n", min(s.turn, s.turns), s.turns)
	for j := range s.p {
		p := &s.p[j]
		if p.alive {
			fmt.Fprintf(&b, "%c seat %d: at %d %d heading %s, land %d, kills %d, trail %d, score %d\n",
				'A'+j, j, p.x, p.y, p.head, p.land, p.kills, len(p.trail), s.Score(j))
		} else {
			fmt.Fprintf(&b, "%c seat %d: dead in turn %d (%s), kills %d, score 0\n", 'A'+j, j, p.died, p.death, p.kills)
		}
	}
	return b.String()
}

// Orders implements games.State.
func (s *State) Orders(seat int) games.Orders { return &orders{s: s, seat: seat} }

type orders struct {
	s    *State
	seat int
	dir  Dir
	set  bool
}

func (o *orders) Command(l games.Line) error {
	if l.Verb != "Move" {
		return fmt.Errorf("%q: %w", l.Verb, games.ErrUnknown)
	}
	d, err := o.s.parseMove(o.seat, l.Args)
	if err != nil {
		return err
	}
	o.dir, o.set = d, true
	return nil
}

// Commit gives the last valid Move; with none the player keeps going
// straight. The move is always an absolute direction.
func (o *orders) Commit() (games.Move, error) {
	d := o.s.p[o.seat].head
	if o.set {
		d = o.dir
	}
	return games.Move{"Move " + d.String()}, nil
}

func (s *State) parseMove(seat int, args []string) (Dir, error) {
	if len(args) != 1 {
		return 0, fmt.Errorf("want one direction, got %d words", len(args))
	}
	return ParseDir(args[0], s.p[seat].head)
}

// Apply implements games.State: moves holds one move of every living
// player.
func (s *State) Apply(moves map[int]games.Move) error {
	if s.out.Over {
		return errors.New("game is over")
	}
	dirs, err := s.dirs(moves)
	if err != nil {
		return err
	}
	s.step(dirs)
	return nil
}

func (s *State) dirs(moves map[int]games.Move) ([]Dir, error) {
	dirs := make([]Dir, len(s.p))
	for seat := range moves {
		if seat < 0 || seat >= len(s.p) || !s.p[seat].alive {
			return nil, fmt.Errorf("a move for seat %d, which is not playing", seat)
		}
	}
	for i := range s.p {
		if !s.p[i].alive {
			continue
		}
		m, ok := moves[i]
		if !ok || len(m) != 1 {
			return nil, fmt.Errorf("want one move of seat %d, got %q", i, m)
		}
		l := games.ParseLine(m[0])
		if l.Verb != "Move" {
			return nil, fmt.Errorf("move %q is not Move", m[0])
		}
		d, err := s.parseMove(i, l.Args)
		if err != nil {
			return nil, fmt.Errorf("seat %d: %w", i, err)
		}
		dirs[i] = d
	}
	return dirs, nil
}

// Next is the pure step function: the state after every living player
// moves in its direction of dirs (indexed by seat; dead seats' entries
// are ignored). s is not changed.
func (s *State) Next(dirs []Dir) *State {
	c := s.Clone()
	c.step(dirs)
	return c
}

// Forfeit implements games.State: the player dies (no one is credited
// with the kill) and the game goes on for the others.
func (s *State) Forfeit(seat int) {
	if s.out.Over || seat < 0 || seat >= len(s.p) || !s.p[seat].alive {
		return
	}
	if s.lag {
		area := s.killArea(seat, "left the game")
		for i := range s.p {
			s.fillNear(i, area)
		}
		s.settle()
		return
	}
	s.kill(seat, "left the game")
	for i := range s.p {
		if s.p[i].alive {
			s.fill(i)
		}
	}
	s.settle()
}

// Outcome implements games.State.
func (s *State) Outcome() games.Outcome { return s.out }

// settle draws the answers that are the same for every seat, and ends the
// game when the turns are played or no one is alive. Every change of the
// board ends with it.
func (s *State) settle() {
	s.texts = &gridTexts{}
	alive := 0
	for i := range s.p {
		if s.p[i].alive {
			alive++
		}
	}
	switch {
	case alive == 0:
		s.finish("every player died")
	case s.turn > s.turns:
		s.finish(fmt.Sprintf("all %d turns were played", s.turns))
	}
}

func (s *State) finish(reason string) {
	o := games.Outcome{Over: true, Winner: -1, Reason: reason, Scores: make([]float64, len(s.p)), Notes: make([]string, len(s.p))}
	best, count := -1, 0
	for i := range s.p {
		sc := s.Score(i)
		o.Scores[i] = float64(sc)
		if p := &s.p[i]; !p.alive {
			o.Notes[i] = fmt.Sprintf("killed in turn %d (%s): a player that dies scores 0 for the round", p.died, p.death)
		}
		switch {
		case sc > best:
			best, count, o.Winner = sc, 1, i
		case sc == best:
			count++
		}
	}
	if count != 1 {
		o.Winner = -1
	}
	s.out = o
}
