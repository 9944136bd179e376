package human

import (
	"regexp"
	"strings"
	"testing"

	"judge/judge"
	"judge/judge/replayview"
)

// The colours named to the person are the ones the boards are drawn in:
// the viewer's, and the page's swatches.
func TestSeatColors(t *testing.T) {
	hex := map[string]string{"red": "#d62728", "blue": "#1f77b4", "green": "#2ca02c", "orange": "#ff7f0e", "purple": "#9467bd"}
	var want []string
	for _, c := range seatColors {
		want = append(want, `"`+hex[c]+`"`)
	}
	list := regexp.MustCompile(`const COLORS = \[([^\]]*)\]`)
	for name, src := range map[string][]byte{"viewer.js": replayview.Script(), "play.html": playPage} {
		m := list.FindSubmatch(src)
		if m == nil {
			t.Fatalf("%s has no COLORS", name)
		}
		if got := strings.Join(strings.Fields(strings.ReplaceAll(string(m[1]), ",", " ")), ", "); got != strings.Join(want, ", ") {
			t.Errorf("%s's colours are %s; the words name %s (%q)", name, got, strings.Join(want, ", "), seatColors)
		}
	}
}

// The end in words, for the person: the seats named, "you" for theirs.
func TestEndOf(t *testing.T) {
	players := func(names ...string) []judge.PlayerResult {
		var out []judge.PlayerResult
		for _, n := range names {
			out = append(out, judge.PlayerResult{Name: n, Status: judge.OK})
		}
		return out
	}
	for _, tt := range []struct {
		res      judge.Result
		you      int
		headline string
		outcome  string
		name     string // the person's, in the table
	}{
		{judge.Result{Game: "tictactoe", Winner: 1, Reason: "O made 3 in a row", Players: players("bob", "ann")}, 1,
			"You win: you made 3 in a row.", "win", "ann (O, blue)"},
		{judge.Result{Game: "connect4", Winner: 0, Reason: "X made 4 in a row", Players: players("bob", "you")}, 1,
			"bob wins: bob made 4 in a row.", "loss", "you (O, blue)"},
		{judge.Result{Game: "battleship", Winner: 0, Reason: "seat 0 sank the whole fleet of seat 1", Players: players("bob", "you")}, 1,
			"bob wins: bob sank your whole fleet.", "loss", "you (blue)"},
		{judge.Result{Game: "gomoku", Winner: -1, Reason: "the board is full", Players: players("you", "bob")}, 0,
			"No winner: the board is full.", "draw", "you (X, red)"},
	} {
		e := EndOf(&tt.res, tt.you)
		if e.Headline != tt.headline || e.Outcome != tt.outcome || e.Players[tt.you].Name != tt.name || !e.Players[tt.you].You {
			t.Errorf("%s: %q, %s, %+v; want %q, %s, %s", tt.res.Reason, e.Headline, e.Outcome, e.Players, tt.headline, tt.outcome, tt.name)
		}
	}
}
