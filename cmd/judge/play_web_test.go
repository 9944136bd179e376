package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
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

// A person plays tic-tac-toe in the browser against the random bot, by
// clicking the cells in reading order (a taken cell is refused and asked
// again), to the end of the game.
func TestPlayWebBrowser(t *testing.T) {
	if testing.Short() {
		t.Skip("plays a bot program in a browser")
	}
	bctx := browsertest.New(t, 3*time.Minute)
	bot := quote(judgetest.Bot(t, "examples/gomoku/random.c"))
	replay := filepath.Join(t.TempDir(), "game.json")
	var out, errb syncBuffer
	m := &Main{Stdout: &out, Stderr: &errb}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan int, 1)
	go func() {
		done <- m.Run(ctx, []string{"play", "--web", "--game", "tictactoe", "--seat", "1", "--name", "ann",
			"--seed", "3", "--replay", replay, bot})
	}()
	addr := regexp.MustCompile(`Play at (http://127\.0\.0\.1:\d+/)`)
	var url string
	for deadline := time.Now().Add(time.Minute); url == ""; time.Sleep(20 * time.Millisecond) {
		if m := addr.FindStringSubmatch(out.String()); m != nil {
			url = m[1]
		}
		if time.Now().After(deadline) {
			t.Fatalf("no address printed:\n%s\n%s", out.String(), errb.String())
		}
	}
	if err := chromedp.Do(bctx, chromedp.Navigate(url)); err != nil {
		t.Fatal(err)
	}
	// waitTurn waits until the page asks for a move ("yes") or shows the
	// end ("over").
	waitTurn := func() string {
		for {
			s, err := chromedp.Run(bctx, chromedp.Evaluate[string](`document.body.dataset.over === "yes" ? "over" : (document.body.dataset.asking || "")`))
			if err != nil {
				t.Fatalf("the page: %v\n%s", err, out.String())
			}
			if s == "over" || s == "yes" {
				return s
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	clicks := 0
	for _, mv := range readingOrder {
		if waitTurn() == "over" {
			break
		}
		var x, y int
		fmt.Sscan(mv, &x, &y)
		// Mark the cell's token on the board, then click it with the mouse.
		found, err := chromedp.Run(bctx, chromedp.Evaluate[bool](fmt.Sprintf(`(() => {
			const old = document.getElementById("target"); if (old) old.removeAttribute("id");
			for (const s of document.querySelectorAll("#board span.t")) {
				const c = cellAt(+s.dataset.line, +s.dataset.end);
				if (c && c.x === %d && c.y === %d) { s.id = "target"; return true; }
			}
			return false;
		})()`, x, y)))
		if err != nil || !found {
			board, _ := chromedp.Run(bctx, chromedp.TextContent(chromedp.ID("board")))
			t.Fatalf("cell %s not on the board (%v):\n%s", mv, err, board)
		}
		if err := chromedp.Do(bctx, chromedp.Click(chromedp.ID("target"))); err != nil {
			t.Fatal(err)
		}
		clicks++
	}
	if waitTurn() != "over" {
		t.Fatalf("the game did not end after %d clicks", clicks)
	}
	over, err := chromedp.Run(bctx, chromedp.TextContent(chromedp.ID("over")))
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"The end of the game:", "tictactoe (k=3 n=3), seed 3:", "ann"} {
		if !strings.Contains(over, w) {
			t.Errorf("the page's end does not say %q:\n%s", w, over)
		}
	}
	select {
	case code := <-done:
		if code != 0 {
			t.Fatalf("status %d\n%s\n%s", code, out.String(), errb.String())
		}
	case <-time.After(time.Minute):
		t.Fatal("judge play --web did not return once the page had the end")
	}
	var rp struct {
		Bots []struct{ Name string }
	}
	var b []byte
	b, err = os.ReadFile(replay)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &rp); err != nil || len(rp.Bots) != 2 || rp.Bots[1].Name != "ann" {
		t.Errorf("replay: %v, %+v", err, rp.Bots)
	}
	t.Logf("%d clicks", clicks)
}
