package tournament

import (
	"bytes"
	"strings"
	"testing"

	"judge/judge"
)

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
