package serve_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"judge/judge/browsertest"
	"judge/judge/tournament"
)

// traceback is what a Python bot that crashes writes on its stderr: long
// lines, long paths, no room to break them at spaces.
const traceback = `Traceback (most recent call last):
  File "/home/student/projects/games/tictactoe/submissions/week-3/a_rather_long_directory_name/bot_with_a_long_file_name.py", line 142, in <module>
    main_loop_that_reads_the_queries_and_answers_them_one_by_one()
  File "/home/student/projects/games/tictactoe/submissions/week-3/a_rather_long_directory_name/bot_with_a_long_file_name.py", line 97, in main_loop_that_reads_the_queries_and_answers_them_one_by_one
    best = choose_the_best_move_by_searching_the_whole_tree_of_moves_to_the_end(board, depth=9)
ZeroDivisionError: division by zero: /home/student/projects/games/tictactoe/submissions/week-3/a_rather_long_directory_name/data/weights_of_the_evaluation_function.json`

// TestBotPageFits: at 1024 and 1280 px the page of a bot whose matches
// end in tracebacks fits the window (no scrolling sideways), every match
// keeps its replay's link on screen, and a traceback keeps its lines.
func TestBotPageFits(t *testing.T) {
	dir := filepath.Join(tempDir(t), "t")
	crasher := filepath.Join(tempDir(t), "crasher")
	script := "#!/bin/sh\ncat >&2 <<'EOF'\n" + traceback + "\nEOF\nexit 1\n"
	if err := os.WriteFile(crasher, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	o := options(t, dir, 1, append(botCopies(t, "alpha", "beta"), crasher))
	if _, err := tournament.Run(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	base := start(t, dir)
	ctx := browsertest.New(t, 2*time.Minute)
	for _, size := range [][2]int64{{1024, 768}, {1280, 800}} {
		t.Run(fmt.Sprint(size[0]), func(t *testing.T) {
			if err := chromedp.Do(ctx, chromedp.EmulateViewport(size[0], size[1]), chromedp.Navigate(base+"/bot?name=crasher"),
				chromedp.WaitVisible(chromedp.CSS(`body[data-ready="true"] #matches tr.match`))); err != nil {
				t.Fatal(err)
			}
			browsertest.Screenshot(t, ctx, fmt.Sprintf("serve-bot-%d", size[0]))
			type page struct {
				Scroll, Client float64
				Links          []float64 // the right edges of the replays' links
				Lines          []int     // the lines each traceback is shown on
			}
			got, err := chromedp.Run(ctx, chromedp.Evaluate[page](`({
				scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth,
				links: [...document.querySelectorAll("#matches a.watch")].map((a) => a.getBoundingClientRect().right),
				lines: [...document.querySelectorAll("#matches pre.reason")].map((e) =>
					Math.round(e.scrollHeight / parseFloat(getComputedStyle(e).lineHeight))),
			})`))
			if err != nil {
				t.Fatal(err)
			}
			if got.Scroll > got.Client {
				t.Errorf("the page is %v px wide in a window %v px wide", got.Scroll, got.Client)
			}
			if len(got.Links) != 4 {
				t.Errorf("%d replays linked, want 4", len(got.Links))
			}
			for _, r := range got.Links {
				if r > got.Client {
					t.Errorf("a replay's link ends at %v px, off the %v px window", r, got.Client)
				}
			}
			if len(got.Lines) != 4 {
				t.Fatalf("%d tracebacks shown apart, want 4", len(got.Lines))
			}
			for _, n := range got.Lines {
				if n < 5 {
					t.Errorf("a traceback of 5 lines or more is shown on %d", n)
				}
			}
		})
	}
}
