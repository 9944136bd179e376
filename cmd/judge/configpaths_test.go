package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"judge/judge/judgetest"
)

// TestConfigPathsFromItsFolder: a tournament file's bots, bots_dir and
// out are found from the file's folder, whatever the working directory
// (the tests run in cmd/judge).
func TestConfigPathsFromItsFolder(t *testing.T) {
	if testing.Short() {
		t.Skip("plays real matches")
	}
	dir := openTempDir(t)
	src, err := os.ReadFile(filepath.Join(judgetest.Root(t), "examples/gomoku/random_bot.py"))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"bots/a.py", "more/b.py", "conf/c.py"} {
		if err := os.MkdirAll(filepath.Join(dir, filepath.Dir(p)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, p), src, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	conf := filepath.Join(dir, "conf", "t.toml")
	if err := os.WriteFile(conf, []byte(`game = "tictactoe"
[tournament]
seed = 1
out = "../results"
bots = ["python3 ../bots/a.py", "c.py"]
bots_dir = "../more"
`), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat("conf"); err == nil {
		t.Fatal("the working directory has a conf/: the test would not tell")
	}
	code, out, errs := run(t, "tournament", "--config", conf, "--jobs", "2")
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, out, errs)
	}
	if _, err := os.Stat(filepath.Join(dir, "results", "standings.json")); err != nil {
		t.Errorf("no standings in the file's out, ../results from conf/: %v\n%s", err, errs)
	}
	for _, b := range []string{"a", "b", "c"} {
		if !strings.Contains(out, b) {
			t.Errorf("bot %s did not play:\n%s", b, out)
		}
	}
	if strings.Contains(out+errs, "left out") {
		t.Errorf("a bot was left out:\n%s\n%s", out, errs)
	}
}
