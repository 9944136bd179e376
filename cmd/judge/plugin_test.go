package main

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"judge/games/plugin/plugintest"
	"judge/judge"
	"judge/judge/judgetest"
)

// TestPluginGameCommands: a plugin game's folder given with --game is
// listed by judge games, plays a match, and its replay needs the folder
// again, which judge replay says when it is missing.
func TestPluginGameCommands(t *testing.T) {
	dir := plugintest.Connect4(t, false)
	code, out, errs := run(t, "games", "--game", dir)
	if code != 0 || !strings.Contains(out, "connect4-plugin  (plugin: "+dir+")") || !strings.Contains(out, "tictactoe") {
		t.Fatalf("games --game: exit %d, %s\n%s", code, errs, out)
	}
	code, out, errs = run(t, "help", "protocol", dir)
	if code != 0 || !strings.HasPrefix(out, "# connect4-plugin\n") || !strings.Contains(out, "- `DropDisc col`: drop a disc into column col") {
		t.Errorf("help protocol DIR: exit %d, %s\n%s", code, errs, out)
	}
	c := quote(judgetest.Bot(t, "examples/connect4/random.c"))
	replay := filepath.Join(t.TempDir(), "r.json")
	code, out, errs = run(t, "match", "--game", dir, "--seed", "3", "--replay", replay, c, c)
	if code != 0 || !strings.HasPrefix(out, "connect4-plugin (height=6 k=4 width=7), seed 3: ") {
		t.Fatalf("match: exit %d, %s\n%s", code, errs, out)
	}
	// The catalog of this process knows the folder now; a new judge
	// does not: the replay's game is found by its folder only.
	rp, err := os.ReadFile(replay)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(rp), `"game_hash": "`) {
		t.Errorf("the replay has no game_hash")
	}
	code, out, errs = run(t, "replay", "--game", dir, replay)
	if code != 0 || !strings.Contains(out, "wins") && !strings.Contains(out, "draw") {
		t.Errorf("replay --game: exit %d, %s\n%s", code, errs, out)
	}
}

// TestPluginGameFolders: plugin games are found in a games/ folder beside
// the configuration file and in its games_path; a plugin game with a
// built-in game's name is refused, saying so.
func TestPluginGameFolders(t *testing.T) {
	src := plugintest.Connect4(t, false)
	root := t.TempDir()
	copyGame := func(to, name string) {
		t.Helper()
		if err := os.MkdirAll(to, 0o755); err != nil {
			t.Fatal(err)
		}
		for _, f := range []string{"game.toml", "referee.wasm"} {
			data, err := os.ReadFile(filepath.Join(src, f))
			if err != nil {
				t.Fatal(err)
			}
			if f == "game.toml" {
				data = []byte(strings.Replace(string(data), `name = "connect4-plugin"`, `name = "`+name+`"`, 1))
			}
			if err := os.WriteFile(filepath.Join(to, f), data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	copyGame(filepath.Join(root, "games", "four"), "four-beside")
	copyGame(filepath.Join(root, "more", "four"), "four-path")
	cfg := filepath.Join(root, "match.toml")
	if err := os.WriteFile(cfg, []byte("game = \"four-path\"\ngames_path = [\"more\"]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errs := run(t, "games", "--config", cfg)
	if code != 0 || !strings.Contains(out, "four-beside  (plugin: ") || !strings.Contains(out, "four-path  (plugin: ") {
		t.Errorf("games --config: exit %d, %s\n%s", code, errs, out)
	}
	c := quote(judgetest.Bot(t, "examples/connect4/random.c"))
	code, out, errs = run(t, "match", "--config", cfg, "--seed", "1", c, c)
	if code != 0 || !strings.HasPrefix(out, "four-path (") {
		t.Errorf("match --config: exit %d, %s\n%s", code, errs, out)
	}
	clash := filepath.Join(root, "clash")
	copyGame(clash, "connect4")
	code, _, errs = run(t, "games", "--game", clash)
	if code == 0 || !strings.Contains(errs, `named "connect4", the name of a built-in game`) {
		t.Errorf("a plugin named connect4: exit %d, %s", code, errs)
	}
}

// TestReplayNeedsPluginFolder: the replay of a plugin game the judge has
// not found says that its folder is needed, and how to give it.
func TestReplayNeedsPluginFolder(t *testing.T) {
	rp := &judge.Replay{Version: judge.ReplayVersion, Game: "elsewhere", GameHash: "5d24"}
	_, err := replayGame(io.Discard, rp, "")
	if err == nil || !strings.Contains(err.Error(), `the replay is of the plugin game "elsewhere", whose folder is needed: give it with --game DIR`) {
		t.Errorf("got %v", err)
	}
}

// TestPluginGameByConfig: the commands that take a game by name find a
// plugin game through --config FILE as match does: in a games/ folder
// beside FILE, or in its games_path, which may name the game's own
// folder; those that read a replay take --config too.
func TestPluginGameByConfig(t *testing.T) {
	src := plugintest.Connect4(t, false)
	root := t.TempDir()
	copyPluginGame(t, src, filepath.Join(root, "games", "c4"), "four-help")
	copyPluginGame(t, src, filepath.Join(root, "own", "c4"), "four-own")
	cfg := filepath.Join(root, "match.toml")
	if err := os.WriteFile(cfg, []byte("game = \"four-own\"\ngames_path = [\"own/c4\"]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"four-help", "four-own"} {
		code, out, errs := run(t, "help", "protocol", "--config", cfg, name)
		if code != 0 || !strings.HasPrefix(out, "# "+name+"\n") {
			t.Errorf("help protocol --config FILE %s: exit %d, %s\n%.100s", name, code, errs, out)
		}
	}
	// (Named apart from the other tests' games: the catalog is the
	// process's.)
	copyPluginGame(t, src, filepath.Join(root, "dir"), "four-dir")
	code, out, errs := run(t, "help", "protocol", "--game", filepath.Join(root, "dir"))
	if code != 0 || !strings.HasPrefix(out, "# four-dir\n") {
		t.Errorf("help protocol --game DIR: exit %d, %s\n%.100s", code, errs, out)
	}
	c := quote(judgetest.Bot(t, "examples/connect4/random.c"))
	replay := filepath.Join(root, "r.json")
	if code, out, errs := run(t, "match", "--config", cfg, "--seed", "2", "--replay", replay, c, c); code != 0 || !strings.HasPrefix(out, "four-own (") {
		t.Fatalf("match --config: exit %d, %s\n%s", code, errs, out)
	}
	for _, args := range [][]string{
		{"replay", "--config", cfg, replay},
		{"view", "--config", cfg, "-o", filepath.Join(root, "r.html"), replay},
		{"explain", "--config", cfg, replay},
	} {
		if code, _, errs := run(t, args...); code != 0 {
			t.Errorf("%q: exit %d, %s", args, code, errs)
		}
	}
}

// copyPluginGame copies the built plugin game in src to dir, named name.
func copyPluginGame(t *testing.T, src, dir, name string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"game.toml", "referee.wasm"} {
		data, err := os.ReadFile(filepath.Join(src, f))
		if err != nil {
			t.Fatal(err)
		}
		if f == "game.toml" {
			data = []byte(strings.Replace(string(data), `name = "connect4-plugin"`, `name = "`+name+`"`, 1))
		}
		if err := os.WriteFile(filepath.Join(dir, f), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestArenaInitPluginByConfig: arena init finds a plugin game by its name
// through --config, and keeps its folder, absolute, with its hash.
func TestArenaInitPluginByConfig(t *testing.T) {
	src := plugintest.Connect4(t, false)
	root := judgetest.TempDir(t)
	game := filepath.Join(root, "games", "c4")
	copyPluginGame(t, src, game, "four-arena")
	cfg := filepath.Join(root, "match.toml")
	if err := os.WriteFile(cfg, []byte("game = \"four-arena\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(root, "arena")
	if code, _, errs := run(t, "arena", "init", "--game", "four-arena", "--config", cfg, dir); code != 0 {
		t.Fatalf("arena init: exit %d, %s", code, errs)
	}
	conf, err := os.ReadFile(filepath.Join(dir, "arena.toml"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(conf), "game = \""+game+"\"") || !strings.Contains(string(conf), "game_hash = \"") {
		t.Errorf("arena.toml:\n%s", conf)
	}
}

// TestTournamentRefusedParams: a tournament of a plugin game whose
// referee refuses the parameters (checked while the bots are prepared)
// stops with the referee's reason, exit status 1, and records nothing;
// the same folder then plays the tournament with parameters it takes.
func TestTournamentRefusedParams(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "c4")
	// (Named apart from the other tests' games: the catalog is the
	// process's.)
	copyPluginGame(t, plugintest.Connect4(t, false), dir, "four-refusing")
	c := quote(judgetest.Bot(t, "examples/connect4/random.c"))
	out := filepath.Join(t.TempDir(), "out")
	code, _, errs := run(t, "tournament", "--quiet", "--game", dir, "--param", "k=9", "--param", "width=3", "--param", "height=3",
		"--out", out, c, c)
	if want := "four-refusing: parameter k = 9 is larger than both width = 3 and height = 3: nobody could win\n"; code != 1 || !strings.HasSuffix(errs, want) {
		t.Fatalf("exit %d, stderr %q; want 1 and %q", code, errs, want)
	}
	if b, err := os.ReadFile(filepath.Join(out, "results.log")); err == nil && len(b) > 0 {
		t.Errorf("results.log holds %q", b)
	}
	if code, _, errs := run(t, "tournament", "--quiet", "--game", dir, "--param", "k=3", "--out", out, c, c); code != 0 {
		t.Errorf("with k=3: exit %d, %s", code, errs)
	}
}
