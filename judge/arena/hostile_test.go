//go:build unix

package arena_test

import (
	"context"
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"judge/judge"
	"judge/judge/arena"
	"judge/judge/bots"
	"judge/judge/judgetest"
)

// run runs a until the test ends, its log in the test's; Run must not
// fail.
func run(t *testing.T, a *arena.Arena, jobs int) (stop func()) {
	t.Helper()
	a.SetLog(logWriter{t})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- a.Run(ctx, jobs) }()
	var once sync.Once
	stop = func() {
		once.Do(func() {
			select {
			case err := <-done:
				t.Errorf("Run ended by itself: %v", err)
				return
			default:
			}
			cancel()
			if err := <-done; err != nil {
				t.Errorf("Run: %v", err)
			}
		})
	}
	t.Cleanup(stop)
	return stop
}

// logWriter writes the arena's log in the test's.
type logWriter struct{ t testing.TB }

func (w logWriter) Write(b []byte) (int, error) {
	w.t.Log(strings.TrimSuffix(string(b), "\n"))
	return len(b), nil
}

// Refused uploads count toward a limit of their own: an entrant cannot
// make the server unpack bad archives for ever.
func TestRefusedUploadsAreLimited(t *testing.T) {
	ctx := context.Background()
	_, a := newArenaOf(t, arena.Config{TestMatches: 1, RefusedPerHour: 5})
	alice, _ := entrant(t, a, "alice", nil)
	bad := arena.Upload{FileName: "bot.tar.gz", Data: []byte("not an archive")}
	for i := range 5 {
		if _, err := a.Submit(ctx, alice, bad); !errors.Is(err, arena.ErrBadArchive) {
			t.Fatalf("bad upload %d: %v, want ErrBadArchive", i+1, err)
		}
	}
	if _, err := a.Submit(ctx, alice, bad); !errors.Is(err, arena.ErrRateLimited) {
		t.Errorf("sixth bad upload in the hour: %v, want ErrRateLimited", err)
	}
	if _, err := a.Submit(ctx, alice, arena.Upload{FileName: "bot.c", Data: source(t)}); !errors.Is(err, arena.ErrRateLimited) {
		t.Errorf("a good upload after five refused: %v, want ErrRateLimited", err)
	}
	// Another entrant is not held by alice's refusals.
	bob, _ := entrant(t, a, "bob", nil)
	if _, err := a.Submit(ctx, bob, arena.Upload{FileName: "bot.c", Data: source(t)}); err != nil {
		t.Errorf("bob's upload: %v", err)
	}
}

// A database locked for longer than SQLite waits (another process's
// long transaction) fails the arena's writes for a while: Run reports it
// and goes on, and records matches again once the lock is gone.
func TestRunOutlastsALockedDatabase(t *testing.T) {
	if testing.Short() {
		t.Skip("holds the database for 11 s")
	}
	dir, a := newArenaOf(t, arena.Config{TestMatches: 1, LadderGames: 100000})
	for _, n := range []string{"alice", "bob"} {
		entrant(t, a, n, source(t))
	}
	run(t, a, 2)
	waitFor(t, "ladder matches", func() bool { return count(t, dir, `SELECT count(*) FROM matches WHERE test = 0`) >= 2 })

	// It waits for the arena's own writes to take the lock.
	db, err := sql.Open("sqlite", "file:"+filepath.Join(dir, "arena.db")+"?_pragma=busy_timeout(10000)")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	conn, err := db.Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := conn.ExecContext(context.Background(), `BEGIN IMMEDIATE`); err != nil {
		t.Fatal(err)
	}
	// Longer than the arena's busy timeout (10 s): its writes fail.
	time.Sleep(11 * time.Second)
	if _, err := conn.ExecContext(context.Background(), `ROLLBACK`); err != nil {
		t.Fatal(err)
	}
	conn.Close()
	before := count(t, dir, `SELECT count(*) FROM matches WHERE test = 0`)
	waitFor(t, "ladder matches after the lock", func() bool {
		return count(t, dir, `SELECT count(*) FROM matches WHERE test = 0`) >= before+3
	})
}

// A submission whose build cannot start any more (its program replaced,
// in the build cache, by a file that is no program) is benched with the
// reason, for its author; the arena goes on with the others, and starts
// again after a restart.
func TestUnstartableSubmissionIsBenched(t *testing.T) {
	dir, a := newArenaOf(t, arena.Config{TestMatches: 1, LadderGames: 100000})
	good := source(t)
	alice, aid := entrant(t, a, "alice", good)
	// bob's and carol's sources differ from alice's, and so their builds.
	entrant(t, a, "bob", append(append([]byte{}, good...), "/* bob */\n"...))
	entrant(t, a, "carol", append(append([]byte{}, good...), "/* carol */\n"...))
	stop := run(t, a, 2)
	waitFor(t, "three active submissions", func() bool {
		return count(t, dir, `SELECT count(*) FROM submissions WHERE status = 'active'`) == 3
	})
	stop()

	// alice's program becomes a file that is no program. (A link there
	// would not do: a cached build found with a link in it is built
	// again.)
	exes, _ := filepath.Glob(filepath.Join(dir, "builds", "*", "out", "bot"))
	broke := 0
	for _, exe := range exes {
		src, err := os.ReadFile(filepath.Join(filepath.Dir(filepath.Dir(exe)), "src", "bot.c"))
		if err != nil || string(src) != string(good) {
			continue
		}
		if err := os.Remove(exe); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(exe, []byte("not a program\n"), 0o755); err != nil {
			t.Fatal(err)
		}
		broke++
	}
	if broke != 1 {
		t.Fatalf("found %d builds of alice's source among %v", broke, exes)
	}

	// Started again, the arena goes on.
	b, err := arena.Open(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	before := count(t, dir, `SELECT count(*) FROM matches WHERE test = 0`)
	run(t, b, 2)
	waitFor(t, "alice's submission out of the ladder", func() bool {
		s := status(t, b, alice, aid).Status
		return s == arena.StatusBenched || s == arena.StatusCompileError
	})
	waitFor(t, "bob and carol's ladder matches", func() bool {
		return count(t, dir, `SELECT count(*) FROM matches WHERE test = 0`) >= before+3
	})
	s := status(t, b, alice, aid)
	if s.Log == "" || strings.Contains(s.Log, dir) {
		t.Errorf("alice's submission: %s, log %q: want a reason that does not show the arena's folder", s.Status, s.Log)
	}
}

// Builds are shared between the entrants: one entrant's queue of slow
// builds does not hold another's upload.
func TestBuildsAreSharedFairly(t *testing.T) {
	langs := filepath.Join(judgetest.TempDir(t), "languages.toml")
	slow := string(bots.DefaultLanguages) + `
[language.slow]
extensions = ["slow"]
compile = ["sh", "-c", "sleep 3; exit 1"]
run = ["{exe}"]
`
	if err := os.WriteFile(langs, []byte(slow), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	_, a := newArenaOf(t, arena.Config{TestMatches: 1, Languages: langs})
	alice, _ := entrant(t, a, "alice", nil)
	var ids []int64
	for i := range 3 {
		id, err := a.Submit(ctx, alice, arena.Upload{FileName: "bot.slow", Data: []byte{byte('a' + i)}})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, id)
	}
	bob, bid := entrant(t, a, "bob", source(t))
	run(t, a, 1)
	// When bob's leaves the queue, alice's last is still in it.
	var last string
	waitFor(t, "bob's build", func() bool {
		last = status(t, a, alice, ids[2]).Status
		return status(t, a, bob, bid).Status != arena.StatusQueued
	})
	if last != arena.StatusQueued {
		t.Errorf("bob's build started after all three of alice's (her last is %s)", last)
	}
	waitFor(t, "alice's builds", func() bool { return status(t, a, alice, ids[2]).Status == arena.StatusCompileError })
}

// The arena's folder and database are its owner's alone, also for an
// arena an earlier judge made open to all.
func TestArenaFilesArePrivate(t *testing.T) {
	dir, a := newArena(t, 1)
	entrant(t, a, "alice", source(t))
	check := func(when string) {
		t.Helper()
		for name, want := range map[string]os.FileMode{"": 0o700, "arena.db": 0o600, "arena.toml": 0o600, "submissions": 0o700} {
			st, err := os.Stat(filepath.Join(dir, name))
			if err != nil {
				t.Fatal(err)
			}
			if st.Mode().Perm()&0o077 != 0 || st.Mode().Perm() != want {
				t.Errorf("%s: %s is %v, want %v", when, filepath.Join(dir, name), st.Mode().Perm(), want)
			}
		}
		for _, p := range []string{"arena.db-wal", "arena.db-shm"} {
			if st, err := os.Stat(filepath.Join(dir, p)); err == nil && st.Mode().Perm()&0o077 != 0 {
				t.Errorf("%s: %s is %v", when, p, st.Mode().Perm())
			}
		}
	}
	check("made")
	a.Close()
	os.Chmod(dir, 0o755)
	os.Chmod(filepath.Join(dir, "arena.db"), 0o644)
	b, err := arena.Open(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	b.Close()
	check("opened again")
}

// What a server killed at any moment leaves (an upload being unpacked,
// a build cut short, a replay of a match not recorded) is removed when
// the arena runs again.
func TestRunCleansWhatAKilledServerLeft(t *testing.T) {
	dir, a := newArena(t, 1)
	old := time.Now().Add(-time.Hour)
	for _, p := range []string{"submissions/.incoming-1/alice", "submissions/.incoming-2/bob", "builds/0123abcd.tmp-42/src"} {
		if err := os.MkdirAll(filepath.Join(dir, p), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	os.Chtimes(filepath.Join(dir, "submissions/.incoming-1"), old, old)
	if err := os.WriteFile(filepath.Join(dir, "replays", "m1-orphan.json"), []byte("{}"), 0o600); err != nil {
		t.Fatal(err)
	}
	stop := run(t, a, 1)
	waitFor(t, "the clean-up", func() bool {
		_, err := os.Stat(filepath.Join(dir, "replays", "m1-orphan.json"))
		return os.IsNotExist(err)
	})
	stop()
	for p, kept := range map[string]bool{"submissions/.incoming-1": false, "builds/0123abcd.tmp-42": false,
		// Being unpacked now, by another process, for all Run knows.
		"submissions/.incoming-2": true} {
		if _, err := os.Stat(filepath.Join(dir, p)); (err == nil) != kept {
			t.Errorf("%s: %v, want kept %v", p, err, kept)
		}
	}
}

// noisy is a tic-tac-toe bot that plays the first empty cell and writes
// 4 KiB on stderr every turn.
const noisy = `#include <stdio.h>
#include <string.h>
int main(void) {
    static char junk[4096];
    memset(junk, 'x', sizeof junk - 1);
    for (;;) {
        int n, k;
        printf("Params\n");
        if (scanf("%d %d", &n, &k) != 2) return 0;
        printf("Board\n");
        int at = -1;
        for (int i = 0; i < n * n; i++) {
            char c[2];
            if (scanf("%1s", c) != 1) return 0;
            if (c[0] == '-' && at < 0) at = i;
        }
        fputs(junk, stderr);
        printf("PlaceSymbol %d %d\n#END\n", at % n, at / n);
    }
}
`

// The replays stay within the arena's budget: past it the oldest ladder
// replays are dropped, and said to be; test matches' are kept. A bot's
// stderr in a replay is bounded.
func TestReplayBudget(t *testing.T) {
	dir, a := newArenaOf(t, arena.Config{TestMatches: 1, LadderGames: 100000, ReplayBudgetMB: 1})
	entrant(t, a, "alice", []byte(noisy))
	entrant(t, a, "bob", []byte(strings.Replace(noisy, "first empty", "first free", 1)))
	stop := run(t, a, 2)
	waitFor(t, "dropped replays", func() bool {
		return count(t, dir, `SELECT count(*) FROM matches WHERE replay_dropped = 1`) >= 20
	})
	stop()
	var total int64
	ents, err := os.ReadDir(filepath.Join(dir, "replays"))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		info, err := e.Info()
		if err != nil {
			t.Fatal(err)
		}
		total += info.Size()
	}
	if total > 1<<20 {
		t.Errorf("the replays take %d bytes, over the budget of 1 MiB", total)
	}
	ms, err := a.Matches(context.Background(), "", 0)
	if err != nil {
		t.Fatal(err)
	}
	dropped, kept := 0, 0
	for _, m := range ms {
		if m.ReplayDropped {
			dropped++
			if m.Test || m.Replay != "" {
				t.Errorf("match %d: dropped, test %v, replay %q", m.ID, m.Test, m.Replay)
			}
			continue
		}
		kept++
		p, err := a.ReplayPath(m.Replay)
		if err != nil {
			t.Errorf("match %d: kept replay %q: %v", m.ID, m.Replay, err)
			continue
		}
		f, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		rp, err := judge.ReadReplay(f)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		for _, b := range rp.Bots {
			if len(b.Stderr) > arena.DefaultStderrBytes {
				t.Errorf("match %d: %d bytes of %s's stderr kept", m.ID, len(b.Stderr), b.Name)
			}
		}
	}
	// The newest are kept, the oldest dropped.
	if dropped == 0 || kept == 0 || ms[0].ReplayDropped || !ms[len(ms)-1].Test {
		t.Errorf("%d dropped, %d kept; newest dropped %v", dropped, kept, ms[0].ReplayDropped)
	}
}
