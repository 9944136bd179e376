package tournament

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"judge/games"
	"judge/judge"
)

// shardSpec is a synthetic shard: a results log written directly, with
// the matches of the schedule that fall in the shard.
type shardSpec struct {
	seed   uint64
	hashB  string
	levels []string // one run record per level
	shard  Shard
	skip   int // leave out this many of the shard's matches
}

func writeShard(t *testing.T, dir string, s shardSpec) {
	t.Helper()
	if s.seed == 0 {
		s.seed = 5
	}
	if s.hashB == "" {
		s.hashB = "bbbb"
	}
	if s.levels == nil {
		s.levels = []string{"namespaces"}
	}
	st, _, err := OpenStore(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	h := &Header{Version: LogVersion, Game: "tictactoe", Params: games.Params{}, Format: RoundRobin, Seed: s.seed}
	if err := st.Append(&Record{Kind: KindHeader, Header: h}); err != nil {
		t.Fatal(err)
	}
	ents := []EntrantInfo{{Name: "a", SHA256: "aaaa"}, {Name: "b", SHA256: s.hashB}, {Name: "c", SHA256: "cccc"}}
	for _, l := range s.levels {
		if err := st.Append(&Record{Kind: KindRun, Run: &RunInfo{Entrants: ents, Rounds: 2, Shard: s.shard, Sandbox: l}}); err != nil {
			t.Fatal(err)
		}
	}
	sched, err := Plan{Format: RoundRobin, Names: []string{"a", "b", "c"}, Rounds: 2, Seed: s.seed, TestBot: -1}.Schedule()
	if err != nil {
		t.Fatal(err)
	}
	skipped := 0
	for _, f := range sched {
		if !s.shard.has(f.Index) {
			continue
		}
		if skipped < s.skip {
			skipped++
			continue
		}
		rec := &MatchRecord{ID: f.ID, Round: f.Round, Index: f.Index, Seed: f.Seed(s.seed), Winner: 0, Turns: 5, Reason: "three in a row",
			Players: []judge.PlayerResult{
				{Name: ents[f.Seats[0]].Name, Status: judge.OK, Score: 1},
				{Name: ents[f.Seats[1]].Name, Status: judge.OK, Score: 0},
			}}
		if err := st.Append(&Record{Kind: KindMatch, Match: rec}); err != nil {
			t.Fatal(err)
		}
	}
}

func shards(t *testing.T, n int, change func(i int, s *shardSpec)) []string {
	t.Helper()
	root := t.TempDir()
	var dirs []string
	for i := 0; i < n; i++ {
		s := shardSpec{shard: Shard{Index: i, Count: n}}
		if change != nil {
			change(i, &s)
		}
		d := filepath.Join(root, "shard"+string(rune('0'+i)))
		writeShard(t, d, s)
		dirs = append(dirs, d)
	}
	return dirs
}

func TestMergeRefuses(t *testing.T) {
	for _, tc := range []struct {
		name   string
		change func(i int, s *shardSpec)
		want   string // in the error; names shard1
	}{
		{"another seed", func(i int, s *shardSpec) {
			if i == 1 {
				s.seed = 6
			}
		}, "another tournament: seed 6, not 5"},
		{"another hash", func(i int, s *shardSpec) {
			if i == 1 {
				s.hashB = "b2b2"
			}
		}, "bot 2 is b (b2b2"},
		{"another sandbox level", func(i int, s *shardSpec) {
			if i == 1 {
				s.levels = []string{"full"}
			}
		}, "sandbox level full, not namespaces"},
		{"levels mixed in one directory", func(i int, s *shardSpec) {
			if i == 1 {
				s.levels = []string{"namespaces", "full"}
			}
		}, "different sandbox levels (full, namespaces)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dirs := shards(t, 2, tc.change)
			out := filepath.Join(t.TempDir(), "out")
			_, err := Merge(context.Background(), MergeOptions{Dirs: dirs, Out: out})
			var mis *MismatchError
			if !errors.As(err, &mis) {
				t.Fatalf("got %v, want a MismatchError", err)
			}
			if mis.Dir != dirs[1] || mis.Shard != "1/2" || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("got %q (dir %s shard %s), want it to name %s, shard 1/2 and %q", err, mis.Dir, mis.Shard, dirs[1], tc.want)
			}
			if _, err := os.Stat(out); !os.IsNotExist(err) {
				t.Errorf("a refused merge wrote %s (%v)", out, err)
			}
		})
	}
}

func TestMergeIncomplete(t *testing.T) {
	dirs := shards(t, 3, func(i int, s *shardSpec) {
		if i == 2 {
			s.skip = 1
		}
	})
	out := filepath.Join(t.TempDir(), "out")
	_, err := Merge(context.Background(), MergeOptions{Dirs: dirs, Out: out})
	var inc *IncompleteError
	if !errors.As(err, &inc) || inc.Missing != 1 || inc.Scheduled != 12 {
		t.Fatalf("got %v (%+v), want 1 of 12 missing", err, inc)
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("an incomplete merge wrote %s (%v)", out, err)
	}

	// A directory that does not exist is a shard not run.
	_, err = Merge(context.Background(), MergeOptions{Dirs: append(dirs[:2:2], filepath.Join(t.TempDir(), "none")), Out: out})
	if !errors.As(err, &inc) || len(inc.Empty) != 1 || inc.Missing != 4 {
		t.Fatalf("got %v (%+v), want 1 empty directory and 4 matches missing", err, inc)
	}

	st, err := Merge(context.Background(), MergeOptions{Dirs: dirs, Out: out, Partial: true})
	if err != nil {
		t.Fatal(err)
	}
	if st.Matches != 11 || st.Scheduled != 12 {
		t.Errorf("partial merge: %d of %d matches, want 11 of 12", st.Matches, st.Scheduled)
	}
	if _, err := os.Stat(filepath.Join(out, "standings.json")); err != nil {
		t.Error(err)
	}
}

func TestMergeWait(t *testing.T) {
	// Shard 2/3 has not started when the merge begins.
	dirs := shards(t, 3, nil)
	late := dirs[2]
	full := filepath.Join(t.TempDir(), "full")
	if err := os.Rename(late, full); err != nil {
		t.Fatal(err)
	}
	go func() {
		time.Sleep(50 * time.Millisecond)
		os.Rename(full, late)
	}()
	out := filepath.Join(t.TempDir(), "out")
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	st, err := Merge(ctx, MergeOptions{Dirs: dirs, Out: out, Wait: true, Poll: 5 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if st.Matches != 12 {
		t.Errorf("%d matches merged, want 12", st.Matches)
	}

	// Waiting ends with the context: incomplete.
	dirs = shards(t, 2, func(i int, s *shardSpec) { s.skip = i })
	ctx, cancel = context.WithTimeout(context.Background(), 30*time.Millisecond)
	defer cancel()
	_, err = Merge(ctx, MergeOptions{Dirs: dirs, Out: filepath.Join(t.TempDir(), "out"), Wait: true, Poll: 5 * time.Millisecond})
	var inc *IncompleteError
	if !errors.As(err, &inc) || inc.Missing != 1 {
		t.Fatalf("got %v, want 1 match missing", err)
	}
}
