package tournament

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"judge/games/plugin"
	"judge/judge/judgetest"
	"judge/judge/sprt"
)

// TestSPRTRefereeErrors: pairs whose games a plugin game's referee ended
// by failing count for neither bot; the test goes on to its limit and
// says so, with nothing counted.
func TestSPRTRefereeErrors(t *testing.T) {
	if testing.Short() {
		t.Skip("plays real games")
	}
	g := brokenGame(t)
	judgetest.NeedTools(t, "python3")
	random := strings.Join(judgetest.Bot(t, "examples/gomoku/random.c"), " ")
	o := sprtOptions(t, filepath.Join(tempDir(t), "sprt"), random, random+" ")
	o.Match.Game, o.Match.Name, o.Match.Params = g, g.Name(), nil
	o.Test = sprt.Default
	o.MaxGames = 6
	st, err := RunSPRT(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	if st.Verdict != sprt.Continue || !st.Limited || st.Pairs != 0 || st.Voided != 3 {
		t.Errorf("verdict %v, limited %v, %d pairs counted, %d voided; want 0 counted, 3 voided", st.Verdict, st.Limited, st.Pairs, st.Voided)
	}
}

// TestTournamentRefereeErrors: a tournament whose every match its
// referee ends by failing goes on to its end; no bot is charged.
func TestTournamentRefereeErrors(t *testing.T) {
	if testing.Short() {
		t.Skip("plays real games")
	}
	g := brokenGame(t)
	random := strings.Join(judgetest.Bot(t, "examples/gomoku/random.c"), " ")
	o := options(t, filepath.Join(tempDir(t), "t"), "", []string{random, random + " "})
	o.Match.Game, o.Match.Name, o.Match.Params = g, g.Name(), nil
	st, err := Run(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	if st.Matches != 0 || len(st.RefereeErrors) != 4 || !strings.Contains(st.RefereeErrors[0].Reason, "its stderr ends: gone") {
		t.Errorf("%d matches counted, referee errors %+v; want 0, and 4 that say why", st.Matches, st.RefereeErrors)
	}
	for _, row := range st.Standings {
		if row.Played != 0 || row.Failures.Total != 0 {
			t.Errorf("%s: %+v", row.Name, row)
		}
	}
}

// brokenGame is a plugin game whose referee, in Python, starts a game
// and exits at its first request.
func brokenGame(t *testing.T) *plugin.Game {
	t.Helper()
	judgetest.NeedTools(t, "python3")
	dir := t.TempDir()
	// The referee starts a game, then exits at its first request.
	referee := `import json, sys
seed = 0
for line in sys.stdin:
    r = json.loads(line)
    if r["op"] == "hello":
        print(json.dumps({"protocol": 1}), flush=True)
    elif r["op"] == "new":
        seed = r["seed"]
        print(json.dumps({"seats": 2, "status": {"turn": 1, "movers": [0], "over": False, "winner": -1}}), flush=True)
    else:
        print("gone", file=sys.stderr)
        sys.exit(3)
`
	spec := "protocol = 1\nname = \"broken\"\ndescription = \"a referee that exits in every match\"\nseats = [2, 2]\n" +
		"[referee]\ncommand = [\"python3\", \"referee.py\"]\n[[commands]]\nname = \"Go\"\n"
	for name, text := range map[string]string{"game.toml": spec, "referee.py": referee} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	g, err := plugin.Load(dir, plugin.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return g
}
