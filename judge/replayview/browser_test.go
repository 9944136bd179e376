package replayview_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"judge/judge"
	"judge/judge/browsertest"
	"judge/judge/replayview"
)

// writeViewer writes the viewer of rp into a temporary directory and
// returns its file URL.
func writeViewer(t testing.TB, rp *judge.Replay) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "viewer.html")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := replayview.WriteHTML(f, gameOf(t, rp), rp); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	return "file://" + path
}

func eval[T any](t *testing.T, ctx context.Context, expr string) T {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr))
	if err != nil {
		t.Fatalf("%s: %v", expr, err)
	}
	return v
}

// TestViewerInBrowser opens the viewer of a real match of each game in
// Chromium, steps with the keys and the buttons, jumps, and checks what is
// on screen: the turn counter, the frame, a canvas that is not blank, the
// cells the page decoded against the game's own views, and the result.
func TestViewerInBrowser(t *testing.T) {
	ctx := browsertest.New(t, 3*time.Minute)
	for _, mt := range matches {
		t.Run(mt.name, func(t *testing.T) {
			rp := replay(t, mt)
			d, err := replayview.Decode(gameOf(t, rp), rp)
			if err != nil {
				t.Fatal(err)
			}
			if err := chromedp.Do(ctx, chromedp.Navigate(writeViewer(t, rp)),
				chromedp.WaitVisible(chromedp.CSS(`body[data-ready="true"]`))); err != nil {
				t.Fatal(err)
			}
			n := eval[int](t, ctx, "viewer.frames")
			if n != len(rp.Turns)+1 {
				t.Fatalf("the page has %d frames, the replay %d turns", n, len(rp.Turns))
			}
			at := func(want int) {
				t.Helper()
				if f := eval[int](t, ctx, "viewer.frame"); f != want {
					t.Fatalf("at frame %d, want %d", f, want)
				}
				if got := eval[string](t, ctx, "document.body.dataset.frame"); got != fmt.Sprint(want) {
					t.Fatalf("body data-frame %q, want %d", got, want)
				}
				text := eval[string](t, ctx, `document.getElementById("turn").textContent`)
				if want > 0 && !strings.HasPrefix(text, fmt.Sprintf("turn %d of %d", rp.Turns[want-1].Turn, rp.Turns[len(rp.Turns)-1].Turn)) {
					t.Fatalf("the turn counter says %q at frame %d", text, want)
				}
				for l := range d.Start {
					got := eval[[]int](t, ctx, fmt.Sprintf("viewer.cells(%d)", l))
					wantCells := d.Cells(want)[l]
					for i := range wantCells {
						if got[i] != int(wantCells[i]) {
							t.Fatalf("frame %d, layer %d, cell %d: the page has %d, the game %d", want, l, i, got[i], wantCells[i])
						}
					}
				}
				// An empty board has its colour and its lines; pieces add more.
				least := 2
				if want > 0 {
					least = 3
				}
				if c, err := browsertest.CanvasColors(ctx, "#board"); err != nil || c < least {
					t.Fatalf("frame %d: the canvas shows %d colours (%v), want at least %d", want, c, err, least)
				}
			}
			at(0)
			key := func(k string) {
				t.Helper()
				if err := chromedp.Do(ctx, chromedp.KeyEvent(k)); err != nil {
					t.Fatal(err)
				}
			}
			key(kb.ArrowRight)
			at(1)
			key(kb.ArrowRight)
			at(2)
			key(kb.ArrowLeft)
			at(1)
			if err := chromedp.Do(ctx, chromedp.Click(chromedp.ID("next"))); err != nil {
				t.Fatal(err)
			}
			at(2)
			key(kb.End)
			at(n - 1)
			// Back from the end, and a jump into the middle: from the copies
			// kept along the way.
			key(kb.ArrowLeft)
			at(n - 2)
			eval[any](t, ctx, fmt.Sprintf("viewer.show(%d)", n/2))
			at(n / 2)
			key(kb.Home)
			at(0)
			// Space plays to the end at the fastest speed.
			eval[any](t, ctx, `(() => { const s = document.getElementById("speed"); s.value = "1000"; })()`)
			key(" ")
			if _, err := chromedp.Run(ctx, chromedp.Poll[bool](fmt.Sprintf("viewer.frame === %d && document.body.dataset.playing === 'false'", n-1),
				chromedp.WithPollingTimeout(20*time.Second))); err != nil {
				t.Fatalf("playing did not reach the end: %v", err)
			}
			result := eval[string](t, ctx, `document.getElementById("result").textContent`)
			if w := rp.Outcome.Winner; w >= 0 && !strings.Contains(result, rp.Bots[w].Name) {
				t.Errorf("the result %q does not name the winner %s", result, rp.Bots[w].Name)
			}
			for _, p := range rp.Outcome.Players {
				if !strings.Contains(result, p.Name) {
					t.Errorf("the result %q does not name %s", result, p.Name)
				}
			}
			seats := eval[string](t, ctx, `document.getElementById("seats").textContent`)
			last := rp.Turns[len(rp.Turns)-1].Moves[0]
			if !strings.Contains(seats, string(last.Status)) || last.Move != nil && !strings.Contains(seats, last.Move[0]) {
				t.Errorf("the last turn's table %q lacks the move %v (%s)", seats, last.Move, last.Status)
			}
			details := eval[string](t, ctx, `document.getElementById("details").textContent`)
			if want := "#END"; last.Status == judge.OK && !strings.Contains(details, want) {
				t.Errorf("the last turn's transcript is not shown: %q", details)
			}
			// The reason, its stderr lines apart.
			why, tail, _ := strings.Cut(last.Reason, "; stderr: ")
			if last.Status != judge.OK && (!strings.Contains(details, why) || !strings.Contains(details, tail) || !strings.Contains(details, "transcript of seat")) {
				t.Errorf("the last turn's details %q do not say why the seat failed (%s) or show its transcript", details, last.Reason)
			}
			if d.Layers > len(d.Grids) {
				// What seat 1 sees of seat 0's fleet: nothing but shots.
				eval[any](t, ctx, `(() => { const s = document.getElementById("seeing"); s.value = "1"; s.dispatchEvent(new Event("change")); })()`)
				hidden := eval[[]int](t, ctx, fmt.Sprintf("viewer.cells(%d)", 2*len(d.Grids)))
				for i, c := range hidden {
					if c == 'S' {
						t.Fatalf("seat 1 sees a ship of seat 0 at cell %d", i)
					}
				}
				if c, err := browsertest.CanvasColors(ctx, "#board"); err != nil || c < 3 {
					t.Fatalf("seat 1's view shows %d colours (%v)", c, err)
				}
			}
		})
	}
}

// TestViewerSeedDigits: the viewer shows a seed above 2^53 as the replay
// file writes it, digit for digit (JavaScript's numbers would round it):
// the seed a reader copies plays the same game.
func TestViewerSeedDigits(t *testing.T) {
	const file = `{"version":1,"game":"tictactoe","params":{"n":3,"k":3},"seed":6429213820330511769,` +
		`"bots":[{"name":"a","command":["a"]},{"name":"b","command":["b"]}],` +
		`"turns":[{"turn":1,"moves":[{"seat":0,"move":["PlaceSymbol 1 1"],"status":"ok"}]},{"turn":2,"moves":[{"seat":1,"status":"crash"}]}],` +
		`"outcome":{"winner":0}}`
	rp, err := judge.ReadReplay(strings.NewReader(file))
	if err != nil {
		t.Fatal(err)
	}
	ctx := browsertest.New(t, time.Minute)
	if err := chromedp.Do(ctx, chromedp.Navigate(writeViewer(t, rp)),
		chromedp.WaitVisible(chromedp.CSS(`body[data-ready="true"]`))); err != nil {
		t.Fatal(err)
	}
	sub := eval[string](t, ctx, `document.getElementById("subtitle").textContent`)
	if !strings.HasPrefix(sub, "seed 6429213820330511769,") {
		t.Errorf("the viewer's subtitle is %q, want the seed 6429213820330511769", sub)
	}
}
