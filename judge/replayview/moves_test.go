package replayview_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"judge/judge/browsertest"
)

// TestViewerMovesAndTimes: at 1024 and 1280 px, the viewer of every game
// lists its moves (turn, player, move), a click on one shows its turn,
// and charts each seat's wall and CPU time per turn from the replay's
// records; both fit the window.
func TestViewerMovesAndTimes(t *testing.T) {
	ctx := browsertest.New(t, 4*time.Minute)
	for _, name := range []string{"tictactoe", "gomoku", "connect4", "battleship", "battleship-contest", "splix"} {
		rp := replay(t, matchNamed(t, name))
		for _, size := range [][2]int64{{1024, 768}, {1280, 800}} {
			t.Run(fmt.Sprintf("%s-%d", name, size[0]), func(t *testing.T) {
				open(t, ctx, rp, size[0], size[1])
				w := float64(size[0])

				// The list: a row a move, in the replay's order.
				type row struct {
					Frame       int
					Turn, Who   string
					Move        string
					Left, Right float64
				}
				rows := eval[[]row](t, ctx, `[...document.querySelectorAll("#moves tr.mv")].map((tr) => {
					const td = tr.querySelectorAll("td"), r = tr.getBoundingClientRect();
					const cell = (i) => td[td.length - 3 + i] ? td[td.length - 3 + i].textContent : "";
					return {frame: +tr.dataset.frame, turn: tr.classList.contains("first") ? td[0].textContent : "",
						who: td[td.length - 2].textContent, move: td[td.length - 1].textContent, left: r.left, right: r.right};
				})`)
				k := 0
				for i, tr := range rp.Turns {
					for j, m := range tr.Moves {
						if k >= len(rows) {
							t.Fatalf("%d rows in the list of moves, the replay has more", len(rows))
						}
						r := rows[k]
						k++
						want := strings.Join(m.Move, "; ")
						if m.Status != "ok" {
							want = string(m.Status)
						} else if want == "" {
							want = "–"
						}
						if r.Frame != i+1 || j == 0 && r.Turn != fmt.Sprint(tr.Turn) || !strings.Contains(r.Who, rp.Bots[m.Seat].Name) || r.Move != want {
							t.Fatalf("row %d is %+v, want turn %d, %s, %q", k-1, r, tr.Turn, rp.Bots[m.Seat].Name, want)
						}
					}
				}
				if k != len(rows) {
					t.Errorf("%d rows in the list of moves, the replay has %d moves", len(rows), k)
				}
				if box := rect(t, ctx, "#moves"); box.Height < 60 || box.Right > w || box.Left < 0 {
					t.Errorf("the list of moves is at %+v in a %v px window", box, w)
				}
				// A click on a move in the middle shows its turn, marks its
				// row and keeps it in the list's view.
				mid := len(rp.Turns) / 2
				eval[any](t, ctx, fmt.Sprintf(`document.querySelector('#moves tr.mv[data-frame="%d"]').scrollIntoView({block: "center"})`, mid))
				at := eval[struct{ X, Y float64 }](t, ctx, fmt.Sprintf(`(() => { const r = document.querySelector('#moves tr.mv[data-frame="%d"] td.move').getBoundingClientRect();
					return {x: r.left + r.width / 2, y: r.top + r.height / 2}; })()`, mid))
				if err := chromedp.Do(ctx, chromedp.MouseClickXY(at.X, at.Y)); err != nil {
					t.Fatal(err)
				}
				if f := eval[int](t, ctx, "viewer.frame"); f != mid {
					t.Errorf("a click on the move of frame %d shows frame %d", mid, f)
				}
				if n := eval[int](t, ctx, fmt.Sprintf(`document.querySelectorAll('#moves tr.now[data-frame="%d"]').length`, mid)); n != len(rp.Turns[mid-1].Moves) {
					t.Errorf("%d rows marked for frame %d, which has %d moves", n, mid, len(rp.Turns[mid-1].Moves))
				}
				// The End key: the last move's row is marked and in view.
				eval[any](t, ctx, "viewer.show(viewer.frames - 1)")
				inView := eval[bool](t, ctx, `(() => { const b = document.getElementById("moves").getBoundingClientRect();
					const r = document.querySelector("#moves tr.now").getBoundingClientRect();
					return r.top >= b.top && r.bottom <= b.bottom + 1; })()`)
				if !inView {
					t.Error("at the end, the last move's row is out of the list's view")
				}

				// The time chart: wall and CPU of each seat, a point for
				// each turn it moved in, on a log scale of ms.
				type line struct {
					Seat   int
					Name   string
					Points int
				}
				lines := eval[[]line](t, ctx, `[...document.querySelectorAll("#chart-time polyline.series")].map((p) =>
					({seat: +p.dataset.seat, name: p.dataset.name, points: p.points.numberOfItems}))`)
				moved := make([]int, len(rp.Bots))
				for _, tr := range rp.Turns {
					for _, m := range tr.Moves {
						moved[m.Seat]++
					}
				}
				if len(lines) != 2*len(rp.Bots) {
					t.Fatalf("the time chart has %d lines, want wall and CPU for %d seats", len(lines), len(rp.Bots))
				}
				for _, l := range lines {
					if want := max(moved[l.Seat], 2); l.Points != want || l.Name != "wall" && l.Name != "CPU" {
						t.Errorf("the time chart's %s line of seat %d has %d points; the seat moved %d times", l.Name, l.Seat, l.Points, moved[l.Seat])
					}
				}
				if box := rect(t, ctx, "#chart-time"); box.Width < 200 || box.Height < 60 || box.Right > w {
					t.Errorf("the time chart is at %+v in a %v px window", box, w)
				}
				if sw := eval[float64](t, ctx, "document.documentElement.scrollWidth"); sw > w {
					t.Errorf("the page is %v px wide in a %v px window", sw, w)
				}
				browsertest.Screenshot(t, ctx, fmt.Sprintf("viewer-%s-%d", name, size[0]))
			})
		}
	}
}

// TestViewerDeepLink: #N opens frame N, going to another #N after the
// page loaded shows it, and stepping keeps the address on the frame shown.
func TestViewerDeepLink(t *testing.T) {
	ctx := browsertest.New(t, 2*time.Minute)
	rp := replay(t, matchNamed(t, "gomoku"))
	u := writeViewer(t, rp)
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(1280, 800), chromedp.Navigate(u+"#3"),
		chromedp.WaitVisible(chromedp.CSS(`body[data-ready="true"]`))); err != nil {
		t.Fatal(err)
	}
	if f := eval[int](t, ctx, "viewer.frame"); f != 3 {
		t.Fatalf("#3 opens frame %d", f)
	}
	for _, f := range []int{7, 2, 0, 5} {
		eval[any](t, ctx, fmt.Sprintf(`location.hash = "#%d"`, f))
		if _, err := chromedp.Run(ctx, chromedp.Poll[bool](fmt.Sprintf("viewer.frame === %d && document.body.dataset.frame === '%d'", f, f),
			chromedp.WithPollingTimeout(5*time.Second))); err != nil {
			t.Fatalf("after the address became #%d, the page shows frame %d", f, eval[int](t, ctx, "viewer.frame"))
		}
	}
	eval[any](t, ctx, `document.getElementById("next").click()`)
	if h := eval[string](t, ctx, "location.hash"); h != "#6" {
		t.Errorf("a step to frame 6 leaves the address at %q", h)
	}
	// Back to the address before: frame 5 again.
	eval[any](t, ctx, `location.hash = "#9"`)
	eval[any](t, ctx, `history.back()`)
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool]("viewer.frame === 6", chromedp.WithPollingTimeout(5*time.Second))); err != nil {
		t.Errorf("back from #9 shows frame %d, want 6", eval[int](t, ctx, "viewer.frame"))
	}
}
