// Package grid is a rectangular board of one-byte symbols with what the
// k-in-a-row games (gomoku, Connect Four) share: drawing it as the Board
// query does, reading it from text in tests, and finding lines.
package grid

import (
	"fmt"
	"strings"
)

// Empty is the symbol of an empty cell.
const Empty byte = '-'

// Board is W columns by H rows, (0, 0) top-left. The zero value is an
// empty board of no cells.
type Board struct {
	W, H  int
	cells []byte // row-major: cells[y*W+x]
}

// New returns a board of empty cells.
func New(w, h int) Board {
	b := Board{W: w, H: h, cells: make([]byte, w*h)}
	for i := range b.cells {
		b.cells[i] = Empty
	}
	return b
}

// Clone returns an independent copy.
func (b Board) Clone() Board {
	b.cells = append([]byte(nil), b.cells...)
	return b
}

// On reports whether (x, y) is a cell of the board.
func (b Board) On(x, y int) bool { return x >= 0 && y >= 0 && x < b.W && y < b.H }

// At returns the symbol at (x, y), which must be on the board.
func (b Board) At(x, y int) byte { return b.cells[y*b.W+x] }

// Set puts c at (x, y), which must be on the board.
func (b Board) Set(x, y int, c byte) { b.cells[y*b.W+x] = c }

// Key is the board as a string: equal boards have equal keys.
func (b Board) Key() string { return string(b.cells) }

// String draws the board as the Board query answers: H lines, top row
// first, of W symbols separated by single spaces, no final newline.
func (b Board) String() string {
	out := make([]byte, 0, 2*b.W*b.H)
	for y := 0; y < b.H; y++ {
		if y > 0 {
			out = append(out, '\n')
		}
		for x := 0; x < b.W; x++ {
			if x > 0 {
				out = append(out, ' ')
			}
			out = append(out, b.At(x, y))
		}
	}
	return string(out)
}

// Parse reads a board drawn as text, top row first, one row a line, with
// optional spaces between cells; every symbol must be in allowed.
func Parse(text, allowed string) (Board, error) {
	var rows []string
	for _, l := range strings.Split(strings.TrimSpace(text), "\n") {
		rows = append(rows, strings.ReplaceAll(strings.TrimSpace(l), " ", ""))
	}
	b := New(len(rows[0]), len(rows))
	for y, r := range rows {
		if len(r) != b.W {
			return Board{}, fmt.Errorf("row %d has %d cells, want %d", y, len(r), b.W)
		}
		for x := 0; x < b.W; x++ {
			if !strings.ContainsRune(allowed, rune(r[x])) {
				return Board{}, fmt.Errorf("row %d: bad cell %q", y, r[x])
			}
			b.Set(x, y, r[x])
		}
	}
	return b, nil
}

// The four directions of a line: across, down and the two diagonals.
var dirs = [4][2]int{{1, 0}, {0, 1}, {1, 1}, {1, -1}}

// LineThrough reports whether the symbol at (x, y) is part of a line of
// at least k of it, in any direction: the check after a move.
func (b Board) LineThrough(x, y, k int) bool {
	c := b.At(x, y)
	for _, d := range dirs {
		run := 1
		for i := 1; run < k && b.On(x+i*d[0], y+i*d[1]) && b.At(x+i*d[0], y+i*d[1]) == c; i++ {
			run++
		}
		for i := 1; run < k && b.On(x-i*d[0], y-i*d[1]) && b.At(x-i*d[0], y-i*d[1]) == c; i++ {
			run++
		}
		if run >= k {
			return true
		}
	}
	return false
}

// Winner scans the whole board for a line of k of one symbol and returns
// that symbol, or Empty. It is the slow, obvious reference for
// LineThrough.
func (b Board) Winner(k int) byte {
	for y := 0; y < b.H; y++ {
		for x := 0; x < b.W; x++ {
			c := b.At(x, y)
			if c == Empty {
				continue
			}
			for _, d := range dirs {
				i := 1
				for ; i < k && b.On(x+i*d[0], y+i*d[1]) && b.At(x+i*d[0], y+i*d[1]) == c; i++ {
				}
				if i == k {
					return c
				}
			}
		}
	}
	return Empty
}
