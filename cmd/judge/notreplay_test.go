package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"judge/judge"
	"judge/judge/standings"
	"judge/judge/tournament"
)

// TestViewNotAReplay: a standings file, a match's result and other JSON
// given to judge view or replay say what they are, not "version 0".
func TestViewNotAReplay(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, v any) string {
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	table := write("standings.json", tournament.Standings{Game: "tictactoe", Format: tournament.RoundRobin, Standings: []standings.Standing{}})
	result := write("result.json", judge.Result{Game: "tictactoe", Winner: 1, Players: []judge.PlayerResult{{}, {}}})
	other := write("other.json", map[string]int{"a": 1})
	for _, c := range []struct {
		file string
		want string
	}{
		{table, table + " is not a replay but a tournament's standings: 'judge serve " + dir + "' shows them with the tournament's replays, which are in " + filepath.Join(dir, "replays")},
		{result, "not a replay: a match's result (judge match --json); 'judge match --replay FILE' writes the replay"},
		{other, `not a replay: it has no replay version (a replay has "version": 1`},
	} {
		for _, cmd := range []string{"view", "replay"} {
			code, _, errs := run(t, cmd, c.file)
			if code != 1 || !strings.Contains(errs, c.want) || strings.Contains(errs, "version 0") {
				t.Errorf("%s %s: exit %d, %q; want 1 saying %q", cmd, filepath.Base(c.file), code, errs, c.want)
			}
		}
	}
}
