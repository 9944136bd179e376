package tournament

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"

	"judge/judge"
)

// One bot that won every game puts the fit on its prior; the intervals
// of the others, who played each other evenly, still narrow as their
// games accrue (they are relative to the field, whose level only the
// prior sets), as the square root of their games.
func TestPriorIntervalsNarrow(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	width := func(perPair int) float64 {
		var gs []Game
		for i := range 6 {
			for j := range i {
				for range perPair {
					win := float64(r.IntN(2)) // i's score
					if j == 0 {
						win = 0
					}
					gs = append(gs, Game{Players: []int{i, j}, Scores: []float64{win, 1 - win}})
				}
			}
		}
		fit := FitRatings(6, gs)
		if !fit.Prior {
			t.Fatal("no prior, though bot 0 won every game")
		}
		w := 0.0
		for _, r := range fit.Ratings[1:] {
			w += r.High - r.Low
		}
		return w / 5
	}
	few, many := width(6), width(60)
	t.Logf("mean width of the others' intervals: %.0f at 30 games each, %.0f at 300", few, many)
	if many > few/2.5 {
		t.Errorf("intervals %.0f wide at 300 games each, %.0f at 30: they should narrow about as √10", many, few)
	}
}

// The table says why the ratings needed the prior, and only what is
// true: a bot that won every game, by name; a group that won every game
// against the others, when no single bot did (the old note said some
// bot won or lost everything).
func TestPriorNote(t *testing.T) {
	rec := func(id, a, b string, winner int) *MatchRecord {
		m := &MatchRecord{ID: id, Round: 1, Winner: winner, Players: []judge.PlayerResult{{Name: a, Status: judge.OK}, {Name: b, Status: judge.OK}}}
		if winner >= 0 {
			m.Players[winner].Score = 1
		}
		return m
	}
	h := &Header{Game: "tictactoe", Format: RoundRobin, Seed: 1}
	for _, c := range []struct {
		name string
		recs []*MatchRecord
		note string // "": no prior
	}{
		{"one bot unbeaten, one beaten by all", []*MatchRecord{rec("1", "alice", "bob", 0), rec("2", "alice", "carol", 0),
			rec("3", "bob", "carol", 0), rec("4", "bob", "carol", 1), rec("5", "bob", "dave", 0), rec("6", "carol", "dave", 0)},
			"alice won every game; dave lost every game"},
		{"a pair won every game against another", []*MatchRecord{rec("1", "alice", "bob", 0), rec("2", "alice", "bob", 1),
			rec("3", "carol", "dave", 0), rec("4", "carol", "dave", 1),
			rec("5", "alice", "carol", 0), rec("6", "bob", "dave", 0), rec("7", "alice", "dave", 0), rec("8", "bob", "carol", 0)},
			"some bots won every game against the others, or never played them"},
		{"one never played", []*MatchRecord{rec("1", "alice", "bob", 0), rec("2", "alice", "bob", 1)}, "dave played none"},
		{"every bot beaten and beating", []*MatchRecord{rec("1", "alice", "bob", 0), rec("2", "bob", "carol", 0),
			rec("3", "carol", "dave", 0), rec("4", "dave", "alice", 0)}, ""},
	} {
		names := []string{"alice", "bob", "carol", "dave"}
		if c.note == "dave played none" {
			names = []string{"alice", "bob", "dave"}
		}
		st := ComputeStandings(h, names, nil, c.recs, len(c.recs))
		var b bytes.Buffer
		st.Print(&b)
		out := b.String()
		switch {
		case c.note == "" && (st.Prior || strings.Contains(out, "prior")):
			t.Errorf("%s: a prior:\n%s", c.name, out)
		case c.note != "" && (st.PriorNote != c.note || !strings.Contains(out, "(with a weak prior: "+c.note+")")):
			t.Errorf("%s: note %q, want %q:\n%s", c.name, st.PriorNote, c.note, out)
		}
	}
}
