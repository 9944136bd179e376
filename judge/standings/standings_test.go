package standings_test

import (
	"testing"

	"judge/judge"
	"judge/judge/standings"
)

// TestCount: the one rule for wins, draws and losses, in games of two
// seats and of more.
func TestCount(t *testing.T) {
	for _, c := range []struct {
		name   string
		winner int
		scores []float64
		want   []string // per seat: W, D or L
		points []float64
	}{
		{"seat 0 wins", 0, []float64{1, 0}, []string{"W", "L"}, []float64{1, 0}},
		{"seat 1 wins", 1, []float64{0, 1}, []string{"L", "W"}, []float64{0, 1}},
		{"a draw", -1, []float64{0.5, 0.5}, []string{"D", "D"}, []float64{0.5, 0.5}},
		{"a draw with nothing scored", -1, []float64{0, 0}, []string{"D", "D"}, []float64{0.5, 0.5}},
		{"four seats, one winner", 2, []float64{300, 10, 900, 0}, []string{"L", "L", "W", "L"}, []float64{0, 0, 1, 0}},
		{"four seats, two share the top", -1, []float64{900, 10, 900, 0}, []string{"D", "L", "D", "L"}, []float64{0.5, 0, 0.5, 0}},
		{"three seats, all equal", -1, []float64{3, 3, 3}, []string{"D", "D", "D"}, []float64{0.5, 0.5, 0.5}},
	} {
		for seat := range c.scores {
			var s standings.Standing
			s.Count(seat, c.winner, c.scores)
			got := map[bool]string{true: "W"}[s.Wins == 1] + map[bool]string{true: "D"}[s.Draws == 1] + map[bool]string{true: "L"}[s.Losses == 1]
			if got != c.want[seat] || s.Played != 1 || s.Points != c.points[seat] {
				t.Errorf("%s, seat %d: %+v, want %s with %v points", c.name, seat, s, c.want[seat], c.points[seat])
			}
			r := standings.ResultOf(seat, c.winner, c.scores)
			if want := map[string]standings.Result{"W": standings.Win, "D": standings.Draw, "L": standings.Loss}[c.want[seat]]; r != want {
				t.Errorf("%s, seat %d: ResultOf %q, want %q", c.name, seat, r, want)
			}
		}
	}
}

// TestFailures: failures are counted by kind; Add keeps the last one in
// words, Count does not; OK is no failure.
func TestFailures(t *testing.T) {
	var f standings.Failures
	f.Count(judge.OK)
	f.Add(judge.OK, "m1", "")
	f.Count(judge.Timeout)
	f.Add(judge.Crash, "r001-a-vs-b", "exit status 1")
	f.Add(judge.Illegal, "r002-b-vs-a", "")
	f.Count(judge.Memory)
	want := standings.Failures{Total: 4, Timeout: 1, Crash: 1, Illegal: 1, Memory: 1, Last: "r002-b-vs-a: illegal"}
	if f != want {
		t.Errorf("got %+v, want %+v", f, want)
	}
}
