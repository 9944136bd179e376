package splixjava_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"judge/games"
	"judge/games/catalog"
	"judge/judge"
	"judge/judge/bots"
	"judge/judge/judgetest"
	"judge/judge/procbot"
	"judge/judge/splixjava"
)

func TestMain(m *testing.M) { judgetest.Main(m) }

// javaSetUp skips where there is no Java, and returns the repository's
// root, its languages table and an empty build cache every user can read
// (the sandbox runs players as nobody).
func javaSetUp(tb testing.TB) (root string, langs *bots.Languages, cache string) {
	tb.Helper()
	judgetest.NeedTools(tb, "javac", "java")
	root = judgetest.Root(tb)
	langs, err := bots.LoadLanguages(filepath.Join(root, "configs/languages.toml"))
	if err != nil {
		tb.Fatal(err)
	}
	langs.Host = judgetest.Host()
	cache = tb.TempDir()
	if err := os.Chmod(cache, 0o755); err != nil {
		tb.Fatal(err)
	}
	return root, langs, cache
}

// writer returns a function that writes a file under dir, making its
// folders, and returns its path.
func writer(t *testing.T, dir string) func(name, text string) string {
	return func(name, text string) string {
		t.Helper()
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
}

func TestPlayerClass(t *testing.T) {
	dir := t.TempDir()
	write := writer(t, dir)
	for _, c := range []struct {
		name, text, want, err string
	}{
		{"Plain.java", "public class Plain extends SplixPlayer {}", "Plain", ""},
		{"Pkg.java", "package my.bots;\nimport x.*;\npublic class Pkg extends com.jatkin.splixkoth.ppcg.game.SplixPlayer {\n}", "my.bots.Pkg", ""},
		{"Gen.java", "class Gen<T> extends SplixPlayer {}", "Gen", ""},
		{"Commented.java", "// public class Old extends SplixPlayer {}\n/* class Older extends SplixPlayer */\npublic class New extends SplixPlayer {}", "New", ""},
		{"None.java", "public class None extends Object {}", "", "no class extends SplixPlayer"},
		{"Two.java", "class A extends SplixPlayer {}\nclass B extends SplixPlayer {}", "", "several classes"},
		{"notjava.txt", "class A extends SplixPlayer {}", "", "a .java or .clj file"},
	} {
		got, err := splixjava.PlayerClass(write(c.name, c.text))
		switch {
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("%s: error %v, want one saying %q", c.name, err, c.err)
		case c.err == "" && (err != nil || got != c.want):
			t.Errorf("%s: %q, %v; want %q", c.name, got, err, c.want)
		}
	}
	// A directory: its one player, among helper classes.
	sub := filepath.Join(dir, "sub")
	write("sub/Helper.java", "class Helper {}")
	write("sub/deep/Bot.java", "package deep; public class Bot extends SplixPlayer {}")
	if got, err := splixjava.PlayerClass(sub); err != nil || got != "deep.Bot" {
		t.Errorf("directory: %q, %v; want deep.Bot", got, err)
	}
	if !splixjava.IsPlayer(sub) || splixjava.IsPlayer(filepath.Join(dir, "None.java")) {
		t.Errorf("IsPlayer is wrong")
	}
	if p, ok := splixjava.Cut("splix-java:a/B.java"); !ok || p != "a/B.java" {
		t.Errorf("Cut = %q, %v", p, ok)
	}
}

// The host's sources and the player's are staged together, and the
// player's class is found.
func TestStage(t *testing.T) {
	dir := t.TempDir()
	st, err := splixjava.Stage(filepath.Join(judgetest.Root(t), "judge/splixjava/testdata/surveyor"), dir)
	if err != nil {
		t.Fatal(err)
	}
	if st.Class != "bots.survey.Surveyor" || st.Name != "Surveyor" || st.Clojure {
		t.Errorf("staged %+v", st)
	}
	files := st.Files
	want := []string{"player/Surveyor.java", "host/com/jatkin/splixkoth/ppcg/game/SplixPlayer.java",
		"host/com/nmerrill/kothcomm/game/maps/Point2D.java", "host/org/eclipse/collections/api/map/MutableMap.java"}
	for _, w := range want {
		found := false
		for _, f := range files {
			found = found || f == filepath.FromSlash(w)
		}
		if _, err := os.Stat(filepath.Join(dir, w)); !found || err != nil {
			t.Errorf("%s not staged (listed %v, %v)", w, found, err)
		}
	}
}

// A Splix player written against the contest's API, unchanged, plays a
// whole match against the Go example bot; a player that prints to stdout
// and then throws is a crash with the Java message.
func TestPlayAgainstLooper(t *testing.T) {
	if testing.Short() {
		t.Skip("compiles Java and plays a match")
	}
	root, langs, cache := javaSetUp(t)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	proc := procbot.Options{Host: judgetest.Host()}
	var es []judge.Entrant
	for _, p := range []string{"judge/splixjava/testdata/surveyor", "judge/splixjava/testdata/Crasher.java"} {
		spec, _, err := langs.SplixJavaSpec(ctx, splixjava.Prefix+filepath.Join(root, p), cache, 256<<20)
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		es = append(es, procbot.Bot{Spec: spec, Options: proc})
	}
	es = append(es, procbot.Bot{Spec: judgetest.Spec(t, "looper", "examples/splix/looper"), Options: proc})

	v, err := catalog.Lookup("splix-small")
	if err != nil {
		t.Fatal(err)
	}
	params, err := v.Resolve(games.Params{"size": 24, "turns": 150, "players": 3})
	if err != nil {
		t.Fatal(err)
	}
	res, err := judge.Run(ctx, judge.Match{Game: v.Game, Name: v.Name, Params: params, Seed: 4, Limits: judge.DefaultTurnLimits, Entrants: es})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := judge.Playback(v.Game, res.Replay); err != nil {
		t.Errorf("the replay does not play back: %v", err)
	}
	sv, cr := res.Players[0], res.Players[1]
	if sv.Name != "Surveyor" || sv.Status != judge.OK {
		t.Errorf("Surveyor: %+v", sv)
	}
	if res.Turns != 150 {
		t.Errorf("%d turns played, want 150", res.Turns)
	}
	// It leaves its 5×5 start and comes back with more land.
	if sv.Score <= 25 {
		t.Errorf("Surveyor scored %v: want more than its starting land", sv.Score)
	}
	if cr.Status != judge.Crash || !strings.Contains(cr.Reason, "IllegalStateException: out of ideas") {
		t.Errorf("Crasher: %s %q, want a crash with the Java message", cr.Status, cr.Reason)
	}
	// Its two turns before the exception were played: what it printed
	// went to stderr, not into the protocol.
	moves := 0
	for _, turn := range res.Replay.Turns {
		for _, m := range turn.Moves {
			if m.Seat == 1 && m.Status == judge.OK {
				moves++
			}
		}
	}
	if moves != 2 {
		t.Errorf("Crasher played %d turns, want 2", moves)
	}
	if !strings.Contains(string(res.Replay.Bots[1].Stderr), "turn 1, 149 left") {
		t.Errorf("Crasher's stderr: %q", res.Replay.Bots[1].Stderr)
	}
}

// The API types by themselves: Direction's turns, Point2D, SquareRegion,
// HiddenPlayer, and the collections' methods, checked by a Java program
// compiled with the host.
func TestAPI(t *testing.T) {
	judgetest.NeedTools(t, "javac", "java")
	dir := t.TempDir()
	st, err := splixjava.Stage(filepath.Join(judgetest.Root(t), "judge/splixjava/testdata/ApiCheck.java"), dir)
	if err != nil {
		t.Fatal(err)
	}
	files := st.Files
	out := filepath.Join(dir, "out")
	args := []string{"-nowarn", "-d", out}
	for _, f := range files {
		args = append(args, filepath.Join(dir, f))
	}
	if b, err := exec.Command("javac", args...).CombinedOutput(); err != nil {
		t.Fatalf("javac: %v\n%s", err, b)
	}
	b, err := exec.Command("java", "-cp", out, "ApiCheck").CombinedOutput()
	if err != nil || strings.TrimSpace(string(b)) != "ok" {
		t.Errorf("ApiCheck: %v\n%s", err, b)
	}
}

func TestClojurePlayer(t *testing.T) {
	dir := t.TempDir()
	write := writer(t, dir)
	for _, c := range []struct {
		path, file, name, err string
	}{
		{write("my_bot.clj", "(ns my-bot)\n(defn make-move [game board state] [nil state])"), "my_bot.clj", "my-bot", ""},
		{write("one/walker.clj", "(ns walker)\n(defn make-move\n  [g b s] [nil s])"), "walker.clj", "walker", ""},
		{write("hinted/hinted.clj", "(ns hinted)\n(defn ^clojure.lang.IPersistentVector make-move [g b s] [nil s])"), "hinted.clj", "hinted", ""},
		{filepath.Dir(write("one/helper.clj", "(ns helper)\n(defn make-moves [] [])")), "walker.clj", "walker", ""},
		{filepath.Dir(write("none/helper.clj", "(ns helper)")), "", "", "no .clj file in it defines make-move"},
		{filepath.Dir(write("two/b.clj", "(defn make-move [g b s])")), "", "", "several .clj files"},
		{write("two/a.clj", "(defn- make-move [g b s])"), "a.clj", "a", ""},
		{write("Bot.java", "class Bot extends SplixPlayer {}"), "", "", "a Clojure player is a .clj file"},
		{write("idle.clj", "(ns idle)\n(defn make-moves [g b s])"), "", "", "defines no make-move"},
	} {
		file, name, err := splixjava.ClojurePlayer(c.path)
		switch {
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("%s: error %v, want one saying %q", c.path, err, c.err)
		case c.err == "" && (err != nil || file != c.file || name != c.name):
			t.Errorf("%s: %q %q, %v; want %q %q", c.path, file, name, err, c.file, c.name)
		}
	}
	// A directory with a Java player is played in Java, whatever .clj
	// files it holds.
	write("mixed/Bot.java", "public class Bot extends SplixPlayer {}")
	write("mixed/bot.clj", "(ns bot)\n(defn make-move [g b s] [nil s])")
	if splixjava.IsClojure(filepath.Join(dir, "mixed")) || !splixjava.IsClojure(filepath.Join(dir, "one")) || !splixjava.IsPlayer(filepath.Join(dir, "one")) {
		t.Errorf("IsClojure is wrong")
	}
	if splixjava.IsPlayer(filepath.Join(dir, "none")) {
		t.Errorf("a directory with no make-move is a player")
	}
}

// A Clojure player is staged with the host's loader of Clojure players and
// its other namespaces; a Java player without that loader.
func TestStageClojure(t *testing.T) {
	root := judgetest.Root(t)
	loader := filepath.FromSlash("host/com/jatkin/splixkoth/ppcg/loaders/ClojurePlayer.java")
	st, err := splixjava.Stage(filepath.Join(root, "judge/splixjava/testdata/clojuredir"), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if !st.Clojure || st.Class != "clojure:player/helper_walker.clj" || st.Name != "helper-walker" {
		t.Errorf("staged %+v", st)
	}
	for _, w := range []string{loader, filepath.FromSlash("player/walk/plans.clj"), filepath.FromSlash("host/javafx/util/Pair.java")} {
		if !slices.Contains(st.Files, w) {
			t.Errorf("%s not staged: %v", w, st.Files)
		}
	}
	java, err := splixjava.Stage(filepath.Join(root, "judge/splixjava/testdata/laggard"), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if java.Clojure || slices.Contains(java.Files, loader) {
		t.Errorf("a Java player staged with the Clojure loader: %+v", java)
	}
}

// playSplix builds the Splix contest players paths (relative to the
// repository) and plays them, with the looper when looper is set, on a
// 24×24 board of splix-small for turns turns, its parameters changed by
// params.
func playSplix(t *testing.T, params games.Params, looper bool, paths ...string) *judge.Result {
	t.Helper()
	root, langs, cache := javaSetUp(t)
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	var es []judge.Entrant
	for _, p := range paths {
		spec, _, err := langs.SplixJavaSpec(ctx, splixjava.Prefix+filepath.Join(root, p), cache, 256<<20)
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		es = append(es, procbot.Bot{Spec: spec, Options: judgetest.Proc(procbot.Options{})})
	}
	if looper {
		es = append(es, procbot.Bot{Spec: judgetest.Spec(t, "looper", "examples/splix/looper"), Options: judgetest.Proc(procbot.Options{})})
	}
	v, err := catalog.Lookup("splix-small")
	if err != nil {
		t.Fatal(err)
	}
	p := games.Params{"size": 24, "players": len(es)}
	for k, x := range params {
		p[k] = x
	}
	resolved, err := v.Resolve(p)
	if err != nil {
		t.Fatal(err)
	}
	// Loading Clojure takes seconds of CPU, which a loaded machine may not
	// give within the first turn's usual limit.
	limits := judge.DefaultTurnLimits
	limits.FirstTurn = time.Minute
	res, err := judge.Run(ctx, judge.Match{Game: v.Game, Name: v.Name, Params: resolved, Seed: 4, Limits: limits, Entrants: es})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := judge.Playback(v.Game, res.Replay); err != nil {
		t.Errorf("the replay does not play back: %v", err)
	}
	return res
}

// A player written for the contest's controller counts its trail as the
// controller draws it, one step behind the head, and uses JavaFX's Pair:
// it compiles and plays by the contest's rules, and fails at once where
// the cell under the head is trail.
func TestPlayerReliesOnTheLag(t *testing.T) {
	if testing.Short() {
		t.Skip("compiles Java and plays matches")
	}
	res := playSplix(t, games.Params{"turns": 120}, true, "judge/splixjava/testdata/laggard")
	lg := res.Players[0]
	if lg.Name != "Laggard" || lg.Status != judge.OK || lg.Score <= 25 {
		t.Errorf("Laggard by the contest's rules: %+v, want ok with more than its starting land", lg)
	}
	res = playSplix(t, games.Params{"turns": 120, "lag": 0}, true, "judge/splixjava/testdata/laggard")
	if lg := res.Players[0]; lg.Status != judge.Crash || !strings.Contains(lg.Reason, "the cell under my head is my trail") {
		t.Errorf("Laggard with the trail under the head: %s %q, want the crash it raises", lg.Status, lg.Reason)
	}
}

// Clojure players, a file and a directory with a namespace of its own to
// require, play whole matches with the state they return; what they print
// goes to stderr.
func TestClojurePlayers(t *testing.T) {
	if testing.Short() {
		t.Skip("compiles Java and plays a match")
	}
	judgetest.NeedTools(t, "clojure")
	res := playSplix(t, games.Params{"turns": 100}, false,
		"judge/splixjava/testdata/clojure/square_walker.clj", "judge/splixjava/testdata/clojuredir")
	for i, want := range []struct {
		name  string
		score float64
	}{{"square-walker", 25 + 7}, {"helper-walker", 25 + 16}} {
		p := res.Players[i]
		if p.Name != want.name || p.Status != judge.OK || p.Score != want.score {
			t.Errorf("seat %d: %+v, want %s ok with %v", i, p, want.name, want.score)
		}
	}
	if res.Turns != 100 {
		t.Errorf("%d turns played, want 100", res.Turns)
	}
	if !strings.Contains(string(res.Replay.Bots[0].Stderr), "turn 50 of square-walker, 50 left") {
		t.Errorf("square-walker's stderr: %q", res.Replay.Bots[0].Stderr)
	}
}

// TestClassDataSharing: a Java player's build comes with an archive of the
// classes of its first turn (AppCDS), made once, readable by all, and the
// JVM in the sandbox maps the player's and the host's classes from it
// (-Xlog:class+load says where each class came from).
func TestClassDataSharing(t *testing.T) {
	if testing.Short() {
		t.Skip("compiles Java and plays a match")
	}
	root, langs, cache := javaSetUp(t)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	arg := splixjava.Prefix + filepath.Join(root, "judge/splixjava/testdata/surveyor")
	spec, _, err := langs.SplixJavaSpec(ctx, arg, cache, 256<<20)
	if err != nil {
		t.Fatal(err)
	}
	var jsa string
	for _, a := range spec.Argv {
		if f, ok := strings.CutPrefix(a, "-XX:SharedArchiveFile="); ok {
			jsa = f
		}
	}
	st, err := os.Stat(jsa)
	if jsa == "" || err != nil || st.Mode().Perm()&0o004 == 0 {
		t.Fatalf("no archive readable by all in %q: %v", spec.Argv, err)
	}
	// Built again: the same archive, not made again.
	again, _, err := langs.SplixJavaSpec(ctx, arg, cache, 256<<20)
	if err != nil {
		t.Fatal(err)
	}
	if st2, err := os.Stat(jsa); !slices.Equal(again.Argv, spec.Argv) || err != nil || !st2.ModTime().Equal(st.ModTime()) {
		t.Errorf("built again: %q, archive %v %v", again.Argv, st2, err)
	}

	// Where each class comes from, on stderr (after the run line's
	// -Xlog:disable, which would turn it off).
	cp := slices.Index(spec.Argv, "-cp")
	spec.Argv = slices.Insert(spec.Argv, cp, "-Xlog:class+load=info:stderr")
	v, err := catalog.Lookup("splix-small")
	if err != nil {
		t.Fatal(err)
	}
	params, err := v.Resolve(games.Params{"size": 24, "turns": 5, "players": 2})
	if err != nil {
		t.Fatal(err)
	}
	looper := judgetest.Spec(t, "looper", "examples/splix/looper")
	res, err := judge.Run(ctx, judge.Match{Game: v.Game, Name: v.Name, Params: params, Seed: 4, Limits: judge.DefaultTurnLimits,
		Entrants: []judge.Entrant{procbot.Bot{Spec: spec, Options: judgetest.Proc(procbot.Options{})}, procbot.Bot{Spec: looper, Options: judgetest.Proc(procbot.Options{})}}})
	if err != nil {
		t.Fatal(err)
	}
	stderr := string(res.Replay.Bots[0].Stderr)
	if p := res.Players[0]; p.Status != judge.OK {
		t.Fatalf("Surveyor: %s %q\n%s", p.Status, p.Reason, judge.LastLines([]byte(stderr), 20, 4000))
	}
	for _, c := range []string{"bots.survey.Surveyor", "com.jatkin.splixkoth.ppcg.game.readonly.Link"} {
		if !strings.Contains(stderr, c+" source: shared objects file (top)") {
			t.Errorf("%s was not mapped from the archive:\n%s", c, judge.LastLines([]byte(stderr), 20, 4000))
		}
	}
}
