package tournament

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"judge/judge/bots"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"judge/games/catalog"
	"judge/judge"
	"judge/judge/judgetest"
	"judge/judge/procbot"
)

// tempDir is a temporary directory that a sandboxed program running as
// another user can enter.
func tempDir(t testing.TB) string {
	t.Helper()
	return judgetest.TempDir(t)
}

func TestMain(m *testing.M) { judgetest.Main(m) }

// botDir makes a directory with alpha.c (the random example, built by the
// tournament), beta (the same bot, built beforehand: a plain executable)
// and broken.c (which does not compile).
func botDir(t *testing.T) (dir string, args []string) {
	t.Helper()
	root := judgetest.Root(t)
	dir = tempDir(t)
	src, err := os.ReadFile(filepath.Join(root, "examples/gomoku/random.c"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "alpha.c"), src, 0o644); err != nil {
		t.Fatal(err)
	}
	exe := judgetest.Bot(t, "examples/gomoku/random.c")[0]
	if err := copyFile(exe, filepath.Join(dir, "beta")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "broken.c"), []byte("int main(void) { return undefined_thing; }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir, []string{filepath.Join(dir, "alpha.c"), filepath.Join(dir, "beta"), filepath.Join(dir, "broken.c")}
}

func options(t testing.TB, out, cache string, args []string) Options {
	t.Helper()
	v, err := catalog.Lookup("tictactoe")
	if err != nil {
		t.Fatal(err)
	}
	o := Options{
		Match:  judge.Match{Game: v.Game, Name: v.Name, Params: v.Params, Limits: judge.DefaultTurnLimits},
		Rounds: 2,
		Seed:   7,
		Jobs:   2,
		Out:    out,
		Cache:  cache,
		Bots:   args,
		Log:    io.Discard,
	}
	use(&o, testLanguages(t), procbot.Options{Host: judgetest.Host()})
	return o
}

// testLanguages are the languages of configs/languages.toml.
func testLanguages(t testing.TB) *bots.Languages {
	t.Helper()
	langs, err := bots.LoadLanguages(filepath.Join(judgetest.Root(t), "configs/languages.toml"))
	if err != nil {
		t.Fatal(err)
	}
	langs.Host = judgetest.Host()
	return langs
}

func readFile(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// namedWin is a tic-tac-toe win named: "alpha (X) made 3 in a row".
var namedWin = regexp.MustCompile(`^[a-z]+ \([XO]\) made 3 in a row$`)

func TestTournament(t *testing.T) {
	_, args := botDir(t)
	cache := tempDir(t)
	out := filepath.Join(tempDir(t), "out")
	var log bytes.Buffer
	o := options(t, out, cache, args)
	o.Log = &log
	o.Progress = &Progress{W: &log}
	st, err := Run(context.Background(), o)
	if err != nil {
		t.Fatalf("Run: %v\n%s", err, log.String())
	}

	// The broken bot is reported with the compiler's message and left out.
	if len(st.Excluded) != 1 || st.Excluded[0].Name != "broken" || !strings.Contains(st.Excluded[0].Error, "undefined_thing") {
		t.Errorf("excluded %+v, want broken with the compiler's message", st.Excluded)
	}
	if !strings.Contains(log.String(), "broken is left out") {
		t.Errorf("compile error not reported:\n%s", log.String())
	}
	// Two bots, two rounds, both seat orders: 4 matches.
	if st.Matches != 4 || st.Scheduled != 4 || len(st.Standings) != 2 {
		t.Fatalf("standings %+v", st)
	}
	for _, r := range st.Standings {
		if r.Played != 4 || r.Wins+r.Draws+r.Losses != 4 || r.Failures.Total != 0 {
			t.Errorf("row %+v", r)
		}
		if !(r.RatingLow <= r.Rating && r.Rating <= r.RatingHigh) {
			t.Errorf("rating %v not inside [%v, %v]", r.Rating, r.RatingLow, r.RatingHigh)
		}
	}
	for _, f := range []string{"standings.json", "standings.csv", "standings.md", "replays/r001-alpha-vs-beta.json",
		"replays/r001-beta-vs-alpha.json", "replays/r002-alpha-vs-beta.json", "replays/r002-beta-vs-alpha.json"} {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Error(err)
		}
	}
	// standings.json is a contract: a list of bots with these fields.
	var doc struct {
		Standings []map[string]any `json:"standings"`
	}
	if err := json.Unmarshal(readFile(t, filepath.Join(out, "standings.json")), &doc); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"name", "played", "wins", "draws", "losses", "score", "rating", "rating_low", "rating_high", "failures"} {
		if _, ok := doc.Standings[0][k]; !ok {
			t.Errorf("standings.json: no %q", k)
		}
	}

	// Every match can be played again alone from its recorded seed.
	recs, bad, err := ReadLog(filepath.Join(out, LogName))
	if err != nil || bad != 0 {
		t.Fatalf("log: %v, %d bad", err, bad)
	}
	var rec *MatchRecord
	for _, r := range recs {
		if r.Kind == KindMatch && r.Match.ID == "r002-beta-vs-alpha" {
			rec = r.Match
		}
	}
	if rec == nil {
		t.Fatal("r002-beta-vs-alpha not recorded")
	}
	// The record's reason names the bots as judge match does; the
	// replay keeps the game's words.
	for _, r := range recs {
		if r.Kind == KindMatch && strings.Contains(r.Match.Reason, "in a row") && !namedWin.MatchString(r.Match.Reason) {
			t.Errorf("%s: reason %q does not name its bots", r.Match.ID, r.Match.Reason)
		}
	}
	if want := DeriveSeed(7, rec.ID); rec.Seed != want {
		t.Errorf("seed %d, want %d", rec.Seed, want)
	}
	rp, err := judge.ReadReplay(bytes.NewReader(readFile(t, filepath.Join(out, rec.Replay))))
	if err != nil {
		t.Fatal(err)
	}
	m := o.Match
	m.Seed = rec.Seed
	for _, b := range rp.Bots {
		m.Entrants = append(m.Entrants, procbot.Bot{Spec: procbot.Spec{Name: b.Name, Argv: b.Command}, Options: judgetest.Proc(procbot.Options{})})
	}
	m.Params = rp.Params
	again, err := judge.Run(context.Background(), m)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(moves(again.Replay), moves(rp)) {
		t.Errorf("the match played alone differs:\n%v\n%v", moves(again.Replay), moves(rp))
	}

	// Running again resumes: nothing left to play, same standings.
	before := readFile(t, filepath.Join(out, "standings.json"))
	logBefore := readFile(t, filepath.Join(out, LogName))
	log.Reset()
	if _, err := Run(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(log.String(), "0 matches played") {
		t.Errorf("second run played matches:\n%s", log.String())
	}
	if got := readFile(t, filepath.Join(out, "standings.json")); !bytes.Equal(got, before) {
		t.Errorf("standings changed on resume:\n%s\n%s", before, got)
	}
	if n := strings.Count(string(readFile(t, filepath.Join(out, LogName))), `"kind":"match"`); n != 4 {
		t.Errorf("%d match records after resume, want 4", n)
	}
	_ = logBefore

	// Same seed elsewhere: same standings. Shards merged: same standings.
	single := filepath.Join(tempDir(t), "single")
	o2 := options(t, single, cache, args)
	if _, err := Run(context.Background(), o2); err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, filepath.Join(single, "standings.json")); !bytes.Equal(got, before) {
		t.Errorf("same seed, different standings:\n%s\n%s", before, got)
	}
	// A shard cannot leave the broken bot out: it would play another
	// tournament than the other shards.
	o3 := options(t, filepath.Join(tempDir(t), "shard"), cache, args)
	o3.Shard = Shard{Index: 0, Count: 3}
	_, err = Run(context.Background(), o3)
	var ue *UnplayableError
	if !errors.As(err, &ue) || len(ue.Bots) != 1 || ue.Bots[0].Name != "broken" || !strings.Contains(err.Error(), "undefined_thing") {
		t.Errorf("a shard with a bot that does not build: %v, want an UnplayableError naming broken and why", err)
	}
	playable := args[:2]
	whole := filepath.Join(tempDir(t), "whole")
	if _, err := Run(context.Background(), options(t, whole, cache, playable)); err != nil {
		t.Fatal(err)
	}
	var shards []string
	for i := 0; i < 3; i++ {
		d := filepath.Join(tempDir(t), "shard")
		o3 := options(t, d, cache, playable)
		o3.Shard = Shard{Index: i, Count: 3}
		if _, err := Run(context.Background(), o3); err != nil {
			t.Fatal(err)
		}
		shards = append(shards, d)
	}
	merged := filepath.Join(tempDir(t), "merged")
	if _, err := Merge(context.Background(), MergeOptions{Dirs: shards, Out: merged}); err != nil {
		t.Fatal(err)
	}
	if want, got := readFile(t, filepath.Join(whole, "standings.json")), readFile(t, filepath.Join(merged, "standings.json")); !bytes.Equal(got, want) {
		t.Errorf("merged shards differ from one run:\n%s\n%s", want, got)
	}
	if _, err := os.Stat(filepath.Join(merged, "replays", "r002-beta-vs-alpha.json")); err != nil {
		t.Error(err)
	}

	// Resuming with the bots at another sandbox level is refused.
	if lv := judgetest.Host().RunLevel(""); lv != procbot.None {
		o4 := o
		use(&o4, testLanguages(t), procbot.Options{Host: judgetest.Host(), Level: procbot.None})
		if _, err := Run(context.Background(), o4); err == nil || !strings.Contains(err.Error(), "sandbox level "+string(lv)) {
			t.Errorf("resumed at level none after %s: %v", lv, err)
		}
	}
	runRecs, _, _ := ReadLog(filepath.Join(out, LogName))
	for _, r := range runRecs {
		if r.Kind == KindRun && r.Run.Sandbox != string(judgetest.Host().RunLevel("")) {
			t.Errorf("run record's sandbox level %q, want %q", r.Run.Sandbox, judgetest.Host().RunLevel(""))
		}
	}

	// Resuming with another time limit or memory limit is refused,
	// naming the setting.
	for _, tc := range []struct {
		change func(o *Options)
		want   string
	}{
		{func(o *Options) { o.Match.Limits.Turn = 5 * time.Millisecond }, "turn 1s then, 5ms now"},
		{func(o *Options) { o.BotSettings.Memory = 128 << 20 }, "memory 256MiB then, 128MiB now"},
	} {
		o5 := o
		tc.change(&o5)
		if _, err := Run(context.Background(), o5); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("resumed with other settings: %v, want it refused with %q", err, tc.want)
		}
	}

	// Another seed in the same directory is another tournament.
	o.Seed = 8
	if _, err := Run(context.Background(), o); err == nil || !strings.Contains(err.Error(), "another tournament") {
		t.Errorf("another seed in the same directory: %v", err)
	}
}

func moves(rp *judge.Replay) []string {
	var out []string
	for _, t := range rp.Turns {
		for _, m := range t.Moves {
			out = append(out, strings.Join(m.Move, ";"))
		}
	}
	return out
}

func TestInterruptStopsCleanly(t *testing.T) {
	_, args := botDir(t)
	out := filepath.Join(tempDir(t), "out")
	o := options(t, out, tempDir(t), args[:2])
	o.Rounds = 10
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	// Cancel once a few matches are recorded.
	go func() {
		for ctx.Err() == nil {
			b, _ := os.ReadFile(filepath.Join(out, LogName))
			if bytes.Count(b, []byte(`"kind":"match"`)) >= 3 {
				cancel()
				return
			}
			time.Sleep(5 * time.Millisecond)
		}
	}()
	st, err := Run(ctx, o)
	if !errors.Is(err, ErrInterrupted) {
		t.Fatalf("Run: %v, want interrupted", err)
	}
	if st == nil || st.Matches < 3 || st.Matches >= 20 {
		t.Fatalf("standings after interrupt: %+v", st)
	}
	recs, bad, err := ReadLog(filepath.Join(out, LogName))
	if err != nil || bad != 0 {
		t.Fatalf("log after interrupt: %v, %d bad lines", err, bad)
	}
	ents, _ := os.ReadDir(filepath.Join(out, "replays"))
	for _, e := range ents {
		if strings.HasSuffix(e.Name(), ".tmp") {
			t.Errorf("half-written replay %s", e.Name())
		}
	}
	n := 0
	for _, r := range recs {
		if r.Kind == KindMatch {
			n++
		}
	}
	// Resume to the end.
	st, err = Run(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	if st.Matches != 20 {
		t.Errorf("%d matches after resume, want 20", st.Matches)
	}
	if n < 3 {
		t.Errorf("%d recorded before the resume", n)
	}
}

// TestWriteFailureStops takes the replays' directory away once a few
// matches are recorded: the next replay cannot be written, the run stops
// with that error, every match recorded has its replay, and a resume
// plays the rest.
func TestWriteFailureStops(t *testing.T) {
	_, args := botDir(t)
	out := filepath.Join(tempDir(t), "out")
	o := options(t, out, tempDir(t), args[:2])
	o.Rounds = 10
	replays, moved := filepath.Join(out, "replays"), filepath.Join(out, "replays.old")
	swapped := make(chan struct{})
	go func() {
		defer close(swapped)
		for end := time.Now().Add(time.Minute); time.Now().Before(end); time.Sleep(time.Millisecond) {
			b, _ := os.ReadFile(filepath.Join(out, LogName))
			if bytes.Count(b, []byte(`"kind":"match"`)) >= 3 {
				if err := os.Rename(replays, moved); err != nil {
					t.Error(err)
				} else if err := os.WriteFile(replays, []byte("not a directory"), 0o644); err != nil {
					t.Error(err)
				}
				return
			}
		}
	}()
	_, err := Run(context.Background(), o)
	<-swapped
	// A replay written between the rename and the new file fails with
	// "no such file" rather than "not a directory": the same failure.
	if err == nil || errors.Is(err, ErrInterrupted) || !strings.Contains(err.Error(), "not a directory") && !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("Run: %v, want the replay's write error", err)
	}
	recs, bad, err := ReadLog(filepath.Join(out, LogName))
	if err != nil || bad != 0 {
		t.Fatalf("log: %v, %d bad lines", err, bad)
	}
	n := 0
	for _, r := range recs {
		if r.Kind != KindMatch {
			continue
		}
		n++
		if _, err := os.Stat(filepath.Join(moved, filepath.Base(r.Match.Replay))); err != nil {
			t.Errorf("match %s is recorded without its replay: %v", r.Match.ID, err)
		}
	}
	if n < 3 || n >= 20 {
		t.Fatalf("%d matches recorded, want from 3 to 19", n)
	}
	if err := os.Remove(replays); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(moved, replays); err != nil {
		t.Fatal(err)
	}
	st, err := Run(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	if st.Matches != 20 {
		t.Errorf("%d matches after resume, want 20", st.Matches)
	}
}

// TestSubmissionsInEveryLanguage builds a directory of submissions in the
// six configured languages, in the sandbox, and plays them: every one must
// compile and play its matches by the rules.
func TestSubmissionsInEveryLanguage(t *testing.T) {
	judgetest.NeedTools(t, "gcc", "g++", "go", "rustc", "javac", "java", "python3")
	root := judgetest.Root(t)
	dir := tempDir(t)
	cp := func(src, dst string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, dst)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, dst), readFile(t, filepath.Join(root, src)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cp("examples/gomoku/random.c", "c.c")
	cp("examples/gomoku/random_bot.py", "python.py")
	cp("examples/gomoku/RandomBot.java", "RandomBot.java")
	cp("examples/gomoku/strong/main.go", "golang/main.go")
	// C++ and Rust: the same random player, short.
	cp("judge/tournament/testdata/gomoku/random.cpp", "cpp.cpp")
	cp("judge/tournament/testdata/gomoku/random.rs", "rust.rs")
	for _, p := range []string{dir, filepath.Join(dir, "golang")} {
		if err := os.Chmod(p, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	langs, err := bots.LoadLanguages(filepath.Join(root, "configs/languages.toml"))
	if err != nil {
		t.Fatal(err)
	}
	langs.Host = judgetest.Host()
	args, _, err := bots.BotArgs(dir, langs)
	if err != nil {
		t.Fatal(err)
	}
	var log bytes.Buffer
	cache := tempDir(t)
	o := options(t, filepath.Join(tempDir(t), "out"), cache, args)
	o.Rounds = 1
	o.Log = &log
	st, err := Run(context.Background(), o)
	if err != nil {
		t.Fatalf("Run: %v\n%s", err, log.String())
	}
	if len(st.Excluded) > 0 {
		t.Fatalf("left out: %+v\n%s", st.Excluded, log.String())
	}
	// Go's own build cache ({cache}/go-build) was written where the
	// language's environment puts it, in the judge's cache, not in the
	// compiler's private tmp: the next Go bot reuses its standard library.
	if n, err := filepath.Glob(filepath.Join(cache, "go-build", "*", "*")); err != nil || len(n) == 0 {
		t.Errorf("Go's build cache is empty after a Go build: %d entries, %v", len(n), err)
	}
	if len(st.Standings) != 6 || st.Matches != 30 {
		t.Fatalf("%d bots, %d matches; want 6 bots, 30 matches\n%s", len(st.Standings), st.Matches, log.String())
	}
	for _, r := range st.Standings {
		if r.Played != 10 || r.Failures.Last != "" {
			t.Errorf("%s: played %d, failures %+v", r.Name, r.Played, r.Failures)
		}
	}
}

// TestRubyContestPlayers: contest players in the bots directory (found by
// their class, with their lib/ beside them) play a tournament against a C
// bot; the one that raises fails every game.
func TestRubyContestPlayers(t *testing.T) {
	judgetest.NeedTools(t, "gcc", "ruby")
	root := judgetest.Root(t)
	dir := tempDir(t)
	cp := func(src, dst string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, dst)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, dst), readFile(t, filepath.Join(root, src)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	rc := "judge/procbot/testdata/rubycontest/"
	cp(rc+"corner_player.rb", "corner_player.rb")
	cp(rc+"lib/corner/shots.rb", "lib/corner/shots.rb")
	cp(rc+"raising_player.rb", "raising_player.rb")
	cp("examples/battleship/random.c", "random.c")
	if err := os.WriteFile(filepath.Join(dir, "helper.rb"), []byte("module Helper\nend\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{dir, filepath.Join(dir, "lib"), filepath.Join(dir, "lib/corner")} {
		if err := os.Chmod(p, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	langs, err := bots.LoadLanguages(filepath.Join(root, "configs/languages.toml"))
	if err != nil {
		t.Fatal(err)
	}
	langs.Host = judgetest.Host()
	args, _, err := bots.BotArgs(dir, langs)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"ruby-contest:" + filepath.Join(dir, "corner_player.rb"), "ruby-contest:" + filepath.Join(dir, "raising_player.rb"), filepath.Join(dir, "random.c")}
	if strings.Join(args, " ") != strings.Join(want, " ") {
		t.Fatalf("BotArgs = %q, want %q", args, want)
	}
	var log bytes.Buffer
	o := options(t, filepath.Join(tempDir(t), "out"), tempDir(t), args)
	v, err := catalog.Lookup("battleship-contest")
	if err != nil {
		t.Fatal(err)
	}
	o.Match.Game, o.Match.Name, o.Match.Params = v.Game, v.Name, v.Params
	o.Rounds = 1
	o.Log = &log
	st, err := Run(context.Background(), o)
	if err != nil {
		t.Fatalf("Run: %v\n%s", err, log.String())
	}
	if len(st.Standings) != 3 || st.Matches != 6 {
		t.Fatalf("%d bots, %d matches; want 3 bots, 6 matches\n%s", len(st.Standings), st.Matches, log.String())
	}
	for _, r := range st.Standings {
		failed := r.Failures.Last != ""
		if failed != (r.Name == "raising_player") || r.Played != 4 {
			t.Errorf("%s: played %d, failures %+v", r.Name, r.Played, r.Failures)
		}
	}
}

// copyReadable copies the directory src to dst, readable by all (the bots run
// as another user when the tests run as root).
func copyReadable(t testing.TB, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		to := filepath.Join(dst, rel)
		if d.IsDir() {
			if err := os.MkdirAll(to, 0o755); err != nil {
				return err
			}
			return os.Chmod(to, 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(to, b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestRubyContestFolder: a contest's folder as it comes (testdata/contest:
// clubs, then a folder per player, files not named *_player.rb, a class
// named Player, code in lib/ with a ...Player class of its own, a test
// file) gives its players; one that does not parse and a bot that does
// not exist are left out with their reasons, and the others play every
// game without a failure: a player writing files where it runs, one whose
// first shot is [0.0, 0.0].
func TestRubyContestFolder(t *testing.T) {
	judgetest.NeedTools(t, "ruby")
	root := judgetest.Root(t)
	dir := filepath.Join(tempDir(t), "contestants")
	copyReadable(t, filepath.Join(root, "judge/tournament/testdata/contest"), dir)
	langs, err := bots.LoadLanguages(filepath.Join(root, "configs/languages.toml"))
	if err != nil {
		t.Fatal(err)
	}
	langs.Host = judgetest.Host()
	args, skipped, err := bots.BotArgs(dir, langs)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, a := range args {
		rel, _ := filepath.Rel(dir, strings.TrimPrefix(a, "ruby-contest:"))
		got = append(got, rel)
		if !strings.HasPrefix(a, "ruby-contest:") {
			t.Errorf("%s is not a contest player", a)
		}
	}
	want := []string{"lrug/ann/ann.rb", "lrug/solo/player.rb", "magrails/broken/broken_player.rb", "magrails/floaty/floaty_player.rb"}
	if !slices.Equal(got, want) {
		t.Fatalf("BotArgs = %q, want %q", got, want)
	}
	why := map[string]string{}
	for _, s := range skipped {
		rel, _ := filepath.Rel(dir, s.Path)
		why[rel] = s.Why
	}
	if !strings.Contains(why["lrug/ann/lib"], "code") || !strings.Contains(why["magrails/floaty/test_floaty.rb"], "not a Ruby contest player") || len(why) != 2 {
		t.Errorf("skipped %q", why)
	}

	var log bytes.Buffer
	args = append(args, filepath.Join(dir, "no-such-bot"))
	o := options(t, filepath.Join(tempDir(t), "out"), tempDir(t), args)
	v, err := catalog.Lookup("battleship-contest")
	if err != nil {
		t.Fatal(err)
	}
	o.Match.Game, o.Match.Name, o.Match.Params = v.Game, v.Name, v.Params
	o.Rounds = 1
	o.Log = &log
	st, err := Run(context.Background(), o)
	if err != nil {
		t.Fatalf("Run: %v\n%s", err, log.String())
	}
	left := map[string]string{}
	for _, e := range st.Excluded {
		left[e.Name] = e.Error
	}
	if !strings.Contains(left["broken_player"], "loading broken_player.rb: SyntaxError: broken_player.rb:9: syntax error") ||
		!strings.Contains(left["no-such-bot"], "no such") || len(left) != 2 {
		t.Errorf("left out: %q", left)
	}
	if len(st.Standings) != 3 || st.Matches != 6 {
		t.Fatalf("%d bots, %d matches; want 3 bots, 6 matches\n%s", len(st.Standings), st.Matches, log.String())
	}
	for _, r := range st.Standings {
		if r.Played != 4 || r.Failures.Last != "" {
			t.Errorf("%s: played %d, failures %+v", r.Name, r.Played, r.Failures)
		}
	}
}

// TestStandingsSayWhoIsMissing: the bots left out and the files not
// taken as bots are in the standings' files, not only printed, so that a
// teacher reading them sees who is missing.
func TestStandingsSayWhoIsMissing(t *testing.T) {
	_, args := botDir(t)
	out := filepath.Join(tempDir(t), "out")
	o := options(t, out, tempDir(t), args)
	o.Skipped = []Excluded{{Name: "bots/notes.txt", Error: "not executable, and no language for \".txt\" files"}}
	if _, err := Run(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	md, err := os.ReadFile(filepath.Join(out, "standings.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"## Left out", "**broken**", "## Not taken as bots", "`bots/notes.txt`: not executable"} {
		if !strings.Contains(string(md), w) {
			t.Errorf("standings.md does not say %q:\n%s", w, md)
		}
	}
	js, err := os.ReadFile(filepath.Join(out, "standings.json"))
	if err != nil {
		t.Fatal(err)
	}
	var sj struct{ Excluded, Skipped []Excluded }
	if err := json.Unmarshal(js, &sj); err != nil || len(sj.Excluded) != 1 || len(sj.Skipped) != 1 || sj.Skipped[0].Name != "bots/notes.txt" {
		t.Errorf("standings.json: excluded %+v, skipped %+v, %v", sj.Excluded, sj.Skipped, err)
	}
}

// TestTooFewSaysWhy: a tournament that leaves out all but one bot stops
// with an error that says which were left out and why, and which files
// were skipped: with --quiet it is all that is printed.
func TestTooFewSaysWhy(t *testing.T) {
	_, args := botDir(t)
	o := options(t, filepath.Join(tempDir(t), "out"), tempDir(t), []string{args[1], args[2]})
	o.Skipped = []Excluded{{Name: "bots/notes.txt", Error: "not executable, and no language for \".txt\" files"}}
	_, err := Run(context.Background(), o)
	if err == nil {
		t.Fatal("a tournament of one bot played")
	}
	for _, w := range []string{"needs at least 2 bots that can play, have 1", "broken is left out: ", "undefined_thing",
		"bots/notes.txt is skipped: not executable"} {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("%q does not say %q", err, w)
		}
	}
}
