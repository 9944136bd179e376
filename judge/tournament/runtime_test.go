package tournament

import (
	"context"
	"errors"
	"judge/judge/bots"
	"judge/judge/procbot"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"judge/judge/judgetest"
)

// languagesWith writes the shipped languages file with C's version
// command replaced by version (a TOML array), and loads it.
func languagesWith(t *testing.T, version string) *bots.Languages {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(judgetest.Root(t), "configs/languages.toml"))
	if err != nil {
		t.Fatal(err)
	}
	const c = `version = ["gcc", "--version"]`
	if !strings.Contains(string(b), c) {
		t.Fatalf("configs/languages.toml has no %s", c)
	}
	path := filepath.Join(t.TempDir(), "languages.toml")
	if err := os.WriteFile(path, []byte(strings.Replace(string(b), c, "version = "+version, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	l, err := bots.LoadLanguages(path)
	if err != nil {
		t.Fatal(err)
	}
	l.Host = judgetest.Host()
	return l
}

func TestRuntimeIsPartOfTheBot(t *testing.T) {
	_, args := botDir(t)
	args = args[:2] // alpha.c, built; beta, a program
	cache := tempDir(t)

	// What the version command prints (its first line) is recorded with
	// the bots of the language, once per run.
	count := filepath.Join(t.TempDir(), "count")
	out := filepath.Join(tempDir(t), "out")
	o := options(t, out, cache, args)
	use(&o, languagesWith(t, `["sh", "-c", "echo x >> `+count+`; echo 'cc 9.9 (test)'; echo more"]`), procbot.Options{Host: judgetest.Host()})
	if _, err := Run(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	recs, _, err := ReadLog(filepath.Join(out, LogName))
	if err != nil {
		t.Fatal(err)
	}
	var run *RunInfo
	for _, r := range recs {
		if r.Kind == KindRun {
			run = r.Run
		}
	}
	if run == nil || len(run.Entrants) != 2 || run.Entrants[0].Runtime != "cc 9.9 (test)" || run.Entrants[1].Runtime != "" {
		t.Fatalf("run record %+v, want alpha on cc 9.9 (test) and beta on none", run)
	}
	if b, _ := os.ReadFile(count); string(b) != "x\n" {
		t.Errorf("the version command ran %d times, want once", strings.Count(string(b), "x"))
	}
	if run.Settings[SetTurn] != "1s" || run.Settings[SetMemory] != "256MiB" || run.Settings[SetIO] != "auto" || run.Settings[SetJudge] != JudgeVersion() {
		t.Errorf("settings %v", run.Settings)
	}

	// Resumed on another version: refused.
	use(&o, languagesWith(t, `["echo", "cc 10.0"]`), procbot.Options{Host: judgetest.Host()})
	if _, err := Run(context.Background(), o); err == nil || !strings.Contains(err.Error(), "the runtime of bot alpha has changed") ||
		!strings.Contains(err.Error(), "cc 9.9 (test) then, cc 10.0 now") {
		t.Errorf("resumed on another runtime: %v", err)
	}

	// A runtime missing: the bot cannot play. A whole tournament leaves
	// it out; a shard cannot play its part.
	missing := languagesWith(t, `["no-such-compiler-here", "--version"]`)
	ents, err := bots.Prepare(context.Background(), args, missing, cache, 1)
	if err != nil {
		t.Fatal(err)
	}
	var re *bots.RuntimeError
	if !errors.As(ents[0].Err, &re) || re.Lang != "c" || !strings.Contains(re.Error(), "no-such-compiler-here") || ents[1].Err != nil {
		t.Errorf("entrants' errors %v, %v: want alpha's runtime missing", ents[0].Err, ents[1].Err)
	}
	o = options(t, filepath.Join(tempDir(t), "shard"), cache, args)
	use(&o, missing, procbot.Options{Host: judgetest.Host()})
	o.Shard = Shard{Index: 1, Count: 2}
	_, err = Run(context.Background(), o)
	var ue *UnplayableError
	if !errors.As(err, &ue) || len(ue.Bots) != 1 || ue.Bots[0].Name != "alpha" || !strings.Contains(err.Error(), "runtime is missing") {
		t.Errorf("a shard with a runtime missing: %v, want an UnplayableError naming alpha", err)
	}
}

// A build cache the judge cannot write in is the judge's failure: it
// stops the tournament with the reason, and leaves no bot out for it.
func TestBuildCacheFailureStops(t *testing.T) {
	judgetest.NeedTools(t, "gcc")
	_, args := botDir(t)
	cache := tempDir(t)
	// C's compiler shares the cache's tmp/ (as Go shares go-build/),
	// where a file stands: the judge cannot make the directory.
	langs := languagesWith(t, `["gcc", "--version"]`+"\nenv = { TMPDIR = \"{cache}/tmp\" }")
	if err := os.WriteFile(filepath.Join(cache, "tmp"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	o := options(t, filepath.Join(tempDir(t), "out"), cache, args)
	use(&o, langs, procbot.Options{})
	var log strings.Builder
	o.Log = &log
	_, err := Run(context.Background(), o)
	if err == nil || !strings.Contains(err.Error(), "the build cache") || bots.AsFault(err) != nil {
		t.Errorf("Run: %v, want the judge's failure with its build cache", err)
	}
	if strings.Contains(log.String(), "left out") {
		t.Errorf("a bot was left out for the judge's failure:\n%s", log.String())
	}
}
