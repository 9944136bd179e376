package arena

import (
	"slices"
	"testing"

	"judge/judge/tournament"
)

// The ladder's next match: the submission with the fewest games (those
// being played count), the widest interval, then the newest; against the
// nearest in rating.
func TestPickLadder(t *testing.T) {
	l := &ladder{
		subs:   []int64{1, 2, 3, 4},
		played: []int{10, 10, 3, 10},
		ratings: []tournament.Rating{
			{Elo: 1400, Low: 1350, High: 1450},
			{Elo: 1520, Low: 1470, High: 1570},
			{Elo: 1550, Low: 1400, High: 1700},
			{Elo: 1600, Low: 1550, High: 1650},
		},
	}
	seats := func(w *work) []int64 { s := slices.Clone(w.subs); slices.Sort(s); return s }
	if w := pickLadder(l, nil, 2, 100); !slices.Equal(seats(w), []int64{2, 3}) {
		t.Errorf("fewest games: %v, want 3 against its nearest, 2", w.subs)
	}
	// Submission 3 busy in 8 matches: 1, 2 and 4 have played 10 each;
	// the widest interval among them ties, so the newest, 4, against 3.
	if w := pickLadder(l, map[int64]int{3: 8}, 2, 100); !slices.Equal(seats(w), []int64{3, 4}) {
		t.Errorf("with 3 busy: %v, want 4 against 3", w.subs)
	}
	if w := pickLadder(l, nil, 3, 100); !slices.Equal(seats(w), []int64{2, 3, 4}) {
		t.Errorf("three seats: %v, want 3 with 2 and 4", w.subs)
	}
	if w := pickLadder(l, nil, 2, 3); w != nil {
		t.Errorf("every submission has played enough, yet %v", w.subs)
	}
}

// Reference bots are named by their files' base names, uniquely; a
// command line keeps the name the tournament gives it.
func TestRefNames(t *testing.T) {
	args := []string{"refs/random.c", "refs/random.py", "refs/greedy", "refs/random-2.c", "python3 bot.py"}
	cs := []*tournament.Contestant{{Name: "a"}, {Name: "b"}, {Name: "c"}, {Name: "d"}, {Name: "python3_bot_py"}}
	got := refNames(args, cs)
	want := []string{"ref-random", "ref-random-2", "ref-greedy", "ref-random-2-2", "ref-python3_bot_py"}
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
