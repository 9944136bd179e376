package main

import (
	"context"
	"fmt"
	"go/format"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"judge/judge/refereetest"
)

// TestNewGame writes the game in both languages, builds the Go referee
// (natively, and for WebAssembly as new-game says), and plays random
// legal games with the two referees over the referee protocol: every game
// ends, and the two give the same transcript for every seed and setting.
// judge game check then passes the WebAssembly referee.
func TestNewGame(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("no python3")
	}
	root := t.TempDir()
	dirs := map[string]string{}
	for _, lang := range []string{"python", "go"} {
		dir := filepath.Join(root, "take-away "+lang)
		code, out, errs := run(t, "new-game", "--lang", lang, dir)
		if code != 0 {
			t.Fatalf("new-game --lang %s: exit %d: %s", lang, code, errs)
		}
		for _, want := range []string{"judge game check " + dir, "judge play --game " + dir} {
			if !strings.Contains(out, want) {
				t.Errorf("new-game --lang %s does not say %q:\n%s", lang, want, out)
			}
		}
		toml, err := os.ReadFile(filepath.Join(dir, "game.toml"))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(toml), `name = "take-away-`+lang+`"`) {
			t.Errorf("game.toml names another game:\n%s", toml)
		}
		if !strings.Contains(string(toml), `description = "a pile of stones; each turn a player takes from 1 up to take stones`) {
			t.Errorf("game.toml does not describe its game in words:\n%s", toml)
		}
		// Writing again over it is refused.
		if code, _, errs := run(t, "new-game", "--lang", lang, dir); code != 1 || !strings.Contains(errs, "already exists") {
			t.Errorf("new-game over an existing game: exit %d, %s", code, errs)
		}
		dirs[lang] = dir
	}
	// The Go referee is written as gofmt writes it.
	src, err := os.ReadFile(filepath.Join(dirs["go"], "main.go"))
	if err != nil {
		t.Fatal(err)
	}
	if formatted, err := format.Source(src); err != nil || string(formatted) != string(src) {
		t.Errorf("main.go is not gofmt's: %v", err)
	}
	ctx := context.Background()
	for _, env := range [][]string{nil, {"GOOS=wasip1", "GOARCH=wasm"}} {
		args := []string{"build", "-o", "referee", "."}
		if env != nil {
			// As new-game says to build it.
			args = []string{"build", "-buildmode=c-shared", "-o", "referee.wasm", "."}
			if want := "GOOS=wasip1 GOARCH=wasm go " + strings.Join(args, " "); !strings.Contains(fmt.Sprintf(gameLangs["go"].build, dirs["go"]), want) {
				t.Fatalf("new-game builds the referee otherwise than %q", want)
			}
		}
		cmd := exec.CommandContext(ctx, "go", args...)
		cmd.Dir, cmd.Env = dirs["go"], append(os.Environ(), env...)
		if b, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("go build %v: %v\n%s", env, err, b)
		}
	}
	if code, out, errs := run(t, "game", "check", "--seeds", "20", dirs["go"]); code != 0 || !strings.HasSuffix(out, "20 ended: no problem found\n") {
		t.Errorf("judge game check of the WebAssembly referee: exit %d, stdout %q, stderr %q", code, out, errs)
	}
	py, err := refereetest.Start(ctx, dirs["python"], "python3", "referee.py")
	if err != nil {
		t.Fatal(err)
	}
	defer py.Close()
	native, err := refereetest.Start(ctx, dirs["go"], "./referee")
	if err != nil {
		t.Fatal(err)
	}
	defer native.Close()
	queries := []string{"Stones", "MaxTake", "CurrentTurn", "Pile"}
	settings := []map[string]int{{"stones": 21, "take": 3}, {"stones": 100, "take": 10}, {"stones": 2, "take": 1}}
	for seed := uint64(1); seed <= 60; seed++ {
		g := refereetest.Game{Params: settings[seed%3], Seed: seed, Queries: queries,
			Probes: []string{"Take 0", "Take 4", "Take x", "Take", "Take 1 2", "Take 9999999999", "Take -1", "Take 1"}}
		a, errA := refereetest.Play(py, g)
		b, errB := refereetest.Play(native, g)
		if errA != nil || errB != nil {
			t.Fatalf("seed %d: python: %v; go: %v", seed, errA, errB)
		}
		if d := refereetest.Diff(a, b); d != "" {
			t.Fatalf("seed %d: python (a) and go (b) differ: %s", seed, d)
		}
		if last := a[len(a)-1]; !strings.Contains(last, `"over":true`) {
			t.Fatalf("seed %d: not over: %s", seed, last)
		}
	}
	// Parameters that do not fit together are refused, the same way.
	for _, r := range []*refereetest.Referee{py, native} {
		got, err := r.Call(`{"op":"new","params":{"stones":5,"take":5},"seed":1}`)
		if want := `{"refused":"take = 5 must be less than stones = 5: the first player would win at once"}`; err != nil || got != want {
			t.Errorf("got %s, %v; want %s", got, err, want)
		}
	}
}

func TestNewGameUsage(t *testing.T) {
	for _, args := range [][]string{
		{"new-game", "--lang", "cobol", "x"},
		{"new-game", "--lang", "go"},
		{"new-game", "x"},
	} {
		if code, _, errs := run(t, args...); code != 2 {
			t.Errorf("%q: exit %d, %s", args, code, errs)
		}
	}
	for dir, want := range map[string]string{"Take Away!": "take-away", "/tmp/x/Nim/": "nim", "***": "mygame"} {
		if got := gameName(dir); got != want {
			t.Errorf("gameName(%q) = %q, want %q", dir, got, want)
		}
	}
}

// TestGameCheck: judge game check loads the folder's game as judge
// match --game DIR does and prints what gamecheck finds: the game
// new-game writes passes; a folder without a game, or a parameter it does
// not have, is an error.
func TestGameCheck(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("no python3")
	}
	code, _, errs := run(t, "game", "check", "some/dir")
	if code != 1 || !strings.Contains(errs, "some/dir is not a game's folder: it has no game.toml") {
		t.Errorf("no game there: exit %d, %s", code, errs)
	}
	dir := filepath.Join(t.TempDir(), "checked")
	if code, _, errs := run(t, "new-game", "--lang", "python", dir); code != 0 {
		t.Fatal(errs)
	}
	code, out, errs := run(t, "game", "check", "--seeds", "20", "--param", "stones=30", dir)
	if code != 0 || !strings.HasPrefix(out, "checked: 20 games, ") || !strings.HasSuffix(out, "20 ended: no problem found\n") {
		t.Errorf("a sound game: exit %d, stdout %q, stderr %q", code, out, errs)
	}
	if code, _, errs := run(t, "game", "check", "--param", "nosuch=1", dir); code != 1 || !strings.Contains(errs, "unknown parameter") {
		t.Errorf("an unknown parameter: exit %d, %s", code, errs)
	}
}

// TestGameCheckReferees: judge game check on real referee programs, the
// game new-game writes in Python, broken in each way the check must find:
// randomness of its own, a game that never ends, a crash at turn 5, an
// answer that changes within a turn, a status that answers a query ahead
// other than the query does. The untouched game passes.
func TestGameCheckReferees(t *testing.T) {
	if testing.Short() {
		t.Skip("plays 50 games with referee programs")
	}
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("no python3")
	}
	root := t.TempDir()
	for _, tc := range []struct {
		name     string
		old, new string // a change to the written referee.py
		want     string // in the output
		exitCode int
	}{
		{name: "sound", want: "5 ended: no problem found"},
		{name: "own-randomness", old: `self.stones = params["stones"]`,
			new:  `import random; self.stones = params["stones"] + random.randrange(5)`,
			want: "non-determinism in ", exitCode: 1},
		{name: "never-ends", old: `self.finish(seat, "seat %d took the last stone" % seat)`,
			new: `self.stones = self.start`,
			want: "never-ends in 5 games; first: seed 1, turn 201: not over after 200 turns\n" +
				"  never-ends: seed 1, turn 201: not over after 200 turns\n", exitCode: 1},
		{name: "crash-at-5", old: `        seat = self.to_move
        if seat not in moves:`,
			new: `        seat = self.to_move
        if self.turn == 5:
            raise IndexError("list index out of range")
        if seat not in moves:`,
			want: "referee-error in 5 games; first: seed 1, turn 5: Apply: the referee failed at apply: ", exitCode: 1},
		{name: "drifting-answer", old: `            return str(self.stones)`,
			new: `            self.asked = getattr(self, "asked", 0) + 1
            return "%d %d" % (self.stones, self.asked)`,
			want: `unstable-answer in 5 games; first: seed 1, turn 1: seat 0: Stones answered "21 2" within the turn, after the turn's commands, and "21 1" before`, exitCode: 1},
		{name: "answer-ahead-astray", old: `              "scores": [], "reason": "", "notes": []}`,
			new:  `              "scores": [], "reason": "", "notes": [], "answers": {"Stones": str(int(g.query(0, ["Stones"])) + 1)}}`,
			want: `referee-error in 5 games; first: seed 1, turn 1: seat 0: Query Stones: the referee failed at query: "Stones": its status answered "22" ahead, the query answers "21"`, exitCode: 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := filepath.Join(root, tc.name)
			if code, _, errs := run(t, "new-game", "--lang", "python", dir); code != 0 {
				t.Fatal(errs)
			}
			path := filepath.Join(dir, "referee.py")
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if tc.old != "" {
				if !strings.Contains(string(src), tc.old) {
					t.Fatalf("referee.py has no %q", tc.old)
				}
				src = []byte(strings.Replace(string(src), tc.old, tc.new, 1))
				if strings.Contains(tc.new, `"answers"`) {
					src = []byte(strings.Replace(string(src), `"reuse"]`, `"reuse", "answers"]`, 1))
				}
				if err := os.WriteFile(path, src, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			code, out, errs := run(t, "game", "check", "--seeds", "5", "--max-turns", "200", "--all", dir)
			if code != tc.exitCode || !strings.Contains(out, tc.want) {
				t.Errorf("exit %d, want %d; stdout:\n%s\nstderr: %s\nwant %q", code, tc.exitCode, out, errs, tc.want)
			}
		})
	}
}

// TestGameCheckReuse: judge game check plays its games one after another
// on a WebAssembly referee that takes new again (FeatureReuse), as
// matches do, so it finds one that keeps something of a game in the next:
// here the Go referee new-game writes, its randomness drawn once for all
// games instead of from each game's seed.
func TestGameCheckReuse(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a referee for WebAssembly")
	}
	dir := filepath.Join(t.TempDir(), "kept")
	if code, _, errs := run(t, "new-game", "--lang", "go", dir); code != 0 {
		t.Fatal(errs)
	}
	path := filepath.Join(dir, "main.go")
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	const old = `	return &game{stones: params["stones"], start: params["stones"],`
	if !strings.Contains(string(src), old) {
		t.Fatalf("main.go has no %q", old)
	}
	src = []byte(strings.Replace(string(src), old, `	n := params["stones"] + kept.IntN(3)
	return &game{stones: n, start: n,`, 1) + "\nvar kept = rand.New(rand.NewPCG(1, 2))\n")
	src = []byte(strings.Replace(string(src), "import (\n", "import (\n\t\"math/rand/v2\"\n", 1))
	if err := os.WriteFile(path, src, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("go", "build", "-buildmode=c-shared", "-o", "referee.wasm", ".")
	cmd.Dir, cmd.Env = dir, append(os.Environ(), "GOOS=wasip1", "GOARCH=wasm")
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, b)
	}
	code, out, errs := run(t, "game", "check", "--seeds", "5", dir)
	if want := "non-determinism in "; code != 1 || !strings.Contains(out, want) {
		t.Errorf("exit %d, want 1; stdout:\n%s\nstderr: %s\nwant %q", code, out, errs, want)
	}
}
