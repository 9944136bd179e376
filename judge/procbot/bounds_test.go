//go:build unix

package procbot_test

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"judge/judge"
	"judge/judge/judgetest"
	"judge/judge/procbot"
)

// levels are the sandbox levels this machine can run bots at, from none
// to the strongest.
func levels() []procbot.Level {
	all := []procbot.Level{procbot.None, procbot.Basic, procbot.Namespaces, procbot.Full}
	best := judgetest.Host().RunLevel(procbot.Auto)
	for i, l := range all {
		if l == best {
			return all[:i+1]
		}
	}
	return all[:1]
}

// No bot holds a match past its bounds: a bot that closes its stdout or
// stdin and computes on ends its seat at once (not at its time limit,
// which is long here), and a grandchild that escapes with the bot's
// stderr does not hold the end of the match. At every level.
func TestEveryWaitIsBounded(t *testing.T) {
	t.Parallel()
	const limit = 30 * time.Second // the bots would hold the match this long without the bounds
	for _, level := range levels() {
		t.Run(string(level), func(t *testing.T) {
			for _, tt := range []struct {
				name, bot string
				args      []string
				status    judge.Status
				reason    string
			}{
				{"closed stdout", "judge/procbot/testdata/closed.c", []string{"out"}, judge.Crash, "closed its standard output while still running: it was killed; stderr: closing my standard out"},
				{"closed stdin", "judge/procbot/testdata/closed.c", []string{"in"}, judge.Crash, "closed its standard input while still running"},
				{"escaped grandchild", "judge/procbot/testdata/escape.c", nil, judge.OK, ""},
			} {
				t.Run(tt.name, func(t *testing.T) {
					pidfile := filepath.Join(t.TempDir(), "pid")
					start := time.Now()
					res := judgetest.Play(t, "tictactoe", 1, func(m *judgetest.Setup) {
						m.Limits.Turn, m.Limits.FirstTurn = limit, limit
						m.Proc.Level = level
						m.Proc.Env = map[string]string{"PIDFILE": pidfile}
					}, judgetest.Spec(t, "bot", tt.bot, tt.args...), judgetest.Spec(t, "random", "examples/gomoku/random.c"))
					el := time.Since(start)
					if b, err := os.ReadFile(pidfile); err == nil {
						if pid, err := strconv.Atoi(string(b)); err == nil {
							_ = syscall.Kill(pid, syscall.SIGKILL) // the escaped grandchild, at level none
						}
					}
					t.Logf("%s at %s: %v: %s %s", tt.name, level, el.Round(time.Millisecond), res.Players[0].Status, res.Players[0].Reason)
					if p := res.Players[0]; p.Status != tt.status || !strings.Contains(p.Reason, tt.reason) {
						t.Errorf("got %s %q, want %s %q", p.Status, p.Reason, tt.status, tt.reason)
					}
					if el > limit/2 {
						t.Errorf("the match took %v: the bot held it", el)
					}
				})
			}
		})
	}
}
