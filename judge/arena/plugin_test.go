package arena_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"

	"judge/games/plugin/plugintest"
	"judge/judge/arena"
	"judge/judge/judgetest"
)

// An arena of a plugin game, made from the game's folder given as a
// relative path, finds it again from anywhere; a folder gone or a game
// changed is an error that says so.
func TestPluginGameFolder(t *testing.T) {
	game := plugintest.Connect4(t, false)
	t.Chdir(filepath.Dir(game))
	dir := filepath.Join(judgetest.TempDir(t), "arena")
	if err := arena.Init(dir, arena.Config{Game: filepath.Base(game)}); err != nil {
		t.Fatal(err)
	}
	t.Chdir(judgetest.TempDir(t))
	a, err := arena.Open(context.Background(), dir)
	if err != nil {
		t.Fatalf("open from elsewhere: %v", err)
	}
	c := a.Config()
	a.Close()
	if c.Game != game || c.GameHash == "" {
		t.Errorf("kept game %q, hash %q; want %q and its hash", c.Game, c.GameHash, game)
	}

	// A game changed since: its hash in arena.toml is not the game's.
	conf := filepath.Join(dir, "arena.toml")
	changed := c
	changed.GameHash = strings.Repeat("0", len(c.GameHash))
	writeConfig(t, conf, changed)
	if _, err := arena.Open(context.Background(), dir); err == nil || !strings.Contains(err.Error(), "has changed since the arena was made") {
		t.Errorf("open of a changed game: %v", err)
	}

	// A game moved away.
	writeConfig(t, conf, c)
	if err := os.Rename(game, game+".moved"); err != nil {
		t.Fatal(err)
	}
	if _, err := arena.Open(context.Background(), dir); err == nil || !strings.Contains(err.Error(), "is gone") {
		t.Errorf("open of a game moved away: %v", err)
	}
}

func writeConfig(t *testing.T, path string, c arena.Config) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := toml.NewEncoder(f).Encode(c); err != nil {
		t.Fatal(err)
	}
}
