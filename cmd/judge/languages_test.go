package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"judge/judge/judgetest"
	"judge/judge/tournament"
)

// openTempDir is a temporary directory that another user can enter.
func openTempDir(t *testing.T) string {
	t.Helper()
	d := t.TempDir()
	for p := d; p != os.TempDir() && p != "/" && p != "."; p = filepath.Dir(p) {
		if err := os.Chmod(p, 0o777); err != nil {
			t.Fatal(err)
		}
	}
	return d
}

// Every language plays at sandbox level namespaces, run by a normal user:
// there memory is bounded by an rlimit only, which runtimes that size
// themselves from the machine (the JVM) must fit in, whether the command
// line sizes them (the java line of languages.toml) or not (a bot given as
// a plain "java -cp DIR Class", sized by procbot.RuntimeEnv). As root the
// judge is run as nobody (uid 65534) with setpriv; the bots are built
// first by the invoking user, since toolchains may live in its home
// (rustup, pyenv).
func TestEveryLanguageAtNamespacesAsNormalUser(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the judge and a bot in every language")
	}
	if os.Geteuid() == 0 {
		toolchainsForNobody(t)
	}
	root := judgetest.Root(t)
	tmp := openTempDir(t)
	bin := buildJudge(t, tmp)
	bots := filepath.Join(tmp, "bots")
	want := 0
	for src, dst := range map[string]string{
		"examples/gomoku/random.c":                    "c.c",
		"judge/tournament/testdata/gomoku/random.cpp": "cpp.cpp",
		"examples/gomoku/strong/main.go":              "golang/main.go",
		"judge/tournament/testdata/gomoku/random.rs":  "rust.rs",
		"examples/gomoku/RandomBot.java":              "RandomBot.java",
		"examples/gomoku/random_bot.py":               "python.py",
	} {
		tool := map[string]string{".c": "gcc", ".cpp": "g++", ".go": "go", ".rs": "rustc", ".java": "javac", ".py": "python3"}[filepath.Ext(src)]
		if _, err := exec.LookPath(tool); err != nil {
			t.Logf("%s is not installed: no %s bot", tool, dst)
			continue
		}
		b, err := os.ReadFile(filepath.Join(root, src))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Dir(filepath.Join(bots, dst)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(bots, dst), b, 0o644); err != nil {
			t.Fatal(err)
		}
		want++
	}
	// A Java bot given as a plain command line, its class built here.
	var plain []string
	if _, err := exec.LookPath("javac"); err == nil {
		b, err := os.ReadFile(filepath.Join(root, "examples/gomoku/RandomBot.java"))
		if err != nil {
			t.Fatal(err)
		}
		dir := filepath.Join(tmp, "plainjava")
		src := filepath.Join(dir, "PlainJava.java")
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(src, bytes.ReplaceAll(b, []byte("class RandomBot"), []byte("class PlainJava")), 0o644); err != nil {
			t.Fatal(err)
		}
		if out, err := exec.Command("javac", "-d", dir, src).CombinedOutput(); err != nil {
			t.Fatalf("javac: %v\n%s", err, out)
		}
		plain = []string{"java -cp " + dir + " PlainJava"}
		want++
	}
	if want < 2 {
		t.Skip("fewer than two languages installed")
	}
	// The languages file, where the normal user can read it whatever the
	// checkout's permissions.
	langs := filepath.Join(tmp, "languages.toml")
	if b, err := os.ReadFile(filepath.Join(root, "configs/languages.toml")); err != nil {
		t.Fatal(err)
	} else if err := os.WriteFile(langs, b, 0o644); err != nil {
		t.Fatal(err)
	}
	cache := filepath.Join(tmp, "cache")
	args := func(out string, extra ...string) []string {
		a := append([]string{"tournament", "--game", "gomoku", "--seed", "5", "--jobs", "2", "--quiet",
			"--bots", bots, "--cache", cache, "--out", out, "--languages", langs}, extra...)
		return append(a, plain...)
	}
	judge := func(asNobody bool, a ...string) (string, error) {
		cmd := exec.Command(bin, a...)
		cmd.Dir = root
		if asNobody {
			cmd = exec.Command("setpriv", append([]string{"--reuid=65534", "--regid=65534", "--clear-groups", bin}, a...)...)
			cmd.Dir = tmp
			cmd.Env = append(os.Environ(), "HOME="+tmp)
		}
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		err := cmd.Run()
		return out.String(), err
	}
	// Build (and play once) as the invoking user.
	if msg, err := judge(false, args(filepath.Join(tmp, "first"))...); err != nil {
		t.Fatalf("first run: %v\n%s", err, msg)
	}
	if err := filepath.Walk(tmp, func(p string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		if info.IsDir() {
			return os.Chmod(p, info.Mode().Perm()|0o555)
		}
		return os.Chmod(p, info.Mode().Perm()|0o444)
	}); err != nil {
		t.Fatal(err)
	}
	asNobody := os.Geteuid() == 0
	if asNobody {
		if _, err := exec.LookPath("setpriv"); err != nil {
			t.Skip("running as root without setpriv: cannot run the judge as a normal user")
		}
	}
	out := filepath.Join(tmp, "namespaces")
	if msg, err := judge(asNobody, args(out, "--sandbox", "namespaces")...); err != nil {
		if strings.Contains(msg, "is not available here") {
			t.Skipf("no user namespaces for a normal user here:\n%s", msg)
		}
		t.Fatalf("as a normal user at level namespaces: %v\n%s", err, msg)
	}
	b, err := os.ReadFile(filepath.Join(out, "standings.json"))
	if err != nil {
		t.Fatal(err)
	}
	var st tournament.Standings
	if err := json.Unmarshal(b, &st); err != nil {
		t.Fatal(err)
	}
	if len(st.Excluded) > 0 || len(st.Standings) != want || st.Matches != st.Scheduled || st.Matches != want*(want-1) {
		t.Fatalf("%d bots (want %d), %d of %d matches, left out %+v", len(st.Standings), want, st.Matches, st.Scheduled, st.Excluded)
	}
	names := map[string]bool{}
	for _, r := range st.Standings {
		names[r.Name] = true
		if r.Failures.Total > 0 {
			t.Errorf("%s failed %d times at level namespaces: %s", r.Name, r.Failures.Total, r.Failures.Last)
		}
	}
	if plain != nil && !names["PlainJava"] {
		t.Errorf("no PlainJava (%s) in the standings: %v", plain[0], names)
	}
	recs, _, err := tournament.ReadLog(filepath.Join(out, tournament.LogName))
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range recs {
		if r.Kind == tournament.KindRun && r.Run.Sandbox != "namespaces" {
			t.Errorf("run recorded at sandbox level %q, want namespaces", r.Run.Sandbox)
		}
	}
}

// toolchainsForNobody fails the test, saying what is lacking, when a
// toolchain root runs does not run for nobody. The judge asks each bot's
// runtime its version as it plays, as nobody here: a toolchain that only
// root can run (rustup's in /root) builds the bot, and the bot is then
// left out.
func toolchainsForNobody(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("setpriv"); err != nil {
		return
	}
	var lacks []string
	for _, tool := range []string{"gcc", "g++", "go", "rustc", "javac", "java", "python3"} {
		p, err := exec.LookPath(tool)
		if err != nil {
			continue
		}
		version := "--version"
		if tool == "go" {
			version = "version"
		}
		// The shell looks the tool up in PATH as nobody, as the judge does.
		if out, err := exec.Command("setpriv", "--reuid=65534", "--regid=65534", "--clear-groups",
			"sh", "-c", `"$0" "$1"`, tool, version).CombinedOutput(); err != nil {
			lacks = append(lacks, fmt.Sprintf("%s (%s for root; for nobody: %v: %s)", tool, p, err, bytes.TrimSpace(out)))
		}
	}
	if len(lacks) > 0 {
		t.Fatalf("toolchains that root can run but nobody (uid 65534, who runs the judge here) cannot: %s; "+
			"install ones every user can run, Debian's (make tools does, as root: apt-get install rustc ...)", strings.Join(lacks, "; "))
	}
}
