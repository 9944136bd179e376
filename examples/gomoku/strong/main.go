// Command strong is a gomoku / tic-tac-toe bot that plays well: it wins
// when it can, blocks the opponent's win, and otherwise picks the cell
// that best extends its own lines and cuts the opponent's.
//
// It asks the judge for Params, MySymbol and Board each turn, so it keeps
// no state between turns and cannot get out of step.
package main

import (
	"bufio"
	"fmt"
	"os"
	"strings"
)

var (
	in  = bufio.NewReader(os.Stdin)
	out = bufio.NewWriter(os.Stdout)
)

// ask sends a query and returns the first line of the answer.
func ask(q string) (string, error) {
	fmt.Fprintln(out, q)
	out.Flush() // Go buffers its own output: flush before waiting for the answer
	return readLine()
}

func readLine() (string, error) {
	s, err := in.ReadString('\n')
	return strings.TrimRight(s, "\r\n"), err
}

func main() {
	for {
		if err := turn(); err != nil {
			return // stdin closed: the game is over
		}
	}
}

func turn() error {
	p, err := ask("Params")
	if err != nil {
		return err
	}
	var n, k int
	if _, err := fmt.Sscan(p, &n, &k); err != nil {
		return err
	}
	me, err := ask("MySymbol")
	if err != nil {
		return err
	}
	first, err := ask("Board")
	if err != nil {
		return err
	}
	b := board{n: n, k: k, cells: make([]byte, 0, n*n)}
	row := first
	for y := 0; y < n; y++ {
		if y > 0 {
			if row, err = readLine(); err != nil {
				return err
			}
		}
		for _, f := range strings.Fields(row) {
			b.cells = append(b.cells, f[0])
		}
	}
	x, y := b.best(me[0])
	fmt.Fprintf(out, "PlaceSymbol %d %d\n#END\n", x, y)
	return out.Flush()
}

type board struct {
	n, k  int
	cells []byte // row-major
}

func (b *board) at(x, y int) byte {
	if x < 0 || y < 0 || x >= b.n || y >= b.n {
		return '#'
	}
	return b.cells[y*b.n+x]
}

var dirs = [4][2]int{{1, 0}, {0, 1}, {1, 1}, {1, -1}}

// best picks a move for symbol me.
func (b *board) best(me byte) (int, int) {
	opp := byte('X')
	if me == 'X' {
		opp = 'O'
	}
	bestScore, bx, by := -1, -1, -1
	for y := 0; y < b.n; y++ {
		for x := 0; x < b.n; x++ {
			if b.at(x, y) != '-' {
				continue
			}
			s := 0
			switch {
			case b.wins(x, y, me):
				s = 1 << 40
			case b.wins(x, y, opp):
				s = 1 << 36
			default:
				s = 2*b.potential(x, y, me) + b.potential(x, y, opp)
				// Prefer the centre a little: more lines pass through it.
				c := b.n / 2
				s = s*64 + (b.n - abs(x-c) - abs(y-c))
			}
			if s > bestScore {
				bestScore, bx, by = s, x, y
			}
		}
	}
	return bx, by
}

// wins reports whether sym on (x, y) makes a line of k.
func (b *board) wins(x, y int, sym byte) bool {
	for _, d := range dirs {
		run := 1
		for i := 1; b.at(x+i*d[0], y+i*d[1]) == sym; i++ {
			run++
		}
		for i := 1; b.at(x-i*d[0], y-i*d[1]) == sym; i++ {
			run++
		}
		if run >= b.k {
			return true
		}
	}
	return false
}

// potential scores (x, y) for sym: every window of k cells through it that
// the other symbol does not block counts, more the fuller it is.
func (b *board) potential(x, y int, sym byte) int {
	total := 0
	for _, d := range dirs {
		for off := 0; off < b.k; off++ {
			sx, sy := x-off*d[0], y-off*d[1]
			mine, ok := 0, true
			for i := 0; i < b.k; i++ {
				c := b.at(sx+i*d[0], sy+i*d[1])
				if c == sym {
					mine++
				} else if c != '-' {
					ok = false
					break
				}
			}
			if ok {
				total += 1 << (3 * mine)
			}
		}
	}
	return total
}

func abs(a int) int {
	if a < 0 {
		return -a
	}
	return a
}
