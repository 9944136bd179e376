package tournament

import (
	"strings"
	"testing"

	"judge/judge"
)

// TestRefereeErrorNotCounted: a match a plugin game's referee ended by
// failing counts for neither bot: not played, not lost, no failure; the
// standings list it apart.
func TestRefereeErrorNotCounted(t *testing.T) {
	rec := func(id string, winner int, st judge.Status, scores ...float64) *MatchRecord {
		return &MatchRecord{ID: id, Round: 1, Winner: winner, Players: []judge.PlayerResult{
			{Name: "a", Status: st, Score: scores[0]}, {Name: "b", Status: st, Score: scores[1]}}}
	}
	why := "the referee failed at query: it did not answer within 1s"
	failed := rec("r001-a-vs-b", -1, judge.RefereeError, 0, 0)
	failed.Players[0].Reason, failed.Players[1].Reason = why, why
	recs := []*MatchRecord{rec("r001-b-vs-a", 0, judge.OK, 1, 0), failed}
	h := &Header{Game: "connect4-plugin", Format: RoundRobin, Seed: 1}
	st := ComputeStandings(h, []string{"a", "b"}, nil, recs, 2)
	if st.Matches != 1 {
		t.Errorf("matches %d, want 1", st.Matches)
	}
	for _, row := range st.Standings {
		if row.Played != 1 || row.Failures.Total != 0 {
			t.Errorf("%s: played %d, failures %+v; want 1 played, none failed", row.Name, row.Played, row.Failures)
		}
	}
	if len(st.RefereeErrors) != 1 || st.RefereeErrors[0].Match != "r001-a-vs-b" || st.RefereeErrors[0].Reason != why {
		t.Errorf("referee errors %+v", st.RefereeErrors)
	}
	if md := st.Markdown(); !strings.Contains(md, "## Referee errors (not counted)") || !strings.Contains(md, why) {
		t.Errorf("the Markdown does not list the referee error:\n%s", md)
	}
}
