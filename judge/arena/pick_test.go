package arena

import (
	"slices"
	"testing"

	"judge/judge/play"
	"judge/judge/ratings"
)

// ladderOf is a ladder of the submissions 1, 2, … with pairs[i][j]
// games between the i-th and the j-th, rated elos with intervals
// ±widths/2.
func ladderOf(pairs [][]int, elos, widths []float64) *ladder {
	n := len(pairs)
	subs := make([]int64, n)
	for i := range subs {
		subs[i] = int64(i + 1)
	}
	l := newLadder(subs, nil)
	l.ratings = make([]ratings.Rating, n)
	for i := range pairs {
		for j := range pairs[i] {
			l.pairs[i][j] = pairs[i][j] + pairs[j][i]
			l.rows[i].Played += pairs[i][j] + pairs[j][i]
		}
		l.ratings[i] = ratings.Rating{Elo: elos[i], Low: elos[i] - widths[i]/2, High: elos[i] + widths[i]/2}
	}
	return l
}

// busyWith are the matches of subs being played.
func busyWith(matches ...[]int64) *playing {
	p := &playing{}
	for _, m := range matches {
		p.start(m)
	}
	return p
}

// The ladder's next match keeps the games even: the submission with the
// fewest games (those being played count), against the one it has met
// least among those it does not lift above the most games; the nearest
// in rating only among equals.
func TestPickLadder(t *testing.T) {
	even := [][]int{{0, 2, 2, 2}, {0, 0, 2, 2}, {0, 0, 0, 2}, {0, 0, 0, 0}}
	elos := []float64{1200, 1250, 1700, 1900}
	widths := []float64{100, 100, 100, 100}
	for _, c := range []struct {
		name   string
		l      *ladder
		busy   *playing
		seats  int
		enough int
		want   []int64 // nil: none
	}{
		{name: "even: the widest interval against the nearest in rating",
			l: ladderOf(even, elos, []float64{100, 100, 300, 100}), seats: 2, enough: 100, want: []int64{3, 4}},
		{name: "even, the same widths: the newest against the nearest in rating",
			l: ladderOf(even, elos, widths), seats: 2, enough: 100, want: []int64{3, 4}},
		{name: "the pair that met least, however far apart in rating",
			l:     ladderOf([][]int{{0, 3, 3, 2}, {0, 0, 3, 3}, {0, 0, 0, 3}, {0, 0, 0, 0}}, elos, widths),
			seats: 2, enough: 100, want: []int64{1, 4}},
		{name: "fewest games: against the one met least, not the nearest",
			l:     ladderOf([][]int{{0, 2, 1, 2}, {0, 0, 2, 2}, {0, 0, 0, 2}, {0, 0, 0, 0}}, elos, widths),
			seats: 2, enough: 100, want: []int64{1, 3}},
		{name: "not lifting one above the most games, though met least",
			l:     ladderOf([][]int{{0, 2, 2, 1}, {0, 0, 3, 3}, {0, 0, 0, 3}, {0, 0, 0, 0}}, elos, widths),
			seats: 2, enough: 100, want: []int64{1, 4}},
		{name: "a new submission: against those it met least, then the fewest games",
			l:     ladderOf([][]int{{0, 5, 5, 0}, {0, 0, 6, 1}, {0, 0, 0, 1}, {0, 0, 0, 0}}, elos, widths),
			seats: 2, enough: 100, want: []int64{1, 4}},
		{name: "matches being played count, by submission and by pair",
			l: ladderOf(even, elos, widths), busy: busyWith([]int64{1, 2}, []int64{3, 4}, []int64{3, 4}),
			seats: 2, enough: 100, want: []int64{2, 3}},
		{name: "three seats: the two met least with the first",
			l:     ladderOf([][]int{{0, 3, 2, 2}, {0, 0, 2, 3}, {0, 0, 0, 3}, {0, 0, 0, 0}}, elos, widths),
			seats: 3, enough: 100, want: []int64{1, 3, 4}},
		{name: "every submission has played enough",
			l: ladderOf(even, elos, widths), seats: 2, enough: 6},
	} {
		w := pickLadder(c.l, c.busy, c.seats, c.enough)
		switch {
		case w == nil && c.want != nil:
			t.Errorf("%s: none, want %v", c.name, c.want)
		case w != nil && c.want == nil:
			t.Errorf("%s: %v, want none", c.name, w.subs)
		case w != nil:
			got := slices.Sorted(slices.Values(w.subs))
			if !slices.Equal(got, c.want) {
				t.Errorf("%s: %v, want %v", c.name, got, c.want)
			}
		}
	}
}

// Reference bots are named by the one rule of every command, after ref-.
func TestRefNames(t *testing.T) {
	cs := []*play.Contestant{{Bot: play.Bot{Name: "random.c"}}, {Bot: play.Bot{Name: "random.py"}}, {Bot: play.Bot{Name: "alice"}}}
	got := refNames(cs)
	want := []string{"ref-random.c", "ref-random.py", "ref-alice"}
	if !slices.Equal(got, want) {
		t.Errorf("refNames = %q, want %q", got, want)
	}
}

// The test slots: every reference bot in every seat, as many against
// each as asked, at least one in each seat.
func TestTestSlots(t *testing.T) {
	for _, c := range []struct {
		refs, seats, per int
		want             []slot
	}{
		{2, 2, 2, []slot{{0, 0}, {1, 0}, {0, 1}, {1, 1}}},
		{2, 2, 1, []slot{{0, 0}, {1, 0}, {0, 1}, {1, 1}}},
		{1, 2, 3, []slot{{0, 0}, {0, 1}, {0, 0}}},
		{1, 3, 2, []slot{{0, 0}, {0, 1}, {0, 2}}},
		{2, 3, 1, []slot{{0, 0}, {1, 0}, {0, 1}, {1, 1}, {0, 2}, {1, 2}}},
	} {
		if got := testSlots(c.refs, c.seats, c.per); !slices.Equal(got, c.want) {
			t.Errorf("testSlots(%d refs, %d seats, %d each) = %v, want %v", c.refs, c.seats, c.per, got, c.want)
		}
	}
}
