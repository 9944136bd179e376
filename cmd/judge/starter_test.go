package main

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"judge/games"
	"judge/games/catalog"
	"judge/judge"
	"judge/judge/goplayer"
	"judge/judge/judgetest"
	"judge/judge/procbot"
)

// TestStarterReadsThePosition plays every starter bot, written by new-bot
// and built as it tells, from a position where what the bot reads of the
// board decides its move: the one move its own strategy can make there.
// A starter that parses a board in the wrong order, swaps x and y, counts
// y from the wrong edge or steps the wrong way plays another move, or none.
// The one cell it asks about (SymbolAt, CellAt) must be the one its
// comment names, in the game's coordinates.
func TestStarterReadsThePosition(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and plays 24 bots")
	}
	root := judgetest.Root(t)
	for _, lang := range starterLangNames() {
		t.Run(lang, func(t *testing.T) {
			judgetest.NeedTools(t, starterTools[lang]...)
			built := map[string]procbot.Spec{}
			for _, c := range starterPositions(t) {
				bot, ok := built[c.variant]
				if !ok {
					dir := filepath.Join(openTempDir(t), c.variant)
					if code, _, errs := run(t, "new-bot", "--game", c.variant, "--lang", lang, dir); code != 0 {
						t.Fatalf("new-bot %s: exit %d: %s", c.variant, code, errs)
					}
					bot = buildStarter(t, root, dir, lang)
					built[c.variant] = bot
				}
				got, asked, res := playFrom(t, c, bot)
				if got != c.want {
					t.Errorf("%s: the starter played %q, want %q (%s)\nseat 0: %s: %s",
						c.name, got, c.want, c.why, res.Players[0].Status, res.Players[0].Reason)
				}
				if asked != c.cell {
					t.Errorf("%s: the starter's one-cell query is %q, want %q (%s)", c.name, asked, c.cell, c.cellWhy)
				}
			}
		})
	}
}

// starterPosition is a game brought to a position by scripted moves, where
// the starter bot, in seat 0, moves next.
type starterPosition struct {
	name    string
	variant string
	params  games.Params
	seed    uint64
	// script plays the moves that lead to the position: it returns the
	// commands of every mover of the state's turn, or nil once the
	// position is reached.
	script func(st games.State) map[int][]string
	// other is what seat 1 sends on each of its turns of the match.
	other func(turn int) []string
	want  string // the starter's first move, its commands joined by "; "
	why   string
	// cell is the one-cell query the starter asks first (SymbolAt or
	// CellAt), about the cell its comment names.
	cell, cellWhy string
}

// turns is a script of fixed moves, one map per turn.
func turns(moves ...map[int][]string) func(games.State) map[int][]string {
	i := 0
	return func(games.State) map[int][]string {
		if i == len(moves) {
			return nil
		}
		i++
		return moves[i-1]
	}
}

// alternate is a script of a two-player game where seats 0 and 1 take
// turns, seat 0 first, one command each.
func alternate(cmds ...string) func(games.State) map[int][]string {
	var ms []map[int][]string
	for i, c := range cmds {
		ms = append(ms, map[int][]string{i % 2: {c}})
	}
	return turns(ms...)
}

func starterPositions(t *testing.T) []starterPosition {
	t.Helper()
	var shots []string
	for _, c := range []string{"0 0", "1 0", "2 0", "3 0", "0 1", "1 1", "2 1"} {
		shots = append(shots, "Shoot "+c, "Shoot 3 1")
	}
	fire := []map[int][]string{{0: {"PlaceShip 0,0-1,0"}, 1: {"PlaceShip 2,1-3,1"}}}
	for i, s := range shots {
		fire = append(fire, map[int][]string{i % 2: {s}})
	}
	ship2 := games.Params{"width": 4, "height": 2, "ship1": 0, "ship2": 1, "ship3": 0, "ship4": 0, "ship5": 0, "ship6": 0}
	ship3 := games.Params{"width": 2, "height": 4, "ship1": 0, "ship2": 0, "ship3": 1, "ship4": 0, "ship5": 0, "ship6": 0}
	return []starterPosition{{
		name:    "tictactoe, one empty cell",
		variant: "tictactoe",
		// X O X
		// O O -
		// X X O
		script: alternate("PlaceSymbol 0 0", "PlaceSymbol 1 0", "PlaceSymbol 2 0", "PlaceSymbol 0 1",
			"PlaceSymbol 0 2", "PlaceSymbol 1 1", "PlaceSymbol 1 2", "PlaceSymbol 2 2"),
		want: "PlaceSymbol 2 1",
		why:  "(2,1) is the only empty cell; (1,2) is taken",
		cell: "SymbolAt 1 1", cellWhy: "the centre",
	}, {
		name:    "connect4, one column open",
		variant: "connect4",
		params:  games.Params{"width": 3, "height": 3, "k": 3},
		// y=2  X O -
		// y=1  O X X
		// y=0  X O O
		script: alternate("DropDisc 0", "DropDisc 1", "DropDisc 1", "DropDisc 0",
			"DropDisc 0", "DropDisc 2", "DropDisc 2", "DropDisc 1"),
		want: "DropDisc 2",
		why:  "only column 2 has an empty top cell (y = 2, counted from the bottom); the bottom row is full",
		cell: "SymbolAt 0 0", cellWhy: "the bottom-left cell: y counts from the bottom",
	}, {
		name:    "battleship, one cell not shot",
		variant: "battleship",
		params:  ship2,
		script:  turns(fire...),
		other:   func(int) []string { return []string{"Shoot 3 1"} },
		want:    "Shoot 3 1",
		why:     "on a 4×2 grid every cell but (3,1) has been shot",
		cell:    "SymbolAt 0 0", cellWhy: "the corner",
	}, {
		name:    "battleship, a ship that fits only down",
		variant: "battleship",
		params:  ship3,
		script:  turns(),
		other: func(turn int) []string {
			if turn == 1 {
				return []string{"PlaceShip 1,1-1,3"}
			}
			return []string{fmt.Sprintf("Shoot %d %d", turn/2%2, turn/4%4)}
		},
		want: "PlaceShip 0,0-0,2",
		why:  "on a 2×4 grid a ship of length 3 fits down column 0 (x first), not across",
		cell: "SymbolAt 0 0", cellWhy: "the corner",
	}, splixCorner(t)}
}

// splixCorner brings seat 0 of a two-player splix-small game to the
// north-west corner, heading west along the northern edge with its trail
// behind it: south is its one safe move. Seat 1 turns left for ever, on
// its own land. The seed is the first whose starts keep the two apart.
func splixCorner(t *testing.T) starterPosition {
	t.Helper()
	v, err := catalog.Lookup("splix-small")
	if err != nil {
		t.Fatal(err)
	}
	params, err := v.Resolve(games.Params{"players": 2})
	if err != nil {
		t.Fatal(err)
	}
	size := params["size"]
	for seed := uint64(1); seed < 500; seed++ {
		st, err := v.Game.New(params, seed)
		if err != nil {
			t.Fatal(err)
		}
		x0, y0 := splixHead(t, st, 0)
		x1, y1 := splixHead(t, st, 1)
		// Seat 0 goes north up column x0, then west along the top row:
		// its land must not reach the top row, and seat 1's land (5×5)
		// must stay clear of that path.
		if x0 < 2 || y0+2 >= size-1 {
			continue
		}
		if y1+3 >= size-1 || (x1+3 >= x0 && x1-3 <= x0 && y1+3 >= y0) {
			continue
		}
		return starterPosition{
			name:    "splix-small, the north-west corner",
			variant: "splix-small",
			params:  games.Params{"players": 2},
			seed:    seed,
			script: func(st games.State) map[int][]string {
				x, y := splixHead(t, st, 0)
				m := map[int][]string{1: {"Move LEFT"}}
				switch {
				case y < size-1:
					m[0] = []string{"Move N"}
				case x > 0:
					m[0] = []string{"Move W"}
				default:
					return nil
				}
				return m
			},
			other: func(int) []string { return []string{"Move LEFT"} },
			want:  "Move S",
			why:   "at (0,size-1) heading west, north and west leave the board and east is its own trail",
			cell:  fmt.Sprintf("CellAt 0 %d", size-1), cellWhy: "the cell of its head",
		}
	}
	t.Fatal("no seed keeps the two splix players apart")
	return starterPosition{}
}

// splixHead is where seat's head is.
func splixHead(t *testing.T, st games.State, seat int) (x, y int) {
	t.Helper()
	a, err := st.Query(seat, games.ParseLine("Position"))
	if err != nil {
		t.Fatal(err)
	}
	var d string
	if _, err := fmt.Sscan(a, &x, &y, &d); err != nil {
		t.Fatalf("Position: %q: %v", a, err)
	}
	return x, y
}

// playFrom brings c's game to its position, plays bot in seat 0 from
// there with the judge, and returns the bot's first move and its first
// one-cell query.
func playFrom(t *testing.T, c starterPosition, bot procbot.Spec) (move, cell string, res *judge.Result) {
	t.Helper()
	v, err := catalog.Lookup(c.variant)
	if err != nil {
		t.Fatal(err)
	}
	params, err := v.Resolve(c.params)
	if err != nil {
		t.Fatal(err)
	}
	g := &positionGame{Game: v.Game, t: t, script: c.script}
	other := c.other
	if other == nil {
		other = func(int) []string { return nil }
	}
	m := judge.Match{Game: g, Name: v.Name, Params: params, Seed: c.seed, Limits: judge.DefaultTurnLimits,
		Entrants: []judge.Entrant{procbot.Bot{Spec: bot, Options: judgetest.Proc(procbot.Options{})}, scripted{other}}, Trace: true}
	m.Limits.FirstTurn = 20 * time.Second // a JVM on a busy machine
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	res, err = judge.Run(ctx, m)
	if err != nil {
		t.Fatalf("%s: %v", c.name, err)
	}
	if g.st == nil {
		t.Fatalf("%s: the game did not start", c.name)
	}
	for _, l := range res.Replay.Bots[0].Trace {
		if v := games.ParseLine(l.Line).Verb; l.Dir == "out" && (v == "SymbolAt" || v == "CellAt") {
			cell = l.Line
			break
		}
	}
	return g.st.first(), cell, res
}

// positionGame is a game whose New plays a script first.
type positionGame struct {
	games.Game
	t      *testing.T
	script func(games.State) map[int][]string
	st     *recording
}

func (g *positionGame) New(p games.Params, seed uint64) (games.State, error) {
	st, err := g.Game.New(p, seed)
	if err != nil {
		return nil, err
	}
	for cmds := g.script(st); cmds != nil; cmds = g.script(st) {
		moves := map[int]games.Move{}
		for _, seat := range st.Movers() {
			o := st.Orders(seat)
			for _, c := range cmds[seat] {
				if err := o.Command(games.ParseLine(c)); err != nil {
					return nil, fmt.Errorf("turn %d, seat %d: %s: %w", st.Turn(), seat, c, err)
				}
			}
			mv, err := o.Commit()
			if err != nil {
				return nil, fmt.Errorf("turn %d, seat %d: %w", st.Turn(), seat, err)
			}
			moves[seat] = mv
		}
		if err := st.Apply(moves); err != nil {
			return nil, err
		}
		if st.Outcome().Over {
			return nil, fmt.Errorf("turn %d: the script ended the game: %s", st.Turn(), st.Outcome().Reason)
		}
	}
	if m := st.Movers(); len(m) == 0 || m[0] != 0 {
		return nil, fmt.Errorf("turn %d: seat 0 does not move (movers %v)", st.Turn(), m)
	}
	g.st = &recording{State: st}
	return g.st, nil
}

// recording is a state that keeps seat 0's first move.
type recording struct {
	games.State
	mu    sync.Mutex
	moves []games.Move
}

func (r *recording) Apply(moves map[int]games.Move) error {
	r.mu.Lock()
	if mv, ok := moves[0]; ok {
		r.moves = append(r.moves, mv)
	}
	r.mu.Unlock()
	return r.State.Apply(moves)
}

func (r *recording) first() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.moves) == 0 {
		return "(no move)"
	}
	return strings.Join(r.moves[0], "; ")
}

// scripted is an entrant that sends send(turn)'s commands on each turn.
type scripted struct{ send func(turn int) []string }

func (s scripted) Info() (judge.BotInfo, error) {
	return judge.BotInfo{Name: "scripted", Command: []string{"go:scripted"}}, nil
}

func (s scripted) Start(context.Context, judge.Seat) (judge.Player, error) {
	return goplayer.Start(func(ctx context.Context, c *goplayer.Conn) error {
		for {
			a, err := c.Ask("CurrentTurn")
			if err != nil {
				return err
			}
			var turn int
			fmt.Sscan(a, &turn)
			for _, l := range s.send(turn) {
				if err := c.Send(l); err != nil {
					return err
				}
			}
			if err := c.End(); err != nil {
				return err
			}
		}
	}, goplayer.Options{}), nil
}
