package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"judge/judge/judgetest"
	"judge/judge/tournament"
)

// Shards of one tournament played by the real binary with real bots: a
// shard played with another turn limit, memory limit or runtime is
// refused by the merge, naming the difference; an incomplete merge says
// which shard lacks what and the command that plays it, and that command
// completes it; a shard whose bot does not build, or whose runtime is
// missing, fails.
func TestShardsOfOneTournament(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the judge and plays real matches")
	}
	judgetest.NeedTools(t, "gcc", "python3")
	root := judgetest.Root(t)
	tmp := t.TempDir()
	bin := buildJudge(t, tmp)
	write := func(path, text string) string {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	read := func(path string) string {
		t.Helper()
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	c, py := read(filepath.Join(root, "examples/gomoku/random.c")), read(filepath.Join(root, "examples/gomoku/random_bot.py"))
	bots := filepath.Join(tmp, "bots")
	write(filepath.Join(bots, "alpha.c"), c)
	write(filepath.Join(bots, "beta.py"), py)
	write(filepath.Join(bots, "gamma.c"), c)
	base := write(filepath.Join(tmp, "base.toml"), read(filepath.Join(root, "configs/tictactoe.toml")))
	mem := write(filepath.Join(tmp, "mem.toml"), read(base)+"\n[sandbox]\nmemory = \"128MiB\"\n")
	langs := filepath.Join(root, "configs/languages.toml")
	const pyVersion = `version = ["python3", "--version"]`
	if !strings.Contains(read(langs), pyVersion) {
		t.Fatalf("%s has no %s", langs, pyVersion)
	}
	otherPy := write(filepath.Join(tmp, "other-python.toml"), strings.Replace(read(langs), pyVersion, `version = ["echo", "Python 0.0-other"]`, 1))
	noPy := write(filepath.Join(tmp, "no-python.toml"), strings.Replace(read(langs), pyVersion, `version = ["no-such-python3", "--version"]`, 1))
	cache := filepath.Join(tmp, "cache")

	judge := func(args ...string) (int, string) {
		t.Helper()
		cmd := exec.Command(bin, args...)
		cmd.Dir = root
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		err := cmd.Run()
		var ee *exec.ExitError
		switch {
		case err == nil:
			return 0, out.String()
		case errors.As(err, &ee):
			return ee.ExitCode(), out.String()
		}
		t.Fatalf("judge %s: %v", strings.Join(args, " "), err)
		return 0, ""
	}
	must := func(want int, args ...string) string {
		t.Helper()
		code, out := judge(args...)
		if code != want {
			t.Fatalf("judge %s: exit %d, want %d\n%s", strings.Join(args, " "), code, want, out)
		}
		return out
	}
	shard := func(i int, out, botsDir string, extra ...string) []string {
		return append([]string{"tournament", "--config", base, "--seed", "3", "--bots", botsDir, "--cache", cache,
			"--languages", langs, "--jobs", "1", "--shard", fmt.Sprintf("%d/2", i), "--out", out}, extra...)
	}
	merge := func(out string, dirs ...string) []string {
		return append([]string{"merge", "--quiet", "--out", out}, dirs...)
	}

	s0, s1 := filepath.Join(tmp, "shard-0"), filepath.Join(tmp, "shard-1")
	must(0, shard(0, s0, bots)...)
	must(0, shard(1, s1, bots)...)
	all := filepath.Join(tmp, "all")
	must(0, merge(all, s0, s1)...)
	want := read(filepath.Join(all, "standings.json"))

	t.Run("other settings are refused", func(t *testing.T) {
		for i, tc := range []struct {
			extra []string
			say   string
		}{
			{[]string{"--turn", "5ms"}, "turn is 5ms, " + s0 + " has 1s"},
			{[]string{"--config", mem}, "memory is 128MiB, " + s0 + " has 256MiB"},
			{[]string{"--languages", otherPy}, `bot 2 (beta) ran on "Python 0.0-other", ` + s0 + ` has "Python 3.`},
		} {
			d := filepath.Join(tmp, fmt.Sprintf("other-%d", i))
			must(0, shard(1, d, bots, tc.extra...)...)
			out := must(4, merge(filepath.Join(tmp, fmt.Sprintf("refused-%d", i)), s0, d)...)
			if !strings.Contains(out, d+" (shard 1/2) cannot be merged") || !strings.Contains(out, tc.say) {
				t.Errorf("%s: merge says\n%s\nwant it to name %s and say %q", tc.extra, out, d, tc.say)
			}
			// Resuming a shard with them is refused too.
			out = must(1, shard(1, s1, bots, tc.extra...)...)
			if !strings.Contains(out, s1+" was started with other settings") && !strings.Contains(out, "the runtime of bot beta has changed") {
				t.Errorf("%s: resuming says\n%s", tc.extra, out)
			}
		}
	})

	// The command a merge gives for a shard, after the line naming it.
	command := func(t *testing.T, out, dir string) string {
		t.Helper()
		lines := strings.Split(out, "\n")
		for i, l := range lines {
			if strings.HasPrefix(strings.TrimSpace(l), dir+" (shard ") && i+1 < len(lines) {
				return strings.TrimSpace(lines[i+1])
			}
		}
		t.Fatalf("no command for %s in\n%s", dir, out)
		return ""
	}
	complete := func(t *testing.T, dirs []string, dir, say string) {
		t.Helper()
		out := must(3, merge(filepath.Join(t.TempDir(), "incomplete"), dirs...)...)
		if !strings.Contains(out, dir+say) {
			t.Fatalf("merge says\n%s\nwant %q", out, dir+say)
		}
		cmd := command(t, out, dir)
		if !strings.Contains(cmd, "--shard 1/2") || !strings.Contains(cmd, "--out "+dir) {
			t.Errorf("command %s: want it to play shard 1/2 into %s", cmd, dir)
		}
		sh := exec.Command("sh", "-c", cmd)
		if b, err := sh.CombinedOutput(); err != nil {
			t.Fatalf("%s: %v\n%s", cmd, err, b)
		}
		done := filepath.Join(t.TempDir(), "all")
		must(0, merge(done, dirs...)...)
		if got := read(filepath.Join(done, "standings.json")); got != want {
			t.Errorf("standings once completed:\n%s\nwant\n%s", got, want)
		}
	}

	t.Run("an incomplete shard is named with its command", func(t *testing.T) {
		d := filepath.Join(tmp, "part-1")
		must(0, shard(1, d, bots)...)
		// Its last match lost, as if its judge had been killed before it.
		log := filepath.Join(d, tournament.LogName)
		text := read(log)
		last := strings.LastIndex(strings.TrimSuffix(text, "\n"), "\n") + 1
		if !strings.Contains(text[last:], `"kind":"match"`) {
			t.Fatalf("the last record of %s is not a match: %s", log, text[last:])
		}
		write(log, text[:last])
		complete(t, []string{s0, d}, d, " (shard 1/2): 1 match missing")
	})

	t.Run("a shard not started is named with its command", func(t *testing.T) {
		d := filepath.Join(tmp, "late-1")
		complete(t, []string{s0, d}, d, " (shard 1/2): no tournament recorded yet, 3 matches")
	})

	t.Run("a shard whose bot cannot play fails", func(t *testing.T) {
		broken := filepath.Join(tmp, "broken-bots")
		for _, n := range []string{"alpha.c", "beta.py", "gamma.c"} {
			write(filepath.Join(broken, n), read(filepath.Join(bots, n)))
		}
		write(filepath.Join(broken, "delta.c"), "int main(void) { return undefined_thing; }\n")
		out := must(5, shard(0, filepath.Join(tmp, "broken-0"), broken)...)
		if !strings.Contains(out, "shard 0/2 cannot play its part") || !strings.Contains(out, "delta: ") || !strings.Contains(out, "undefined_thing") {
			t.Errorf("a shard with a bot that does not build says\n%s", out)
		}
		out = must(5, shard(0, filepath.Join(tmp, "no-python-0"), bots, "--languages", noPy)...)
		if !strings.Contains(out, "beta: ") || !strings.Contains(out, "python runtime is missing") || !strings.Contains(out, "no-such-python3") {
			t.Errorf("a shard with a runtime missing says\n%s", out)
		}
		// The whole tournament on one machine leaves the bot out.
		whole := shard(0, filepath.Join(tmp, "whole"), broken)
		whole = whole[:len(whole)-4] // no --shard, no --out
		out = must(0, append(whole, "--out", filepath.Join(tmp, "whole"))...)
		if !strings.Contains(out, "delta is left out") {
			t.Errorf("a whole tournament with a bot that does not build says\n%s", out)
		}
	})
}
