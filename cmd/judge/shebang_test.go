//go:build unix

package main

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"judge/judge/judgetest"
)

// judge match and judge tournament with a bot whose #! line names a FIFO
// end, and say why: the judge never opens the FIFO, whose open would wait
// for a writer, deaf to signals.
func TestShebangNamingAFIFOEnds(t *testing.T) {
	c := judgetest.Bot(t, "examples/gomoku/random.c")
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o755); err != nil {
		t.Fatal(err)
	}
	bots := filepath.Join(dir, "bots")
	if err := os.Mkdir(bots, 0o755); err != nil {
		t.Fatal(err)
	}
	bot := filepath.Join(bots, "fifo-bot")
	if err := os.WriteFile(bot, []byte("#!"+fifo+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(c[len(c)-1])
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(bots, "random"), b, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"match", "--game", "tictactoe", "--seed", "3", bot, quote(c)},
		{"tournament", "--game", "tictactoe", "--rounds", "1", "--seed", "3", "--out", filepath.Join(dir, "out"), "--bots", bots},
	} {
		t.Run(args[0], func(t *testing.T) {
			type result struct {
				code           int
				stdout, stderr string
			}
			done := make(chan result, 1)
			go func() {
				code, out, errs := run(t, args...)
				done <- result{code, out, errs}
			}()
			select {
			case r := <-done:
				all := r.stdout + r.stderr
				t.Logf("exit %d: %s", r.code, all)
				if !strings.Contains(all, fifo) || !strings.Contains(all, "FIFO") {
					t.Errorf("exit %d, and the output does not say that %s is a FIFO:\n%s", r.code, fifo, all)
				}
			case <-time.After(2 * time.Minute):
				// Let a judge that waits in the FIFO's open go.
				if f, err := os.OpenFile(fifo, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
					f.Close()
				}
				t.Fatalf("judge %s still runs after 2 minutes", args[0])
			}
		})
	}
}
