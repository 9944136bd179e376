package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"judge/games"
	"judge/judge"
	"judge/judge/tournament"
)

// writeShard writes the results log of shard i/n of a round robin of
// three bots, as 'judge tournament --shard' would, leaving out skip of
// its matches.
func writeShard(t *testing.T, dir string, i, n, skip int, seed uint64, level string) {
	t.Helper()
	st, _, err := tournament.OpenStore(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	names := []string{"a", "b", "c"}
	h := &tournament.Header{Version: tournament.LogVersion, Game: "tictactoe", Params: games.Params{}, Format: tournament.RoundRobin, Seed: seed}
	run := &tournament.RunInfo{Rounds: 1, Shard: tournament.Shard{Index: i, Count: n}, Sandbox: level}
	for _, nm := range names {
		run.Entrants = append(run.Entrants, tournament.EntrantInfo{Name: nm, SHA256: nm + nm})
	}
	for _, r := range []*tournament.Record{{Kind: tournament.KindHeader, Header: h}, {Kind: tournament.KindRun, Run: run}} {
		if err := st.Append(r); err != nil {
			t.Fatal(err)
		}
	}
	sched, err := tournament.Plan{Format: tournament.RoundRobin, Names: names, Rounds: 1, Seed: seed, TestBot: -1}.Schedule()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range sched {
		if f.Index%n != i {
			continue
		}
		if skip > 0 {
			skip--
			continue
		}
		rec := &tournament.MatchRecord{ID: f.ID, Round: f.Round, Index: f.Index, Seed: f.Seed(seed), Winner: -1, Turns: 9, Reason: "draw",
			Players: []judge.PlayerResult{{Name: names[f.Seats[0]], Status: judge.OK, Score: 0.5}, {Name: names[f.Seats[1]], Status: judge.OK, Score: 0.5}}}
		if err := st.Append(&tournament.Record{Kind: tournament.KindMatch, Match: rec}); err != nil {
			t.Fatal(err)
		}
	}
}

func TestMergeExitStatus(t *testing.T) {
	type shard struct {
		skip  int
		seed  uint64
		level string
	}
	ok := shard{0, 1, "full"}
	for _, tc := range []struct {
		name   string
		shards []shard
		args   []string
		code   int
		say    string // in stderr
		wrote  bool
	}{
		{"complete", []shard{ok, ok}, nil, 0, "merged 2 directories", true},
		{"missing", []shard{ok, {1, 1, "full"}}, nil, 3, "1 of 6 matches are in none", false},
		{"partial", []shard{ok, {1, 1, "full"}}, []string{"--partial"}, 0, "partial merge: 1 of 6", true},
		{"shard not run", []shard{ok}, []string{"MISSING"}, 3, "no tournament recorded yet in", false},
		{"another seed", []shard{ok, {0, 2, "full"}}, nil, 4, "seed 2, not 1", false},
		{"another level", []shard{ok, {0, 1, "namespaces"}}, nil, 4, "sandbox level namespaces, not full", false},
		{"wait times out", []shard{ok, {1, 1, "full"}}, []string{"--wait", "--timeout", "100ms", "--poll", "10ms"}, 3, "waiting: 1 of 6 matches missing", false},
		{"wait, complete", []shard{ok, ok}, []string{"--wait", "--timeout", "1m"}, 0, "merged", true},
		{"timeout without wait", []shard{ok, ok}, []string{"--timeout", "1s"}, 2, "--timeout is for --wait", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tmp := t.TempDir()
			args := []string{"merge", "--quiet=false", "--out", filepath.Join(tmp, "out")}
			for i, s := range tc.shards {
				d := filepath.Join(tmp, "shard"+string(rune('0'+i)))
				n := len(tc.shards)
				if len(tc.args) > 0 && tc.args[0] == "MISSING" {
					n++
				}
				writeShard(t, d, i, n, s.skip, s.seed, s.level)
				args = append(args, d)
			}
			for _, a := range tc.args {
				if a == "MISSING" {
					a = filepath.Join(tmp, "not-yet")
				}
				args = append(args, a)
			}
			code, _, errs := run(t, args...)
			if code != tc.code || !strings.Contains(errs, tc.say) {
				t.Errorf("exit %d, want %d; stderr:\n%s\nwant it to say %q", code, tc.code, errs, tc.say)
			}
			_, err := os.Stat(filepath.Join(tmp, "out", "standings.json"))
			if wrote := err == nil; wrote != tc.wrote {
				t.Errorf("standings written: %v, want %v", wrote, tc.wrote)
			}
		})
	}
}
