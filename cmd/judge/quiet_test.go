package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"judge/judge/judgetest"
)

// TestQuietSaysWhoIsLeftOut: judge tournament --quiet prints no table,
// but names a bot that does not build, and why, whether the tournament
// then plays without it or cannot play at all.
func TestQuietSaysWhoIsLeftOut(t *testing.T) {
	if testing.Short() {
		t.Skip("builds bots")
	}
	if _, err := exec.LookPath("gcc"); err != nil {
		t.Skip("no gcc for the C bots")
	}
	root := judgetest.Root(t)
	good, err := os.ReadFile(filepath.Join(root, "examples/gomoku/random.c"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		good int
		code int
	}{
		{"plays without it", 2, 0},
		{"cannot play", 1, 1},
	} {
		dir := t.TempDir()
		bots := filepath.Join(dir, "bots")
		if err := os.Mkdir(bots, 0o755); err != nil {
			t.Fatal(err)
		}
		for i := range tc.good {
			if err := os.WriteFile(filepath.Join(bots, "good"+string(rune('a'+i))+".c"), good, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		if err := os.WriteFile(filepath.Join(bots, "broken.c"), []byte("int main( { broken\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		code, out, errs := run(t, "tournament", "--game", "tictactoe", "--seed", "1", "--quiet",
			"--bots", bots, "--cache", filepath.Join(dir, "cache"), "--out", filepath.Join(dir, "out"))
		if code != tc.code {
			t.Errorf("%s: exit %d, want %d: %s", tc.name, code, tc.code, errs)
		}
		if out != "" {
			t.Errorf("%s: --quiet printed %q", tc.name, out)
		}
		if n := strings.Count(errs, "broken is left out: "); n != 1 || !strings.Contains(errs, "compile error") {
			t.Errorf("%s: the left-out bot and why, %d times in:\n%s", tc.name, n, errs)
		}
	}
}
