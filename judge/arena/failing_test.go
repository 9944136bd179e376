//go:build unix

package arena_test

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"judge/judge/arena"
	"judge/judge/judgetest"
)

// faulty is a tic-tac-toe bot in Python that plays the first empty cell
// until the game's turn 3, then does what fault says.
func faulty(fault string) []byte {
	return []byte(`import time
while True:
    try:
        print("CurrentTurn")
        turn = int(input())
        print("Board")
        rows = [input().split() for _ in range(3)]
    except EOFError:
        break
    if turn >= 3:
` + fault + `
    x, y = next((x, y) for y in range(3) for x in range(3) if rows[y][x] == "-")
    print(f"PlaceSymbol {x} {y}")
    print("#END")
`)
}

var (
	crashing = faulty(`        print(1 / 0)`)
	sleeping = faulty(`        time.sleep(5)`)
	illegal  = faulty(`        print("PlaceSymbol 9 9")
        print("#END")
        continue`)
)

// newFailArena is an arena of tic-tac-toe with two reference bots, the
// example random bots in C and in Python, and a turn limit of 1 s.
func newFailArena(t *testing.T, c arena.Config) *arena.Arena {
	t.Helper()
	judgetest.NeedTools(t, "gcc", "python3")
	dir := filepath.Join(judgetest.TempDir(t), "arena")
	root := judgetest.Root(t)
	c.Game = "tictactoe"
	c.References = []string{filepath.Join(root, "examples/gomoku/random.c"), filepath.Join(root, "examples/gomoku/random_bot.py")}
	if err := arena.Init(dir, c); err != nil {
		t.Fatal(err)
	}
	a, err := arena.Open(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close() })
	if lim := a.Config(); lim.TestMatches != 2 && c.TestMatches == 0 {
		t.Fatalf("default test matches %d, want 2 a reference", lim.TestMatches)
	}
	return a
}

// submitPy adds an entrant who submits src as bot.py.
func submitPy(t *testing.T, a *arena.Arena, name string, src []byte) (arena.Participant, int64) {
	t.Helper()
	e, _ := entrant(t, a, name, nil)
	id, err := a.Submit(context.Background(), e, arena.Upload{FileName: "bot.py", Data: src})
	if err != nil {
		t.Fatal(err)
	}
	return e, id
}

// runUntil runs a until done holds.
func runUntil(t *testing.T, a *arena.Arena, what string, done func() bool) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() { errc <- a.Run(ctx, 2) }()
	waitFor(t, what, done)
	cancel()
	if err := <-errc; err != nil {
		t.Fatalf("Run: %v", err)
	}
}

// tested says whether the submission is past its test matches.
func tested(t *testing.T, a *arena.Arena, e arena.Participant, id int64) bool {
	switch status(t, a, e, id).Status {
	case arena.StatusQueued, arena.StatusBuilding, arena.StatusTesting:
		return false
	}
	return true
}

// testSeats are the test matches of an entrant as "REF in seat N" for
// the seat the entrant had, and their reasons.
func testSeats(t *testing.T, a *arena.Arena, name string) (seats, reasons []string) {
	t.Helper()
	ms, err := a.Matches(context.Background(), name, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range ms {
		if !m.Test {
			continue
		}
		at := slices.Index(m.Seats, name)
		if at < 0 || len(m.Seats) != 2 {
			t.Fatalf("test match %+v", m)
		}
		seats = append(seats, fmt.Sprintf("%s in seat %d", m.Seats[1-at], at))
		reasons = append(reasons, m.Reason)
	}
	slices.Sort(seats)
	return seats, reasons
}

// everyRef is what testSeats gives for a submission that played each
// reference bot once in each seat.
var everyRef = []string{"ref-random in seat 0", "ref-random in seat 1", "ref-random_bot in seat 0", "ref-random_bot in seat 1"}

// Submissions that crash, time out or play an illegal move in their test
// matches are failing, with what happened in words, and stay out of the
// ladder; an entrant's earlier active submission plays on. Every
// submission meets every reference bot in each seat.
func TestFailing(t *testing.T) {
	if testing.Short() {
		t.Skip("plays real matches")
	}
	a := newFailArena(t, arena.Config{LadderGames: 1})
	dave, did := entrant(t, a, "dave", source(t))
	alice, aid := submitPy(t, a, "alice", crashing)
	bob, bid := submitPy(t, a, "bob", sleeping)
	carol, cid := submitPy(t, a, "carol", illegal)
	// dave's second submission crashes: his first plays on.
	did2, err := a.Submit(context.Background(), dave, arena.Upload{FileName: "bot.py", Data: crashing})
	if err != nil {
		t.Fatal(err)
	}
	runUntil(t, a, "the test matches", func() bool {
		return tested(t, a, dave, did) && tested(t, a, dave, did2) && tested(t, a, alice, aid) && tested(t, a, bob, bid) && tested(t, a, carol, cid)
	})

	for _, c := range []struct {
		e     arena.Participant
		id    int64
		words []string
	}{
		{alice, aid, []string{"alice crashed at turn ", ": ZeroDivisionError: division by zero"}},
		{bob, bid, []string{"bob timed out at turn ", " after 1s"}},
		{carol, cid, []string{"carol made an illegal move at turn ", ": no valid PlaceSymbol before #END (last one was PlaceSymbol 9 9"}},
		{dave, did2, []string{"dave crashed at turn ", ": ZeroDivisionError: division by zero"}},
	} {
		s := status(t, a, c.e, c.id)
		if s.Status != arena.StatusFailing {
			t.Errorf("%s's submission %d: %s, want failing; log %q", c.e.Name, c.id, s.Status, s.Log)
		}
		// Its author reads which test match, which turn, what happened,
		// and has the replays.
		for _, w := range append([]string{"lost 4 of its 4 test matches", "Test match 1, against ref-", "Test match 4, against ref-", "(replay t", "It does not play in the ladder"}, c.words...) {
			if !strings.Contains(s.Log, w) {
				t.Errorf("%s's log does not say %q:\n%s", c.e.Name, w, s.Log)
			}
		}
		if strings.Contains(s.Log, a.Dir()) {
			t.Errorf("%s's log names the arena's folder:\n%s", c.e.Name, s.Log)
		}
		if len(s.Replays) != 4 {
			t.Errorf("%s: test replays %v, want 4", c.e.Name, s.Replays)
		}
	}
	for _, name := range []string{"alice", "bob", "carol"} {
		seats, reasons := testSeats(t, a, name)
		if !slices.Equal(seats, everyRef) {
			t.Errorf("%s's test matches: %v, want %v", name, seats, everyRef)
		}
		for _, r := range reasons {
			if !strings.HasPrefix(r, name+" ") || strings.Contains(r, "forfeit") {
				t.Errorf("%s's test match: reason %q, want it said in words", name, r)
			}
		}
	}
	if s := status(t, a, dave, did); s.Status != arena.StatusActive {
		t.Errorf("dave's first submission: %s, want active (his second failed)", s.Status)
	}
	_, st, err := a.Standings(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(st) != 1 || st[0].Name != "dave" {
		t.Errorf("standings %+v, want dave alone", st)
	}
}

// Where the arena lets them, failing submissions play in the ladder, and
// their failures count in the standings.
func TestFailingJoinsLadder(t *testing.T) {
	if testing.Short() {
		t.Skip("plays real matches")
	}
	a := newFailArena(t, arena.Config{TestMatches: 1, LadderGames: 3, FailingJoinsLadder: true})
	alice, aid := submitPy(t, a, "alice", crashing)
	bob, bid := submitPy(t, a, "bob", sleeping)
	dave, did := entrant(t, a, "dave", source(t))
	runUntil(t, a, "the ladder", func() bool {
		n, st, err := a.Standings(context.Background())
		if err != nil || len(st) != 3 {
			return false
		}
		for _, s := range st {
			if s.Played < 3 {
				return false
			}
		}
		return n >= 3
	})
	for _, c := range []struct {
		e      arena.Participant
		id     int64
		status string
	}{{alice, aid, arena.StatusFailing}, {bob, bid, arena.StatusFailing}, {dave, did, arena.StatusActive}} {
		s := status(t, a, c.e, c.id)
		if s.Status != c.status {
			t.Errorf("%s: %s, want %s; log %q", c.e.Name, s.Status, c.status, s.Log)
		}
		if c.status == arena.StatusFailing && !strings.Contains(s.Log, "It plays in the ladder all the same") {
			t.Errorf("%s's log %q", c.e.Name, s.Log)
		}
		// One test match against each reference, in each seat: 4.
		if seats, _ := testSeats(t, a, c.e.Name); !slices.Equal(seats, everyRef) {
			t.Errorf("%s's test matches: %v, want %v", c.e.Name, seats, everyRef)
		}
	}
	_, st, err := a.Standings(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	failures := 0
	for _, s := range st {
		failures += s.Failures.Total
		switch s.Name {
		case "alice", "bob":
			// Every match of theirs reaches turn 3 or 4, where they
			// fail, unless the other failed first.
			if s.Failures.Total != s.Losses {
				t.Errorf("%s: %+v, want every loss by a failure", s.Name, s)
			}
		case "dave":
			if s.Failures.Total != 0 {
				t.Errorf("dave: %+v, want no failures", s)
			}
		}
	}
	if failures == 0 {
		t.Errorf("standings %+v: no failures", st)
	}
	ms, err := a.Matches(context.Background(), "", 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range ms {
		if !m.Test && !strings.Contains(m.Reason, "alice crashed at turn ") && !strings.Contains(m.Reason, "bob timed out at turn ") {
			t.Errorf("ladder match %v: reason %q", m.Seats, m.Reason)
		}
	}
}
