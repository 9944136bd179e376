//go:build unix

package arena_test

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"judge/judge/arena"
	"judge/judge/judgetest"
	"judge/judge/procbot"
)

// childEnv, when set, makes the test binary an arena running its ladder
// in that directory until it is killed (TestKill).
const childEnv = "JUDGE_ARENA_TEST_RUN"

func TestMain(m *testing.M) {
	procbot.Init()
	if dir := os.Getenv(childEnv); dir != "" {
		os.Exit(runChild(dir))
	}
	code := m.Run()
	judgetest.Cleanup()
	os.Exit(code)
}

func runChild(dir string) int {
	ctx := context.Background()
	a, err := arena.Open(ctx, dir)
	if err != nil {
		os.Stderr.WriteString(err.Error() + "\n")
		return 1
	}
	if err := a.Run(ctx, 2); err != nil {
		os.Stderr.WriteString(err.Error() + "\n")
		return 1
	}
	return 0
}

const brokenC = "#include <stdio.h>\nint main(void) { return undeclared_thing; }\n"

// newArena makes an arena of tic-tac-toe whose reference bot is the
// example random bot.
func newArena(t *testing.T, tests int) (string, *arena.Arena) {
	return newArenaOf(t, arena.Config{TestMatches: tests})
}

// newArenaOf is newArena with settings c.
func newArenaOf(t *testing.T, c arena.Config) (string, *arena.Arena) {
	t.Helper()
	judgetest.NeedTools(t, "gcc")
	dir := filepath.Join(judgetest.TempDir(t), "arena")
	ref := filepath.Join(judgetest.Root(t), "examples/gomoku/random.c")
	c.Game, c.References = "tictactoe", []string{ref}
	if err := arena.Init(dir, c); err != nil {
		t.Fatal(err)
	}
	a, err := arena.Open(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close() })
	return dir, a
}

func source(t *testing.T) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(judgetest.Root(t), "examples/gomoku/random.c"))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestEntrants(t *testing.T) {
	ctx := context.Background()
	_, a := newArena(t, 1)
	tok, err := a.AddParticipant(ctx, "alice")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.AddParticipant(ctx, "alice"); !errors.Is(err, arena.ErrExists) {
		t.Errorf("alice again: %v, want ErrExists", err)
	}
	for _, bad := range []string{"", "../x", "a b", strings.Repeat("x", 40)} {
		if _, err := a.AddParticipant(ctx, bad); err == nil {
			t.Errorf("name %q accepted", bad)
		}
	}
	tok2, err := a.AddParticipant(ctx, "bob")
	if err != nil {
		t.Fatal(err)
	}
	if tok == tok2 || len(tok) < 32 {
		t.Errorf("tokens %q and %q", tok, tok2)
	}
	e, err := a.Authenticate(ctx, tok)
	if err != nil || e.Name != "alice" {
		t.Errorf("Authenticate(alice's token) = %+v, %v", e, err)
	}
	for _, bad := range []string{"", tok + "x", tok[:len(tok)-1], strings.ToUpper(tok)} {
		if _, err := a.Authenticate(ctx, bad); !errors.Is(err, arena.ErrUnauthorized) {
			t.Errorf("Authenticate(%q) = %v, want ErrUnauthorized", bad, err)
		}
	}
	if err := a.RemoveParticipant(ctx, "alice"); err != nil {
		t.Fatal(err)
	}
	if err := a.RemoveParticipant(ctx, "alice"); !errors.Is(err, arena.ErrNotFound) {
		t.Errorf("removing alice again: %v, want ErrNotFound", err)
	}
	if _, err := a.Authenticate(ctx, tok); !errors.Is(err, arena.ErrUnauthorized) {
		t.Errorf("removed alice's token: %v, want ErrUnauthorized", err)
	}
	es, err := a.Participants(ctx)
	if err != nil || len(es) != 2 || es[0].Name != "alice" || !es[0].Retired || es[1].Name != "bob" || es[1].Retired {
		t.Errorf("Entrants = %+v, %v", es, err)
	}
	// The token is stored hashed only.
	db, err := os.ReadFile(filepath.Join(a.Dir(), "arena.db"))
	if err != nil {
		t.Fatal(err)
	}
	wal, _ := os.ReadFile(filepath.Join(a.Dir(), "arena.db-wal"))
	if strings.Contains(string(db)+string(wal), tok2) {
		t.Error("a token is stored in the clear")
	}
}

// A failed init leaves nothing behind: it can be run again.
func TestInitFails(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "arena")
	for _, c := range []arena.Config{{Game: "chess"}, {Game: "tictactoe", Params: map[string]int{"nosuch": 1}},
		{Game: "tictactoe", ConfigFile: filepath.Join(dir, "missing.toml")}} {
		if err := arena.Init(dir, c); err == nil {
			t.Errorf("Init(%+v) made an arena", c)
		}
		if _, err := os.Stat(dir); !os.IsNotExist(err) {
			t.Errorf("Init(%+v) left %s: %v", c, dir, err)
		}
	}
	if err := arena.Init(dir, arena.Config{Game: "tictactoe"}); err != nil {
		t.Fatal(err)
	}
	if err := arena.Init(dir, arena.Config{Game: "tictactoe"}); err == nil {
		t.Error("Init over an arena")
	}
}

func TestSubmitLimits(t *testing.T) {
	ctx := context.Background()
	dir := filepath.Join(judgetest.TempDir(t), "arena")
	if err := arena.Init(dir, arena.Config{Game: "tictactoe", MaxUploadBytes: 100, SubmissionsPerHour: 2}); err != nil {
		t.Fatal(err)
	}
	a, err := arena.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	if _, err := a.AddParticipant(ctx, "alice"); err != nil {
		t.Fatal(err)
	}
	e, _ := a.Participants(ctx)
	small := arena.Upload{FileName: "bot.py", Data: []byte("print(1)\n")}
	if _, err := a.Submit(ctx, e[0], arena.Upload{FileName: "bot.py", Data: make([]byte, 101)}); !errors.Is(err, arena.ErrTooLarge) {
		t.Errorf("101 bytes: %v, want ErrTooLarge", err)
	}
	if _, err := a.Submit(ctx, e[0], arena.Upload{URL: "file:///etc/passwd"}); !errors.Is(err, arena.ErrBadArchive) {
		t.Errorf("file URL: %v, want ErrBadArchive", err)
	}
	if _, err := a.Submit(ctx, e[0], arena.Upload{FileName: "bot.tar", Data: []byte("not a tar")}); !errors.Is(err, arena.ErrBadArchive) {
		t.Errorf("a bad archive: %v, want ErrBadArchive", err)
	}
	for i := range 2 {
		if _, err := a.Submit(ctx, e[0], small); err != nil {
			t.Fatalf("submission %d: %v", i, err)
		}
	}
	if _, err := a.Submit(ctx, e[0], small); !errors.Is(err, arena.ErrRateLimited) {
		t.Errorf("third in the hour: %v, want ErrRateLimited", err)
	}
	if err := a.Freeze(ctx, true); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Submit(ctx, e[0], small); !errors.Is(err, arena.ErrFrozen) {
		t.Errorf("frozen: %v, want ErrFrozen", err)
	}
	subs, err := a.Submissions(ctx, e[0])
	if err != nil || len(subs) != 2 || subs[0].Status != arena.StatusQueued {
		t.Errorf("Submissions = %+v, %v", subs, err)
	}
}

// waitFor polls cond until it holds, failing after a minute.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(2 * time.Minute)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("waited in vain for %s", what)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// entrant adds an entrant and submits src as its bot.c.
func entrant(t *testing.T, a *arena.Arena, name string, src []byte) (arena.Participant, int64) {
	t.Helper()
	ctx := context.Background()
	tok, err := a.AddParticipant(ctx, name)
	if err != nil {
		t.Fatal(err)
	}
	e, err := a.Authenticate(ctx, tok)
	if err != nil {
		t.Fatal(err)
	}
	if src == nil {
		return e, 0
	}
	id, err := a.Submit(ctx, e, arena.Upload{FileName: "bot.c", Data: src})
	if err != nil {
		t.Fatal(err)
	}
	return e, id
}

func status(t *testing.T, a *arena.Arena, e arena.Participant, id int64) arena.Submission {
	t.Helper()
	s, err := a.Submission(context.Background(), e, id)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestRun(t *testing.T) {
	dir, a := newArenaOf(t, arena.Config{TestMatches: 2, LadderGames: 8})
	good := source(t)
	alice, aid := entrant(t, a, "alice", good)
	bob, _ := entrant(t, a, "bob", nil)
	bid, err := a.Submit(context.Background(), bob, arena.Upload{FileName: "bot.tar.gz", Data: targz(t, "src/bot.c", good)})
	if err != nil {
		t.Fatal(err)
	}
	carol, cid := entrant(t, a, "carol", []byte(brokenC))

	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- a.Run(ctx, 2) }()
	// The ladder of alice and bob may be over before carol's build is:
	// wait for both.
	waitFor(t, "the ladder", func() bool {
		n, st, err := a.Standings(context.Background())
		return err == nil && n >= 8 && len(st) == 2
	})
	waitFor(t, "carol's build", func() bool {
		s := status(t, a, carol, cid).Status
		return s != arena.StatusQueued && s != arena.StatusBuilding
	})
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("Run: %v", err)
	}

	c := status(t, a, carol, cid)
	if c.Status != arena.StatusCompileError || !strings.Contains(c.Log, "bot.c:2:25: error:") || strings.Contains(c.Log, dir) {
		t.Errorf("carol's broken bot: status %s, log %q", c.Status, c.Log)
	}
	if _, err := a.Submission(context.Background(), alice, cid); !errors.Is(err, arena.ErrNotFound) {
		t.Errorf("alice asking for carol's submission: %v, want ErrNotFound", err)
	}
	for _, x := range []struct {
		e  arena.Participant
		id int64
	}{{alice, aid}, {bob, bid}} {
		s := status(t, a, x.e, x.id)
		if s.Status != arena.StatusActive || len(s.Replays) != 2 {
			t.Errorf("%s: status %s, test replays %v", x.e.Name, s.Status, s.Replays)
		}
		for _, r := range s.Replays {
			if p, err := a.ReplayPath(r); err != nil {
				t.Errorf("replay %s: %v", r, err)
			} else if _, err := os.Stat(p); err != nil {
				t.Error(err)
			}
		}
	}
	n, st, err := a.Standings(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if n != 8 {
		t.Errorf("%d ladder matches, want 8 (--ladder-games)", n)
	}
	for _, s := range st {
		if s.Played != n || s.Wins+s.Draws+s.Losses != s.Played || !(s.RatingLow <= s.Rating && s.Rating <= s.RatingHigh) {
			t.Errorf("standing %+v of %d matches", s, n)
		}
	}
	ms, err := a.Matches(context.Background(), "alice", 0)
	if err != nil {
		t.Fatal(err)
	}
	tests := 0
	for _, m := range ms {
		if m.Test {
			tests++
			if !slices.Contains(m.Seats, "ref-random") {
				t.Errorf("test match %+v without the reference bot", m)
			}
		}
		if len(m.Seats) != 2 || m.Result == "" {
			t.Errorf("match %+v", m)
		}
		// The reason names the bots as judge match does, not the
		// game's X and O.
		if strings.Contains(m.Reason, "in a row") && !namedWin.MatchString(m.Reason) {
			t.Errorf("match %d's reason %q does not name its bots", m.ID, m.Reason)
		}
	}
	if tests != 2 || len(ms) < 2+n {
		t.Errorf("alice's matches: %d, %d tests, ladder %d", len(ms), tests, n)
	}
	for _, bad := range []string{"../arena.db", "x", ".json", "a/b.json"} {
		if _, err := a.ReplayPath(bad); !errors.Is(err, arena.ErrNotFound) {
			t.Errorf("ReplayPath(%q) = %v", bad, err)
		}
	}

	// A newer submission replaces alice's once tested; the old one is
	// kept, retired.
	id2, err := a.Submit(context.Background(), alice, arena.Upload{FileName: "bot.c", Data: good})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel = context.WithCancel(context.Background())
	go func() { done <- a.Run(ctx, 2) }()
	waitFor(t, "alice's new submission", func() bool { return status(t, a, alice, id2).Status == arena.StatusActive })
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("Run: %v", err)
	}
	if s := status(t, a, alice, aid); s.Status != arena.StatusRetired {
		t.Errorf("alice's first submission: %s, want retired", s.Status)
	}
}

// namedWin is a tic-tac-toe win in the arena's words: "alice (X) made 3
// in a row", not the game's "X made 3 in a row".
var namedWin = regexp.MustCompile(`^[A-Za-z0-9_.#-]+ \([XO]\) made 3 in a row`)

// targz is a .tar.gz archive of one file.
func targz(t *testing.T, name string, data []byte) []byte {
	t.Helper()
	var b bytes.Buffer
	z := gzip.NewWriter(&b)
	w := tar.NewWriter(z)
	if err := w.WriteHeader(&tar.Header{Name: name, Mode: 0o644, Size: int64(len(data)), Typeflag: tar.TypeReg}); err != nil {
		t.Fatal(err)
	}
	w.Write(data)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := z.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// count is a count the database gives.
func count(t *testing.T, dir string, q string) int {
	t.Helper()
	a, err := arena.Open(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	n, err := arena.Count(context.Background(), a, q)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// TestKill kills the arena (SIGKILL, its bots with it) while it plays
// its ladder: every submission and every finished match is still there,
// each with its replay, and the ladder goes on.
func TestKill(t *testing.T) {
	if testing.Short() {
		t.Skip("plays real matches")
	}
	dir, a := newArena(t, 1)
	for _, n := range []string{"alice", "bob", "carol"} {
		entrant(t, a, n, source(t))
	}
	a.Close()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	for round := range 3 {
		cmd := exec.Command(exe, "-test.run=^$")
		cmd.Env = append(os.Environ(), childEnv+"="+dir)
		cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
		var out strings.Builder
		cmd.Stderr, cmd.Stdout = &out, &out
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		before := count(t, dir, `SELECT count(*) FROM matches WHERE test = 0`)
		seen := before
		waitFor(t, "ladder matches", func() bool {
			seen = count(t, dir, `SELECT count(*) FROM matches WHERE test = 0`)
			return seen >= before+3
		})
		// A submission taken by this process while the other plays.
		b, err := arena.Open(context.Background(), dir)
		if err != nil {
			t.Fatal(err)
		}
		es, err := b.Participants(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if _, err := b.Submit(context.Background(), es[round], arena.Upload{FileName: "bot.c", Data: source(t)}); err != nil {
			t.Fatal(err)
		}
		b.Close()
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		cmd.Wait()
		if after := count(t, dir, `SELECT count(*) FROM matches WHERE test = 0`); after < seen {
			t.Fatalf("round %d: %d ladder matches seen, %d after kill -9\n%s", round, seen, after, out.String())
		}
		if n := count(t, dir, `SELECT count(*) FROM submissions`); n != 4+round {
			t.Fatalf("round %d: %d submissions after kill -9, want %d", round, n, 4+round)
		}
		// Each with its files.
		for id := 1; id <= 4+round; id++ {
			if fs, err := os.ReadDir(filepath.Join(dir, "submissions", fmt.Sprint(id))); err != nil || len(fs) != 1 {
				t.Errorf("submission %d: %v, %v", id, fs, err)
			}
		}
		if n := count(t, dir, `SELECT count(DISTINCT entrant_id) FROM submissions WHERE status = 'active'`); n != 3 {
			t.Fatalf("round %d: %d entrants with an active submission after kill -9, want 3", round, n)
		}
	}
	a, err = arena.Open(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	ms, err := a.Matches(context.Background(), "", 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range ms {
		if _, err := a.ReplayPath(m.Replay); err != nil {
			t.Errorf("match %d: replay %s: %v", m.ID, m.Replay, err)
		}
	}
}

// A web bot for a game web bots do not play is refused with the reason,
// shown to its author; the arena goes on.
func TestWebBotWrongGame(t *testing.T) {
	ctx := context.Background()
	dir := filepath.Join(judgetest.TempDir(t), "arena")
	if err := arena.Init(dir, arena.Config{Game: "splix-small", WebBots: []string{"127.0.0.1/32"}}); err != nil {
		t.Fatal(err)
	}
	a, err := arena.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	e, _ := entrant(t, a, "alice", nil)
	id, err := a.Submit(ctx, e, arena.Upload{URL: "http://127.0.0.1:1/bot.php"})
	if err != nil {
		t.Fatal(err)
	}
	rctx, cancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- a.Run(rctx, 1) }()
	waitFor(t, "the web bot's verdict", func() bool {
		s := status(t, a, e, id).Status
		return s != arena.StatusQueued && s != arena.StatusBuilding
	})
	// One Run at a time, in this process or another.
	b, err := arena.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	bctx, bcancel := context.WithTimeout(ctx, time.Minute) // should it run after all
	defer bcancel()
	if err := b.Run(bctx, 1); err == nil || !strings.Contains(err.Error(), "already running") {
		t.Errorf("a second Run: %v", err)
	}
	b.Close()
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("Run: %v", err)
	}
	if s := status(t, a, e, id); s.Status != arena.StatusCompileError || !strings.Contains(s.Log, "splix") {
		t.Errorf("status %s, log %q", s.Status, s.Log)
	}
}

// A game of more seats than there are active submissions: the ladder
// plays with fewer, as the game's players parameter allows.
func TestFewerSeats(t *testing.T) {
	if testing.Short() {
		t.Skip("plays real matches")
	}
	judgetest.NeedTools(t, "python3")
	ctx := context.Background()
	dir := filepath.Join(judgetest.TempDir(t), "arena")
	if err := arena.Init(dir, arena.Config{Game: "splix-small", Params: map[string]int{"players": 3}, LadderGames: 1}); err != nil {
		t.Fatal(err)
	}
	a, err := arena.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	src, err := os.ReadFile(filepath.Join(judgetest.Root(t), "examples/splix/random_bot.py"))
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []string{"alice", "bob"} {
		e, _ := entrant(t, a, n, nil)
		if _, err := a.Submit(ctx, e, arena.Upload{FileName: "bot.py", Data: src}); err != nil {
			t.Fatal(err)
		}
	}
	rctx, cancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- a.Run(rctx, 1) }()
	waitFor(t, "a ladder match", func() bool {
		n, _, err := a.Standings(ctx)
		return err == nil && n >= 1
	})
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("Run: %v", err)
	}
	ms, err := a.Matches(ctx, "", 0)
	if err != nil || len(ms) == 0 {
		t.Fatalf("matches %+v, %v", ms, err)
	}
	if len(ms[0].Seats) != 2 {
		t.Errorf("a match of seats %v, want alice and bob", ms[0].Seats)
	}
}
