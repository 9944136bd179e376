package tournament

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
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
	// settings of every run (nil: none recorded, as an older judge);
	// a settings2 makes a second run record with them
	settings, settings2 map[string]string
	runtimeB            string   // b's runtime
	command             []string // the command line recorded
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
	ents := []EntrantInfo{{Name: "a", SHA256: "aaaa"}, {Name: "b", SHA256: s.hashB, Runtime: s.runtimeB}, {Name: "c", SHA256: "cccc"}}
	for _, l := range s.levels {
		if err := st.Append(&Record{Kind: KindRun, Run: &RunInfo{Entrants: ents, Rounds: 2, Shard: s.shard, Sandbox: l,
			Settings: s.settings, Command: s.command, Dir: "/work dir"}}); err != nil {
			t.Fatal(err)
		}
	}
	if s.settings2 != nil {
		if err := st.Append(&Record{Kind: KindRun, Run: &RunInfo{Entrants: ents, Rounds: 2, Shard: s.shard, Sandbox: s.levels[0],
			Settings: s.settings2, Command: s.command, Dir: "/work dir"}}); err != nil {
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
		{"another turn", func(i int, s *shardSpec) {
			s.settings = map[string]string{"turn": "1s", "memory": "256MiB"}
			if i == 1 {
				s.settings["turn"] = "5ms"
			}
		}, "turn is 5ms, DIR0 has 1s"},
		{"another memory limit", func(i int, s *shardSpec) {
			s.settings = map[string]string{"turn": "1s", "memory": "256MiB"}
			if i == 1 {
				s.settings["memory"] = "128MiB"
			}
		}, "memory is 128MiB, DIR0 has 256MiB"},
		{"another judge", func(i int, s *shardSpec) {
			s.settings = map[string]string{"judge": "revision 1"}
			if i == 1 {
				s.settings["judge"] = "revision 2"
			}
		}, "judge is revision 2, DIR0 has revision 1"},
		{"settings not recorded", func(i int, s *shardSpec) {
			if i == 0 {
				s.settings = map[string]string{"turn": "1s"}
			}
		}, "turn is not recorded (an older judge's log), DIR0 has 1s"},
		{"another runtime", func(i int, s *shardSpec) {
			s.runtimeB = "Python 3.11.2"
			if i == 1 {
				s.runtimeB = "Python 3.12.0"
			}
		}, `bot 2 (b) ran on "Python 3.12.0", DIR0 has "Python 3.11.2"`},
		{"settings mixed in one directory", func(i int, s *shardSpec) {
			s.settings = map[string]string{"turn": "1s"}
			if i == 1 {
				s.settings2 = map[string]string{"turn": "2s"}
			}
		}, "its runs were played with different turn (1s, 2s)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dirs := shards(t, 2, tc.change)
			out := filepath.Join(t.TempDir(), "out")
			_, err := Merge(context.Background(), MergeOptions{Dirs: dirs, Out: out})
			var mis *MismatchError
			if !errors.As(err, &mis) {
				t.Fatalf("got %v, want a MismatchError", err)
			}
			tc.want = strings.ReplaceAll(tc.want, "DIR0", dirs[0])
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

func TestMergeSaysWhatToPlay(t *testing.T) {
	root := t.TempDir()
	out := func(i int) string { return filepath.Join(root, "shard-"+string(rune('0'+i))) }
	dirs := shards(t, 3, func(i int, s *shardSpec) {
		s.command = []string{"judge", "tournament", "--config", "my file.toml", "--shard", fmt.Sprintf("%d/3", i), "--out", out(i)}
		if i == 2 {
			s.skip = 1
		}
	})
	// shard-1 has not started; shard-2 lacks one match.
	if err := os.RemoveAll(dirs[1]); err != nil {
		t.Fatal(err)
	}
	dirs[1] = out(1)
	var log strings.Builder
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	_, err := Merge(ctx, MergeOptions{Dirs: dirs, Out: filepath.Join(root, "all"), Wait: true, Poll: 5 * time.Millisecond, Log: &log})
	var inc *IncompleteError
	if !errors.As(err, &inc) {
		t.Fatalf("got %v, want an IncompleteError", err)
	}
	want := []ShardGap{
		{Dir: dirs[1], Shard: Shard{1, 3}, Missing: 4, Empty: true,
			Command: "cd '/work dir' && judge tournament --config 'my file.toml' --shard 1/3 --out " + out(1)},
		{Dir: dirs[2], Shard: Shard{2, 3}, Missing: 1,
			Command: "cd '/work dir' && judge tournament --config 'my file.toml' --shard 2/3 --out " + out(2)},
	}
	if !reflect.DeepEqual(inc.Shards, want) {
		t.Errorf("shards\n%+v\nwant\n%+v", inc.Shards, want)
	}
	for _, w := range []string{
		dirs[1] + " (shard 1/3): no tournament recorded yet, 4 matches; to play them:\n    " + want[0].Command,
		dirs[2] + " (shard 2/3): 1 match missing; unless it is being played, resume it (only what is missing is played):\n    " + want[1].Command,
	} {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("the error does not say\n%s\nit says\n%s", w, err)
		}
		if !strings.Contains(log.String(), w) {
			t.Errorf("the waiting log does not say\n%s\nit says\n%s", w, log.String())
		}
	}
}

func TestGapsWithoutNames(t *testing.T) {
	// Directories whose names say nothing: the shard of one without a
	// tournament is its position, when there are as many as shards; a
	// shard no directory is for is named alone.
	dirs := shards(t, 3, func(i int, s *shardSpec) {
		s.command = []string{"judge", "tournament", "--shard=" + fmt.Sprintf("%d/3", i), "--", "bot"}
	})
	none := filepath.Join(t.TempDir(), "pending")
	got := func(dirs []string) []ShardGap {
		t.Helper()
		_, err := Merge(context.Background(), MergeOptions{Dirs: dirs, Out: filepath.Join(t.TempDir(), "all")})
		var inc *IncompleteError
		if !errors.As(err, &inc) {
			t.Fatalf("got %v, want an IncompleteError", err)
		}
		return inc.Shards
	}
	gaps := got([]string{dirs[0], none, dirs[2]})
	if len(gaps) != 1 || gaps[0].Dir != none || gaps[0].Shard != (Shard{1, 3}) || gaps[0].Missing != 4 ||
		gaps[0].Command != "cd '/work dir' && judge tournament --shard=1/3 --out "+none+" -- bot" {
		t.Errorf("gaps %+v", gaps)
	}
	gaps = got([]string{dirs[0], dirs[2]})
	if len(gaps) != 1 || gaps[0].Dir != "" || gaps[0].Shard != (Shard{1, 3}) || gaps[0].Missing != 4 || gaps[0].Command != "" {
		t.Errorf("gaps %+v", gaps)
	}
}
