//go:build unix

package arena_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"judge/judge/arena"
)

// TestFrozenPlaysNothing: an arena frozen for its final and served again
// plays no ladder match, no test match and builds nothing, however long
// it runs; opened again, it plays on.
func TestFrozenPlaysNothing(t *testing.T) {
	dir, a := newArenaOf(t, arena.Config{TestMatches: 1, LadderGames: 1000})
	good := source(t)
	entrant(t, a, "alice", good)
	entrant(t, a, "bob", good)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- a.Run(ctx, 1) }()
	waitFor(t, "the ladder", func() bool {
		n, _, err := a.Standings(context.Background())
		return err == nil && n >= 2
	})
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("Run: %v", err)
	}
	// Carol submits just before the final: her submission is queued.
	_, cid := entrant(t, a, "carol", good)
	if err := a.Freeze(context.Background(), true); err != nil {
		t.Fatal(err)
	}
	matches := count(t, dir, `SELECT count(*) FROM matches`)

	ctx, cancel = context.WithCancel(context.Background())
	go func() { done <- a.Run(ctx, 2) }()
	// Long enough for a dozen matches of random tic-tac-toe bots, had
	// the arena played on.
	time.Sleep(3 * time.Second)
	if n := count(t, dir, `SELECT count(*) FROM matches`); n != matches {
		t.Errorf("the frozen arena played %d matches", n-matches)
	}
	if n := count(t, dir, fmt.Sprintf(`SELECT count(*) FROM submissions WHERE id = %d AND status = 'queued'`, cid)); n != 1 {
		t.Errorf("the frozen arena built carol's submission")
	}
	// Opened again, it plays on: the Run above was alive.
	if err := a.Freeze(context.Background(), false); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the ladder again", func() bool { return count(t, dir, `SELECT count(*) FROM matches`) > matches })
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("Run: %v", err)
	}
}
