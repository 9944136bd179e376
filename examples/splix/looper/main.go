// Command looper is a splix bot that grows its land by small rectangular
// loops: out of its land, a few steps on, a turn, a few steps across, and
// back home, which fills the rectangle. It never leaves the board, never
// crosses its own trail, and runs home by the shortest way as soon as the
// plan cannot go on or another player comes near.
//
// Each turn it asks Position, Board, Trails and View.
package main

import (
	"bufio"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
)

var (
	in  = bufio.NewReader(os.Stdin)
	out = bufio.NewWriter(os.Stdout)
)

// ask sends a query and returns the first lines lines of the answer.
func ask(q string, lines int) ([]string, error) {
	fmt.Fprintln(out, q)
	out.Flush() // Go buffers its own output: flush before waiting for the answer
	ans := make([]string, lines)
	for i := range ans {
		s, err := in.ReadString('\n')
		if err != nil {
			return nil, err
		}
		ans[i] = strings.TrimRight(s, "\r\n")
	}
	return ans, nil
}

// Directions: North is y+1, East is x+1.
var (
	names = "NESW"
	dx    = [4]int{0, 1, 0, -1}
	dy    = [4]int{1, 0, -1, 0}
)

const viewR = 10

// world is what the bot knows in one turn.
type world struct {
	n, seat int
	x, y    int
	head    int
	owner   []string // Board: row 0 is y = n-1
	trail   []string // Trails
	enemies [][2]int // heads seen in View
}

func (w *world) in(x, y int) bool { return x >= 0 && y >= 0 && x < w.n && y < w.n }
func (w *world) mineLand(x, y int) bool {
	return w.in(x, y) && w.owner[w.n-1-y][x] == byte('0'+w.seat)
}
func (w *world) myTrail(x, y int) bool {
	return w.in(x, y) && w.trail[w.n-1-y][x] == byte('0'+w.seat)
}

// ok: moving onto (x, y) does not kill us by our own doing.
func (w *world) ok(x, y int) bool { return w.in(x, y) && !w.myTrail(x, y) }

// near is the Manhattan distance from (x, y) to the closest enemy head.
func (w *world) near(x, y int) int {
	d := 1 << 30
	for _, e := range w.enemies {
		d = min(d, abs(e[0]-x)+abs(e[1]-y))
	}
	return d
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}

// home is the first move of a shortest way to our land that avoids our
// trail (and cells next to enemy heads when it can), with its length; -1
// when there is none.
func (w *world) home() (int, int) {
	for _, careful := range []bool{true, false} {
		if d, l := w.bfs(careful); d >= 0 {
			return d, l
		}
	}
	return -1, 0
}

func (w *world) bfs(careful bool) (int, int) {
	n := w.n
	first := make([]int8, n*n)
	for i := range first {
		first[i] = -1
	}
	dist := make([]int32, n*n)
	start := w.y*n + w.x
	first[start] = 4
	queue := []int{start}
	for len(queue) > 0 {
		c := queue[0]
		queue = queue[1:]
		x, y := c%n, c/n
		if c != start && w.mineLand(x, y) {
			return int(first[c]), int(dist[c])
		}
		for d := 0; d < 4; d++ {
			nx, ny := x+dx[d], y+dy[d]
			if !w.ok(nx, ny) || first[ny*n+nx] >= 0 {
				continue
			}
			if careful && !w.mineLand(nx, ny) && w.near(nx, ny) <= 1 {
				continue
			}
			f := first[c]
			if c == start {
				f = int8(d)
			}
			first[ny*n+nx] = f
			dist[ny*n+nx] = dist[c] + 1
			queue = append(queue, ny*n+nx)
		}
	}
	return -1, 0
}

// bot is what the bot remembers from turn to turn.
type bot struct {
	rng  *rand.Rand
	plan []int // directions still to go
}

// newPlan lays out a loop from (x, y), on our land: straight out of the
// land in d, a steps on, b steps across, then back in the reverse of d.
// It returns nil when the loop would leave the board.
func (w *world) newPlan(d, side, a, b int) []int {
	x, y := w.x, w.y
	var plan []int
	step := func(dir int) bool {
		x, y = x+dx[dir], y+dy[dir]
		plan = append(plan, dir)
		return w.in(x, y) && !w.myTrail(x, y) && w.near(x, y) > 2
	}
	for w.mineLand(x+dx[d], y+dy[d]) {
		if !step(d) {
			return nil
		}
	}
	for i := 0; i < a; i++ {
		if !step(d) {
			return nil
		}
	}
	for i := 0; i < b; i++ {
		if !step(side) {
			return nil
		}
	}
	back := (d + 2) % 4
	for i := 0; i < a && !w.mineLand(x, y); i++ {
		if !step(back) {
			return nil
		}
	}
	return plan
}

func (b *bot) move(w *world) int {
	onLand := w.mineLand(w.x, w.y)
	if onLand && len(b.plan) == 0 {
		size := 3 + b.rng.IntN(3)
		for _, d := range b.rng.Perm(4) {
			side := (d + 1) % 4
			if b.rng.IntN(2) == 0 {
				side = (d + 3) % 4
			}
			if p := w.newPlan(d, side, size, size); p != nil {
				b.plan = p
				break
			}
		}
	}
	if len(b.plan) > 0 {
		d := b.plan[0]
		nx, ny := w.x+dx[d], w.y+dy[d]
		// Go on with the plan while it is safe and no one is close.
		if w.ok(nx, ny) && (w.mineLand(nx, ny) || w.near(nx, ny) > 3) {
			b.plan = b.plan[1:]
			return d
		}
		b.plan = nil
	}
	if !onLand {
		if d, _ := w.home(); d >= 0 {
			return d
		}
	}
	// On our land with nothing to do, or lost: any move that does not
	// kill us, straight on first.
	for _, d := range append([]int{w.head}, b.rng.Perm(4)...) {
		if w.ok(w.x+dx[d], w.y+dy[d]) {
			return d
		}
	}
	return w.head
}

func main() {
	seed, _ := strconv.ParseUint(os.Getenv("JUDGE_SEED"), 10, 64)
	b := &bot{rng: rand.New(rand.NewPCG(seed, 1))}
	for {
		if err := b.turn(); err != nil {
			return // stdin closed: the game is over
		}
	}
}

func (b *bot) turn() error {
	w := &world{}
	p, err := ask("Params", 1)
	if err != nil {
		return err
	}
	if _, err := fmt.Sscan(p[0], &w.n); err != nil {
		return err
	}
	s, err := ask("MySeat", 1)
	if err != nil {
		return err
	}
	w.seat, _ = strconv.Atoi(s[0])
	pos, err := ask("Position", 1)
	if err != nil {
		return err
	}
	var h string
	if _, err := fmt.Sscan(pos[0], &w.x, &w.y, &h); err != nil {
		return err
	}
	w.head = strings.Index(names, h)
	if w.owner, err = ask("Board", w.n); err != nil {
		return err
	}
	if w.trail, err = ask("Trails", w.n); err != nil {
		return err
	}
	view, err := ask("View", 2*viewR+1)
	if err != nil {
		return err
	}
	me := byte('A' + w.seat)
	for r, row := range view {
		for c := 0; c < len(row); c++ {
			if ch := row[c]; ch >= 'A' && ch <= 'E' && ch != me {
				w.enemies = append(w.enemies, [2]int{w.x + c - viewR, w.y + viewR - r})
			}
		}
	}
	d := b.move(w)
	fmt.Fprintf(out, "Move %c\n#END\n", names[d])
	return out.Flush()
}
