package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"judge/judge/judgetest"
)

// testBot is the command line of a Python bot of testdata/debug.
func testBot(t *testing.T, name string, args ...string) string {
	t.Helper()
	judgetest.NeedTools(t, "python3")
	path, err := filepath.Abs(filepath.Join("testdata", "debug", name))
	if err != nil {
		t.Fatal(err)
	}
	return strings.Join(append([]string{"python3", path}, args...), " ")
}

// A Connect Four bot that never blocks loses, and the explanation names
// the turn it left the winning column open, with the viewer's link.
func TestExplainConnect4Threat(t *testing.T) {
	replay := filepath.Join(t.TempDir(), "game.json")
	code, out, errs := run(t, "match", "--game", "connect4", "--seed", "1", "--replay", replay,
		testBot(t, "column.py", "0"), testBot(t, "column.py", "1"))
	if code != 0 || !strings.Contains(out, "wins after 7 turns") {
		t.Fatalf("match: exit %d\n%s%s", code, out, errs)
	}
	code, out, errs = run(t, "explain", replay)
	if code != 0 {
		t.Fatalf("explain: exit %d\n%s%s", code, out, errs)
	}
	html := strings.TrimSuffix(replay, ".json") + ".html"
	for _, want := range []string{
		"turn 6    column-2 (O) did not block column (X)'s threat: a disc of column (X) in column 0 makes 4 in a row\n",
		html + "#6\n",
		"turn 7    column (X) wins after 7 turns: column (X) made 4 in a row\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("explain says\n%s\nwant %q", out, want)
		}
	}
	if strings.Contains(out, "turn 4 ") || strings.Contains(out, "turn 5 ") {
		t.Errorf("explain names turns that did not decide the game:\n%s", out)
	}
	// The viewer's result banner says the same, linked to the turn.
	if code, out, errs := run(t, "view", replay); code != 0 {
		t.Fatalf("view: exit %d\n%s%s", code, out, errs)
	}
	page, err := os.ReadFile(html)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(page), `"turn":6,"seat":1,"kind":"threat","text":"column-2 (O) did not block`) ||
		!strings.Contains(string(page), "Where it turned") {
		t.Errorf("the viewer's page has no point at turn 6 for its banner")
	}
	// --seat 0: the winner left nothing open.
	_, out, _ = run(t, "explain", "--seat", "0", replay)
	if strings.Contains(out, "did not block") || !strings.Contains(out, "wins after 7 turns") {
		t.Errorf("explain --seat 0:\n%s", out)
	}
}

// A crash is named with its turn and the bot's own words.
func TestExplainCrash(t *testing.T) {
	replay := filepath.Join(t.TempDir(), "game.json")
	if code, out, errs := run(t, "match", "--game", "connect4", "--seed", "1", "--replay", replay,
		testBot(t, "crash.py"), testBot(t, "column.py", "6")); code != 0 {
		t.Fatalf("match: exit %d\n%s%s", code, out, errs)
	}
	code, out, errs := run(t, "explain", replay)
	if code != 0 || !strings.Contains(out, "turn 5    crash (X) crashed at turn 5: exit code 1") ||
		!strings.Contains(out, "ZeroDivisionError") || !strings.Contains(out, "line 12") {
		t.Errorf("explain: exit %d\n%s%s", code, out, errs)
	}
}
