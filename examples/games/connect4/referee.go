// Command referee is Connect Four as a plugin game's referee: the rules of
// the judge's built-in connect4 (docs/protocol/connect4.md), its queries,
// commands, answers and reasons, speaking the referee protocol
// (docs/games.md) on stdin and stdout. It imports only the standard
// library and builds three ways:
//
//	GOOS=wasip1 GOARCH=wasm go build -buildmode=c-shared -o referee.wasm   (the wasm referee of game.toml)
//	GOOS=wasip1 GOARCH=wasm go build -o referee.wasm                       (the same, as a WASI command: slower)
//	go build -o referee                                                    (a process referee)
package main

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
)

// request is every field a request may have.
type request struct {
	Op       string         `json:"op"`
	Protocol int            `json:"protocol"`
	Params   map[string]int `json:"params"`
	Seed     uint64         `json:"seed"`
	Seat     int            `json:"seat"`
	Line     string         `json:"line"`
	Moves    []struct {
		Seat int      `json:"seat"`
		Move []string `json:"move"`
	} `json:"moves"`
}

// The referee's stdin, stdout and game, kept from one request to the
// next.
var (
	in  = newScanner()
	out = bufio.NewWriter(os.Stdout)
	g   *game
	buf []byte
)

func newScanner() *bufio.Scanner {
	sc := bufio.NewScanner(os.Stdin)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	return sc
}

// main answers requests until stdin ends: a WASI command, or a process.
// Built as a reactor, the judge calls step itself (step_wasip1.go).
func main() {
	for step() {
	}
}

// step answers one request; false once stdin has ended.
func step() bool {
	if !in.Scan() {
		return false
	}
	var req request
	var resp any
	if err := decode(in.Bytes(), &req); err != nil {
		resp = obj{{"error", "bad request: " + err.Error()}}
	} else {
		resp = serve(&g, &req)
	}
	buf = append(encode(buf[:0], resp), '\n')
	out.Write(buf)
	out.Flush()
	return true
}

// obj is a JSON object: its fields, written in this order.
type obj []field

// field is one field of an object: its key and its value.
type field struct {
	key string
	val any
}

// serve answers one request; *g is the game, made by new.
func serve(g **game, r *request) any {
	if r.Op == "hello" {
		// turn-orders: every seat's commands start with each turn, as
		// orders would start them; command-moves: a command taken is
		// answered with the move that binds; reuse: new starts a game
		// afresh (docs/games.md).
		return obj{{"protocol", 1}, {"features", []string{"turn-orders", "command-moves", "reuse"}}}
	}
	if r.Op == "new" {
		ng, err := newGame(r.Params["width"], r.Params["height"], r.Params["k"])
		if err != nil {
			return obj{{"refused", err.Error()}}
		}
		*g = ng
		return obj{{"seats", 2}, {"status", ng.status()}}
	}
	s := *g
	if s == nil {
		return obj{{"error", "no game: the first request must be new"}}
	}
	switch r.Op {
	case "query":
		ans, ok := s.query(r.Seat, fields(r.Line))
		if !ok {
			return obj{{"not_query", true}}
		}
		return obj{{"answer", ans}}
	case "orders":
		s.orders[r.Seat] = orders{}
		return obj{}
	case "command":
		return s.command(r.Seat, fields(r.Line))
	case "commit":
		o := s.orders[r.Seat]
		switch {
		case o.move != "":
			return obj{{"move", []string{o.move}}}
		case o.lastErr != "":
			return obj{{"invalid", fmt.Sprintf("no valid DropDisc before #END (last one was %s)", o.lastErr)}}
		}
		return obj{{"invalid", "no DropDisc before #END"}}
	case "apply":
		if err := s.apply(r); err != nil {
			return obj{{"error", err.Error()}}
		}
		s.orders = [2]orders{} // a new turn: turn-orders
		return obj{{"status", s.status()}}
	case "forfeit":
		if !s.over {
			s.finish(1-r.Seat, fmt.Sprintf("%c forfeited", symbol(r.Seat)))
		}
		s.orders = [2]orders{}
		return obj{{"status", s.status()}}
	case "moves":
		moves := [][]string{}
		for c := 0; c < s.w && !s.over; c++ {
			if s.filled[c] < s.h {
				moves = append(moves, []string{"DropDisc " + strconv.Itoa(c)})
			}
		}
		return obj{{"moves", moves}}
	case "render":
		return obj{{"text", s.render()}}
	case "view":
		return s.view()
	case "explain":
		return obj{{"notes", s.explain()}}
	}
	return obj{{"error", "unknown op " + r.Op}}
}

// fields splits a line as the judge does: words between spaces.
func fields(line string) []string { return strings.Fields(line) }

// game is Connect Four on w columns and h rows, k in a row to win. The
// board keeps the top row first.
type game struct {
	w, h, k int
	cells   []byte
	filled  []int
	turn    int
	placed  int
	last    [2]int
	orders  [2]orders
	over    bool
	winner  int
	reason  string
}

type orders struct {
	move    string // the canonical command that binds
	lastErr string // the last refused one, with why
}

func newGame(w, h, k int) (*game, error) {
	if k > w && k > h {
		return nil, fmt.Errorf("parameter k = %d is larger than both width = %d and height = %d: nobody could win", k, w, h)
	}
	g := &game{w: w, h: h, k: k, cells: []byte(strings.Repeat("-", w*h)), filled: make([]int, w), turn: 1, winner: -1}
	g.last = [2]int{-1, -1}
	return g, nil
}

func symbol(seat int) byte {
	if seat == 0 {
		return 'X'
	}
	return 'O'
}

func (g *game) toMove() int { return (g.turn - 1) % 2 }

func (g *game) status() obj {
	movers := []int{}
	scores := []float64{}
	if g.over {
		switch g.winner {
		case 0:
			scores = []float64{1, 0}
		case 1:
			scores = []float64{0, 1}
		default:
			scores = []float64{0.5, 0.5}
		}
	} else {
		movers = []int{g.toMove()}
	}
	return obj{{"turn", g.turn}, {"movers", movers}, {"over", g.over}, {"winner", g.winner},
		{"scores", scores}, {"reason", g.reason}, {"notes", []string{}}}
}

// at is the cell at column x, row y counted from the bottom.
func (g *game) at(x, y int) byte { return g.cells[(g.h-1-y)*g.w+x] }

func (g *game) board() string {
	var b strings.Builder
	for y := 0; y < g.h; y++ {
		if y > 0 {
			b.WriteByte('\n')
		}
		for x := 0; x < g.w; x++ {
			if x > 0 {
				b.WriteByte(' ')
			}
			b.WriteByte(g.cells[y*g.w+x])
		}
	}
	return b.String()
}

// query answers a query line, or says it is none.
func (g *game) query(seat int, f []string) (string, bool) {
	if len(f) == 0 {
		return "", false
	}
	switch f[0] {
	case "CurrentTurn":
		return strconv.Itoa(g.turn), true
	case "Params":
		return fmt.Sprintf("%d %d %d", g.w, g.h, g.k), true
	case "MySymbol":
		return string(symbol(seat)), true
	case "MySeat":
		return strconv.Itoa(seat), true
	case "LastMove":
		return strconv.Itoa(g.last[1-seat]), true
	case "Board":
		return g.board(), true
	case "SymbolAt", "CellAt":
		x, y, ok := parseXY(f[1:])
		if !ok || x < 0 || y < 0 || x >= g.w || y >= g.h {
			return "!", true
		}
		return string(g.at(x, y)), true
	case "Heights":
		var b []byte
		for x, n := range g.filled {
			if x > 0 {
				b = append(b, ' ')
			}
			b = strconv.AppendInt(b, int64(n), 10)
		}
		return string(b), true
	}
	return "", false
}

// parseXY reads "x y" or "x,y".
func parseXY(args []string) (x, y int, ok bool) {
	var a, b string
	switch len(args) {
	case 1:
		var found bool
		if a, b, found = strings.Cut(args[0], ","); !found {
			return 0, 0, false
		}
	case 2:
		a, b = args[0], args[1]
	default:
		return 0, 0, false
	}
	x, err1 := strconv.Atoi(a)
	y, err2 := strconv.Atoi(b)
	return x, y, err1 == nil && err2 == nil
}

func (g *game) command(seat int, f []string) obj {
	if len(f) == 0 || f[0] != "DropDisc" {
		return obj{{"unknown", "not a command of connect4"}}
	}
	col, err := g.check(f[1:])
	if err != nil {
		g.orders[seat].lastErr = strings.Join(f, " ") + ": " + err.Error()
		return obj{{"invalid", err.Error()}}
	}
	g.orders[seat].move = "DropDisc " + strconv.Itoa(col)
	return obj{{"move", []string{g.orders[seat].move}}} // command-moves
}

// check tells why DropDisc with args cannot be played now.
func (g *game) check(args []string) (int, error) {
	if len(args) != 1 {
		return 0, fmt.Errorf("want 1 number (a column), got %d words", len(args))
	}
	col, err := strconv.Atoi(args[0])
	if err != nil {
		return 0, fmt.Errorf("column %q is not a whole number", args[0])
	}
	if col < 0 || col >= g.w {
		return 0, fmt.Errorf("column %d is off the board (columns 0..%d)", col, g.w-1)
	}
	if g.filled[col] == g.h {
		return 0, fmt.Errorf("column %d is full", col)
	}
	return col, nil
}

func (g *game) apply(r *request) error {
	if g.over {
		return errors.New("game is over")
	}
	seat := g.toMove()
	if len(r.Moves) != 1 || r.Moves[0].Seat != seat || len(r.Moves[0].Move) != 1 {
		return fmt.Errorf("want one move of seat %d", seat)
	}
	f := fields(r.Moves[0].Move[0])
	if len(f) == 0 || f[0] != "DropDisc" {
		return fmt.Errorf("move %q is not DropDisc", r.Moves[0].Move[0])
	}
	col, err := g.check(f[1:])
	if err != nil {
		return err
	}
	g.drop(col)
	return nil
}

var dirs = [4][2]int{{1, 0}, {0, 1}, {1, 1}, {1, -1}}

// drop drops the disc of the seat to move into col and ends the turn.
func (g *game) drop(col int) {
	seat := g.toMove()
	y := g.h - 1 - g.filled[col] // the row from the top
	g.cells[y*g.w+col] = symbol(seat)
	g.filled[col]++
	g.placed++
	g.last[seat] = col
	g.turn++
	if g.lineThrough(col, y) {
		g.finish(seat, fmt.Sprintf("%c made %d in a row", symbol(seat), g.k))
	} else if g.placed == g.w*g.h {
		g.finish(-1, "the board is full")
	}
}

// lineThrough reports whether the disc at (x, y), y from the top, is in a
// line of k.
func (g *game) lineThrough(x, y int) bool {
	c := g.cells[y*g.w+x]
	on := func(x, y int) bool { return x >= 0 && y >= 0 && x < g.w && y < g.h }
	for _, d := range dirs {
		run := 1
		for i := 1; run < g.k && on(x+i*d[0], y+i*d[1]) && g.cells[(y+i*d[1])*g.w+x+i*d[0]] == c; i++ {
			run++
		}
		for i := 1; run < g.k && on(x-i*d[0], y-i*d[1]) && g.cells[(y-i*d[1])*g.w+x-i*d[0]] == c; i++ {
			run++
		}
		if run >= g.k {
			return true
		}
	}
	return false
}

func (g *game) finish(winner int, reason string) {
	g.over, g.winner, g.reason = true, winner, reason
}

func (g *game) render() string {
	var b strings.Builder
	pad := len(strconv.Itoa(g.h - 1))
	for i, row := range strings.Split(g.board(), "\n") {
		fmt.Fprintf(&b, "%*d  %s\n", pad, g.h-1-i, row)
	}
	b.WriteString(strings.Repeat(" ", pad+2))
	for x := 0; x < g.w; x++ {
		if x > 0 {
			b.WriteByte(' ')
		}
		b.WriteByte("0123456789"[x%10])
	}
	b.WriteByte('\n')
	return b.String()
}

func (g *game) view() obj {
	rows := make([]string, g.h)
	for y := range rows {
		rows[y] = string(g.cells[y*g.w : (y+1)*g.w])
	}
	marks := []obj{}
	if g.turn > 1 {
		seat := (g.turn - 2) % 2
		if col := g.last[seat]; col >= 0 && g.filled[col] > 0 {
			marks = append(marks, obj{{"g", 0}, {"x", col}, {"y", g.h - g.filled[col]}, {"seat", seat}, {"kind", "last"}})
		}
	}
	var seats []string
	discs := []int{}
	for seat := 0; seat < 2; seat++ {
		n := strings.Count(string(g.cells), string(symbol(seat)))
		discs = append(discs, n)
		seats = append(seats, fmt.Sprintf("%c, %d discs dropped", symbol(seat), n))
	}
	return obj{{"grids", []obj{{{"name", "board"}, {"rows", rows}}}}, {"marks", marks}, {"seats", seats},
		{"numbers", obj{{"discs", discs}}}}
}

// explain: after a move that leaves the opponent a winning drop, says so.
func (g *game) explain() []obj {
	if g.over || g.placed == 0 {
		return []obj{}
	}
	them := g.toMove()
	me := 1 - them
	var cols []int
	for c := 0; c < g.w; c++ {
		if g.filled[c] == g.h {
			continue
		}
		y := g.h - 1 - g.filled[c]
		g.cells[y*g.w+c] = symbol(them)
		if g.lineThrough(c, y) {
			cols = append(cols, c)
		}
		g.cells[y*g.w+c] = '-'
	}
	if len(cols) == 0 {
		return []obj{}
	}
	var text string
	if mine := g.last[me]; len(cols) == 1 && cols[0] == mine {
		text = fmt.Sprintf("seat %d's disc in column %d let seat %d win on top of it", me, mine, them)
	} else {
		where := fmt.Sprintf("column %d", cols[0])
		if len(cols) > 1 {
			s := make([]string, len(cols))
			for i, c := range cols {
				s[i] = strconv.Itoa(c)
			}
			where = "columns " + strings.Join(s, ", ")
		}
		text = fmt.Sprintf("seat %d did not block seat %d's threat: a disc of seat %d in %s makes %d in a row", me, them, them, where, g.k)
	}
	return []obj{{{"seat", me}, {"kind", "threat"}, {"text", text}}}
}
