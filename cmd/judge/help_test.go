package main

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"judge/docs/protocol"
	"judge/judge"
	"judge/judge/judgetest"
	"judge/judge/procbot"
)

// TestHelpCommand: judge help CMD prints CMD's own help, as CMD --help
// does, with its examples; an unknown topic is a usage error.
func TestHelpCommand(t *testing.T) {
	for _, c := range commands {
		code, out, errs := run(t, "help", c.name)
		_, own, _ := run(t, c.name, "--help")
		if code != 0 || out != own || errs != "" {
			t.Errorf("help %s: exit %d, stderr %q, and its output differs from %s --help:\n%s", c.name, code, errs, c.name, out)
		}
		if !strings.Contains(out, "Usage: judge "+c.name) || !strings.Contains(out, "\nExamples:\n  judge "+c.name) {
			t.Errorf("help %s has no usage or no examples of its own:\n%s", c.name, out)
		}
	}
	// Every flag an example gives is one of its command's.
	_, runner, _ := run(t, "help", "splix-runner")
	for name, ex := range examples {
		_, help, _ := run(t, name, "--help")
		for _, line := range strings.Split(ex, "\n") {
			line, _, _ = strings.Cut(line, "#")
			argv, err := procbot.SplitCommand(line)
			if err != nil || len(argv) < 2 || argv[0] != "judge" || argv[1] != name {
				t.Errorf("example of %s: %q is not a judge %s command line", name, line, name)
				continue
			}
			for _, a := range argv[2:] {
				if a == "--" {
					break // what follows is another program's (judge debug)
				}
				if !strings.HasPrefix(a, "-") {
					continue
				}
				if !strings.Contains(help, "\n  "+a+" ") && !strings.Contains(help, "\n  "+a+"\n") && !strings.Contains(runner, "\n  "+a+" ") {
					t.Errorf("example of %s gives %s, which is not one of its flags", name, a)
				}
			}
		}
	}
	if code, out, errs := run(t, "help", "nosuch"); code != 2 || out != "" || !strings.Contains(errs, `no help on "nosuch"`) {
		t.Errorf("help nosuch: exit %d, stdout %q, stderr %q", code, out, errs)
	}
}

// TestSplixRunnerSection: the Splix runner's options are not among
// judge tournament's flags but in a section of their own, and still work.
func TestSplixRunnerSection(t *testing.T) {
	aliases := []string{"-i ", "--iterations", "-t ", "-d ", "--directory", "-r ", "--random-seed", "-c ", "--thread-count",
		"-m ", "--multi-thread", "-g\n", "--gui", "-q ", "--question-id"}
	_, out, _ := run(t, "tournament", "--help")
	flags, rest, _ := strings.Cut(out, "\n\nThe Splix runner's options:")
	if rest == "" || !strings.Contains(rest, "'judge help splix-runner'") {
		t.Fatalf("tournament --help does not name the Splix runner's section:\n%s", out)
	}
	for _, a := range aliases {
		if strings.Contains(flags, "\n  "+a) {
			t.Errorf("tournament --help lists %q among its flags", strings.TrimSpace(a))
		}
	}
	code, sec, _ := run(t, "help", "splix-runner")
	if code != 0 {
		t.Fatalf("help splix-runner: exit %d", code)
	}
	for _, a := range aliases {
		if !strings.Contains(sec, "\n  "+a) {
			t.Errorf("help splix-runner does not list %q:\n%s", strings.TrimSpace(a), sec)
		}
	}
	if strings.Contains(sec, "--rounds") {
		t.Errorf("help splix-runner lists the tournament's own flags:\n%s", sec)
	}
	// Still accepted: -q is refused for what it does, not as unknown.
	if code, _, errs := run(t, "tournament", "--game", "tictactoe", "-q", "1", "a", "b"); code != 2 || !strings.Contains(errs, "question-id") {
		t.Errorf("-q: exit %d, %s", code, errs)
	}
}

// TestVersion: judge --version and judge version print the build as
// runtime/debug reads it; a built program carries its revision.
func TestVersion(t *testing.T) {
	for _, arg := range []string{"--version", "version"} {
		code, out, _ := run(t, arg)
		if code != 0 || strings.TrimSpace(out) != judge.Build().String() || !strings.HasPrefix(out, "judge ") {
			t.Errorf("%s: exit %d, %q", arg, code, out)
		}
	}
	b := judge.BuildInfo{Module: "v1.2.3", Revision: "0123abc", Time: "2026-11-25T10:00:00Z", Modified: true, Go: "go1.26.8"}
	if got, want := b.String(), "judge v1.2.3, revision 0123abc of 2026-11-25T10:00:00Z, modified, built with go1.26.8"; got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
	b.Modified = false
	if got, want := b.Identity(), "revision 0123abc (go1.26.8)"; got != want {
		t.Errorf("Identity() = %q, want %q", got, want)
	}
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	// A program built from a commit knows it.
	dir := t.TempDir()
	root := judgetest.Root(t)
	src := filepath.Join(dir, "src")
	if out, err := exec.Command("git", "clone", "-q", "--no-local", root, src).CombinedOutput(); err != nil {
		t.Skipf("git clone: %v\n%s", err, out)
	}
	rev, err := exec.Command("git", "-C", src, "rev-parse", "HEAD").Output()
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "judge")
	build := exec.Command("go", "build", "-buildvcs=true", "-o", bin, "./cmd/judge")
	build.Dir = src
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	out, err := exec.Command(bin, "--version").Output()
	if err != nil {
		t.Fatal(err)
	}
	if want := "revision " + strings.TrimSpace(string(rev)) + " of "; !strings.Contains(string(out), want) || strings.Contains(string(out), "modified") {
		t.Errorf("judge --version = %q, want %q and unmodified", out, want)
	}
}

// TestHelpProtocol: judge help protocol GAME prints the game's guide as
// the program holds it, for a game or one of its variants; with no game
// it lists them; an unknown one is a usage error.
func TestHelpProtocol(t *testing.T) {
	for variant, game := range map[string]string{"tictactoe": "gomoku", "connect4": "connect4", "battleship-contest": "battleship", "splix-small": "splix"} {
		want, ok := protocol.Guide(game)
		if !ok {
			t.Fatalf("no guide for %s", game)
		}
		code, out, errs := run(t, "help", "protocol", variant)
		if code != 0 || out != string(want) || errs != "" {
			t.Errorf("help protocol %s: exit %d, stderr %q, %d bytes of output, want the %d of %s's guide", variant, code, errs, len(out), len(want), game)
		}
	}
	code, out, _ := run(t, "help", "protocol")
	for _, g := range []string{"battleship", "connect4", "gomoku", "splix"} {
		if code != 0 || !strings.Contains(out, "judge help protocol "+g+"\n") {
			t.Errorf("help protocol: exit %d, no %s:\n%s", code, g, out)
		}
	}
	if code, _, errs := run(t, "help", "protocol", "chess"); code != 1 || !strings.Contains(errs, `"chess"`) {
		t.Errorf("help protocol chess: exit %d, %q", code, errs)
	}
	// judge help game NAME is the same page; judge help game, the game
	// command's help.
	want, _ := protocol.Guide("connect4")
	if code, out, _ := run(t, "help", "game", "connect4"); code != 0 || out != string(want) {
		t.Errorf("help game connect4: exit %d, %d bytes", code, len(out))
	}
	if code, out, _ := run(t, "help", "game"); code != 0 || !strings.Contains(out, "judge game check") {
		t.Errorf("help game: exit %d:\n%s", code, out)
	}
	if _, out, _ := run(t, "help"); !strings.Contains(out, "judge help protocol GAME") {
		t.Errorf("judge help does not name help protocol:\n%s", out)
	}
}
