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

	"judge/judge/browsertest"
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
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := w.Ask(ctx, "again"); err == nil {
		t.Error("Ask with an ended context returned no error")
	}
}

// The page turns clicks and keys into the answers a person would type,
// for each form of move.
func TestWebPageInput(t *testing.T) {
	ctx := browsertest.New(t, 2*time.Minute)
	battle := sideBySide("Your shots (x hit, o miss)", drawGrid(grid(10, 10, "."), true),
		"Your waters (S ship, x hit, o miss)", drawGrid(grid(10, 10, "."), true))
	for _, tt := range []struct {
		game, view, prompt string
		key                bool
		clicks             [][2]int // cells clicked, in order
		press              string   // or a key pressed
		want               string
	}{
		{game: "gomoku", view: strings.Join(drawGrid(grid(15, 15, "."), true), "\n") + "\nYou are X.",
			prompt: "your move (x y)", clicks: [][2]int{{12, 3}}, want: "12 3"},
		{game: "connect4", view: strings.Join(drawGrid(grid(7, 6, "."), false), "\n") + "\nYou are X.",
			prompt: "your column", clicks: [][2]int{{4, 5}}, want: "4"},
		{game: "battleship", view: "Place your fleet.\n" + strings.Join(drawGrid(grid(10, 10, "-"), true), "\n"),
			prompt: "ship of length 5", clicks: [][2]int{{2, 7}, {6, 7}}, want: "2,7-6,7"},
		{game: "battleship", view: battle, prompt: "your shot (x y)", clicks: [][2]int{{9, 8}}, want: "9 8"},
		{game: "splix", view: "Turn 3.\n  . . .\n  . A .\n  . . .\nNorth is up.", prompt: "your move", key: true,
			press: kb.ArrowLeft, want: "w"},
	} {
		t.Run(tt.game+" "+tt.prompt, func(t *testing.T) {
			w := NewWeb(tt.game)
			srv := httptest.NewServer(w)
			defer srv.Close()
			w.Show(tt.view)
			got := make(chan string, 1)
			go func() {
				var a string
				var err error
				if tt.key {
					a, err = w.AskKey(ctx, tt.prompt)
				} else {
					a, err = w.Ask(ctx, tt.prompt)
				}
				if err != nil {
					a = "error: " + err.Error()
				}
				got <- a
			}()
			if err := chromedp.Do(ctx, chromedp.Navigate(srv.URL+"/")); err != nil {
				t.Fatal(err)
			}
			if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`document.body.dataset.asking === "yes"`,
				chromedp.WithPollingTimeout(20*time.Second))); err != nil {
				t.Fatalf("the page never asked: %v", err)
			}
			for _, c := range tt.clicks {
				found, err := chromedp.Run(ctx, chromedp.Evaluate[bool](fmt.Sprintf(`(() => {
					const old = document.getElementById("target"); if (old) old.removeAttribute("id");
					const all = [...document.querySelectorAll("#board span.t")];
					const s = all.find(s => { const c = cellAt(+s.dataset.line, +s.dataset.end); return c && c.x === %d && c.y === %d; });
					if (s) s.id = "target";
					return !!s;
				})()`, c[0], c[1])))
				if err != nil || !found {
					t.Fatalf("cell %v not on the board: %v", c, err)
				}
				if err := chromedp.Do(ctx, chromedp.Click(chromedp.ID("target"))); err != nil {
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
