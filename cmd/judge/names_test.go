package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"judge/judge/judgetest"
)

// The same bots have the same names in every command: a match, a
// tournament and a sequential test of alice/ (a directory), bob/bot.py
// (named after its directory) and a command line running carol.py name
// them alice, bob and carol in their replays.
func TestNamesAgreeAcrossCommands(t *testing.T) {
	judgetest.NeedTools(t, "python3")
	src, err := os.ReadFile(filepath.Join(judgetest.Root(t), "examples/gomoku/random_bot.py"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, f := range []string{"alice/main.py", "bob/bot.py", "carol.py"} {
		p := filepath.Join(dir, f)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, src, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	alice, bob, carol := filepath.Join(dir, "alice"), filepath.Join(dir, "bob", "bot.py"), "python3 "+filepath.Join(dir, "carol.py")
	want := []string{"alice", "bob", "carol"}
	// names are the bots' names in the replays under root.
	names := func(root string) []string {
		t.Helper()
		var got []string
		err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() || filepath.Ext(p) != ".json" {
				return err
			}
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			var r struct {
				Bots []struct{ Name string } `json:"bots"`
			}
			if json.Unmarshal(b, &r) != nil {
				return nil // not a replay
			}
			for _, b := range r.Bots {
				if !slices.Contains(got, b.Name) {
					got = append(got, b.Name)
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		slices.Sort(got)
		return got
	}

	out := t.TempDir()
	replay := filepath.Join(out, "match.json")
	if code, _, errs := run(t, "match", "--game", "tictactoe", "--seed", "1", "--replay", replay, alice, bob); code != 0 {
		t.Fatalf("match: exit %d: %s", code, errs)
	}
	if got := names(out); !slices.Equal(got, want[:2]) {
		t.Errorf("judge match names %q, want %q", got, want[:2])
	}
	tour := filepath.Join(t.TempDir(), "tournament")
	if code, _, errs := run(t, "tournament", "--game", "tictactoe", "--seed", "1", "--jobs", "2", "--out", tour, alice, bob, carol); code != 0 {
		t.Fatalf("tournament: exit %d: %s", code, errs)
	}
	if got := names(tour); !slices.Equal(got, want) {
		t.Errorf("judge tournament names %q, want %q", got, want)
	}
	sprt := filepath.Join(t.TempDir(), "sprt")
	if code, _, errs := run(t, "sprt", "--game", "tictactoe", "--seed", "1", "--jobs", "2", "--max-games", "2", "--out", sprt, bob, carol); code != 0 {
		t.Fatalf("sprt: exit %d: %s", code, errs)
	}
	if got := names(sprt); !slices.Equal(got, want[1:]) {
		t.Errorf("judge sprt names %q, want %q", got, want[1:])
	}
}
