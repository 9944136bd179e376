package human

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"judge/games"
	"judge/judge/browsertest"
	"judge/judge/replayview"
)

// grid is a board of w×h cells of c.
func grid(w, h int, c string) [][]string {
	out := make([][]string, h)
	for y := range out {
		out[y] = strings.Split(strings.Repeat(c, w), "")
	}
	return out
}

// The web console hands the page's answer to Ask, and long-polled state
// says what was shown and asked.
func TestWebAnswer(t *testing.T) {
	w := NewWeb("tictactoe")
	srv := httptest.NewServer(w)
	defer srv.Close()
	w.Show("hello")
	got := make(chan string, 1)
	go func() {
		a, err := w.Ask(context.Background(), "your move (x y)")
		if err != nil {
			a = "error: " + err.Error()
		}
		got <- a
	}()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		r, err := http.Get(srv.URL + "/state?seq=-1")
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(r.Body)
		r.Body.Close()
		if strings.Contains(string(b), `"prompt":"your move (x y)"`) && strings.Contains(string(b), `"hello"`) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("state never asked: %s", b)
		}
	}
	r, err := http.Post(srv.URL+"/answer", "text/plain", strings.NewReader("1 2"))
	if err != nil {
		t.Fatal(err)
	}
	r.Body.Close()
	if a := <-got; a != "1 2" {
		t.Errorf("Ask returned %q, want 1 2", a)
	}
	// No question waits: the answer is refused.
	r, err = http.Post(srv.URL+"/answer", "text/plain", strings.NewReader("1 2"))
	if err != nil {
		t.Fatal(err)
	}
	r.Body.Close()
	if r.StatusCode != http.StatusConflict {
		t.Errorf("an answer to no question: %s", r.Status)
	}
	// Another site's page may not answer.
	req, _ := http.NewRequest(http.MethodPost, srv.URL+"/answer", strings.NewReader("1 2"))
	req.Header.Set("Origin", "http://example.org")
	r, err = http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	r.Body.Close()
	if r.StatusCode != http.StatusForbidden {
		t.Errorf("an answer from another origin: %s", r.Status)
	}
	// Nor may a page whose site's name resolves to this machine.
	for _, host := range []string{"evil.example", "evil.example:80", "127.0.0.1.evil.example", "192.168.1.2:8080"} {
		req, _ = http.NewRequest(http.MethodGet, srv.URL+"/state?seq=-1", nil)
		req.Host = host
		r, err = http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		r.Body.Close()
		if r.StatusCode != http.StatusMisdirectedRequest {
			t.Errorf("Host %s: %s", host, r.Status)
		}
	}
	for _, h := range []string{"localhost:8080", "127.0.0.1:1", "[::1]:9", "127.1.2.3", "LOCALHOST"} {
		if !loopbackHost(h) {
			t.Errorf("Host %s is refused", h)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := w.Ask(ctx, "again"); err == nil {
		t.Error("Ask with an ended context returned no error")
	}
}

// The page draws each board with the replay viewer's script and turns
// clicks on it, its button and keys into the answers a person would type,
// for each form of move; a click on the grid that answers nothing is
// ignored.
func TestWebPageInput(t *testing.T) {
	ctx := browsertest.New(t, 2*time.Minute)
	sea := func(c string) games.Grid {
		return games.Grid{Kind: games.KindSea, W: 10, H: 10, Cells: []byte(strings.Repeat(c, 100))}
	}
	stones := games.Grid{Kind: games.KindStones, W: 15, H: 15, Cells: []byte(strings.Repeat("-", 225))}
	discs := games.Grid{Kind: games.KindDiscs, W: 7, H: 6, Cells: []byte(strings.Repeat("-", 42))}
	land := games.Grid{Kind: games.KindLand, W: 21, H: 21, Cells: make([]byte, 441)}
	for _, tt := range []struct {
		name   string
		board  Board
		key    bool
		clicks [][3]int // grid, x, y of the cells clicked, in order
		button string   // or a button clicked
		press  string   // or a key pressed
		want   string
	}{
		{name: "gomoku", board: Board{Grids: []games.Grid{stones}, Click: ClickCell}, clicks: [][3]int{{0, 12, 3}}, want: "12 3"},
		{name: "connect4", board: Board{Grids: []games.Grid{discs}, Click: ClickColumn}, clicks: [][3]int{{0, 4, 0}}, want: "4"},
		{name: "ship", board: Board{Grids: []games.Grid{sea("-"), sea("S")}, Click: ClickShip, Grid: 1},
			clicks: [][3]int{{0, 1, 1}, {1, 2, 7}, {1, 6, 7}}, want: "2,7-6,7"},
		{name: "random", board: Board{Grids: []games.Grid{sea("-"), sea("-")}, Click: ClickShip, Grid: 1},
			clicks: [][3]int{{1, 2, 7}}, button: "random", want: "random"},
		{name: "shot", board: Board{Grids: []games.Grid{sea("o"), sea("x")}, Click: ClickCell},
			clicks: [][3]int{{1, 3, 3}, {0, 9, 8}}, want: "9 8"},
		{name: "splix", board: Board{Grids: []games.Grid{land}, Marks: []games.Mark{{X: 10, Y: 10, Kind: games.MarkHead}}}, key: true,
			press: kb.ArrowLeft, want: "w"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			w := NewWeb("game")
			w.Viewer = replayview.Script()
			srv := httptest.NewServer(w)
			defer srv.Close()
			got := make(chan string, 1)
			go func() {
				w.Draw(tt.board)
				var a string
				var err error
				if tt.key {
					a, err = w.AskKey(ctx, "your move")
				} else {
					a, err = w.Ask(ctx, "your move")
				}
				if err != nil {
					a = "error: " + err.Error()
				}
				got <- a
			}()
			if err := chromedp.Do(ctx, chromedp.Navigate(srv.URL+"/")); err != nil {
				t.Fatal(err)
			}
			if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`document.body.dataset.asking === "yes" && document.body.dataset.drawn === "yes"`,
				chromedp.WithPollingTimeout(20*time.Second))); err != nil {
				t.Fatalf("the page never asked with a board: %v", err)
			}
			if n, err := browsertest.CanvasColors(ctx, "#board"); err != nil || n < 2 {
				t.Errorf("the canvas shows %d colours (%v)", n, err)
			}
			for _, c := range tt.clicks {
				at, err := chromedp.Run(ctx, chromedp.Evaluate[struct{ X, Y float64 }](fmt.Sprintf(`cellCenter(%d, %d, %d)`, c[0], c[1], c[2])))
				if err != nil {
					t.Fatal(err)
				}
				if tt.board.Click == ClickColumn {
					// The mouse over a cell outlines its whole column.
					tall, err := chromedp.Run(ctx, chromedp.Evaluate[bool](fmt.Sprintf(`(() => {
						document.getElementById("board").dispatchEvent(new MouseEvent("mousemove", {clientX: %g, clientY: %g}));
						const h = document.getElementById("hover");
						return !h.hidden && h.offsetHeight > 5 * h.offsetWidth; })()`, at.X, at.Y)))
					if err != nil || !tall {
						t.Errorf("the column under the mouse is not outlined (%v)", err)
					}
				}
				if err := chromedp.Do(ctx, chromedp.MouseClickXY(at.X, at.Y)); err != nil {
					t.Fatal(err)
				}
			}
			if tt.button != "" {
				if err := chromedp.Do(ctx, chromedp.Click(chromedp.ID(tt.button))); err != nil {
					t.Fatal(err)
				}
			}
			if tt.press != "" {
				if err := chromedp.Do(ctx, chromedp.KeyEvent(tt.press)); err != nil {
					t.Fatal(err)
				}
			}
			select {
			case a := <-got:
				if a != tt.want {
					t.Errorf("the page answered %q, want %q", a, tt.want)
				}
			case <-time.After(20 * time.Second):
				t.Fatalf("no answer; want %q", tt.want)
			}
		})
	}
}

// Without the viewer's script the page shows the boards as text and takes
// typed answers; its messages show beside it.
func TestWebPageText(t *testing.T) {
	ctx := browsertest.New(t, time.Minute)
	w := NewWeb("tictactoe")
	if w.Draws() {
		t.Fatal("a page without the viewer's script draws")
	}
	srv := httptest.NewServer(w)
	defer srv.Close()
	w.Show("Refused: PlaceSymbol 9 9. Try again.\n" + strings.Join(games.DrawGrid(grid(3, 3, "-"), true), "\n"))
	w.Show(`"a" is not a cell`)
	got := make(chan string, 1)
	go func() {
		a, err := w.Ask(ctx, "your move (x y)")
		if err != nil {
			a = "error: " + err.Error()
		}
		got <- a
	}()
	if err := chromedp.Do(ctx, chromedp.Navigate(srv.URL+"/")); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`document.body.dataset.asking === "yes"`, chromedp.WithPollingTimeout(20*time.Second))); err != nil {
		t.Fatal(err)
	}
	board, err := chromedp.Run(ctx, chromedp.TextContent(chromedp.ID("text-board")))
	if err != nil || !strings.Contains(board, "0  - - -") {
		t.Errorf("the text board: %q, %v", board, err)
	}
	msgs, err := chromedp.Run(ctx, chromedp.TextContent(chromedp.ID("messages")))
	if err != nil || !strings.Contains(msgs, `"a" is not a cell`) {
		t.Errorf("the messages: %q, %v", msgs, err)
	}
	if err := chromedp.Do(ctx, chromedp.SendKeys(chromedp.ID("answer"), "1 2\n")); err != nil {
		t.Fatal(err)
	}
	select {
	case a := <-got:
		if a != "1 2" {
			t.Errorf("the page answered %q, want 1 2", a)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("no answer")
	}
}

// The page is told how to answer, in the game's words, and how the
// game's cells are drawn.
func TestWebHelpAndPalette(t *testing.T) {
	w := NewWeb("othello")
	w.Viewer = []byte("viewer")
	srv := httptest.NewServer(w)
	defer srv.Close()
	w.Help("Click a cell, or type x y; p: Pass; or type a command.")
	w.Draw(Board{Grids: []games.Grid{{Name: "board", W: 2, H: 1, Cells: []byte(".B")}}, Click: ClickCell,
		Palette: games.Palette{'.': {Glyph: " ", Colour: "#2e7d32"}, 'B': {Glyph: "●", Colour: "#000000"}}})
	r, err := http.Get(srv.URL + "/state?seq=-1")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(r.Body)
	r.Body.Close()
	for _, want := range []string{`"help":"Click a cell, or type x y; p: Pass; or type a command."`,
		`"palette":{"46":{"glyph":" ","colour":"#2e7d32"},"66":{"glyph":"●","colour":"#000000"}}`} {
		if !strings.Contains(string(b), want) {
			t.Errorf("the state does not say %s:\n%s", want, b)
		}
	}
}
