package tournament

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"judge/games/catalog"
	"judge/judge"
	"judge/judge/judgetest"
	"judge/judge/standings"
)

// raceEnabled says the tests run under the race detector (race_test.go).
var raceEnabled = false

// copies puts n copies of the program under dir, named bot0, bot1, …
func copies(t testing.TB, exe, dir string, n int) []string {
	t.Helper()
	var args []string
	for i := range n {
		p := filepath.Join(dir, fmt.Sprintf("bot%d", i))
		if err := copyFile(exe, p); err != nil {
			t.Fatal(err)
		}
		args = append(args, p)
	}
	return args
}

// timeouts counts the seats that timed out, and says why.
func timeouts(st *Standings, out string) (int, []string) {
	recs, _, _ := ReadLog(filepath.Join(out, LogName))
	n := 0
	var why []string
	for _, r := range recs {
		if r.Kind != KindMatch {
			continue
		}
		for _, p := range r.Match.Players {
			if p.Status == judge.Timeout {
				n++
				why = append(why, p.Reason)
			}
		}
	}
	return n, why
}

// The fair clock: many matches at once on this machine's CPUs, with a
// 20 ms limit, and random bots that use next to no CPU: the machine's
// lateness must never be charged to them.
func TestNoFalseTimeouts(t *testing.T) {
	if testing.Short() {
		t.Skip("a loaded tournament")
	}
	exe := judgetest.Bot(t, "examples/gomoku/random.c")[0]
	dir := tempDir(t)
	out := filepath.Join(dir, "out")
	o := options(t, out, filepath.Join(dir, "cache"), copies(t, exe, dir, 3))
	o.Rounds, o.Jobs = 10, 8
	o.Match.Limits.Turn = 20 * time.Millisecond
	if raceEnabled {
		// The race detector makes the judge itself ten times slower.
		o.Match.Limits.Turn = 100 * time.Millisecond
	}
	st, err := Run(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	if n, why := timeouts(st, out); n > 0 {
		t.Errorf("%d timeouts of bots that use no CPU, at 8 jobs: %q", n, why[:min(3, len(why))])
	}
}

// A bot that really computes past its limit is still caught, and the
// reason gives the figures.
func TestSpinnerCaught(t *testing.T) {
	spin := judgetest.Bot(t, "judge/procbot/testdata/spin.c")[0]
	random := judgetest.Bot(t, "examples/gomoku/random.c")[0]
	dir := tempDir(t)
	out := filepath.Join(dir, "out")
	args := []string{copies(t, spin, dir, 1)[0], filepath.Join(dir, "random")}
	if err := copyFile(random, args[1]); err != nil {
		t.Fatal(err)
	}
	o := options(t, out, filepath.Join(dir, "cache"), args)
	o.Rounds = 1
	o.Match.Limits.Turn = 100 * time.Millisecond // it computes 300 ms a turn
	st, err := Run(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	n, why := timeouts(st, out)
	if n != 2 || !slices.ContainsFunc(why, func(r string) bool {
		// At its limit of its own time, or, on a machine so busy that the
		// judge cannot tell, at the wall-clock cap.
		return (strings.Contains(r, "within 100ms of its own time") || strings.Contains(r, "3× its limit, of wall-clock time")) && strings.Contains(r, "of CPU")
	}) {
		t.Errorf("%d timeouts: %q", n, why)
	}
}

// BenchmarkFalseTimeouts: random C bots with a 20 ms limit at 1, 2, 4 and
// 8 jobs (goal: no timeout at all), and a bot that spins 300 ms a turn
// with a 100 ms limit, caught at how many times its limit (goal ≤ 1.1×).
func BenchmarkFalseTimeouts(b *testing.B) {
	exe := judgetest.Bot(b, "examples/gomoku/random.c")[0]
	dir := tempDir(b)
	args := copies(b, exe, dir, 3)
	for _, jobs := range []int{1, 2, 4, 8} {
		b.Run(fmt.Sprintf("jobs=%d", jobs), func(b *testing.B) {
			total := 0
			for i := 0; i < b.N; i++ {
				out := filepath.Join(tempDir(b), "out")
				o := options(b, out, filepath.Join(dir, "cache"), args)
				o.Rounds, o.Jobs = 10, jobs
				o.Match.Limits.Turn = 20 * time.Millisecond
				st, err := Run(context.Background(), o)
				if err != nil {
					b.Fatal(err)
				}
				n, _ := timeouts(st, out)
				total += n
			}
			b.ReportMetric(float64(total)/float64(b.N), "timeouts/60-matches")
		})
	}
	b.Run("spinner", func(b *testing.B) {
		spin := judgetest.Bot(b, "judge/procbot/testdata/spin.c")[0]
		sdir := tempDir(b)
		args := []string{copies(b, spin, sdir, 1)[0], args[0]}
		var ratio float64
		for i := 0; i < b.N; i++ {
			out := filepath.Join(tempDir(b), "out")
			o := options(b, out, filepath.Join(sdir, "cache"), args)
			o.Rounds = 1
			o.Match.Limits.Turn = 100 * time.Millisecond
			if _, err := Run(context.Background(), o); err != nil {
				b.Fatal(err)
			}
			recs, _, _ := ReadLog(filepath.Join(out, LogName))
			for _, r := range recs {
				if r.Kind != KindMatch {
					continue
				}
				rp, err := readReplayFile(filepath.Join(out, r.Match.Replay))
				if err != nil {
					b.Fatal(err)
				}
				for _, t := range rp.Turns {
					for _, mv := range t.Moves {
						if mv.Status == judge.Timeout {
							ratio = max(ratio, float64(mv.WallUS-mv.WaitUS)/100e3)
						}
					}
				}
			}
		}
		b.ReportMetric(ratio, "own-time/limit")
	})
}

func readReplayFile(path string) (*judge.Replay, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return judge.ReadReplay(f)
}

// A tournament of bots of every kind at once: a program, a web bot
// (botsarena's kind: a PHP script served by php -S) and a player written
// for the Ruby contest, in Battleship.
func TestMixedTournament(t *testing.T) {
	judgetest.NeedTools(t, "php", "ruby")
	root := judgetest.Root(t)
	addr := judgetest.PHPServer(t, filepath.Join(root, "examples/battleship/web"))
	exe := judgetest.Bot(t, "examples/battleship/random.c")[0]
	dir := tempDir(t)
	out := filepath.Join(dir, "out")
	rb := filepath.Join(dir, "corner_player.rb")
	if err := copyFile(filepath.Join(root, "judge/procbot/testdata/rubycontest/corner_player.rb"), rb); err != nil {
		t.Fatal(err)
	}
	if err := os.CopyFS(filepath.Join(dir, "lib"), os.DirFS(filepath.Join(root, "judge/procbot/testdata/rubycontest/lib"))); err != nil {
		t.Fatal(err)
	}
	if err := chmodTree(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	args := []string{copies(t, exe, dir, 1)[0], "http://" + addr + "/random.php", "ruby-contest:" + rb}
	o := options(t, out, filepath.Join(dir, "cache"), args)
	v, err := catalog.Lookup("battleship-botsarena")
	if err != nil {
		t.Fatal(err)
	}
	o.Match = judge.Match{Game: v.Game, Name: v.Name, Params: v.Params, Limits: judge.DefaultTurnLimits}
	o.Rounds = 1
	st, err := Run(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	recs, _, _ := ReadLog(filepath.Join(out, LogName))
	matches := 0
	for _, r := range recs {
		if r.Kind != KindMatch {
			continue
		}
		matches++
		for _, p := range r.Match.Players {
			if p.Status != judge.OK {
				t.Errorf("%s: %s %s: %s", r.Match.ID, p.Name, p.Status, p.Reason)
			}
		}
	}
	if matches != 6 || len(st.Standings) != 3 {
		t.Errorf("%d matches, %d rows in the standings", matches, len(st.Standings))
	}
	// The web bot is known by its address, as in judge match.
	if !slices.ContainsFunc(st.Standings, func(r standings.Standing) bool { return r.Name == addr+"/random.php" }) {
		t.Errorf("no row for %s/random.php in %+v", addr, st.Standings)
	}
}
