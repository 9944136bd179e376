package web_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"judge/judge/arena"
	"judge/judge/arena/web"
	"judge/judge/browsertest"
	"judge/judge/judgetest"
)

// TestPageInBrowser: an entrant signs in on the page with their token,
// uploads a file that does not build and sees the compiler's message
// (as text: the markup in it stays text), then one that builds, sees it
// tested and in the ladder, lists her matches from the standings, and
// opens her first test match's replay in the viewer.
func TestPageInBrowser(t *testing.T) {
	judgetest.NeedTools(t, "gcc")
	ctx := browsertest.New(t, 4*time.Minute)
	ta := newArena(t, arena.Config{TestMatches: 2}, web.Options{}, "alice")
	ta.run(t, 2)
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.c")
	if err := os.WriteFile(bad, []byte("int main(void) { <img src=x onerror=\"document.title='owned'\"> }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	good := filepath.Join(dir, "bot.c")
	if err := os.WriteFile(good, source(t, "examples/gomoku/random.c"), 0o644); err != nil {
		t.Fatal(err)
	}
	run := func(steps ...chromedp.Action[chromedp.Void]) {
		t.Helper()
		if err := chromedp.Do(ctx, steps...); err != nil {
			t.Fatal(err)
		}
	}
	text := func(id string) string {
		t.Helper()
		s, err := chromedp.Run(ctx, chromedp.TextContent(chromedp.ID(id)))
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	eval := func(expr string) int {
		t.Helper()
		n, err := chromedp.Run(ctx, chromedp.Evaluate[int](expr))
		if err != nil {
			t.Fatalf("%s: %v", expr, err)
		}
		return n
	}
	run(chromedp.Navigate(ta.url+"/"),
		chromedp.WaitVisible(chromedp.CSS(`body[data-ready="true"]`)),
		chromedp.SendKeys(chromedp.ID("token"), ta.tokens["alice"]),
		chromedp.Click(chromedp.CSS(`#token-form button`)),
		chromedp.WaitVisible(chromedp.ID("upload-form")))
	if who := text("whoami"); who != "signed in as alice" {
		t.Fatalf("after signing in the page says %q", who)
	}

	run(chromedp.SetUploadFiles(chromedp.ID("file"), []string{bad}),
		chromedp.Click(chromedp.ID("upload")),
		chromedp.WaitVisible(chromedp.CSS(`#current[data-status="compile-error"]`)))
	log := text("sub-log")
	imgs := eval(`document.querySelectorAll("img").length`)
	title, err := chromedp.Run(ctx, chromedp.Title())
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(log, "error") || !strings.Contains(log, "<img src=x") || imgs != 0 || title == "owned" {
		t.Fatalf("the compile error shows %q (%d images, title %q)", log, imgs, title)
	}

	run(chromedp.SetUploadFiles(chromedp.ID("file"), []string{good}),
		chromedp.Click(chromedp.ID("upload")),
		chromedp.WaitVisible(chromedp.CSS(`#current[data-status="active"] #sub-tests a`)))
	href, err := chromedp.Run(ctx, chromedp.AttributeValue(chromedp.CSS(`#sub-tests a`), "href"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(href.Value, "/view/") {
		t.Fatalf("the first replay's link is %q", href.Value)
	}
	// Her row in the standings shows her matches: the test matches.
	run(chromedp.WaitVisible(chromedp.CSS(`#standings tr[data-name="alice"]`)),
		chromedp.Click(chromedp.CSS(`#standings tr[data-name="alice"]`)),
		chromedp.WaitVisible(chromedp.CSS(`#all-matches`)))
	if title := text("matches-title"); title != "Matches of alice" {
		t.Fatalf("after a click on alice the matches are %q", title)
	}
	if n := eval(`document.querySelectorAll("#matches tbody tr").length`); n != 2 {
		t.Fatalf("alice's matches: %d rows, want her 2 test matches", n)
	}
	run(chromedp.Navigate(ta.url+href.Value),
		chromedp.WaitVisible(chromedp.CSS(`body[data-ready="true"]`)))
	if frames := eval(`viewer.frames`); frames < 2 {
		t.Fatalf("the viewer of %s has %d frames", href.Value, frames)
	}
}
