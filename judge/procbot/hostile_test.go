//go:build unix

package procbot_test

import (
	"judge/sandbox/sandboxtest"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"judge/judge"
	"judge/judge/judgetest"
	"judge/sandbox"
)

// The sandbox's own suite (package sandbox) attacks it program by
// program; these tests play real matches through the judge with bots
// that cheat, at the strongest level this machine allows.

func requireIsolation(t *testing.T) {
	t.Helper()
	if r := judgetest.Host().Sandbox().Probe(); r.Level != sandbox.Full && r.Level != sandbox.Namespaces {
		sandboxtest.SkipLevel(t, "this machine isolates only at level %s:\n%s", r.Level, r)
	}
}

func TestMemoryBomb(t *testing.T) {
	t.Parallel()
	requireIsolation(t)
	res := play(t, "tictactoe", 1, nil, "judge/procbot/testdata/membomb.c", randomC)
	p := res.Players[0]
	if p.Status != judge.Memory && !(judgetest.Host().Sandbox().Probe().Level == sandbox.Namespaces && p.Status == judge.Crash) {
		t.Fatalf("got %s %q, want memory", p.Status, p.Reason)
	}
	if res.Winner != 1 {
		t.Errorf("winner %d, want 1", res.Winner)
	}
}

func TestCheatingBotIsContained(t *testing.T) {
	t.Parallel()
	requireIsolation(t)
	dir := t.TempDir()
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	secret := filepath.Join(dir, "secret.txt")
	if err := os.WriteFile(secret, []byte("the judge's secret"), 0o644); err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	accepted := make(chan struct{}, 1)
	go func() {
		if c, err := ln.Accept(); err == nil {
			c.Close()
			accepted <- struct{}{}
		}
	}()
	port := strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
	res := play(t, "tictactoe", 1, func(m *judgetest.Setup) {
		m.Proc.Env = map[string]string{"SECRET": secret, "PORT": port}
	}, "judge/procbot/testdata/snoop.py", randomC)
	if p := res.Players[0]; p.Status != judge.OK {
		t.Fatalf("the snooping bot: %s %s", p.Status, p.Reason)
	}
	report := res.Replay.Bots[0].Stderr
	for _, what := range []string{"read secret", "list judge dir", "connect loopback", "write own dir", "kill parent"} {
		if !strings.Contains(report, what+": denied") {
			t.Errorf("%s was not denied:\n%s", what, report)
		}
	}
	if !strings.Contains(report, "write tmp: allowed") {
		t.Errorf("a bot may write its private /tmp:\n%s", report)
	}
	select {
	case <-accepted:
		t.Error("the bot reached the test's loopback listener")
	case <-time.After(100 * time.Millisecond):
	}
	if _, err := os.Stat("/tmp/snoop"); err == nil {
		t.Error("the bot's /tmp/snoop is the machine's /tmp")
	}
}
