package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"judge/judge/browsertest"
	"judge/judge/judgetest"
)

// syncBuffer is a buffer written by the command and read by the test.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func TestPlayWebUsage(t *testing.T) {
	code, _, errs := run(t, "play", "--game", "tictactoe", "--web", "--addr", "0.0.0.0:0", "bot")
	if code != 2 || !strings.Contains(errs, "loopback") {
		t.Errorf("--addr 0.0.0.0:0: status %d, %q; want 2 saying loopback", code, errs)
	}
}

// webGame is judge play --web run in-process, with a browser on its page.
type webGame struct {
	t        *testing.T
	bctx     context.Context
	out, err *syncBuffer
	done     chan int
}

// startWeb runs judge play --web with args and opens its page.
func startWeb(t *testing.T, args ...string) *webGame {
	t.Helper()
	bctx := browsertest.New(t, 8*time.Minute) // a whole Battleship game of clicks on a loaded machine
	g := &webGame{t: t, bctx: bctx, out: &syncBuffer{}, err: &syncBuffer{}, done: make(chan int, 1)}
	m := &Main{Stdout: g.out, Stderr: g.err}
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	go func() { g.done <- m.Run(ctx, append([]string{"play", "--web"}, args...)) }()
	addr := regexp.MustCompile(`Play at (http://127\.0\.0\.1:\d+/)`)
	var url string
	for deadline := time.Now().Add(time.Minute); url == ""; time.Sleep(20 * time.Millisecond) {
		if m := addr.FindStringSubmatch(g.out.String()); m != nil {
			url = m[1]
		}
		if time.Now().After(deadline) {
			t.Fatalf("no address printed:\n%s\n%s", g.out.String(), g.err.String())
		}
	}
	if err := chromedp.Do(bctx, chromedp.Navigate(url)); err != nil {
		t.Fatal(err)
	}
	return g
}

// waitTurn waits until the page asks for a move with its board drawn
// (true) or shows the end (false).
func (g *webGame) waitTurn() bool {
	for {
		s, err := chromedp.Run(g.bctx, chromedp.Evaluate[string](`document.body.dataset.over === "yes" ? "over" :
			(document.body.dataset.asking === "yes" && document.body.dataset.drawn === "yes" ? "yes" : "")`))
		if err != nil {
			g.t.Fatalf("the page: %v\n%s", err, g.out.String())
		}
		if s == "over" || s == "yes" {
			return s == "yes"
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// click clicks cell x y of grid gr of the board drawn on the canvas, with
// the mouse where the page draws it.
func (g *webGame) click(gr, x, y int) {
	at, err := chromedp.Run(g.bctx, chromedp.Evaluate[struct{ X, Y float64 }](fmt.Sprintf(`cellCenter(%d, %d, %d)`, gr, x, y)))
	if err != nil {
		g.t.Fatalf("cell %d %d of grid %d: %v", x, y, gr, err)
	}
	if err := chromedp.Do(g.bctx, chromedp.MouseClickXY(at.X, at.Y)); err != nil {
		g.t.Fatal(err)
	}
}

// end checks the end shown in the page, the command's status and the
// replay's person.
func (g *webGame) end(replay, name string, want ...string) {
	t := g.t
	over, err := chromedp.Run(g.bctx, chromedp.TextContent(chromedp.ID("over")))
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range append([]string{"The end of the game:"}, want...) {
		if !strings.Contains(over, w) {
			t.Errorf("the page's end does not say %q:\n%s", w, over)
		}
	}
	select {
	case code := <-g.done:
		if code != 0 {
			t.Fatalf("status %d\n%s\n%s", code, g.out.String(), g.err.String())
		}
	case <-time.After(time.Minute):
		t.Fatal("judge play --web did not return once the page had the end")
	}
	var rp struct {
		Bots []struct{ Name string }
	}
	b, err := os.ReadFile(replay)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &rp); err != nil || !slices.ContainsFunc(rp.Bots, func(b struct{ Name string }) bool { return b.Name == name }) {
		t.Errorf("replay: %v, %+v", err, rp.Bots)
	}
}

// A person plays tic-tac-toe in the browser against the random bot, by
// clicking the cells drawn on the canvas in reading order (a taken cell
// is refused and asked again), to the end of the game.
func TestPlayWebBrowser(t *testing.T) {
	if testing.Short() {
		t.Skip("plays a bot program in a browser")
	}
	bot := quote(judgetest.Bot(t, "examples/gomoku/random.c"))
	replay := filepath.Join(t.TempDir(), "game.json")
	g := startWeb(t, "--game", "tictactoe", "--seat", "1", "--name", "ann", "--seed", "3", "--replay", replay, bot)
	clicks := 0
	for _, mv := range readingOrder {
		if !g.waitTurn() {
			break
		}
		var x, y int
		fmt.Sscan(mv, &x, &y)
		g.click(0, x, y)
		clicks++
	}
	if g.waitTurn() {
		t.Fatalf("the game did not end after %d clicks", clicks)
	}
	g.end(replay, "ann", "tictactoe (k=3 n=3), seed 3:", "ann")
	t.Logf("%d clicks", clicks)
}

// Connect Four in the browser against a bot program and a web bot (any
// BOT that judge match takes): the person clicks the columns drawn on
// the canvas in turn, a full one being refused and the next clicked,
// until the game ends.
func TestPlayWebConnect4(t *testing.T) {
	if testing.Short() {
		t.Skip("plays a bot program in a browser")
	}
	// The web bot drops its disc in the first column that is not full.
	web := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var q struct {
			Action string
			Board  [][]string
		}
		if json.NewDecoder(r.Body).Decode(&q) != nil || q.Action == "init" {
			return
		}
		for x := range q.Board[len(q.Board)-1] {
			if q.Board[len(q.Board)-1][x] == "" {
				fmt.Fprintf(w, `{"play":"%d"}`, x)
				return
			}
		}
	}))
	defer web.Close()
	for _, tt := range []struct {
		name, bot string
		seat      string
	}{
		{"program", quote(judgetest.Bot(t, "examples/connect4/random.c")), "0"},
		{"web bot", web.URL + "/bot.php", "1"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			replay := filepath.Join(t.TempDir(), "game.json")
			g := startWeb(t, "--game", "connect4", "--seat", tt.seat, "--seed", "7", "--replay", replay, tt.bot)
			clicks := 0
			for ; clicks < 200 && g.waitTurn(); clicks++ {
				// The top row: a click anywhere in the column drops a disc.
				g.click(0, 6-clicks%7, 0)
			}
			if g.waitTurn() {
				t.Fatalf("the game did not end after %d clicks", clicks)
			}
			g.end(replay, "you", "connect4")
			b, err := os.ReadFile(replay)
			if err != nil {
				t.Fatal(err)
			}
			if n := strings.Count(string(b), "DropDisc"); n < 7 {
				t.Errorf("the replay holds %d discs", n)
			}
			t.Logf("%d clicks", clicks)
		})
	}
}

// Battleship in the browser: two ships placed by clicking their two ends
// on the person's waters, the rest of the fleet at random with the
// page's button, then shots clicked on the opponent's waters in reading
// order until one fleet is sunk.
func TestPlayWebBattleship(t *testing.T) {
	if testing.Short() {
		t.Skip("plays a bot program in a browser")
	}
	bot := quote(judgetest.Bot(t, "examples/battleship/random.c"))
	replay := filepath.Join(t.TempDir(), "game.json")
	g := startWeb(t, "--game", "battleship", "--seat", "1", "--seed", "5", "--replay", replay, bot)
	// Seat 1's waters are grid 1; the default fleet is 5 4 3 3 2.
	for i, n := range []int{5, 4} {
		if !g.waitTurn() {
			t.Fatalf("the game ended in the placement")
		}
		g.click(1, 0, 2*i)
		g.click(1, n-1, 2*i)
	}
	if !g.waitTurn() {
		t.Fatalf("the game ended in the placement")
	}
	if err := chromedp.Do(g.bctx, chromedp.Click(chromedp.ID("random"))); err != nil {
		t.Fatal(err)
	}
	shots := 0
	for y := 0; y < 10 && g.waitTurn(); y++ {
		for x := 0; x < 10 && g.waitTurn(); x++ {
			g.click(0, x, y)
			shots++
		}
	}
	if g.waitTurn() {
		t.Fatalf("the game did not end after %d shots", shots)
	}
	g.end(replay, "you", "battleship")
	b, err := os.ReadFile(replay)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"PlaceShip 0,0-4,0", "PlaceShip 0,2-3,2"} {
		if !strings.Contains(string(b), w) {
			t.Errorf("the replay does not hold %s", w)
		}
	}
	if n := strings.Count(string(b), "PlaceShip"); n != 2*5 {
		t.Errorf("the replay holds %d ships, want 10", n)
	}
	t.Logf("%d shots", shots)
}
