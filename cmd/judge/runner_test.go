package main

import (
	"encoding/json"
	"flag"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"judge/judge/judgetest"
)

// The Splix runner's options, by letter and by name, land on the judge's.
func TestRunnerFlags(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "java"), 0o755); err != nil {
		t.Fatal(err)
	}
	type got struct {
		games, jobs int
		seed        uint64
		bots        string
		set         []string
	}
	for _, c := range []struct {
		args []string
		want got
		err  string
	}{
		{[]string{"-i", "20", "-r", "7", "-c", "3", "-d", "x"}, got{20, 3, 7, "x", []string{"games", "seed", "jobs", "bots"}}, ""},
		{[]string{"--iterations", "5", "--random-seed", "9", "--thread-count", "2", "--directory", "y"}, got{5, 2, 9, "y", []string{"seed", "jobs", "bots"}}, ""},
		{[]string{"-d", dir}, got{bots: filepath.Join(dir, "java"), set: []string{"bots"}}, ""},
		{[]string{"--bots", dir}, got{bots: dir}, ""},
		{[]string{"-m", "false"}, got{jobs: 1, set: []string{"jobs"}}, ""},
		{[]string{"--multi-thread", "true"}, got{}, ""},
		{[]string{"-m", "false", "-c", "4"}, got{}, "contradicts"},
		{[]string{"-m", "sometimes"}, got{}, "want true or false"},
		{[]string{"-c", "0"}, got{}, "want at least 1"},
		{[]string{"-i", "0"}, got{}, "want at least 1"},
		{[]string{"-q", "126815"}, got{}, "-d DIR"},
		{[]string{"--question-id", "126815"}, got{}, "downloads"},
	} {
		fs := flag.NewFlagSet("t", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		var g got
		fs.IntVar(&g.games, "iterations", 0, "")
		fs.IntVar(&g.jobs, "jobs", 0, "")
		fs.Uint64Var(&g.seed, "seed", 0, "")
		fs.StringVar(&g.bots, "bots", "", "")
		rf := addRunnerFlags(fs, &g.games, &g.jobs, &g.seed, &g.bots)
		if err := fs.Parse(c.args); err != nil {
			t.Errorf("%v: %v", c.args, err)
			continue
		}
		set := map[string]bool{}
		fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
		err := rf.apply(set, &g.games, &g.jobs, &g.bots)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%v: error %v, want one saying %q", c.args, err, c.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%v: %v", c.args, err)
			continue
		}
		for _, name := range c.want.set {
			if !set[name] {
				t.Errorf("%v: --%s not marked as given", c.args, name)
			}
		}
		g.set, c.want.set = nil, nil
		if g.games != c.want.games || g.jobs != c.want.jobs || g.seed != c.want.seed || g.bots != c.want.bots {
			t.Errorf("%v: %+v, want %+v", c.args, g, c.want)
		}
	}
}

// A Splix tournament given the runner's way: a directory with a java/
// folder holding a player written for the contest's Java API and process
// bots, -i games, -r seed, -c jobs.
func TestSplixJavaTournament(t *testing.T) {
	if testing.Short() {
		t.Skip("compiles Java and plays matches")
	}
	judgetest.NeedTools(t, "javac", "java", "python3")
	root := judgetest.Root(t)
	tmp := t.TempDir()
	if err := os.Chmod(tmp, 0o755); err != nil {
		t.Fatal(err)
	}
	bots := filepath.Join(tmp, "submissions", "java")
	if err := os.MkdirAll(bots, 0o755); err != nil {
		t.Fatal(err)
	}
	copyTo := func(from, to string, mode os.FileMode) {
		b, err := os.ReadFile(from)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(to, b, mode); err != nil {
			t.Fatal(err)
		}
	}
	copyTo(filepath.Join(root, "judge/splixjava/testdata/surveyor/Surveyor.java"), filepath.Join(bots, "Surveyor.java"), 0o644)
	copyTo(filepath.Join(root, "examples/splix/random_bot.py"), filepath.Join(bots, "random_bot.py"), 0o644)
	copyTo(judgetest.Bot(t, "examples/splix/looper")[0], filepath.Join(bots, "looper"), 0o755)

	out := filepath.Join(tmp, "out")
	defer func(o string) { opener = o }(opener)
	opener = "true" // -g asks the desktop for a browser: here, nothing
	code, stdout, errs := run(t, "tournament", "--game", "splix-small", "--param", "size=20", "--param", "turns=80",
		"-i", "3", "-r", "5", "-c", "2", "-t", "Surveyor", "-g", "-d", filepath.Join(tmp, "submissions"), "--out", out, "--quiet")
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, errs)
	}
	// -g wrote the viewer of a replay and opened it.
	pages, _ := filepath.Glob(filepath.Join(out, "replays", "*.html"))
	if len(pages) != 1 {
		t.Errorf("-g: pages %v, stderr %q", pages, errs)
	}
	b, err := os.ReadFile(filepath.Join(out, "standings.json"))
	if err != nil {
		t.Fatal(err)
	}
	var st struct {
		Rows []struct {
			Name   string `json:"name"`
			Played int    `json:"played"`
		} `json:"standings"`
	}
	if err := json.Unmarshal(b, &st); err != nil {
		t.Fatal(err)
	}
	played := map[string]int{}
	for _, r := range st.Rows {
		played[r.Name] = r.Played
	}
	for _, name := range []string{"Surveyor", "looper", "random_bot"} {
		if played[name] < 3 {
			t.Errorf("%s played %d games, want at least 3 (standings %s)", name, played[name], b)
		}
	}
}

// The Splix configuration plays as many players as bots are given.
func TestSplixConfigFitsBots(t *testing.T) {
	looper := quote(judgetest.Bot(t, "examples/splix/looper"))
	cfg := filepath.Join(judgetest.Root(t), "configs/splix.toml")
	for _, n := range []int{2, 4} {
		args := []string{"match", "--config", cfg, "--param", "turns=3", "--seed", "2"}
		for i := 0; i < n; i++ {
			args = append(args, looper)
		}
		code, out, errs := run(t, args...)
		if code != 0 {
			t.Fatalf("%d bots: exit %d: %s", n, code, errs)
		}
		if want := "players=" + string(rune('0'+n)); !strings.Contains(out, want) {
			t.Errorf("%d bots: output lacks %s:\n%s", n, want, out)
		}
	}
}
