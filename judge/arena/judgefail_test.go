//go:build unix

package arena_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"judge/judge/arena"
	"judge/judge/bots"
	"judge/judge/judgetest"
)

// A build the judge fails (its build cache cannot be written) is not the
// submission's compile error: the arena tries again, then benches it
// saying the judge could not build it.
func TestJudgeFailureIsNoCompileError(t *testing.T) {
	langs := filepath.Join(judgetest.TempDir(t), "languages.toml")
	text := string(bots.DefaultLanguages) + `
[language.cached]
extensions = ["cached"]
compile = ["sh", "-c", "exit 0"]
env = { TMPDIR = "{cache}/tmp" }
run = ["{exe}"]
`
	if err := os.WriteFile(langs, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	dir, a := newArenaOf(t, arena.Config{TestMatches: 1, Languages: langs})
	// The compiler's share of the build cache is a file: the judge
	// cannot make it.
	if err := os.MkdirAll(filepath.Join(dir, "builds"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "builds", "tmp"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	alice, _ := entrant(t, a, "alice", nil)
	id, err := a.Submit(t.Context(), alice, arena.Upload{FileName: "bot.cached", Data: []byte("x")})
	if err != nil {
		t.Fatal(err)
	}
	run(t, a, 1)
	var s arena.Submission
	waitFor(t, "alice's build", func() bool {
		s = status(t, a, alice, id)
		return s.Status != arena.StatusQueued && s.Status != arena.StatusBuilding
	})
	if s.Status != arena.StatusBenched || !strings.Contains(s.Log, "the judge could not build it") || strings.Contains(s.Log, dir) {
		t.Errorf("status %s, log %q: want benched, the judge's failure, naming no folder of the arena", s.Status, s.Log)
	}
}
