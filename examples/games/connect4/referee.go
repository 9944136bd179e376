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
	Moves    []seatMove     `json:"moves"`
}

// seatMove is one seat's move in an apply request.
type seatMove struct {
	Seat int      `json:"seat"`
	Move []string `json:"move"`
}

// The referee's stdin, stdout and game, kept from one request to the
// next.
var (
	in  = newScanner()
	out writer
	g   *game
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
	out.b, out.comma = out.b[:0], false
	if err := decode(in.Bytes(), &req); err != nil {
		out.open('{').key("error").str("bad request: " + err.Error()).close('}')
	} else {
		serve(&out, &g, &req)
	}
	os.Stdout.Write(append(out.b, '\n'))
	return true
}

// serve writes the response to one request to w; *g is the game, made by
// new.
func serve(w *writer, g **game, r *request) {
	w.open('{')
	defer w.close('}')
	if r.Op == "hello" {
		// turn-orders: every seat's commands start with each turn, as
		// orders would start them; command-moves: a command taken is
		// answered with the move that binds; reuse: new starts a game
		// afresh; answers: statuses answer Heights ahead (docs/games.md).
		w.key("protocol").int(1)
		w.key("features").strs("turn-orders", "command-moves", "reuse", "answers")
		return
	}
	if r.Op == "new" {
		ng, err := newGame(r.Params["width"], r.Params["height"], r.Params["k"])
		if err != nil {
			w.key("refused").str(err.Error())
			return
		}
		*g = ng
		w.key("seats").int(2)
		ng.status(w.key("status"))
		return
	}
	s := *g
	if s == nil {
		w.key("error").str("no game: the first request must be new")
		return
	}
	switch r.Op {
	case "query":
		ans, ok := s.query(r.Seat, fields(r.Line))
		if !ok {
			w.key("not_query").bool(true)
			return
		}
		w.key("answer").str(ans)
	case "orders":
		s.orders[r.Seat] = orders{}
	case "command":
		s.command(w, r.Seat, fields(r.Line))
	case "commit":
		o := s.orders[r.Seat]
		switch {
		case o.move != "":
			w.key("move").strs(o.move)
		case o.lastErr != "":
			w.key("invalid").str("no valid DropDisc before #END (last one was " + o.lastErr + ")")
		default:
			w.key("invalid").str("no DropDisc before #END")
		}
	case "apply":
		if err := s.apply(r); err != nil {
			w.key("error").str(err.Error())
			return
		}
		s.orders = [2]orders{} // a new turn: turn-orders
		s.status(w.key("status"))
	case "forfeit":
		if !s.over {
			s.finish(1-r.Seat, string(symbol(r.Seat))+" forfeited")
		}
		s.orders = [2]orders{}
		s.status(w.key("status"))
	case "moves":
		w.key("moves").open('[')
		for c := 0; c < s.w && !s.over; c++ {
			if s.filled[c] < s.h {
				w.strs("DropDisc " + strconv.Itoa(c))
			}
		}
		w.close(']')
	case "render":
		w.key("text").str(s.render())
	case "view":
		s.view(w)
	case "explain":
		s.explain(w.key("notes"))
	default:
		w.key("error").str("unknown op " + r.Op)
	}
}

// fields splits a line as the judge does: words between spaces.
// The words are kept in one array from call to call: a line the judge
// passes on is short, and its words are used within the call.
func fields(line string) []string {
	f := words[:0]
	for i := 0; i < len(line); {
		for i < len(line) && line[i] == ' ' {
			i++
		}
		start := i
		for i < len(line) && line[i] != ' ' {
			i++
		}
		if i > start {
			f = append(f, line[start:i])
		}
	}
	return f
}

var words [8]string

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
		return nil, errors.New("parameter k = " + strconv.Itoa(k) + " is larger than both width = " + strconv.Itoa(w) +
			" and height = " + strconv.Itoa(h) + ": nobody could win")
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

// status writes the game's status: the turn, who moves, the outcome once
// over, and the answer of Heights ahead while it is not.
func (g *game) status(w *writer) {
	w.open('{')
	w.key("turn").int(g.turn)
	w.key("movers").open('[')
	if !g.over {
		w.int(g.toMove())
	}
	w.close(']')
	w.key("over").bool(g.over)
	w.key("winner").int(g.winner)
	w.key("scores").open('[')
	if g.over {
		switch g.winner {
		case 0:
			w.float(1).float(0)
		case 1:
			w.float(0).float(1)
		default:
			w.float(0.5).float(0.5)
		}
	}
	w.close(']')
	w.key("reason").str(g.reason)
	w.key("notes").open('[').close(']')
	if !g.over {
		// answers: the queries every bot asks every turn, answered ahead:
		// the judge asks them no more this turn (Params, fixed in
		// game.toml, no more this game: it is answered at each seat's
		// first turn).
		heights, _ := g.query(0, []string{"Heights"})
		w.key("answers").open('{').key("Heights").str(heights)
		if g.turn <= 2 { // each seat's first turn
			params, _ := g.query(0, []string{"Params"})
			w.key("Params").str(params)
		}
		w.close('}')
	}
	w.close('}')
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
		return strconv.Itoa(g.w) + " " + strconv.Itoa(g.h) + " " + strconv.Itoa(g.k), true
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

// command writes the answer to a seat's command: the move it binds, or
// why it is none.
func (g *game) command(w *writer, seat int, f []string) {
	if len(f) == 0 || f[0] != "DropDisc" {
		w.key("unknown").str("not a command of connect4")
		return
	}
	col, err := g.check(f[1:])
	if err != nil {
		g.orders[seat].lastErr = strings.Join(f, " ") + ": " + err.Error()
		w.key("invalid").str(err.Error())
		return
	}
	g.orders[seat].move = "DropDisc " + strconv.Itoa(col)
	w.key("move").strs(g.orders[seat].move) // command-moves
}

// check tells why DropDisc with args cannot be played now.
func (g *game) check(args []string) (int, error) {
	if len(args) != 1 {
		return 0, errors.New("want 1 number (a column), got " + strconv.Itoa(len(args)) + " words")
	}
	col, err := strconv.Atoi(args[0])
	if err != nil {
		return 0, errors.New("column " + strconv.Quote(args[0]) + " is not a whole number")
	}
	if col < 0 || col >= g.w {
		return 0, errors.New("column " + strconv.Itoa(col) + " is off the board (columns 0.." + strconv.Itoa(g.w-1) + ")")
	}
	if g.filled[col] == g.h {
		return 0, errors.New("column " + strconv.Itoa(col) + " is full")
	}
	return col, nil
}

func (g *game) apply(r *request) error {
	if g.over {
		return errors.New("game is over")
	}
	seat := g.toMove()
	if len(r.Moves) != 1 || r.Moves[0].Seat != seat || len(r.Moves[0].Move) != 1 {
		return errors.New("want one move of seat " + strconv.Itoa(seat))
	}
	f := fields(r.Moves[0].Move[0])
	if len(f) == 0 || f[0] != "DropDisc" {
		return errors.New("move " + strconv.Quote(r.Moves[0].Move[0]) + " is not DropDisc")
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
		g.finish(seat, string(symbol(seat))+" made "+strconv.Itoa(g.k)+" in a row")
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
		n := strconv.Itoa(g.h - 1 - i)
		b.WriteString(strings.Repeat(" ", pad-len(n)) + n + "  " + row + "\n")
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

// view writes the fields of the game's frame: the board, the last disc
// dropped, and each seat's discs.
func (g *game) view(w *writer) {
	w.key("grids").open('[').open('{').key("name").str("board").key("rows").open('[')
	for y := 0; y < g.h; y++ {
		w.str(string(g.cells[y*g.w : (y+1)*g.w]))
	}
	w.close(']').close('}').close(']')
	w.key("marks").open('[')
	if g.turn > 1 {
		seat := (g.turn - 2) % 2
		if col := g.last[seat]; col >= 0 && g.filled[col] > 0 {
			w.open('{').key("g").int(0).key("x").int(col).key("y").int(g.h - g.filled[col]).
				key("seat").int(seat).key("kind").str("last").close('}')
		}
	}
	w.close(']')
	var discs [2]int
	w.key("seats").open('[')
	for seat := 0; seat < 2; seat++ {
		discs[seat] = strings.Count(string(g.cells), string(symbol(seat)))
		w.str(string(symbol(seat)) + ", " + strconv.Itoa(discs[seat]) + " discs dropped")
	}
	w.close(']')
	w.key("numbers").open('{').key("discs").ints(discs[:]...).close('}')
}

// explain writes the notes on the move just played: after one that leaves
// the opponent a winning drop, says so.
func (g *game) explain(w *writer) {
	w.open('[')
	defer w.close(']')
	if g.over || g.placed == 0 {
		return
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
		return
	}
	var text string
	if mine := g.last[me]; len(cols) == 1 && cols[0] == mine {
		text = "seat " + strconv.Itoa(me) + "'s disc in column " + strconv.Itoa(mine) + " let seat " + strconv.Itoa(them) + " win on top of it"
	} else {
		where := "column " + strconv.Itoa(cols[0])
		if len(cols) > 1 {
			s := make([]string, len(cols))
			for i, c := range cols {
				s[i] = strconv.Itoa(c)
			}
			where = "columns " + strings.Join(s, ", ")
		}
		text = "seat " + strconv.Itoa(me) + " did not block seat " + strconv.Itoa(them) + "'s threat: a disc of seat " +
			strconv.Itoa(them) + " in " + where + " makes " + strconv.Itoa(g.k) + " in a row"
	}
	w.open('{').key("seat").int(me).key("kind").str("threat").key("text").str(text).close('}')
}
