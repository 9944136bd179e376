package main

import (
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
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"judge/judge/browsertest"
	"judge/judge/judgetest"
)

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
	out, err *judgetest.SyncBuffer
	done     chan int
	w, h     int64 // the window's size
}

// startWeb runs judge play --web with args and opens its page in a window
// of w×h px.
func startWeb(t *testing.T, w, h int64, args ...string) *webGame {
	t.Helper()
	bctx := browsertest.New(t, 8*time.Minute) // a whole Battleship game of clicks on a loaded machine
	g := &webGame{t: t, bctx: bctx, out: &judgetest.SyncBuffer{}, err: &judgetest.SyncBuffer{}, done: make(chan int, 1), w: w, h: h}
	m := &Main{Stdout: g.out, Stderr: g.err, Host: judgetest.Host()}
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
	if err := chromedp.Do(bctx, chromedp.EmulateViewport(w, h), chromedp.Navigate(url)); err != nil {
		t.Fatal(err)
	}
	return g
}

// status checks what the page says with the board during the game: who
// plays which colour, against whom; and that its log does not say it.
func (g *webGame) status(want ...string) {
	t := g.t
	type page struct{ Status, Messages string }
	p, err := chromedp.Run(g.bctx, chromedp.Evaluate[page](`({status: document.getElementById("status").textContent,
		messages: document.getElementById("messages").textContent})`))
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range want {
		if !strings.Contains(p.Status, w) {
			t.Errorf("the page's status %q does not say %q", p.Status, w)
		}
	}
	if strings.Contains(p.Messages, "You are") || strings.Contains(p.Messages, "ships afloat") {
		t.Errorf("the page's log repeats what the status says: %q", p.Messages)
	}
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

// end checks the end shown in the page: the result in words over the
// board, on screen without scrolling, the winning line or the sunk fleet
// (highlight) drawn on the board; the command's status and the replay's
// person.
func (g *webGame) end(replay, name, highlight string, want ...string) {
	t := g.t
	type box struct{ Top, Bottom, Left, Right float64 }
	type page struct {
		Headline, Over string
		Result, Board  box
		Highlight      string
		Yellow         int // pixels of the highlight's colour
	}
	p, err := chromedp.Run(g.bctx, chromedp.Evaluate[page](`(() => {
		const r = (id) => { const b = document.getElementById(id).getBoundingClientRect(); return {top: b.top, bottom: b.bottom, left: b.left, right: b.right}; };
		const c = document.getElementById("board"), d = c.getContext("2d").getImageData(0, 0, c.width, c.height).data;
		let yellow = 0;
		for (let i = 0; i < d.length; i += 4) if (d[i] === 255 && d[i+1] === 212 && d[i+2] === 0) yellow++;
		return {headline: document.getElementById("headline").textContent, over: document.getElementById("over").textContent,
			result: r("end"), board: r("board"), highlight: viewer.highlight ? viewer.highlight.kind : "", yellow};
	})()`))
	if err != nil {
		t.Fatal(err)
	}
	browsertest.Screenshot(t, g.bctx, fmt.Sprintf("play-web-%s-%d", strings.ReplaceAll(t.Name(), "/", "-"), g.w))
	for _, w := range want {
		if !strings.Contains(p.Headline, w) {
			t.Errorf("the page's result %q does not say %q", p.Headline, w)
		}
	}
	if strings.Contains(p.Over, "The end of the game:") {
		t.Errorf("the page shows the terminal's end: %q", p.Over)
	}
	if p.Result.Top < 0 || p.Result.Bottom > float64(g.h) || p.Result.Right > float64(g.w) || p.Result.Bottom > p.Board.Top {
		t.Errorf("the result is at %+v, not over the board (%+v) in the %d×%d window", p.Result, p.Board, g.w, g.h)
	}
	if p.Highlight != highlight || highlight != "" && p.Yellow < 50 {
		t.Errorf("the board highlights %q (%d px of it drawn), want %q", p.Highlight, p.Yellow, highlight)
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

// outcome reads the winner and the reason of the replay at path.
func outcome(t *testing.T, path string) (int, string) {
	t.Helper()
	var rp struct {
		Outcome struct {
			Winner int
			Reason string
		}
	}
	b, err := os.ReadFile(path)
	if err == nil {
		err = json.Unmarshal(b, &rp)
	}
	if err != nil {
		t.Fatal(err)
	}
	return rp.Outcome.Winner, rp.Outcome.Reason
}

// A person plays tic-tac-toe in the browser against the random bot, by
// clicking the cells drawn on the canvas in reading order (a taken cell
// is refused and asked again), to the end of the game: at 1024 and
// 1280 px, the result in words over the board, with its winning line.
func TestPlayWebBrowser(t *testing.T) {
	if testing.Short() {
		t.Skip("plays a bot program in a browser")
	}
	bot := quote(judgetest.Bot(t, "examples/gomoku/random.c"))
	// Seed 2: the person wins; seed 4: the bot does.
	for _, size := range [][3]int64{{1024, 768, 2}, {1280, 800, 4}} {
		t.Run(fmt.Sprint(size[0]), func(t *testing.T) {
			replay := filepath.Join(t.TempDir(), "game.json")
			g := startWeb(t, size[0], size[1], "--game", "tictactoe", "--seat", "1", "--name", "ann", "--seed", fmt.Sprint(size[2]), "--replay", replay, bot)
			clicks := 0
			for _, mv := range readingOrder {
				if !g.waitTurn() {
					break
				}
				if clicks == 1 {
					g.status("You are O (blue), against examples_gomoku_random_c (X, red): make 3 in a row.")
				}
				var x, y int
				fmt.Sscan(mv, &x, &y)
				g.click(0, x, y)
				clicks++
			}
			if g.waitTurn() {
				t.Fatalf("the game did not end after %d clicks", clicks)
			}
			winner, reason := outcome(t, replay)
			want, hl := "No winner", ""
			switch {
			case winner == 1:
				want, hl = "You win: you made 3 in a row", "win"
			case winner == 0:
				want, hl = "examples_gomoku_random_c wins: examples_gomoku_random_c made 3 in a row", "win"
			}
			if !strings.Contains(reason, "in a row") {
				hl = ""
			}
			g.end(replay, "ann", hl, want)
			t.Logf("%d clicks: %s", clicks, reason)
		})
	}
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
		w, h      int64
	}{
		{"program", quote(judgetest.Bot(t, "examples/connect4/random.c")), "0", 1024, 768},
		{"web bot", web.URL + "/bot.php", "1", 1280, 800},
	} {
		t.Run(tt.name, func(t *testing.T) {
			replay := filepath.Join(t.TempDir(), "game.json")
			g := startWeb(t, tt.w, tt.h, "--game", "connect4", "--seat", tt.seat, "--seed", "7", "--replay", replay, tt.bot)
			clicks := 0
			for ; clicks < 200 && g.waitTurn(); clicks++ {
				// The top row: a click anywhere in the column drops a disc.
				g.click(0, 6-clicks%7, 0)
			}
			if g.waitTurn() {
				t.Fatalf("the game did not end after %d clicks", clicks)
			}
			winner, reason := outcome(t, replay)
			hl := ""
			if winner >= 0 && strings.Contains(reason, "in a row") {
				hl = "win"
			}
			g.end(replay, "you", hl, "in a row")
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
	g := startWeb(t, 1024, 768, "--game", "battleship", "--seat", "1", "--seed", "5", "--replay", replay, bot)
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
	if g.waitTurn() {
		g.status("Against examples_battleship_random_c", "Their ships afloat: 5 4 3 3 2.")
	}
	for y := 0; y < 10 && g.waitTurn(); y++ {
		for x := 0; x < 10 && g.waitTurn(); x++ {
			g.click(0, x, y)
			shots++
		}
	}
	if g.waitTurn() {
		t.Fatalf("the game did not end after %d shots", shots)
	}
	g.end(replay, "you", "sunk", "sank your whole fleet")
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
