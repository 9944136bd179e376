package tournament

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"judge/judge"
)

// A bot whose source changed has its matches played again by the same
// command, and only those: the others are kept; run again unchanged,
// nothing is played. A bot removed drops out; one added plays its
// matches.
func TestTournamentRejudgesChangedBot(t *testing.T) {
	dir, args := fieldDir(t, "beta", "gamma")
	out := filepath.Join(tempDir(t), "out")
	cache := tempDir(t)
	var log bytes.Buffer
	run := func(args []string) *Standings {
		t.Helper()
		log.Reset()
		o := options(t, out, cache, args)
		o.Log = &log
		st, err := Run(context.Background(), o)
		if err != nil {
			t.Fatalf("Run: %v\n%s", err, log.String())
		}
		return st
	}
	// 3 bots, 2 rounds: 12 matches, 8 of them alpha's.
	run(args)
	first := matchRecords(t, out)
	if len(first) != 12 {
		t.Fatalf("%d matches, want 12", len(first))
	}

	st := run(args)
	if len(matchRecords(t, out)) != 12 || st.Replayed != nil || !strings.Contains(log.String(), "0 matches played") {
		t.Fatalf("unchanged bots: replayed %+v\n%s", st.Replayed, log.String())
	}

	src := filepath.Join(dir, "alpha.c")
	b, _ := os.ReadFile(src)
	if err := os.WriteFile(src, append(b, "\n/* version 2 */\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	st = run(args)
	if len(st.Replayed) != 1 || st.Replayed[0] != (Replayed{Bot: "alpha", Matches: 8}) {
		t.Errorf("replayed %+v, want 8 of alpha", st.Replayed)
	}
	if !strings.Contains(log.String(), "alpha has changed") || !strings.Contains(log.String(), "8 matches played") {
		t.Errorf("log:\n%s", log.String())
	}
	var printed bytes.Buffer
	st.Print(&printed)
	if !strings.Contains(printed.String(), "replayed 8 matches of alpha (changed)") {
		t.Errorf("standings:\n%s", printed.String())
	}
	if md := st.Markdown(); !strings.Contains(md, "replayed 8 matches of **alpha** (changed)") {
		t.Errorf("standings.md:\n%s", md)
	}
	all := matchRecords(t, out)
	if len(all) != 20 {
		t.Fatalf("%d records, want 12 and alpha's 8 again", len(all))
	}
	for _, m := range all[12:] {
		if m.Players[0].Name != "alpha" && m.Players[1].Name != "alpha" {
			t.Errorf("%s played again: alpha is not in it", m.ID)
		}
		if _, err := os.Stat(filepath.Join(out, m.Replay)); err != nil {
			t.Error(err)
		}
	}
	if st.Matches != 12 {
		t.Errorf("standings of %d matches, want 12", st.Matches)
	}
	for _, r := range st.Standings {
		if r.Played != 8 {
			t.Errorf("%s played %d, want 8", r.Name, r.Played)
		}
	}

	// Removed: gamma's matches drop out; added: delta's are played.
	if err := copyFile(args[1], filepath.Join(dir, "delta")); err != nil {
		t.Fatal(err)
	}
	st = run([]string{args[0], args[1], filepath.Join(dir, "delta")})
	if st.Matches != 12 || len(st.Standings) != 3 || st.Replayed != nil {
		t.Errorf("standings %+v", st)
	}
	for _, r := range st.Standings {
		if r.Name == "gamma" || r.Played != 8 {
			t.Errorf("row %+v", r)
		}
	}
	if n := len(matchRecords(t, out)); n != 28 {
		t.Errorf("%d records, want 20 and delta's 8", n)
	}

	// alpha rewritten as a program of no language (another runtime too):
	// played again, not refused.
	if err := copyFile(args[1], filepath.Join(dir, "alpha")); err != nil {
		t.Fatal(err)
	}
	st = run([]string{filepath.Join(dir, "alpha"), args[1], filepath.Join(dir, "delta")})
	if len(st.Replayed) != 1 || st.Replayed[0] != (Replayed{Bot: "alpha", Matches: 8}) {
		t.Errorf("alpha in another language: replayed %+v, want 8 of alpha", st.Replayed)
	}
}

// A re-judging interrupted resumes: what it recorded stays, the rest of
// the changed bot's matches are played, none twice.
func TestResumeInterruptedRejudging(t *testing.T) {
	dir, args := fieldDir(t, "beta", "gamma")
	out := filepath.Join(tempDir(t), "out")
	cache := tempDir(t)
	o := options(t, out, cache, args)
	if _, err := Run(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	src := filepath.Join(dir, "alpha.c")
	b, _ := os.ReadFile(src)
	if err := os.WriteFile(src, append(b, "\n/* version 2 */\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	o = options(t, out, cache, args)
	o.Jobs = 1
	o.Progress = &Progress{W: &cancelAfter{n: 3, cancel: cancel}, Interval: 1, now: time.Now}
	_, err := Run(ctx, o)
	if !errors.Is(err, ErrInterrupted) {
		t.Fatalf("Run: %v, want interrupted", err)
	}
	mid := len(matchRecords(t, out))
	if mid <= 12 || mid >= 20 {
		t.Fatalf("%d records after the interruption, want some of alpha's 8 played again", mid)
	}
	st, err := Run(context.Background(), options(t, out, cache, args))
	if err != nil {
		t.Fatal(err)
	}
	all := matchRecords(t, out)
	if len(all) != 20 {
		t.Errorf("%d records, want 20", len(all))
	}
	if len(st.Replayed) != 1 || st.Replayed[0].Matches != 20-mid {
		t.Errorf("replayed %+v, want the %d left", st.Replayed, 20-mid)
	}
	if st.Matches != 12 {
		t.Errorf("standings of %d matches", st.Matches)
	}
}

// cancelAfter cancels after n progress lines.
type cancelAfter struct {
	n      int
	cancel context.CancelFunc
}

func (c *cancelAfter) Write(b []byte) (int, error) {
	c.n -= bytes.Count(b, []byte("matches ("))
	if c.n <= 0 {
		c.cancel()
	}
	return len(b), nil
}

// --fresh moves the results aside and plays everything; the build cache
// in the directory is kept.
func TestTournamentFresh(t *testing.T) {
	_, args := fieldDir(t, "beta")
	out := filepath.Join(tempDir(t), "out")
	o := options(t, out, "", args)
	if _, err := Run(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	o.Fresh = true
	var log bytes.Buffer
	o.Log = &log
	st, err := Run(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	olds, _ := filepath.Glob(out + ".old-*")
	if len(olds) != 1 || !strings.Contains(log.String(), "moved to "+olds[0]) {
		t.Fatalf("old results %v\n%s", olds, log.String())
	}
	if n := len(matchRecords(t, olds[0])); n != 4 {
		t.Errorf("the old log has %d matches, want 4", n)
	}
	if n := len(matchRecords(t, out)); n != 4 || st.Matches != 4 {
		t.Errorf("the new log has %d matches, want 4", n)
	}
	if _, err := os.Stat(filepath.Join(out, "cache")); err != nil {
		t.Errorf("build cache not kept: %v", err)
	}

	// A directory in use is not moved.
	s, _, err := OpenStore(out)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := StartFresh(out, ""); err == nil || !strings.Contains(err.Error(), "in use") {
		t.Errorf("StartFresh of a directory in use: %v", err)
	}
}

// rejudgeShard records in a synthetic shard that b changed (hash) and
// its matches played again by the new program (b wins them all),
// leaving out the first skip of them.
func rejudgeShard(t *testing.T, dir string, shard Shard, hash string, skip int) {
	t.Helper()
	st, _, err := OpenStore(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ents := []EntrantInfo{{Name: "a", SHA256: "aaaa"}, {Name: "b", SHA256: hash}, {Name: "c", SHA256: "cccc"}}
	if err := st.Append(&Record{Kind: KindRun, Run: &RunInfo{Entrants: ents, Rounds: 2, Shard: shard, Sandbox: "namespaces", Dir: "/work dir"}}); err != nil {
		t.Fatal(err)
	}
	sched, _ := Plan{Format: RoundRobin, Names: []string{"a", "b", "c"}, Rounds: 2, Seed: 5, TestBot: -1}.Schedule()
	for _, f := range sched {
		if !shard.has(f.Index) || (f.Seats[0] != 1 && f.Seats[1] != 1) {
			continue
		}
		if skip > 0 {
			skip--
			continue
		}
		winner := 0
		if f.Seats[1] == 1 {
			winner = 1
		}
		rec := &MatchRecord{ID: f.ID, Round: f.Round, Index: f.Index, Seed: f.Seed(5), Winner: winner, Turns: 5, Reason: "three in a row",
			Players: []judge.PlayerResult{
				{Name: ents[f.Seats[0]].Name, Status: judge.OK, Score: float64(1 - winner)},
				{Name: ents[f.Seats[1]].Name, Status: judge.OK, Score: float64(winner)},
			},
			SHA256: []string{ents[f.Seats[0]].SHA256, ents[f.Seats[1]].SHA256}}
		if err := st.Append(&Record{Kind: KindMatch, Match: rec}); err != nil {
			t.Fatal(err)
		}
	}
}

// A merge never mixes a bot's old and new matches: each shard counts the
// matches of its bots' last programs; shards re-judged with another
// program than the others are refused; a shard whose re-judging is not
// finished is incomplete, its old matches not counted.
func TestMergeRejudgedShards(t *testing.T) {
	dirs := shards(t, 2, nil)
	for i, d := range dirs {
		rejudgeShard(t, d, Shard{Index: i, Count: 2}, "b2b2", 0)
	}
	out := filepath.Join(t.TempDir(), "merged")
	st, err := Merge(context.Background(), MergeOptions{Dirs: dirs, Out: out})
	if err != nil {
		t.Fatal(err)
	}
	// 12 matches, b's 8 played again: b wins them all now.
	if st.Matches != 12 {
		t.Errorf("%d matches", st.Matches)
	}
	for _, r := range st.Standings {
		if r.Name == "b" && (r.Wins != 8 || r.Rank != 1) {
			t.Errorf("b: %+v, want 8 wins of its new program", r)
		}
	}
	for _, m := range matchRecords(t, out) {
		for i, p := range m.Players {
			if p.Name == "b" && m.SHA256[i] != "b2b2" {
				t.Errorf("%s merged with b's old program", m.ID)
			}
		}
	}
	// Merged again after one more change: the new ones are added.
	for i, d := range dirs {
		rejudgeShard(t, d, Shard{Index: i, Count: 2}, "b3b3", 0)
	}
	if _, err := Merge(context.Background(), MergeOptions{Dirs: dirs, Out: out}); err != nil {
		t.Fatal(err)
	}
	if l, err := ReadLive(os.DirFS(out)); err != nil || len(l.Matches) != 12 || l.Standings.Matches != 12 {
		t.Errorf("merged again: %v, %+v", err, l)
	}

	// One shard re-judged, the other not: refused.
	dirs = shards(t, 2, nil)
	rejudgeShard(t, dirs[0], Shard{Index: 0, Count: 2}, "b2b2", 0)
	_, err = Merge(context.Background(), MergeOptions{Dirs: dirs, Out: filepath.Join(t.TempDir(), "m")})
	var me *MismatchError
	if !errors.As(err, &me) || !strings.Contains(err.Error(), "bot 2 is b") {
		t.Errorf("merge of shards with b's two programs: %v", err)
	}

	// A re-judging not finished: its matches are missing, not old.
	dirs = shards(t, 2, nil)
	rejudgeShard(t, dirs[0], Shard{Index: 0, Count: 2}, "b2b2", 1)
	rejudgeShard(t, dirs[1], Shard{Index: 1, Count: 2}, "b2b2", 0)
	_, err = Merge(context.Background(), MergeOptions{Dirs: dirs, Out: filepath.Join(t.TempDir(), "m")})
	var ie *IncompleteError
	if !errors.As(err, &ie) || ie.Missing != 1 {
		t.Errorf("merge of an unfinished re-judging: %v", err)
	}
}
