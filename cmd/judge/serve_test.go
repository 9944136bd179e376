package main

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"judge/games/catalog"
	"judge/games/plugin/plugintest"
	"judge/judge/judgetest"
)

// judge serve refuses to listen beyond the loopback address unless told
// so with --public, before it listens at all.
func TestServeBeyondLoopback(t *testing.T) {
	dir := t.TempDir()
	for _, addr := range []string{"0.0.0.0:0", ":0", "[::]:0", "192.0.2.1:0"} {
		code, _, errs := run(t, "serve", "--addr", addr, dir)
		if code != 2 || !strings.Contains(errs, "beyond the loopback address") || !strings.Contains(errs, "--public") {
			t.Errorf("serve --addr %s: exit %d, %q", addr, code, errs)
		}
	}
}

// judge serve on a loopback name answers requests addressed to it, and
// refuses those addressed to another name (DNS rebinding).
func TestServeHost(t *testing.T) {
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	pr, pw := io.Pipe()
	var errb strings.Builder
	done := make(chan int, 1)
	go func() {
		code := (&Main{Stdout: pw, Stderr: &errb, Host: judgetest.Host()}).Run(ctx, []string{"serve", "--addr", "localhost:0", dir})
		pw.Close()
		done <- code
	}()
	line, err := bufio.NewReader(pr).ReadString('\n')
	if err != nil {
		t.Fatalf("%v: %s", err, errb.String())
	}
	go io.Copy(io.Discard, pr)
	i := strings.Index(line, "http://")
	if i < 0 {
		t.Fatalf("no URL in %q", line)
	}
	url := strings.Fields(line[i:])[0]
	port := url[strings.LastIndex(url, ":")+1 : len(url)-1]
	for host, want := range map[string]int{
		"":                         http.StatusOK,
		"localhost:" + port:        http.StatusOK,
		"attacker.example:" + port: http.StatusMisdirectedRequest,
	} {
		req, _ := http.NewRequest("GET", url+"files/standings.md", nil)
		req.Host = host
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		// No standings yet: 404 is an answer, 421 a refusal.
		if got := resp.StatusCode; (want == http.StatusOK) != (got != http.StatusMisdirectedRequest) {
			t.Errorf("Host %q: %d", host, got)
		}
	}
	cancel()
	select {
	case code := <-done:
		if code != 0 || strings.Contains(errb.String(), "warning") {
			t.Errorf("exit %d, %q", code, errb.String())
		}
	case <-time.After(10 * time.Second):
		t.Fatal("judge serve did not stop when interrupted")
	}
}

// judge serve refuses a directory that is neither a tournament nor holds
// any, rather than wait for one, and says how many a folder holds.
func TestServeFolder(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("notes"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errs := run(t, "serve", dir)
	if code != 1 || !strings.Contains(errs, "neither a tournament") || !strings.Contains(errs, "nor a folder of tournaments") {
		t.Errorf("serve of a directory with notes.txt: exit %d, %q", code, errs)
	}
	for _, d := range []string{"tictactoe", "week2/connect4"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, d, "results.log"), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	pr, pw := io.Pipe()
	var errb strings.Builder
	done := make(chan int, 1)
	go func() {
		code := (&Main{Stdout: pw, Stderr: &errb, Host: judgetest.Host()}).Run(ctx, []string{"serve", dir})
		pw.Close()
		done <- code
	}()
	line, err := bufio.NewReader(pr).ReadString('\n')
	if err != nil {
		t.Fatalf("%v: %s", err, errb.String())
	}
	go io.Copy(io.Discard, pr)
	if !strings.Contains(line, "a folder of 2 tournaments") || !strings.Contains(line, "http://127.0.0.1:") {
		t.Errorf("judge serve says %q", line)
	}
	cancel()
	if code := <-done; code != 0 {
		t.Errorf("exit %d, %q", code, errb.String())
	}
}

// judge serve takes --config, whose plugin games the viewer of the
// tournament's replays needs.
func TestServePluginConfig(t *testing.T) {
	src := plugintest.Connect4(t, false)
	root := t.TempDir()
	copyPluginGame(t, src, filepath.Join(root, "games", "c4"), "four-serve")
	cfg := filepath.Join(root, "t.toml")
	if err := os.WriteFile(cfg, []byte("game = \"four-serve\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(root, "results")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	pr, pw := io.Pipe()
	var errb strings.Builder
	done := make(chan int, 1)
	go func() {
		code := (&Main{Stdout: pw, Stderr: &errb, Host: judgetest.Host()}).Run(ctx, []string{"serve", "--config", cfg, dir})
		pw.Close()
		done <- code
	}()
	if _, err := bufio.NewReader(pr).ReadString('\n'); err != nil {
		t.Fatalf("%v: %s", err, errb.String())
	}
	go io.Copy(io.Discard, pr)
	if _, err := catalog.Lookup("four-serve"); err != nil {
		t.Errorf("the configuration's game: %v", err)
	}
	cancel()
	if code := <-done; code != 0 {
		t.Errorf("exit %d, %s", code, errb.String())
	}
}
