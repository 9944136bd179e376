//go:build unix

package arena_test

import (
	"context"
	"strings"
	"testing"

	"judge/judge/arena"
)

// TestBuildWarnings: what the compiler said of a build that succeeded
// (its warnings) is in the submission's log, for its author, once it is
// tested and active.
func TestBuildWarnings(t *testing.T) {
	dir, a := newArenaOf(t, arena.Config{TestMatches: 2})
	src := append([]byte("#warning \"check the corners\"\n"), source(t)...)
	alice, id := entrant(t, a, "alice", src)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- a.Run(ctx, 1) }()
	waitFor(t, "alice's submission", func() bool { return status(t, a, alice, id).Status == arena.StatusActive })
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("Run: %v", err)
	}
	s := status(t, a, alice, id)
	if !strings.Contains(s.Log, "bot.c:1:2: warning: #warning \"check the corners\"") || strings.Contains(s.Log, dir) {
		t.Errorf("the log of a build with a warning: %q", s.Log)
	}
}
