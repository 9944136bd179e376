package replayview_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"judge/judge"
	"judge/judge/browsertest"
)

// matchNamed is the match of matches with that name.
func matchNamed(t *testing.T, name string) match {
	t.Helper()
	for _, mt := range matches {
		if mt.name == name {
			return mt
		}
	}
	t.Fatalf("no match %q", name)
	return match{}
}

// open opens the viewer of rp in a window of the given size.
func open(t *testing.T, ctx context.Context, rp *judge.Replay, w, h int64) {
	t.Helper()
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(w, h), chromedp.Navigate(writeViewer(t, rp)),
		chromedp.WaitVisible(chromedp.CSS(`body[data-ready="true"]`))); err != nil {
		t.Fatal(err)
	}
}

type box struct{ Left, Top, Right, Bottom, Width, Height float64 }

// rect is the bounding box of the element the CSS selector picks.
func rect(t *testing.T, ctx context.Context, sel string) box {
	t.Helper()
	return eval[box](t, ctx, fmt.Sprintf(`(() => { const r = document.querySelector(%q).getBoundingClientRect();
		return {Left: r.left, Top: r.top, Right: r.right, Bottom: r.bottom, Width: r.width, Height: r.height}; })()`, sel))
}

// TestViewerLayout: at 1024 and 1280 px, the result is on screen without
// scrolling, beside the board's panel, nothing is wider than the window,
// and no status in the tables breaks across lines.
func TestViewerLayout(t *testing.T) {
	ctx := browsertest.New(t, 3*time.Minute)
	for _, name := range []string{"crash", "battleship", "splix"} {
		rp := replay(t, matchNamed(t, name))
		for _, size := range [][2]int64{{1024, 768}, {1280, 800}} {
			t.Run(fmt.Sprintf("%s-%d", name, size[0]), func(t *testing.T) {
				open(t, ctx, rp, size[0], size[1])
				eval[any](t, ctx, "viewer.show(viewer.frames - 1)")
				w, h := float64(size[0]), float64(size[1])
				if r := rect(t, ctx, "#headline"); r.Height == 0 || r.Top < 0 || r.Bottom > h || r.Right > w {
					t.Errorf("the result is at %+v, out of the %vx%v window", r, w, h)
				}
				if sw := eval[float64](t, ctx, "document.documentElement.scrollWidth"); sw > w {
					t.Errorf("the page is %v px wide in a %v px window", sw, w)
				}
				board, aside := rect(t, ctx, "#board"), rect(t, ctx, "aside")
				if aside.Left < board.Right || aside.Top > board.Bottom {
					t.Errorf("the panel (%+v) is not beside the board (%+v)", aside, board)
				}
				// A cell's text on one line: all its fragments share a top.
				broken := eval[[]string](t, ctx, `[...document.querySelectorAll("td.st, th")].filter((td) => {
					const r = document.createRange(); r.selectNodeContents(td);
					return new Set([...r.getClientRects()].map((x) => Math.round(x.top))).size > 1;
				}).map((td) => td.textContent)`)
				if len(broken) > 0 {
					t.Errorf("cells broken across lines: %q", broken)
				}
			})
		}
	}
}

// TestViewerReadable: the winning line and a sunk ship are highlighted,
// the axes are numbered as the protocols count, the result names the bots
// in words, each turn shows what the bots wrote on stderr in it, and
// Splix and Battleship have their charts besides every game's time chart.
func TestViewerReadable(t *testing.T) {
	ctx := browsertest.New(t, 3*time.Minute)
	type highlight struct {
		Kind  string
		G     int
		Cells [][2]int
	}
	t.Run("winning line", func(t *testing.T) {
		for _, name := range []string{"tictactoe", "gomoku", "connect4"} {
			rp := replay(t, matchNamed(t, name))
			open(t, ctx, rp, 1280, 800)
			eval[any](t, ctx, "viewer.show(viewer.frames - 1)")
			won := strings.Contains(rp.Outcome.Reason, "in a row")
			hl := eval[*highlight](t, ctx, "viewer.highlight")
			if !won {
				if hl != nil {
					t.Errorf("%s ended with %q, yet %+v is highlighted", name, rp.Outcome.Reason, hl)
				}
				continue
			}
			k := rp.Params["k"]
			if hl == nil || hl.Kind != "win" || len(hl.Cells) < k {
				t.Fatalf("%s: %q, and the highlight is %+v", name, rp.Outcome.Reason, hl)
			}
			cells := eval[[]int](t, ctx, "viewer.cells(0)")
			w := eval[int](t, ctx, `JSON.parse(document.getElementById("replay-data").textContent).grids[0].w`)
			sym := "XO"[rp.Outcome.Winner]
			for _, c := range hl.Cells {
				if got := cells[c[1]*w+c[0]]; got != int(sym) {
					t.Errorf("%s: highlighted cell %v holds %q, not the winner's %q", name, c, rune(got), sym)
				}
			}
			if got := eval[string](t, ctx, "document.body.dataset.highlight"); got != "win" {
				t.Errorf("%s: body data-highlight %q", name, got)
			}
			eval[any](t, ctx, "viewer.show(viewer.frames - 2)")
			if hl := eval[*highlight](t, ctx, "viewer.highlight"); hl != nil {
				t.Errorf("%s: a turn before the end, %+v is highlighted", name, hl)
			}
		}
	})
	t.Run("sunk ship", func(t *testing.T) {
		rp := replay(t, matchNamed(t, "battleship"))
		open(t, ctx, rp, 1280, 800)
		sunk := eval[[]highlight](t, ctx, `(() => { const out = [];
			for (let f = 0; f < viewer.frames; f++) { viewer.show(f); if (viewer.highlight) out.push(viewer.highlight); }
			return out; })()`)
		if len(sunk) == 0 {
			t.Fatal("no sunk ship highlighted in the whole match")
		}
		perGrid := map[int]int{}
		for _, s := range sunk {
			perGrid[s.G]++
			if s.Kind != "sunk" || len(s.Cells) < 2 {
				t.Errorf("highlight %+v", s)
			}
		}
		// The winner sank the whole fleet of 5 in the loser's waters.
		if n := perGrid[1-rp.Outcome.Winner]; n != 5 || perGrid[rp.Outcome.Winner] > 5 {
			t.Errorf("ships highlighted as sunk, per grid: %v", perGrid)
		}
	})
	t.Run("axes", func(t *testing.T) {
		type label struct {
			Axis, Text string
			X, Y       float64
		}
		for _, c := range []struct {
			name       string
			fromBottom bool
		}{{"gomoku", false}, {"connect4", true}, {"battleship", false}} {
			rp := replay(t, matchNamed(t, c.name))
			open(t, ctx, rp, 1280, 800)
			labels := eval[[]label](t, ctx, "viewer.axes(0)")
			ys := map[string]float64{}
			xs := 0
			for _, l := range labels {
				if l.Axis == "y" {
					ys[l.Text] = l.Y
				} else {
					xs++
				}
			}
			if xs < 5 || len(ys) < 5 {
				t.Fatalf("%s: axis labels %+v", c.name, labels)
			}
			if below := ys["0"] > ys["1"]; below != c.fromBottom {
				t.Errorf("%s: y = 0 is at %v, y = 1 at %v (from the bottom: %v)", c.name, ys["0"], ys["1"], c.fromBottom)
			}
		}
	})
	t.Run("result in words", func(t *testing.T) {
		rp := replay(t, matchNamed(t, "crash"))
		open(t, ctx, rp, 1280, 800)
		var failed, turn int
		for _, tr := range rp.Turns {
			for _, m := range tr.Moves {
				if m.Status == judge.Crash {
					failed, turn = m.Seat, tr.Turn
				}
			}
		}
		if turn == 0 {
			t.Fatal("no seat crashed")
		}
		head := eval[string](t, ctx, `document.getElementById("headline").textContent`)
		want := fmt.Sprintf("%s wins: %s (O) crashed on turn %d", rp.Bots[0].Name+" (X)", rp.Bots[failed].Name, turn)
		if head != want {
			t.Errorf("the result says %q, want %q", head, want)
		}
		// The crash's last stderr lines are a preformatted block.
		if n := eval[int](t, ctx, `document.querySelectorAll("#result pre.why").length`); n != 1 {
			t.Errorf("%d preformatted reasons in the result, want 1", n)
		}
	})
	t.Run("stderr with its turn", func(t *testing.T) {
		rp := replay(t, matchNamed(t, "stderr"))
		open(t, ctx, rp, 1280, 800)
		for f := 1; f <= 3; f++ {
			eval[any](t, ctx, fmt.Sprintf("viewer.show(%d)", f))
			m := rp.Turns[f-1].Moves[0]
			got := eval[string](t, ctx, `Array.from(document.querySelectorAll(".turn-stderr pre"), (p) => p.textContent).join("|")`)
			switch {
			case m.Stderr == "":
				if got != "" {
					t.Errorf("turn %d: no stderr recorded, the page shows %q", f, got)
				}
			case m.StderrCut > 0:
				if !strings.HasPrefix(got, m.Stderr[:20]) || !strings.Contains(got, fmt.Sprintf("%d bytes not kept", m.StderrCut)) {
					t.Errorf("turn %d: the page shows %q…", f, got[:min(len(got), 60)])
				}
			default:
				if got != m.Stderr {
					t.Errorf("turn %d: the page shows %q, the replay holds %q", f, got, m.Stderr)
				}
			}
			if m.Stderr != "" {
				if r := rect(t, ctx, ".turn-stderr pre"); r.Height == 0 {
					t.Errorf("turn %d: the stderr block is not on screen: %+v", f, r)
				}
			}
		}
	})
	t.Run("charts", func(t *testing.T) {
		for _, name := range []string{"splix", "battleship", "tictactoe"} {
			rp := replay(t, matchNamed(t, name))
			open(t, ctx, rp, 1280, 800)
			charts := eval[int](t, ctx, `document.querySelectorAll("#charts:not([hidden]) svg.chart:not(#chart-time)").length`)
			lines := eval[int](t, ctx, `document.querySelectorAll("#charts svg.chart:not(#chart-time) polyline").length`)
			want := 2
			if name == "tictactoe" {
				want = 0
			}
			if charts != want || lines != want*len(rp.Bots) {
				t.Errorf("%s: %d charts with %d lines, want %d with %d", name, charts, lines, want, want*len(rp.Bots))
			}
			if want > 0 {
				if r := rect(t, ctx, "#charts svg.chart"); r.Width < 200 || r.Height < 60 {
					t.Errorf("%s: a chart is %+v", name, r)
				}
			}
		}
	})
}
