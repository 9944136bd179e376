package battleship_test

import (
	"errors"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"judge/games"
	"judge/games/battleship"
	"judge/games/gametest"
)

var std = [battleship.MaxLen + 1]int{2: 1, 3: 2, 4: 1, 5: 1}

func newGame(t testing.TB, w, h int, counts [battleship.MaxLen + 1]int) *battleship.State {
	t.Helper()
	s, err := battleship.New(w, h, counts)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func fleetMove(ships []battleship.Ship) games.Move {
	m := games.Move{}
	for _, s := range ships {
		m = append(m, "PlaceShip "+s.String())
	}
	return m
}

// commit runs lines through seat's orders and returns the move or error.
func commit(s *battleship.State, seat int, lines ...string) (games.Move, error) {
	o := s.Orders(seat)
	for _, l := range lines {
		o.Command(games.ParseLine(l))
	}
	return o.Commit()
}

func TestFleetRules(t *testing.T) {
	// The example fleet of botsarena's documentation.
	example := []string{"3,3-3,7", "2,1-2,4", "0,1-0,3", "7,3-7,1", "8,8-7,8"}
	with := func(repl map[int]string, extra ...string) []string {
		out := []string{}
		for i, s := range example {
			if r, ok := repl[i]; ok {
				if r == "" {
					continue
				}
				s = r
			}
			out = append(out, s)
		}
		return append(out, extra...)
	}
	tests := []struct {
		name  string
		ships []string
		err   string
	}{
		{"botsarena example", example, ""},
		{"ends in either order", with(map[int]string{0: "3,7-3,3"}), ""},
		{"x y length orientation", with(map[int]string{0: "3 3 5 down", 4: "7 8 2 across"}), ""},
		{"overlap", with(map[int]string{3: "1,2-3,2"}),
			"illegal fleet: ship 1,2-3,2 overlaps ship 2,1-2,4 at 2,2"},
		{"off the board", with(map[int]string{4: "9,8-10,8"}),
			"illegal fleet: PlaceShip 9,8-10,8: ship 9,8-10,8 leaves the 10×10 board (cells 0..9, 0..9)"},
		{"off the board, other notation", with(map[int]string{0: "3 6 5 down"}),
			"illegal fleet: PlaceShip 3 6 5 down: ship 3,6-3,10 leaves the 10×10 board (cells 0..9, 0..9)"},
		{"missing ship", with(map[int]string{4: ""}),
			"illegal fleet: 1 ship of length 2 missing: the fleet has 1 (lengths 5 4 3 3 2), 0 placed"},
		{"one too many", with(nil, "9,0-9,1"),
			"illegal fleet: ship 9,0-9,1 is one ship of length 2 too many: the fleet has 1 (lengths 5 4 3 3 2)"},
		{"wrong length", with(map[int]string{4: "8,8-6,8"}),
			"illegal fleet: ship 6,8-8,8 is one ship of length 3 too many: the fleet has 2 (lengths 5 4 3 3 2)"},
		{"diagonal", with(map[int]string{4: "8,8-9,9"}),
			"illegal fleet: PlaceShip 8,8-9,9: ship 8,8-9,9 is not straight: its ends must share a row or a column"},
		{"too long", with(map[int]string{0: "0,9-6,9"}),
			"illegal fleet: PlaceShip 0,9-6,9: ship 0,9-6,9 is 7 cells long; the longest is 6"},
		{"no ships", nil, "no PlaceShip before #END: place 5 ships (lengths 5 4 3 3 2)"},
		{"garbage", with(nil, "1;2-3;4"),
			`illegal fleet: PlaceShip 1;2-3;4: ship "1;2-3;4": want two ends x1,y1-x2,y2 with whole numbers from 0`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newGame(t, 10, 10, std)
			var lines []string
			for _, sh := range tt.ships {
				lines = append(lines, "PlaceShip "+sh)
			}
			m, err := commit(s, 0, lines...)
			if got := errString(err); got != tt.err {
				t.Fatalf("got %q, want %q", got, tt.err)
			}
			if err == nil {
				other, _ := battleship.RandomFleet(10, 10, s.FleetLengths(), rand.New(rand.NewPCG(1, 1)))
				if err := s.Apply(map[int]games.Move{0: m, 1: fleetMove(other)}); err != nil {
					t.Fatalf("Apply(%q): %v", m, err)
				}
			}
		})
	}
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// parseFleet reads ships drawn as text: letters a, b, c... mark the cells
// of one ship each, '-' is water.
func parseFleet(t *testing.T, board string) []battleship.Ship {
	t.Helper()
	cells := map[byte][][2]int{}
	var order []byte
	for y, row := range strings.Split(strings.TrimSpace(board), "\n") {
		row = strings.ReplaceAll(strings.TrimSpace(row), " ", "")
		for x := 0; x < len(row); x++ {
			if c := row[x]; c != '-' {
				if cells[c] == nil {
					order = append(order, c)
				}
				cells[c] = append(cells[c], [2]int{x, y})
			}
		}
	}
	var ships []battleship.Ship
	for _, c := range order {
		cs := cells[c]
		a, b := cs[0], cs[len(cs)-1]
		sh, err := battleship.ParseShip([]string{strconv.Itoa(a[0]) + "," + strconv.Itoa(a[1]) + "-" + strconv.Itoa(b[0]) + "," + strconv.Itoa(b[1])})
		if err != nil || sh.Len != len(cs) {
			t.Fatalf("ship %c: %v", c, err)
		}
		ships = append(ships, sh)
	}
	return ships
}

func TestShooting(t *testing.T) {
	s := newGame(t, 5, 4, [battleship.MaxLen + 1]int{1: 1, 2: 1, 3: 1})
	mine := parseFleet(t, `
		a - - - -
		- - - - b
		- - - - b
		c c c - -`)
	theirs := parseFleet(t, `
		a a - - -
		- - - - b
		- - c - b
		- - - - b`)
	if err := s.Apply(map[int]games.Move{0: fleetMove(mine), 1: fleetMove(theirs)}); err != nil {
		t.Fatal(err)
	}
	ask := func(seat int, q, want string) {
		t.Helper()
		got, err := s.Query(seat, games.ParseLine(q))
		if err != nil || got != want {
			t.Fatalf("turn %d: seat %d: %s = %q, %v; want %q", s.Turn(), seat, q, got, err, want)
		}
	}
	shoot := func(seat int, shot, want string) {
		t.Helper()
		if s.ToMove() != seat {
			t.Fatalf("turn %d: seat %d to move, want %d", s.Turn(), s.ToMove(), seat)
		}
		m, err := commit(s, seat, "Shoot "+shot)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Apply(map[int]games.Move{seat: m}); err != nil {
			t.Fatal(err)
		}
		sh := s.Shots(seat)
		if got := sh[len(sh)-1].Result.String(); got != want {
			t.Fatalf("Shoot %s: %s, want %s", shot, got, want)
		}
	}
	ask(0, "Phase", "fire")
	ask(0, "LastShot", "-1 -1 none")
	ask(1, "LastMove", "-1 -1")
	ask(0, "ShipsRemaining", "3 2 1")
	ask(0, "MyShips", "3\n0,0-0,0\n4,1-4,2\n0,3-2,3")
	shoot(0, "0 0", "hit")
	shoot(1, "0,0", "sunk")
	shoot(0, "1,0", "sunk")
	shoot(1, "3 3", "miss")
	shoot(0, "0 0", "hit") // again: wasted
	shoot(1, "4 1", "hit")
	ask(0, "Board", "x x - - -\n- - - - -\n- - - - -\n- - - - -")
	ask(0, "SymbolAt 1 0", "x")
	ask(0, "SymbolAt 2 0", "-")
	ask(0, "SymbolAt 5 0", "!")
	ask(0, "MyBoard", "x - - - -\n- - - - x\n- - - - S\nS S S o -")
	ask(1, "Board", "x - - - -\n- - - - x\n- - - - -\n- - - o -")
	ask(0, "ShipsRemaining", "3 1")
	ask(1, "ShipsRemaining", "3 2")
	ask(0, "MyShots", "3\n0 0 hit\n1 0 sunk\n0 0 hit")
	ask(1, "OpponentShots", "3\n0 0 hit\n1 0 sunk\n0 0 hit")
	ask(0, "OpponentShots", "3\n0 0 sunk\n3 3 miss\n4 1 hit")
	ask(0, "LastShot", "0 0 hit")
	ask(0, "LastMove", "4 1")
	ask(0, "CurrentTurn", "8")
	ask(1, "Params", "5 4 1 1 1 0 0 0")
	ask(1, "Fleet", "3 2 1")
	ask(1, "MySeat", "1")
	shoot(0, "4 1", "hit")
	shoot(1, "2 2", "miss")
	shoot(0, "4 2", "hit")
	shoot(1, "2 2", "miss")
	if s.Outcome().Over {
		t.Fatal("over too soon")
	}
	shoot(0, "4,3", "sunk")
	shoot(1, "3 0", "miss")
	if s.Outcome().Over {
		t.Fatal("over too soon")
	}
	shoot(0, "2 2", "sunk")
	o := s.Outcome()
	if !o.Over || o.Winner != 0 || o.Reason != "seat 0 sank the whole fleet of seat 1" {
		t.Fatalf("outcome %+v", o)
	}
	if len(s.Movers()) != 0 {
		t.Fatal("movers after the end")
	}
}

func TestShotErrors(t *testing.T) {
	s := newGame(t, 10, 8, std)
	if _, err := commit(s, 0, "Shoot 1 1"); err == nil || !strings.Contains(err.Error(), "turn 1 is for placing ships") {
		t.Fatalf("Shoot on turn 1: %v", err)
	}
	f0, _ := battleship.RandomFleet(10, 8, s.FleetLengths(), rand.New(rand.NewPCG(1, 2)))
	f1, _ := battleship.RandomFleet(10, 8, s.FleetLengths(), rand.New(rand.NewPCG(3, 4)))
	if err := s.Apply(map[int]games.Move{0: fleetMove(f0), 1: fleetMove(f1)}); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct{ line, err string }{
		{"Shoot 10 0", "no valid Shoot before #END (last one was Shoot 10 0: shot 10,0 is off the 10×8 board (cells 0..9, 0..7))"},
		{"Shoot 0,8", "no valid Shoot before #END (last one was Shoot 0,8: shot 0,8 is off the 10×8 board (cells 0..9, 0..7))"},
		{"Shoot -1 0", `no valid Shoot before #END (last one was Shoot -1 0: target "-1 0": want x y (or x,y), whole numbers from 0)`},
		{"Shoot 1", `no valid Shoot before #END (last one was Shoot 1: target "1": want x y (or x,y), whole numbers from 0)`},
		{"Shoot 1 2 3", "no valid Shoot before #END (last one was Shoot 1 2 3: want a target x y (or x,y), got 3 words)"},
		{"PlaceShip 0,0-0,1", "no valid Shoot before #END (last one was PlaceShip 0,0-0,1: ships are placed on turn 1 only; now use Shoot)"},
		{"", "no Shoot before #END"},
	} {
		var lines []string
		if tt.line != "" {
			lines = append(lines, tt.line)
		}
		_, err := commit(s, 0, lines...)
		if got := errString(err); got != tt.err {
			t.Errorf("%q: got %q, want %q", tt.line, got, tt.err)
		}
	}
	m, err := commit(s, 0, "Shoot 1 1", "Shoot 12 1", "Shoot 3,4")
	if err != nil || len(m) != 1 || m[0] != "Shoot 3 4" {
		t.Fatalf("last valid Shoot: %q, %v", m, err)
	}
	if err := s.Orders(0).Command(games.ParseLine("DropDisc 3")); !errors.Is(err, games.ErrUnknown) {
		t.Fatalf("DropDisc: %v", err)
	}
}

func TestTurnCap(t *testing.T) {
	for _, tt := range []struct {
		name   string
		first  string // seat 0's first shot; then both shoot at 2,0 forever
		winner int
		reason string
	}{
		{"nobody hits", "2 0", -1, "each seat fired its 3 shots; seat 0 hit 0 ship cells, seat 1 hit 0"},
		{"most hits", "0 0", 0, "each seat fired its 3 shots; seat 0 hit 1 ship cell, seat 1 hit 0"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := newGame(t, 3, 1, [battleship.MaxLen + 1]int{2: 1})
			ship := games.Move{"PlaceShip 0,0-1,0"}
			if err := s.Apply(map[int]games.Move{0: ship, 1: ship}); err != nil {
				t.Fatal(err)
			}
			turns := 0
			for !s.Outcome().Over {
				shot := "Shoot 2 0"
				if turns == 0 {
					shot = "Shoot " + tt.first
				}
				if err := s.Apply(map[int]games.Move{s.ToMove(): {shot}}); err != nil {
					t.Fatal(err)
				}
				turns++
			}
			o := s.Outcome()
			if turns != 6 || o.Winner != tt.winner || o.Reason != tt.reason {
				t.Fatalf("after %d shots: %+v", turns, o)
			}
		})
	}
}

func TestBothForfeit(t *testing.T) {
	s := newGame(t, 10, 10, std)
	s.Forfeit(0)
	if o := s.Outcome(); !o.Over || o.Winner != 1 {
		t.Fatalf("%+v", o)
	}
	s.Forfeit(1)
	if o := s.Outcome(); !o.Over || o.Winner != -1 || o.Scores[0] != 0 || o.Scores[1] != 0 {
		t.Fatalf("%+v", o)
	}
}

func TestNew(t *testing.T) {
	for _, tt := range []struct {
		p   games.Params
		err string
	}{
		{nil, ""},
		{games.Params{"width": 1, "height": 1, "ship2": 0, "ship3": 0, "ship4": 0, "ship5": 0, "ship1": 1}, ""},
		{games.Params{"width": 100, "height": 100, "ship1": 10, "ship2": 10, "ship3": 10, "ship4": 10, "ship5": 10, "ship6": 10}, ""},
		{games.Params{"ship2": 0, "ship3": 0, "ship4": 0, "ship5": 0}, "the fleet is empty: set at least one of ship1..ship6"},
		{games.Params{"width": 3, "height": 3}, "the fleet (lengths 5 4 3 3 2) has 17 cells, more than the 3×3 grid"},
		{games.Params{"width": 4, "height": 4, "ship2": 0, "ship3": 0, "ship4": 0}, "the fleet (lengths 5) cannot be placed on the 4×4 grid"},
		{games.Params{"width": 3, "height": 3, "ship2": 0, "ship3": 3, "ship4": 0, "ship5": 0}, ""},
		{games.Params{"width": 3, "height": 3, "ship2": 2, "ship3": 1, "ship4": 0, "ship5": 0, "ship1": 2}, ""},
		{games.Params{"width": 101}, "parameter width = 101 is out of range 1..100"},
		{games.Params{"ship7": 1}, `unknown parameter "ship7" (known: width, height, ship1, ship2, ship3, ship4, ship5, ship6)`},
	} {
		_, err := battleship.Game{}.New(tt.p, 0)
		if got := errString(err); got != tt.err {
			t.Errorf("New(%v): %q, want %q", tt.p, got, tt.err)
		}
	}
}

func randomPlayer(st games.State, seat int, rng *rand.Rand) games.Move {
	s := st.(*battleship.State)
	w, h := s.Size()
	if s.Placing() {
		ships, ok := battleship.RandomFleet(w, h, s.FleetLengths(), rng)
		if !ok {
			panic("no fleet")
		}
		m := fleetMove(ships)
		if rng.IntN(2) == 0 && len(ships) > 0 { // the other notation
			sh := ships[0]
			dir := "across"
			if sh.Down {
				dir = "down"
			}
			m[0] = "PlaceShip " + strconv.Itoa(sh.X) + " " + strconv.Itoa(sh.Y) + " " + strconv.Itoa(sh.Len) + " " + dir
		}
		return m
	}
	// Mostly new cells, sometimes a repeat.
	shot := map[[2]int]bool{}
	for _, sh := range s.Shots(seat) {
		shot[[2]int{sh.X, sh.Y}] = true
	}
	for {
		x, y := rng.IntN(w), rng.IntN(h)
		if !shot[[2]int{x, y}] || rng.IntN(8) == 0 {
			if rng.IntN(2) == 0 {
				return games.Move{"Shoot " + strconv.Itoa(x) + "," + strconv.Itoa(y)}
			}
			return games.Move{"Shoot " + strconv.Itoa(x) + " " + strconv.Itoa(y)}
		}
	}
}

func illegal(st games.State, seat int, rng *rand.Rand) []games.Move {
	s := st.(*battleship.State)
	w, h := s.Size()
	W, H := strconv.Itoa(w), strconv.Itoa(h)
	if !s.Placing() {
		return []games.Move{{}, {"Shoot " + W + " 0"}, {"Shoot 0 " + H}, {"Shoot -1 0"}, {"Shoot 1"}, {"PlaceShip 0,0-0,1"}}
	}
	ships, _ := battleship.RandomFleet(w, h, s.FleetLengths(), rng)
	good := fleetMove(ships)
	bad := []games.Move{{}, {"Shoot 0 0"}, append(good[1:len(good):len(good)], "PlaceShip "+W+",0-"+W+",0")}
	bad = append(bad, good[:len(good)-1])                          // one ship missing
	bad = append(bad, append(good[:len(good):len(good)], good[0])) // one ship twice
	if len(ships) > 1 {
		over := append(games.Move(nil), good...)
		over[1] = "PlaceShip " + ships[0].String() // overlaps and changes the lengths
		bad = append(bad, over)
	}
	return bad
}

var queries = []string{"CurrentTurn", "Params", "MySeat", "Phase", "Fleet", "MyShips", "MyBoard", "Board",
	"SymbolAt 0 0", "SymbolAt 1,1", "SymbolAt 99 99", "ShipsRemaining", "MyShots", "OpponentShots", "LastShot", "LastMove"}

// twin plays a random game, then builds a copy in which the ships of the
// seat's opponent that the seat has not touched lie elsewhere.
func twin(w, h int, counts [battleship.MaxLen + 1]int) func(rng *rand.Rand) (a, b games.State, seat int) {
	return func(rng *rand.Rand) (games.State, games.State, int) {
		a, _ := battleship.New(w, h, counts)
		b := a.Clone()
		seat := rng.IntN(2)
		if rng.IntN(8) == 0 {
			return a, b, seat // the placement turn
		}
		var fleets [2][]battleship.Ship
		for i := range fleets {
			fleets[i], _ = battleship.RandomFleet(w, h, a.FleetLengths(), rng)
		}
		a.Apply(map[int]games.Move{0: fleetMove(fleets[0]), 1: fleetMove(fleets[1])})
		n := rng.IntN(2 * w * h)
		var shots [][2]int
		for i := 0; i < n && !a.Outcome().Over; i++ {
			x, y := rng.IntN(w), rng.IntN(h)
			a.Fire(x, y)
			shots = append(shots, [2]int{x, y})
		}
		// The opponent's fleet, its untouched ships moved.
		opp := 1 - seat
		shot := make([]bool, w*h)
		used := make([]bool, w*h)
		for _, sh := range a.Shots(seat) {
			shot[sh.Y*w+sh.X] = true
		}
		other := append([]battleship.Ship(nil), fleets[opp]...)
		touched := make([]bool, len(other))
		for i, sh := range other {
			for j := 0; j < sh.Len; j++ {
				x, y := sh.Cell(j)
				if shot[y*w+x] {
					touched[i] = true
				}
			}
			if touched[i] {
				mark(sh, w, used)
			}
		}
		for i, sh := range other {
			if touched[i] {
				continue
			}
			moved := sh
			for try := 0; try < 200; try++ {
				c := battleship.Ship{X: rng.IntN(w), Y: rng.IntN(h), Len: sh.Len, Down: sh.Len > 1 && rng.IntN(2) == 0}
				if c.Fits(w, h) && clear(c, w, used, shot) {
					moved = c
					break
				}
			}
			if !clear(moved, w, used, shot) {
				return a, a.Clone(), seat // no room to move it
			}
			other[i] = moved
			mark(moved, w, used)
		}
		fleets[opp] = other
		if err := b.Apply(map[int]games.Move{0: fleetMove(fleets[0]), 1: fleetMove(fleets[1])}); err != nil {
			panic(err)
		}
		for _, c := range shots {
			b.Fire(c[0], c[1])
		}
		return a, b, seat
	}
}

func clear(s battleship.Ship, w int, used, shot []bool) bool {
	for j := 0; j < s.Len; j++ {
		x, y := s.Cell(j)
		if used[y*w+x] || shot[y*w+x] {
			return false
		}
	}
	return true
}

func mark(s battleship.Ship, w int, used []bool) {
	for j := 0; j < s.Len; j++ {
		x, y := s.Cell(j)
		used[y*w+x] = true
	}
}

func TestConformance(t *testing.T) {
	probes := []string{"Shoot 0 0", "Shoot 3,3", "Shoot 99 99", "Shoot x", "PlaceShip 0,0-0,4", "PlaceShip 0 0 2 down"}
	for i, tt := range []struct {
		w, h   int
		counts [battleship.MaxLen + 1]int
	}{
		{10, 10, std},
		{4, 3, [battleship.MaxLen + 1]int{1: 2, 2: 1}},
		{1, 1, [battleship.MaxLen + 1]int{1: 1}},
		{7, 2, [battleship.MaxLen + 1]int{6: 1, 3: 2}},
		{14, 11, [battleship.MaxLen + 1]int{1: 3, 2: 3, 3: 3, 4: 3, 5: 3, 6: 3}},
	} {
		p := games.Params{"width": tt.w, "height": tt.h}
		for l := 1; l <= battleship.MaxLen; l++ {
			p["ship"+strconv.Itoa(l)] = tt.counts[l]
		}
		n := 20
		if tt.w*tt.h > 50 {
			n = 6
		}
		gametest.Check(t, battleship.Game{}, p, randomPlayer,
			gametest.Queries(queries...), gametest.Illegal(illegal), gametest.Seed(uint64(1000*i)), gametest.Playouts(n),
			gametest.Hidden(probes, twin(tt.w, tt.h, tt.counts)))
	}
}

func FuzzParseShip(f *testing.F) {
	for _, s := range []string{"3,3-3,7", "8,8-7,8", "0,0-0,0", "3 3 5 down", "0 0 1 across", "1,2-3,4", "-1,0-2,0", "1,,2-3,4", "999999999,0-999999999,5", "0 0 7 down"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		l := games.ParseLine(line)
		s, err := battleship.ParseShip(l.Args)
		if err != nil {
			return
		}
		if s.Len < 1 || s.Len > battleship.MaxLen || s.X < 0 || s.Y < 0 || (s.Len == 1 && s.Down) {
			t.Fatalf("%q parsed as %+v", line, s)
		}
		again, err := battleship.ParseShip([]string{s.String()})
		if err != nil || again != s {
			t.Fatalf("%q: %+v prints as %q, which reads back as %+v, %v", line, s, s.String(), again, err)
		}
	})
}

func FuzzCommand(f *testing.F) {
	for _, s := range []string{"Shoot 3 4", "Shoot 3,4", "Shoot 10 0", "Shoot -1 2", "Shoot 1 2 3", "PlaceShip 0,0-0,4", "PlaceShip 0 0 5 down", "Shoot 0,0,0", "Shoot +1 2"} {
		f.Add(s, false)
		f.Add(s, true)
	}
	f.Fuzz(func(t *testing.T, line string, placing bool) {
		s := newGame(t, 10, 10, std)
		rng := rand.New(rand.NewPCG(5, 6))
		if !placing {
			f0, _ := battleship.RandomFleet(10, 10, s.FleetLengths(), rng)
			f1, _ := battleship.RandomFleet(10, 10, s.FleetLengths(), rng)
			if err := s.Apply(map[int]games.Move{0: fleetMove(f0), 1: fleetMove(f1)}); err != nil {
				t.Fatal(err)
			}
		}
		before := s.Render()
		l := games.ParseLine(line)
		s.Query(0, l)
		o := s.Orders(0)
		err := o.Command(l)
		if s.Render() != before {
			t.Fatalf("%q changed the state", line)
		}
		if placing || err != nil {
			return
		}
		m, err := o.Commit()
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Apply(map[int]games.Move{0: m}); err != nil {
			t.Fatalf("%q accepted as %q, Apply: %v", line, m, err)
		}
	})
}

// contestGame is a game under the contest's rules (Game.Contest) with
// both fleets placed: seat 1's fleet in the top-left corner.
func contestGame(t testing.TB) *battleship.State {
	t.Helper()
	st, err := battleship.Game{Contest: true}.New(games.Params{}, 0)
	if err != nil {
		t.Fatal(err)
	}
	s := st.(*battleship.State)
	corner := games.Move{"PlaceShip 0 0 5 across", "PlaceShip 0 1 4 across", "PlaceShip 0 2 3 across", "PlaceShip 0 3 3 across", "PlaceShip 0 4 2 across"}
	if err := s.Apply(map[int]games.Move{0: corner, 1: corner}); err != nil {
		t.Fatal(err)
	}
	return s
}

// TestContestShots: under the contest's rules (its runner's Board#try),
// two whole numbers inside the board are a cell, numbers inside the board
// that are no cell are a wasted shot, the rest no shot; without them,
// only cells are shots.
func TestContestShots(t *testing.T) {
	for _, tt := range []struct {
		line    string
		contest string // the move under the contest's rules, or the error
		plain   string // the same without them
	}{
		{"Shoot 3 4", "Shoot 3 4", "Shoot 3 4"},
		{"Shoot 3,4", "Shoot 3 4", "Shoot 3 4"},
		{"Shoot 0.0 0.0", "Shoot 0.0 0.0", "want x y"},
		{"Shoot 9.5 2", "Shoot 9.5 2", "want x y"},
		{"Shoot 3.0,4", "Shoot 3.0,4", "want x y"},
		{"Shoot 1.0e-05 9.999", "Shoot 1.0e-05 9.999", "want x y"},
		{"Shoot 1.0", "Shoot 1.0", "want x y"},
		{"Shoot 1.0 2.0 3.0", "Shoot 1.0 2.0 3.0", "got 3 words"},
		{"Shoot", "Shoot", "got 0 words"},
		{"Shoot 10.0 0.0", "want x y", "want x y"},
		{"Shoot 10 0", "off the 10×10 board", "off the 10×10 board"},
		{"Shoot -0.5 1.0", "want x y", "want x y"},
		{"Shoot NaN 1", "want x y", "want x y"},
		{"Shoot Inf 1", "want x y", "want x y"},
		{"Shoot 0x1 1.0", "want x y", "want x y"},
		{"Shoot a b", "want x y", "want x y"},
	} {
		for _, contest := range []bool{true, false} {
			st, err := battleship.Game{Contest: contest}.New(games.Params{}, 0)
			if err != nil {
				t.Fatal(err)
			}
			s := st.(*battleship.State)
			f, _ := battleship.RandomFleet(10, 10, s.FleetLengths(), rand.New(rand.NewPCG(1, 2)))
			if err := s.Apply(map[int]games.Move{0: fleetMove(f), 1: fleetMove(f)}); err != nil {
				t.Fatal(err)
			}
			want := tt.plain
			if contest {
				want = tt.contest
			}
			m, err := commit(s, 0, tt.line)
			got := errString(err)
			if err == nil {
				got = strings.Join(m, "|")
			}
			if !strings.Contains(got, want) {
				t.Errorf("contest %v: %q: got %q, want %q", contest, tt.line, got, want)
			}
		}
	}
}

// TestWastedShot: a wasted shot hits nothing, changes no cell, counts as
// the shot of its turn and shows as -1 -1 miss.
func TestWastedShot(t *testing.T) {
	s := contestGame(t)
	board := func() string { a, _ := s.Query(0, games.ParseLine("Board")); return a }
	before := board()
	if err := s.Apply(map[int]games.Move{0: {"Shoot 0.0 0.0"}}); err != nil {
		t.Fatal(err)
	}
	if board() != before || s.ToMove() != 1 || s.Turn() != 3 {
		t.Fatalf("after a wasted shot: turn %d, seat %d to move, board\n%s", s.Turn(), s.ToMove(), board())
	}
	for q, want := range map[string]string{"MyShots": "1\n-1 -1 miss", "LastShot": "-1 -1 miss", "ShipsRemaining": "5 4 3 3 2"} {
		if got, _ := s.Query(0, games.ParseLine(q)); got != want {
			t.Errorf("%s: %q, want %q", q, got, want)
		}
	}
	if sh := s.Shots(0); len(sh) != 1 || !sh[0].Wasted {
		t.Errorf("shots %+v", sh)
	}
	if v := s.View(); len(v.Marks) != 0 {
		t.Errorf("a wasted shot marked %+v", v.Marks)
	}
	// The same cell as whole numbers is a hit.
	if err := s.Apply(map[int]games.Move{1: {"Shoot 0 0"}}); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.Query(1, games.ParseLine("LastShot")); got != "0 0 hit" {
		t.Errorf("Shoot 0 0: %q", got)
	}
	if v := s.View(); len(v.Marks) != 1 {
		t.Errorf("marks %+v", v.Marks)
	}
}

// FuzzContestShot: under the contest's rules a Shoot is a cell, a wasted
// shot or refused; what it accepts, Apply plays without changing a cell
// for a wasted shot.
func FuzzContestShot(f *testing.F) {
	for _, s := range []string{"Shoot 3 4", "Shoot 0.0 0.0", "Shoot 9.99 0", "Shoot 10.0 0", "Shoot", "Shoot 1.5e1 2", "Shoot 1e-3", "Shoot 3.0,4"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		s := contestGame(t)
		before, _ := s.Query(0, games.ParseLine("Board"))
		m, err := commit(s, 0, line)
		if err != nil {
			return
		}
		if err := s.Apply(map[int]games.Move{0: m}); err != nil {
			t.Fatalf("%q accepted as %q, Apply: %v", line, m, err)
		}
		after, _ := s.Query(0, games.ParseLine("Board"))
		sh := s.Shots(0)
		// The first shot at a cell always marks it; a wasted one nothing.
		if len(sh) != 1 || sh[0].Wasted != (after == before) {
			t.Fatalf("%q: shots %+v, board changed: %v", line, sh, after != before)
		}
	})
}

// arenaGame is a game on a row of w cells with ships of length 2 at
// 0,0-1,0 and of length 1 at w-1,0 for both seats, under botsarena's
// rules or the judge's.
func arenaGame(t *testing.T, w int, arena bool) *battleship.State {
	t.Helper()
	st, err := battleship.Game{Botsarena: arena}.New(games.Params{"width": w, "height": 1,
		"ship1": 1, "ship2": 1, "ship3": 0, "ship4": 0, "ship5": 0, "ship6": 0}, 0)
	if err != nil {
		t.Fatal(err)
	}
	s := st.(*battleship.State)
	fleet := games.Move{"PlaceShip 0,0-1,0", "PlaceShip " + strconv.Itoa(w-1) + ",0-" + strconv.Itoa(w-1) + ",0"}
	if err := s.Apply(map[int]games.Move{0: fleet, 1: fleet}); err != nil {
		t.Fatal(err)
	}
	return s
}

// TestBotsarenaSunkShipGone: under botsarena's rules a sunk ship is gone
// (act.php takes it out of the fleet): a shot at one of its cells is a
// miss, while a hit ship still afloat answers hit again. Under the
// judge's rules the cell of a sunk ship is a hit.
func TestBotsarenaSunkShipGone(t *testing.T) {
	for _, arena := range []bool{true, false} {
		s := arenaGame(t, 6, arena)
		var got []string
		for _, shot := range []string{"0 0", "0 0", "1 0", "0 0", "1 0"} {
			if err := s.Apply(map[int]games.Move{0: {"Shoot " + shot}}); err != nil {
				t.Fatal(err)
			}
			sh := s.Shots(0)
			got = append(got, sh[len(sh)-1].Result.String())
			if err := s.Apply(map[int]games.Move{1: {"Shoot 2 0"}}); err != nil {
				t.Fatal(err)
			}
		}
		want := "hit hit sunk hit hit"
		if arena {
			want = "hit hit sunk miss miss"
		}
		if g := strings.Join(got, " "); g != want || s.Outcome().Over {
			t.Errorf("botsarena %v: got %s (over %v), want %s", arena, g, s.Outcome().Over, want)
		}
	}
}

// TestBotsarenaNoCap: botsarena has no cap on the shots. Bots that fire
// at the same cell go on past width×height shots, to the judge's bound
// of ArenaShots grids; under the judge's rules they stop at one grid.
func TestBotsarenaNoCap(t *testing.T) {
	for _, arena := range []bool{true, false} {
		s := arenaGame(t, 3, arena)
		shots := 0
		for !s.Outcome().Over {
			if err := s.Apply(map[int]games.Move{s.ToMove(): {"Shoot 1 0"}}); err != nil {
				t.Fatal(err)
			}
			shots++
		}
		want := 2 * 3
		if arena {
			want *= battleship.ArenaShots
		}
		if o := s.Outcome(); shots != want || o.Winner != -1 {
			t.Errorf("botsarena %v: ended after %d shots (%+v), want %d, a draw", arena, shots, o, want)
		}
	}
	// A fleet sunk ends botsarena's game at once, as always.
	s := arenaGame(t, 4, true)
	for _, shot := range []string{"0 0", "2 0", "1 0", "2 0", "3 0"} {
		if err := s.Apply(map[int]games.Move{s.ToMove(): {"Shoot " + shot}}); err != nil {
			t.Fatal(err)
		}
	}
	if o := s.Outcome(); !o.Over || o.Winner != 0 {
		t.Errorf("seat 0 sank the fleet: %+v", o)
	}
}
