// Command hunter is a Battleship bot that shoots where a ship is most
// likely to be.
//
// Each turn it counts, for every cell, the ways the enemy ships still
// afloat could lie across it, given what its shots have shown: a ship
// cannot cover a miss or a ship already sunk, and once a ship is hit the
// placements through the hits that are not yet accounted for weigh far
// more (finishing a wounded ship comes first). It shoots the unshot cell
// with the highest count.
//
// It places its own fleet at random, with ships not touching each other
// when there is room, seeded by JUDGE_SEED.
//
// It writes with fmt.Println to os.Stdout, which Go does not buffer, so
// every line reaches the judge at once.
package main

import (
	"bufio"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
)

func main() {
	seed, _ := strconv.ParseUint(os.Getenv("JUDGE_SEED"), 10, 64)
	b := &bot{
		in:  bufio.NewScanner(os.Stdin),
		rng: rand.New(rand.NewPCG(seed, 0x5eed)),
	}
	b.in.Buffer(make([]byte, 1<<20), 1<<20)
	for b.turn() {
	}
}

type bot struct {
	in  *bufio.Scanner
	rng *rand.Rand

	w, h     int
	fleet    []int    // lengths of the enemy fleet, longest first
	sunkCell [][]bool // enemy cells of ships known to be sunk
	left     []int    // the enemy ships afloat after my previous shot
}

// ask writes a query and reads n lines of answer; false when stdin closed.
func (b *bot) ask(q string, n int) ([]string, bool) {
	fmt.Println(q)
	out := make([]string, 0, n)
	for i := 0; i < n; i++ {
		if !b.in.Scan() {
			return nil, false
		}
		out = append(out, b.in.Text())
	}
	return out, true
}

func ints(s string) []int {
	var v []int
	for _, f := range strings.Fields(s) {
		n, _ := strconv.Atoi(f)
		v = append(v, n)
	}
	return v
}

// turn plays one turn; false when the game is over.
func (b *bot) turn() bool {
	phase, ok := b.ask("Phase", 1)
	if !ok {
		return false
	}
	if b.w == 0 {
		p, ok := b.ask("Params", 1)
		if !ok {
			return false
		}
		v := ints(p[0])
		b.w, b.h = v[0], v[1]
		f, ok := b.ask("Fleet", 1)
		if !ok {
			return false
		}
		b.fleet = ints(f[0])
		b.left = append([]int(nil), b.fleet...)
		b.sunkCell = make([][]bool, b.h)
		for y := range b.sunkCell {
			b.sunkCell[y] = make([]bool, b.w)
		}
	}
	if phase[0] == "place" {
		for _, s := range b.place() {
			fmt.Println("PlaceShip " + s)
		}
		fmt.Println("#END")
		return true
	}
	x, y, ok := b.aim()
	if !ok {
		return false
	}
	fmt.Printf("Shoot %d %d\n", x, y)
	fmt.Println("#END")
	return true
}

// place lays the fleet at random; ships keep a cell of water between them
// when the tries allow.
func (b *bot) place() []string {
	for try := 0; ; try++ {
		spaced := try < 200
		used := make([]bool, b.w*b.h)
		var ships []string
		ok := true
		for _, n := range b.fleet {
			placed := false
			for a := 0; a < 500 && !placed; a++ {
				dx, dy := 1, 0
				if b.rng.IntN(2) == 0 {
					dx, dy = 0, 1
				}
				x, y := b.rng.IntN(b.w), b.rng.IntN(b.h)
				ex, ey := x+dx*(n-1), y+dy*(n-1)
				if ex >= b.w || ey >= b.h || !b.free(used, x, y, ex, ey, spaced) {
					continue
				}
				for i := 0; i < n; i++ {
					used[(y+dy*i)*b.w+x+dx*i] = true
				}
				ships = append(ships, fmt.Sprintf("%d,%d-%d,%d", x, y, ex, ey))
				placed = true
			}
			if !placed {
				ok = false
				break
			}
		}
		if ok {
			return ships
		}
	}
}

func (b *bot) free(used []bool, x1, y1, x2, y2 int, spaced bool) bool {
	m := 0
	if spaced {
		m = 1
	}
	for y := y1 - m; y <= y2+m; y++ {
		for x := x1 - m; x <= x2+m; x++ {
			if x < 0 || y < 0 || x >= b.w || y >= b.h {
				continue
			}
			if used[y*b.w+x] {
				return false
			}
		}
	}
	return true
}

// aim reads what is known and picks the cell to shoot.
func (b *bot) aim() (x, y int, ok bool) {
	rows, ok := b.ask("Board", b.h)
	if !ok {
		return 0, 0, false
	}
	grid := make([][]string, b.h)
	for y, r := range rows {
		grid[y] = strings.Fields(r)
	}
	last, ok := b.ask("LastShot", 1)
	if !ok {
		return 0, 0, false
	}
	rem, ok := b.ask("ShipsRemaining", 1)
	if !ok {
		return 0, 0, false
	}
	left := ints(rem[0])
	// The ship my last shot sank: the length that left the list.
	if f := strings.Fields(last[0]); len(f) == 3 && f[2] == "sunk" {
		lx, _ := strconv.Atoi(f[0])
		ly, _ := strconv.Atoi(f[1])
		b.markSunk(grid, lx, ly, gone(b.left, left))
	}
	b.left = left

	// hit: a hit cell not known to belong to a sunk ship.
	hit := func(x, y int) bool { return grid[y][x] == "x" && !b.sunkCell[y][x] }
	blocked := func(x, y int) bool { return grid[y][x] == "o" || b.sunkCell[y][x] }
	score := make([][]float64, b.h)
	for y := range score {
		score[y] = make([]float64, b.w)
	}
	for _, n := range left {
		for _, d := range [][2]int{{1, 0}, {0, 1}} {
			if n == 1 && d[1] == 1 {
				continue
			}
			for y := 0; y+d[1]*(n-1) < b.h; y++ {
				for x := 0; x+d[0]*(n-1) < b.w; x++ {
					hits, ok := 0, true
					for i := 0; i < n && ok; i++ {
						cx, cy := x+d[0]*i, y+d[1]*i
						if blocked(cx, cy) {
							ok = false
						} else if hit(cx, cy) {
							hits++
						}
					}
					if !ok {
						continue
					}
					wgt := 1.0
					for i := 0; i < hits; i++ {
						wgt *= 50
					}
					for i := 0; i < n; i++ {
						score[y+d[1]*i][x+d[0]*i] += wgt
					}
				}
			}
		}
	}
	best, bx, by, ties := -1.0, 0, 0, 0
	for y := 0; y < b.h; y++ {
		for x := 0; x < b.w; x++ {
			if grid[y][x] != "-" {
				continue
			}
			s := score[y][x]
			switch {
			case s > best:
				best, bx, by, ties = s, x, y, 1
			case s == best:
				ties++
				if b.rng.IntN(ties) == 0 {
					bx, by = x, y
				}
			}
		}
	}
	return bx, by, true
}

// gone is the length in before but not in after (both longest first).
func gone(before, after []int) int {
	count := map[int]int{}
	for _, n := range before {
		count[n]++
	}
	for _, n := range after {
		count[n]--
	}
	for n, c := range count {
		if c > 0 {
			return n
		}
	}
	return 1
}

// markSunk marks the n cells of the ship sunk at (x, y): a straight run of
// hits through it not yet marked. When several runs fit, the first found
// is taken.
func (b *bot) markSunk(grid [][]string, x, y, n int) {
	free := func(cx, cy int) bool {
		return cx >= 0 && cy >= 0 && cx < b.w && cy < b.h && grid[cy][cx] == "x" && !b.sunkCell[cy][cx]
	}
	for _, d := range [][2]int{{1, 0}, {0, 1}} {
		for start := 0; start < n; start++ {
			sx, sy := x-d[0]*start, y-d[1]*start
			ok := true
			for i := 0; i < n && ok; i++ {
				ok = free(sx+d[0]*i, sy+d[1]*i)
			}
			if ok {
				for i := 0; i < n; i++ {
					b.sunkCell[sy+d[1]*i][sx+d[0]*i] = true
				}
				return
			}
		}
	}
	b.sunkCell[y][x] = true
}
