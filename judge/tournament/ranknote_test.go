package tournament

import (
	"bytes"
	"strings"
	"testing"

	"judge/judge"
)

// TestRankAndRatingDisagree: ranked by average score, a bot with one big
// game stays first though it finished last more often; the table marks
// the bots rated above it and says why, and agrees where they agree.
func TestRankAndRatingDisagree(t *testing.T) {
	game := func(id string, a, b, c float64) *MatchRecord {
		return &MatchRecord{ID: id, Round: 1, Winner: -1, Players: []judge.PlayerResult{
			{Name: "bigwin", Status: judge.OK, Score: a}, {Name: "steady", Status: judge.OK, Score: b}, {Name: "third", Status: judge.OK, Score: c}}}
	}
	h := &Header{Game: "splix-small", Format: Groups, GroupSize: 3, Seed: 1}
	recs := []*MatchRecord{game("g1", 1000, 10, 0), game("g2", 0, 10, 5), game("g3", 0, 10, 5)}
	st := ComputeStandings(h, []string{"bigwin", "steady", "third"}, nil, recs, 3)
	if st.Standings[0].Name != "bigwin" || st.Standings[1].Name != "steady" {
		t.Fatalf("ranks: %+v", st.Standings)
	}
	if !(st.Standings[1].Rating > st.Standings[0].Rating) {
		t.Fatalf("ratings %v, %v: the case does not show a disagreement", st.Standings[0].Rating, st.Standings[1].Rating)
	}
	// third, rated above bigwin too, is marked as well.
	if got := st.RatedAbove(); got[0] || !got[1] || !got[2] {
		t.Errorf("RatedAbove = %v, want steady's and third's", got)
	}
	var b bytes.Buffer
	st.Print(&b)
	out := b.String()
	lines := strings.Split(out, "\n")
	if !strings.Contains(lines[2], "steady") || !strings.Contains(lines[2], "*") || strings.Contains(lines[1], "*") {
		t.Errorf("the table does not mark steady's rating, or marks bigwin's:\n%s", out)
	}
	note := "* rated above a bot ranked higher: the rank is by average score (as the Splix runner ranks), the rating by who finished ahead of whom in each game (plackett-luce)"
	if !strings.Contains(out, note) || !strings.Contains(st.Markdown(), `\`+note) {
		t.Errorf("no note saying why:\n%s\n%s", out, st.Markdown())
	}

	// Where rank and rating agree, nothing is marked.
	recs = []*MatchRecord{game("g1", 30, 20, 10), game("g2", 30, 10, 20), game("g3", 20, 30, 10)}
	st = ComputeStandings(h, []string{"bigwin", "steady", "third"}, nil, recs, 3)
	b.Reset()
	st.Print(&b)
	if strings.Contains(b.String(), "*") || strings.Contains(st.Markdown(), `\*`) {
		t.Errorf("a mark where rank and rating agree:\n%s", b.String())
	}
}
