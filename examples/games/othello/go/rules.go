package main

import (
	"fmt"
	"strconv"
	"strings"
)

// Cells of the board.
const (
	empty = '.'
	black = 'B' // seat 0, moves first
	white = 'W' // seat 1
)

// disc is the disc of seat.
func disc(seat int) byte {
	if seat == 0 {
		return black
	}
	return white
}

// colour is the name of seat's colour, as reasons say it.
func colour(seat int) string {
	if seat == 0 {
		return "black"
	}
	return "white"
}

// dirs are the eight directions a line of discs may run in.
var dirs = [8][2]int{{-1, -1}, {0, -1}, {1, -1}, {-1, 0}, {1, 0}, {-1, 1}, {0, 1}, {1, 1}}

// state is one game of Othello.
type state struct {
	n      int
	cells  []byte // row-major, the top row first
	turn   int    // from 1
	toMove int    // the seat to move while the game is on
	last   [2]int // the cell of the last Place, or -1 -1
	lastBy int    // the seat that made it
	over   bool
	winner int
	reason string
}

func newState(n int) *state {
	s := &state{n: n, cells: []byte(strings.Repeat(".", n*n)), turn: 1, last: [2]int{-1, -1}, winner: -1}
	h := n / 2
	s.set(h-1, h-1, white)
	s.set(h, h, white)
	s.set(h, h-1, black)
	s.set(h-1, h, black)
	return s
}

func (s *state) at(x, y int) byte     { return s.cells[y*s.n+x] }
func (s *state) set(x, y int, c byte) { s.cells[y*s.n+x] = c }
func (s *state) on(x, y int) bool     { return x >= 0 && y >= 0 && x < s.n && y < s.n }

// flips counts the discs that seat's disc on (x, y) would turn over.
func (s *state) flips(seat, x, y int) int {
	if !s.on(x, y) || s.at(x, y) != empty {
		return 0
	}
	me, total := disc(seat), 0
	for _, d := range dirs {
		run := 0
		cx, cy := x+d[0], y+d[1]
		for s.on(cx, cy) && s.at(cx, cy) != empty && s.at(cx, cy) != me {
			run++
			cx, cy = cx+d[0], cy+d[1]
		}
		if run > 0 && s.on(cx, cy) && s.at(cx, cy) == me {
			total += run
		}
	}
	return total
}

// legal lists seat's legal cells, row by row from the top, each row from
// the left.
func (s *state) legal(seat int) [][2]int {
	var out [][2]int
	for y := 0; y < s.n; y++ {
		for x := 0; x < s.n; x++ {
			if s.flips(seat, x, y) > 0 {
				out = append(out, [2]int{x, y})
			}
		}
	}
	return out
}

// place puts seat's disc on (x, y), a legal cell, and turns over the
// discs it outflanks.
func (s *state) place(seat, x, y int) {
	me := disc(seat)
	for _, d := range dirs {
		run := 0
		cx, cy := x+d[0], y+d[1]
		for s.on(cx, cy) && s.at(cx, cy) != empty && s.at(cx, cy) != me {
			run++
			cx, cy = cx+d[0], cy+d[1]
		}
		if run == 0 || !s.on(cx, cy) || s.at(cx, cy) != me {
			continue
		}
		for i := 1; i <= run; i++ {
			s.set(x+i*d[0], y+i*d[1], me)
		}
	}
	s.set(x, y, me)
	s.last, s.lastBy = [2]int{x, y}, seat
}

// count is the number of discs of each seat.
func (s *state) count() [2]int {
	var c [2]int
	for _, b := range s.cells {
		switch b {
		case black:
			c[0]++
		case white:
			c[1]++
		}
	}
	return c
}

// check reads a command line of seat and says why it cannot be played
// now, if it cannot; known is false when the verb is not a command.
func (s *state) check(seat int, line string) (move string, known bool, why string) {
	f := strings.Fields(line)
	if len(f) == 0 {
		return "", false, "an empty line"
	}
	switch f[0] {
	case "Pass":
		if len(f) != 1 {
			return "", true, "Pass takes no arguments"
		}
		if len(s.legal(seat)) > 0 {
			return "", true, "a Place is legal: Pass only when none is"
		}
		return "Pass", true, ""
	case "Place":
		if len(f) != 3 {
			return "", true, fmt.Sprintf("want Place x y, got %d words after Place", len(f)-1)
		}
		x, err1 := strconv.Atoi(f[1])
		y, err2 := strconv.Atoi(f[2])
		if err1 != nil || err2 != nil {
			return "", true, "x and y must be whole numbers"
		}
		switch {
		case !s.on(x, y):
			return "", true, fmt.Sprintf("(%d,%d) is off the %dx%d board", x, y, s.n, s.n)
		case s.at(x, y) != empty:
			return "", true, fmt.Sprintf("(%d,%d) is taken", x, y)
		case s.flips(seat, x, y) == 0:
			return "", true, fmt.Sprintf("(%d,%d) turns over no disc", x, y)
		}
		return fmt.Sprintf("Place %d %d", x, y), true, ""
	}
	return "", false, `"` + f[0] + `" is not a command (commands: Place, Pass)`
}

// play applies seat's move (canonical lines, checked), then decides who
// moves next or whether the game is over.
func (s *state) play(seat int, move []string) string {
	if s.over {
		return "the game is over"
	}
	if seat != s.toMove {
		return fmt.Sprintf("seat %d moved, but seat %d is to move", seat, s.toMove)
	}
	if len(move) != 1 {
		return fmt.Sprintf("want one command, got %d", len(move))
	}
	canon, _, why := s.check(seat, move[0])
	if why != "" {
		return move[0] + ": " + why
	}
	if canon != "Pass" {
		var x, y int
		fmt.Sscanf(canon, "Place %d %d", &x, &y)
		s.place(seat, x, y)
	}
	s.turn++
	next := 1 - seat
	if len(s.legal(next)) == 0 && len(s.legal(seat)) == 0 {
		s.finish()
		return ""
	}
	s.toMove = next
	return ""
}

// finish ends a game that neither seat can play on: more discs win.
func (s *state) finish() {
	c := s.count()
	s.over = true
	switch {
	case c[0] > c[1]:
		s.winner, s.reason = 0, fmt.Sprintf("black has more discs, %d to %d", c[0], c[1])
	case c[1] > c[0]:
		s.winner, s.reason = 1, fmt.Sprintf("white has more discs, %d to %d", c[1], c[0])
	default:
		s.winner, s.reason = -1, fmt.Sprintf("equal discs, %d each", c[0])
	}
}

// forfeit takes seat out: the other seat wins.
func (s *state) forfeit(seat int) {
	if s.over {
		return
	}
	s.over, s.winner, s.reason = true, 1-seat, colour(seat)+" forfeited"
}

// rows is the board, one string per row, the top row first.
func (s *state) rows() []string {
	out := make([]string, s.n)
	for y := range out {
		out[y] = string(s.cells[y*s.n : (y+1)*s.n])
	}
	return out
}

// query answers seat's query line; ok is false when it is not a query.
func (s *state) query(seat int, line string) (answer string, ok bool) {
	f := strings.Fields(line)
	if len(f) == 0 {
		return "", false
	}
	switch f[0] {
	case "Board":
		return strings.Join(s.rows(), "\n"), true
	case "Color":
		return string(disc(seat)), true
	case "Legal":
		l := s.legal(seat)
		parts := []string{strconv.Itoa(len(l))}
		for _, c := range l {
			parts = append(parts, strconv.Itoa(c[0]), strconv.Itoa(c[1]))
		}
		return strings.Join(parts, " "), true
	case "Discs":
		c := s.count()
		return fmt.Sprintf("%d %d", c[seat], c[1-seat]), true
	case "Size":
		return strconv.Itoa(s.n), true
	case "CurrentTurn":
		return strconv.Itoa(s.turn), true
	case "LastMove":
		if s.last[0] < 0 || s.lastBy == seat {
			return "-1 -1", true
		}
		return fmt.Sprintf("%d %d", s.last[0], s.last[1]), true
	}
	return "", false
}

// render draws the board for spectators, with the count of discs.
func (s *state) render() string {
	c := s.count()
	var b strings.Builder
	for _, r := range s.rows() {
		b.WriteString(r + "\n")
	}
	fmt.Fprintf(&b, "black %d, white %d", c[0], c[1])
	if !s.over {
		fmt.Fprintf(&b, "; %s to move", colour(s.toMove))
	}
	b.WriteString("\n")
	return b.String()
}
