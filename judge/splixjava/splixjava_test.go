package splixjava_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"judge/games"
	"judge/games/catalog"
	"judge/judge"
	"judge/judge/judgetest"
	"judge/judge/procbot"
	"judge/judge/splixjava"
	"judge/judge/tournament"
)

func TestMain(m *testing.M) { judgetest.Main(m) }

func TestPlayerClass(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	for _, c := range []struct {
		name, text, want, err string
	}{
		{"Plain.java", "public class Plain extends SplixPlayer {}", "Plain", ""},
		{"Pkg.java", "package my.bots;\nimport x.*;\npublic class Pkg extends com.jatkin.splixkoth.ppcg.game.SplixPlayer {\n}", "my.bots.Pkg", ""},
		{"Gen.java", "class Gen<T> extends SplixPlayer {}", "Gen", ""},
		{"Commented.java", "// public class Old extends SplixPlayer {}\n/* class Older extends SplixPlayer */\npublic class New extends SplixPlayer {}", "New", ""},
		{"None.java", "public class None extends Object {}", "", "no class extends SplixPlayer"},
		{"Two.java", "class A extends SplixPlayer {}\nclass B extends SplixPlayer {}", "", "several classes"},
		{"notjava.txt", "class A extends SplixPlayer {}", "", "a .java file"},
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
	files, class, err := splixjava.Stage(filepath.Join(judgetest.Root(t), "judge/splixjava/testdata/surveyor"), dir)
	if err != nil {
		t.Fatal(err)
	}
	if class != "bots.survey.Surveyor" {
		t.Errorf("class %q", class)
	}
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
	judgetest.NeedTools(t, "javac", "java")
	root := judgetest.Root(t)
	langs, err := tournament.LoadLanguages(filepath.Join(root, "configs/languages.toml"))
	if err != nil {
		t.Fatal(err)
	}
	cache := t.TempDir()
	if err := os.Chmod(cache, 0o755); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	proc := procbot.Options{}
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
	res, err := judge.Run(ctx, judge.Match{Game: v.Game, Name: v.Name, Params: params, Seed: 4, Limits: judge.DefaultLimits, Entrants: es})
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
	files, _, err := splixjava.Stage(filepath.Join(judgetest.Root(t), "judge/splixjava/testdata/ApiCheck.java"), dir)
	if err != nil {
		t.Fatal(err)
	}
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
