package web_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"judge/judge/arena"
	"judge/judge/arena/web"
	"judge/judge/browsertest"
)

// screenshots, when set, is a directory where the page tests leave
// screenshots of what they saw (ARENA_SCREENSHOTS=dir go test -run Page).
var screenshots = os.Getenv("ARENA_SCREENSHOTS")

// box is an element's place on the page, in CSS pixels from the top of
// the viewport.
type box struct {
	Top, Bottom, Left, Right float64
	Visible                  bool
}

// boxes are the places of the elements of the ids given.
func boxes(t *testing.T, ctx context.Context, ids ...string) map[string]box {
	t.Helper()
	out := map[string]box{}
	for _, id := range ids {
		b, err := chromedp.Run(ctx, chromedp.Evaluate[box](fmt.Sprintf(`(() => {
			const e = document.getElementById(%q);
			if (!e) return {Visible: false};
			const r = e.getBoundingClientRect();
			return {Top: r.top, Bottom: r.bottom, Left: r.left, Right: r.right, Visible: r.width > 0 && r.height > 0};
		})()`, id)))
		if err != nil {
			t.Fatalf("the box of #%s: %v", id, err)
		}
		out[id] = b
	}
	return out
}

func evalT[T any](t *testing.T, ctx context.Context, expr string) T {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr))
	if err != nil {
		t.Fatalf("%s: %v", expr, err)
	}
	return v
}

func shoot(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	if screenshots == "" {
		return
	}
	// What the window shows, then the whole page (quality 100: a PNG).
	for suffix, a := range map[string]chromedp.Action[[]byte]{"": chromedp.CaptureScreenshot(), "-full": chromedp.FullScreenshot(100)} {
		b, err := chromedp.Run(ctx, a)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(screenshots, name+suffix+".png"), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestPageLayout: at 1024 and 1280 pixels wide, the page is the
// entrant's: the game's name and its rules first, then their bot (the
// upload form above the fold once signed in, the build in words, the
// test matches with their results), the standings, and the matches a
// page at a time, filtered by bot. The viewer shows a match's seed as
// the replay file has it, digit for digit. After the final the page
// says submissions are closed, and has no upload form.
func TestPageLayout(t *testing.T) {
	ctx := browsertest.New(t, 3*time.Minute)
	ta := newArena(t, arena.Config{TestMatches: 2}, web.Options{}, "alice")
	names := []string{"alice"}
	for i := 1; i < 12; i++ {
		names = append(names, fmt.Sprintf("bot%02d", i))
	}
	ta.fill(t, names, 130)
	do := func(t *testing.T, steps ...chromedp.Action[chromedp.Void]) {
		t.Helper()
		if err := chromedp.Do(ctx, steps...); err != nil {
			t.Fatal(err)
		}
	}
	run := func(steps ...chromedp.Action[chromedp.Void]) {
		t.Helper()
		do(t, steps...)
	}
	sections := []string{"game-name", "bot-section", "standings-section", "matches-section"}
	for _, w := range []int64{1024, 1280} {
		h := w * 3 / 4
		t.Run(fmt.Sprint(w), func(t *testing.T) {
			do(t, chromedp.EmulateViewport(w, h),
				chromedp.Navigate(ta.url+"/"),
				chromedp.WaitVisible(chromedp.CSS(`body[data-ready="true"]`)),
				chromedp.SetValue(chromedp.ID("token"), ta.tokens["alice"]),
				chromedp.Click(chromedp.CSS(`#token-form button`)),
				chromedp.WaitVisible(chromedp.CSS(`#current[data-status="active"]`)),
				chromedp.WaitVisible(chromedp.CSS(`#standings tr[data-name="alice"]`)),
				chromedp.WaitVisible(chromedp.CSS(`#matches tbody tr`)))
			shoot(t, ctx, fmt.Sprintf("arena-%d", w))
			b := boxes(t, ctx, append(sections, "upload-form", "rules-link")...)
			for i, id := range sections {
				if !b[id].Visible {
					t.Errorf("#%s is not shown", id)
				}
				if i > 0 && b[id].Top < b[sections[i-1]].Bottom {
					t.Errorf("#%s (top %.0f) is not below #%s (bottom %.0f)", id, b[id].Top, sections[i-1], b[sections[i-1]].Bottom)
				}
			}
			if u := b["upload-form"]; !u.Visible || u.Bottom > float64(h) || u.Right > float64(w) {
				t.Errorf("the upload form is at %+v, not above the fold of %d×%d", u, w, h)
			}
			if !b["rules-link"].Visible {
				t.Error("no link to the game's rules")
			}
		})
	}

	// The game, named, and its rules.
	if g := evalT[string](t, ctx, `document.getElementById("game-name").textContent`); g != "tictactoe" {
		t.Errorf("the page names the game %q", g)
	}
	rules := ta.get(t, "", "/rules")
	if rules.code != 200 || !strings.Contains(string(rules.body), "## The rules") {
		t.Errorf("the rules: %d %.80s", rules.code, rules.body)
	}
	// Her bot: built, said in words; her test matches with their results.
	if s := evalT[string](t, ctx, `document.getElementById("sub-build").textContent`); !strings.HasPrefix(s, "Built") {
		t.Errorf("a successful build says %q", s)
	}
	tests := evalT[[]string](t, ctx, `Array.from(document.querySelectorAll("#sub-tests tbody tr")).map((r) => r.textContent)`)
	if len(tests) != 2 || !strings.Contains(tests[0], "ref-random") || !strings.Contains(tests[0], "won") || !strings.Contains(tests[1], "lost") {
		t.Errorf("her test matches show %q, want a win and a loss against ref-random", tests)
	}
	// The standings say what their interval means.
	if s := evalT[string](t, ctx, `document.getElementById("standings-section").textContent`); !strings.Contains(s, "19 times in 20") {
		t.Errorf("the standings do not say what the interval means: %q", s)
	}

	// Matches, a page at a time: the next page holds older ones.
	ids := func() []int {
		return evalT[[]int](t, ctx, `Array.from(document.querySelectorAll("#matches tbody tr")).map((r) => +r.dataset.id)`)
	}
	first := ids()
	if len(first) != 50 || first[0] != 132 {
		t.Fatalf("the first page of matches: %v, want the newest 50 of 132", first)
	}
	run(chromedp.Click(chromedp.ID("older")),
		chromedp.WaitVisible(chromedp.CSS(`#matches tbody tr[data-id="82"]`)))
	if second := ids(); len(second) != 50 || second[0] != 82 || second[49] != 33 {
		t.Errorf("the second page: %v", second)
	}
	run(chromedp.Click(chromedp.ID("newer")),
		chromedp.WaitVisible(chromedp.CSS(`#matches tbody tr[data-id="132"]`)))
	// Filtered by a bot: its matches only.
	run(chromedp.SetValue(chromedp.ID("match-filter"), "bot03"),
		chromedp.Evaluate[chromedp.Void](`document.getElementById("match-filter").dispatchEvent(new Event("change"))`),
		chromedp.WaitVisible(chromedp.CSS(`#all-matches`)))
	seats := evalT[[]string](t, ctx, `Array.from(document.querySelectorAll("#matches tbody tr td:nth-child(3)")).map((r) => r.textContent)`)
	if len(seats) == 0 {
		t.Error("bot03's matches: none")
	}
	for _, s := range seats {
		if !strings.Contains(s, "bot03") {
			t.Errorf("bot03's matches show %q", s)
		}
	}

	// The viewer shows the seed as the replay file has it.
	file := ta.get(t, "", "/replays/seed.json")
	m := regexp.MustCompile(`"seed":\s*(\d+)`).FindSubmatch(file.body)
	if m == nil || string(m[1]) != bigSeed {
		t.Fatalf("the replay's seed: %s", file.body)
	}
	href := evalT[string](t, ctx, `document.querySelector("#matches a[href^='/view/']").getAttribute("href")`)
	run(chromedp.Navigate(ta.url+href), chromedp.WaitVisible(chromedp.CSS(`body[data-ready="true"]`)))
	shoot(t, ctx, "viewer")
	sub := evalT[string](t, ctx, `document.getElementById("subtitle").textContent`)
	if !strings.HasPrefix(sub, "seed "+string(m[1])+",") {
		t.Errorf("the viewer shows %q, the replay file the seed %s", sub, m[1])
	}

	// After the final: closed, and no upload form.
	if err := ta.a.Freeze(context.Background(), true); err != nil {
		t.Fatal(err)
	}
	run(chromedp.EmulateViewport(1024, 768),
		chromedp.Navigate(ta.url+"/"),
		chromedp.WaitVisible(chromedp.CSS(`body[data-ready="true"][data-frozen="true"]`)),
		chromedp.WaitVisible(chromedp.CSS(`#current[data-status="active"]`)))
	shoot(t, ctx, "arena-frozen")
	b := boxes(t, ctx, "frozen-notice", "upload-form", "bot-section")
	if !b["frozen-notice"].Visible || b["frozen-notice"].Top > b["bot-section"].Top {
		t.Errorf("after the final, the closed notice is at %+v", b["frozen-notice"])
	}
	if b["upload-form"].Visible || evalT[bool](t, ctx, `document.querySelector("input[type=file]") !== null`) {
		t.Error("after the final, the page offers an upload form")
	}
}

// TestPageEmpty: an arena with nothing played says so in words, in every
// table.
func TestPageEmpty(t *testing.T) {
	ctx := browsertest.New(t, time.Minute)
	ta := newArena(t, arena.Config{}, web.Options{}, "alice")
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(1024, 768),
		chromedp.Navigate(ta.url+"/"),
		chromedp.WaitVisible(chromedp.CSS(`body[data-ready="true"]`)),
		chromedp.SendKeys(chromedp.ID("token"), ta.tokens["alice"]),
		chromedp.Click(chromedp.CSS(`#token-form button`)),
		chromedp.WaitVisible(chromedp.ID("submissions-empty"))); err != nil {
		t.Fatal(err)
	}
	shoot(t, ctx, "arena-empty")
	for id, want := range map[string]string{
		"matches-empty":     "No matches yet: the ladder starts once two bots are active.",
		"standings-empty":   "No bot in the ladder yet",
		"submissions-empty": "You have submitted nothing yet",
	} {
		b := boxes(t, ctx, id)[id]
		got := evalT[string](t, ctx, fmt.Sprintf(`document.getElementById(%q).textContent`, id))
		if !b.Visible || !strings.HasPrefix(got, want) {
			t.Errorf("#%s (shown: %v) says %q, want %q", id, b.Visible, got, want)
		}
	}
}

// TestAPIPages: the matches come a page at a time (before=ID gives
// those older than match ID, and each page the "before" of the next),
// of every bot or of one; a match's seed is a string, digit for digit;
// /api/arena names the game and says whether the arena is frozen; a
// submission carries its test matches with their winners.
func TestAPIPages(t *testing.T) {
	ta := newArena(t, arena.Config{}, web.Options{}, "alice")
	ta.fill(t, []string{"alice", "bob", "carol"}, 25)
	type page struct {
		Before  int64
		Matches []struct {
			ID     int64
			Seed   string
			Seats  []string
			Winner int
			Test   bool
		}
	}
	var ids []int64
	before := int64(0)
	for pages := 0; ; pages++ {
		q := "/api/matches?limit=10"
		if before > 0 {
			q += fmt.Sprint("&before=", before)
		}
		var p page
		ta.get(t, "", q).json(t, &p)
		for _, m := range p.Matches {
			if m.Seed != bigSeed {
				t.Fatalf("match %d's seed is %q, want %s", m.ID, m.Seed, bigSeed)
			}
			ids = append(ids, m.ID)
		}
		if p.Before == 0 {
			if pages != 2 {
				t.Errorf("%d pages of 10 for 27 matches", pages+1)
			}
			break
		}
		before = p.Before
	}
	for i, id := range ids {
		if id != int64(27-i) {
			t.Fatalf("the pages give the matches %v, want 27 down to 1", ids)
		}
	}
	var p page
	ta.get(t, "", "/api/matches?entrant=carol&before=20").json(t, &p)
	for _, m := range p.Matches {
		if m.ID >= 20 || !strings.Contains(strings.Join(m.Seats, " "), "carol") {
			t.Errorf("carol's matches before 20: %+v", m)
		}
	}
	if len(p.Matches) == 0 {
		t.Error("carol's matches before 20: none")
	}
	if r := ta.get(t, "", "/api/matches?before=x"); r.code != 400 {
		t.Errorf("before=x: %v", r)
	}

	var a struct {
		Game, Rules, Guide string
		Frozen             bool
	}
	ta.get(t, "", "/api/arena").json(t, &a)
	if a.Game != "tictactoe" || a.Rules != "gomoku" || a.Guide != "/rules" || a.Frozen {
		t.Errorf("/api/arena: %+v", a)
	}
	if err := ta.a.Freeze(context.Background(), true); err != nil {
		t.Fatal(err)
	}
	ta.get(t, "", "/api/arena").json(t, &a)
	if !a.Frozen {
		t.Errorf("/api/arena of a frozen arena: %+v", a)
	}

	var subs struct {
		Submissions []struct {
			Tests []struct {
				Seats  []string
				Winner int
				Seed   string
			}
		}
	}
	ta.get(t, ta.tokens["alice"], "/api/submissions").json(t, &subs)
	if len(subs.Submissions) != 1 || len(subs.Submissions[0].Tests) != 2 {
		t.Fatalf("alice's submissions: %+v", subs)
	}
	for i, m := range subs.Submissions[0].Tests {
		if m.Winner != 0 || m.Seed != bigSeed || !slices.Contains(m.Seats, "ref-random") {
			t.Errorf("alice's test match %d: %+v", i, m)
		}
	}
}
