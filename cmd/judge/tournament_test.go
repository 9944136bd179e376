package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"judge/judge/judgetest"
	"judge/judge/tournament"
)

// The tournament as the real binary plays it: killed with SIGKILL in the
// middle and resumed, split into shards run as separate processes and
// merged, a torn record at the end of the log. Each must end with the
// standings of one plain run.
func TestTournamentProcesses(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the judge and plays real matches")
	}
	judgetest.NeedTools(t, "gcc")
	root := judgetest.Root(t)
	tmp := t.TempDir()
	bin := buildJudge(t, tmp)
	bots := filepath.Join(tmp, "bots")
	if err := os.Mkdir(bots, 0o755); err != nil {
		t.Fatal(err)
	}
	gcc := exec.Command("gcc", "-O2", "-o", filepath.Join(bots, "alpha"), filepath.Join(root, "examples/gomoku/random.c"))
	if out, err := gcc.CombinedOutput(); err != nil {
		t.Fatalf("gcc: %v\n%s", err, out)
	}
	for _, n := range []string{"beta", "gamma"} {
		b, _ := os.ReadFile(filepath.Join(bots, "alpha"))
		if err := os.WriteFile(filepath.Join(bots, n), b, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	// 3 bots, 6 rounds: 36 matches.
	const total = 36
	args := func(out string, extra ...string) []string {
		return append([]string{"tournament", "--game", "tictactoe", "--rounds", "6", "--seed", "11", "--jobs", "2",
			"--out", out, "--bots", bots}, extra...)
	}
	run := func(a ...string) string {
		t.Helper()
		cmd := exec.Command(bin, a...)
		cmd.Dir = root
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Run(); err != nil {
			t.Fatalf("judge %s: %v\n%s", strings.Join(a, " "), err, out.String())
		}
		return out.String()
	}
	standings := func(dir string) []byte {
		t.Helper()
		b, err := os.ReadFile(filepath.Join(dir, "standings.json"))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	checkLog := func(dir string) {
		t.Helper()
		recs, bad, err := tournament.ReadLog(filepath.Join(dir, tournament.LogName))
		if err != nil || bad != 0 {
			t.Fatalf("%s: %v, %d bad lines", dir, err, bad)
		}
		seen := map[string]bool{}
		for _, r := range recs {
			if r.Kind != tournament.KindMatch {
				continue
			}
			if seen[r.Match.ID] {
				t.Errorf("%s: %s recorded twice", dir, r.Match.ID)
			}
			seen[r.Match.ID] = true
		}
		if len(seen) != total {
			t.Errorf("%s: %d matches recorded, want %d", dir, len(seen), total)
		}
	}

	ref := filepath.Join(tmp, "ref")
	run(args(ref)...)
	want := standings(ref)
	checkLog(ref)

	t.Run("kill -9 and resume", func(t *testing.T) {
		dir := filepath.Join(tmp, "killed")
		cmd := exec.Command(bin, args(dir)...)
		cmd.Dir = root
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		deadline := time.Now().Add(60 * time.Second)
		for {
			b, _ := os.ReadFile(filepath.Join(dir, tournament.LogName))
			if n := bytes.Count(b, []byte(`"kind":"match"`)); n >= 6 {
				break
			}
			if time.Now().After(deadline) {
				cmd.Process.Kill()
				cmd.Wait()
				t.Fatalf("no matches recorded in time\n%s", out.String())
			}
			time.Sleep(2 * time.Millisecond)
		}
		if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
		err := cmd.Wait()
		if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() {
			t.Fatalf("the judge was not killed (%v): it finished first\n%s", err, out.String())
		}
		recs, _, _ := tournament.ReadLog(filepath.Join(dir, tournament.LogName))
		before := 0
		for _, r := range recs {
			if r.Kind == tournament.KindMatch {
				before++
			}
		}
		if before >= total {
			t.Fatalf("all %d matches were done before the kill", before)
		}
		msg := run(args(dir)...)
		if !strings.Contains(msg, "recorded before") {
			t.Errorf("resume output:\n%s", msg)
		}
		checkLog(dir)
		if got := standings(dir); !bytes.Equal(got, want) {
			t.Errorf("standings after kill and resume differ:\n%s\nwant:\n%s", got, want)
		}
	})

	t.Run("shards as processes, merged", func(t *testing.T) {
		const n = 3
		var (
			wg   sync.WaitGroup
			dirs []string
			errs = make([]error, n)
			outs = make([]bytes.Buffer, n)
		)
		for i := 0; i < n; i++ {
			d := filepath.Join(tmp, "shard", string(rune('0'+i)))
			dirs = append(dirs, d)
			cmd := exec.Command(bin, args(d, "--shard", string(rune('0'+i))+"/3", "--jobs", "1")...)
			cmd.Dir = root
			cmd.Stdout, cmd.Stderr = &outs[i], &outs[i]
			wg.Add(1)
			go func() {
				defer wg.Done()
				errs[i] = cmd.Run()
			}()
		}
		wg.Wait()
		for i, err := range errs {
			if err != nil {
				t.Fatalf("shard %d: %v\n%s", i, err, outs[i].String())
			}
		}
		merged := filepath.Join(tmp, "merged")
		run(append([]string{"merge", "--out", merged}, dirs...)...)
		checkLog(merged)
		if got := standings(merged); !bytes.Equal(got, want) {
			t.Errorf("merged standings differ:\n%s\nwant:\n%s", got, want)
		}
		if _, err := os.Stat(filepath.Join(merged, "replays", "r003-beta-vs-gamma.json")); err != nil {
			t.Error(err)
		}
	})

	t.Run("re-judge killed -9 and resumed", func(t *testing.T) {
		// The same bots in another directory; alpha then changes (its
		// program gets a byte more: another sha256, the same play).
		bots2 := filepath.Join(tmp, "bots2")
		if err := os.MkdirAll(bots2, 0o755); err != nil {
			t.Fatal(err)
		}
		for _, n := range []string{"alpha", "beta", "gamma"} {
			b, _ := os.ReadFile(filepath.Join(bots, n))
			if err := os.WriteFile(filepath.Join(bots2, n), b, 0o755); err != nil {
				t.Fatal(err)
			}
		}
		dir := filepath.Join(tmp, "rejudged")
		a := func() []string {
			return []string{"tournament", "--game", "tictactoe", "--rounds", "6", "--seed", "11", "--jobs", "2", "--out", dir, "--bots", bots2}
		}
		run(a()...)
		count := func() int {
			b, _ := os.ReadFile(filepath.Join(dir, tournament.LogName))
			return bytes.Count(b, []byte(`"kind":"match"`))
		}
		f, err := os.OpenFile(filepath.Join(bots2, "alpha"), os.O_WRONLY|os.O_APPEND, 0)
		if err != nil {
			t.Fatal(err)
		}
		f.Write([]byte{0})
		f.Close()

		cmd := exec.Command(bin, a()...)
		cmd.Dir = root
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		deadline := time.Now().Add(60 * time.Second)
		for count() < total+4 {
			if time.Now().After(deadline) {
				cmd.Process.Kill()
				cmd.Wait()
				t.Fatalf("no matches played again in time\n%s", out.String())
			}
			time.Sleep(2 * time.Millisecond)
		}
		if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
		err = cmd.Wait()
		if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() {
			t.Fatalf("the judge was not killed (%v): it finished first\n%s", err, out.String())
		}
		// alpha's 24 matches are played again, whatever the kill left.
		const alphas = 24
		if n := count(); n >= total+alphas {
			t.Fatalf("all of alpha's matches were played again before the kill (%d records)", n)
		}
		msg := run(a()...)
		if !strings.Contains(msg, "matches of alpha (changed)") || !strings.Contains(msg, "alpha has changed") {
			t.Errorf("output:\n%s", msg)
		}
		recs, bad, err := tournament.ReadLog(filepath.Join(dir, tournament.LogName))
		if err != nil || bad != 0 {
			t.Fatalf("%v, %d bad lines", err, bad)
		}
		seen := map[string]bool{}
		n := 0
		for _, r := range recs {
			if r.Kind != tournament.KindMatch {
				continue
			}
			n++
			key := r.Match.ID + strings.Join(r.Match.SHA256, ",")
			if seen[key] {
				t.Errorf("%s recorded twice by the same programs", r.Match.ID)
			}
			seen[key] = true
		}
		if n != total+alphas {
			t.Errorf("%d match records, want %d and alpha's %d again", n, total, alphas)
		}
		// The same play: the standings are the reference's, but for the
		// note of what was played again.
		var got, ref map[string]any
		if err := json.Unmarshal(standings(dir), &got); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(want, &ref); err != nil {
			t.Fatal(err)
		}
		if _, ok := got["replayed"]; !ok {
			t.Errorf("standings.json says nothing of the matches played again")
		}
		delete(got, "replayed")
		if !reflect.DeepEqual(got, ref) {
			t.Errorf("standings after re-judging differ:\n%s\nwant:\n%s", standings(dir), want)
		}

		// --fresh moves it all aside and plays the 36 matches.
		msg = run(append(a(), "--fresh")...)
		if !strings.Contains(msg, "36 matches played") || !strings.Contains(msg, "moved to") {
			t.Errorf("--fresh output:\n%s", msg)
		}
		checkLog(dir)
	})

	t.Run("torn last record", func(t *testing.T) {
		log := filepath.Join(ref, tournament.LogName)
		b, _ := os.ReadFile(log)
		// Cut the last record in half, as a crash in mid-write would.
		last := bytes.LastIndexByte(b[:len(b)-1], '\n') + 1
		cut := last + (len(b)-last)/2
		if err := os.WriteFile(log, b[:cut], 0o644); err != nil {
			t.Fatal(err)
		}
		msg := run(args(ref)...)
		if !strings.Contains(msg, "dropped 1 damaged record") || !strings.Contains(msg, "1 matches played") {
			t.Errorf("output:\n%s", msg)
		}
		checkLog(ref)
		if got := standings(ref); !bytes.Equal(got, want) {
			t.Errorf("standings after repair differ:\n%s\nwant:\n%s", got, want)
		}
	})
}

// SIGTERM ends a tournament whose bots hold their turns within a moment:
// the bots are killed, nothing is half-written, and running the command
// again resumes.
func TestSigtermEndsTournament(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the judge and plays real matches")
	}
	root := judgetest.Root(t)
	tmp := openTempDir(t)
	bin := buildJudge(t, tmp)
	bot := filepath.Join(tmp, "stubborn.py")
	src, err := os.ReadFile(filepath.Join(root, "judge/procbot/testdata/never_end.py"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bot, src, 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(tmp, "out")
	cmd := exec.Command(bin, "tournament", "--game", "tictactoe", "--seed", "1", "--jobs", "2", "--out", out,
		"--turn", "1m", "--first-turn", "1m", "python3 "+bot, "python3 "+bot)
	cmd.Dir = root
	var log bytes.Buffer
	cmd.Stdout, cmd.Stderr = &log, &log
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// The matches have started once the log has its run record.
	deadline := time.Now().Add(30 * time.Second)
	for {
		recs, _, _ := tournament.ReadLog(filepath.Join(out, tournament.LogName))
		if len(recs) >= 2 || time.Now().After(deadline) {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	time.Sleep(500 * time.Millisecond)
	start := time.Now()
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err = <-done:
	case <-time.After(20 * time.Second):
		_ = cmd.Process.Kill()
		<-done
		t.Fatalf("the judge did not end within 20s of SIGTERM:\n%s", log.String())
	}
	el := time.Since(start)
	t.Logf("ended %v after SIGTERM (%v)", el.Round(time.Millisecond), err)
	if el > 10*time.Second {
		t.Errorf("the judge took %v to end after SIGTERM", el)
	}
	if err == nil || !strings.Contains(log.String(), "interrupted") {
		t.Errorf("exit %v; output:\n%s", err, log.String())
	}
	tmps, _ := filepath.Glob(filepath.Join(out, "replays", "*.tmp"))
	if len(tmps) > 0 {
		t.Errorf("half-written files: %v", tmps)
	}
	if _, bad, err := tournament.ReadLog(filepath.Join(out, tournament.LogName)); err != nil || bad != 0 {
		t.Errorf("the results log: %v, %d bad lines", err, bad)
	}
	// No bot outlives the judge.
	deadline = time.Now().Add(5 * time.Second)
	for {
		left := judgetest.Running(bot)
		if len(left) == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Errorf("bots still running: %v", left)
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
}
