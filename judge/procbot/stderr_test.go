//go:build unix

package procbot_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"judge/judge"
	"judge/judge/judgetest"
	"judge/judge/procbot"
)

const stderrBot = "judge/procbot/testdata/stderr_turns.py"

// TestTurnStderr: with a trace, every turn of a bot that writes to its
// stderr during its turns holds what it wrote then; the turn it wrote
// more than the judge keeps of a turn holds the first TraceTurnBytes and
// how many bytes were cut.
func TestTurnStderr(t *testing.T) {
	t.Parallel()
	res := play(t, "tictactoe", 1, nil, stderrBot, randomPy)
	turns := 0
	for _, tr := range res.Replay.Turns {
		for _, m := range tr.Moves {
			if m.Seat != 0 {
				if m.Stderr != "" || m.StderrCut != 0 {
					t.Errorf("turn %d: seat %d wrote nothing on stderr, the replay says %q (%d cut)", tr.Turn, m.Seat, m.Stderr, m.StderrCut)
				}
				continue
			}
			if m.Status != judge.OK {
				t.Fatalf("turn %d: %s %s", tr.Turn, m.Status, m.Reason)
			}
			turns++
			want := fmt.Sprintf("turn %d\n", tr.Turn)
			switch turns {
			case 1:
				want = "starting\n" + want
			case 2:
				written := int64(len(want)) + 300000
				if len(m.Stderr) != judge.TraceTurnBytes || !strings.HasPrefix(m.Stderr, want+"yyy") || m.StderrCut != written-judge.TraceTurnBytes {
					t.Errorf("turn %d: %d bytes kept starting %q, %d cut; want %d kept starting %q, %d cut",
						tr.Turn, len(m.Stderr), m.Stderr[:min(20, len(m.Stderr))], m.StderrCut, judge.TraceTurnBytes, want, written-judge.TraceTurnBytes)
				}
				continue
			}
			if m.Stderr != want || m.StderrCut != 0 {
				t.Errorf("turn %d: stderr %q (%d cut), want %q", tr.Turn, m.Stderr, m.StderrCut, want)
			}
		}
	}
	if turns < 3 {
		t.Errorf("the bot moved in %d turns", turns)
	}
}

// TestTurnStderrUntraced: without a trace, the turns hold no stderr (the
// bot's tail is kept as always).
func TestTurnStderrUntraced(t *testing.T) {
	t.Parallel()
	res := play(t, "tictactoe", 1, func(m *judgetest.Setup) { m.Trace = false }, stderrBot, randomPy)
	for _, tr := range res.Replay.Turns {
		for _, m := range tr.Moves {
			if m.Stderr != "" || m.StderrCut != 0 {
				t.Errorf("turn %d, seat %d: stderr %q without a trace", tr.Turn, m.Seat, m.Stderr)
			}
		}
	}
	if b := res.Replay.Bots[0]; b.StderrBytes < 300000 || !strings.Contains(b.Stderr, "yyy") {
		t.Errorf("the bot's stderr: %d bytes in all, a tail of %d bytes", b.StderrBytes, len(b.Stderr))
	}
}

// A crash's reason and the stderr a replay keeps name the bot's files
// relative to its directory, as its author knows them: a Python
// traceback says File "bot.py", not the path of the directory the judge
// built it in.
func TestCrashReasonPathsAreRelative(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "builds", "key", "src")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for d := dir; d != os.TempDir() && d != "/"; d = filepath.Dir(d) {
		if err := os.Chmod(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	bot := filepath.Join(dir, "bot.py")
	if err := os.WriteFile(bot, []byte("import sys\n\n\nraise RuntimeError('no idea how to play')\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tr := playTurn(t, procbot.Spec{Name: "bot", Argv: []string{"python3", bot}, Dir: dir}, procbot.Options{Host: judgetest.Host()}, 20*time.Second)
	if tr.status != judge.Crash || !strings.Contains(tr.reason, `File "bot.py", line 4`) || strings.Contains(tr.reason, dir) {
		t.Errorf("%s: %s; want a crash whose traceback names bot.py, not %s", tr.status, tr.reason, dir)
	}
	// The stderr a replay keeps, too.
	if s := string(tr.final.Stderr); !strings.Contains(s, `File "bot.py", line 4`) || strings.Contains(s, dir) {
		t.Errorf("the stderr kept: %q; want the traceback naming bot.py, not %s", s, dir)
	}
}
