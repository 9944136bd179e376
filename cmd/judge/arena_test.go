//go:build unix

package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"mime/multipart"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"judge/judge/arena"
	"judge/judge/judgetest"
)

// The arena from the command line: made, entrants added (a token as the
// last word), bots submitted and played; then its final equals judge
// tournament on the same submissions and seed, file for file.
func TestArenaFinal(t *testing.T) {
	if testing.Short() {
		t.Skip("plays real matches")
	}
	judgetest.NeedTools(t, "gcc")
	root := judgetest.Root(t)
	tmp := judgetest.TempDir(t)
	dir := filepath.Join(tmp, "arena")
	random := filepath.Join(root, "examples/gomoku/random.c")
	if code, _, errs := run(t, "arena", "init", "--game", "tictactoe", "--ref", random, "--test-matches", "1", dir); code != 0 {
		t.Fatalf("arena init: %d\n%s", code, errs)
	}
	src, err := os.ReadFile(random)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	names := []string{"alice", "bob", "carol"}
	tokens := map[string]string{}
	for _, n := range names {
		code, out, errs := run(t, "arena", "add", dir, n)
		if code != 0 {
			t.Fatalf("arena add %s: %d\n%s", n, code, errs)
		}
		f := strings.Fields(strings.TrimSpace(out))
		tokens[n] = f[len(f)-1]
	}
	if code, _, _ := run(t, "arena", "add", dir, "alice"); code == 0 {
		t.Error("alice added twice")
	}
	a, err := arena.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range names {
		e, err := a.Authenticate(ctx, tokens[n])
		if err != nil || e.Name != n {
			t.Fatalf("%s's token: %+v, %v", n, e, err)
		}
		// Three programs: the same moves, another comment.
		if _, err := a.Submit(ctx, e, arena.Upload{FileName: "bot.c", Data: append([]byte("/* "+n+" */\n"), src...)}); err != nil {
			t.Fatal(err)
		}
	}
	playLadder(ctx, t, a, 2, 3, 3)
	code, out, errs := run(t, "arena", "list", dir)
	if code != 0 || strings.Count(out, "on the ladder") != 3 || !regexp.MustCompile(`W-D-L +failures`).MatchString(out) {
		t.Errorf("arena list: %d\n%s%s", code, out, errs)
	}

	final := filepath.Join(tmp, "final")
	if code, _, errs := run(t, "arena", "final", dir, "--out", final, "--seed", "7", "--quiet"); code != 0 {
		t.Fatalf("arena final: %d\n%s", code, errs)
	}
	plain := filepath.Join(tmp, "plain")
	args := []string{"tournament", "--game", "tictactoe", "--seed", "7", "--quiet", "--out", plain}
	for i, n := range names {
		args = append(args, filepath.Join(dir, "submissions", string(rune('1'+i)), n))
	}
	if code, _, errs := run(t, args...); code != 0 {
		t.Fatalf("judge tournament: %d\n%s", code, errs)
	}
	for _, f := range []string{"standings.json", "standings.csv", "standings.md"} {
		x, err1 := os.ReadFile(filepath.Join(final, f))
		y, err2 := os.ReadFile(filepath.Join(plain, f))
		if err1 != nil || err2 != nil {
			t.Fatal(err1, err2)
		}
		if !bytes.Equal(x, y) {
			t.Errorf("%s differs:\nfinal:\n%s\njudge tournament:\n%s", f, x, y)
		}
	}
	if !bytes.Contains(mustRead(t, filepath.Join(final, "standings.csv")), []byte("alice")) {
		t.Error("the final's standings do not name alice")
	}
	rs, _ := filepath.Glob(filepath.Join(final, "replays", "*.json"))
	if len(rs) != 6 {
		t.Errorf("%d replays in the final, want 6", len(rs))
	}
	// Submissions are closed.
	a, err = arena.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	e, _ := a.Authenticate(ctx, tokens["alice"])
	if _, err := a.Submit(ctx, e, arena.Upload{FileName: "bot.c", Data: src}); err == nil {
		t.Error("a submission after the final was taken")
	}
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// judge arena serve takes uploads over HTTP and plays the ladder; killed
// with SIGKILL (its bots with it) and started again, it has lost no
// submission and no finished match, and the ladder goes on.
func TestArenaServeKill(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the judge and plays real matches")
	}
	judgetest.NeedTools(t, "gcc")
	root := judgetest.Root(t)
	tmp := judgetest.TempDir(t)
	bin := judgeProgram(t)
	dir := filepath.Join(tmp, "arena")
	random := filepath.Join(root, "examples/gomoku/random.c")
	if code, _, errs := run(t, "arena", "init", "--game", "tictactoe", "--ref", random, "--test-matches", "2", dir); code != 0 {
		t.Fatalf("arena init: %d\n%s", code, errs)
	}
	var tokens []string
	for _, n := range []string{"alice", "bob"} {
		_, out, _ := run(t, "arena", "add", dir, n)
		f := strings.Fields(out)
		tokens = append(tokens, f[len(f)-1])
	}
	serve := func() (*exec.Cmd, string) {
		t.Helper()
		cmd := exec.Command(bin, "arena", "serve", dir, "--jobs", "2")
		cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL); cmd.Wait() })
		line, err := bufio.NewReader(out).ReadString('\n')
		if err != nil {
			t.Fatalf("judge arena serve: %v", err)
		}
		f := strings.Fields(line)
		if len(f) < 4 || !strings.HasPrefix(f[3], "http://127.0.0.1:") {
			t.Fatalf("judge arena serve says %q", line)
		}
		return cmd, f[3]
	}
	cmd, url := serve()
	for _, tok := range tokens {
		var body bytes.Buffer
		mw := multipart.NewWriter(&body)
		fw, _ := mw.CreateFormFile("file", "bot.c")
		fw.Write(mustRead(t, random))
		mw.Close()
		req, _ := http.NewRequest("POST", url+"api/submissions", &body)
		req.Header.Set("Content-Type", mw.FormDataContentType())
		req.Header.Set("Authorization", "Bearer "+tok)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode/100 != 2 {
			t.Fatalf("upload: %s", resp.Status)
		}
	}
	matches := func() int {
		resp, err := http.Get(url + "api/standings")
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var st struct{ Matches int }
		if err := json.NewDecoder(resp.Body).Decode(&st); err != nil {
			t.Fatal(err)
		}
		return st.Matches
	}
	waitUntil := func(what string, cond func() bool) {
		t.Helper()
		deadline := time.Now().Add(2 * time.Minute)
		for !cond() {
			if time.Now().After(deadline) {
				t.Fatalf("waited in vain for %s", what)
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	seen := 0
	waitUntil("ladder matches", func() bool { seen = matches(); return seen >= 5 })
	syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	cmd.Wait()

	a, err := arena.Open(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	n, st, err := a.Standings(context.Background())
	a.Close()
	if err != nil || n < seen || len(st) != 2 {
		t.Fatalf("after kill -9: %d ladder matches (%d seen before), standings %+v, %v", n, seen, st, err)
	}
	_, url = serve()
	waitUntil("the ladder to go on", func() bool { return matches() >= n+5 })
}

// --web-bots lists where web bots may be, comma-separated or repeated;
// an entry that is not a network or a host stops init.
// arena init --failing-joins-ladder is failing_joins_ladder in arena.toml.
func TestArenaInitFailing(t *testing.T) {
	dir := filepath.Join(judgetest.TempDir(t), "arena")
	if code, _, errs := run(t, "arena", "init", "--game", "tictactoe", "--failing-joins-ladder", dir); code != 0 {
		t.Fatalf("arena init: %d\n%s", code, errs)
	}
	toml, err := os.ReadFile(filepath.Join(dir, "arena.toml"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(toml), "failing_joins_ladder = true") || !strings.Contains(string(toml), "test_matches = 2") {
		t.Errorf("arena.toml:\n%s", toml)
	}
}

func TestArenaInitWebBots(t *testing.T) {
	tmp := judgetest.TempDir(t)
	dir := filepath.Join(tmp, "arena")
	if code, _, errs := run(t, "arena", "init", "--game", "tictactoe", "--web-bots", "10.0.0.0/24, bots.example.org", "--web-bots", "127.0.0.1/32", dir); code != 0 {
		t.Fatalf("arena init: %d\n%s", code, errs)
	}
	a, err := arena.Open(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	if got, want := strings.Join(a.Config().WebBots, " "), "10.0.0.0/24 bots.example.org 127.0.0.1/32"; got != want {
		t.Errorf("web bots %q, want %q", got, want)
	}
	if a.Config().FailingJoinsLadder {
		t.Error("failing submissions join the ladder by default")
	}
	code, _, errs := run(t, "arena", "init", "--game", "tictactoe", "--web-bots", "http://127.0.0.1:8080/", filepath.Join(tmp, "other"))
	if code == 0 || !strings.Contains(errs, "not a URL") {
		t.Errorf("arena init with a URL for --web-bots: %d %q", code, errs)
	}
}

// playLadder runs a's ladder, jobs matches at once, until bots
// submissions stand on it after at least matches matches (two minutes at
// most), then stops it and closes a.
func playLadder(ctx context.Context, t *testing.T, a *arena.Arena, jobs, bots, matches int) {
	t.Helper()
	rctx, cancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- a.Run(rctx, jobs) }()
	deadline := time.Now().Add(2 * time.Minute)
	for {
		n, st, err := a.Standings(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if len(st) == bots && n >= matches {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no ladder: %d matches, %+v", n, st)
		}
		time.Sleep(50 * time.Millisecond)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	a.Close()
}
