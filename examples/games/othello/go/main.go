// Command othello is the referee of Othello (Reversi) for the judge: it
// speaks the referee protocol, version 1 (docs/games.md), one JSON object
// a line on its standard input and output. The same source builds a
// process referee (go build) and a WebAssembly one, a reactor
// (GOOS=wasip1 GOARCH=wasm go build -buildmode=c-shared -o referee.wasm);
// referee.py beside it plays by the same rules, answer for answer.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
)

// request is every field a request of the protocol may have.
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

// status is the STATUS object of the protocol.
type status struct {
	Turn   int       `json:"turn"`
	Movers []int     `json:"movers"`
	Over   bool      `json:"over"`
	Winner int       `json:"winner"`
	Scores []float64 `json:"scores"`
	Reason string    `json:"reason"`
	Notes  []string  `json:"notes"`
}

// The responses, their fields in the order they are written.
type (
	helloResp struct {
		Protocol int      `json:"protocol"`
		Features []string `json:"features"`
	}
	newResp struct {
		Seats  int    `json:"seats"`
		Status status `json:"status"`
	}
	statusResp struct {
		Status status `json:"status"`
	}
	answerResp struct {
		Answer string `json:"answer"`
	}
	notQueryResp struct {
		NotQuery bool `json:"not_query"`
	}
	moveResp struct {
		Move []string `json:"move"`
	}
	movesResp struct {
		Moves [][]string `json:"moves"`
	}
	textResp struct {
		Text string `json:"text"`
	}
	viewResp struct {
		Grids   []grid           `json:"grids"`
		Marks   []mark           `json:"marks"`
		Seats   []string         `json:"seats"`
		Numbers map[string][]int `json:"numbers"`
	}
	grid struct {
		Name string   `json:"name"`
		Rows []string `json:"rows"`
	}
	mark struct {
		G    int    `json:"g"`
		X    int    `json:"x"`
		Y    int    `json:"y"`
		Seat int    `json:"seat"`
		Kind string `json:"kind"`
	}
	notesResp struct {
		Notes []note `json:"notes"`
	}
	note struct {
		Seat int    `json:"seat"`
		Kind string `json:"kind"`
		Text string `json:"text"`
	}
)

// referee holds the game and the commands of the turn.
type referee struct {
	s       *state
	move    []string // the last valid command of the seat to move, canonical
	lastBad string   // the last refused command and why
	hasCmd  bool     // a command came this turn
}

// The referee's stdin, stdout and game, kept from one request to the
// next.
var (
	in  = newScanner()
	out = bufio.NewWriter(os.Stdout)
	ref = &referee{}
)

func newScanner() *bufio.Scanner {
	sc := bufio.NewScanner(os.Stdin)
	sc.Buffer(make([]byte, 64*1024), 16*1024*1024)
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
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(ref.handle(in.Bytes())); err != nil {
		fmt.Fprintln(os.Stderr, "othello:", err)
		os.Exit(1)
	}
	out.Write(buf.Bytes())
	out.Flush()
	return true
}

// errResp is the referee's own failure.
func errResp(format string, args ...any) map[string]string {
	return map[string]string{"error": fmt.Sprintf(format, args...)}
}

// handle answers one request line.
func (r *referee) handle(line []byte) any {
	var q request
	if err := json.Unmarshal(line, &q); err != nil {
		return errResp("bad request: %v", err)
	}
	switch q.Op {
	case "hello":
		// turn-orders: the commands start with each turn, as orders
		// would start them; reuse: new starts a game afresh
		// (docs/games.md).
		return helloResp{Protocol: 1, Features: []string{"turn-orders", "reuse"}}
	case "new":
		n, ok := q.Params["size"]
		if !ok {
			n = 8
		}
		if n < 4 || n > 16 || n%2 != 0 {
			return map[string]string{"refused": fmt.Sprintf("size must be even, 4..16, got %d", n)}
		}
		r.s, r.move, r.lastBad, r.hasCmd = newState(n), nil, "", false
		return newResp{Seats: 2, Status: r.status()}
	}
	if r.s == nil {
		return errResp("%s before new", q.Op)
	}
	if (q.Op == "query" || q.Op == "orders" || q.Op == "command" || q.Op == "commit" ||
		q.Op == "forfeit" || q.Op == "moves") && (q.Seat < 0 || q.Seat > 1) {
		return errResp("no seat %d", q.Seat)
	}
	return r.turnOp(q)
}

// turnOp answers the requests of a game under way.
func (r *referee) turnOp(q request) any {
	s := r.s
	switch q.Op {
	case "query":
		if a, ok := s.query(q.Seat, q.Line); ok {
			return answerResp{Answer: a}
		}
		return notQueryResp{NotQuery: true}
	case "orders":
		r.move, r.lastBad, r.hasCmd = nil, "", false
		return struct{}{}
	case "command":
		return r.command(q.Seat, q.Line)
	case "commit":
		return r.commit()
	case "apply":
		if len(q.Moves) != 1 {
			return errResp("want the move of one seat, got %d", len(q.Moves))
		}
		if why := s.play(q.Moves[0].Seat, q.Moves[0].Move); why != "" {
			return errResp("apply: %s", why)
		}
		r.move, r.lastBad, r.hasCmd = nil, "", false // a new turn: turn-orders
		return statusResp{Status: r.status()}
	case "forfeit":
		s.forfeit(q.Seat)
		r.move, r.lastBad, r.hasCmd = nil, "", false
		return statusResp{Status: r.status()}
	case "moves":
		moves := [][]string{}
		if !s.over && q.Seat == s.toMove {
			for _, c := range s.legal(q.Seat) {
				moves = append(moves, []string{fmt.Sprintf("Place %d %d", c[0], c[1])})
			}
			if len(moves) == 0 {
				moves = append(moves, []string{"Pass"})
			}
		}
		return movesResp{Moves: moves}
	case "render":
		return textResp{Text: s.render()}
	case "view":
		return r.view()
	case "explain":
		return r.explain()
	}
	return errResp("unknown op %s", q.Op)
}

// command takes one command line of seat.
func (r *referee) command(seat int, line string) any {
	s := r.s
	move, known, why := s.check(seat, line)
	if !known {
		return map[string]string{"unknown": why}
	}
	r.hasCmd = true
	switch {
	case s.over:
		why = "the game is over"
	case seat != s.toMove:
		why = "it is not your turn"
	}
	if why != "" {
		r.lastBad = line + ": " + why
		return map[string]string{"invalid": why}
	}
	r.move = []string{move}
	return struct{}{}
}

// commit gives the binding move of the turn: the last valid command.
func (r *referee) commit() any {
	switch {
	case r.move != nil:
		return moveResp{Move: r.move}
	case r.lastBad != "":
		return map[string]string{"invalid": "no valid Place or Pass before #END (last one was " + r.lastBad + ")"}
	}
	return map[string]string{"invalid": "no Place or Pass before #END"}
}

func (r *referee) status() status {
	s := r.s
	st := status{Turn: s.turn, Movers: []int{}, Winner: -1, Scores: []float64{}, Notes: []string{}}
	if !s.over {
		st.Movers = []int{s.toMove}
		return st
	}
	st.Over, st.Winner, st.Reason = true, s.winner, s.reason
	switch s.winner {
	case 0:
		st.Scores = []float64{1, 0}
	case 1:
		st.Scores = []float64{0, 1}
	default:
		st.Scores = []float64{0.5, 0.5}
	}
	return st
}

func (r *referee) view() viewResp {
	s := r.s
	c := s.count()
	v := viewResp{
		Grids:   []grid{{Name: "board", Rows: s.rows()}},
		Marks:   []mark{},
		Seats:   []string{"black: " + plural(c[0], "disc"), "white: " + plural(c[1], "disc")},
		Numbers: map[string][]int{"discs": {c[0], c[1]}},
	}
	if s.last[0] >= 0 {
		v.Marks = append(v.Marks, mark{G: 0, X: s.last[0], Y: s.last[1], Seat: s.lastBy, Kind: "last"})
	}
	return v
}

// explain says how many moves the seat to move has, and whether a corner
// is among them.
func (r *referee) explain() notesResp {
	s := r.s
	n := notesResp{Notes: []note{}}
	if s.over {
		return n
	}
	l := s.legal(s.toMove)
	text := colour(s.toMove) + " has " + plural(len(l), "legal move")
	for _, c := range l {
		if (c[0] == 0 || c[0] == s.n-1) && (c[1] == 0 || c[1] == s.n-1) {
			text += fmt.Sprintf(", a corner among them (%d,%d)", c[0], c[1])
			break
		}
	}
	n.Notes = append(n.Notes, note{Seat: s.toMove, Kind: "mobility", Text: text})
	return n
}

// plural is "1 disc" or "3 discs".
func plural(n int, one string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %ss", n, one)
}
