package play_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"testing/synctest"

	"judge/games/catalog"
	"judge/judge"
	"judge/judge/goplayer"
	"judge/judge/play"
)

// errSandbox stands for a bot's sandbox that failed under it: the
// judge's failure, no one's loss.
var errSandbox = errors.New("the sandbox failed")

// flaky is an entrant whose first fails starts fail with err; then it
// plays tic-tac-toe on the first empty cell.
type flaky struct {
	name   string
	fails  int
	err    error
	starts atomic.Int32
}

func (f *flaky) Info() (judge.BotInfo, error) {
	return judge.BotInfo{Name: f.name, Command: []string{"go:" + f.name}}, nil
}

func (f *flaky) Start(context.Context, judge.Seat) (judge.Player, error) {
	if int(f.starts.Add(1)) <= f.fails {
		return nil, fmt.Errorf("start %s: %w", f.name, f.err)
	}
	return goplayer.Start(firstEmpty, goplayer.Options{}), nil
}

// firstEmpty plays tic-tac-toe on the first empty cell, in reading order.
func firstEmpty(ctx context.Context, c *goplayer.Conn) error {
	for {
		b, err := c.Ask("Board")
		if err != nil {
			return err
		}
		x, y := -1, -1
	find:
		for row, line := range strings.Split(b, "\n") {
			for col, cell := range strings.Fields(line) {
				if cell == "-" {
					x, y = col, row
					break find
				}
			}
		}
		if err := c.Send(fmt.Sprintf("PlaceSymbol %d %d", x, y)); err != nil {
			return err
		}
		if err := c.End(); err != nil {
			return err
		}
	}
}

func ticTacToe(t *testing.T, a, b judge.Entrant) judge.Match {
	t.Helper()
	v, err := catalog.Lookup("tictactoe")
	if err != nil {
		t.Fatal(err)
	}
	p, err := v.Resolve(nil)
	if err != nil {
		t.Fatal(err)
	}
	return judge.Match{Game: v.Game, Name: v.Name, Params: p, Seed: 1, Limits: judge.DefaultTurnLimits, Entrants: []judge.Entrant{a, b}}
}

// TestMatchPlaysAgain: a match the judge failed under is played again
// while Retry tells its failure, Retries times at most, each failure
// told to Again; other failures end it at once.
func TestMatchPlaysAgain(t *testing.T) {
	isSandbox := func(err error) bool { return errors.Is(err, errSandbox) }
	other := errors.New("no such program")
	for _, c := range []struct {
		name      string
		fails     int
		err       error
		retry     func(error) bool
		wantErr   error // nil: played
		wantAgain int
	}{
		{"no failure", 0, errSandbox, isSandbox, nil, 0},
		{"two sandbox failures", 2, errSandbox, isSandbox, nil, 2},
		{"as many as it retries", play.Retries, errSandbox, isSandbox, nil, play.Retries},
		{"one more than it retries", play.Retries + 1, errSandbox, isSandbox, errSandbox, play.Retries},
		{"another failure", 1, other, isSandbox, other, 0},
		{"no retry", 1, errSandbox, nil, errSandbox, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				a := &flaky{name: "a", fails: c.fails, err: c.err}
				m := ticTacToe(t, a, &flaky{name: "b"})
				var again []error
				res, _, err := play.Match(t.Context(), m, play.Options{Retry: c.retry, Again: func(err error) { again = append(again, err) }})
				switch {
				case c.wantErr == nil && err != nil:
					t.Fatalf("Match: %v", err)
				case c.wantErr != nil && !errors.Is(err, c.wantErr):
					t.Fatalf("Match: %v, want %v", err, c.wantErr)
				case c.wantErr == nil && (res == nil || res.Winner != 0 || res.Turns != 7):
					t.Fatalf("result %+v, want seat 0 winning after 7 turns", res)
				}
				if len(again) != c.wantAgain {
					t.Errorf("told %d failures (%v), want %d", len(again), again, c.wantAgain)
				}
				for _, e := range again {
					if !errors.Is(e, errSandbox) {
						t.Errorf("told %v", e)
					}
				}
				if got, want := int(a.starts.Load()), min(c.fails, c.wantAgain+1)+boolInt(c.wantErr == nil); got != want {
					t.Errorf("started %d times, want %d", got, want)
				}
			})
		})
	}
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// TestMatchStopsWithItsContext: no match is played again once the
// context has ended.
func TestMatchStopsWithItsContext(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx, cancel := context.WithCancel(t.Context())
		tries := 0
		m := ticTacToe(t, &flaky{name: "a", fails: 10, err: errSandbox}, &flaky{name: "b"})
		_, _, err := play.Match(ctx, m, play.Options{
			Retry: func(error) bool { return true },
			Again: func(error) { tries++; cancel() },
		})
		if !errors.Is(err, errSandbox) || tries != 1 {
			t.Errorf("Match: %v after %d tries again, want the sandbox's failure after 1", err, tries)
		}
	})
}

// TestRecord: the replay is whole under its name before the record is
// made, and told its size; a replay that cannot be written makes no
// record; a record's failure is returned as it is.
func TestRecord(t *testing.T) {
	var res *judge.Result
	synctest.Test(t, func(t *testing.T) {
		var err error
		res, _, err = play.Match(t.Context(), ticTacToe(t, &flaky{name: "a"}, &flaky{name: "b"}), play.Options{})
		if err != nil {
			t.Fatal(err)
		}
	})
	dir := t.TempDir()
	path := filepath.Join(dir, "m1.json")
	want, err := judge.EncodeReplay(res.Replay)
	if err != nil {
		t.Fatal(err)
	}
	saved := false
	err = play.Record(path, res.Replay, func(size int64) error {
		saved = true
		b, err := os.ReadFile(path)
		if err != nil || string(b) != string(want) || size != int64(len(want)) {
			t.Errorf("at the record: replay of %d bytes (%v), size %d, want %d", len(b), err, size, len(want))
		}
		return nil
	})
	if err != nil || !saved {
		t.Fatalf("Record: %v, saved %v", err, saved)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if r, err := judge.ReadReplay(f); err != nil || r.Seed != res.Seed {
		t.Errorf("replay read back: %v", err)
	}

	saved = false
	err = play.Record(filepath.Join(dir, "missing", "m2.json"), res.Replay, func(int64) error { saved = true; return nil })
	if err == nil || saved {
		t.Errorf("Record into a missing directory: %v, saved %v", err, saved)
	}

	broken := errors.New("the log is full")
	if err := play.Record(filepath.Join(dir, "m3.json"), res.Replay, func(int64) error { return broken }); !errors.Is(err, broken) {
		t.Errorf("Record: %v, want the record's failure", err)
	}
	ents, _ := os.ReadDir(dir)
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	if strings.Join(names, " ") != "m1.json m3.json" {
		t.Errorf("files %v, want m1.json m3.json (no temporary file left)", names)
	}
}

// TestRemoveTemps: the temporary files a killed judge left go; replays
// stay.
func TestRemoveTemps(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"m1.json", "m2.json.123.tmp", "m3.json"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("{}"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	play.RemoveTemps(dir)
	ents, _ := os.ReadDir(dir)
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	if strings.Join(names, " ") != "m1.json m3.json" {
		t.Errorf("files %v, want m1.json m3.json", names)
	}
}
