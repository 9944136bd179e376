package main

import (
	"context"
	"go/format"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"judge/games"
	"judge/games/catalog"
	"judge/judge"
	"judge/judge/bots"
	"judge/judge/judgetest"
	"judge/judge/procbot"
)

// openTempDir is a temporary directory that sandboxed bots, which run as
// nobody when the tests run as root, can enter.
// TestNewBot writes every starter bot, builds it as its header says, and
// plays it against itself: every seat must end ok. The directory must also
// be a submission `judge tournament` can build.
func TestNewBot(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and plays 24 bots")
	}
	root := judgetest.Root(t)
	langs, err := bots.LoadLanguages(filepath.Join(root, "configs/languages.toml"))
	if err != nil {
		t.Fatal(err)
	}
	langs.Host = judgetest.Host()
	for _, lang := range starterLangNames() {
		t.Run(lang, func(t *testing.T) {
			judgetest.NeedTools(t, starterTools[lang]...)
			for _, variant := range []string{"tictactoe", "connect4", "battleship", "splix-small"} {
				dir := filepath.Join(openTempDir(t), variant)
				code, out, errs := run(t, "new-bot", "--game", variant, "--lang", lang, dir)
				if code != 0 {
					t.Fatalf("%s: exit %d: %s", variant, code, errs)
				}
				l := starterLangs[lang]
				if !strings.Contains(out, dir) {
					t.Errorf("%s: output does not name %s:\n%s", variant, dir, out)
				}
				if _, err := langs.Detect(dir); err != nil {
					t.Errorf("%s: not a submission: %v", variant, err)
				}
				if lang == "go" {
					src, err := os.ReadFile(filepath.Join(dir, l.file))
					if err != nil {
						t.Fatal(err)
					}
					if f, err := format.Source(src); err != nil || string(f) != string(src) {
						t.Errorf("%s: the Go starter is not gofmt-formatted (%v)", variant, err)
					}
				}
				bot := buildStarter(t, root, dir, lang)
				v, err := catalog.Lookup(variant)
				if err != nil {
					t.Fatal(err)
				}
				params, err := v.Resolve(nil)
				if err != nil {
					t.Fatal(err)
				}
				// A bare pipe, nothing added to make its runtime flush: the
				// starter flushes every line itself, as its comment says.
				e := procbot.Bot{Spec: bot, Options: procbot.Options{Host: judgetest.Host(), IO: procbot.Pipe}}
				m := judge.Match{Game: v.Game, Name: v.Name, Params: params, Seed: 5, Limits: judge.DefaultTurnLimits, Entrants: []judge.Entrant{e, e}}
				m.Limits.FirstTurn = 20 * time.Second // a JVM on a busy machine
				ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
				res, err := judge.Run(ctx, m)
				cancel()
				if err != nil {
					t.Fatalf("%s: %v", variant, err)
				}
				for i, p := range res.Players {
					if p.Status != judge.OK {
						t.Errorf("%s: seat %d: %s: %s", variant, i, p.Status, p.Reason)
					}
				}
				if res.Turns < 2 {
					t.Errorf("%s: %d turns", variant, res.Turns)
				}
			}
		})
	}
}

func TestNewBotErrors(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"new-bot", "--game", "tictactoe"}, 2, "give --game and --lang"},
		{[]string{"new-bot", "--game", "chess", "--lang", "c", dir + "/a"}, 1, "chess"},
		{[]string{"new-bot", "--game", "tictactoe", "--lang", "cobol", dir + "/b"}, 2, "want one of c, cpp, go, java, python, rust"},
		{[]string{"new-bot", "--game", "tictactoe", "--lang", "py", dir + "/c"}, 0, ""},
		{[]string{"new-bot", "--game", "tictactoe", "--lang", "python", dir + "/c"}, 1, "already exists"},
	} {
		code, _, errs := run(t, c.args...)
		if code != c.code || !strings.Contains(errs, c.want) {
			t.Errorf("%q: exit %d, %q; want %d and %q", c.args, code, errs, c.code, c.want)
		}
	}
}

// TestMatchBuildsSources: `judge match` takes a starter folder and a
// source file as a tournament does, building them with the languages
// file, and plays them.
func TestMatchBuildsSources(t *testing.T) {
	judgetest.NeedTools(t, "gcc")
	dir := filepath.Join(openTempDir(t), "starter")
	if code, _, errs := run(t, "new-bot", "--game", "tictactoe", "--lang", "c", dir); code != 0 {
		t.Fatalf("new-bot: exit %d: %s", code, errs)
	}
	src := filepath.Join(openTempDir(t), "other.c")
	if err := os.WriteFile(src, []byte(readStarter(t, dir)), 0o644); err != nil {
		t.Fatal(err)
	}
	replay := filepath.Join(openTempDir(t), "replay.json")
	code, out, errs := run(t, "match", "--game", "tictactoe", "--seed", "3", "--replay", replay, dir, src)
	if code != 0 {
		t.Fatalf("match: exit %d\n%s\n%s", code, out, errs)
	}
	f, err := os.Open(replay)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r, err := judge.ReadReplay(f)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Bots) != 2 || r.Bots[0].Name != "starter" || r.Bots[1].Name != "other" {
		t.Fatalf("bots %+v, want starter and other", r.Bots)
	}
	if r.Bots[0].SHA256 == r.Bots[1].SHA256 {
		t.Errorf("two builds of other sources known by one hash %s", r.Bots[0].SHA256)
	}
	for i, p := range r.Outcome.Players {
		if p.Status != judge.OK {
			t.Errorf("seat %d: %s: %s", i, p.Status, p.Reason)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "bot")); err == nil {
		t.Error("the starter folder holds a program: the build wrote into the sources")
	}

	// A source that does not compile is an error naming it.
	broken := filepath.Join(openTempDir(t), "broken.c")
	if err := os.WriteFile(broken, []byte("int main(void) { return undefined_thing; }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errs = run(t, "match", "--game", "tictactoe", broken, src)
	if code != 1 || !strings.Contains(errs, broken+" cannot play") || !strings.Contains(errs, "undefined_thing") {
		t.Errorf("a match with a source that does not compile: exit %d, %s", code, errs)
	}
}

// starterTools are the programs that build and run each language's
// starter bot.
var starterTools = map[string][]string{"c": {"gcc"}, "cpp": {"g++"}, "go": {"go"}, "rust": {"rustc"}, "java": {"javac", "java"}, "python": {"python3"}}

// buildStarter builds the starter bot new-bot wrote in dir as new-bot
// tells (a compiler that warns is an error) and returns how to run it.
func buildStarter(t *testing.T, root, dir, lang string) procbot.Spec {
	t.Helper()
	l := starterLangs[lang]
	if l.build != "" {
		argv := strings.Fields(strings.ReplaceAll(l.build, "%[1]s", dir))
		cmd := exec.Command(argv[0], argv[1:]...)
		cmd.Dir = root
		if b, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%s: %v\n%s", strings.Join(argv, " "), err, b)
		} else if len(b) > 0 && lang != "go" {
			t.Errorf("%s: the compiler warns:\n%s", strings.Join(argv, " "), b)
		}
	}
	bot, err := procbot.ParseBot(strings.Trim(strings.ReplaceAll(l.run, "%s", dir), `"`))
	if err != nil {
		t.Fatal(err)
	}
	return bot
}

// readStarter is the source of the C starter bot in dir.
func readStarter(t *testing.T, dir string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "bot.c"))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestNewBotPlayLine: the match new-bot prints plays two starters, named
// after their directories whether given as the directory or as its source.
func TestNewBotPlayLine(t *testing.T) {
	judgetest.NeedTools(t, "gcc")
	alice, bob := filepath.Join(openTempDir(t), "alice"), filepath.Join(openTempDir(t), "bob")
	code, out, errs := run(t, "new-bot", "--game", "connect4", "--lang", "c", alice)
	if code != 0 {
		t.Fatalf("new-bot: exit %d: %s", code, errs)
	}
	if code, _, errs := run(t, "new-bot", "--game", "connect4", "--lang", "c", bob); code != 0 {
		t.Fatalf("new-bot: exit %d: %s", code, errs)
	}
	want := "Play it:    judge match --game connect4 --replay r.json --trace " + alice + " " + alice + " "
	if !strings.Contains(out, want) {
		t.Fatalf("new-bot does not print %q:\n%s", want, out)
	}
	replay := filepath.Join(openTempDir(t), "replay.json")
	code, out, errs = run(t, "match", "--game", "connect4", "--seed", "2", "--replay", replay, alice, filepath.Join(bob, "bot.c"))
	if code != 0 {
		t.Fatalf("match: exit %d\n%s\n%s", code, out, errs)
	}
	f, err := os.Open(replay)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r, err := judge.ReadReplay(f)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, b := range r.Bots {
		names = append(names, b.Name)
	}
	if strings.Join(names, " ") != "alice bob" {
		t.Errorf("the bots are named %q, want alice and bob", names)
	}
	for i, p := range r.Outcome.Players {
		if p.Status != judge.OK {
			t.Errorf("seat %d: %s: %s", i, p.Status, p.Reason)
		}
	}
}

// TestNewBotSaysWhenJudgeIsNotOnPath: the commands new-bot prints are
// "judge …"; where no judge is on PATH it says how to put it there.
func TestNewBotSaysWhenJudgeIsNotOnPath(t *testing.T) {
	bin := t.TempDir()
	t.Setenv("PATH", bin)
	_, out, _ := run(t, "new-bot", "--game", "tictactoe", "--lang", "python", filepath.Join(t.TempDir(), "a"))
	if !strings.Contains(out, "Play it:    judge match") || !strings.Contains(out, "judge is not on your PATH: 'make install'") {
		t.Errorf("no judge on PATH:\n%s", out)
	}
	if err := os.WriteFile(filepath.Join(bin, "judge"), []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	_, out, _ = run(t, "new-bot", "--game", "tictactoe", "--lang", "python", filepath.Join(t.TempDir(), "b"))
	if strings.Contains(out, "not on your PATH") {
		t.Errorf("a judge on PATH, and still:\n%s", out)
	}
}

// TestNewBotNextSteps: new-bot says how to read the rules without the
// judge's repository, and what to run next: play, a match with a replay
// and a trace, the viewer, explain and debug.
func TestNewBotNextSteps(t *testing.T) {
	for _, variant := range []string{"tictactoe", "connect4", "battleship", "splix-small"} {
		dir := filepath.Join(t.TempDir(), "mine")
		code, out, errs := run(t, "new-bot", "--game", variant, "--lang", "python", dir)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", variant, code, errs)
		}
		for _, want := range []string{
			"judge help protocol " + variant,
			"judge play --game " + variant + " " + dir,
			"judge match --game " + variant + " --replay r.json --trace " + dir + " " + dir,
			"judge view r.json",
			"judge explain r.json",
			"judge debug r.json --seat S --turn N -- python3 " + dir + "/bot.py",
		} {
			if !strings.Contains(out, want) {
				t.Errorf("%s: new-bot does not print %q:\n%s", variant, want, out)
			}
		}
		if strings.Contains(out, "docs/") {
			t.Errorf("%s: new-bot names a file of the judge's repository:\n%s", variant, out)
		}
		src, err := os.ReadFile(filepath.Join(dir, "bot.py"))
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(src), "docs/") || !strings.Contains(string(src), "judge help protocol "+variant) {
			t.Errorf("%s: the starter does not say where the rules are as new-bot does:\n%.600s", variant, src)
		}
	}
}

// starterSpecs are the starters of the catalog's games, by the game's
// name.
func starterSpecs() map[string]games.StarterSpec {
	out := map[string]games.StarterSpec{}
	for _, v := range catalog.All() {
		if st, ok := v.Game.(games.Starter); ok {
			out[v.Game.Name()] = st.Starter()
		}
	}
	return out
}

// TestStarterCommentsNameTheCode: every name of a function or variable a
// starter's comments give (choose_shot, chooseMove, setvbuf…) is one its
// code uses, in every language and game; and none says the bot's output
// is a terminal: it is a pipe (TestNewBot plays them on a bare one).
func TestStarterCommentsNameTheCode(t *testing.T) {
	ident := regexp.MustCompile(`\b[a-z][a-z0-9]*(?:_[a-z0-9]+|[A-Z][a-z0-9]*)+\b`)
	comment := map[bool]*regexp.Regexp{
		false: regexp.MustCompile(`(?s)//[^\n]*|/\*.*?\*/`),
		true:  regexp.MustCompile(`(?s)#[^\n]*|""".*?"""`),
	}
	for _, lang := range starterLangNames() {
		for game, spec := range starterSpecs() {
			files, err := renderStarter(game, game, spec, lang, "DIR")
			if err != nil {
				t.Fatal(err)
			}
			src := string(files[starterLangs[lang].file])
			re := comment[lang == "python"]
			code := re.ReplaceAllString(src, "")
			for _, c := range re.FindAllString(src, -1) {
				if i := strings.Index(strings.ToLower(c), "terminal"); i >= 0 {
					t.Errorf("%s %s: a comment speaks of a terminal: %q", lang, game, c[max(i-40, 0):min(i+40, len(c))])
				}
				for _, name := range ident.FindAllString(c, -1) {
					if !regexp.MustCompile(`\b` + name + `\b`).MatchString(code) {
						t.Errorf("%s %s: the comments name %s, which the code does not have", lang, game, name)
					}
				}
			}
		}
	}
}
