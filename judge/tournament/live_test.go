package tournament

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"judge/games"
	"judge/judge"
)

// TestReadLive: read from the directory of a finished tournament, the
// live standings are the ones the tournament wrote, and the schedule's
// size is known; a torn last line is counted, not fatal; an empty
// directory has no tournament yet.
func TestReadLive(t *testing.T) {
	_, args := botDir(t)
	out := tempDir(t)
	o := options(t, out, filepath.Join(tempDir(t), "cache"), args)
	st, err := Run(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	l, err := ReadLive(os.DirFS(out))
	if err != nil {
		t.Fatal(err)
	}
	if l.Header == nil || l.Header.Game != "tictactoe" {
		t.Fatalf("header %+v", l.Header)
	}
	if l.Scheduled != st.Scheduled || len(l.Matches) != st.Matches || l.Damaged != 0 {
		t.Errorf("scheduled %d, %d matches, %d damaged; the tournament says %d of %d", l.Scheduled, len(l.Matches), l.Damaged, st.Matches, st.Scheduled)
	}
	if !reflect.DeepEqual(l.Standings, st) {
		t.Errorf("live standings\n%+v\nwant\n%+v", l.Standings, st)
	}
	f, err := os.OpenFile(filepath.Join(out, LogName), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(`{"crc":"0000`)
	f.Close()
	if l, err = ReadLive(os.DirFS(out)); err != nil || l.Damaged != 1 || len(l.Matches) != st.Matches {
		t.Errorf("with a torn line: %d damaged, %d matches, %v", l.Damaged, len(l.Matches), err)
	}
	if l, err := ReadLive(os.DirFS(t.TempDir())); err != nil || l.Header != nil {
		t.Errorf("an empty directory: %+v, %v", l, err)
	}
}

// While a tournament is played, the live table ranks by points per game:
// a bot that won its 2 games ranks above one with 3 points of 4.
func TestReadLiveRanksByRate(t *testing.T) {
	dir := t.TempDir()
	st, _, err := OpenStore(dir)
	if err != nil {
		t.Fatal(err)
	}
	h := &Header{Version: LogVersion, Game: "tictactoe", Params: games.Params{}, Format: RoundRobin, Seed: 5}
	ents := []EntrantInfo{{Name: "a", SHA256: "aaaa"}, {Name: "b", SHA256: "bbbb"}, {Name: "c", SHA256: "cccc"}}
	recs := []*Record{{Kind: KindHeader, Header: h}, {Kind: KindRun, Run: &RunInfo{Entrants: ents, Rounds: 2}}}
	match := func(id string, w, l string) {
		recs = append(recs, &Record{Kind: KindMatch, Match: &MatchRecord{ID: id, Winner: 0, Players: []judge.PlayerResult{
			{Name: w, Status: judge.OK, Score: 1}, {Name: l, Status: judge.OK}}}})
	}
	match("r001-a-vs-c", "a", "c")
	match("r001-c-vs-a", "c", "a")
	match("r002-a-vs-c", "a", "c")
	match("r002-c-vs-a", "a", "c")
	match("r001-b-vs-c", "b", "c")
	match("r001-c-vs-b", "b", "c")
	for _, r := range recs {
		if err := st.Append(r); err != nil {
			t.Fatal(err)
		}
	}
	st.Close()
	l, err := ReadLive(os.DirFS(dir))
	if err != nil {
		t.Fatal(err)
	}
	var order []string
	for _, r := range l.Standings.Standings {
		order = append(order, fmt.Sprintf("%d %s %g/%d", r.Rank, r.Name, r.Points, r.Played))
	}
	if want := []string{"1 b 2/2", "2 a 3/4", "3 c 1/6"}; !reflect.DeepEqual(order, want) {
		t.Errorf("live table %v, want %v", order, want)
	}
}
