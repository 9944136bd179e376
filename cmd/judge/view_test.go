package main

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"judge/judge"
	"judge/judge/judgetest"
)

// TestViewAndReplay: of one recorded match, judge replay --trace prints
// each turn's transcript under the turn, and judge view writes a page
// holding the decoded replay; a replay the rules contradict is refused.
func TestViewAndReplay(t *testing.T) {
	strong := quote(judgetest.Bot(t, "examples/gomoku/strong"))
	c := quote(judgetest.Bot(t, "examples/gomoku/random.c"))
	dir := t.TempDir()
	replay := filepath.Join(dir, "r.json")
	if code, _, errs := run(t, "match", "--game", "tictactoe", "--seed", "1", "--trace", "--replay", replay, strong, c); code != 0 {
		t.Fatalf("match: exit %d: %s", code, errs)
	}
	code, out, errs := run(t, "replay", "--trace", replay)
	if code != 0 {
		t.Fatalf("replay: exit %d: %s", code, errs)
	}
	t1, t2 := strings.Index(out, "turn 1\n"), strings.Index(out, "turn 2\n")
	if t1 < 0 || t2 < t1 || !strings.Contains(out[t1:t2], "bot> #END") || !strings.Contains(out[t1:t2], "bot> PlaceSymbol") {
		t.Errorf("turn 1 does not show its transcript:\n%s", out)
	}

	code, out, errs = run(t, "view", replay)
	if code != 0 || strings.TrimSpace(out) != filepath.Join(dir, "r.html") {
		t.Fatalf("view: exit %d, %q, %s", code, out, errs)
	}
	page, err := os.ReadFile(filepath.Join(dir, "r.html"))
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{`<script id="replay-data" type="application/json">{"game":"tictactoe"`, "<canvas", "window.viewer"} {
		if !strings.Contains(string(page), w) {
			t.Errorf("the page lacks %q", w)
		}
	}
	for _, w := range []string{"http://", "https://", "<link", "src="} {
		if strings.Contains(string(page), w) {
			t.Errorf("the page refers outside itself: %q", w)
		}
	}
	if code, _, errs := run(t, "view", "-o", filepath.Join(dir, "x.html"), replay); code != 0 {
		t.Fatalf("view -o: exit %d: %s", code, errs)
	}
	if _, err := os.Stat(filepath.Join(dir, "x.html")); err != nil {
		t.Error(err)
	}

	// What a tournament calls to watch a replay: the page is written
	// beside it, then the desktop is asked for a browser (here: true).
	if err := os.Remove(filepath.Join(dir, "r.html")); err != nil {
		t.Fatal(err)
	}
	defer func(o string) { opener = o }(opener)
	opener = "true"
	if err := openReplay(replay); err != nil {
		t.Errorf("openReplay: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "r.html")); err != nil {
		t.Errorf("openReplay wrote no page: %v", err)
	}

	// The same replay with another winner.
	f, err := os.Open(replay)
	if err != nil {
		t.Fatal(err)
	}
	rp, err := judge.ReadReplay(f)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	rp.Outcome.Winner = 1 - rp.Outcome.Winner
	bad := filepath.Join(dir, "bad.json")
	if err := judge.WriteReplay(bad, rp); err != nil {
		t.Fatal(err)
	}
	for _, cmd := range []string{"view", "replay"} {
		if code, _, errs := run(t, cmd, bad); code != 1 || !strings.Contains(errs, "winner") {
			t.Errorf("%s of a contradicted replay: exit %d, %q", cmd, code, errs)
		}
	}
	if code, _, _ := run(t, "view"); code != 2 {
		t.Errorf("view with no replay: exit %d, want 2", code)
	}
}

// TestServe: judge serve listens on the loopback address, prints its
// URL, serves the directory's status, and stops when interrupted.
func TestServe(t *testing.T) {
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	pr, pw := io.Pipe()
	done := make(chan int, 1)
	go func() {
		code := (&Main{Stdout: pw, Stderr: io.Discard, Host: judgetest.Host()}).Run(ctx, []string{"serve", dir})
		pw.Close()
		done <- code
	}()
	line, err := bufio.NewReader(pr).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	go io.Copy(io.Discard, pr)
	i := strings.Index(line, "http://127.0.0.1:")
	if i < 0 {
		t.Fatalf("no loopback URL in %q", line)
	}
	url := strings.Fields(line[i:])[0]
	resp, err := http.Get(url + "api/status")
	if err != nil {
		t.Fatal(err)
	}
	var st struct{ Header any }
	err = json.NewDecoder(resp.Body).Decode(&st)
	resp.Body.Close()
	if err != nil || resp.StatusCode != 200 || st.Header != nil {
		t.Errorf("status: %d, %+v, %v", resp.StatusCode, st, err)
	}
	cancel()
	select {
	case code := <-done:
		if code != 0 {
			t.Errorf("exit %d after the interrupt", code)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("judge serve did not stop when interrupted")
	}
	if code, _, _ := run(t, "serve", filepath.Join(dir, "none")); code != 1 {
		t.Errorf("serve of a missing directory: exit %d, want 1", code)
	}
}
